//! Per node, what its links read (`physics::reads::Reads`), kept with the
//! map so that an edit rebuilds only the nodes that read a changed cell.

use crate::level::Cell;
use crate::physics::reads::{ReadBox, Reads, WINDOW_LEFT, WINDOW_UP};

use super::splice::{splice, splice_ends};

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

    /// [`ReadSets::touched`] on `level`, which wraps: reads are recorded where the body looked, which
    /// across an edge is a whole number of widths (heights) from the cell
    /// on the map, so each changed cell is looked for at each of its
    /// images in node `n`'s box.
    pub fn touched_across(&self, n: usize, changed: &[Cell], level: &crate::level::Level) -> bool {
        let (wrap, width, height) = (level.wrap(), level.width() as i32, level.height() as i32);
        let b = self.boxes[n];
        if b == ReadBox::ALL {
            return true;
        }
        changed.iter().any(|&c| {
            images(c.col, b.min_col, b.max_col, wrap.x, width).any(|col| {
                images(c.row, b.min_row, b.max_row, wrap.y, height).any(|row| {
                    let at = Cell::new(col, row);
                    self.touched(n, (at, at), &[at])
                })
            })
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

/// The values `v + k * period` (every whole `k`, or only `k = 0` when
/// `on` is false) within `lo..=hi`.
fn images(v: i32, lo: i32, hi: i32, on: bool, period: i32) -> impl Iterator<Item = i32> {
    let (v, lo, hi, p) = (
        i64::from(v),
        i64::from(lo),
        i64::from(hi),
        i64::from(period.max(1)),
    );
    let (first, last) = if on {
        (
            (lo - v).div_euclid(p) + i64::from((lo - v).rem_euclid(p) != 0),
            (hi - v).div_euclid(p),
        )
    } else if (lo..=hi).contains(&v) {
        (0, 0)
    } else {
        (1, 0)
    };
    (first..=last).map(move |k| (v + k * p) as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::reads::WINDOW_COLS;

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
