//! The navigation map: standing cells as nodes, links as edges.
//!
//! Storage is compact: the links leaving each node are a contiguous slice of
//! 8-byte edges (target node, ticks, kind, jumps) in one array indexed by a
//! per-node offset table (CSR), which is all the search reads; every link's
//! input tape is run-length encoded (`graph::tape`) in one shared byte
//! arena; action ticks sit in a side array. Sweeps and trajectories are not
//! stored: [`sweep`](crate::search::sweep) and [`trajectory`](crate::search::trajectory) replay the tape.

use std::ops::Range;
use std::sync::Arc;

use crate::classify::{Classification, NodeType};
use crate::level::{Cell, Level};
use crate::links::{BuildCache, LinkKind, LinkOptions};
use crate::physics::Physics;

mod build;
mod chunk;
pub(crate) mod edge;
mod edit;
mod hops;
mod ids;
mod info;
pub(crate) mod landmarks;
mod lazy;
pub(crate) mod memo;
pub(crate) mod pool;
pub(crate) mod reads;
pub(crate) mod splice;
pub(crate) mod tape;

pub use build::BuildError;
pub use edit::{EditError, EditReport};
pub use ids::{LinkId, NodeId};
pub use info::{LinkInfo, Links};
pub use lazy::LazyMap;
#[cfg(feature = "serde")]
pub(crate) use lazy::SavedBlocks;
pub use tape::Tape;

use chunk::Chunk;
pub(crate) use chunk::EncodedLink;
#[cfg(feature = "serde")]
pub(crate) use chunk::Head;
pub(crate) use hops::Hop;
use hops::{reduce, reduce_node};

use landmarks::{GoalBound, Landmarks};
use memo::LinkMemo;
use reads::ReadSets;

pub(crate) use edge::Edge;

/// No node on a cell, in [`NavMap`]'s cell table.
const NO_NODE: u32 = u32::MAX;

/// A level's navigation map for one physics profile.
#[derive(Debug, Clone)]
pub struct NavMap {
    level: Level,
    physics: Physics,
    classes: Classification,
    nodes: Vec<Cell>,
    /// Row-major: the node on each cell, or [`NO_NODE`].
    node_at: Vec<u32>,
    /// `offsets[n]..offsets[n + 1]` are the links leaving node `n`.
    offsets: Vec<u32>,
    /// Per link, by id.
    edges: Vec<Edge>,
    /// `hop_at[n]..hop_at[n + 1]` are node `n`'s [`Hop`]s in `hops`.
    hop_at: Vec<u32>,
    /// The search's reduced graph: per node and target, the link with the
    /// fewest ticks. A search that allows every link relaxes only these,
    /// since a slower parallel link can never label its target.
    hops: Vec<Hop>,
    /// Action ticks per link.
    action: Vec<u16>,
    /// Where link `l`'s tape starts in `tapes`; it ends after the link's
    /// ticks. A fresh map's tapes lie end to end, in link order; an edit
    /// writes the tapes of its window's links after the others and leaves
    /// the ones they replace behind (`tape_garbage`), so that the tapes
    /// after the window need not move.
    tape_at: Vec<u32>,
    /// Every link's run-length encoded tape ([`tape`]).
    tapes: Vec<u8>,
    /// Bytes of `tapes` no link's tape holds any more (left by edits).
    tape_garbage: usize,
    /// Route ticks from and to a few landmarks, for the search's bound.
    landmarks: Landmarks,
    /// The search's bound per column crossed ([`crate::physics::ticks_per_col`]).
    ticks_per_col: f64,
    /// Outcomes of link performances in path replays ([`memo`]).
    memo: LinkMemo,
    /// The search's labels, kept between queries.
    labels: crate::graph::pool::ScratchPool,
    /// Per node, the level cells its links read: what an edit must touch
    /// to change them ([`NavMap::edit`]).
    reads: ReadSets,
    /// The options the links were generated with (no progress handle).
    options: LinkOptions,
    /// Counts the edits that changed the map ([`NavMap::generation`]).
    generation: u64,
    /// The caches the links were generated with, kept for edits
    /// ([`NavMap::build_cache`]).
    cache: Arc<BuildCache>,
}

impl NavMap {
    /// The caches this map's links were generated with, which its edits
    /// use too: shared with the caller of [`NavMap::build_cached`], else
    /// the map's own. [`BuildCache::clear`] frees what they hold (the next
    /// edit then starts cold); a clone of the map shares them.
    #[must_use]
    pub fn build_cache(&self) -> &Arc<BuildCache> {
        &self.cache
    }

