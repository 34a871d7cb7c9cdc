//! An exact memo of link performances, for the replay that proves a path.
//!
//! [`find_path`](crate::find_path) performs every link of a path on the
//! reference [`Body`] from the state the previous link left it in, and
//! checks where it ends. That performance is a pure function of the link
//! and the start state: the link's stored tape up to the settle slack, then
//! one corrective nudge decided from the body, all on the map's own level
//! and physics. So its outcome (the end state and the nudge taken) can be
//! cached under the link and the *bit-identical* start state, and served
//! again with no change to any result: a hit hands back exactly what
//! performing the link would compute, and the end is still checked by the
//! caller as if it had just been performed.
//!
//! Chained links start off-centre by less than the settle tolerance, at one
//! of few offsets per cell, so the same link is performed from the same
//! start by many queries on one map (paths through a corridor, the first
//! link out of a start, re-plans). Measured on `Level::generate(256, 256,
//! 42)` with `Physics::default()` and 100 random reachable pairs: queried
//! once each on a fresh map, 25% of link performances hit (734 of 2,895);
//! queried again, 99.8% hit (5 misses per 2,895 lookups, set conflicts),
//! and 99.4% after the same pairs were also queried in beam mode (16
//! misses), which cuts the replay from about 150 us to about 10 us per
//! query.
//!
//! The table is four-way set-associative with a fixed number of sets chosen
//! from the map's link count ([`LinkMemo::MIN_SETS`] to
//! [`LinkMemo::MAX_SETS`]), allocated on the first query, so its memory is
//! bounded (at most about 1.5 MB); a new entry replaces its set's least
//! recently used one. Each set has its own lock, so queries on several
//! threads share the memo with little contention.

use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use crate::physics::Body;

/// The outcome of performing a link from one start state.
#[derive(Debug, Clone, Copy)]
struct Entry {
    /// The link's index plus one (the zero it never is makes an empty
    /// slot, `None`, cost no room).
    link: NonZeroU32,
    start: Packed,
    end: Packed,
    nudge: i8,
}

/// A body state in 40 bytes, bit for bit (`-0.0` differs from `0.0`): the
/// four floats, then one word of flags (bits 0 to 4), coyote time (bits 8
/// to 15), the jump buffer (bits 16 to 23), the jump boost's tick (bits 24
/// to 31) and the air jumps left (bits 32 to 63). A state whose timers do not fit (no valid physics gives one) is
/// not cached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Packed([u64; 5]);

impl Packed {
    fn of(b: &Body) -> Option<Self> {
        let coyote = u8::try_from(b.coyote_left).ok()?;
        let buffer = u8::try_from(b.buffer_left).ok()?;
        let boost = u8::try_from(b.boost_tick).ok()?;
        let flags = u64::from(b.grounded)
            | u64::from(b.jump_held_last_tick) << 1
            | u64::from(b.dead) << 2
            | u64::from(b.climbing) << 3
            | u64::from(b.launched) << 4
            | u64::from(coyote) << 8
            | u64::from(buffer) << 16
            | u64::from(boost) << 24
            | u64::from(b.air_jumps_left) << 32;
        Some(Self([
            b.x.to_bits(),
            b.y.to_bits(),
            b.vx.to_bits(),
            b.vy.to_bits(),
            flags,
        ]))
    }

    fn body(&self) -> Body {
        let [x, y, vx, vy, flags] = self.0;
        Body {
            x: f64::from_bits(x),
            y: f64::from_bits(y),
            vx: f64::from_bits(vx),
            vy: f64::from_bits(vy),
            grounded: flags & 1 != 0,
            jump_held_last_tick: flags & 2 != 0,
            dead: flags & 4 != 0,
            climbing: flags & 8 != 0,
            launched: flags & 16 != 0,
            coyote_left: (flags >> 8 & 0xff) as u32,
            buffer_left: (flags >> 16 & 0xff) as u32,
            air_jumps_left: (flags >> 32) as u32,
            boost_tick: (flags >> 24 & 0xff) as u32,
        }
    }
}

/// One set: its most recently used entry first.
type Set = Mutex<[Option<Entry>; WAYS]>;

/// Entries per set.
const WAYS: usize = 4;

