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
use crate::links::{BuildCache, BuildProgress, Link, LinkKind, LinkOptions, links_recorded};
use crate::physics::{Physics, reads::Reads};

mod build;
pub(crate) mod edge;
mod edit;
pub(crate) mod landmarks;
pub(crate) mod memo;
pub(crate) mod pool;
pub(crate) mod reads;
pub(crate) mod splice;
pub(crate) mod tape;

pub use build::BuildError;
pub use edit::{EditError, EditReport};
pub use tape::Tape;

use landmarks::{GoalBound, Landmarks};
use memo::LinkMemo;
use reads::ReadSets;

/// Index of a node (a standable cell) in a [`NavMap`]: nodes are numbered
/// `0..node_count()`, so per-node data fits in a plain vector indexed by
/// [`NodeId::index`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) u32);

impl NodeId {
    /// The id of node number `index` (meaningful for `index <
    /// node_count()` of the map it is used with).
    #[must_use]
    pub const fn new(index: u32) -> Self {
        Self(index)
    }

    /// The node's number, for indexing per-node vectors.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Index of a link in a [`NavMap`]. Links are numbered by source node, so
/// the links leaving one node have consecutive ids
/// ([`NavMap::link_ids_from`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct LinkId(pub(crate) u32);

impl LinkId {
    /// The id of link number `index` (meaningful for `index <
    /// link_count()` of the map it is used with).
    #[must_use]
    pub const fn new(index: u32) -> Self {
        Self(index)
    }

