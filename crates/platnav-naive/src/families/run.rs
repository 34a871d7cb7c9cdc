//! The run family's twin (`src/links/families/run.rs`).

use platnav::{Cell, LinkKind};

use crate::sim::{Best, Ctx, Sim, has_slopes};

/// Run: the settle controller aimed at cells 1, 2, 3, 4, 6, ... columns away
/// along the contiguous standable ground (a row up or down from one column
/// to the next where the level has slopes).
pub(crate) fn run_links(ctx: &Ctx<'_>, from: Cell, best: &mut Best) {
    const DISTANCES: [i32; 14] = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128];
    // With slopes, the ground of the next column may be a row up or down.
    let rows: &[i32] = if has_slopes(ctx.frame.level()) {
        &[0, -1, 1]
    } else {
        &[0]
    };
    for dir in [-1, 1] {
        let mut ground = vec![from];
        while ground.len() <= DISTANCES[DISTANCES.len() - 1] as usize {
            let at = ground[ground.len() - 1];
            let next = rows
                .iter()
                .map(|&dr| Cell::new(at.col + dir, at.row + dr))
                .find(|&c| ctx.classes.is_standable(c));
            match next {
                Some(c) => ground.push(c),
                None => break,
            }
        }
        for &k in DISTANCES.iter().take_while(|&&k| k < ground.len() as i32) {
            let to = ground[k as usize];
            let target = Cell::new(
                ctx.start.col + to.col - from.col,
                ctx.start.row + to.row - from.row,
            );
            best.offer(Sim::new(ctx).settle_to(target, LinkKind::RUN));
        }
    }
}
