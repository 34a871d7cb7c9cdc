//! A planner for one level with its platforms, which keeps what its
//! queries performed and forecasts the next ones from it.

use std::sync::Arc;

use super::memo::Memo;
use super::memory::TimedMemory;
use super::plan::{SNAP_RADIUS, plan};
use super::{TimedOptions, TimedPath};
use crate::graph::NavMap;
use crate::level::{Cell, Platforms};
use crate::physics::Body;
use crate::search::{Endpoint, PathError, snap};

/// Paths in time on one map with its platforms, for a game that asks
/// again and again: it keeps where each platform program went from each
/// place on each phase of the platforms (and the first arrival at every
/// place over all the waits from each phase), and each map link's way
/// with no platform about. A query then searches on those forecasts
/// instead of performing every wait and program, and performs only the
/// path it found, from the body's real state, checking every step's end:
/// when one misses, or the forecasts find no path, it plans again as
/// [`find_path_timed`] does. So every path it returns has been performed
/// like [`find_path_timed`]'s, and it finds a path whenever that does;
/// the path can differ from it by a few ticks, as forecasts from a
/// nearby state at rest may.
///
/// The first query near a platform fills its places for a whole cycle of
/// the platform, so it costs more than [`find_path_timed`]; the ones
/// after cost a search. What it keeps is bounded (about 100 MB at
/// most). It can be shared between threads. A game that cannot keep a
/// value borrowing its map keeps a [`TimedMemory`] instead and makes a
/// planner on it for each query ([`TimedPlanner::with_memory`]).
///
/// [`find_path_timed`]: super::find_path_timed
pub struct TimedPlanner<'a> {
    map: &'a NavMap,
    platforms: &'a Platforms,
    options: TimedOptions,
    memo: Arc<Memo>,
}

impl<'a> TimedPlanner<'a> {
    /// A planner on `map` with `platforms` (checked for the map's
    /// physics, see [`Platforms::new`]), with nothing kept yet.
    #[must_use]
    pub fn new(map: &'a NavMap, platforms: &'a Platforms, options: TimedOptions) -> Self {
        Self {
            map,
            platforms,
            options,
            memo: Arc::new(Memo::new()),
        }
    }

    /// A planner on `map` with `platforms` that keeps what it performs in
    /// `memory`, and takes up what the last planner made on it kept when
    /// that one had the same map, platforms and options (else the memory
    /// starts afresh). Making one costs a comparison of the platforms.
    #[must_use]
    pub fn with_memory(
        map: &'a NavMap,
        platforms: &'a Platforms,
        options: TimedOptions,
        memory: &TimedMemory,
    ) -> Self {
        Self {
            map,
            platforms,
            options,
            memo: memory.memo_for(map, platforms, options),
        }
    }

    /// Its map.
    #[must_use]
    pub fn map(&self) -> &'a NavMap {
        self.map
    }

    /// Its platforms.
    #[must_use]
    pub fn platforms(&self) -> &'a Platforms {
        self.platforms
    }

    /// Its options.
    #[must_use]
    pub fn options(&self) -> &TimedOptions {
        &self.options
    }

    /// A path from standing on `start` on tick `start_tick` to standing
    /// on `goal`, as [`find_path_timed`](super::find_path_timed) plans it.
    ///
    /// # Errors
    /// As [`find_path_timed`](super::find_path_timed).
    pub fn find_path(
        &self,
        start: Cell,
        start_tick: u64,
        goal: Cell,
    ) -> Result<TimedPath, PathError> {
        let start = snap(self.map, start, SNAP_RADIUS).ok_or(PathError::InvalidEndpoint {
            which: Endpoint::Start,
            cell: start,
            radius: SNAP_RADIUS,
        })?;
        let body = Body::start(self.map.level(), start, self.map.physics());
        self.find_path_from(&body, start_tick, goal)
    }

    /// A path from a body's real state on tick `tick`, as
    /// [`find_path_timed_from`](super::find_path_timed_from) plans it.
    ///
    /// # Errors
    /// As [`find_path_timed_from`](super::find_path_timed_from).
    pub fn find_path_from(
        &self,
        body: &Body,
        tick: u64,
        goal: Cell,
    ) -> Result<TimedPath, PathError> {
        plan(
            self.map,
            self.platforms,
            Some(&self.memo),
            body,
            tick,
            goal,
            &self.options,
        )
    }
}
