//! The search's reduced graph: per node, the fastest link to each target.

use super::Edge;
use crate::level::Cell;

/// One step of the search's reduced graph ([`NavMap::hops_from`](crate::NavMap::hops_from)): of the
/// links from one node to another, the one with the fewest ticks (the first
/// in id order among equals).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hop {
    /// The target node.
    pub target: u32,
    /// The link's id.
    pub link: u32,
    /// Duration in ticks (at most `navfile::MAX_LINK_TICKS`).
    pub ticks: u16,
    /// The target node's column (a level is at most [`crate::level::MAX_SIDE`]
    /// wide), so that the search's column bound needs no lookup of the
    /// node: the hop is already in cache.
    pub col: u16,
}

/// Each node's [`Hop`]s, in link id order: `(offsets, hops)` as in
/// [`NavMap`](crate::NavMap)'s link arrays.
pub(super) fn reduce(offsets: &[u32], edges: &[Edge], nodes: &[Cell]) -> (Vec<u32>, Vec<Hop>) {
    let mut hop_at = Vec::with_capacity(offsets.len());
    let mut hops = Vec::with_capacity(edges.len());
    hop_at.push(0u32);
    let mut order: Vec<u32> = Vec::new();
    for w in offsets.windows(2) {
        reduce_node(w[0]..w[1], edges, nodes, &mut order, &mut hops);
        hop_at.push(hops.len() as u32);
    }
    hops.shrink_to_fit();
    (hop_at, hops)
}

/// Appends to `hops` the [`Hop`]s of the node whose links are `ids`
/// (`order` is scratch).
pub(super) fn reduce_node(
    ids: std::ops::Range<u32>,
    edges: &[Edge],
    nodes: &[Cell],
    order: &mut Vec<u32>,
    hops: &mut Vec<Hop>,
) {
    // The first fewest-ticks link per target, kept in id order.
    order.clear();
    order.extend(ids);
    order.sort_unstable_by_key(|&id| {
        let e = &edges[id as usize];
        (e.target, e.ticks, id)
    });
    order.dedup_by_key(|id| edges[*id as usize].target);
    order.sort_unstable();
    hops.extend(order.iter().map(|&id| {
        let e = &edges[id as usize];
        Hop {
            target: e.target,
            link: id,
            ticks: e.ticks,
            // Always in range: columns are below `MAX_SIDE` = 2^16.
            col: u16::try_from(nodes[e.target as usize].col).unwrap_or(u16::MAX),
        }
    }));
}
