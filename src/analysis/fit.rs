//! A physics profile fitted to a recorded trajectory: the reference body's
//! parameters that reproduce, tick by tick, how a game's player moved
//! under the inputs it held (`platnav fit`).
//!
//! Each parameter is read where the recording shows it alone, from the
//! velocities between consecutive positions (`PHYSICS.md`, "One tick"):
//! the top speed on the ground, the change of `vx` per tick while it is
//! short of its target (ground and air), the change of `vy` per tick in
//! free flight (gravity), `vy` on the tick of a press from the ground (jump
//! speed) or in the air (air jumps), the raised `vy` on a release while
//! rising fast (the cut), and a steady fall (the fall speed). A parameter
//! the recording never shows keeps the base profile's value.
//!
//! Then every tick of free motion (no landing, no ledge, no wall, which
//! depend on terrain the recording does not hold) is predicted from the
//! tick before with [`Body::step`], and the deviation is reported.

use crate::level::{Cell, Level, Tile};
use crate::physics::{Body, Input, Physics, PhysicsError};

/// One recorded tick: the input held during it, and where the body was
/// after it, in tiles with y down (any fixed point of the body, the same
/// every tick; its feet's middle is the usual one).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// The input held during the tick.
    pub input: Input,
    /// Position after the tick, tiles.
    pub x: f64,
    /// Position after the tick, tiles, y down.
    pub y: f64,
}

/// The fitted profile and how well it predicts the recording.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// The base profile with every parameter the recording shows fitted.
    pub physics: Physics,
    /// The parameters fitted (the others are the base's).
    pub fitted: Vec<&'static str>,
    /// The ticks of free motion predicted from the tick before.
    pub predicted: usize,
    /// The largest deviation of a prediction, in tiles, and its sample.
    pub worst: (f64, usize),
    /// The median deviation, in tiles.
    pub typical: f64,
}

/// Why a recording could not be fitted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum FitError {
    /// Too few samples to see any motion.
    #[error("a recording needs at least {min} ticks, this one has {got}")]
    TooShort {
        /// The fewest accepted.
        min: usize,
        /// How many it has.
        got: usize,
    },
    /// A position that is not a finite number.
    #[error("sample {0}: the position is not a finite number")]
    NotFinite(usize),
    /// The recording shows no parameter: the body never ran or jumped.
    #[error("the recording shows no run, jump or fall to fit a parameter to")]
    NothingToFit,
    /// The fitted profile fails validation.
    #[error("the fitted profile is invalid: {0}")]
    Physics(#[from] PhysicsError),
}

/// The fewest samples [`fit`] accepts.
pub const MIN_SAMPLES: usize = 8;

/// Velocities below this many tiles per second count as equal: far above
/// the position grid's rounding, far below any game's motion.
const TOL: f64 = 1e-6;

/// Moves shorter than this many tiles are no step of a recording in whole
/// pixels ([`Track::quantum`]).
const QUANTUM_MIN: f64 = 1e-4;

/// The fewest ticks of the second half of a run the run speed is averaged
/// over, in a recording in whole pixels.
const SETTLED: usize = 8;

/// Fits a profile to `samples`, recorded `dt` seconds apart, over `base`.
///
/// # Errors
/// [`FitError`]: too few samples, a non-finite position, nothing shown to
/// fit, or a fitted profile that fails validation.
pub fn fit(samples: &[Sample], dt: f64, base: &Physics) -> Result<Fit, FitError> {
    if samples.len() < MIN_SAMPLES {
        return Err(FitError::TooShort {
            min: MIN_SAMPLES,
            got: samples.len(),
        });
    }
    if let Some(i) = samples
        .iter()
        .position(|s| !s.x.is_finite() || !s.y.is_finite())
    {
        return Err(FitError::NotFinite(i));
    }
    let track = Track::new(samples, dt);
    let mut physics = Physics { dt, ..base.clone() };
    let fitted = track.estimate(&mut physics);
    if fitted.is_empty() {
        return Err(FitError::NothingToFit);
    }
    physics.validate()?;
    let devs = track.deviations(&physics);
    let worst = devs
        .iter()
        .copied()
        .fold((0.0, 0), |w, d| if d.0 > w.0 { d } else { w });
    let typical = median(devs.iter().map(|d| d.0).collect()).unwrap_or(0.0);
    Ok(Fit {
        physics,
        fitted,
        predicted: devs.len(),
        worst,
        typical,
    })
}

