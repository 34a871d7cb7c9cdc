//! What a build generates ([`LinkOptions`], [`JumpVariety`]) and what a
//! generated link is ([`Link`]).

use std::sync::Arc;

use super::progress::BuildProgress;
use crate::level::Cell;
use crate::mechanics::LinkKind;
use crate::physics::{Input, Physics};

/// Ticks at the end of every link reserved for one corrective nudge (push,
/// release) when links are chained; idle in the stored tape.
pub const SETTLE_SLACK: u32 = 2;

/// A performable move from one standing cell to another, as generation
/// produces it (a map stores it compactly: [`crate::NavMap`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Link {
    /// What kind of move it is.
    pub kind: LinkKind,
    /// The standing cell it starts from.
    pub from: Cell,
    /// The standing cell it ends on.
    pub to: Cell,
    /// Duration in ticks (the length of `inputs`).
    pub ticks: u32,
    /// Ticks of the open-loop action phase; the rest is the settle phase.
    pub action_ticks: u32,
    /// Jump presses that took effect (ground, air and wall jumps).
    pub jumps: u8,
    /// The per-tick inputs, performed from standing on `from`.
    pub inputs: Vec<Input>,
}

/// How many jump programs the builder tries from each standing cell.
///
/// Every program is performed exactly, so either set gives links the body
/// performs; the coarse set tries a subset of the full one's programs, so
/// it finds no link the full set would not (a link of the full set to the
/// same cell, of the same kind, is never slower) and builds in less time.
/// The programs of each are listed in the docs of `src/links/jump.rs`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum JumpVariety {
    /// Six hold times, three run-ups and five steering switch ticks: the
    /// most links, and the fastest routes.
    #[default]
    Full,
    /// Three hold times, two run-ups and three switch ticks (about a
    /// quarter of the programs): for levels rebuilt often, such as
    /// generated levels. It costs route time, and the jumps that need a
    /// hold time or run-up it leaves out: on the bundled SMB levels it
    /// builds about 3x faster, its routes take about 5% longer, and it
    /// cannot route about 2% of the pairs the full set routes (`platnav
    /// bench` measures all three).
    Coarse,
}

impl JumpVariety {
    /// Both sets, full first.
    pub const ALL: [JumpVariety; 2] = [JumpVariety::Full, JumpVariety::Coarse];

    /// The lower-case name the CLI takes.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            JumpVariety::Full => "full",
            JumpVariety::Coarse => "coarse",
        }
    }

    /// Parses a name as written by [`JumpVariety::name`].
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.name() == name)
    }
}

/// Which link families to generate (all by default), how many jump
/// programs to try, and a handle to watch or stop the build.
///
/// A family is switched by the first kind of its links
/// ([`LinkOptions::with_family`]): [`LinkKind::RUN`], [`LinkKind::FALL`]
/// (falls, and the coyote jumps and buffered bounces made off the same
/// walk to an edge), [`LinkKind::JUMP`] (jumps and double jumps),
/// [`LinkKind::WALL_JUMP`] (only when the physics enables wall jumps),
/// [`LinkKind::DROP`] and [`LinkKind::CLIMB`] (only where the level has
/// ladders).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LinkOptions {
    /// The families switched off: bit `k` for the family whose first kind
    /// is `k`.
    off: u16,
    /// The jump programs tried from each cell.
    pub jumps: JumpVariety,
    /// Progress counters and a cancel flag the build updates and obeys
    /// ([`BuildProgress`]); `None` builds unwatched.
    pub progress: Option<Arc<BuildProgress>>,
}

setters!(LinkOptions {
    with_jumps => jumps: JumpVariety,
    with_progress => progress: Option<Arc<BuildProgress>>,
});

impl Default for LinkOptions {
    fn default() -> Self {
        Self {
            off: 0,
            jumps: JumpVariety::Full,
            progress: None,
        }
    }
}

impl LinkOptions {
    /// The longest an action phase may last, in seconds: a program that
    /// has not landed after this many seconds of ticks (rounded to
    /// nearest; 480 ticks at 60 Hz) is not a link (`PHYSICS.md`, "Link
    /// generation bounds"). Flights that cannot end (no gravity, no fall
    /// speed, a wall that holds the body) end here.
    pub const MAX_ACTION_SECONDS: f64 = 8.0;

