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
//! cells it read; so an edit that changes neither the tile nor the
//! standability of any cell it read leaves that cell's links exactly as
//! they were. Each node keeps the bounding rectangle of its reads and, when
//! they all fell near its cell, one bit per cell of that rectangle for the
//! cells actually read ([`ReadSets`]).

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
const WINDOW_LEFT: i64 = 64;
const WINDOW_UP: i64 = 32;
const WINDOW_COLS: i64 = 128;
const WINDOW_ROWS: i64 = 128;
/// Words per window row.
const ROW_WORDS: usize = (WINDOW_COLS / 64) as usize;

/// A recorder of the cells one cell's link generation reads (one thread,
/// one cell at a time): within a window around the cell, the cells
/// themselves, and the box of any read outside it.
#[derive(Debug)]
pub(crate) struct Reads {
    origin: Cell,
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
    fn inside(&self) -> bool {
        self.outside.get().min_col > self.outside.get().max_col
    }

    /// Whether the window cell `(x, y)` was read.
    fn read(&self, x: i64, y: i64) -> bool {
        self.window[y as usize * ROW_WORDS + x as usize / 64].get() >> (x % 64) & 1 == 1
    }
}

/// Per node, what its links read ([`Reads`]): the box, and when every
/// read fell in the recording window, one bit per box cell (row-major)
/// saying which were read. An edit rebuilds a node only when a changed
/// cell is one it read: fewer nodes than the boxes alone would name.
#[derive(Debug, Clone)]
pub(crate) struct ReadSets {
    boxes: Vec<ReadBox>,
    /// `at[n]..at[n + 1]` are node `n`'s words in `bits`; none when the
    /// box is all there is.
    at: Vec<u32>,
    bits: Vec<u64>,
    /// Nodes whose reads are unknown ([`ReadBox::ALL`]), counted so that
    /// an edit need not look through every box for one.
    unknown: usize,
}

impl Default for ReadSets {
    fn default() -> Self {
        Self {
            boxes: Vec::new(),
            at: vec![0],
            bits: Vec::new(),
            unknown: 0,
        }
    }
}

impl ReadSets {
    /// Nodes held.
    pub fn len(&self) -> usize {
        self.boxes.len()
    }

    fn close(&mut self, b: ReadBox) {
        self.unknown += usize::from(b == ReadBox::ALL);
        self.boxes.push(b);
        let end = u32::try_from(self.bits.len()).expect("read bits fit u32 offsets");
        self.at.push(end);
    }

    /// Appends a node's recorded reads.
    pub fn push(&mut self, reads: &Reads) {
        let b = reads.get();
        if reads.inside() && b.min_col <= b.max_col {
            let x0 = i64::from(b.min_col) - i64::from(reads.origin.col) + WINDOW_LEFT;
            let y0 = i64::from(b.min_row) - i64::from(reads.origin.row) + WINDOW_UP;
            let w = i64::from(b.max_col - b.min_col) + 1;
            let h = i64::from(b.max_row - b.min_row) + 1;
            let first = self.bits.len();
            self.bits.resize(first + ((w * h) as usize).div_ceil(64), 0);
            for i in 0..w * h {
                if reads.read(x0 + i % w, y0 + i / w) {
                    self.bits[first + i as usize / 64] |= 1 << (i % 64);
                }
            }
        }
        self.close(b);
    }

    /// Appends a node whose reads are unknown (every cell counts).
    pub fn push_unknown(&mut self) {
        self.close(ReadBox::ALL);
    }

    /// Appends node `n` of `other`.
    pub fn push_from(&mut self, other: &Self, n: usize) {
        self.bits
            .extend_from_slice(&other.bits[other.at[n] as usize..other.at[n + 1] as usize]);
        self.close(other.boxes[n]);
    }

    /// Appends every node of `other`.
    pub fn extend(&mut self, other: &Self) {
        let base = self.bits.len() as u32;
        self.bits.extend_from_slice(&other.bits);
        self.at.extend(other.at.iter().skip(1).map(|&a| base + a));
        self.boxes.extend_from_slice(&other.boxes);
        self.unknown += other.unknown;
    }

