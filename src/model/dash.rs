//! A small body with rules of its own, unlike the reference body's: it
//! speeds up slowly and stops fast (asymmetric acceleration), has no air
//! control once it leaves the ground, and dashes: pressing down in the air
//! while moving left or right sends it level at dash speed for a few
//! ticks, once per flight. It shows that what takes a [`BodyModel`]
//! assumes nothing of the reference body.
//!
//! Each tick, in order:
//! 1. A dash under way carries the body at `DASH_SPEED` in its direction,
//!    with no vertical speed, and counts down.
//! 2. Otherwise, on the ground: the horizontal speed moves toward
//!    `move_x * RUN_SPEED` by at most `SPEED_UP * DT` when that speeds it
//!    up, `SLOW_DOWN * DT` when that slows it or turns it; a fresh jump
//!    press sets the vertical speed to `-JUMP_SPEED`. In the air the
//!    horizontal speed stays, and down pressed afresh with `move_x` not
//!    0, the dash not yet used this flight, starts a dash of `DASH_TICKS`
//!    ticks (this one included, as step 1). Unless dashing, gravity then
//!    adds `GRAVITY * DT` to the vertical speed, capped at `MAX_FALL`.
//! 3. The body moves sideways by `vx * DT`; a box overlapping a solid
//!    tile goes back to touch it, and `vx` is 0. Then up or down by
//!    `vy * DT`: overlapping a solid tile (or, moving down, a one-way
//!    top it was above) puts it against the tile with `vy` 0, grounded
//!    when it came down.
//! 4. Grounded makes the dash ready again; a hazard overlapped, or the
//!    box's top below the last row, kills.
//!
//! The box is `W` wide and `H` tall, its position the middle of its
//! bottom edge; overlap means more than `1e-9` deep on both axes.

use super::{BodyModel, Bounds};
use crate::level::{Cell, Level, Tile};
use crate::physics::Input;

const DT: f64 = 1.0 / 60.0;
const W: f64 = 0.8;
const H: f64 = 0.9;
const RUN_SPEED: f64 = 7.0;
const SPEED_UP: f64 = 12.0;
const SLOW_DOWN: f64 = 60.0;
const JUMP_SPEED: f64 = 13.0;
const GRAVITY: f64 = 40.0;
const MAX_FALL: f64 = 18.0;
const DASH_SPEED: f64 = 16.0;
const DASH_TICKS: u8 = 9;
const OVERLAP: f64 = 1e-9;

/// The dashing body (see the module docs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DashBody;

/// Its state.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct DashState {
    /// Feet x, tiles.
    pub x: f64,
    /// Feet y, tiles (down).
    pub y: f64,
    /// Horizontal speed, tiles/s.
    pub vx: f64,
    /// Vertical speed, tiles/s (down).
    pub vy: f64,
    /// On the ground.
    pub grounded: bool,
    /// Ticks of dash left.
    pub dash_left: u8,
    /// The dash's direction.
    pub dash_dir: i8,
    /// Not dashed since the last landing.
    pub dash_ready: bool,
    /// Jump held on the last tick.
    pub jump_held: bool,
    /// Down held on the last tick.
    pub down_held: bool,
    /// Dead bodies stay dead.
    pub dead: bool,
}

/// The columns or rows a span `[lo, hi]` overlaps more than [`OVERLAP`].
fn span(lo: f64, hi: f64) -> std::ops::RangeInclusive<i64> {
    ((lo + OVERLAP).floor() as i64)..=((hi - OVERLAP).floor() as i64)
}

/// Whether the box with feet at `(x, y)` overlaps a tile `hit` accepts.
fn overlaps(level: &Level, x: f64, y: f64, hit: impl Fn(Tile) -> bool) -> bool {
    span(y - H, y).any(|r| span(x - W / 2.0, x + W / 2.0).any(|c| hit(level.tile_at(c, r))))
}