    /// The link's number, for indexing per-link vectors.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Everything about one link of a [`NavMap`] except its input tape
/// ([`NavMap::inputs`]) and its sweep ([`sweep`](crate::search::sweep)). A small `Copy`
/// value assembled from the map's compact storage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LinkInfo {
    /// The link's id in its map.
    pub id: LinkId,
    /// What kind of move it is.
    pub kind: LinkKind,
    /// The node it starts from.
    pub source: NodeId,
    /// The node it ends on.
    pub target: NodeId,
    /// The standing cell it starts from (the source node's cell).
    pub from: Cell,
    /// The standing cell it ends on (the target node's cell).
    pub to: Cell,
    /// Duration in ticks (the length of its tape).
    pub ticks: u32,
    /// Ticks of the open-loop action phase; the rest is the settle phase.
    pub action_ticks: u32,
    /// Jump presses that took effect (ground, air and wall jumps).
    pub jumps: u8,
}

impl LinkInfo {
    /// Cost in seconds (ticks times `physics.dt`).
    #[must_use]
    pub fn cost(&self, physics: &Physics) -> f64 {
        f64::from(self.ticks) * physics.dt
    }
}

pub(crate) use edge::Edge;

/// One step of the search's reduced graph ([`NavMap::hops_from`]): of the
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
/// [`NavMap`]'s link arrays.
fn reduce(offsets: &[u32], edges: &[Edge], nodes: &[Cell]) -> (Vec<u32>, Vec<Hop>) {
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
fn reduce_node(
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

/// No node on a cell, in [`NavMap`]'s cell table.
const NO_NODE: u32 = u32::MAX;

/// The links of some nodes in compact form, before they are concatenated.
#[derive(Default)]
struct Chunk {
    /// Links per node, in order.
    counts: Vec<u32>,
    edges: Vec<Edge>,
    action: Vec<u16>,
    /// Encoded tape length per link (bytes).
    tape_lens: Vec<u32>,
    tapes: Vec<u8>,
    /// Per node, the cells its links read ([`crate::links::ReadSets`]).
    reads: ReadSets,
}

impl Chunk {
    /// The chunks one after the other (the one chunk as it is).
    fn concat(mut chunks: Vec<Chunk>) -> Chunk {
        if chunks.len() == 1 {
            return chunks.pop().unwrap_or_default();
        }
        let mut out = Chunk::default();
        for c in chunks {
            out.counts.extend_from_slice(&c.counts);
            out.edges.extend_from_slice(&c.edges);
            out.action.extend_from_slice(&c.action);
            out.tape_lens.extend_from_slice(&c.tape_lens);
            out.tapes.extend_from_slice(&c.tapes);
            out.reads.extend(&c.reads);
        }
        out
    }

    /// Appends one node's links. Generators only end links on standable
    /// cells with tapes of `ticks` inputs; a link that does not (or that
    /// does not fit the compact records) is dropped.
    fn push_node(&mut self, links: Vec<Link>, node_of: impl Fn(Cell) -> Option<u32>) {
        let mut n = 0;
        for l in links {
            let (Some(target), Ok(ticks), Ok(action)) = (
                node_of(l.to),
                u16::try_from(l.ticks),
                u16::try_from(l.action_ticks),
            ) else {
                continue;
            };
            if l.inputs.len() != l.ticks as usize {
                continue;
            }
            let before = self.tapes.len();
            if !tape::encode(&l.inputs, &mut self.tapes) {
                continue;
            }
            self.tape_lens.push((self.tapes.len() - before) as u32);
            self.edges.push(Edge {
                target,
                ticks,
                kind: l.kind,
                jumps: l.jumps,
            });
            self.action.push(action);
            n += 1;
        }
        self.counts.push(n);
    }
}

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
    /// Outcomes of link performances in path replays ([`crate::memo`]).
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
    /// Classifies the level and generates every link kind.
    ///
    /// The work is linear in the level's standing cells: each costs at
    /// most [`LinkOptions::max_steps_per_cell`] steps of the body.
    ///
    /// ```
    /// use platnav::{Cell, Level, NavMap, Physics};
    ///
    /// let level: Level = "..........\n.S..##..G.\n##########".parse()?;
    /// let map = NavMap::build(&level, &Physics::default())?;
    /// assert_eq!(map.node_count(), 8, "every floor cell but the block's two");
    /// // The block is jumped over: links lead from its left to its right.
    /// assert!(map.node(Cell::new(1, 1)).is_some());
    /// assert!(map.link_count() > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`BuildError::Physics`] when `physics` fails [`Physics::validate`].
    pub fn build(level: &Level, physics: &Physics) -> Result<Self, BuildError> {
        Self::build_with(level, physics, &LinkOptions::default())
    }

    /// As [`NavMap::build`], generating only the link kinds `options`
    /// enables, with its jump programs, and reporting to its
    /// [`LinkOptions::progress`].
    ///
    /// # Errors
    /// [`BuildError::Physics`] when `physics` fails [`Physics::validate`];
    /// [`BuildError::Cancelled`] when the progress handle was cancelled
    /// before or during the build.
    pub fn build_with(
        level: &Level,
        physics: &Physics,
        options: &LinkOptions,
    ) -> Result<Self, BuildError> {
        Self::build_cached(level, physics, options, &Arc::new(BuildCache::new()))
    }

    /// As [`NavMap::build_with`], generating links with `cache`: what it
    /// holds from earlier builds (jump templates for this physics, grown
    /// branches, landings) is reused, and what this build learns is kept
    /// there. The map is the same with a cold cache or a warm one; the
    /// build is faster warm. The map keeps `cache` for its edits.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use platnav::{BuildCache, LinkOptions, NavMap, Physics, Level};
    ///
    /// let cache = Arc::new(BuildCache::new());
    /// let physics = Physics::default();
    /// let a: Level = "..........\n.S......G.\n##########".parse()?;
    /// let b: Level = "..........\n.S..#...G.\n##########".parse()?;
    /// let first = NavMap::build_cached(&a, &physics, &LinkOptions::default(), &cache)?;
    /// // The second build reuses the templates the first one made.
    /// let second = NavMap::build_cached(&b, &physics, &LinkOptions::default(), &cache)?;
    /// assert!(cache.memory_bytes() > 0);
    /// assert_eq!(second.link_count(), NavMap::build(&b, &physics)?.link_count());
    /// # drop(first);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`NavMap::build_with`].
    pub fn build_cached(
        level: &Level,
        physics: &Physics,
        options: &LinkOptions,
        cache: &Arc<BuildCache>,
    ) -> Result<Self, BuildError> {
        physics.validate()?;
        let progress = options.progress.as_deref();
        let cancelled = || progress.is_some_and(BuildProgress::is_cancelled);
        if cancelled() {
            return Err(BuildError::Cancelled);
        }
        let classes = Classification::new(level, physics);
        let nodes: Vec<Cell> = classes.standable_cells().collect();
        if let Some(progress) = progress {
            progress.start(nodes.len());
        }
        let node_at = node_table(level, &nodes);
        let node_of = |c: Cell| lookup(&node_at, level.width(), level.height(), c);
        // Each node's links are compacted as soon as they are generated, so
        // the uncompressed links of only a few nodes exist at a time.
        let compact = |range: &[Cell]| {
            let mut chunk = Chunk::default();
            let mut worker = cache.worker();
            for &c in range {
                if cancelled() {
                    break;
                }
                let reads = Reads::new(c);
                let links = links_recorded(
                    level,
                    physics,
                    &classes,
                    c,
                    options,
                    Some(&reads),
                    &mut worker,
                );
                chunk.push_node(links, node_of);
                chunk.reads.push(&reads);
                if let Some(progress) = progress {
                    progress.add(1);
                }
            }
            chunk
        };
        #[cfg(feature = "parallel")]
        let chunks: Vec<Chunk> = {
            use rayon::prelude::*;
            nodes.par_chunks(64).map(compact).collect()
        };
        #[cfg(not(feature = "parallel"))]
        let chunks: Vec<Chunk> = nodes.chunks(64).map(compact).collect();
        if cancelled() {
            return Err(BuildError::Cancelled);
        }
        let options = options.clone().with_progress(None);
        Ok(Self::from_chunks(
            level.clone(),
            physics.clone(),
            classes,
            nodes,
            node_at,
            chunks,
            options,
            Arc::clone(cache),
        ))
    }

    /// A map from already validated links, in any order.
    #[cfg(feature = "serde")]
    pub(crate) fn from_links(
        level: Level,
        physics: Physics,
        classes: Classification,
        nodes: Vec<Cell>,
        links: Vec<Link>,
    ) -> Self {
        let mut per_node: Vec<Vec<Link>> = vec![Vec::new(); nodes.len()];
        let node_at = node_table(&level, &nodes);
        for l in links {
            if let Some(i) = lookup(&node_at, level.width(), level.height(), l.from) {
                per_node[i as usize].push(l);
            }
        }
        Self::assemble(level, physics, classes, nodes, per_node)
    }

    /// A map from each node's links (`per_node[i]` leave `nodes[i]`).
    pub(crate) fn assemble(
        level: Level,
        physics: Physics,
        classes: Classification,
        nodes: Vec<Cell>,
        per_node: Vec<Vec<Link>>,
    ) -> Self {
        let node_at = node_table(&level, &nodes);
        let mut chunk = Chunk::default();
        for group in per_node {
            chunk.push_node(group, |c| {
                lookup(&node_at, level.width(), level.height(), c)
            });
            // What these links read is unknown: the first edit rebuilds
            // every node.
            chunk.reads.push_unknown();
        }
        Self::from_chunks(
            level,
            physics,
            classes,
            nodes,
            node_at,
            vec![chunk],
            LinkOptions::default(),
            Arc::new(BuildCache::new()),
        )
    }

    /// The map of `chunks` (each node's links, in node order), with its
    /// landmark bounds measured.
    #[allow(clippy::too_many_arguments)]
    fn from_chunks(
        level: Level,
        physics: Physics,
        classes: Classification,
        nodes: Vec<Cell>,
        node_at: Vec<u32>,
        chunks: Vec<Chunk>,
        options: LinkOptions,
        cache: Arc<BuildCache>,
    ) -> Self {
        let Chunk {
            counts,
            edges,
            action,
            tape_lens,
            tapes,
            reads,
        } = Chunk::concat(chunks);
        let links = edges.len();
        let mut offsets = Vec::with_capacity(nodes.len() + 1);
        offsets.push(0u32);
        let mut at = 0u32;
        offsets.extend(counts.iter().map(|&n| {
            at += n;
            at
        }));
        let mut at = 0u32;
        let tape_at: Vec<u32> = tape_lens
            .iter()
            .map(|&n| {
                at += n;
                at - n
            })
            .collect();
        debug_assert_eq!(offsets.len(), nodes.len() + 1);
        debug_assert_eq!(reads.len(), nodes.len());
        let landmarks = Landmarks::compute(&offsets, &edges);
        let (hop_at, hops) = reduce(&offsets, &edges, &nodes);
        let ticks_per_col = crate::physics::ticks_per_col(&physics);
        Self {
            level,
            physics,
            classes,
            nodes,
            node_at,
            offsets,
            edges,
            hop_at,
            hops,
            action,
            tape_at,
            tapes,
            tape_garbage: 0,
            landmarks,
            ticks_per_col,
            memo: LinkMemo::new(links),
            labels: crate::graph::pool::ScratchPool::default(),
            reads,
            options,
            generation: 0,
            cache,
        }
    }

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
        Links {
            map: self,
            ids,
            source: source as u32,
        }
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
        Links {
            map: self,
            ids: self.link_range(node),
            source: node.0,
        }
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
            n[e.kind as usize] += 1;
        }
        LinkKind::ALL.map(|k| (k, n[k as usize]))
    }
}

/// Iterator over links of a [`NavMap`] as [`LinkInfo`] values, in id order
/// ([`NavMap::links`], [`NavMap::links_from`]).
#[derive(Debug, Clone)]
pub struct Links<'a> {
    map: &'a NavMap,
    ids: Range<u32>,
    /// The source node of `ids.start` (or a node before it).
    source: u32,
}

impl Iterator for Links<'_> {
    type Item = LinkInfo;

    fn next(&mut self) -> Option<LinkInfo> {
        let id = self.ids.next()?;
        while self.map.offsets[self.source as usize + 1] <= id {
            self.source += 1;
        }
        Some(self.map.info(id, self.source))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.ids.size_hint()
    }
}

impl ExactSizeIterator for Links<'_> {}

impl std::iter::FusedIterator for Links<'_> {}

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
