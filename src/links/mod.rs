//! Links between standing cells, found by driving the reference [`Body`](crate::Body)
//! with input programs. One file per link kind.
//!
//! Every link starts from the canonical standing state of its `from` cell
//! (`PHYSICS.md`: `x = col + 0.5`, at rest) and has two phases:
//!
//! 1. the *action*: an open-loop input program (run-up, jump, steering,
//!    wall jumps, drop) that ends on the tick the body lands;
//! 2. the *settle*: a closed-loop controller that brakes and centres the body
//!    on the `to` cell to within half a *nudge* (the displacement of one tick
//!    of ground acceleration from rest), then [`SETTLE_SLACK`] idle ticks.
//!
//! The stored tape is the canonical performance from the exact centre. When
//! links are chained, the body starts a link off-centre by at most half a
//! nudge. Motion is translation-invariant away from collisions, so
//! [`crate::Path`] replays the tape verbatim up to the slack, which leaves
//! the body off-centre by at most one nudge, and spends the slack ticks on
//! one corrective nudge (push, release) when it is more than half a nudge
//! off. Every link of a chain therefore starts within half a nudge of its
//! cell's centre, errors never accumulate, and the path's tape has exactly
//! the ticks the search counted. That performance, checked at every link's
//! end, is the replay that proves the path.

mod best;
mod cache;
mod climb;
mod drop;
mod fall;
mod jump;
mod kind;
mod landing;
mod run;
mod settle;
mod sim;
mod template;

mod progress;

pub(crate) use crate::physics::reads::Reads;
pub use cache::BuildCache;
pub(crate) use cache::WorkerGuard;
pub use progress::BuildProgress;
mod wall_jump;

pub(crate) use kind::Link;
pub use kind::{JumpVariety, LinkKind, LinkOptions, SETTLE_SLACK};
pub(crate) use settle::{settle_input, settle_tolerance};
pub(crate) use sim::sweep_cells;
#[cfg(feature = "serde")]
pub(crate) use sim::{in_level, perform};

use best::*;
use settle::*;
use sim::*;

use crate::classify::Classification;
use crate::level::{Cell, Level};
use crate::mechanics::Active;
use crate::physics::Physics;

/// All links out of `from`, dominated ones removed, generated with
/// `worker`'s part of its cache.
pub(crate) fn links_from(
    level: &Level,
    p: &Physics,
    classes: &Classification,
    from: Cell,
    opts: &LinkOptions,
    worker: &mut WorkerGuard<'_>,
) -> Vec<Link> {
    links_recorded(level, p, classes, from, opts, None, worker)
}

/// As [`links_from`], noting in `reads` every level cell the generation
/// looks up ([`reads`]).
pub(crate) fn links_recorded(
    level: &Level,
    p: &Physics,
    classes: &Classification,
    from: Cell,
    opts: &LinkOptions,
    reads: Option<&Reads>,
    worker: &mut WorkerGuard<'_>,
) -> Vec<Link> {
    let cache = worker.cache;
    let w = worker.get();
    let mut best = Best::new(from);
    if opts.run {
        let runs = &cache
            .templates(p, opts.jumps, template::rules_of(level))
            .runs;
        let sim = || Sim::recording(level, p, classes, from, reads, Some(&w.memo));
        run::generate(runs, &sim, classes, from, &mut best);
    }
    let memo = Some(&w.memo);
    let sim = || Sim::recording(level, p, classes, from, reads, memo);
    if opts.fall {
        fall::generate(&sim, &mut best);
    }
    if opts.jump {
        let active = Active::of(level);
        if !(active.frame_exact() && active.flat_ground()) {
            // The templates are performed in the start cell's frame, which
            // links on levels with slopes are not (`sim::origin`), and
            // start on a floor: each family is simulated here.
            for fam in jump::families(p, opts.jumps) {
                jump::run_family(sim(), &fam, &mut best);
            }
        } else {
            template::generate(
                level, p, opts.jumps, classes, from, reads, &mut best, cache, w,
            );
        }
    }
    let memo = Some(&w.memo);
    let sim = || Sim::recording(level, p, classes, from, reads, memo);
    if opts.wall_jump && p.wall_jump.is_some() {
        wall_jump::generate(&sim, p, &mut best);
    }
    if opts.drop {
        drop::generate(&sim, level, from, &mut best);
    }
    if opts.climb && level.holds(crate::level::Tile::Ladder) {
        climb::generate(&sim, level, from, &mut best);
    }
    best.into_sorted()
}
