//! Moving platforms: rectangles of whole tiles that move along a path of
//! points, back and forth or around a loop, with a pause at each point
//! (`PHYSICS.md`, "Moving platforms"). A platform's place is a function of
//! the tick, computed from its path and never accumulated, so that it
//! cannot drift, and it repeats with a known period.

use std::fmt;

use crate::physics::geometry::snap;

/// The most points a platform's path may have.
pub const MAX_PLATFORM_POINTS: usize = 256;
/// The most platforms a level may hold.
pub const MAX_PLATFORMS: usize = 4096;
/// The longest period a platform may have, in ticks (an hour at 60 Hz):
/// searches wait at most a period, so this bounds what a level can make
/// them try.
pub const MAX_PERIOD: u64 = 216_000;

/// How a platform goes around its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum PlatformLoop {
    /// From the first point to the last, then back the same way.
    #[default]
    BackAndForth,
    /// From the first point to the last, then straight back to the first.
    Loop,
}

/// A moving platform: a one-way top `width` tiles wide and `height` tiles
/// thick whose top-left corner follows `points`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Platform {
    /// Width in whole tiles (at least 1).
    pub width: u32,
    /// Thickness in whole tiles (at least 1): a falling body lands on the
    /// top only when its box overlaps the platform's.
    pub height: u32,
    /// The top-left corner's path, in tiles (x right, y down); at least
    /// one point. Put on the position grid when the platform is checked.
    pub points: Vec<[f64; 2]>,
    /// Speed along the path, in tiles/s.
    pub speed: f64,
    /// Ticks the platform rests at each point before it leaves it.
    pub pause: u32,
    /// Back and forth, or around a loop.
    pub looped: PlatformLoop,
    /// The tick of its cycle the platform is at on tick 0.
    pub offset: u64,
}

/// Why a platform cannot be used.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum PlatformError {
    /// Too many platforms.
    TooMany(usize),
    /// Platform `index` is malformed: `why`.
    Invalid {
        /// The platform's index in the level's list.
        index: usize,
        /// What is wrong.
        why: String,
    },
}

impl fmt::Display for PlatformError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooMany(n) => write!(f, "{n} moving platforms (at most {MAX_PLATFORMS})"),
            Self::Invalid { index, why } => write!(f, "moving platform {index}: {why}"),
        }
    }
}

impl std::error::Error for PlatformError {}

/// One leg of a platform's cycle: a pause at `from`, then the move to
/// `to` over `ticks` ticks.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Leg {
    from: [f64; 2],
    to: [f64; 2],
    ticks: u64,
    /// The cycle tick the leg starts at.
    start: u64,
}

/// A checked platform with its cycle laid out, ready to be asked where it
/// is on any tick.
#[derive(Debug, Clone, PartialEq)]
pub struct Moving {
    /// The platform as given (its points on the grid).
    pub platform: Platform,
    legs: Vec<Leg>,
    period: u64,
    /// `offset mod period`.
    phase: u64,
    /// The box every place of the top-left corner lies in:
    /// `[min x, min y, max x, max y]`.
    bounds: [f64; 4],
}

impl Moving {
    /// Checks `platform` for ticks of `dt` seconds and lays out its cycle.
    ///
    /// # Errors
    /// A message when a size, point, speed or pause is out of range, the
    /// platform moves a tile or more a tick, or its period is over
    /// [`MAX_PERIOD`].
    pub fn new(mut platform: Platform, dt: f64) -> Result<Self, String> {
        check_shape(&platform)?;
        for p in &mut platform.points {
            *p = [snap(p[0]), snap(p[1])];
        }
        let step = platform.speed * dt;
        if !(step.is_finite() && step > 0.0 && step < 1.0) {
            return Err(format!(
                "speed {} tiles/s moves {step} tiles a tick (must be above 0 and under 1)",
                platform.speed
            ));
        }
        let (legs, period) = lay_out(&platform, step)?;
        let bounds = platform.points.iter().fold(
            [
                f64::INFINITY,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::NEG_INFINITY,
            ],
            |b, p| {
                [
                    b[0].min(p[0]),
                    b[1].min(p[1]),
                    b[2].max(p[0]),
                    b[3].max(p[1]),
                ]
            },
        );
        Ok(Self {
            phase: platform.offset % period,
            platform,
            legs,
            period,
            bounds,
        })
    }

    /// The ticks after which the platform is where it was.
    #[must_use]
    pub fn period(&self) -> u64 {
        self.period
    }