/// The outcomes of link performances from bit-identical start states, in
/// a bounded set-associative table that queries on several threads share
/// (see the module documentation).
pub(crate) struct LinkMemo {
    sets: OnceLock<Box<[Set]>>,
    /// Sets to allocate (a power of two).
    len: usize,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl LinkMemo {
    /// The fewest sets a memo has.
    pub const MIN_SETS: usize = 1 << 6;
    /// The most sets a memo has.
    pub const MAX_SETS: usize = 1 << 12;

    /// An empty memo for a map of `links` links: one entry per 8 links,
    /// within the bounds.
    pub fn new(links: usize) -> Self {
        Self {
            sets: OnceLock::new(),
            len: (links / (8 * WAYS))
                .next_power_of_two()
                .clamp(Self::MIN_SETS, Self::MAX_SETS),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    fn set(&self, link: u32, start: &Body) -> &Set {
        let sets = self.sets.get_or_init(|| {
            (0..self.len)
                .map(|_| Mutex::new([None; WAYS]))
                .collect::<Vec<_>>()
                .into_boxed_slice()
        });
        // SplitMix64's finaliser over the link and the start's x (the
        // state that varies between performances of one link).
        let mut h = u64::from(link) ^ start.x.to_bits().rotate_left(32);
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^= h >> 31;
        &sets[(h as usize) & (sets.len() - 1)]
    }

    /// The end state and nudge of performing `link` from exactly `start`,
    /// when they are cached.
    pub fn get(&self, link: u32, start: &Body) -> Option<(Body, i8)> {
        let key = Packed::of(start).zip(NonZeroU32::new(link.wrapping_add(1)));
        let found = key.and_then(|(key, id)| {
            self.set(link, start).lock().ok().and_then(|mut set| {
                let i = set
                    .iter()
                    .position(|e| e.is_some_and(|e| e.link == id && e.start == key))?;
                // Move to the front, keeping the others in recency order.
                set[..=i].rotate_right(1);
                set[0].map(|e| (e.end.body(), e.nudge))
            })
        });
        let counter = if found.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        found
    }

    /// Caches the outcome of performing `link` from `start`, in place of
    /// its set's least recently used entry.
    pub fn put(&self, link: u32, start: &Body, end: &Body, nudge: i8) {
        let (Some(start_key), Some(end), Some(id)) = (
            Packed::of(start),
            Packed::of(end),
            NonZeroU32::new(link.wrapping_add(1)),
        ) else {
            return;
        };
        if let Ok(mut set) = self.set(link, start).lock() {
            set.rotate_right(1);
            set[0] = Some(Entry {
                link: id,
                start: start_key,
                end,
                nudge,
            });
        }
    }

    /// Lookups that hit and that missed so far.
    pub fn counts(&self) -> (u64, u64) {
        (
            self.hits.load(Ordering::Relaxed),
            self.misses.load(Ordering::Relaxed),
        )
    }

    /// Heap bytes held (0 until the first query).
    pub fn bytes(&self) -> usize {
        self.sets.get().map_or(0, |s| s.len() * size_of::<Set>())
    }
}

/// A copy starts empty: the memo is a cache, not part of the map's value.
impl Clone for LinkMemo {
    fn clone(&self) -> Self {
        Self::new(self.len * 8 * WAYS)
    }
}

impl std::fmt::Debug for LinkMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (hits, misses) = self.counts();
        f.debug_struct("LinkMemo")
            .field("sets", &self.len)
            .field("hits", &hits)
            .field("misses", &misses)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cell, Physics};

    #[test]
    fn memory_is_bounded_and_entries_are_keyed_on_the_exact_start() {
        assert!(LinkMemo::MAX_SETS * size_of::<Set>() <= 1_600_000);
        let memo = LinkMemo::new(usize::MAX / 2);
        assert_eq!(memo.len, LinkMemo::MAX_SETS);
        assert_eq!(memo.bytes(), 0, "nothing allocated before the first use");
        let p = Physics::default();
        let start = Body::standing(Cell::new(3, 4), &p);
        let mut end = start;
        end.x += 1.0;
        memo.put(7, &start, &end, 1);
        assert_eq!(memo.get(7, &start), Some((end, 1)));
        // Another link, or a start off by one bit (or -0.0 for 0.0), misses.
        assert_eq!(memo.get(8, &start), None);
        let mut nudged = start;
        nudged.x = f64::from_bits(start.x.to_bits() + 1);
        assert_eq!(memo.get(7, &nudged), None);
        let mut signed = start;
        signed.vx = -0.0;
        assert_eq!(memo.get(7, &signed), None);
        // So do the extension state's timers, the boost and climbing.
        for changed in [
            Body {
                coyote_left: 1,
                ..start
            },
            Body {
                buffer_left: 2,
                ..start
            },
            Body {
                boost_tick: 4,
                ..start
            },
            Body {
                climbing: true,
                ..start
            },
        ] {
            assert_eq!(memo.get(7, &changed), None);
        }
        let timers = Body {
            coyote_left: 5,
            buffer_left: 3,
            boost_tick: 30,
            air_jumps_left: 255,
            ..start
        };
        memo.put(9, &timers, &timers, -1);
        assert_eq!(memo.get(9, &timers), Some((timers, -1)));
        assert_eq!(memo.counts(), (2, 7));
        assert!(memo.bytes() > 0 && memo.bytes() <= 1_600_000);
        // A clone starts empty.
        assert_eq!(memo.clone().counts(), (0, 0));
    }
}
