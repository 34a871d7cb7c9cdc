//! What links are: their kinds ([`LinkKind`]), a generated link
//! ([`Link`]), and what a build generates ([`LinkOptions`], [`JumpVariety`]).

use std::sync::Arc;

use super::sim::{action_limit, settle_limit};
use super::{climb, drop, fall, jump, wall_jump};
use crate::level::Cell;
use crate::links::BuildProgress;
use crate::physics::{Input, Physics};

/// Ticks at the end of every link reserved for one corrective nudge (push,
/// release) when links are chained; idle in the stored tape.
pub const SETTLE_SLACK: u32 = 2;

/// The kinds of link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum LinkKind {
    /// Running along the ground.
    Run,
    /// Walking off an edge, with air control.
    Fall,
    /// A ground jump.
    Jump,
    /// A ground jump followed by an air jump.
    DoubleJump,
    /// A jump with one or more wall jumps.
    WallJump,
    /// Dropping through a one-way platform.
    Drop,
    /// Climbing a ladder: up it, down it, or up and off it sideways with a
    /// jump (levels with ladders).
    Climb,
}

impl LinkKind {
    /// Every kind, in order.
    pub const ALL: [LinkKind; 7] = [
        LinkKind::Run,
        LinkKind::Fall,
        LinkKind::Jump,
        LinkKind::DoubleJump,
        LinkKind::WallJump,
        LinkKind::Drop,
        LinkKind::Climb,
    ];

    /// The snake-case name used in JSON.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            LinkKind::Run => "run",
            LinkKind::Fall => "fall",
            LinkKind::Jump => "jump",
            LinkKind::DoubleJump => "double_jump",
            LinkKind::WallJump => "wall_jump",
            LinkKind::Drop => "drop",
            LinkKind::Climb => "climb",
        }
    }

    /// Parses a name as written by [`LinkKind::name`].
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl std::fmt::Display for LinkKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

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

/// Which link kinds to generate (all by default), how many jump programs
/// to try, and a handle to watch or stop the build.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LinkOptions {
    /// Generate run links.
    pub run: bool,
    /// Generate fall links.
    pub fall: bool,
    /// Generate jump and double-jump links.
    pub jump: bool,
    /// Generate wall-jump links (only when the physics enables wall jumps).
    pub wall_jump: bool,
    /// Generate drop links.
    pub drop: bool,
    /// Generate climb links (only where the level has ladders).
    pub climb: bool,
    /// The jump programs tried from each cell.
    pub jumps: JumpVariety,
    /// Progress counters and a cancel flag the build updates and obeys
    /// ([`BuildProgress`]); `None` builds unwatched.
    pub progress: Option<Arc<BuildProgress>>,
}

setters!(LinkOptions {
    with_run => run: bool,
    with_fall => fall: bool,
    with_jump => jump: bool,
    with_wall_jump => wall_jump: bool,
    with_drop => drop: bool,
    with_climb => climb: bool,
    with_jumps => jumps: JumpVariety,
    with_progress => progress: Option<Arc<BuildProgress>>,
});

impl Default for LinkOptions {
    fn default() -> Self {
        Self {
            run: true,
            fall: true,
            jump: true,
            wall_jump: true,
            drop: true,
            climb: true,
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

    /// The input programs these options try from one standing cell with
    /// `physics`: falls, jumps (their steering branches each counted),
    /// wall jumps, drops and climbs. Run links are not counted: their tapes are
    /// computed once per physics profile, on flat ground.
    #[must_use]
    pub fn programs_per_cell(&self, physics: &Physics) -> usize {
        let mut n = 0;
        if self.fall {
            n += 2 * (fall::SWITCH_TICKS.len() * 2 + 1) + fall::forgiving_programs(physics);
        }
        if self.jump {
            n += jump::families(physics, self.jumps)
                .iter()
                .map(|f| f.switches.len() * f.targets.len() + 1)
                .sum::<usize>();
        }
        if self.wall_jump && physics.wall_jump.is_some() {
            n += wall_jump::PROGRAMS;
        }
        if self.drop {
            n += 3 * (drop::SWITCH_TICKS.len() * 2 + 1);
        }
        if self.climb {
            n += climb::PROGRAMS;
        }
        n
    }

    /// An upper bound on the steps of the body one standing cell costs:
    /// [`LinkOptions::programs_per_cell`] times the most steps a program
    /// takes: its action phase ([`LinkOptions::MAX_ACTION_SECONDS`] of
    /// ticks), the braking that picks its landing cell and its settle (each
    /// at most [`LinkOptions::MAX_SETTLE_SECONDS`] of ticks), and
    /// [`SETTLE_SLACK`] ticks.
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
