//! A second implementation of "Moving platforms" (`docs/PHYSICS.md`),
//! written from the text alone: where a platform is on every tick
//! ([`Lift`]), which platform a body rides ([`rides`]) and one tick of a
//! body among platforms ([`step`]): the carry with its undo and crush
//! rules, the platforms' tops for steps 6 and 7, and the velocity a body
//! keeps when it leaves a platform.
//!
//! `tests/platform_twin.rs` steps it beside `Body::step_moving` and
//! `Moving::at` and asks for the same bits on every tick.
//!
//! Only the platform rules are re-derived here. The ordinary tick is the
//! library's `Body::step`, on a view ([`Tiles`]) of the level that hands it
//! this module's own [`Surface`]s (each platform's box at the end of the
//! tick and its top as the tick started), the hook steps 6 and 7 read.
//! Positions, periods, the ride test, the carry and the leaving velocity
//! share no code with the library.

use platnav::{
    Body, Input, Level, Physics, Tile,
    level::{Platform, PlatformLoop},
    physics::{PlatformVelocity, Surface, Tiles},
};

/// `EPS = 2^-30` of "Space and units".
pub const EPS: f64 = 1.0 / 1_073_741_824.0;

/// `2^36`: one tile in multiples of the position grid `G = 2^-36`.
const PER_TILE: f64 = 68_719_476_736.0;

/// The longest period a platform may have, in ticks.
pub const MAX_PERIOD: u64 = 216_000;

/// `v` on the position grid: `round_ties_even(v * 2^36) / 2^36`.
#[must_use]
pub fn grid(v: f64) -> f64 {
    (v * PER_TILE).round_ties_even() / PER_TILE
}

/// One leg of a platform's cycle, `pause + T` ticks long: at `a` while
/// `k <= pause` (`k` the ticks since the leg started), then `T - 1` ticks
/// on the way to `b`, where the next leg starts.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Leg {
    a: [f64; 2],
    b: [f64; 2],
    pause: u64,
    ticks: u64,
}

impl Leg {
    /// `pause + T`.
    fn len(&self) -> u64 {
        self.pause + self.ticks
    }

    /// The corner `k` ticks after the leg started (`k < pause + T`).
    fn at(&self, k: u64) -> [f64; 2] {
        if k <= self.pause {
            return self.a;
        }
        let j = (k - self.pause) as f64;
        let t = self.ticks as f64;
        let dx = self.b[0] - self.a[0];
        let dy = self.b[1] - self.a[1];
        [self.a[0] + grid(dx * j / t), self.a[1] + grid(dy * j / t)]
    }
}

/// A platform as the twin lays it out: its size, legs, period and offset.
#[derive(Debug, Clone, PartialEq)]
pub struct Lift {
    /// Width in tiles.
    pub width: f64,
    /// Height in tiles.
    pub height: f64,
    legs: Vec<Leg>,
    period: u64,
    offset: u64,
}

impl Lift {
    /// Lays out `platform` for ticks of `dt` seconds: its points put on the
    /// grid, its legs in order (back and forth, or around the loop), each
    /// `pause + T` ticks with `T = max(1, ceil(L / (speed * dt)))`.
    ///
    /// # Errors
    /// A message when the platform breaks a limit of the text: a size out
    /// of 1 to 64, no point or more than 256, a point not finite, `speed *
    /// dt` not above 0 and under 1, or a period over [`MAX_PERIOD`].
    pub fn new(platform: &Platform, dt: f64) -> Result<Self, String> {
        if !(1..=64).contains(&platform.width) || !(1..=64).contains(&platform.height) {
            return Err("width and height must be 1 to 64 tiles".into());
        }
        let n = platform.points.len();
        if n == 0 || n > 256 {
            return Err("a path has 1 to 256 points".into());
        }
        if platform.points.iter().flatten().any(|v| !v.is_finite()) {
            return Err("points must be finite".into());
        }
        let step = platform.speed * dt;
        let moves = step > 0.0 && step < 1.0;
        if !moves {
            return Err("speed * dt must be above 0 and under 1".into());
        }
        let pts: Vec<[f64; 2]> = platform
            .points
            .iter()
            .map(|p| [grid(p[0]), grid(p[1])])
            .collect();
        // The legs as index pairs.
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        if n == 1 {
            pairs.push((0, 0));
        } else {
            pairs.extend((0..n - 1).map(|i| (i, i + 1)));
            match platform.looped {
                PlatformLoop::BackAndForth => pairs.extend((1..n).rev().map(|i| (i, i - 1))),
                PlatformLoop::Loop => pairs.push((n - 1, 0)),
            }
        }
        // "A single point is one leg of 1 tick from the point to itself":
        // read as the leg's whole length (no pause), so the period is 1.
        // (`pause + T` with `T = 1` would make it `pause + 1`; the corner
        // is the point on every tick either way.)
        let pause = if n == 1 { 0 } else { u64::from(platform.pause) };
        let legs: Vec<Leg> = pairs
            .into_iter()
            .map(|(i, k)| {
                let (a, b) = (pts[i], pts[k]);
                let dx = b[0] - a[0];
                let dy = b[1] - a[1];
                let l = (dx * dx + dy * dy).sqrt();
                let ticks = (l / step).ceil().max(1.0) as u64;
                Leg { a, b, pause, ticks }
            })
            .collect();
        let period = legs
            .iter()
            .try_fold(0u64, |s, l| s.checked_add(l.len()))
            .filter(|&p| p <= MAX_PERIOD)
            .ok_or_else(|| format!("the period is over {MAX_PERIOD} ticks"))?;
        Ok(Self {
            width: f64::from(platform.width),
            height: f64::from(platform.height),
            legs,
            period,
            offset: platform.offset,
        })
    }

