//! A tile position: [`Cell`].

use std::fmt;

/// A tile position: `col` grows to the right, `row` grows downward.
///
/// Coordinates are signed so that requests for cells off the map can be
/// expressed (and then snapped or rejected) without wrapping.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(from = "[i32; 2]", into = "[i32; 2]"))]
pub struct Cell {
    /// Column, 0 at the left.
    pub col: i32,
    /// Row, 0 at the top.
    pub row: i32,
}

impl Cell {
    /// The cell at column `col`, row `row`.
    #[must_use]
    pub const fn new(col: i32, row: i32) -> Self {
        Self { col, row }
    }
}

impl From<[i32; 2]> for Cell {
    fn from([col, row]: [i32; 2]) -> Self {
        Self { col, row }
    }
}

impl From<Cell> for [i32; 2] {
    fn from(c: Cell) -> Self {
        [c.col, c.row]
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.col, self.row)
    }
}
