//! Splicing the window: old node ids to new, the window's nodes in the
//! node table, its links gathered, and the arrays and tapes updated.

use std::ops::Range;

use super::row_major;
use crate::classify::Classification;
use crate::graph::splice::splice;
use crate::graph::{NO_NODE, NavMap};
use crate::level::Cell;
use crate::links::Link;
use crate::physics::reads::Reads;

impl NavMap {
    /// Puts the window's nodes (on `cells`, their old nodes `olds`, their
    /// links kept or `fresh` as `keep` says) in place of the nodes of
    /// `window`, in the node table, in every per-node and per-link array
    /// and in the landmark table (not yet repaired); `ids_moved` when
    /// nodes were added or removed.
    pub(super) fn splice_window(
        &mut self,
        window: Range<usize>,
        cells: &[Cell],
        (olds, keep): (&[Option<u32>], &[Option<u32>]),
        fresh: Vec<(Vec<Link>, Reads)>,
        classes: &Classification,
        ids_moved: bool,
    ) {
        let (width, height) = (self.level.width(), self.level.height());
        let Range { start: lo, end: hi } = window;
        // Old id to new: the same before the window, moved by the change in
        // count after it, looked up inside it (none for a removed node).
        let moved = (cells.len() as u32).wrapping_sub((hi - lo) as u32);
        let inside = self.window_ids(lo..hi, cells);
        let (lo32, hi32) = (lo as u32, hi as u32);
        let remap = |t: u32| {
            if t >= hi32 {
                t.wrapping_add(moved)
            } else if t >= lo32 {
                inside[(t - lo32) as usize]
            } else {
                t
            }
        };
        // The nodes. The cell table is renumbered with the arrays, below;
        // until then a cell's new node is its place among the window's
        // cells, or its old node renumbered.
        let removed: Vec<Cell> = self.nodes[lo..hi]
            .iter()
            .copied()
            .filter(|&c| !classes.is_standable(c))
            .collect();
        splice(&mut self.nodes, lo..hi, cells);
        let node_of = |c: Cell| match cells.binary_search_by_key(&row_major(c), |&x| row_major(x)) {
            Ok(i) => Some((lo + i) as u32),
            Err(_) => crate::graph::lookup(&self.node_at, width, height, c)
                .map(remap)
                .filter(|&n| n != NO_NODE),
        };
        let (links, hops) = (
            self.offsets[lo] as usize..self.offsets[hi] as usize,
            self.hop_at[lo] as usize..self.hop_at[hi] as usize,
        );
        // The landmark rows depend on neither the window's links nor the
        // arrays: they move (22 MB at 1024 x 1024) while the links are
        // gathered.
        let mut landmarks = std::mem::take(&mut self.landmarks);
        let (chunk, hop_counts, new_hops) = self.gather_window(
            (&mut landmarks, olds),
            lo..hi,
            keep,
            fresh,
            (&remap, &node_of),
            links.start as u32,
        );
        self.landmarks = landmarks;
        let shift = (chunk.edges.len() as u32).wrapping_sub(links.len() as u32);
        // The window's tapes go after all the others, and the ones they
        // replace are left behind: the tapes after the window stay put.
        let replaced: usize = links.clone().map(|l| self.tape_bytes(l).len()).sum();
        let starts = self.tape_starts(&chunk);
        // The nodes whose ids changed: those of the window, and all after
        // it when their count changed.
        let renumbered = if moved == 0 {
            lo + cells.len()
        } else {
            self.nodes.len()
        };
        self.splice_tails(
            (lo..hi, links, hops),
            (&chunk, &starts, &hop_counts, &new_hops),
            (&removed, renumbered),
            (ids_moved, shift),
            &remap,
        );
        debug_assert!(
            (self.hop_at.clone(), self.hops.clone())
                == crate::graph::reduce(&self.offsets, &self.edges, &self.nodes),
            "patched hops differ"
        );
        self.tape_garbage += replaced;
        if self.tape_garbage > self.tapes.len() / 2 {
            self.compact_tapes();
        }
    }

    /// Per old node of `window`, its new id: its place among the window's
    /// `cells` (which hold the nodes after the edit), or [`NO_NODE`] when
    /// it was removed.
    fn window_ids(&self, window: Range<usize>, cells: &[Cell]) -> Vec<u32> {
        let Range { start: lo, end: hi } = window;
        let mut inside = vec![NO_NODE; hi - lo];
        for (i, &c) in cells.iter().enumerate() {
            if let Some(n) = self.node(c) {
                inside[n.0 as usize - lo] = (lo + i) as u32;
            }
        }
        inside
    }
}