    /// The period `P`: the sum of the legs' lengths.
    #[must_use]
    pub fn period(&self) -> u64 {
        self.period
    }

    /// The top-left corner on tick `tick`: with `u = ((t mod P) + (offset
    /// mod P)) mod P`, the leg that holds cycle tick `u`, `k` ticks in.
    #[must_use]
    pub fn corner(&self, tick: u64) -> [f64; 2] {
        let p = self.period;
        let mut u = ((tick % p) + (self.offset % p)) % p;
        for leg in &self.legs {
            if u < leg.len() {
                return leg.at(u);
            }
            u -= leg.len();
        }
        unreachable!("cycle tick beyond the period")
    }

    /// The top on tick `tick`.
    #[must_use]
    pub fn top(&self, tick: u64) -> f64 {
        self.corner(tick)[1]
    }
}

/// Lays out every platform, in order.
///
/// # Errors
/// The index and message of the first platform [`Lift::new`] refuses.
pub fn lay_out(platforms: &[Platform], dt: f64) -> Result<Vec<Lift>, (usize, String)> {
    platforms
        .iter()
        .enumerate()
        .map(|(i, p)| Lift::new(p, dt).map_err(|e| (i, e)))
        .collect()
}

/// Whether `[a0, a1]` and `[b0, b1]` overlap by more than EPS.
fn overlap(a0: f64, a1: f64, b0: f64, b1: f64) -> bool {
    let hi = if b1 < a1 { b1 } else { a1 };
    let lo = if b0 > a0 { b0 } else { a0 };
    hi - lo > EPS
}

/// Half the box's width and its height, on the grid.
fn half_w(p: &Physics) -> f64 {
    grid(p.w / 2.0)
}
fn box_h(p: &Physics) -> f64 {
    grid(p.h)
}

/// Step 0, "Ride": the platform the body rides as tick `tick` starts, the
/// first in the list whose top is within EPS of the feet and which the
/// box overlaps horizontally by more than EPS, for a body alive and
/// grounded.
#[must_use]
pub fn rides(body: &Body, lifts: &[Lift], tick: u64, p: &Physics) -> Option<usize> {
    if body.dead || !body.grounded {
        return None;
    }
    let hw = half_w(p);
    lifts.iter().position(|l| {
        let [px, py] = l.corner(tick);
        (body.y - py).abs() <= EPS && overlap(body.x - hw, body.x + hw, px, px + l.width)
    })
}

/// The tile the carry sees at `(c, r)`: the borders left, right and above
/// are `Solid`, below the last row is open.
fn solid(level: &Level, c: i64, r: i64) -> bool {
    let (w, h) = (level.width() as i64, level.height() as i64);
    if c < 0 || c >= w || r < 0 {
        true
    } else if r >= h {
        false
    } else {
        level.tiles()[(r * w + c) as usize] == Tile::SOLID
    }
}

/// Whether the box of feet `(x, y)` overlaps a `Solid` tile or border by
/// more than EPS both ways.
fn in_solid(level: &Level, x: f64, y: f64, p: &Physics) -> bool {
    let (hw, hh) = (half_w(p), box_h(p));
    let (x0, x1, y0, y1) = (x - hw, x + hw, y - hh, y);
    let cols = x0.floor() as i64 - 1..=x1.floor() as i64 + 1;
    let rows = y0.floor() as i64 - 1..=y1.floor() as i64 + 1;
    rows.into_iter().any(|r| {
        overlap(y0, y1, r as f64, r as f64 + 1.0)
            && cols
                .clone()
                .any(|c| overlap(x0, x1, c as f64, c as f64 + 1.0) && solid(level, c, r))
    })
}