    /// The top-left corner on tick `tick` (`PHYSICS.md`, "Moving
    /// platforms"): exact on the position grid.
    #[must_use]
    pub fn at(&self, tick: u64) -> [f64; 2] {
        // `phase` is the offset within a period: one division a lookup.
        let mut u = tick % self.period + self.phase;
        if u >= self.period {
            u -= self.period;
        }
        let i = self.legs.partition_point(|l| l.start <= u) - 1;
        let leg = self.legs[i];
        let k = u - leg.start;
        let pause = u64::from(self.platform.pause);
        if k <= pause {
            return leg.from;
        }
        let j = (k - pause) as f64;
        let n = leg.ticks as f64;
        let dx = leg.to[0] - leg.from[0];
        let dy = leg.to[1] - leg.from[1];
        [
            leg.from[0] + snap(dx * j / n),
            leg.from[1] + snap(dy * j / n),
        ]
    }

    /// The box the platform covers over its whole cycle:
    /// `[left, top, right, bottom]` in tiles.
    #[must_use]
    pub fn swept(&self) -> [f64; 4] {
        [
            self.bounds[0],
            self.bounds[1],
            self.bounds[2] + f64::from(self.platform.width),
            self.bounds[3] + f64::from(self.platform.height),
        ]
    }

    /// The fastest the platform moves, in tiles a tick (its speed times
    /// the tick, to within a rounding).
    #[must_use]
    pub fn step_bound(&self, dt: f64) -> f64 {
        self.platform.speed * dt
    }
}

fn check_shape(p: &Platform) -> Result<(), String> {
    if p.width == 0 || p.width > 64 || p.height == 0 || p.height > 64 {
        return Err(format!(
            "size {} x {} tiles (each must be 1 to 64)",
            p.width, p.height
        ));
    }
    if p.points.is_empty() || p.points.len() > MAX_PLATFORM_POINTS {
        return Err(format!(
            "{} points on its path (1 to {MAX_PLATFORM_POINTS})",
            p.points.len()
        ));
    }
    if let Some(q) = p
        .points
        .iter()
        .find(|q| !q.iter().all(|v| v.is_finite() && v.abs() < 60_000.0))
    {
        return Err(format!("point ({}, {}) is off any level", q[0], q[1]));
    }
    if u64::from(p.pause) > MAX_PERIOD {
        return Err(format!("pause of {} ticks (at most {MAX_PERIOD})", p.pause));
    }
    Ok(())
}

/// The legs of the cycle and its period, for a platform moving `step`
/// tiles a tick.
fn lay_out(p: &Platform, step: f64) -> Result<(Vec<Leg>, u64), String> {
    let pts = &p.points;
    if pts.len() == 1 {
        // One point: a platform that stays, whatever its pause.
        let leg = Leg {
            from: pts[0],
            to: pts[0],
            ticks: 1,
            start: 0,
        };
        return Ok((vec![leg], 1));
    }
    let mut order: Vec<usize> = (0..pts.len()).collect();
    match p.looped {
        PlatformLoop::BackAndForth => order.extend((0..pts.len().saturating_sub(1)).rev()),
        PlatformLoop::Loop => order.push(0),
    }
    let mut legs = Vec::new();
    let mut start = 0u64;
    for pair in order.windows(2) {
        let (from, to) = (pts[pair[0]], pts[pair[1]]);
        let (dx, dy) = (to[0] - from[0], to[1] - from[1]);
        let length = (dx * dx + dy * dy).sqrt();
        let ticks = ((length / step).ceil() as u64).max(1);
        legs.push(Leg {
            from,
            to,
            ticks,
            start,
        });
        start = start
            .saturating_add(u64::from(p.pause))
            .saturating_add(ticks);
        if start > MAX_PERIOD {
            return Err(format!(
                "its cycle takes over {MAX_PERIOD} ticks (a path too long or too slow)"
            ));
        }
    }
    Ok((legs, start))
}

/// The moving platforms of a level, checked for one tick length.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Platforms {
    moving: Vec<Moving>,
    /// For each block of [`BLOCK`] columns from `origin`, the platforms
    /// whose whole cycle comes within [`REACH`] tiles of it, in order.
    columns: Vec<Vec<u32>>,
    origin: i64,
}

/// The columns of a block of the platforms' index.
const BLOCK: f64 = 8.0;
/// How far from a platform's cycle a body's feet may be and the body
/// still meet it in a tick: two tiles past the widest body's half width.
const REACH: f64 = 10.0;

