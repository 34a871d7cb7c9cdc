//! The reference body of `PHYSICS.md`, one [`Body::step`] per tick.
//!
//! This is the single source of truth for motion: link generation, path
//! validation and the path follower all drive this code, so planned and
//! performed motion cannot drift apart.

use std::ops::Range;

use crate::level::{Cell, Level, Tile};

/// What the body sees of a level: the tile at every cell (borders
/// included) and the row count below which it dies.
///
/// [`Level`] is one; [`Frame`] is a level seen from one cell, the frame
/// link generation computes in.
pub trait Tiles {
    /// The tile at `(col, row)` as the body sees it.
    fn tile_at(&self, col: i64, row: i64) -> Tile;
    /// The number of rows above the open bottom border (step 8 of
    /// `PHYSICS.md`: a body with `y - h` greater than this is dead).
    fn rows(&self) -> f64;
    /// False only when no tile is a [`Tile::Hazard`], so that step 8 of
    /// `PHYSICS.md` may skip its hazard lookups. The default, `true`, is
    /// always correct: the body then looks the hazards up.
    #[inline]
    fn has_hazards(&self) -> bool {
        true
    }
    /// True when some tile may be a [`Tile::Ladder`]: the body then
    /// applies the ladder rules of `PHYSICS.md`. The default, `false`,
    /// suits views of levels without ladders; a view that can show a
    /// ladder must say so, or the body treats its ladders as empty.
    #[inline]
    fn has_ladders(&self) -> bool {
        false
    }
    /// True when some tile may be a slope ([`Tile::SlopeRight`],
    /// [`Tile::SlopeLeft`]): the body then applies the slope rules of
    /// `PHYSICS.md`. The default, `false`, suits views of levels without
    /// slopes; a view that can show one must say so.
    #[inline]
    fn has_slopes(&self) -> bool {
        false
    }
    /// True when the body may look tiles up in any order, and skip some,
    /// as long as it ends each tick in the state the plain rules give:
    /// [`Body::step`] then takes a shortcut for a body running on flat
    /// ground, and one for a body in the air with no tile near
    /// ([`Tiles::is_clear`]). [`Level`] and [`Frame`] say so. The default, `false`, is
    /// always correct: each tile is looked up first where the plain rules
    /// first look it up (views that record their lookups, as link
    /// generation's do, rely on that).
    #[inline]
    fn any_order(&self) -> bool {
        false
    }
    /// True when every tile of columns `cols` and rows `rows` is one the
    /// body passes freely ([`Tile::Empty`], [`Tile::Goal`] or
    /// [`Tile::Spawn`]): [`Body::step`] then moves a body in the air there
    /// without looking its tiles up one by one. A view that records its
    /// lookups counts every tile of the block as looked up when it answers
    /// true. Only asked where [`Tiles::any_order`] holds. The default,
    /// `false`, is always correct.
    #[inline]
    fn is_clear(&self, _cols: Range<i64>, _rows: Range<i64>) -> bool {
        false
    }
}

impl Tiles for Level {
    #[inline]
    fn tile_at(&self, col: i64, row: i64) -> Tile {
        Level::tile_at(self, col, row)
    }
    #[inline]
    fn rows(&self) -> f64 {
        self.height() as f64
    }
    #[inline]
    fn has_hazards(&self) -> bool {
        Level::has_hazards(self)
    }
    #[inline]
    fn has_ladders(&self) -> bool {
        Level::has_ladders(self)
    }
    #[inline]
    fn has_slopes(&self) -> bool {
        Level::has_slopes(self)
    }
    #[inline]
    fn any_order(&self) -> bool {
        true
    }
    #[inline]
    fn is_clear(&self, cols: Range<i64>, rows: Range<i64>) -> bool {
        Level::is_clear(self, cols, rows)
    }
}

/// A level seen from one cell: tile `(c, r)` of the frame is tile
/// `(col + c, row + r)` of the level, so a body standing on the frame's
/// `(0, 0)` stands on the level's `(col, row)`.
///
/// Links are computed in the frame of the cell they start from, which makes
/// them translation-invariant to the last bit: the same terrain around two
/// cells gives the same tapes.
#[derive(Debug, Clone, Copy)]
pub struct Frame<'a> {
    level: &'a Level,
    col: i64,
    row: i64,
    /// Where a build records the cells this frame is asked about.
    reads: Option<&'a crate::physics::reads::Reads>,
}

