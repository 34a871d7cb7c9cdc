//! Moving the arrays around the window: the links, actions, reads, cell
//! table, tape starts and hops after it renumbered as they move, those
//! before it in place.

use std::ops::Range;

use super::tapes::append_tapes;
use crate::graph::splice::{splice, splice_ends, splice_map};
use crate::graph::{Chunk, Edge, Hop, NO_NODE, NavMap};
use crate::level::Cell;

impl NavMap {
    /// Lays the window's new links, tapes, hops and reads (`chunk`, the
    /// tapes' `starts`, the hops and their counts per node) in place of
    /// those of the nodes, links and hops `window`, `links` and `hops`,
    /// and points the cell table at the new ids of the nodes of
    /// `nodes[window.start..renumbered]`, and at none for the `removed`
    /// nodes' cells. `ids_moved` when nodes were added or removed, `shift`
    /// the change in link count, `remap` old node ids to new.
    pub(super) fn splice_tails(
        &mut self,
        (window, links, hops): (Range<usize>, Range<usize>, Range<usize>),
        (chunk, starts, hop_counts, new_hops): (&Chunk, &[u32], &[u32], &[Hop]),
        (removed, renumbered): (&[Cell], usize),
        (ids_moved, shift): (bool, u32),
        remap: &(impl Fn(u32) -> u32 + Sync),
    ) {
        let (width, height) = (self.level.width(), self.level.height());
        let Range { start: lo, end: hi } = window;
        let lo32 = lo as u32;
        // Links and hops outside the window point to nodes whose ids may
        // have moved, and the links the hops after the window name moved by
        // the change in link count: the items after the window are
        // renumbered as they move (one pass over them, not two), those
        // before it in place. On the largest maps these tails are most of
        // an edit's time, so they move on two threads, about half the
        // bytes each (at 1024 x 1024: links, tape ends, actions, reads and
        // the cell table, 50 MB; hops and tapes, 41 MB, the hops' renumbering
        // being the dearer).
        let NavMap {
            edges,
            action,
            tapes: tape_bytes,
            tape_at,
            offsets,
            hops: hop_list,
            hop_at,
            reads,
            nodes,
            node_at,
            ..
        } = self;
        let slot =
            |c: Cell| crate::graph::index(width, height, c).expect("a node lies on the level");
        let first_half = || {
            splice_edges(edges, links.clone(), &chunk.edges, (lo32, ids_moved), remap);
            splice(action, links.clone(), &chunk.action);
            reads.splice(lo..hi, &chunk.reads);
            renumber_cells(node_at, nodes, removed, (lo, renumbered), &slot);
        };
        let second_half = || {
            append_tapes(tape_bytes, &chunk.tapes);
            splice(tape_at, links.clone(), starts);
            splice_ends(offsets, lo..hi, &chunk.counts);
            let renumber = (lo32, ids_moved, shift);
            splice_hops(hop_list, hops.clone(), new_hops, renumber, remap);
            splice_ends(hop_at, lo..hi, hop_counts);
        };
        #[cfg(feature = "parallel")]
        rayon::join(first_half, second_half);
        #[cfg(not(feature = "parallel"))]
        {
            // By value: one half may be `FnOnce`, the other `FnMut`.
            fn run(half: impl FnOnce()) {
                half();
            }
            run(first_half);
            run(second_half);
        }
    }
}

/// Puts the window's links `with` in place of the links `links` of
/// `edges`. When node ids moved (`ids_moved`), their targets are
/// renumbered by `remap` as they move, and so are, in place, those of the
/// links before the window that point into it or past it (at node `lo` or
/// after).
#[inline]
fn splice_edges(
    edges: &mut Vec<Edge>,
    links: Range<usize>,
    with: &[Edge],
    (lo, ids_moved): (u32, bool),
    remap: &impl Fn(u32) -> u32,
) {
    if ids_moved {
        // Only the few links into or past the window change: a
        // store to every link would write the whole head back.
        for e in &mut edges[..links.start] {
            if e.target >= lo {
                e.target = remap(e.target);
            }
        }
        splice_map(edges, links, with, |e| Edge {
            target: remap(e.target),
            ..e
        });
    } else {
        splice(edges, links, with);
    }
}

/// Puts the window's hops `with` in place of the hops `hops` of
/// `hop_list`. When node ids moved (`ids_moved`), the hops' targets are
/// renumbered by `remap` (those before the window in place, when they
/// point at node `lo` or after), and the links the hops after the window
/// name move by `shift`, the change in link count, as they move.
#[inline]
fn splice_hops(
    hop_list: &mut Vec<Hop>,
    hops: Range<usize>,
    with: &[Hop],
    (lo, ids_moved, shift): (u32, bool, u32),
    remap: &impl Fn(u32) -> u32,
) {
    if ids_moved {
        for h in &mut hop_list[..hops.start] {
            if h.target >= lo {
                h.target = remap(h.target);
            }
        }
    }
    if ids_moved || shift != 0 {
        splice_map(hop_list, hops, with, |h| Hop {
            target: remap(h.target),
            link: h.link.wrapping_add(shift),
            ..h
        });
    } else {
        splice(hop_list, hops, with);
    }
}

/// Points the cell table `node_at` (at a cell's `slot`) at the nodes' new
/// ids: at none for the `removed` nodes' cells, and at its id for each of
/// `nodes[from..to]` (the nodes from the window on whose ids changed).
#[inline]
fn renumber_cells(
    node_at: &mut [u32],
    nodes: &[Cell],
    removed: &[Cell],
    (from, to): (usize, usize),
    slot: &impl Fn(Cell) -> usize,
) {
    for &c in removed {
        node_at[slot(c)] = NO_NODE;
    }
    for (i, &c) in nodes.iter().enumerate().take(to).skip(from) {
        node_at[slot(c)] = i as u32;
    }
}
