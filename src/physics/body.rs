//! The state of the reference body of `PHYSICS.md` ([`Body`]) and one
//! tick of input ([`Input`]): where the body is, how it moves, and the
//! questions about its position that need no rule. Its tick is
//! [`Body::step`] (`mechanics::tick`).

use super::Physics;
use super::Tiles;
use super::geometry::span;
use crate::level::{Cell, Tile};

/// One tick of input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Input {
    /// Horizontal intent: -1 (left), 0 or +1 (right).
    pub move_x: i8,
    /// Jump held.
    pub jump: bool,
    /// Down held (drops through one-way platforms, climbs down ladders).
    pub down: bool,
    /// Up held (climbs ladders; `PHYSICS.md`, "Ladders").
    pub up: bool,
}

impl Input {
    /// No input.
    pub const IDLE: Input = Input {
        move_x: 0,
        jump: false,
        down: false,
        up: false,
    };

    /// Moving `move_x` (clamped to -1..=1), with the jump and down held or
    /// not, up not held (see [`Input::with_up`]).
    #[must_use]
    pub const fn new(move_x: i8, jump: bool, down: bool) -> Self {
        let move_x = if move_x < 0 {
            -1
        } else if move_x > 0 {
            1
        } else {
            0
        };
        Self {
            move_x,
            jump,
            down,
            up: false,
        }
    }

    /// This input with up held or not.
    #[must_use]
    pub const fn with_up(self, up: bool) -> Self {
        Self { up, ..self }
    }

    /// The `[move, jump, down]` triple of the JSON tape format (up left
    /// out; see [`Input::to_elements`]).
    #[must_use]
    pub fn to_triple(self) -> [i8; 3] {
        [self.move_x, i8::from(self.jump), i8::from(self.down)]
    }

    /// The JSON tape element: `[move, jump, down]`, or `[move, jump, down,
    /// 1]` when up is held.
    #[must_use]
    pub fn to_elements(self) -> Vec<i8> {
        let mut v = self.to_triple().to_vec();
        if self.up {
            v.push(1);
        }
        v
    }

    /// Reads a `[move, jump, down]` triple; `None` unless `move` is in
    /// -1..=1 and `jump`, `down` are 0 or 1.
    #[must_use]
    pub fn from_triple(t: [i64; 3]) -> Option<Self> {
        Self::from_elements(&t)
    }

    /// Reads a tape element: `[move, jump, down]` or `[move, jump, down,
    /// up]`; `None` for another length, `move` outside -1..=1, or a flag
    /// other than 0 or 1.
    #[must_use]
    pub fn from_elements(t: &[i64]) -> Option<Self> {
        let bit = |v: i64| match v {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        };
        if !(3..=4).contains(&t.len()) || !(-1..=1).contains(&t[0]) {
            return None;
        }
        Some(Self {
            move_x: t[0] as i8,
            jump: bit(t[1])?,
            down: bit(t[2])?,
            up: match t.get(3) {
                Some(&u) => bit(u)?,
                None => false,
            },
        })
    }
}

/// The state of the reference body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Body {
    /// Feet x: the middle of the box's bottom edge.
    pub x: f64,
    /// Feet y (grows downward).
    pub y: f64,
    /// Horizontal velocity (tiles/s).
    pub vx: f64,
    /// Vertical velocity (tiles/s, positive downward).
    pub vy: f64,
    /// Standing on a surface, as of the end of the last tick.
    pub grounded: bool,
    /// Air jumps left before landing.
    pub air_jumps_left: u32,
    /// Whether jump was held on the previous tick.
    pub jump_held_last_tick: bool,
    /// Dead bodies ignore input and stop moving.
    pub dead: bool,
    /// On a ladder (`PHYSICS.md`, "Ladders"): no gravity, no running.
    pub climbing: bool,
    /// Ticks of coyote time left: while above 0 a jump press is a ground
    /// jump (`PHYSICS.md`, "Coyote time and jump buffering").
    pub coyote_left: u32,
    /// Ticks a buffered jump press has left: while above 0 the body jumps
    /// on a tick it starts grounded.
    pub buffer_left: u32,
    /// Rising from the launch of a jump pad or spring, which the jump cut
    /// does not shorten (`PHYSICS.md`, "Jump pads and springs").
    pub launched: bool,
    /// The jump boost's tick (`PHYSICS.md`, "Jump boost"): 1 on the tick a
    /// ground jump starts, counting up while jump is held, 0 when no boost
    /// runs.
    pub boost_tick: u32,
}