impl<'a> Frame<'a> {
    /// `level` seen from `origin`.
    #[must_use]
    pub fn new(level: &'a Level, origin: Cell) -> Self {
        Self {
            level,
            col: i64::from(origin.col),
            row: i64::from(origin.row),
            reads: None,
        }
    }

    /// As [`Frame::new`], noting every cell looked up in `reads`.
    pub(crate) fn recording(
        level: &'a Level,
        origin: Cell,
        reads: Option<&'a crate::physics::reads::Reads>,
    ) -> Self {
        Self {
            reads,
            ..Self::new(level, origin)
        }
    }

    /// Notes a lookup of level cell `c` made on this frame's behalf (a
    /// standability test) where a build records reads.
    #[inline]
    pub(crate) fn note(&self, c: Cell) {
        if let Some(r) = self.reads {
            r.note(i64::from(c.col), i64::from(c.row));
        }
    }

    /// The level cell of a frame cell.
    #[must_use]
    pub fn to_level(&self, c: Cell) -> Cell {
        Cell::new(c.col + self.col as i32, c.row + self.row as i32)
    }

    /// The frame cell of a level cell.
    #[must_use]
    pub fn to_frame(&self, c: Cell) -> Cell {
        Cell::new(c.col - self.col as i32, c.row - self.row as i32)
    }

    /// The level.
    #[must_use]
    pub fn level(&self) -> &'a Level {
        self.level
    }
}

impl Tiles for Frame<'_> {
    #[inline]
    fn tile_at(&self, col: i64, row: i64) -> Tile {
        if let Some(r) = self.reads {
            r.note(col + self.col, row + self.row);
        }
        self.level.tile_at(col + self.col, row + self.row)
    }
    #[inline]
    fn rows(&self) -> f64 {
        (self.level.height() as i64 - self.row) as f64
    }
    #[inline]
    fn has_hazards(&self) -> bool {
        self.level.has_hazards()
    }
    #[inline]
    fn has_ladders(&self) -> bool {
        self.level.has_ladders()
    }
    #[inline]
    fn has_slopes(&self) -> bool {
        self.level.has_slopes()
    }
    #[inline]
    fn any_order(&self) -> bool {
        true
    }
    #[inline]
    fn is_clear(&self, cols: Range<i64>, rows: Range<i64>) -> bool {
        let cols = cols.start + self.col..cols.end + self.col;
        let rows = rows.start + self.row..rows.end + self.row;
        if !self.level.is_clear(cols.clone(), rows.clone()) {
            return false;
        }
        if let Some(r) = self.reads {
            r.note_block(cols, rows);
        }
        true
    }
}

use super::Physics;
use super::slope::Slope;

/// Overlap tolerance: box and tile overlap when both axis overlaps exceed it.
pub const EPS: f64 = 1e-9;

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
}

/// `floor` as an integer, without a libm call (exact for |x| < 2^62;
/// larger values saturate, which no level can reach).
#[inline]
pub(crate) fn ifloor(x: f64) -> i64 {
    let i = x as i64;
    if (i as f64) > x { i - 1 } else { i }
}

/// The integer nearest `x` (ties either way; only used within EPS of one).
#[inline]
pub(super) fn inearest(x: f64) -> i64 {
    ifloor(x + 0.5)
}

/// The columns (or rows) of tiles a `[lo, hi]` span overlaps by more than EPS.
///
/// Interior tiles overlap by a whole tile, so only the two end tiles need
/// the EPS test; the range is exactly the tiles `c` with
/// `min(hi, c + 1) - max(lo, c) > EPS`.
#[inline]
pub(super) fn span(lo: f64, hi: f64) -> Range<i64> {
    let mut first = ifloor(lo);
    let mut last = ifloor(hi);
    // The overlap of each end tile `[t, t + 1]`, without the operand its
    // floor makes redundant: `max(lo, t) = lo` for `t = floor(lo)`, and
    // `min(hi, t + 1) = hi` for `t = floor(hi)` (finite `lo <= hi`).
    // Plain comparisons rather than `min` and `max`, which add NaN handling:
    // they pick the same value here, as `t` is never NaN (a NaN `hi` or `lo`
    // loses either way), and a zero's sign is moot to the EPS test.
    let t = first as f64 + 1.0;
    if (if hi < t { hi } else { t }) - lo <= EPS {
        first += 1;
    }
    let t = last as f64;
    if hi - (if lo > t { lo } else { t }) <= EPS {
        last -= 1;
    }
    // Half-open: loops over a `Range` compile tighter than `RangeInclusive`.
    first..last + 1
}