/// The level as the ordinary tick sees it, with the platforms' tops of
/// this tick.
struct WithTops<'a> {
    level: &'a Level,
    tops: Vec<Surface>,
}

impl Tiles for WithTops<'_> {
    fn tile_at(&self, col: i64, row: i64) -> Tile {
        self.level.tile_at(col, row)
    }
    fn rows(&self) -> f64 {
        self.level.height() as f64
    }
    fn holds(&self, tile: Tile) -> bool {
        self.level.holds(tile)
    }
    fn surfaces(&self) -> &[Surface] {
        &self.tops
    }
}

/// What one tick did, so that tests can count the rules they exercised.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Events {
    /// The platform ridden as the tick started.
    pub rode: Option<usize>,
    /// The carry's x move was undone (the box met a `Solid` tile).
    pub x_undone: bool,
    /// A sinking platform left the body (its y move was undone).
    pub y_undone: bool,
    /// A rising platform crushed the body.
    pub crushed: bool,
    /// The body started the tick in the air and ended it standing on a
    /// platform's top.
    pub landed: bool,
    /// The body left the platform it rode and kept some of its velocity
    /// (a non-zero part added).
    pub kept: bool,
}

/// One tick of `body` from tick `tick` to `tick + 1` on `level` with the
/// platforms `lifts` ("Moving platforms", "The tick from `t` to `t + 1`"):
/// ride, carry, the ordinary tick with the platforms' tops, then leaving.
///
/// # Panics
/// On a level that wraps (the text does not combine the two).
pub fn step(
    body: &mut Body,
    level: &Level,
    lifts: &[Lift],
    tick: u64,
    p: &Physics,
    input: Input,
) -> Events {
    assert!(
        !level.wrap().x && !level.wrap().y,
        "screen wrap and moving platforms are not combined"
    );
    let mut ev = Events::default();
    if body.dead {
        return ev;
    }
    let was_grounded = body.grounded;
    let now: Vec<[f64; 2]> = lifts.iter().map(|l| l.corner(tick)).collect();
    let next: Vec<[f64; 2]> = lifts.iter().map(|l| l.corner(tick + 1)).collect();
    // 0. Ride.
    ev.rode = rides(body, lifts, tick, p);
    // 1. Carry.
    let mut moved = [0.0, 0.0];
    if let Some(k) = ev.rode {
        let dx = next[k][0] - now[k][0];
        let dy = next[k][1] - now[k][1];
        moved = [dx, dy];
        let x = body.x;
        body.x += dx;
        if in_solid(level, body.x, body.y, p) {
            body.x = x;
            ev.x_undone = dx != 0.0;
        }
        let y = body.y;
        body.y += dy;
        if in_solid(level, body.x, body.y, p) {
            if dy < 0.0 {
                body.dead = true;
                ev.crushed = true;
                return ev;
            }
            body.y = y;
            ev.y_undone = dy != 0.0;
        }
    }
    // 2. The tick, with each platform's box at `tick + 1` and its top at
    // `tick`.
    let view = WithTops {
        level,
        tops: lifts
            .iter()
            .zip(now.iter().zip(&next))
            .map(|(l, (a, b))| Surface {
                left: b[0],
                right: b[0] + l.width,
                top: b[1],
                bottom: b[1] + l.height,
                top_before: a[1],
            })
            .collect(),
    };
    body.step(&view, p, input);
    if !was_grounded && body.grounded && !body.dead {
        let hw = half_w(p);
        ev.landed = next.iter().zip(lifts).any(|(c, l)| {
            (body.y - c[1]).abs() <= EPS && overlap(body.x - hw, body.x + hw, c[0], c[0] + l.width)
        });
    }
    // 3. Leaving.
    if ev.rode.is_some() && !body.dead && !body.grounded {
        let (vx, vy) = (moved[0] / p.dt, moved[1] / p.dt);
        match p.platform_velocity {
            PlatformVelocity::None => {}
            PlatformVelocity::Horizontal => {
                body.vx += vx;
                ev.kept = vx != 0.0;
            }
            PlatformVelocity::All => {
                body.vx += vx;
                body.vy += vy;
                ev.kept = vx != 0.0 || vy != 0.0;
            }
        }
    }
    ev
}
