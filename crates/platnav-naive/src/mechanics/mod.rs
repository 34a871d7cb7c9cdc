//! The twins of the mechanics' link families (`src/mechanics/`): the same
//! programs, each performed from scratch.

mod ladder;
mod launch;
mod one_way;

use platnav::{Cell, Level};

use crate::sim::{Best, Ctx};

/// A mechanic's family twin: the links from standing on `from`, offered to
/// the best.
pub(crate) type Twin = fn(&Ctx<'_>, &Level, Cell, &mut Best);

/// Every mechanic's twin, in the order of the mechanics' registry.
pub(crate) const TWINS: [Twin; 3] = [one_way::links, ladder::links, launch::links];
