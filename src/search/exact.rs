//! The exact search: A* on whole ticks with dominance pruning.

use super::Found;
use super::bound::Ctx;
use super::labels::Labels;
use super::labels::NO_PARENT;
use super::queue::{BucketQueue, key};
use crate::graph::{LinkId, NodeId};
use crate::search::{PathError, SearchStats};

pub(super) fn exact(ctx: &Ctx<'_>, labels: &mut Labels, start: NodeId, goal: NodeId) -> Found {
    let mut stats = SearchStats::default();
    let s0 = labels.state(start, 0);
    let h0 = ctx.h(start.0);
    labels.set(s0, 0, NO_PARENT, 0, h0);
    let mut heap = std::mem::replace(&mut labels.heap, BucketQueue::new());
    heap.push(key(h0), 0, s0 as u32);
    let found = loop {
        let Some((_, g, state)) = heap.pop() else {
            break Ok((None, stats));
        };
        let state = state as usize;
        if g > labels.best(state) {
            stats.pruned += 1;
            continue;
        }
        let (node, _) = ctx.split(state);
        if node == goal {
            break Ok((Some(labels.route(state, ctx.map)), stats));
        }
        if let Err(e) = expand(ctx, labels, &mut stats, state, g, |f, g2, s2| {
            heap.push(key(f), g2, s2 as u32);
        }) {
            break Err(e);
        }
    };
    // Keep the heap's allocation for the next search.
    labels.heap = heap;
    found
}

/// Expands the label `state` (reached at `g`): counts the expansion against
/// the budget, relaxes every allowed link, and hands each label that is not
/// dominated to `push` as `(f, g, state)`.
pub(super) fn expand(
    ctx: &Ctx<'_>,
    labels: &mut Labels,
    stats: &mut SearchStats,
    state: usize,
    g: u32,
    mut push: impl FnMut(f64, u32, usize),
) -> Result<(), PathError> {
    if stats.expanded >= ctx.budget {
        return Err(PathError::BudgetExhausted {
            limit: ctx.opts.max_expansions,
            stats: *stats,
        });
    }
    stats.expanded += 1;
    let (node, j) = ctx.split(state);
    let capped = ctx.opts.max_jumps.is_some();
    let filter = ctx.forbid.contains(&true) || !ctx.banned.is_empty();
    if !filter && !capped {
        // The common case, one state per node and every link allowed: the
        // loop below without its per-link tests, over the reduced graph. A
        // link it leaves out has a sibling to the same target that is
        // faster, or as fast and earlier: its label would be dropped as
        // dominated at once, or pushed, overwritten and dropped when popped,
        // so leaving it out changes no label, no pop order and so no route.
        let (hops, dominated) = ctx.map.hops_from(node.0);
        stats.pruned += dominated;
        for e in hops {
            let g2 = g + u32::from(e.ticks);
            let s2 = e.target as usize;
            let seen = labels.best[s2];
            if seen.wrapping_sub(labels.tag) <= u64::from(g2) {
                stats.pruned += 1;
                continue;
            }
            // A current label (stamped this search) holds the node's bound.
            let h = if seen >= labels.tag {
                labels.via[s2].h
            } else {
                ctx.h_at(e.target, i32::from(e.col))
            };
            labels.set(s2, g2, state as u32, e.link, h);
            push(f64::from(g2) + h, g2, s2);
        }
        return Ok(());
    }
    let first = ctx.map.link_range(node).start;
    for (k, e) in ctx.map.edges_from(node.0).iter().enumerate() {
        let id = first + k as u32;
        if filter && (ctx.forbid[e.kind.index()] || ctx.banned.binary_search(&LinkId(id)).is_ok()) {
            continue;
        }
        let j2 = if capped { j + usize::from(e.jumps) } else { 0 };
        if j2 >= ctx.levels {
            continue;
        }
        let g2 = g + u32::from(e.ticks);
        if labels.dominated(e.target, j2, g2) {
            stats.pruned += 1;
            continue;
        }
        let s2 = e.target as usize * ctx.levels + j2;
        // With one state per node, a current label holds the node's bound.
        let h = if ctx.levels == 1 && labels.best[s2] >= labels.tag {
            labels.via[s2].h
        } else {
            ctx.h(e.target)
        };
        labels.set(s2, g2, state as u32, id, h);
        push(f64::from(g2) + h, g2, s2);
    }
    Ok(())
}
