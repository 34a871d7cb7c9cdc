//! Screen wrap: a level whose opposite edges meet ([`Wrap`]).
//!
//! On a level that wraps horizontally, column `-1` is column `width - 1`
//! and a body leaving the right edge enters at the left (Kid Icarus,
//! Mario Bros.); vertically, the same for rows. `PHYSICS.md`, "Screen
//! wrap", has the rules.

use std::fmt;
use std::str::FromStr;

use super::Cell;

/// Which of a level's edges wrap. The default wraps none, and every rule
/// is then the plain one: borders left, right and above are solid, below
/// is open.
///
/// In rules files and JSON it is written as a string: `"none"`, `"x"`,
/// `"y"` or `"xy"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "String", into = "String"))]
pub struct Wrap {
    /// Leaving the right edge enters the left one, and back.
    pub x: bool,
    /// Leaving the bottom edge enters the top one, and back.
    pub y: bool,
}

impl Wrap {
    /// No edge wraps.
    pub const NONE: Self = Self { x: false, y: false };
    /// The left and right edges meet.
    pub const X: Self = Self { x: true, y: false };
    /// The top and bottom edges meet.
    pub const Y: Self = Self { x: false, y: true };
    /// Both pairs of edges meet (a torus).
    pub const XY: Self = Self { x: true, y: true };

    /// Whether some edge wraps.
    #[must_use]
    #[inline]
    pub const fn any(self) -> bool {
        self.x || self.y
    }

    /// On a level of `width` x `height` (both above 0) with these edges
    /// meeting, the cell on the map that `cell` is: a whole number of
    /// widths (heights) away across each edge that meets, itself across
    /// the others.
    #[must_use]
    #[inline]
    pub fn on_map(self, cell: Cell, width: usize, height: usize) -> Cell {
        let (col, row) = self.fold(cell.col.into(), cell.row.into(), width, height);
        // Folded onto the map (sides below 2^16), or as given: within i32.
        Cell::new(col as i32, row as i32)
    }

    /// [`Wrap::on_map`] for a column and row that may lie anywhere (a
    /// body's tile lookups).
    #[must_use]
    #[inline]
    pub(crate) fn fold(self, col: i64, row: i64, width: usize, height: usize) -> (i64, i64) {
        (
            if self.x {
                col.rem_euclid(width as i64)
            } else {
                col
            },
            if self.y {
                row.rem_euclid(height as i64)
            } else {
                row
            },
        )
    }
}

/// Writes `none`, `x`, `y` or `xy`, the spellings [`Wrap::from_str`] reads.
impl fmt::Display for Wrap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match (self.x, self.y) {
            (false, false) => "none",
            (true, false) => "x",
            (false, true) => "y",
            (true, true) => "xy",
        })
    }
}

/// A wrap spelling that is not one of `none`, `x`, `y`, `xy` (also
/// `horizontal`, `vertical`, `both`; `true`, `on` or `yes` for `x`;
/// `false`, `off` or `no` for `none`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown wrap {0:?} (expected none, x, y or xy)")]
pub struct UnknownWrap(pub String);

impl FromStr for Wrap {
    type Err = UnknownWrap;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" | "false" | "off" | "no" | "" => Ok(Self::NONE),
            "x" | "horizontal" | "true" | "on" | "yes" => Ok(Self::X),
            "y" | "vertical" => Ok(Self::Y),
            "xy" | "yx" | "both" => Ok(Self::XY),
            _ => Err(UnknownWrap(s.chars().take(40).collect())),
        }
    }
}

impl TryFrom<String> for Wrap {
    type Error = UnknownWrap;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<Wrap> for String {
    fn from(w: Wrap) -> Self {
        w.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_written_reads_back() {
        for w in [Wrap::NONE, Wrap::X, Wrap::Y, Wrap::XY] {
            assert_eq!(w.to_string().parse::<Wrap>(), Ok(w));
        }
        assert_eq!("Horizontal".parse::<Wrap>(), Ok(Wrap::X));
        assert!(
            "diagonal"
                .parse::<Wrap>()
                .unwrap_err()
                .to_string()
                .contains("diagonal")
        );
    }
}
