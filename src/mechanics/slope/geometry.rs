//! Slope geometry (`PHYSICS.md`, "Slopes"): 45° tiles whose surface is a
//! diagonal the body's feet walk on, and the tiles a body on or over a
//! slope passes through (its *ghosts*).

use crate::level::Tile;
use crate::physics::Tiles;
use crate::physics::geometry::{EPS, ifloor};

/// A slope tile: which way it rises, and its cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Slope {
    rising_right: bool,
    col: i64,
    row: i64,
}

impl Slope {
    /// The slope at `(col, row)` if `tile` is one.
    #[inline]
    pub fn of(tile: Tile, col: i64, row: i64) -> Option<Self> {
        match tile {
            Tile::SLOPE_RIGHT => Some(Self {
                rising_right: true,
                col,
                row,
            }),
            Tile::SLOPE_LEFT => Some(Self {
                rising_right: false,
                col,
                row,
            }),
            _ => None,
        }
    }

    /// The y of the slope's line (its surface, extended past its column)
    /// at `x`: `row + 1 + col - x` rising to the right, `row - col + x`
    /// rising to the left.
    #[inline]
    pub fn line(&self, x: f64) -> f64 {
        if self.rising_right {
            (self.row + 1 + self.col) as f64 - x
        } else {
            (self.row - self.col) as f64 + x
        }
    }

    /// Whether the point `(x, y)` is on or above the line (within EPS).
    #[inline]
    pub fn below(&self, x: f64, y: f64) -> bool {
        y <= self.line(x) + EPS
    }

    /// Whether tile `(c, r)` lies wholly on or below the line: its
    /// top-left corner (rising right) or top-right corner (rising left)
    /// is on or below it.
    #[inline]
    pub fn covers(&self, c: i64, r: i64) -> bool {
        // `c + r >= col + row + 1` and `r - c - 1 >= row - col`.
        if self.rising_right {
            c + r > self.col + self.row
        } else {
            r - c > self.row - self.col
        }
    }
}

/// The slope tiles of the column of `x` whose surface at `x` lies in
/// `[lo, hi]`, with that surface height, highest first (rows are looked up
/// top down, from the row above `lo`'s to `hi`'s).
pub(crate) fn surfaces<T: Tiles + ?Sized>(
    level: &T,
    x: f64,
    lo: f64,
    hi: f64,
) -> impl Iterator<Item = (Slope, f64)> + '_ {
    let col = ifloor(x);
    (ifloor(lo) - 1..=ifloor(hi)).filter_map(move |r| {
        let s = Slope::of(level.tile_at(col, r), col, r)?;
        let y = s.line(x);
        (lo <= y && y <= hi).then_some((s, y))
    })
}

/// Which tiles a body whose feet are at `(x, y)` passes through.
///
/// `PHYSICS.md`: a slope tile is empty for the box when the feet are on or
/// above its line; and when a slope is *under the feet* (the highest slope
/// surface of the feet's column from `y - EPS` to `y + 1`, or the one the
/// feet land on), that slope and every solid, one-way, ladder or slope
/// tile lying wholly on or below its line are empty for the box.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ghosts {
    x: f64,
    y: f64,
    under: Option<Slope>,
}

impl Ghosts {
    /// No ghosts: a level without slopes.
    pub fn none() -> Self {
        Self {
            x: f64::NAN,
            y: f64::NAN,
            under: None,
        }
    }

    /// The ghosts of feet at `(x, y)`.
    pub fn at<T: Tiles + ?Sized>(level: &T, x: f64, y: f64) -> Self {
        Self {
            x,
            y,
            under: surfaces(level, x, y - EPS, y + 1.0).next().map(|(s, _)| s),
        }
    }

    /// The ghosts of feet at `(x, y)` that land on slope `under`.
    pub fn on(x: f64, y: f64, under: Slope) -> Self {
        Self {
            x,
            y,
            under: Some(under),
        }
    }

    /// Whether tile `t` at `(c, r)` is empty for the box.
    #[inline]
    pub fn ghost(&self, t: Tile, c: i64, r: i64) -> bool {
        let hidden = |u: Slope| u.covers(c, r);
        match Slope::of(t, c, r) {
            Some(s) => s.below(self.x, self.y) || self.under.is_some_and(|u| u == s || hidden(u)),
            None => {
                matches!(t, Tile::SOLID | Tile::ONE_WAY | Tile::LADDER)
                    && self.under.is_some_and(hidden)
            }
        }
    }

    /// Whether tile `t` at `(c, r)` stops the box from the side or from
    /// below: a solid tile or a slope, unless it is a ghost.
    #[inline]
    pub fn blocks(&self, t: Tile, c: i64, r: i64) -> bool {
        (t == Tile::SOLID || t.is_slope()) && !self.ghost(t, c, r)
    }

    /// Whether the slope under the feet covers tile `(c, r)`.
    #[inline]
    pub fn covered(&self, c: i64, r: i64) -> bool {
        self.under.is_some_and(|u| u.covers(c, r))
    }

    /// The slope the feet stand on: the one under them, when they are on
    /// its surface (within EPS).
    pub fn standing(&self) -> Option<Slope> {
        self.under
            .filter(|u| (u.line(self.x) - self.y).abs() <= EPS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_covered_tiles() {
        // `/` at (3, 5): bottom-left (3, 6), top-right (4, 5).
        let r = Slope::of(Tile::SLOPE_RIGHT, 3, 5).unwrap();
        assert_eq!(r.line(3.0), 6.0);
        assert_eq!(r.line(4.0), 5.0);
        assert_eq!(r.line(3.25), 5.75);
        // The tile right of its top and the one under it are covered;
        // the one left of its foot and the one above it are not.
        assert!(r.covers(4, 5) && r.covers(3, 6) && r.covers(5, 4));
        assert!(!r.covers(2, 5) && !r.covers(3, 4) && !r.covers(3, 5));
        // `\` at (3, 5): top-left (3, 5), bottom-right (4, 6).
        let l = Slope::of(Tile::SLOPE_LEFT, 3, 5).unwrap();
        assert_eq!(l.line(3.0), 5.0);
        assert_eq!(l.line(4.0), 6.0);
        assert!(l.covers(2, 5) && l.covers(3, 6) && l.covers(1, 4));
        assert!(!l.covers(4, 5) && !l.covers(3, 4) && !l.covers(3, 5));
        assert!(r.below(3.5, 5.5) && r.below(3.5, 5.0) && !r.below(3.5, 5.6));
    }
}
