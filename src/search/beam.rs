//! The beam search: layer by layer, keeping the best `k` partial paths.

use super::Found;
use super::bound::Ctx;
use super::exact::expand;
use super::labels::Labels;
use super::labels::NO_PARENT;
use crate::graph::NodeId;
use crate::search::SearchStats;

pub(super) fn beam(
    ctx: &Ctx<'_>,
    labels: &mut Labels,
    start: NodeId,
    goal: NodeId,
    width: usize,
) -> Found {
    let mut stats = SearchStats::default();
    let s0 = labels.state(start, 0);
    labels.set(s0, 0, NO_PARENT, 0, ctx.h(start.0));
    let mut frontier: Vec<(u32, usize)> = vec![(0, s0)];
    let mut found: Option<usize> = None;
    while !frontier.is_empty() {
        let mut next: Vec<(f64, u32, usize)> = Vec::new();
        for (g, state) in frontier.drain(..) {
            if g > labels.best(state) {
                stats.pruned += 1;
                continue;
            }
            let (node, _) = ctx.split(state);
            if node == goal {
                if found.is_none_or(|f| g < labels.best(f)) {
                    found = Some(state);
                }
                continue;
            }
            expand(ctx, labels, &mut stats, state, g, |f, g2, s2| {
                next.push((f, g2, s2));
            })?;
        }
        next.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        // A label may appear twice (improved within the layer); keep the latest.
        next.retain(|&(_, g, s)| labels.best(s) == g);
        if next.len() > width {
            stats.pruned += next.len() - width;
            next.truncate(width);
        }
        if let Some(f) = found
            && next
                .first()
                .is_none_or(|n| n.0 >= f64::from(labels.best(f)))
        {
            break;
        }
        frontier = next.into_iter().map(|(_, g, s)| (g, s)).collect();
    }
    Ok((found.map(|s| labels.route(s, ctx.map)), stats))
}
