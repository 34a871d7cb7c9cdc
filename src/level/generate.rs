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
                set(&mut level, x, h - 1, Tile::Solid);
                if h > 6 {
                    set(&mut level, x, h - 2, Tile::Solid);
                }
            }
            c += run;
            if rng.chance(0.5) {
                let pit = 1 + rng.below(3) as i64;
                if rng.chance(0.3) {
                    for x in c..(c + pit).min(w) {
                        set(&mut level, x, h - 1, Tile::Hazard);
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
                    Tile::OneWay
                } else {
                    Tile::Solid
                };
                for x in c..(c + len).min(w) {
                    set(&mut level, x, r, kind);
                }
                if rng.chance(0.15) {
                    // A pillar down from the platform.
                    let x = c + rng.below(len as u64) as i64;
                    for y in r..(r + 3).min(h) {
                        set(&mut level, x, y, Tile::Solid);
                    }
                }
                c += len + 2 + rng.below(7) as i64;
            }
        }
        Ok(level)
    }

    /// A random level as [`Level::generate`] makes it, with ladders and
    /// slopes added: slopes in front of one-tile steps and as small hills
    /// on the ground, ladders from platforms down to the ground (or
    /// hanging over nothing). The same `(width, height, seed)` always
    /// gives the same level.
    ///
    /// # Errors
    /// As [`Level::generate`].
    pub fn generate_with_mechanics(
        width: usize,
        height: usize,
        seed: u64,
    ) -> Result<Level, LevelError> {
        let mut level = Level::generate(width, height, seed)?;
        let mut rng = SplitMix64::new(seed ^ 0x6c61_6464_6572);
        let (w, h) = (width as i64, height as i64);
        let at = |level: &Level, c: i64, r: i64| level.tile_at(c, r);
        let set = |level: &mut Level, c: i64, r: i64, t: Tile| {
            level.set(Cell::new(c as i32, r as i32), t);
        };
        // Slopes up to one-tile steps, and hills on the ground.
        for r in 1..h - 1 {
            for c in 0..w {
                let here = at(&level, c, r) == Tile::Empty
                    && at(&level, c, r + 1) == Tile::Solid
                    && at(&level, c, r - 1) == Tile::Empty;
                if !here {
                    continue;
                }
                let step = |dc: i64| {
                    at(&level, c + dc, r) == Tile::Solid && at(&level, c + dc, r - 1) != Tile::Solid
                };
                if step(1) && rng.chance(0.6) {
                    set(&mut level, c, r, Tile::SlopeRight);
                } else if step(-1) && rng.chance(0.6) {
                    set(&mut level, c, r, Tile::SlopeLeft);
                } else if c + 1 < w
                    && at(&level, c + 1, r) == Tile::Empty
                    && at(&level, c + 1, r + 1) == Tile::Solid
                    && rng.chance(0.04)
                {
                    set(&mut level, c, r, Tile::SlopeRight);
                    set(&mut level, c + 1, r, Tile::SlopeLeft);
                }
            }
        }
        // Platform ends become slopes down to their edge.
        for r in 1..h {
            for c in 0..w {
                if at(&level, c, r) != Tile::Solid
                    || at(&level, c, r - 1) != Tile::Empty
                    || !rng.chance(0.25)
                {
                    continue;
                }
                if at(&level, c - 1, r) == Tile::Empty && at(&level, c + 1, r) == Tile::Solid {
                    set(&mut level, c, r, Tile::SlopeRight);
                } else if at(&level, c + 1, r) == Tile::Empty && at(&level, c - 1, r) == Tile::Solid
                {
                    set(&mut level, c, r, Tile::SlopeLeft);
                }
            }
        }
        // Ladders from platform tops down to the ground below.
        let ladders = 1 + (w * h / 200) as u64;
        for _ in 0..ladders * 8 {
            let (c, r) = (
                rng.below(w as u64) as i64,
                1 + rng.below((h - 2) as u64) as i64,
            );
            let platform = matches!(at(&level, c, r), Tile::Solid | Tile::OneWay)
                && at(&level, c, r - 1) == Tile::Empty
                && at(&level, c, r + 1) == Tile::Empty;
            if !platform {
                continue;
            }
            let mut bottom = r + 1;
            while bottom < h && at(&level, c, bottom) == Tile::Empty {
                bottom += 1;
            }
            // Most reach the ground; some stop short, hanging.
            let end = if rng.chance(0.2) {
                (r + 2).min(bottom)
            } else {
                bottom
            };
            for y in r..end {
                set(&mut level, c, y, Tile::Ladder);
            }
        }
        Ok(level)
    }
}