    /// The level the map was built for.
    #[must_use]
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// The physics the map was built for.
    #[must_use]
    pub fn physics(&self) -> &Physics {
        &self.physics
    }

    /// Node types of every cell.
    #[must_use]
    pub fn classification(&self) -> &Classification {
        &self.classes
    }

    /// The node type of `cell`.
    #[must_use]
    pub fn node_type(&self, cell: Cell) -> NodeType {
        self.classes.get(cell)
    }

    /// Number of nodes (standable cells).
    #[must_use]
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Number of links.
    #[must_use]
    pub fn link_count(&self) -> usize {
        self.edges.len()
    }

    /// The node standing on `cell`, if the cell is standable.
    #[must_use]
    pub fn node(&self, cell: Cell) -> Option<NodeId> {
        lookup(&self.node_at, self.level.width(), self.level.height(), cell).map(NodeId)
    }

    /// The cell of a node.
    ///
    /// # Panics
    /// If `node` is not a node of this map.
    #[must_use]
    pub fn cell(&self, node: NodeId) -> Cell {
        self.nodes[node.0 as usize]
    }

    /// Every node's cell, indexed by [`NodeId`].
    #[must_use]
    pub fn nodes(&self) -> &[Cell] {
        &self.nodes
    }

    /// Every link, in [`LinkId`] order (sorted by source node).
    pub fn links(&self) -> Links<'_> {
        self.links_in(0..self.edges.len() as u32)
    }

    /// One link.
    ///
    /// # Panics
    /// If `id` is not a link of this map.
    #[must_use]
    pub fn link(&self, id: LinkId) -> LinkInfo {
        // The source is the last node whose links start at or before `id`.
        let source = self.offsets.partition_point(|&o| o <= id.0) - 1;
        self.info(id.0, source as u32)
    }

    fn info(&self, id: u32, source: u32) -> LinkInfo {
        let e = self.edges[id as usize];
        LinkInfo {
            id: LinkId(id),
            kind: e.kind,
            source: NodeId(source),
            target: NodeId(e.target),
            from: self.nodes[source as usize],
            to: self.nodes[e.target as usize],
            ticks: u32::from(e.ticks),
            action_ticks: u32::from(self.action[id as usize]),
            jumps: e.jumps,
        }
    }

    fn links_in(&self, ids: Range<u32>) -> Links<'_> {
        let source = self.offsets.partition_point(|&o| o <= ids.start).max(1) - 1;
        Links::new(self, ids, source as u32)
    }

    /// The node a link ends on.
    #[must_use]
    pub fn target(&self, id: LinkId) -> NodeId {
        NodeId(self.edges[id.0 as usize].target)
    }

    /// A link's kind.
    pub(crate) fn kind(&self, id: LinkId) -> LinkKind {
        self.edges[id.0 as usize].kind
    }

    /// A link's duration in ticks.
    #[must_use]
    pub fn ticks(&self, id: LinkId) -> u32 {
        u32::from(self.edges[id.0 as usize].ticks)
    }

    /// The ids of the links leaving `node` (consecutive).
    pub fn link_ids_from(
        &self,
        node: NodeId,
    ) -> impl ExactSizeIterator<Item = LinkId> + DoubleEndedIterator + Clone + use<> {
        self.link_range(node).map(LinkId)
    }

    /// The raw ids of the links leaving `node`.
    pub(crate) fn link_range(&self, node: NodeId) -> Range<u32> {
        self.offsets[node.0 as usize]..self.offsets[node.0 as usize + 1]
    }

    /// The links leaving `node`.
    pub fn links_from(&self, node: NodeId) -> Links<'_> {
        Links::new(self, self.link_range(node), node.0)
    }

    /// The landmark table (for saving it).
    #[cfg(feature = "serde")]
    pub(crate) fn landmark_table(&self) -> &Landmarks {
        &self.landmarks
    }

    /// True when the landmark table proves that no route leads from `from`
    /// to `to` (false proves nothing).
    pub(crate) fn cannot_reach(&self, from: NodeId, to: NodeId) -> bool {
        self.landmarks.separated(from.0, to.0)
    }

    /// The search's lower bound on ticks per column crossed.
    pub(crate) fn ticks_per_col(&self) -> f64 {
        self.ticks_per_col
    }

    /// The goal `to`'s side of the landmark bound, prepared once per search.
    pub(crate) fn landmark_goal(&self, to: u32) -> GoalBound {
        self.landmarks.goal(to)
    }

    /// The landmark bound from `from` to a prepared goal.
    #[inline]
    pub(crate) fn landmark_bound(&self, from: u32, to: &GoalBound) -> u32 {
        self.landmarks.bound_to(from, to)
    }

    pub(crate) fn edges_from(&self, node: u32) -> &[Edge] {
        let (a, b) = (
            self.offsets[node as usize] as usize,
            self.offsets[node as usize + 1] as usize,
        );
        &self.edges[a..b]
    }

    /// Node `node`'s [`Hop`]s, and how many of its links they leave out.
    #[inline]
    pub(crate) fn hops_from(&self, node: u32) -> (&[Hop], usize) {
        let n = node as usize;
        let (a, b) = (self.hop_at[n] as usize, self.hop_at[n + 1] as usize);
        let links = (self.offsets[n + 1] - self.offsets[n]) as usize;
        (&self.hops[a..b], links - (b - a))
    }

    /// The links the exact search relaxes from `node`: of its links to each
    /// target, the one with the fewest ticks (the lowest id among equals), in
    /// id order. Any cheapest route can be made of these alone.
    pub fn fastest_links_from(&self, node: NodeId) -> impl Iterator<Item = LinkId> + '_ {
        self.hops_from(node.0).0.iter().map(|h| LinkId(h.link))
    }

    /// A link's per-tick inputs, performed from standing on its source cell.
    pub fn inputs(&self, id: LinkId) -> Tape<'_> {
        let i = id.0 as usize;
        let runs = &self.tapes[self.tape_at[i] as usize..];
        Tape::new(runs, usize::from(self.edges[i].ticks))
    }

    /// Bytes the map holds on the heap: its level, node types, nodes, the
    /// cell-to-node table, the offset tables, the link records, the tape
    /// arena and, once a path has been queried, the replay memo (at most
    /// about 1.5 MB), counted from the vectors' capacities.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        fn heap<T>(v: &Vec<T>) -> usize {
            v.capacity() * size_of::<T>()
        }
        let cells = self.level.width() * self.level.height();
        cells * (size_of::<crate::level::Tile>() + size_of::<NodeType>() + size_of::<bool>())
            + heap(&self.nodes)
            + heap(&self.node_at)
            + heap(&self.offsets)
            + heap(&self.edges)
            + heap(&self.hop_at)
            + heap(&self.hops)
            + heap(&self.action)
            + heap(&self.tape_at)
            + self.landmarks.bytes()
            + heap(&self.tapes)
            + self.memo.bytes()
            + self.labels.bytes()
            + self.edit_index_bytes()
    }

    /// Bytes of the record edits use to find the nodes they change (per
    /// node, the box of the cells its links read and which of them were
    /// read), included in [`NavMap::memory_bytes`].
    #[must_use]
    pub fn edit_index_bytes(&self) -> usize {
        self.reads.bytes()
    }

    pub(crate) fn labels(&self) -> &crate::graph::pool::ScratchPool {
        &self.labels
    }

    pub(crate) fn memo(&self) -> &LinkMemo {
        &self.memo
    }

    /// Link counts per kind, in [`LinkKind::ALL`] order.
    #[must_use]
    pub fn link_counts(&self) -> [(LinkKind, usize); LinkKind::ALL.len()] {
        let mut n = [0usize; LinkKind::ALL.len()];
        for e in &self.edges {
            n[e.kind.index()] += 1;
        }
        LinkKind::ALL.map(|k| (k, n[k.index()]))
    }
}

/// The row-major cell-to-node table of `nodes`.
fn node_table(level: &Level, nodes: &[Cell]) -> Vec<u32> {
    let mut node_at = vec![NO_NODE; level.width() * level.height()];
    for (i, c) in nodes.iter().enumerate() {
        if let Some(slot) = index(level.width(), level.height(), *c) {
            node_at[slot] = i as u32;
        }
    }
    node_at
}

fn index(width: usize, height: usize, c: Cell) -> Option<usize> {
    let (col, row) = (usize::try_from(c.col).ok()?, usize::try_from(c.row).ok()?);
    (col < width && row < height).then(|| row * width + col)
}

fn lookup(node_at: &[u32], width: usize, height: usize, c: Cell) -> Option<u32> {
    let n = *node_at.get(index(width, height, c)?)?;
    (n != NO_NODE).then_some(n)
}
