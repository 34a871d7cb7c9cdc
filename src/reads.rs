//! What a cell's link generation looked at, for rebuilding only the cells
//! an edit can change ([`crate::NavMap::edit`]).
//!
//! Link generation is a deterministic function of the level's tiles and
//! standable cells that it looks up (and of the level's size and whether it
//! has hazards, which edits that change them rebuild everything for). Every
//! lookup goes through a recording [`crate::physics::Frame`], the template walker's
//! fact check, the run family's flat-floor test or a standability test, and
//! each notes its level cell here. Whatever the caches held when the cell
//! was built, the computation's result depends only on the values at the
//! cells it read; so an edit that changes no tile inside a cell's box, and
//! no standable cell inside it, leaves that cell's links exactly as they
//! were. The box is the bounding rectangle of the reads: a superset of them
//! that costs 16 bytes per standing cell.

use std::cell::Cell as Slot;

use crate::level::Cell;

/// The bounding rectangle of the level cells one cell's links read,
/// inclusive; empty when `min_col > max_col`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ReadBox {
    pub min_col: i32,
    pub min_row: i32,
    pub max_col: i32,
    pub max_row: i32,
}

impl ReadBox {
    /// The box of no cell.
    pub const EMPTY: Self = Self {
        min_col: i32::MAX,
        min_row: i32::MAX,
        max_col: i32::MIN,
        max_row: i32::MIN,
    };

    /// The box of every cell: links whose reads are unknown.
    pub const ALL: Self = Self {
        min_col: i32::MIN,
        min_row: i32::MIN,
        max_col: i32::MAX,
        max_row: i32::MAX,
    };

    /// Whether `c` lies in the box.
    #[inline]
    pub fn contains(&self, c: Cell) -> bool {
        (self.min_col..=self.max_col).contains(&c.col)
            && (self.min_row..=self.max_row).contains(&c.row)
    }

    /// Whether the box meets the rectangle `lo..=hi`.
    #[inline]
    pub fn meets(&self, lo: Cell, hi: Cell) -> bool {
        self.min_col <= hi.col
            && lo.col <= self.max_col
            && self.min_row <= hi.row
            && lo.row <= self.max_row
    }
}

/// A recorder of the cells one cell's link generation reads (one thread,
/// one cell at a time).
#[derive(Debug)]
pub(crate) struct Reads(Slot<ReadBox>);

impl Default for Reads {
    fn default() -> Self {
        Self(Slot::new(ReadBox::EMPTY))
    }
}

impl Reads {
    /// Notes a lookup of level cell `(col, row)`. Lookups far off the
    /// level (beyond `i32`) are clamped, which only widens the box.
    #[inline]
    pub fn note(&self, col: i64, row: i64) {
        let (c, r) = (clamp(col), clamp(row));
        let mut b = self.0.get();
        b.min_col = b.min_col.min(c);
        b.max_col = b.max_col.max(c);
        b.min_row = b.min_row.min(r);
        b.max_row = b.max_row.max(r);
        self.0.set(b);
    }

    /// The box so far.
    pub fn get(&self) -> ReadBox {
        self.0.get()
    }
}

#[inline]
fn clamp(v: i64) -> i32 {
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_box_bounds_every_note_and_nothing_else() {
        let r = Reads::default();
        assert_eq!(r.get(), ReadBox::EMPTY);
        assert!(!r.get().contains(Cell::new(0, 0)));
        r.note(3, -2);
        r.note(-1, 7);
        let b = r.get();
        assert_eq!((b.min_col, b.min_row, b.max_col, b.max_row), (-1, -2, 3, 7));
        assert!(b.contains(Cell::new(0, 0)) && !b.contains(Cell::new(4, 0)));
        assert!(b.meets(Cell::new(3, 7), Cell::new(9, 9)));
        assert!(!b.meets(Cell::new(4, 0), Cell::new(9, 9)));
    }
}
