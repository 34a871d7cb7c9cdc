//! A map that answers queries before it is built: each standing cell's
//! links are generated the first time a search needs them, and kept.
//!
//! [`LazyMap::new`] classifies the level and generates nothing; its
//! search (`LazyMap::find_path`, in `search/lazy.rs`) generates the links
//! of each node it expands. A node's links are exactly those
//! [`NavMap::build`](crate::NavMap::build) gives it (the same generator,
//! the same compact records), so a lazy map's paths cost what a full
//! map's do.

use std::sync::Arc;

use super::chunk::Chunk;
use super::tape::Tape;
use super::{Edge, LinkId, NodeId, lookup, node_table};
use crate::classify::Classification;
use crate::level::{Cell, Level};
use crate::links::{BuildCache, LinkKind, LinkOptions, links_from};
use crate::physics::Physics;

use super::BuildError;

/// A node whose links were not generated yet, in `LazyMap::first`.
const UNBUILT: u32 = u32::MAX;

/// A navigation map whose links are generated on demand (see the module
/// docs).
///
/// ```
/// use platnav::{Cell, LazyMap, Level, NavMap, Physics, SearchOptions, find_path};
///
/// let level: Level = "..........\n..........\n.S..##..G.\n##########".parse()?;
/// let physics = Physics::default();
/// let mut lazy = LazyMap::new(&level, &physics)?;
/// assert_eq!(lazy.built_count(), 0, "nothing is generated up front");
/// let opts = SearchOptions::default();
/// let path = lazy.find_path(Cell::new(1, 2), Cell::new(8, 2), &opts)?;
/// // The same cost as on the full map.
/// let full = NavMap::build(&level, &physics)?;
/// assert_eq!(path.ticks(), find_path(&full, Cell::new(1, 2), Cell::new(8, 2), &opts)?.ticks());
/// assert!(lazy.built_count() > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct LazyMap {
    level: Level,
    physics: Physics,
    classes: Classification,
    nodes: Vec<Cell>,
    /// Row-major: the node on each cell, or none.
    node_at: Vec<u32>,
    options: LinkOptions,
    cache: Arc<BuildCache>,
    /// Per node, the id of its first link, or [`UNBUILT`].
    first: Vec<u32>,
    /// Per node, how many links it has (0 until built).
    count: Vec<u32>,
    /// The generated links, node after node in the order they were built.
    links: Chunk,
    /// Where each link's tape starts in `links.tapes`.
    tape_at: Vec<u32>,
    ticks_per_col: f64,
}

impl std::fmt::Debug for LazyMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LazyMap")
            .field("width", &self.level.width())
            .field("height", &self.level.height())
            .field("nodes", &self.nodes.len())
            .field("built", &self.built_count())
            .field("links", &self.link_count())
            .finish_non_exhaustive()
    }
}

impl LazyMap {
    /// Classifies the level for `physics`; no link is generated yet.
    ///
    /// # Errors
    /// [`BuildError::Physics`] when `physics` fails [`Physics::validate`].
    pub fn new(level: &Level, physics: &Physics) -> Result<Self, BuildError> {
        Self::with_options(level, physics, &LinkOptions::default())
    }

    /// As [`LazyMap::new`], generating links with `options` (its progress
    /// handle is not used: nothing is built up front).
    ///
    /// # Errors
    /// As [`LazyMap::new`].
    pub fn with_options(
        level: &Level,
        physics: &Physics,
        options: &LinkOptions,
    ) -> Result<Self, BuildError> {
        physics.validate()?;
        let classes = Classification::new(level, physics);
        let nodes: Vec<Cell> = classes.standable_cells().collect();
        let node_at = node_table(level, &nodes);
        let n = nodes.len();
        Ok(Self {
            level: level.clone(),
            physics: physics.clone(),
            classes,
            nodes,
            node_at,
            options: options.clone().with_progress(None),
            cache: Arc::new(BuildCache::new()),
            first: vec![UNBUILT; n],
            count: vec![0; n],
            links: Chunk::default(),
            tape_at: Vec::new(),
            ticks_per_col: crate::physics::ticks_per_col(physics),
        })
    }

