//! Seeded random levels, for tests and benchmarks.

use super::{Cell, Level, LevelError, Tile};

/// SplitMix64: a tiny, fast, well-mixed PRNG, stable across platforms and
/// crate versions (so a seed names the same level forever).
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n.max(1))) >> 64) as u64
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 > 1.0 - p
    }
}

impl Level {
    /// A random platformer level from a seed: ground with pits, floating
    /// platforms (some one-way), pillars and a few hazards. The same
    /// `(width, height, seed)` always gives the same level.
    ///
    /// # Errors
    /// [`LevelError::TooLarge`] or [`LevelError::Empty`] for a bad size.
    pub fn generate(width: usize, height: usize, seed: u64) -> Result<Level, LevelError> {
        let mut level = Level::empty(width, height)?;
        let mut rng = SplitMix64::new(seed);
        let (w, h) = (width as i64, height as i64);
        let set = |level: &mut Level, c: i64, r: i64, t: Tile| {
            level.set(Cell::new(c as i32, r as i32), t);
        };
        // Ground, two rows thick where there is room, with pits.
        let mut c = 0;
        while c < w {
            let run = 3 + rng.below(12) as i64;
            for x in c..(c + run).min(w) {
                set(&mut level, x, h - 1, Tile::SOLID);
                if h > 6 {
                    set(&mut level, x, h - 2, Tile::SOLID);
                }
            }
            c += run;
            if rng.chance(0.5) {
                let pit = 1 + rng.below(3) as i64;
                if rng.chance(0.3) {
                    for x in c..(c + pit).min(w) {
                        set(&mut level, x, h - 1, Tile::HAZARD);
                    }
                }
                c += pit;
            }
        }
        // Floating platforms on a loose lattice of tiers 3 rows apart.
        let tiers = (h - 4).max(0) / 3;
        for tier in 0..tiers {
            let r = h - 5 - 3 * tier;
            if r < 2 {
                break;
            }
            let mut c = rng.below(6) as i64;
            while c < w {
                let len = 2 + rng.below(7) as i64;
                let kind = if rng.chance(0.2) {
                    Tile::ONE_WAY
                } else {
                    Tile::SOLID
                };
                for x in c..(c + len).min(w) {
                    set(&mut level, x, r, kind);
                }
                if rng.chance(0.15) {
                    // A pillar down from the platform.
                    let x = c + rng.below(len as u64) as i64;
                    for y in r..(r + 3).min(h) {
                        set(&mut level, x, y, Tile::SOLID);
                    }
                }
                c += len + 2 + rng.below(7) as i64;
            }
        }
        Ok(level)
    }
}
