//! What a [`TimedPlanner`](super::TimedPlanner) keeps between queries:
//! where the platform programs went after a wait from a place, and where
//! the map's links went. The platforms are periodic, so such a result
//! holds on every tick on which the platforms it looked at are where they
//! were: it is kept with the least common multiple of their periods (the
//! modulus) and the tick's phase in it. It was performed from one state
//! at rest on its place; another state at rest there (within the settle
//! tolerance) goes the same way but for the last bits, so a kept result
//! is a forecast, which the planner's proof of the whole path confirms.

use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use super::link::{Ended, LinkWay};
use super::profile::{Profiles, lcm};
use crate::graph::LinkId;
use crate::level::Platforms;
use crate::links::FastMap;

/// The largest modulus a result is kept for: beyond it a phase would
/// hardly come round again.
const MAX_MODULUS: u64 = 1 << 32;
/// The most bytes a shelf keeps, about; past it the shelf starts again
/// (a bound on memory, not a cache policy).
const MAX_BYTES: usize = 1 << 24;

/// What a planner keeps.
pub(crate) struct Memo {
    /// The platform programs' outcomes after a wait, by the place and the
    /// platform ridden; their ticks counted from the departure.
    pub departures: Profiles,
    /// A map link as it was performed where a platform met it: where it
    /// ended at rest with the inputs that took it there, or `None` when it
    /// missed.
    pub links: Shelf<LinkId, Arc<Ended>>,
    /// A map link's way with no platform about.
    pub ways: Shelf<LinkId, Arc<LinkWay>>,
}

impl Memo {
    /// Nothing kept yet.
    pub(crate) fn new() -> Self {
        Self {
            departures: Profiles::new(),
            links: Shelf::new(),
            ways: Shelf::new(),
        }
    }
}

/// The platforms some work looked at, noted as it ran (from any thread).
#[derive(Debug)]
pub(crate) struct Touched(Vec<AtomicBool>);

impl Touched {
    /// None noted yet, of `n` platforms.
    pub(crate) fn new(n: usize) -> Self {
        Self((0..n).map(|_| AtomicBool::new(false)).collect())
    }

    /// Notes platform `k`.
    #[inline]
    pub(crate) fn note(&self, k: usize) {
        self.0[k].store(true, Ordering::Relaxed);
    }

    /// The least common multiple of the periods of the platforms noted:
    /// the ticks after which they are all where they were. `None` above
    /// [`MAX_MODULUS`].
    pub(crate) fn modulus(&self, platforms: &Platforms) -> Option<u64> {
        let noted = (0..self.0.len()).filter(|&k| self.0[k].load(Ordering::Relaxed));
        let mut m = 1u64;
        for k in noted {
            m = lcm(m, platforms.all()[k].period().max(1));
            if m > MAX_MODULUS {
                return None;
            }
        }
        Some(m)
    }
}

/// Results by key, each for the ticks of one phase of its modulus.
pub(crate) struct Shelf<K, T> {
    kept: Mutex<Kept<K, T>>,
}

/// Values by phase, for one modulus.
type Phases<T> = (u64, FastMap<u64, T>);

struct Kept<K, T> {
    by_key: FastMap<K, Vec<Phases<T>>>,
    weight: usize,
}

impl<K: Hash + Eq, T: Clone> Shelf<K, T> {
    /// An empty shelf.
    pub(crate) fn new() -> Self {
        Self {
            kept: Mutex::new(Kept {
                by_key: FastMap::default(),
                weight: 0,
            }),
        }
    }

    /// The result kept for `key` that holds on tick `tick`.
    pub(crate) fn get(&self, key: &K, tick: u64) -> Option<T> {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let moduli = kept.by_key.get(key)?;
        moduli
            .iter()
            .find_map(|(m, phases)| phases.get(&(tick % m)).cloned())
    }

    /// Keeps `value` for `key` on the ticks of `tick`'s phase of
    /// `modulus`, weighing about `bytes`.
    pub(crate) fn put(&self, key: K, modulus: u64, tick: u64, value: T, bytes: usize) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let weight = bytes + 64;
        kept.weight += weight;
        if kept.weight > MAX_BYTES {
            kept.by_key.clear();
            kept.weight = weight;
        }
        let moduli = kept.by_key.entry(key).or_default();
        let at = match moduli.iter().position(|(m, _)| *m == modulus) {
            Some(at) => at,
            None => {
                moduli.push((modulus, FastMap::default()));
                moduli.len() - 1
            }
        };
        moduli[at].1.insert(tick % modulus, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_holds_on_its_phase_only() {
        let shelf: Shelf<u32, &str> = Shelf::new();
        shelf.put(7, 240, 250, "a", 1);
        assert_eq!(shelf.get(&7, 10), Some("a"));
        assert_eq!(shelf.get(&7, 490), Some("a"));
        assert_eq!(shelf.get(&7, 11), None);
        assert_eq!(shelf.get(&8, 10), None);
        shelf.put(7, 1, 3, "b", 1);
        assert_eq!(shelf.get(&7, 11), Some("b"));
    }
}