/// A recording with its per-tick velocities and contacts.
struct Track<'a> {
    s: &'a [Sample],
    dt: f64,
    /// `vx` during tick `t` (tiles/s); index 0 unknown.
    v: Vec<f64>,
    /// `vy` during tick `t`.
    w: Vec<f64>,
    /// Grounded after tick `t`: it did not move vertically on `t` or on
    /// the tick after.
    g: Vec<bool>,
}

/// The median of `v`, if any.
fn median(mut v: Vec<f64>) -> Option<f64> {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied()
}

impl<'a> Track<'a> {
    fn new(s: &'a [Sample], dt: f64) -> Self {
        let n = s.len();
        let (mut v, mut w) = (vec![0.0; n], vec![0.0; n]);
        for t in 1..n {
            v[t] = (s[t].x - s[t - 1].x) / dt;
            w[t] = (s[t].y - s[t - 1].y) / dt;
        }
        // At rest on tick `t` (no vertical motion); grounded after it when
        // at rest on it or on the next (a landing tick still moves down).
        let rest = |t: usize| t >= 1 && t < n && w[t].abs() < TOL;
        let g = (0..n).map(|t| rest(t) || rest(t + 1)).collect();
        Track { s, dt, v, w, g }
    }

    /// Whether the jump is pressed on tick `t`.
    fn pressed(&self, t: usize) -> bool {
        self.s[t].input.jump && (t == 0 || !self.s[t - 1].input.jump)
    }

