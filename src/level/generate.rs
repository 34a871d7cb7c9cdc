//! Seeded random levels, for tests and benchmarks.

use super::{Cell, Level, LevelError, Platform, PlatformLoop, Tile};

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

impl Level {
    /// A random level with moving platforms ([`Level::generate`]'s, cut
    /// by `count` chasms too wide for a jump, each with a platform over
    /// it): at the ledges' height back and forth, two rows above them
    /// with a pause at each end, or around a loop that rises on the far
    /// side. The same arguments always give the same level and platforms.
    ///
    /// # Errors
    /// As [`Level::generate`]; [`LevelError::TooLarge`] when the level is
    /// too narrow for the chasms (16 columns each) or lower than 10 rows.
    pub fn generate_with_platforms(
        width: usize,
        height: usize,
        count: usize,
        seed: u64,
    ) -> Result<(Level, Vec<Platform>), LevelError> {
        let mut level = Level::generate(width, height, seed)?;
        if height < 10 || width < 16 * (count + 1) {
            return Err(LevelError::TooLarge { width, height });
        }
        let mut rng = SplitMix64::new(seed ^ 0x5eed_11f7);
        let (w, h) = (width as i32, height as i32);
        let ground = h - 2;
        let mut platforms = Vec::with_capacity(count);
        for i in 0..count as i32 {
            let middle = (i + 1) * w / (count as i32 + 1);
            let gap = 9 + rng.below(4) as i32;
            let (left, right) = (middle - gap / 2, middle - gap / 2 + gap);
            for c in left..right {
                for r in 0..h {
                    level.set(Cell::new(c, r), Tile::EMPTY);
                }
            }
            // Firm ledges, with room to stand, on both sides.
            for c in (left - 3..left).chain(right..right + 3) {
                for r in ground - 3..ground {
                    level.set(Cell::new(c, r), Tile::EMPTY);
                }
                level.set(Cell::new(c, ground), Tile::SOLID);
                level.set(Cell::new(c, h - 1), Tile::SOLID);
            }
            let width = 2 + rng.below(2) as u32;
            let (x0, x1) = (f64::from(left), f64::from(right) - f64::from(width));
            let top = f64::from(ground);
            let (points, pause, looped) = match rng.below(3) {
                0 => (vec![[x0, top], [x1, top]], 0, PlatformLoop::BackAndForth),
                1 => (
                    vec![[x0 + 1.0, top - 2.0], [x1 - 1.0, top - 2.0]],
                    20 + rng.below(40) as u32,
                    PlatformLoop::BackAndForth,
                ),
                _ => (
                    vec![[x0, top], [x1, top], [x1, top - 3.0], [x0, top - 3.0]],
                    rng.below(20) as u32,
                    PlatformLoop::Loop,
                ),
            };
            platforms.push(Platform {
                width,
                height: 1,
                points,
                speed: 1.5 + rng.below(6) as f64 * 0.5,
                pause,
                looped,
                offset: rng.below(600),
            });
        }
        Ok((level, platforms))
    }
}