/// Whether a tile of column `edge`'s nearest integer plus `shift` that
/// `blocks` touches a box side at `edge` (within EPS) on one of `rows` (the
/// box's row span): the wall tests of step 7, for a row span computed once.
#[inline]
pub(super) fn wall_at<T: Tiles + ?Sized>(
    level: &T,
    edge: f64,
    shift: i64,
    rows: Range<i64>,
    blocks: impl Fn(Tile, i64, i64) -> bool,
) -> bool {
    let c = inearest(edge);
    if (c as f64 - edge).abs() > EPS {
        return false;
    }
    let col = c + shift;
    rows.into_iter()
        .any(|r| blocks(level.tile_at(col, r), col, r))
}

/// [`wall_at`] for solid tiles, as the plain rules have it.
#[inline]
fn solid(t: Tile, _: i64, _: i64) -> bool {
    t.is_solid()
}

/// Whether row `row` holds ground under columns `cols`, as step 7 asks: a
/// solid tile, or a one-way one unless `down` is held.
#[inline]
fn ground_at<T: Tiles + ?Sized>(level: &T, row: i64, cols: Range<i64>, down: bool) -> bool {
    cols.into_iter().any(|c| match level.tile_at(c, row) {
        Tile::Solid => true,
        Tile::OneWay => !down,
        _ => false,
    })
}

