//! What an edit rewrites: the nodes whose links read a changed cell, and
//! the window of node ids holding them and every node added or removed.

use std::ops::Range;

use super::row_major;
use crate::classify::Classification;
use crate::graph::NavMap;
use crate::level::Cell;

/// The node count from which an edit looks for the nodes that read a
/// changed cell on every core the build uses (on smaller maps starting
/// the threads costs more than the scan).
#[cfg(feature = "parallel")]
const PARALLEL_SCAN: usize = 1 << 15;

impl NavMap {
    /// The window of node ids an edit rewrites, and the cells of its nodes
    /// after the edit: every `touched` node, and every node added or
    /// removed (the cells in `flips`, whose standability changed). The
    /// nodes before the window keep their ids and links; those after it
    /// keep their links, their ids moved by the change in count.
    pub(super) fn window(
        &self,
        classes: &Classification,
        touched: &[usize],
        flips: &[Cell],
    ) -> (Range<usize>, Vec<Cell>) {
        let (mut lo, mut hi) = (usize::MAX, 0);
        for &n in touched {
            (lo, hi) = (lo.min(n), hi.max(n + 1));
        }
        for &c in flips {
            let at = self.nodes.partition_point(|&x| row_major(x) < row_major(c));
            let end = at + usize::from(self.node(c).is_some());
            (lo, hi) = (lo.min(at), hi.max(end));
        }
        if lo > hi {
            (lo, hi) = (0, 0);
        }
        let mut cells: Vec<Cell> = self.nodes[lo..hi]
            .iter()
            .copied()
            .filter(|&c| classes.is_standable(c))
            .collect();
        cells.extend(flips.iter().copied().filter(|&c| classes.is_standable(c)));
        cells.sort_unstable_by_key(|&c| row_major(c));
        (lo..hi, cells)
    }

    /// The old nodes whose links read one of `changed` (whose bounding
    /// rectangle is `rect`), in order. Every node's box is looked at: a
    /// millisecond at 1024 x 1024, so on large maps on every core the
    /// build uses.
    pub(super) fn touched(&self, rect: (Cell, Cell), changed: &[Cell]) -> Vec<usize> {
        let is_touched = |&n: &usize| {
            if self.level.wrap().any() {
                self.reads.touched_across(n, changed, &self.level)
            } else {
                self.reads.touched(n, rect, changed)
            }
        };
        #[cfg(feature = "parallel")]
        if self.nodes.len() >= PARALLEL_SCAN {
            use rayon::prelude::*;
            return (0..self.nodes.len())
                .into_par_iter()
                .filter(is_touched)
                .collect();
        }
        (0..self.nodes.len()).filter(is_touched).collect()
    }
}