    /// Replaces nodes `items` by the nodes of `with`.
    pub fn splice(&mut self, items: std::ops::Range<usize>, with: &Self) {
        use crate::splice::{splice, splice_ends};
        let words: Vec<u32> = with.at.windows(2).map(|w| w[1] - w[0]).collect();
        let bits = self.at[items.start] as usize..self.at[items.end] as usize;
        splice(&mut self.bits, bits, &with.bits);
        splice_ends(&mut self.at, items.clone(), &words);
        let gone = self.boxes[items.clone()]
            .iter()
            .filter(|&&b| b == ReadBox::ALL)
            .count();
        self.unknown = self.unknown - gone + with.unknown;
        splice(&mut self.boxes, items, &with.boxes);
    }

    /// Whether some node's reads are unknown.
    pub fn any_unknown(&self) -> bool {
        debug_assert_eq!(
            self.unknown > 0,
            self.boxes.contains(&ReadBox::ALL),
            "unknown reads miscounted"
        );
        self.unknown > 0
    }

    /// Whether node `n` read one of `changed`, whose bounding rectangle
    /// is `lo..=hi`.
    pub fn touched(&self, n: usize, (lo, hi): (Cell, Cell), changed: &[Cell]) -> bool {
        let b = &self.boxes[n];
        if !b.meets(lo, hi) {
            return false;
        }
        let words = &self.bits[self.at[n] as usize..self.at[n + 1] as usize];
        let w = i64::from(b.max_col) - i64::from(b.min_col) + 1;
        changed.iter().any(|&c| {
            b.contains(c) && {
                if words.is_empty() {
                    return true;
                }
                let i = (i64::from(c.row - b.min_row) * w + i64::from(c.col - b.min_col)) as usize;
                words[i / 64] >> (i % 64) & 1 == 1
            }
        })
    }

    /// Heap bytes held.
    pub fn bytes(&self) -> usize {
        use std::mem::size_of;
        self.boxes.capacity() * size_of::<ReadBox>()
            + self.at.capacity() * size_of::<u32>()
            + self.bits.capacity() * size_of::<u64>()
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

    #[test]
    fn a_node_is_touched_only_by_cells_it_read_unless_it_read_off_its_window() {
        let origin = Cell::new(100, 50);
        let near = Reads::new(origin);
        near.note(100, 51);
        near.note(110, 40);
        let far = Reads::new(origin);
        far.note(100, 51);
        far.note(110, 40);
        far.note(100 + WINDOW_COLS, 50);
        let mut sets = ReadSets::default();
        sets.push(&near);
        sets.push(&far);
        sets.push_unknown();
        assert_eq!(sets.len(), 3);
        let one = |c: Cell| ((c, c), vec![c]);
        let unread = Cell::new(105, 45);
        for (c, near_hit, far_hit) in [
            (Cell::new(100, 51), true, true),
            (Cell::new(110, 40), true, true),
            // Inside both boxes, read by neither: only the box alone counts it.
            (unread, false, true),
            (Cell::new(99, 51), false, false),
        ] {
            let (rect, changed) = one(c);
            assert_eq!(sets.touched(0, rect, &changed), near_hit, "{c}");
            assert_eq!(sets.touched(1, rect, &changed), far_hit, "{c}");
            assert!(sets.touched(2, rect, &changed));
        }
        assert_eq!(near.get().min_row, 40);
        assert_eq!(far.get().max_col, 100 + WINDOW_COLS as i32);
        // Copies keep the bits.
        let mut copy = ReadSets::default();
        copy.push_from(&sets, 1);
        copy.extend(&sets);
        let (rect, changed) = one(unread);
        assert!(copy.touched(0, rect, &changed) && !copy.touched(1, rect, &changed));
        assert!(
            copy.any_unknown()
                && !{
                    let mut s = ReadSets::default();
                    s.push(&near);
                    s.any_unknown()
                }
        );
    }
}