    /// Ticks `t >= 2` (both velocities known), with `t - 1`'s contact.
    fn ticks(&self) -> impl Iterator<Item = usize> + '_ {
        2..self.s.len()
    }

    /// Fits what the recording shows into `p`, in dependency order, and
    /// names what it fitted.
    fn estimate(&self, p: &mut Physics) -> Vec<&'static str> {
        let mut fitted = Vec::new();
        let mut set = |name, value: Option<f64>, field: &mut f64| {
            if let Some(x) = value {
                *field = x;
                fitted.push(name);
            }
        };
        // Positions in whole pixels put a single tick's speed off by up to
        // a pixel: the run speed is then read from averages.
        let quantum = self.quantum();
        let run = match quantum {
            Some(_) => self.average_run_speed(),
            None => self.run_speed(),
        };
        set("run_speed", run, &mut p.run_speed);
        set(
            "ground_accel",
            self.accel(p.run_speed, true),
            &mut p.ground_accel,
        );
        set(
            "air_accel",
            self.accel(p.run_speed, false),
            &mut p.air_accel,
        );
        set("gravity", self.gravity(), &mut p.gravity);
        set("jump_speed", self.jump_speed(p.gravity), &mut p.jump_speed);
        // Releases while rising with no cut: the game has none.
        let cut = self
            .cut(p.gravity)
            .or_else(|| self.uncut_release(p.gravity).then_some(p.jump_speed));
        set("jump_cut_speed", cut, &mut p.jump_cut_speed);
        set("max_fall_speed", self.fall_speed(), &mut p.max_fall_speed);
        p.jump_cut_speed = p.jump_cut_speed.min(p.jump_speed);
        // What the recording did not show still covers what it did: no
        // fall capped below the fastest seen, no run below the fastest.
        let falling = self.w.iter().copied().fold(0.0, f64::max);
        p.max_fall_speed = p.max_fall_speed.max(falling);
        let running = self
            .ticks()
            .filter(|&t| self.g[t - 1])
            .map(|t| self.v[t].abs())
            .fold(0.0, f64::max);
        let slack = quantum.map_or(0.0, |q| q / self.dt);
        p.run_speed = p.run_speed.max(running - slack);
        if let Some(n) = self.air_jumps(p) {
            p.air_jumps = n;
            fitted.push("air_jumps");
        }
        fitted
    }

    /// The top speed on the ground: the fastest tick there under a move,
    /// when the body held it for at least two ticks (it saturated).
    fn run_speed(&self) -> Option<f64> {
        let held = self.ticks().filter(|&t| {
            let m = self.s[t].input.move_x;
            m != 0 && self.g[t - 1] && (self.v[t] - self.v[t - 1]).abs() < TOL
        });
        let top = held.map(|t| self.v[t].abs()).fold(0.0, f64::max);
        (top > TOL).then_some(top)
    }

    /// The step positions come in, when every horizontal move of the
    /// recording is a whole number of its smallest one (positions recorded
    /// in whole pixels, say): a single tick's speed is then off by up to a
    /// step either way.
    fn quantum(&self) -> Option<f64> {
        let moves: Vec<f64> = (1..self.s.len())
            .map(|t| (self.s[t].x - self.s[t - 1].x).abs())
            .filter(|&d| d > QUANTUM_MIN)
            .collect();
        let q = moves.iter().copied().fold(f64::INFINITY, f64::min);
        let whole = |d: f64| ((d / q) - (d / q).round()).abs() < 1e-6;
        (moves.len() >= MIN_SAMPLES && q.is_finite() && moves.iter().all(|&d| whole(d)))
            .then_some(q)
    }

    /// The top speed on the ground from averages: for each stretch of ticks
    /// with one move held on the ground, the average speed over its second
    /// half when that is at least [`SETTLED`] ticks, the fastest.
    fn average_run_speed(&self) -> Option<f64> {
        let n = self.s.len();
        let held = |t: usize, m: i8| self.s[t].input.move_x == m && self.g[t - 1];
        let (mut top, mut t) = (0.0f64, 2);
        while t < n {
            let m = self.s[t].input.move_x;
            if m == 0 || !held(t, m) {
                t += 1;
                continue;
            }
            let start = t;
            while t < n && held(t, m) {
                t += 1;
            }
            let half = start + (t - start) / 2;
            if t - half >= SETTLED {
                let moved = self.s[t - 1].x - self.s[half - 1].x;
                top = top.max(moved.abs() / ((t - half) as f64 * self.dt));
            }
        }
        (top > TOL).then_some(top)
    }

    /// The acceleration on the ground (`ground`) or in the air: the change
    /// of `vx` on ticks it moved toward a target it did not reach.
    fn accel(&self, run: f64, ground: bool) -> Option<f64> {
        let samples = self.ticks().filter_map(|t| {
            let target = f64::from(self.s[t].input.move_x) * run;
            let (before, d) = (self.v[t - 1], self.v[t] - self.v[t - 1]);
            let gap = target - before;
            let short = gap.abs() > d.abs() + TOL && d.abs() > TOL && d.signum() == gap.signum();
            // A wall stops the body: `vx` drops to 0 at once.
            let walled = self.v[t].abs() < TOL;
            (self.g[t - 1] == ground && short && !walled).then(|| d.abs() / self.dt)
        });
        median(samples.collect())
    }

    /// Gravity: the change of `vy` over ticks of free flight (no press, no
    /// cut, below the fall speed).
    fn gravity(&self) -> Option<f64> {
        let samples = self.ticks().filter_map(|t| {
            let (before, d) = (self.w[t - 1], self.w[t] - self.w[t - 1]);
            let flying = !self.g[t - 1] && !self.g[t];
            let uncut = before >= 0.0 || self.s[t].input.jump;
            (flying && uncut && !self.pressed(t) && d > TOL).then(|| d / self.dt)
        });
        median(samples.collect())
    }

    /// The jump speed: `vy` on the tick of a press from the ground is
    /// `-jump_speed + gravity * dt`.
    fn jump_speed(&self, gravity: f64) -> Option<f64> {
        let samples = self
            .ticks()
            .filter(|&t| self.g[t - 1] && self.pressed(t) && self.w[t] < -TOL)
            .map(|t| gravity * self.dt - self.w[t]);
        median(samples.collect())
    }

    /// The jump cut: on a tick with the jump not held, rising faster than
    /// the cut, `vy` becomes `-jump_cut_speed + gravity * dt`.
    fn cut(&self, gravity: f64) -> Option<f64> {
        let samples = self.ticks().filter_map(|t| {
            let free = self.w[t - 1] + gravity * self.dt;
            let raised = self.w[t] > free + TOL && self.w[t] < 0.0;
            let released = !self.s[t].input.jump && !self.g[t - 1] && !self.g[t];
            (released && raised).then(|| gravity * self.dt - self.w[t])
        });
        median(samples.collect())
    }

    /// Whether the jump was released while rising and `vy` went on as in
    /// free flight.
    fn uncut_release(&self, gravity: f64) -> bool {
        self.ticks().any(|t| {
            let free = self.w[t - 1] + gravity * self.dt;
            let released = !self.s[t].input.jump && self.s[t - 1].input.jump;
            released && !self.g[t - 1] && free < -TOL && (self.w[t] - free).abs() < TOL
        })
    }

    /// The fall speed: a steady `vy` over three ticks of flight.
    fn fall_speed(&self) -> Option<f64> {
        let samples = (3..self.s.len()).filter_map(|t| {
            let steady = (self.w[t] - self.w[t - 1]).abs() < TOL
                && (self.w[t - 1] - self.w[t - 2]).abs() < TOL;
            (steady && self.w[t] > TOL && !self.g[t]).then_some(self.w[t])
        });
        median(samples.collect())
    }

    /// Air jumps: the most presses in one flight that set `vy` to the jump
    /// speed's (`None` when the jump speed is not shown).
    fn air_jumps(&self, p: &Physics) -> Option<u32> {
        let jump_vy = p.gravity * self.dt - p.jump_speed;
        let (mut most, mut this, mut jumped) = (0u32, 0u32, false);
        for t in 1..self.s.len() {
            if self.g[t - 1] {
                this = 0;
            }
            if self.pressed(t) && (self.w[t] - jump_vy).abs() < TOL * 1e3 {
                jumped = true;
                if !self.g[t - 1] {
                    this += 1;
                    most = most.max(this);
                }
            }
        }
        jumped.then_some(most)
    }

    /// The deviation of each tick of free motion predicted from the tick
    /// before with the reference body, with its sample index.
    fn deviations(&self, p: &Physics) -> Vec<(f64, usize)> {
        let air = open_space(false);
        let ground = open_space(true);
        self.ticks()
            .filter_map(|t| {
                let (was, is) = (self.g[t - 1], self.g[t]);
                // Landing, walking off a ledge and walls depend on terrain.
                let free = if was { is || self.pressed(t) } else { !is };
                let walled = self.v[t].abs() < TOL && self.v[t - 1].abs() > TOL;
                if !free || walled {
                    return None;
                }
                let level = if was { &ground } else { &air };
                let mut body = Body {
                    x: 20.5,
                    y: if was { 21.0 } else { 20.5 },
                    vx: self.v[t - 1],
                    vy: if was { 0.0 } else { self.w[t - 1] },
                    grounded: was,
                    air_jumps_left: p.air_jumps,
                    jump_held_last_tick: self.s[t - 1].input.jump,
                    ..Body::standing(Cell::new(20, 20), p)
                };
                let (x0, y0) = (body.x, body.y);
                body.step(level, p, self.s[t].input);
                let dx = (body.x - x0) - (self.s[t].x - self.s[t - 1].x);
                let dy = (body.y - y0) - (self.s[t].y - self.s[t - 1].y);
                Some((dx.hypot(dy), t))
            })
            .collect()
    }
}

/// A 41 x 42 level of open space (room for the largest body and a tick's
/// motion around (20.5, 21)), with a floor under row 20 when `floor` (a
/// body with its feet at y = 21 stands on it).
fn open_space(floor: bool) -> Level {
    let mut level = Level::empty(41, 42).expect("a 41 x 42 level is valid");
    if floor {
        for c in 0..41 {
            level.set(Cell::new(c, 21), Tile::SOLID);
        }
    }
    level
}
