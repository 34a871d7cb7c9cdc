//! What the body sees of a level ([`Tiles`]): the tile at every cell, and
//! which kinds may appear at all; [`Level`] is one, and [`Frame`] is a level
//! seen from one cell, the frame link generation computes in.

use std::ops::Range;

use crate::level::{Cell, Level, Tile};
use crate::physics::Physics;
use crate::physics::geometry::EPS;

/// What the body sees of a level: the tile at every cell (borders
/// included), the row count below which it dies, and which kinds of tile
/// may appear at all.
///
/// [`Level`] is one; [`Frame`] is a level seen from one cell, the frame
/// link generation computes in.
pub trait Tiles {
    /// The tile at `(col, row)` as the body sees it.
    fn tile_at(&self, col: i64, row: i64) -> Tile;
    /// The number of rows above the open bottom border (step 8 of
    /// `PHYSICS.md`: a body with `y - h` greater than this is dead).
    fn rows(&self) -> f64;
    /// False only when no tile of kind `tile` can appear, so that the
    /// rules that kind brings may be skipped: step 8's hazard lookups, the
    /// ladder, slope, jump pad and spring rules of `PHYSICS.md`. True is
    /// always correct (the extended rules are the plain ones wherever no
    /// such tile is in reach), and slower.
    fn holds(&self, tile: Tile) -> bool;
    /// True when the body may look tiles up in any order, and skip some,
    /// as long as it ends each tick in the state the plain rules give:
    /// [`Body::step`](crate::Body::step) then takes a shortcut for a body
    /// running on flat ground, and one for a body in the air with no tile
    /// near ([`Tiles::is_clear`]). [`Level`] and [`Frame`] say so. The
    /// default, `false`, is always correct: each tile is looked up first
    /// where the plain rules first look it up (views that record their
    /// lookups, as link generation's do, rely on that).
    #[inline]
    fn any_order(&self) -> bool {
        false
    }
    /// True when every tile of columns `cols` and rows `rows` is one the
    /// body passes freely ([`Tile::EMPTY`], [`Tile::GOAL`] or
    /// [`Tile::SPAWN`]): [`Body::step`](crate::Body::step) then moves a
    /// body in the air there without looking its tiles up one by one. A
    /// view that records its lookups counts every tile of the block as
    /// looked up when it answers true. Only asked where
    /// [`Tiles::any_order`] holds. The default, `false`, is always correct.
    #[inline]
    fn is_clear(&self, _cols: Range<i64>, _rows: Range<i64>) -> bool {
        false
    }
    /// Puts feet that crossed an edge that wraps back on the level, at the
    /// end of a tick (`PHYSICS.md`, "Screen wrap"). The default keeps them
    /// where they are, as a view in a frame does: its tile lookups wrap,
    /// and positions a whole number of widths apart behave alike to the
    /// last bit.
    #[inline]
    fn wrap_feet(&self, _x: &mut f64, _y: &mut f64) {}
    /// The moving platforms' tops a body may land on this tick
    /// (`PHYSICS.md`, "Moving platforms"). None by default: a level seen
    /// alone has no platforms, and then every rule is the plain one.
    #[inline]
    fn surfaces(&self) -> &[Surface] {
        &[]
    }
}

/// A moving platform's top as one tick sees it: where the platform is at
/// the end of the tick, and where its top was as the tick started.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Surface {
    /// The platform's left and right edges at the end of the tick.
    pub left: f64,
    /// See `left`.
    pub right: f64,
    /// Its top at the end of the tick.
    pub top: f64,
    /// Its bottom at the end of the tick.
    pub bottom: f64,
    /// Its top as the tick started.
    pub top_before: f64,
}

impl Surface {
    /// Whether a box from `x - hw` to `x + hw` overlaps the platform
    /// horizontally by more than EPS.
    #[inline]
    #[must_use]
    pub fn spans(&self, x: f64, hw: f64) -> bool {
        let hi = if x + hw < self.right {
            x + hw
        } else {
            self.right
        };
        let lo = if x - hw > self.left {
            x - hw
        } else {
            self.left
        };
        hi - lo > EPS
    }

    /// Step 6 with platforms: whether a falling body whose feet moved from
    /// `y_prev` to `y` lands on this top: its box overlaps the platform by
    /// more than EPS both ways, and its feet were at most EPS under the
    /// top as the tick started or as it ends.
    #[inline]
    #[must_use]
    pub fn catches(&self, x: f64, y: f64, y_prev: f64, p: &Physics) -> bool {
        let upper = if self.top_before > self.top {
            self.top_before
        } else {
            self.top
        };
        let hi = if y < self.bottom { y } else { self.bottom };
        let lo = if y - p.box_h() > self.top {
            y - p.box_h()
        } else {
            self.top
        };
        y_prev <= upper + EPS && hi - lo > EPS && self.spans(x, p.half_w())
    }

    /// Step 7 with platforms: whether feet at `(x, y)` stand on this top.
    #[inline]
    #[must_use]
    pub fn holds(&self, x: f64, y: f64, p: &Physics) -> bool {
        (self.top - y).abs() <= EPS && self.spans(x, p.half_w())
    }
}

impl Tiles for Level {
    #[inline]
    fn tile_at(&self, col: i64, row: i64) -> Tile {
        Level::tile_at(self, col, row)
    }
    #[inline]
    fn rows(&self) -> f64 {
        if self.wrap().y {
            f64::INFINITY
        } else {
            self.height() as f64
        }
    }
    #[inline]
    fn wrap_feet(&self, x: &mut f64, y: &mut f64) {
        let wrap = self.wrap();
        // `rem_euclid` is exact on the position grid, and within a width
        // (height) of the map it is step 10's single add or subtract.
        if wrap.x {
            *x = x.rem_euclid(self.width() as f64);
        }
        if wrap.y {
            let h = self.height() as f64;
            let r = y.rem_euclid(h);
            *y = if r == 0.0 { h } else { r };
        }
    }
    #[inline]
    fn holds(&self, tile: Tile) -> bool {
        Level::holds(self, tile)
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

    /// The level cell of a frame cell (across an edge that wraps, the cell
    /// on the map it is).
    #[must_use]
    pub fn to_level(&self, c: Cell) -> Cell {
        self.level
            .wrapped(Cell::new(c.col + self.col as i32, c.row + self.row as i32))
    }

    /// The frame cell of a level cell, by the offset alone (on a level
    /// that wraps, a cell off the map gives the frame cell across the
    /// edge it is off).
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
        if self.level.wrap().y {
            f64::INFINITY
        } else {
            (self.level.height() as i64 - self.row) as f64
        }
    }
    #[inline]
    fn holds(&self, tile: Tile) -> bool {
        self.level.holds(tile)
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