impl Platforms {
    /// Checks `platforms` for ticks of `dt` seconds.
    ///
    /// # Errors
    /// [`PlatformError`] naming the first platform that is malformed.
    pub fn new(platforms: Vec<Platform>, dt: f64) -> Result<Self, PlatformError> {
        if platforms.len() > MAX_PLATFORMS {
            return Err(PlatformError::TooMany(platforms.len()));
        }
        let moving = platforms
            .into_iter()
            .enumerate()
            .map(|(index, p)| {
                Moving::new(p, dt).map_err(|why| PlatformError::Invalid { index, why })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let block = |x: f64| (x / BLOCK).floor() as i64;
        let origin = moving
            .iter()
            .map(|m| block(m.swept()[0] - REACH))
            .min()
            .unwrap_or(0);
        let end = moving
            .iter()
            .map(|m| block(m.swept()[2] + REACH))
            .max()
            .unwrap_or(-1);
        let mut columns = vec![Vec::new(); usize::try_from(end + 1 - origin).unwrap_or(0)];
        for (i, m) in moving.iter().enumerate() {
            let s = m.swept();
            for b in block(s[0] - REACH)..=block(s[2] + REACH) {
                columns[(b - origin) as usize].push(i as u32);
            }
        }
        Ok(Self {
            moving,
            columns,
            origin,
        })
    }

    /// The platforms that may meet a body whose feet are at `x` within a
    /// tick (a superset, by index in order): those whose whole cycle comes
    /// within ten tiles of `x`.
    #[must_use]
    pub fn near_x(&self, x: f64) -> &[u32] {
        let b = (x / BLOCK).floor() as i64 - self.origin;
        usize::try_from(b)
            .ok()
            .and_then(|b| self.columns.get(b))
            .map_or(&[], Vec::as_slice)
    }

    /// The platforms, in the order given.
    #[must_use]
    pub fn all(&self) -> &[Moving] {
        &self.moving
    }

    /// True when there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.moving.is_empty()
    }

    /// The number of platforms.
    #[must_use]
    pub fn len(&self) -> usize {
        self.moving.len()
    }

    /// The longest period among them (1 when there are none).
    #[must_use]
    pub fn longest_period(&self) -> u64 {
        self.moving.iter().map(Moving::period).max().unwrap_or(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lift(points: Vec<[f64; 2]>, looped: PlatformLoop, pause: u32) -> Moving {
        let p = Platform {
            width: 2,
            height: 1,
            points,
            speed: 3.0,
            pause,
            looped,
            offset: 0,
        };
        Moving::new(p, 1.0 / 60.0).unwrap()
    }

    #[test]
    fn a_back_and_forth_platform_returns_to_its_start_after_one_period() {
        let m = lift(vec![[2.0, 5.0], [6.0, 5.0]], PlatformLoop::BackAndForth, 10);
        // 4 tiles at 0.05 a tick: 80 ticks a leg, plus the pause, twice.
        assert_eq!(m.period(), 180);
        assert_eq!(m.at(0), [2.0, 5.0]);
        assert_eq!(m.at(10), [2.0, 5.0]);
        assert_eq!(m.at(90), [6.0, 5.0]);
        assert_eq!(m.at(180), m.at(0));
        assert_eq!(m.at(181 + 180 * 7), m.at(1));
        let mid = m.at(50);
        assert!(mid[0] > 3.9 && mid[0] < 4.1, "{mid:?}");
    }

    #[test]
    fn a_looped_platform_goes_straight_back_to_its_first_point() {
        let m = lift(
            vec![[0.0, 0.0], [3.0, 0.0], [3.0, 4.0]],
            PlatformLoop::Loop,
            0,
        );
        // 3 + 4 + 5 tiles at 0.05 a tick.
        assert_eq!(m.period(), 60 + 80 + 100);
        assert_eq!(m.at(140), [3.0, 4.0]);
        assert_eq!(m.swept(), [0.0, 0.0, 5.0, 5.0]);
    }

    #[test]
    fn malformed_platforms_are_refused_by_index() {
        let bad = Platform {
            width: 0,
            height: 1,
            points: vec![[0.0, 0.0]],
            speed: 1.0,
            pause: 0,
            looped: PlatformLoop::BackAndForth,
            offset: 0,
        };
        let fast = Platform {
            width: 1,
            speed: 90.0,
            ..bad.clone()
        };
        let e = Platforms::new(vec![fast.clone(), bad], 1.0 / 60.0).unwrap_err();
        assert!(e.to_string().contains("platform 0"), "{e}");
        let fine = Platform { speed: 1.0, ..fast };
        let e = Platforms::new(
            vec![fine.clone(), Platform { width: 0, ..fine }],
            1.0 / 60.0,
        )
        .unwrap_err();
        assert!(e.to_string().contains("platform 1"), "{e}");
    }
}
