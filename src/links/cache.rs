//! [`BuildCache`]: what link generation keeps between the cells of a build,
//! and between builds, as a value its caller owns.
//!
//! Three layers, all pure functions of the physics and of the tiles they
//! read, so a warm cache gives exactly the links a cold one does:
//! - the jump templates of a few physics profiles ([`templates`](super::families::jump::templates)),
//!   shared by every worker;
//! - per worker, the template branches grown in real terrain, up to
//!   [`BuildCache::grown_budget`] bytes;
//! - per worker, the landing memo ([`super::landing`]), up to
//!   [`BuildCache::memo_budget`] bytes.
//!
//! A worker is one sequential stretch of a build (a chunk of cells on one
//! thread). Workers are checked out of a pool and put back when the stretch
//! ends, so the pool holds about one per thread that built at the same
//! time, and a later build with the same cache starts warm.

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

use super::families::jump::templates::{Grown, JumpTemplates, Rules, rules_of};
use super::landing::MemoSlot;
use super::options::{JumpVariety, LinkOptions};
use crate::level::Level;
use crate::physics::Physics;

/// The caches link generation fills as it goes: jump templates per physics
/// profile, template branches grown in real terrain, and a memo of
/// landings. A build with a warm cache takes less time and gives exactly
/// the same map.
///
/// [`crate::NavMap::build`] and [`crate::NavMap::build_with`] start from a
/// fresh cache; [`crate::NavMap::build_cached`] takes one, so a game or an
/// editor that builds many maps with one physics profile pays for the
/// templates once. A map keeps the cache it was built with for its edits
/// ([`crate::NavMap::build_cache`]); [`BuildCache::clear`] frees what it
/// holds. The cache is shared between threads: a parallel build checks
/// out one worker's part per thread.
pub struct BuildCache {
    templates: Mutex<Vec<Arc<JumpTemplates>>>,
    workers: Mutex<Vec<Worker>>,
    grown_budget: usize,
    memo_budget: usize,
}

/// Physics profiles whose templates a cache keeps (the oldest goes first).
const PROFILES: usize = 4;

impl BuildCache {
    /// The default [`BuildCache::grown_budget`]: 16 MiB per worker.
    pub const DEFAULT_GROWN_BYTES: usize = 16 << 20;
    /// The default [`BuildCache::memo_budget`]: 16 MiB per worker.
    pub const DEFAULT_MEMO_BYTES: usize = 16 << 20;

    /// An empty cache with the default budgets.
    #[must_use]
    pub fn new() -> Self {
        Self::with_budgets(Self::DEFAULT_GROWN_BYTES, Self::DEFAULT_MEMO_BYTES)
    }

    /// An empty cache whose workers grow template branches up to
    /// `grown_bytes` each and keep up to `memo_bytes` of landings each.
    /// Smaller budgets cost build time, never links: past its budget a
    /// worker simulates instead of remembering.
    #[must_use]
    pub fn with_budgets(grown_bytes: usize, memo_bytes: usize) -> Self {
        Self {
            templates: Mutex::new(Vec::new()),
            workers: Mutex::new(Vec::new()),
            grown_budget: grown_bytes,
            memo_budget: memo_bytes,
        }
    }

    /// Bytes of grown template branches a worker keeps before it stops
    /// growing them.
    #[must_use]
    pub fn grown_budget(&self) -> usize {
        self.grown_budget
    }

    /// Bytes of landings a worker's memo keeps before it starts over.
    #[must_use]
    pub fn memo_budget(&self) -> usize {
        self.memo_budget
    }

    /// Bytes the cache holds now: templates, grown branches and memos
    /// (an estimate of the heap they use).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        let templates: usize = lock(&self.templates).iter().map(|t| t.bytes()).sum();
        let workers: usize = lock(&self.workers)
            .iter()
            .map(|w| w.grown.as_ref().map_or(0, Grown::bytes) + w.memo.bytes())
            .sum();
        templates + workers
    }

    /// The number of workers' parts the cache holds (about the number of
    /// threads that built with it at once).
    #[must_use]
    pub fn workers(&self) -> usize {
        lock(&self.workers).len()
    }

    /// Forgets everything: the next build with this cache starts cold.
    pub fn clear(&self) {
        lock(&self.templates).clear();
        lock(&self.workers).clear();
    }

    /// Builds now the jump templates a build of `level` with `physics`
    /// and `options` will use (the largest part of a first build with a
    /// physics profile), for a loading screen or before timing builds.
    /// Nothing happens when the cache holds them already.
    pub fn prepare(&self, level: &Level, physics: &Physics, options: &LinkOptions) {
        self.templates(physics, options.jumps, rules_of(level));
    }

    /// The templates for `p`, `variety` and `rules`: kept, or built now and
    /// kept (for the last few profiles).
    pub(crate) fn templates(
        &self,
        p: &Physics,
        variety: JumpVariety,
        rules: Rules,
    ) -> Arc<JumpTemplates> {
        if let Some(t) = lock(&self.templates)
            .iter()
            .find(|t| t.serve(p, variety, rules))
        {
            return Arc::clone(t);
        }
        // Built outside the lock: other workers go on meanwhile (two may
        // build the same templates once; both are the same).
        let t = Arc::new(JumpTemplates::build(p, variety, rules));
        let mut kept = lock(&self.templates);
        if !kept.iter().any(|k| k.serve(p, variety, rules)) {
            if kept.len() >= PROFILES {
                kept.remove(0);
            }
            kept.push(Arc::clone(&t));
        }
        t
    }

    /// A worker's part, checked out until the returned guard drops.
    pub(crate) fn worker(&self) -> WorkerGuard<'_> {
        let worker = lock(&self.workers).pop().unwrap_or_else(|| Worker {
            grown: None,
            memo: MemoSlot::new(self.memo_budget),
        });
        WorkerGuard {
            cache: self,
            worker: Some(worker),
        }
    }
}

impl Default for BuildCache {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for BuildCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BuildCache")
            .field("profiles", &lock(&self.templates).len())
            .field("workers", &self.workers())
            .field("grown_budget", &self.grown_budget)
            .field("memo_budget", &self.memo_budget)
            .finish_non_exhaustive()
    }
}

/// A poisoned lock still holds a cache that is whole: every update is a
/// single push, pop or clear.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What one worker keeps: its grown branches and its landing memo.
pub(crate) struct Worker {
    /// Branches grown on the templates of one physics profile.
    pub grown: Option<Grown>,
    /// Landings seen.
    pub memo: MemoSlot,
}

/// A checked-out [`Worker`] of `cache`, put back on drop.
pub(crate) struct WorkerGuard<'c> {
    pub cache: &'c BuildCache,
    worker: Option<Worker>,
}

impl WorkerGuard<'_> {
    /// The worker's part.
    pub fn get(&mut self) -> &mut Worker {
        self.worker.as_mut().expect("held until drop")
    }
}

impl Drop for WorkerGuard<'_> {
    fn drop(&mut self) {
        if let Some(w) = self.worker.take() {
            lock(&self.cache.workers).push(w);
        }
    }
}