impl DashBody {
    /// Step 2: speeds, or a dash.
    fn accelerate(s: &mut DashState, input: Input) {
        if s.grounded {
            let target = f64::from(input.move_x) * RUN_SPEED;
            let rate = if target.abs() > s.vx.abs() && target * s.vx >= 0.0 {
                SPEED_UP
            } else {
                SLOW_DOWN
            };
            s.vx += (target - s.vx).clamp(-rate * DT, rate * DT);
            if input.jump && !s.jump_held {
                s.vy = -JUMP_SPEED;
            }
        } else if input.down && !s.down_held && input.move_x != 0 && s.dash_ready {
            s.dash_left = DASH_TICKS;
            s.dash_dir = input.move_x;
            s.dash_ready = false;
            Self::dash(s);
            return;
        }
        s.vy = (s.vy + GRAVITY * DT).min(MAX_FALL);
    }

    /// Step 1: a tick of dash.
    fn dash(s: &mut DashState) {
        s.vx = f64::from(s.dash_dir) * DASH_SPEED;
        s.vy = 0.0;
        s.dash_left -= 1;
    }

    /// Step 3: sideways, then up or down.
    fn move_body(level: &Level, s: &mut DashState) {
        let solid = |t: Tile| t == Tile::SOLID;
        let x = s.x + s.vx * DT;
        if overlaps(level, x, s.y, solid) {
            s.x = if s.vx > 0.0 {
                (x + W / 2.0).floor() - W / 2.0
            } else {
                (x - W / 2.0).floor() + 1.0 + W / 2.0
            };
            s.vx = 0.0;
        } else {
            s.x = x;
        }
        let y = s.y + s.vy * DT;
        let was_above = |row: i64| s.y <= row as f64 + OVERLAP;
        let lands = s.vy > 0.0
            && span(y - H, y).any(|r| {
                span(s.x - W / 2.0, s.x + W / 2.0).any(|c| {
                    let t = level.tile_at(c, r);
                    solid(t) || (t == Tile::ONE_WAY && was_above(r))
                })
            });
        s.grounded = false;
        if lands {
            s.y = (y - OVERLAP).floor();
            s.vy = 0.0;
            s.grounded = true;
        } else if s.vy < 0.0 && overlaps(level, s.x, y, solid) {
            s.y = (y - H).floor() + 1.0 + H;
            s.vy = 0.0;
        } else {
            s.y = y;
        }
    }
}

impl BodyModel for DashBody {
    type State = DashState;

    fn name(&self) -> String {
        "dash".into()
    }

    fn dt(&self) -> f64 {
        DT
    }

    fn start(&self, _level: &Level, cell: Cell) -> DashState {
        DashState {
            x: f64::from(cell.col) + 0.5,
            y: f64::from(cell.row) + 1.0,
            vx: 0.0,
            vy: 0.0,
            grounded: true,
            dash_left: 0,
            dash_dir: 0,
            dash_ready: true,
            jump_held: false,
            down_held: false,
            dead: false,
        }
    }

    fn step(&self, level: &Level, s: &mut DashState, input: Input) {
        if s.dead {
            return;
        }
        if s.dash_left > 0 {
            Self::dash(s);
        } else {
            Self::accelerate(s, input);
        }
        Self::move_body(level, s);
        if s.grounded {
            s.dash_ready = true;
        }
        s.jump_held = input.jump;
        s.down_held = input.down;
        if s.y - H > level.height() as f64 || overlaps(level, s.x, s.y, |t| t == Tile::HAZARD) {
            s.dead = true;
        }
    }

    fn feet(&self, s: &DashState) -> [f64; 2] {
        [s.x, s.y]
    }

    fn velocity(&self, s: &DashState) -> [f64; 2] {
        [s.vx, s.vy]
    }

    fn standing_cell(&self, s: &DashState) -> Option<Cell> {
        (s.grounded && !s.dead && s.y.fract() == 0.0)
            .then(|| Cell::new(s.x.floor() as i32, s.y as i32 - 1))
    }

    fn at_rest(&self, s: &DashState) -> bool {
        s.vx == 0.0 && self.standing_cell(s).is_some()
    }

    fn dead(&self, s: &DashState) -> bool {
        s.dead
    }

    /// The dash is the fastest it goes.
    /// The box reaches `W / 2` across and `H` up from the feet, and a
    /// tick's tentative move (read before it is pushed back) at most
    /// `DASH_SPEED * DT` beyond where the body ends: 2 tiles bound it.
    fn bounds(&self) -> Bounds {
        Bounds::with_top_speed(DASH_SPEED).reading_within(2.0)
    }
}
