//! The link families: every program family a standing cell tries, in one
//! table ([`all`]). A family names the kinds of its links (their
//! names, letters and colours), says where it applies, counts its programs
//! and generates its links; `LinkOptions` switches it by its first kind.
//!
//! The engine's own families (`run`, `fall`, `jump`, `wall_jump`) share
//! work across their programs (flat run tapes, walks to an edge, jump
//! templates, steering branches); the mechanics' families (drops, climbs)
//! are written against the seam's `Driver` (`driver.rs`), which performs
//! each program on the same simulation.

mod driver;
mod fall;
mod family;
pub(crate) mod flat_runs;
pub(crate) mod jump;
mod run;
pub(crate) mod start;
pub(crate) mod wall_jump;

pub(crate) use family::{Engine, Family};

use super::options::LinkOptions;
use crate::mechanics;
use crate::physics::Physics;

/// The engine's own families, in the order they are tried (a tie between
/// two links to one cell of one kind keeps the first offered).
const ENGINE: [&Engine; 4] = [&run::RUN, &fall::FALL, &jump::JUMP, &wall_jump::WALL_JUMP];

/// Every family: the engine's, then the mechanics' in their registry's
/// order.
pub(crate) fn all() -> impl Iterator<Item = Family> {
    ENGINE
        .into_iter()
        .map(Family::Engine)
        .chain(mechanics::families().map(Family::Mechanic))
}

impl LinkOptions {
    /// The input programs these options try from one standing cell with
    /// `physics`, summed over the families switched on: falls, jumps
    /// (their steering branches each counted), wall jumps, drops and
    /// climbs. Run links are not counted: their tapes are computed once
    /// per physics profile, on flat ground.
    #[must_use]
    pub fn programs_per_cell(&self, physics: &Physics) -> usize {
        all()
            .filter(|f| self.family(f.switch()))
            .map(|f| f.programs(physics, self.jumps))
            .sum()
    }
}
