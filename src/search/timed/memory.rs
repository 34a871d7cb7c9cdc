//! What a [`TimedPlanner`](super::TimedPlanner) keeps, held apart from
//! the planner so that a game can keep it beside its map and platforms
//! (a resource, a field of its level) and make a planner on them for each
//! query, as the Bevy plugin and the visualizer do.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::TimedOptions;
use super::memo::Memo;
use crate::graph::NavMap;
use crate::level::Platforms;

/// What [`TimedPlanner`](super::TimedPlanner)s made with
/// [`TimedPlanner::with_memory`](super::TimedPlanner::with_memory) keep
/// between queries: each planner takes up what the last one kept, so a
/// game that can only keep owned values (a Bevy resource, a field next to
/// its map) shares one planner's forecasts across every query.
///
/// It remembers which map (its level, physics, edits and size), platforms
/// and options it was filled for, and starts afresh when lent for others:
/// an edited map or changed platforms never see forecasts made for the
/// old ones. It can be shared between threads.
#[derive(Default)]
pub struct TimedMemory {
    kept: Mutex<Option<(Fit, Arc<Memo>)>>,
}

/// What a memory was filled for.
struct Fit {
    /// The map's address, while it is the map the memory was filled for:
    /// another address is checked against the level's fingerprint (which
    /// reads every tile).
    map: usize,
    level: u64,
    physics: u64,
    generation: u64,
    nodes: usize,
    links: usize,
    platforms: Platforms,
    options: TimedOptions,
}

impl Fit {
    fn of(map: &NavMap, platforms: &Platforms, options: TimedOptions) -> Self {
        Self {
            map: std::ptr::from_ref(map) as usize,
            level: map.level().fingerprint(),
            physics: map.physics().fingerprint(),
            generation: map.generation(),
            nodes: map.node_count(),
            links: map.link_count(),
            platforms: platforms.clone(),
            options,
        }
    }

    /// Whether it is [`Fit::of`] these, without copying the platforms
    /// (nor reading the level's tiles while the map is where it was).
    fn is_for(&mut self, map: &NavMap, platforms: &Platforms, options: TimedOptions) -> bool {
        let same = self.physics == map.physics().fingerprint()
            && self.generation == map.generation()
            && self.nodes == map.node_count()
            && self.links == map.link_count()
            && self.options == options
            && self.platforms == *platforms;
        let at = std::ptr::from_ref(map) as usize;
        if !same || at == self.map {
            return same;
        }
        // A map moved, or another one of the same level.
        let level = map.level().fingerprint() == self.level;
        if level {
            self.map = at;
        }
        level
    }
}

impl TimedMemory {
    /// An empty memory.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether it holds nothing: never lent, or [`TimedMemory::clear`]ed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.lock().is_none()
    }

    /// Forgets what it keeps.
    pub fn clear(&self) {
        *self.lock() = None;
    }

    /// The memo for `map`, `platforms` and `options`: the one kept when
    /// it was filled for them, else a new one, kept from now on.
    pub(super) fn memo_for(
        &self,
        map: &NavMap,
        platforms: &Platforms,
        options: TimedOptions,
    ) -> Arc<Memo> {
        let mut kept = self.lock();
        if let Some((fit, memo)) = &mut *kept
            && fit.is_for(map, platforms, options)
        {
            return Arc::clone(memo);
        }
        let memo = Arc::new(Memo::new());
        *kept = Some((Fit::of(map, platforms, options), Arc::clone(&memo)));
        memo
    }

    /// A poisoned lock still holds a whole value: every update is one
    /// assignment.
    fn lock(&self) -> MutexGuard<'_, Option<(Fit, Arc<Memo>)>> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl std::fmt::Debug for TimedMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TimedMemory")
            .field("empty", &self.is_empty())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{Level, Tile};
    use crate::{Cell, Physics};

    /// A memory serves its memo again for the same map (also moved) and
    /// platforms and options, and a new one after an edit, for other
    /// platforms or other options.
    #[test]
    fn a_memory_is_kept_for_its_map_and_platforms_and_starts_afresh_otherwise() {
        let p = Physics::default();
        let (level, lifts) = Level::generate_with_platforms(40, 12, 1, 0).unwrap();
        let map = NavMap::build(&level, &p).unwrap();
        let platforms = Platforms::new(lifts.clone(), p.dt).unwrap();
        let opts = TimedOptions::default();
        let memory = TimedMemory::new();
        assert!(memory.is_empty());
        let first = memory.memo_for(&map, &platforms, opts);
        assert!(!memory.is_empty());
        assert!(Arc::ptr_eq(
            &first,
            &memory.memo_for(&map, &platforms, opts)
        ));
        // The same map at another address is recognised by its level.
        let moved = Box::new(map.clone());
        assert!(Arc::ptr_eq(
            &first,
            &memory.memo_for(&moved, &platforms, opts)
        ));
        // Other options or platforms start afresh.
        let strided = opts.with_wait_stride(1);
        let other = memory.memo_for(&moved, &platforms, strided);
        assert!(!Arc::ptr_eq(&first, &other));
        let mut shifted = lifts.clone();
        shifted[0].points[0][1] -= 1.0;
        let shifted = Platforms::new(shifted, p.dt).unwrap();
        let third = memory.memo_for(&moved, &shifted, strided);
        assert!(!Arc::ptr_eq(&other, &third));
        // An edit (a new generation) starts afresh too, and so does
        // another level at the same address.
        let mut edited = *moved;
        let before = memory.memo_for(&edited, &shifted, strided);
        let cell = Cell::new(0, 0);
        let tile = if level.get(cell) == Some(Tile::SOLID) {
            Tile::EMPTY
        } else {
            Tile::SOLID
        };
        edited.edit(&[(cell, tile)]).unwrap();
        assert!(!Arc::ptr_eq(
            &before,
            &memory.memo_for(&edited, &shifted, strided)
        ));
        memory.clear();
        assert!(memory.is_empty());
    }
}
