//! What the box of a body standing on each cell overlaps, for every cell
//! of a level at once.
//!
//! The box's columns depend only on its cell's column, and its rows only
//! on its cell's row. So a pass along the rows (each cell's columns, per
//! row of tiles) and one down the columns (each cell's rows) read exactly
//! the tiles a box test per cell reads, through the same spans, in a
//! fraction of the time: a 4,200 x 1,200 level has five million cells.

use std::ops::Range;

use super::{Fit, decide, fit, overlap_tiles, per_row};
use crate::level::{Cell, Level, Tile};
use crate::mechanics::{Active, NodeType};
use crate::physics::Physics;
use crate::physics::geometry::span;

/// The box tests of a whole level, made in passes over its rows: per
/// cell, the kinds the standing box overlaps (solid, then the tiles acting
/// on overlap the level holds), what is under its feet, whether the box
/// raised a row overlaps a solid tile, and whether a ladder or slope tile
/// is near enough to change the cell's fit.
pub(super) struct Boxes {
    kinds: Kinds,
    /// The tiles acting on overlap the level holds, in order.
    acting: Vec<(Tile, NodeType)>,
    standing: Vec<u8>,
    /// Bit 0: a solid tile under the feet; bit 1: a one-way tile.
    ground: Vec<u8>,
    roofed: Vec<u8>,
    /// Empty on a plain level.
    near_rules: Vec<u8>,
}

impl Boxes {
    /// `None` when the level holds more kinds than a pass tells apart.
    pub(super) fn new(level: &Level, p: &Physics) -> Option<Self> {
        let acting: Vec<(Tile, NodeType)> = overlap_tiles(level).collect();
        let tiles: Vec<Tile> = std::iter::once(Tile::SOLID)
            .chain(acting.iter().map(|&(t, _)| t))
            .collect();
        let under = Kinds::new(&[&[Tile::SOLID], &[Tile::ONE_WAY]])?;
        let groups: Vec<&[Tile]> = tiles.iter().map(std::slice::from_ref).collect();
        let kinds = Kinds::new(&groups)?;
        let solid = Kinds::new(&[&[Tile::SOLID]])?;
        let (w, h) = (level.width(), level.height());
        let (cols, rows) = (box_cols(p, w), box_rows(p, h, 0.0));
        let near_rules = if Active::of(level).plain() {
            Vec::new()
        } else {
            let rules: Vec<Tile> = Active::rule_tiles().collect();
            let near = Kinds::new(&[&rules])?;
            // The box's columns and one more either side, its rows and the
            // two below the feet, and a margin of one more all round.
            let wide: Vec<_> = cols.iter().map(|c| c.start - 2..c.end + 2).collect();
            let deep: Vec<_> = (0..h as i64)
                .zip(&rows)
                .map(|(r, box_rows)| box_rows.start.min(r) - 1..r + 4)
                .collect();
            overlaps(level, &near, &wide, &deep)
        };
        let feet: Vec<_> = (0..h as i64).map(|r| r + 1..r + 2).collect();
        Some(Self {
            standing: overlaps(level, &kinds, &cols, &rows),
            ground: overlaps(level, &under, &cols, &feet),
            acting,
            roofed: overlaps(level, &solid, &cols, &box_rows(p, h, 1.0)),
            near_rules,
            kinds,
        })
    }

    /// Whether the box of a body standing on cell index `i`, raised a row,
    /// overlaps a solid tile.
    pub(super) fn roofed(&self, i: usize) -> bool {
        self.roofed[i] != 0
    }

    /// The fit of cell index `i`: from the passes, or the body's own tests
    /// where a ladder or slope is near.
    pub(super) fn fit(&self, level: &Level, p: &Physics, i: usize, cell: Cell) -> Fit {
        if self.near_rules.get(i).is_some_and(|&n| n != 0) {
            return fit(level, p, cell);
        }
        let (standing, ground) = (self.standing[i], self.ground[i]);
        decide(
            |kind| standing & self.kinds.bit(kind) != 0,
            self.acting.iter().copied(),
            || (ground & 1 != 0, ground & 2 != 0),
        )
    }
}

/// The tile kinds one pass tells apart, a bit each.
struct Kinds {
    /// By tile number: the bits of the kinds it is of.
    bit: [u8; 256],
}

impl Kinds {
    /// Bit `k` for the tiles of `groups[k]`; `None` for more than eight
    /// groups.
    fn new(groups: &[&[Tile]]) -> Option<Self> {
        if groups.len() > 8 {
            return None;
        }
        let mut bit = [0; 256];
        for (k, tiles) in groups.iter().enumerate() {
            for t in *tiles {
                bit[t.index()] |= 1 << k;
            }
        }
        Some(Self { bit })
    }

    /// The bits of `tile`'s kinds (0 when none was asked for).
    #[inline]
    fn bit(&self, tile: Tile) -> u8 {
        self.bit[tile.index()]
    }
}

/// Per column of a level `w` wide, the columns the box of a body standing
/// on it overlaps (`Body::standing`: x = col + 0.5), as
/// [`crate::physics::Body::overlaps_kind`] spans them.
fn box_cols(p: &Physics, w: usize) -> Vec<Range<i64>> {
    let hw = p.half_w();
    (0..w)
        .map(|c| {
            let x = f64::from(c as i32) + 0.5;
            span(x - hw, x + hw)
        })
        .collect()
}

/// Per row of a level `h` tall, the rows the box of a body standing on it
/// (feet at y = row + 1), raised `lift` rows, overlaps.
fn box_rows(p: &Physics, h: usize, lift: f64) -> Vec<Range<i64>> {
    let bh = p.box_h();
    (0..h)
        .map(|r| {
            let y = f64::from(r as i32) + 1.0 - lift;
            span(y - bh, y)
        })
        .collect()
}

/// Per cell, row-major: the bits of the kinds of the tiles in the window
/// of columns `cols[col]` and rows `rows[row]` (off the map included, as
/// [`Level::tile_at`] reads it).
fn overlaps(level: &Level, kinds: &Kinds, cols: &[Range<i64>], rows: &[Range<i64>]) -> Vec<u8> {
    let w = cols.len();
    let top = rows.iter().map(|r| r.start).min().unwrap_or(0);
    let bottom = rows.iter().map(|r| r.end).max().unwrap_or(0).max(top);
    let left = cols.iter().map(|c| c.start).min().unwrap_or(0);
    let right = cols.iter().map(|c| c.end).max().unwrap_or(0).max(left);
    // Per row of tiles from `top`: the kinds in each cell's columns.
    let along = per_row((w, (bottom - top) as usize), 0, |i, out| {
        let r = top + i as i64;
        let bits: Vec<u8> = (left..right)
            .map(|c| kinds.bit(level.tile_at(c, r)))
            .collect();
        for (o, span) in out.iter_mut().zip(cols) {
            *o = span.clone().fold(0, |m, c| m | bits[(c - left) as usize]);
        }
    });
    per_row((w, rows.len()), 0, |r, out| {
        for t in rows[r].clone() {
            let from = (t - top) as usize * w;
            for (o, b) in out.iter_mut().zip(&along[from..from + w]) {
                *o |= b;
            }
        }
    })
}