    /// The longest a settle phase, and the braking that picks a landing's
    /// cell, may last, in seconds of ticks (600 at 60 Hz).
    pub const MAX_SETTLE_SECONDS: f64 = 10.0;

    /// Every link kind, with the [`JumpVariety::Coarse`] jump programs.
    #[must_use]
    pub fn coarse() -> Self {
        Self {
            jumps: JumpVariety::Coarse,
            ..Self::default()
        }
    }

    /// These options with the family whose links' first kind is `kind`
    /// switched on or off (a kind that names no family, such as
    /// [`LinkKind::DOUBLE_JUMP`], switches nothing).
    #[must_use]
    pub fn with_family(mut self, kind: LinkKind, on: bool) -> Self {
        let bit = 1 << kind.index();
        if on {
            self.off &= !bit;
        } else {
            self.off |= bit;
        }
        self
    }

    /// Whether the family whose links' first kind is `kind` is generated.
    #[must_use]
    pub fn family(&self, kind: LinkKind) -> bool {
        self.off & (1 << kind.index()) == 0
    }

    /// An upper bound on the steps of the body one standing cell costs:
    /// [`LinkOptions::programs_per_cell`] times the most steps a program
    /// takes: its action phase ([`LinkOptions::MAX_ACTION_SECONDS`] of
    /// ticks), the braking that picks its landing cell and its settle (each
    /// at most [`LinkOptions::MAX_SETTLE_SECONDS`] of ticks), and
    /// [`SETTLE_SLACK`] ticks.
    ///
    /// On a level with ladders a program may also take up to the climb
    /// limit of `PHYSICS.md` ("Link generation bounds") of climbing ticks
    /// that move the body, which does not count toward the action phase.
    ///
    /// A build's work is this bound times the level's standing cells at
    /// most, whatever the physics; every step looks up at most the tiles
    /// the body's box overlaps. Real cells take far fewer steps, since
    /// most flights land within a second and programs share their
    /// prefixes: about 2,000 at 60 Hz with the default physics.
    #[must_use]
    pub fn max_steps_per_cell(&self, physics: &Physics) -> u64 {
        let per_program = action_limit(physics) + 2 * settle_limit(physics) + SETTLE_SLACK as usize;
        self.programs_per_cell(physics) as u64 * per_program as u64
    }
}

/// `seconds` in whole ticks of `dt`, rounded to nearest: `floor(seconds /
/// dt + 0.5)`.
fn ticks_in(seconds: f64, dt: f64) -> usize {
    // `dt` is validated to at least `Physics::MIN_DT`, so this is at most
    // a few tens of thousands.
    (seconds / dt + 0.5).floor() as usize
}

/// The most ticks an action phase may take:
/// [`LinkOptions::MAX_ACTION_SECONDS`] in ticks (480 at 60 Hz).
#[must_use]
pub(crate) fn action_limit(p: &Physics) -> usize {
    ticks_in(LinkOptions::MAX_ACTION_SECONDS, p.dt)
}

/// The most climbing ticks that moved the body a link may take (the climb
/// limit of `PHYSICS.md`, "Link generation bounds"): the ticks of climbing
/// the level's `rows` and two more at `climb_speed`, within what a saved
/// map stores of a link's ticks. They do not count toward
/// [`action_limit`], so a link climbs a ladder of any length.
#[must_use]
pub(crate) fn climb_limit(p: &Physics, rows: usize) -> usize {
    // A saved map stores a link's ticks in 16 bits.
    let cap = usize::from(u16::MAX) - action_limit(p) - 2 * settle_limit(p) - SETTLE_SLACK as usize;
    let per_tick = p.climb_speed * p.dt;
    if per_tick <= 0.0 {
        return cap;
    }
    let ticks = ((rows as f64 + 2.0) / per_tick).ceil();
    if ticks >= cap as f64 {
        cap
    } else {
        ticks as usize
    }
}

/// The most ticks a settle phase may take:
/// [`LinkOptions::MAX_SETTLE_SECONDS`] in ticks (600 at 60 Hz).
#[must_use]
pub(crate) fn settle_limit(p: &Physics) -> usize {
    ticks_in(LinkOptions::MAX_SETTLE_SECONDS, p.dt)
}
