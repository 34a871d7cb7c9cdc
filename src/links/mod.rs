//! Links between standing cells, found by driving the reference
//! [`Body`](crate::Body) with input programs: the link families
//! (`families`, one table) and the machinery they share (simulating a
//! program, settling a landing, keeping the best link per target).
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
//! the ticks the search counted. A link that fails from there (a
//! knife-edge jump) is tried again after another nudge of the slack before
//! it, from up to one and a half nudges off. That performance, checked at
//! every link's end, is the replay that proves the path.

mod best;
pub(crate) use best::{FastMap, FastSet};
mod cache;
pub(crate) mod families;
mod landing;
mod options;
mod progress;
mod settle;
mod sim;

pub use crate::mechanics::LinkKind;
pub use cache::BuildCache;
pub(crate) use cache::WorkerGuard;
pub use options::{JumpVariety, LinkOptions, SETTLE_SLACK};
pub(crate) use options::{Link, settle_limit};
pub use progress::BuildProgress;
pub(crate) use settle::{settle_input, settle_tolerance};
pub(crate) use sim::sweep_cells;
#[cfg(feature = "serde")]
pub(crate) use sim::{in_level, perform};

use crate::classify::Classification;
use crate::level::{Cell, Level};
use crate::physics::Physics;
use crate::physics::reads::Reads;
use best::Best;
use families::start::Start;

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

/// As [`links_from`], with every level cell the generation looked up
/// (`physics::reads`): what an edit must touch to change these links.
pub(crate) fn links_and_reads(
    level: &Level,
    p: &Physics,
    classes: &Classification,
    from: Cell,
    opts: &LinkOptions,
    worker: &mut WorkerGuard<'_>,
) -> (Vec<Link>, Reads) {
    let reads = Reads::new(from);
    let links = links_recorded(level, p, classes, from, opts, Some(&reads), worker);
    (links, reads)
}

/// As [`links_from`], noting in `reads` every level cell the generation
/// looks up (`physics::reads`): every family switched on in `opts` that
/// applies to the level, in the table's order.
fn links_recorded(
    level: &Level,
    p: &Physics,
    classes: &Classification,
    from: Cell,
    opts: &LinkOptions,
    reads: Option<&Reads>,
    worker: &mut WorkerGuard<'_>,
) -> Vec<Link> {
    let start = Start {
        level,
        p,
        classes,
        from,
        reads,
        jumps: opts.jumps,
    };
    let mut best = Best::new(from, level);
    for family in families::all() {
        if opts.family(family.switch()) && family.applies(level, p) {
            family.generate(&start, worker, &mut best);
        }
    }
    best.into_sorted()
}
