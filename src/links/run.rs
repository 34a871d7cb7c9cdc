//! Run links: along the ground to cells 1, 2, 3, 4, 6, 8, ... columns away.
//!
//! The whole link is the settle controller aimed at the target's centre, so
//! the body accelerates, cruises and brakes to a stop there. Distances grow
//! geometrically, which keeps the link count at O(n log n) per surface while
//! letting long runs be done in one go instead of stop-and-go steps.

use super::{Best, LinkKind, Sim};
use crate::classify::Classification;
use crate::level::Cell;

/// Column distances tried in each direction.
const DISTANCES: [i32; 14] = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128];

pub(super) fn generate<'a>(
    sim: &impl Fn() -> Sim<'a>,
    classes: &Classification,
    from: Cell,
    best: &mut Best,
) {
    for dir in [-1, 1] {
        // Length of the contiguous standable run on this row.
        let mut reach = 0;
        while reach < DISTANCES[DISTANCES.len() - 1]
            && classes.is_standable(Cell::new(from.col + dir * (reach + 1), from.row))
        {
            reach += 1;
        }
        for &k in DISTANCES.iter().take_while(|&&k| k <= reach) {
            let target = Cell::new(from.col + dir * k, from.row);
            best.offer(sim().settle_to(target, LinkKind::Run));
        }
    }
}