/// How far from a row's top and bottom feet standing on a slope must be
/// for [`Body::stands_on`] to place them in that row.
pub const SLOPE_MARGIN: f64 = 1e-6;

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
                (b.air_jumps_left, b.coyote_left, b.buffer_left),
            )
        };
        bits(self) == bits(other)
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
        }
    }

    /// The start state of a link from `cell` of `level`: [`Body::standing`],
    /// except on a slope tile (`PHYSICS.md`, "Slopes"), where the feet are
    /// on its surface at the column's middle (`y = row + 0.5`).
    #[must_use]
    pub fn start<T: Tiles + ?Sized>(level: &T, cell: Cell, physics: &Physics) -> Self {
        let mut body = Self::standing(cell, physics);
        if level.has_slopes()
            && let Some(s) = Slope::of(
                level.tile_at(i64::from(cell.col), i64::from(cell.row)),
                i64::from(cell.col),
                i64::from(cell.row),
            )
        {
            body.y = s.line(body.x);
        }
        body
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
        let (x0, x1) = (self.x - p.w / 2.0, self.x + p.w / 2.0);
        let (y0, y1) = (self.y - p.h, self.y);
        span(y0, y1).any(|r| span(x0, x1).any(|c| level.tile_at(c, r) == kind))
    }

    /// Whether the box overlaps a tile that stops it: a solid tile (or
    /// border), or on a level with slopes a slope that is not a ghost of
    /// the feet (`PHYSICS.md`, "Slopes").
    #[must_use]
    pub fn blocked<T: Tiles + ?Sized>(&self, level: &T, p: &Physics) -> bool {
        super::extended::blocked(level, p, self.x, self.y)
    }

    /// What holds the feet up where they are, as step 7 of `PHYSICS.md`
    /// tests it with `down` not held: `(solid, one_way)`, whether a solid
    /// tile's or slope's top or a slope's surface does, and whether a
    /// one-way tile or a ladder top does.
    #[must_use]
    pub fn support<T: Tiles + ?Sized>(&self, level: &T, p: &Physics) -> (bool, bool) {
        super::extended::support(level, p, self.x, self.y)
    }

    /// A solid tile or border touches the box's left side (within EPS) and
    /// overlaps it vertically.
    #[must_use]
    pub fn touches_wall_left<T: Tiles + ?Sized>(&self, level: &T, p: &Physics) -> bool {
        self.touches_wall(level, p, -1)
    }

    /// A solid tile or border touches the box's right side (within EPS) and
    /// overlaps it vertically.
    #[must_use]
    pub fn touches_wall_right<T: Tiles + ?Sized>(&self, level: &T, p: &Physics) -> bool {
        self.touches_wall(level, p, 1)
    }

    /// A wall on side `side` (-1 left, +1 right), as step 7 has it: on a
    /// level with slopes a slope tile is a wall, and a ghost (see
    /// `PHYSICS.md`, "Slopes") is not.
    fn touches_wall<T: Tiles + ?Sized>(&self, level: &T, p: &Physics, side: i64) -> bool {
        let edge = self.x + side as f64 * p.w / 2.0;
        let shift = if side < 0 { -1 } else { 0 };
        let rows = span(self.y - p.h, self.y);
        if level.has_slopes() {
            let g = super::slope::Ghosts::at(level, self.x, self.y);
            wall_at(level, edge, shift, rows, |t, c, r| g.blocks(t, c, r))
        } else {
            wall_at(level, edge, shift, rows, solid)
        }
    }

    /// The tick of a body that starts and ends it standing on the same
    /// ground, without a wall in its way: about half of all ticks, when a
    /// path is performed. Computes what [`Body::step`] would, with fewer
    /// lookups and no row span of the moved box; returns false, changing
    /// nothing, for any other tick.
    ///
    /// Why it is the same tick: standing with `vy == 0` on the top of row
    /// `row` (`y == row`), a tick without a jump press leaves `vy` at
    /// `gravity * dt` after step 4 (nothing else in steps 1 to 4 applies
    /// on the ground). Move y lowers the box by `vy * dt`; the shortcut
    /// goes on only when the moved box overlaps row `row` and, above it,
    /// only rows it started on (its top moved down, and the box is taller
    /// than EPS plus rounding, so its first row cannot move up). Those
    /// hold no solid tile (move x found none there), and their one-way
    /// tiles lie above `y_prev + EPS`, so the only landing row is `row`:
    /// the body lands back on it when it holds a solid tile under the box,
    /// or a one-way one without `down`, which is also step 7's test. So it
    /// ends grounded where it started the tick, and step 8 tests the start
    /// rows.
    #[inline]
    fn run_on_ground<T: Tiles + ?Sized>(&mut self, level: &T, p: &Physics, input: Input) -> bool {
        let pressed = input.jump && !self.jump_held_last_tick;
        if !self.grounded || self.vy != 0.0 || pressed || self.buffer_left > 0 {
            return false;
        }
        if level.has_ladders() || level.has_slopes() {
            return false;
        }
        let row = ifloor(self.y);
        if row as f64 != self.y {
            return false;
        }
        let dt = p.dt;
        // 3. Run and 4. Fall, as `step` computes them.
        let target = f64::from(input.move_x) * p.run_speed;
        let a = p.ground_accel;
        let vx = self.vx + (target - self.vx).clamp(-a * dt, a * dt);
        let vy = (self.vy + p.gravity * dt).min(p.max_fall_speed);
        // 5. Move x, with no solid tile to stop it.
        let x = self.x + vx * dt;
        let y = self.y + vy * dt;
        // The moved box overlaps `row` by more than EPS with its bottom
        // still in that row and its top above it: its row span ends with
        // `row`, and (a box taller than the floor's rounding) starts no
        // higher than the start rows.
        let on_row = y - self.y > EPS && y < self.y + 1.0 && y - p.h < self.y;
        if !(vy > 0.0 && on_row && p.h > 1e-6) {
            return false;
        }
        let rows = span(self.y - p.h, self.y);
        let cols = span(x - p.w / 2.0, x + p.w / 2.0);
        // Move x meets no solid tile; step 8 needs the start rows' hazards.
        let mut hazard = false;
        for r in rows.clone() {
            for c in cols.clone() {
                match level.tile_at(c, r) {
                    Tile::Solid => return false,
                    Tile::Hazard => hazard = true,
                    _ => {}
                }
            }
        }
        // 6. and 7.: lands back on `row`, grounded.
        if !ground_at(level, row, cols.clone(), input.down) {
            return false;
        }
        self.x = x;
        self.vx = vx;
        self.vy = 0.0;
        self.air_jumps_left = p.air_jumps;
        self.coyote_left = 0;
        // 8. Death, on the start rows.
        if self.y - p.h > level.rows() {
            self.dead = true;
        } else if level.has_hazards() {
            self.dead = hazard;
        }
        self.jump_held_last_tick = input.jump;
        true
    }

    /// Advances one tick, following `PHYSICS.md` step by step.
    ///
    /// Each tile span is computed once and reused while the box keeps that
    /// side (`span` is a pure function of the same `f64` values, so the
    /// tiles looked up, and their order, are those of the plain rules).
    /// Where the view allows ([`Tiles::any_order`]), a tick running on
    /// flat ground and a tick in the air with no tile near take shortcuts
    /// that end it in the same state.
    /// Levels with ladders or slopes ([`Tiles::has_ladders`],
    /// [`Tiles::has_slopes`]) take the extended rules, which are the plain
    /// ones wherever no ladder or slope is in reach.
    pub fn step<T: Tiles + ?Sized>(&mut self, level: &T, p: &Physics, input: Input) {
        if self.dead || (level.any_order() && self.run_on_ground(level, p, input)) {
            return;
        }
        let pressed = input.jump && !self.jump_held_last_tick;
        let was_grounded = self.grounded;
        // 0. Ladders.
        let mut off_ladder = false;
        if level.has_ladders() {
            match super::ladder::tick(self, level, p, input, pressed) {
                super::ladder::Climb::Done => {
                    self.end_tick(p, input, was_grounded, Jumped::default());
                    return;
                }
                super::ladder::Climb::JumpedOff => off_ladder = true,
                super::ladder::Climb::No => {}
            }
        }
        if level.has_ladders() || level.has_slopes() {
            super::extended::step(self, level, p, input, pressed, off_ladder);
            return;
        }
        let dt = p.dt;
        // The rows of the box as the tick starts: y changes first in step 6.
        let rows = span(self.y - p.h, self.y);
        let (wall_left, wall_right) = if p.wall_jump.is_some() && !self.grounded {
            (
                wall_at(level, self.x - p.w / 2.0, -1, rows.clone(), solid),
                wall_at(level, self.x + p.w / 2.0, 0, rows.clone(), solid),
            )
        } else {
            (false, false)
        };

        // 1. to 4.
        let jumped = self.impulses(p, input, pressed, false, (wall_left, wall_right));
        if !self.grounded && level.any_order() && self.fly_clear(level, p, input, jumped) {
            return;
        }

        // 5. Move x.
        let cols = self.move_x(level, p, rows.clone(), solid);

        // 6. Move y.
        let y_prev = self.y;
        self.y += self.vy * dt;
        let moved_rows = span(self.y - p.h, self.y);
        // The rows of `moved_rows` holding a hazard in `cols` (bit `i` for
        // row `moved_rows.start + i`), when move y looked at every tile of
        // the box: step 8 then needs no lookup of those rows again.
        let mut hazards = 0u64;
        let mut scanned = false;
        let mut snapped = false;
        // The row the body landed on in move y, if it did.
        let mut landed = None;
        if self.vy > 0.0 {
            scanned = true;
            // The highest row landed on.
            let mut top = i64::MAX;
            for (i, r) in moved_rows.clone().enumerate() {
                for c in cols.clone() {
                    let lands = match level.tile_at(c, r) {
                        Tile::Solid => true,
                        Tile::OneWay => !input.down && y_prev <= r as f64 + EPS,
                        Tile::Hazard => {
                            hazards |= 1u64.wrapping_shl(i as u32);
                            false
                        }
                        _ => false,
                    };
                    if lands {
                        top = top.min(r);
                    }
                }
            }
            if top != i64::MAX {
                landed = Some(top);
                self.y = top as f64;
                self.vy = 0.0;
                snapped = true;
            }
        } else if self.vy < 0.0 {
            scanned = true;
            // The last solid row: rows are scanned top down.
            let mut bottom = i64::MIN;
            for (i, r) in moved_rows.clone().enumerate() {
                for c in cols.clone() {
                    match level.tile_at(c, r) {
                        Tile::Solid => bottom = r,
                        Tile::Hazard => hazards |= 1u64.wrapping_shl(i as u32),
                        _ => {}
                    }
                }
            }
            if bottom != i64::MIN {
                self.y = (bottom as f64 + 1.0) + p.h;
                self.vy = 0.0;
                snapped = true;
            }
        }

        // 7. Contacts.
        self.grounded = false;
        if self.vy == 0.0 {
            // Landed, the feet are exactly on the row's top.
            let row = landed.unwrap_or_else(|| inearest(self.y));
            if landed.is_some() || (row as f64 - self.y).abs() <= EPS {
                self.grounded = ground_at(level, row, cols.clone(), input.down);
            }
        }
        if self.grounded {
            self.air_jumps_left = p.air_jumps;
        }

        // 8. Death.
        if self.y - p.h > level.rows() {
            self.dead = true;
        } else if !level.has_hazards() {
            // Nothing to overlap.
        } else if scanned && !snapped {
            // The box is the one move y scanned.
            self.dead = hazards != 0;
        } else {
            // A body snapped back to where it started the tick (standing)
            // has the rows it started with.
            let rows = if self.y == y_prev {
                rows
            } else {
                span(self.y - p.h, self.y)
            };
            // Rows move y scanned answer from `hazards` (whose bits cannot
            // alias: at most 64 rows); the others are looked up, in order.
            let known = moved_rows.end.wrapping_sub(moved_rows.start) as u64;
            let known = if scanned && known <= 64 { known } else { 0 };
            self.dead = rows.into_iter().any(|r| {
                let i = r.wrapping_sub(moved_rows.start) as u64;
                if i < known {
                    hazards >> i & 1 != 0
                } else {
                    cols.clone().any(|c| level.tile_at(c, r) == Tile::Hazard)
                }
            });
        }

        self.end_tick(p, input, was_grounded, jumped);
    }

    /// Steps 5 to 8 and the tick's bookkeeping for a body in the air with
    /// nothing near (after steps 1 to 4): when every tile they could look
    /// up passes the body freely ([`Tiles::is_clear`]), they reduce to the
    /// moves, and this takes them; returns false, changing nothing,
    /// otherwise.
    ///
    /// The block asked about spans the columns and rows the box overlaps
    /// as the tick starts and after it moves (tile `c` counted when the
    /// box reaches past `c`'s floor: a superset of the EPS overlaps the
    /// rules test), and the row below when the body ends the tick with
    /// `vy = 0` (step 7 then looks for ground in the row its feet are
    /// nearest). With no tile in the block, move x and move y meet
    /// nothing, step 7 finds no ground and step 8 no hazard: only the
    /// level's bottom can still kill.
    #[inline]
    fn fly_clear<T: Tiles + ?Sized>(
        &mut self,
        level: &T,
        p: &Physics,
        input: Input,
        jumped: Jumped,
    ) -> bool {
        let half = p.w / 2.0;
        let dt = p.dt;
        let x = self.x + self.vx * dt;
        let y = self.y + self.vy * dt;
        let (lo_x, hi_x) = if x < self.x { (x, self.x) } else { (self.x, x) };
        let (lo_y, hi_y) = if y < self.y { (y, self.y) } else { (self.y, y) };
        let below = if self.vy == 0.0 { 2 } else { 1 };
        let cols = ifloor(lo_x - half)..ifloor(hi_x + half) + 1;
        let rows = ifloor(lo_y - p.h)..ifloor(hi_y) + below;
        if !level.is_clear(cols, rows) {
            return false;
        }
        self.x = x;
        self.y = y;
        if self.y - p.h > level.rows() {
            self.dead = true;
        }
        // Not grounded before the tick, nor after it.
        self.end_tick(p, input, false, jumped);
        true
    }

    /// Step 5 of `PHYSICS.md` (move x) against the tiles `blocks` says stop
    /// the box, on `rows` (the box's rows as the tick starts); returns the
    /// columns of the moved box.
    #[inline]
    pub(super) fn move_x<T: Tiles + ?Sized>(
        &mut self,
        level: &T,
        p: &Physics,
        rows: Range<i64>,
        blocks: impl Fn(Tile, i64, i64) -> bool,
    ) -> Range<i64> {
        self.x += self.vx * p.dt;
        let mut cols = span(self.x - p.w / 2.0, self.x + p.w / 2.0);
        // The leftmost and rightmost blocking columns, as integers (exact
        // as floats: columns are far below 2^53).
        let mut min_left = i64::MAX;
        let mut max_right = i64::MIN;
        for r in rows {
            for c in cols.clone() {
                if blocks(level.tile_at(c, r), c, r) {
                    min_left = min_left.min(c);
                    max_right = max_right.max(c);
                }
            }
        }
        if min_left != i64::MAX {
            if self.vx > 0.0 {
                self.x = min_left as f64 - p.w / 2.0;
                cols = span(self.x - p.w / 2.0, self.x + p.w / 2.0);
            } else if self.vx < 0.0 {
                self.x = (max_right as f64 + 1.0) + p.w / 2.0;
                cols = span(self.x - p.w / 2.0, self.x + p.w / 2.0);
            }
            self.vx = 0.0;
        }
        cols
    }

    /// Steps 1 to 4 of `PHYSICS.md` (jump start, jump cut, run, fall),
    /// with the wall contacts `(left, right)` of the box as the tick
    /// starts. `off_ladder`: the body jumped off a ladder this tick, which
    /// was its jump start.
    pub(super) fn impulses(
        &mut self,
        p: &Physics,
        input: Input,
        pressed: bool,
        off_ladder: bool,
        (wall_left, wall_right): (bool, bool),
    ) -> Jumped {
        let dt = p.dt;
        let mut jumped = Jumped::default();
        // 1. Jump start.
        if off_ladder {
            jumped.ground = true;
        } else if pressed {
            if self.grounded || self.coyote_left > 0 {
                self.vy = -p.jump_speed;
                self.coyote_left = 0;
                jumped.ground = true;
            } else if let (Some(wj), true) = (&p.wall_jump, wall_left || wall_right) {
                self.vy = -wj.speed_y;
                self.vx = if wall_left { wj.speed_x } else { -wj.speed_x };
            } else if self.air_jumps_left > 0 {
                self.vy = -p.jump_speed;
                self.air_jumps_left -= 1;
            } else {
                jumped.buffered = p.jump_buffer_ticks > 0;
            }
        } else if self.buffer_left > 0 && self.grounded {
            self.vy = -p.jump_speed;
            self.buffer_left = 0;
            jumped.ground = true;
        }

        // 2. Jump cut.
        if !input.jump && self.vy < -p.jump_cut_speed {
            self.vy = -p.jump_cut_speed;
        }

        // 3. Run.
        let target = f64::from(input.move_x) * p.run_speed;
        let a = if self.grounded {
            p.ground_accel
        } else {
            p.air_accel
        };
        self.vx += (target - self.vx).clamp(-a * dt, a * dt);

        // 4. Fall.
        self.vy += p.gravity * dt;
        if let Some(wj) = &p.wall_jump {
            let toward_wall = (input.move_x < 0 && wall_left) || (input.move_x > 0 && wall_right);
            if !self.grounded && self.vy > 0.0 && toward_wall {
                self.vy = self.vy.min(wj.slide_speed);
            }
        }
        self.vy = self.vy.min(p.max_fall_speed);
        jumped
    }

    /// The bookkeeping that ends every tick: coyote time and the jump
    /// buffer (`PHYSICS.md`, "Coyote time and jump buffering"), then
    /// `jump_held_last_tick`.
    pub(super) fn end_tick(&mut self, p: &Physics, input: Input, was_grounded: bool, j: Jumped) {
        self.coyote_left = if self.grounded || self.climbing {
            0
        } else if was_grounded && !j.ground {
            p.coyote_ticks
        } else {
            self.coyote_left.saturating_sub(1)
        };
        self.buffer_left = if j.buffered {
            p.jump_buffer_ticks
        } else {
            self.buffer_left.saturating_sub(1)
        };
        self.jump_held_last_tick = input.jump;
    }

    /// Whether `input` starts a jump in this state (step 1 of
    /// `PHYSICS.md`, with its extensions): a press while grounded, in
    /// coyote time, on a ladder, against a wall (wall jumps on) or with an
    /// air jump left, or a buffered press on a tick the body starts
    /// grounded.
    #[must_use]
    pub fn jump_starts<T: Tiles + ?Sized>(&self, level: &T, p: &Physics, input: Input) -> bool {
        let pressed = input.jump && !self.jump_held_last_tick;
        if !pressed {
            return self.buffer_left > 0 && self.grounded;
        }
        self.grounded
            || self.coyote_left > 0
            || (self.climbing && level.has_ladders())
            || (p.wall_jump.is_some()
                && (self.touches_wall_left(level, p) || self.touches_wall_right(level, p)))
            || self.air_jumps_left > 0
    }
}