/// How far from a row's top and bottom feet standing on a slope must be
/// for [`Body::stands_on`] to place them in that row: `2^-20` (about
/// `9.5e-7`), on the position grid.
pub const SLOPE_MARGIN: f64 = 1.0 / (1u64 << 20) as f64;

/// Whether feet at `y` lie inside row `row`, more than [`SLOPE_MARGIN`]
/// from its top and bottom (where only a slope's surface holds them).
fn inside_row(y: f64, row: f64) -> bool {
    y > row + SLOPE_MARGIN && y < row + 1.0 - SLOPE_MARGIN
}

impl Body {
    /// Whether `other` is this state bit for bit (floats compared by their
    /// bits, so `0.0` and `-0.0` differ): then the same inputs in the same
    /// terrain take both through the same states.
    #[must_use]
    pub(crate) fn same_bits(&self, other: &Body) -> bool {
        let bits = |b: &Body| {
            (
                [b.x.to_bits(), b.y.to_bits(), b.vx.to_bits(), b.vy.to_bits()],
                (b.grounded, b.jump_held_last_tick, b.dead, b.climbing),
                b.launched,
                (b.air_jumps_left, b.coyote_left, b.buffer_left, b.boost_tick),
            )
        };
        bits(self) == bits(other)
    }

    /// This state with its position put on the grid of `PHYSICS.md`
    /// ("Space and units"), as a state placed from outside (a game's own
    /// body) must be before it is stepped.
    #[must_use]
    pub fn on_grid(self) -> Self {
        Self {
            x: super::on_grid(self.x),
            y: super::on_grid(self.y),
            ..self
        }
    }

    /// Standing on `cell` as `PHYSICS.md` defines a start: `x = col + 0.5`,
    /// feet on top of row `row + 1`, at rest, grounded, every air jump left.
    #[must_use]
    pub fn standing(cell: Cell, physics: &Physics) -> Self {
        Self {
            x: f64::from(cell.col) + 0.5,
            y: f64::from(cell.row) + 1.0,
            vx: 0.0,
            vy: 0.0,
            grounded: true,
            air_jumps_left: physics.air_jumps,
            jump_held_last_tick: false,
            dead: false,
            climbing: false,
            coyote_left: 0,
            buffer_left: 0,
            launched: false,
            boost_tick: 0,
        }
    }

    /// True when the body stands on `cell`: grounded, `col <= x < col + 1`,
    /// and its feet exactly on top of row `row + 1`, or inside row `row`
    /// (more than [`SLOPE_MARGIN`] from its top and bottom), where only a
    /// slope's surface holds them.
    #[must_use]
    pub fn stands_on(&self, cell: Cell) -> bool {
        !self.dead
            && self.grounded
            && f64::from(cell.col) <= self.x
            && self.x < f64::from(cell.col) + 1.0
            && (self.y == f64::from(cell.row) + 1.0 || inside_row(self.y, f64::from(cell.row)))
    }

    /// The cell the body stands on, if it is grounded with its feet on a
    /// tile top or (on a slope) inside a row, as [`Body::stands_on`] says.
    #[must_use]
    pub fn standing_cell(&self) -> Option<Cell> {
        if self.dead || !self.grounded || !self.y.is_finite() || self.y.abs() > 1e9 {
            return None;
        }
        let row = self.y - 1.0;
        let row = if row.fract() == 0.0 {
            row
        } else {
            let r = self.y.floor();
            if !inside_row(self.y, r) {
                return None;
            }
            r
        };
        Some(Cell::new(self.x.floor() as i32, row as i32))
    }

    /// The cell containing the body's feet point (whether or not grounded).
    #[must_use]
    pub fn feet_cell(&self) -> Cell {
        Cell::new(self.x.floor() as i32, (self.y - 1e-6).floor() as i32)
    }

    /// Whether the box overlaps any tile of kind `kind` (borders count as
    /// solid).
    #[must_use]
    pub fn overlaps_kind<T: Tiles + ?Sized>(&self, level: &T, p: &Physics, kind: Tile) -> bool {
        let (x0, x1) = (self.x - p.half_w(), self.x + p.half_w());
        let (y0, y1) = (self.y - p.box_h(), self.y);
        span(y0, y1).any(|r| span(x0, x1).any(|c| level.tile_at(c, r) == kind))
    }
}
