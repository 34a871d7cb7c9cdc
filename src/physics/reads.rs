//! What a cell's link generation looks at, recorded as it looks, so that an
//! edit rebuilds only the cells it can change ([`crate::NavMap::edit`]); the
//! map keeps the records per node (`graph::reads`).
//!
//! Link generation is a deterministic function of the level's tiles and
//! standable cells that it looks up (and of the level's size and whether it
//! has hazards, which edits that change them rebuild everything for). Every
//! lookup goes through a recording [`crate::physics::Frame`], the template walker's
//! fact check, the run family's flat-floor test or a standability test, and
//! each notes its level cell here. Whatever the caches held when the cell
//! was built, the computation's result depends only on the values at the
//! cells it read; so an edit that changes neither the tile nor the
//! standability of any cell it read leaves that cell's links exactly as
//! they were. Each node keeps the bounding rectangle of its reads and, when
//! they all fell near its cell, one bit per cell of that rectangle for the
//! cells actually read (`graph::reads::ReadSets`).

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

/// Columns left of the node's cell, and rows above it, where a
/// [`Reads`] records exactly which cells were read; the window is
/// [`WINDOW_COLS`] x [`WINDOW_ROWS`] cells. Jumps reach about 45 columns
/// and falls about 80 rows below their start on the levels measured; a
/// cell whose links read outside the window keeps its box alone.
pub(crate) const WINDOW_LEFT: i64 = 64;
pub(crate) const WINDOW_UP: i64 = 32;
pub(crate) const WINDOW_COLS: i64 = 128;
const WINDOW_ROWS: i64 = 128;
/// Words per window row.
const ROW_WORDS: usize = (WINDOW_COLS / 64) as usize;

/// A recorder of the cells one cell's link generation reads (one thread,
/// one cell at a time): within a window around the cell, the cells
/// themselves, and the box of any read outside it.
#[derive(Debug)]
pub(crate) struct Reads {
    pub(crate) origin: Cell,
    /// Added to a level column (row) to give its window column (row).
    shift: (i64, i64),
    /// One bit per window cell, row-major.
    window: Box<[Slot<u64>; ROW_WORDS * WINDOW_ROWS as usize]>,
    /// The box of the reads outside the window.
    outside: Slot<ReadBox>,
}

impl Reads {
    /// A recorder for the links of the node on `origin`.
    pub fn new(origin: Cell) -> Self {
        Self {
            origin,
            shift: (
                WINDOW_LEFT - i64::from(origin.col),
                WINDOW_UP - i64::from(origin.row),
            ),
            window: Box::new(std::array::from_fn(|_| Slot::new(0))),
            outside: Slot::new(ReadBox::EMPTY),
        }
    }

    /// Notes a lookup of level cell `(col, row)`.
    #[inline]
    pub fn note(&self, col: i64, row: i64) {
        let x = col.wrapping_add(self.shift.0) as u64;
        let y = row.wrapping_add(self.shift.1) as u64;
        if x < WINDOW_COLS as u64 && y < WINDOW_ROWS as u64 {
            let w = &self.window[y as usize * ROW_WORDS + (x >> 6) as usize];
            w.set(w.get() | 1 << (x & 63));
        } else {
            self.note_outside(col, row);
        }
    }

    /// Notes lookups of every level cell of columns `cols` and rows `rows`
    /// (the body's clear blocks, a few cells each way): a word of bits per
    /// window row at a time (an SMB 1-1 build with 60 edits takes 1.4%
    /// fewer instructions so than with a [`Reads::note`] per cell).
    pub fn note_block(&self, cols: std::ops::Range<i64>, rows: std::ops::Range<i64>) {
        let x0 = cols.start.wrapping_add(self.shift.0);
        let x1 = cols.end.wrapping_add(self.shift.0);
        let y0 = rows.start.wrapping_add(self.shift.1);
        let y1 = rows.end.wrapping_add(self.shift.1);
        let inside = x0 >= 0 && y0 >= 0 && x1 <= WINDOW_COLS && y1 <= WINDOW_ROWS;
        if !inside || x1 - x0 > 64 {
            for r in rows {
                for c in cols.clone() {
                    self.note(c, r);
                }
            }
            return;
        }
        if x0 >= x1 {
            return;
        }
        // The block's bits in each row, over at most two words.
        let bits = |lo: i64, hi: i64| -> u64 {
            let n = hi - lo;
            let ones = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
            ones << (lo & 63)
        };
        let (w0, w1) = (x0 >> 6, (x1 - 1) >> 6);
        let (m0, m1) = if w0 == w1 {
            (bits(x0, x1), 0)
        } else {
            (bits(x0, (w0 + 1) << 6), bits(w1 << 6, x1))
        };
        for y in y0..y1 {
            let at = y as usize * ROW_WORDS + w0 as usize;
            let w = &self.window[at];
            w.set(w.get() | m0);
            if m1 != 0 {
                let w = &self.window[at + 1];
                w.set(w.get() | m1);
            }
        }
    }

    /// Widens the outside box by a lookup off the window. Lookups far off
    /// the level (beyond `i32`) are clamped, which only widens it.
    #[cold]
    fn note_outside(&self, col: i64, row: i64) {
        let (c, r) = (clamp(col), clamp(row));
        let mut b = self.outside.get();
        b.min_col = b.min_col.min(c);
        b.max_col = b.max_col.max(c);
        b.min_row = b.min_row.min(r);
        b.max_row = b.max_row.max(r);
        self.outside.set(b);
    }

    /// The box of every read so far.
    pub fn get(&self) -> ReadBox {
        let mut b = self.outside.get();
        let mut cols = [0u64; ROW_WORDS];
        for (y, row) in self.window.chunks(ROW_WORDS).enumerate() {
            let mut any = false;
            for (c, w) in cols.iter_mut().zip(row) {
                *c |= w.get();
                any |= w.get() != 0;
            }
            if any {
                let r = self.origin.row + y as i32 - WINDOW_UP as i32;
                b.min_row = b.min_row.min(r);
                b.max_row = b.max_row.max(r);
            }
        }
        for (i, &c) in cols.iter().enumerate() {
            if c != 0 {
                let left = self.origin.col - WINDOW_LEFT as i32 + 64 * i as i32;
                b.min_col = b.min_col.min(left + c.trailing_zeros() as i32);
                b.max_col = b.max_col.max(left + 63 - c.leading_zeros() as i32);
            }
        }
        b
    }

    /// Whether every read fell in the window.
    pub(crate) fn inside(&self) -> bool {
        self.outside.get().min_col > self.outside.get().max_col
    }

    /// Whether the window cell `(x, y)` was read.
    pub(crate) fn read(&self, x: i64, y: i64) -> bool {
        self.window[y as usize * ROW_WORDS + x as usize / 64].get() >> (x % 64) & 1 == 1
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
        let r = Reads::new(Cell::new(0, 0));
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