/// How step 1 started a jump, for the bookkeeping of [`Body::end_tick`].
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Jumped {
    /// A ground jump (on the ground, in coyote time, buffered, or off a
    /// ladder): no coyote time follows it.
    pub ground: bool,
    /// A press that started nothing, kept in the jump buffer.
    pub buffered: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ground shortcut takes most ticks of running, braking and
    /// standing on the ground, declines the others (a wall ahead, a jump
    /// press, the edge of a pit, a one-way floor with `down` held), and
    /// every tick ends as the full step ends it.
    #[test]
    fn the_ground_shortcut_takes_ground_ticks_and_agrees_with_the_full_step() {
        let level: Level = "\
            ..........\n\
            ...^......\n\
            .......#..\n\
            ###==##.##\n\
            ##########\n"
            .parse()
            .unwrap();
        let p = Physics::default();
        let (mut taken, mut declined) = (0, 0);
        let moves = [1i8, 1, 1, 0, -1, -1, -1, -1, 0, 1];
        for start in [1, 4, 5, 8] {
            for (k, &mv) in moves.iter().enumerate() {
                let mut body = Body::standing(Cell::new(start, 2), &p);
                for t in 0..90 {
                    if body.dead {
                        break;
                    }
                    let input = Input::new(mv, t % 40 == 30 + k, t > 60 && k % 3 == 0);
                    let mut full = body;
                    full.step(&Noting::new(&level, false), &p, input);
                    let mut short = body;
                    if short.run_on_ground(&level, &p, input) {
                        taken += 1;
                        assert_eq!(
                            short, full,
                            "start {start}, move {mv}, tick {t}, from {body:?}"
                        );
                    } else {
                        declined += 1;
                        assert_eq!(short, body, "a declined tick changes nothing");
                    }
                    body.step(&level, &p, input);
                    assert_eq!(body, full, "start {start}, move {mv}, tick {t}");
                }
            }
        }
        assert!(
            taken > 500 && declined > 500,
            "{taken} taken, {declined} declined"
        );
    }

    /// A level that notes every cell it is asked about (every cell of a
    /// block it answers is clear, when `shortcuts`), and counts the clear
    /// blocks. Without `shortcuts`, the plain rules' view: every tile is
    /// looked up, in their order.
    struct Noting<'a> {
        level: &'a Level,
        shortcuts: bool,
        cells: std::cell::RefCell<std::collections::HashSet<(i64, i64)>>,
        clear: std::cell::Cell<usize>,
    }

    impl<'a> Noting<'a> {
        fn new(level: &'a Level, shortcuts: bool) -> Self {
            Self {
                level,
                shortcuts,
                cells: Default::default(),
                clear: Default::default(),
            }
        }
    }

    impl Tiles for Noting<'_> {
        fn tile_at(&self, col: i64, row: i64) -> Tile {
            self.cells.borrow_mut().insert((col, row));
            self.level.tile_at(col, row)
        }
        fn rows(&self) -> f64 {
            self.level.height() as f64
        }
        fn has_hazards(&self) -> bool {
            self.level.has_hazards()
        }
        fn any_order(&self) -> bool {
            self.shortcuts
        }
        fn is_clear(&self, cols: Range<i64>, rows: Range<i64>) -> bool {
            if !self.level.is_clear(cols.clone(), rows.clone()) {
                return false;
            }
            for r in rows {
                for c in cols.clone() {
                    self.cells.borrow_mut().insert((c, r));
                }
            }
            self.clear.set(self.clear.get() + 1);
            true
        }
    }

    /// The air shortcut takes the ticks of flights with no tile near,
    /// declines those near a wall, a ceiling, the ground, a one-way
    /// platform or a hazard, and every tick ends as the full step ends it.
    /// On the ticks it takes, every cell the full step looks up counts as
    /// looked up (so the cells a link reads still cover those its
    /// performance depends on). With wall jumps off and on.
    #[test]
    fn the_air_shortcut_takes_clear_ticks_and_agrees_with_the_full_step() {
        let level: Level = "\
            ....................\n\
            ....................\n\
            ......##............\n\
            ....................\n\
            ...........^........\n\
            ...............==...\n\
            ...#................\n\
            ##########.#########\n\
            ####################\n"
            .parse()
            .unwrap();
        for p in [Physics::default(), Physics::agile()] {
            let (mut taken, mut declined) = (0, 0);
            for start in [1, 5, 9, 12, 17] {
                for mv in [-1i8, 0, 1] {
                    for hold in [3, 8, 20] {
                        let mut body = Body::standing(Cell::new(start, 6), &p);
                        for t in 0..120 {
                            if body.dead {
                                break;
                            }
                            let jump = t % 50 < hold;
                            let input = Input::new(if t > 40 { -mv } else { mv }, jump, false);
                            let plain = Noting::new(&level, false);
                            let mut full = body;
                            full.step(&plain, &p, input);
                            let fast = Noting::new(&level, true);
                            body.step(&fast, &p, input);
                            let at = format!("{p:?}, start {start}, move {mv}, tick {t}");
                            assert_eq!(body, full, "{at}");
                            if fast.clear.get() > 0 {
                                let missing: Vec<_> = plain
                                    .cells
                                    .borrow()
                                    .difference(&fast.cells.borrow())
                                    .copied()
                                    .collect();
                                assert!(missing.is_empty(), "{at}: {missing:?} not noted");
                                taken += 1;
                            } else if !full.grounded {
                                declined += 1;
                            }
                        }
                    }
                }
            }
            assert!(
                taken > 1000 && declined > 300,
                "{taken} taken, {declined} declined"
            );
        }
    }
}
