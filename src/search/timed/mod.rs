//! Paths in time, over moving platforms (`PHYSICS.md`, "Moving
//! platforms"): [`find_path_timed`] plans from a cell at a given tick,
//! and every path it returns has been performed, tick by tick, with the
//! platforms where they are on those ticks.
//!
//! The map's links were generated without the platforms. A link that
//! touches none stays as it is: the search takes it at its ticks and
//! performs it from the body's real state when it first pops it, dropping
//! it if a platform got in the way. Where a platform comes within reach,
//! the search also tries the platform programs (`menu.rs`) after waits of
//! every stride of ticks up to the platforms' period: boarding from a
//! cell, and riding, then jumping or walking off, from a place on a
//! platform. The parts: `world.rs` (the level, its physics and platforms,
//! stepped from a tick), `menu.rs` (the programs and their outcomes),
//! `departures.rs` (the waits, and the programs tried after each),
//! `link.rs` (a map link performed in time) and `plan.rs` (the search).
//!
//! [`TimedPlanner`] (`planner.rs`) answers many queries on one level: it
//! keeps what it performed (`memo.rs`, with the departures by phase and
//! their first arrivals in `profile.rs`), searches on those forecasts and
//! performs only the path it finds. A [`TimedMemory`] (`memory.rs`) holds
//! what it keeps for a game that makes a planner per query.

mod departures;
mod link;
mod memo;
mod memory;
mod menu;
mod plan;
mod planner;
mod profile;
mod world;

pub use departures::{ProgramEnd, platform_programs};
pub use memory::TimedMemory;
pub use plan::{find_path_timed, find_path_timed_from};
pub use planner::TimedPlanner;
pub use world::World;

use crate::level::Cell;
use crate::links::LinkKind;
use crate::physics::Input;

use super::SearchStats;

/// Where a timed path's label stands: on a cell of the map, or at rest on
/// a place of a platform (`slot` whole tiles from its left edge, at the
/// middle of that tile).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Place {
    /// Standing on a cell.
    Cell(Cell),
    /// At rest on platform `platform` (its index in the level's list).
    Platform {
        /// The platform's index.
        platform: u32,
        /// The tile of its width the body rests on, from the left.
        slot: u32,
    },
}

/// What a step of a timed path does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum TimedKind {
    /// A link of the map, which no platform touched.
    Link(LinkKind),
    /// A wait (or a ride), then a program that ends at rest on a
    /// platform: another one, or (a hop along it) the one ridden.
    Board,
    /// A ride, then a program that ends at rest on a cell.
    Leave,
}

/// One step of a timed path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TimedStep {
    /// What it does.
    pub kind: TimedKind,
    /// Where it starts.
    pub from: Place,
    /// Where it ends.
    pub to: Place,
    /// The tick it starts on.
    pub tick: u64,
    /// Its ticks (waits included).
    pub ticks: u32,
}

/// A path over moving platforms, performed from its start state at tick
/// `start_tick`: its inputs, one a tick, bring the body alive to rest
/// on `goal`.
#[derive(Debug, Clone, PartialEq)]
pub struct TimedPath {
    /// Where it starts.
    pub start: Place,
    /// The tick the path starts on.
    pub start_tick: u64,
    /// The goal cell.
    pub goal: Cell,
    /// The steps, in order.
    pub steps: Vec<TimedStep>,
    /// The input of every tick, from `start_tick` on.
    pub inputs: Vec<Input>,
    /// Search counters.
    pub stats: SearchStats,
}

impl TimedPath {
    /// The path's length in ticks.
    #[must_use]
    pub fn ticks(&self) -> u64 {
        self.inputs.len() as u64
    }

    /// Whether a step boards or leaves a platform.
    #[must_use]
    pub fn rides(&self) -> bool {
        self.steps
            .iter()
            .any(|s| !matches!(s.kind, TimedKind::Link(_)))
    }

    /// The steps that get on a platform from a cell or from another
    /// platform (a hop along the platform ridden is not one).
    #[must_use]
    pub fn boardings(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| match (s.kind, s.from, s.to) {
                (
                    TimedKind::Board,
                    Place::Platform { platform: a, .. },
                    Place::Platform { platform: b, .. },
                ) => a != b,
                (kind, ..) => kind == TimedKind::Board,
            })
            .count()
    }
}

/// How a timed search runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct TimedOptions {
    /// Labels the search may expand before it gives up.
    pub max_expansions: usize,
    /// The ticks between the departures it tries from one place: 1 tries
    /// every tick.
    pub wait_stride: u32,
    /// The longest wait it tries in one place, in ticks (it tries at most
    /// the longest period of the platforms in reach).
    pub max_wait: u32,
}

impl Default for TimedOptions {
    fn default() -> Self {
        Self {
            max_expansions: 50_000,
            wait_stride: 2,
            max_wait: 1_200,
        }
    }
}

impl TimedOptions {
    /// Sets [`TimedOptions::max_expansions`].
    #[must_use]
    pub fn with_max_expansions(mut self, n: usize) -> Self {
        self.max_expansions = n;
        self
    }

    /// Sets [`TimedOptions::wait_stride`] (at least 1).
    #[must_use]
    pub fn with_wait_stride(mut self, ticks: u32) -> Self {
        self.wait_stride = ticks.max(1);
        self
    }

    /// Sets [`TimedOptions::max_wait`].
    #[must_use]
    pub fn with_max_wait(mut self, ticks: u32) -> Self {
        self.max_wait = ticks;
        self
    }
}