    /// The level.
    #[must_use]
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// The physics profile.
    #[must_use]
    pub fn physics(&self) -> &Physics {
        &self.physics
    }

    /// The node standing on `cell`, if it is standable.
    #[must_use]
    pub fn node(&self, cell: Cell) -> Option<NodeId> {
        lookup(&self.node_at, self.level.width(), self.level.height(), cell).map(NodeId)
    }

    /// The cell of a node.
    ///
    /// # Panics
    /// If `node` is not one of this map's.
    #[must_use]
    pub fn cell(&self, node: NodeId) -> Cell {
        self.nodes[node.0 as usize]
    }

    /// Standing cells: every node, built or not.
    #[must_use]
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Nodes whose links have been generated.
    #[must_use]
    pub fn built_count(&self) -> usize {
        self.first.iter().filter(|&&f| f != UNBUILT).count()
    }

    /// Links generated so far.
    #[must_use]
    pub fn link_count(&self) -> usize {
        self.links.edges.len()
    }

    /// Heap bytes held by the generated links and the node tables.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.links.edges.capacity() * size_of::<Edge>()
            + self.links.tapes.capacity()
            + self.tape_at.capacity() * 4
            + (self.first.capacity() + self.count.capacity() + self.node_at.capacity()) * 4
            + self.nodes.capacity() * size_of::<Cell>()
    }

    /// Whether `node`'s links have been generated.
    #[must_use]
    pub fn is_built(&self, node: NodeId) -> bool {
        self.first[node.0 as usize] != UNBUILT
    }

    /// Generates `node`'s links unless they already are.
    pub fn build_node(&mut self, node: NodeId) {
        let n = node.0 as usize;
        if self.first[n] != UNBUILT {
            return;
        }
        let links = {
            let mut worker = self.cache.worker();
            links_from(
                &self.level,
                &self.physics,
                &self.classes,
                self.nodes[n],
                &self.options,
                &mut worker,
            )
        };
        let (first, tapes_before) = (self.links.edges.len(), self.links.tape_lens.len());
        let (node_at, w, h) = (&self.node_at, self.level.width(), self.level.height());
        self.links.push_node(links, |c| lookup(node_at, w, h, c));
        let mut at = self.links.tapes.len() as u32;
        let lens = &self.links.tape_lens[tapes_before..];
        at -= lens.iter().sum::<u32>();
        for &len in lens {
            self.tape_at.push(at);
            at += len;
        }
        self.first[n] = first as u32;
        self.count[n] = (self.links.edges.len() - first) as u32;
    }

    /// The ids of the links leaving `node`, in the order a built map
    /// holds them (none until it is built: see [`LazyMap::build_node`]).
    pub fn link_ids_from(&self, node: NodeId) -> impl ExactSizeIterator<Item = LinkId> + use<> {
        self.link_ids(node.0).map(LinkId)
    }

    /// The raw ids of `node`'s links (none until it is built).
    pub(crate) fn link_ids(&self, node: u32) -> std::ops::Range<u32> {
        let first = self.first[node as usize];
        if first == UNBUILT {
            return 0..0;
        }
        first..first + self.count[node as usize]
    }

    /// A generated link's search record.
    pub(crate) fn edge(&self, id: LinkId) -> Edge {
        self.links.edges[id.0 as usize]
    }

    /// A generated link's kind.
    #[must_use]
    pub fn kind(&self, id: LinkId) -> LinkKind {
        self.edge(id).kind
    }

    /// A generated link's target node.
    #[must_use]
    pub fn target(&self, id: LinkId) -> NodeId {
        NodeId(self.edge(id).target)
    }

    /// A generated link's duration in ticks.
    #[must_use]
    pub fn ticks(&self, id: LinkId) -> u32 {
        u32::from(self.edge(id).ticks)
    }

    /// A generated link's per-tick inputs, performed from standing on its
    /// source cell.
    #[must_use]
    pub fn inputs(&self, id: LinkId) -> Tape<'_> {
        let at = self.tape_at[id.0 as usize] as usize;
        Tape::new(&self.links.tapes[at..], usize::from(self.edge(id).ticks))
    }

    /// The search's bound per column crossed.
    pub(crate) fn ticks_per_col(&self) -> f64 {
        self.ticks_per_col
    }
}
