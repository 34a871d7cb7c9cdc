//! A map that answers queries before it is built: each standing cell's
//! links are generated the first time a search needs them, and kept; a
//! background build on the other cores fills in the rest, and the whole
//! becomes a [`NavMap`].
//!
//! [`LazyMap::new`] classifies the level and generates nothing; its
//! search (`LazyMap::find_path`, in `search/lazy.rs`) generates the links
//! of each node it expands. A node's links are exactly those
//! [`NavMap::build`] gives it (the same generator, the same compact
//! records), so a lazy map's paths cost what a full map's do. The parts:
//! this file (the map and its accessors), `store.rs` (the links generated
//! so far, in the order they were), `background.rs` (the background
//! build), `edit.rs` (tile edits), `full.rs` (the map it becomes) and
//! `saved.rs` (links read from a saved map instead of generated).

mod background;
mod edit;
mod full;
mod saved;
mod store;

use std::sync::Arc;

use super::landmarks::Landmarks;
use super::tape::Tape;
use super::{BuildError, Edge, LinkId, NavMap, NodeId, lookup, node_table};
use crate::classify::Classification;
use crate::level::{Cell, Level};
use crate::links::{BuildCache, LinkKind, LinkOptions};
use crate::physics::Physics;
use background::Background;
use store::Store;

#[cfg(feature = "serde")]
pub(crate) use saved::SavedBlocks;

/// What a lazy map shares with its background build (an edit changes
/// the map's own copy).
#[derive(Clone)]
struct Shared {
    level: Level,
    physics: Physics,
    classes: Classification,
    nodes: Vec<Cell>,
    /// Row-major: the node on each cell, or none.
    node_at: Vec<u32>,
    options: LinkOptions,
    cache: Arc<BuildCache>,
    /// The saved map the links are read from, if the map was opened on one.
    source: Option<Arc<saved::Source>>,
}

impl Shared {
    fn node_of(&self, c: Cell) -> Option<u32> {
        lookup(&self.node_at, self.level.width(), self.level.height(), c)
    }
}

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
/// // The rest, built, is the full map.
/// assert_eq!(lazy.into_map()?.link_count(), full.link_count());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct LazyMap {
    shared: Arc<Shared>,
    store: Store,
    /// The landmark table saved with the map it was opened on, while it
    /// agrees with every link taken in (`saved.rs`).
    bounds: Option<Landmarks>,
    background: Option<Background>,
    ticks_per_col: f64,
    /// Counts the edits that changed the map.
    generation: u64,
}

impl std::fmt::Debug for LazyMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LazyMap")
            .field("width", &self.shared.level.width())
            .field("height", &self.shared.level.height())
            .field("nodes", &self.shared.nodes.len())
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

    /// As [`LazyMap::new`], generating links with `options`, whose
    /// progress handle counts and cancels the background build
    /// ([`LazyMap::build_in_background`]).
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
        let store = Store::new(nodes.len());
        Ok(Self {
            shared: Arc::new(Shared {
                level: level.clone(),
                physics: physics.clone(),
                classes,
                nodes,
                node_at,
                options: options.clone(),
                cache: Arc::new(BuildCache::new()),
                source: None,
            }),
            store,
            bounds: None,
            background: None,
            ticks_per_col: crate::physics::ticks_per_col(physics),
            generation: 0,
        })
    }

    /// The level.
    #[must_use]
    pub fn level(&self) -> &Level {
        &self.shared.level
    }

    /// The physics profile.
    #[must_use]
    pub fn physics(&self) -> &Physics {
        &self.shared.physics
    }

    /// The node standing on `cell`, if it is standable.
    #[must_use]
    pub fn node(&self, cell: Cell) -> Option<NodeId> {
        self.shared.node_of(cell).map(NodeId)
    }

    /// The cell of a node.
    ///
    /// # Panics
    /// If `node` is not one of this map's.
    #[must_use]
    pub fn cell(&self, node: NodeId) -> Cell {
        self.shared.nodes[node.0 as usize]
    }

    /// Standing cells: every node, built or not.
    #[must_use]
    pub fn node_count(&self) -> usize {
        self.shared.nodes.len()
    }

    /// How many edits have changed the map.
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Nodes whose links have been generated (and taken in from the
    /// background build).
    #[must_use]
    pub fn built_count(&self) -> usize {
        self.store.built()
    }

    /// Links generated so far.
    #[must_use]
    pub fn link_count(&self) -> usize {
        self.store.link_count()
    }

    /// Heap bytes held by the generated links, their read sets, the node
    /// tables and a saved landmark table.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.store.bytes()
            + self.bounds.as_ref().map_or(0, Landmarks::bytes)
            + self.shared.node_at.capacity() * 4
            + self.shared.nodes.capacity() * size_of::<Cell>()
    }

    /// Whether `node`'s links have been generated.
    ///
    /// # Panics
    /// If a node is not one of this map's.
    #[must_use]
    pub fn is_built(&self, node: NodeId) -> bool {
        self.store.is_built(node.0)
    }

    /// Generates `node`'s links unless they already are, after taking in
    /// what the background build has finished.
    ///
    /// # Panics
    /// If a node is not one of this map's.
    pub fn build_node(&mut self, node: NodeId) {
        self.absorb();
        self.read_saved(&[node.0]);
        if !self.store.is_built(node.0) {
            self.store.build(&self.shared, node.0);
            self.check_bounds(&[node.0]);
        }
    }

    /// Generates the links of those of `nodes` not built yet, one node a
    /// task on every core the build uses (all at once is faster than one
    /// after the other when there are cores to spare).
    ///
    /// # Panics
    /// If a node is not one of this map's.
    pub fn build_nodes(&mut self, nodes: &[NodeId]) {
        self.absorb();
        let asked: Vec<u32> = nodes.iter().map(|n| n.0).collect();
        self.read_saved(&asked);
        let mut todo: Vec<u32> = asked
            .into_iter()
            .filter(|&v| !self.store.is_built(v))
            .collect();
        todo.sort_unstable();
        todo.dedup();
        for (nodes, chunk) in store::generate_nodes(&self.shared, &todo, 1, &|| false) {
            self.take_in(&nodes, &chunk);
        }
    }

    /// How many nodes [`LazyMap::build_nodes`] builds at once: the build's
    /// threads.
    pub(crate) fn build_width() -> usize {
        #[cfg(feature = "parallel")]
        {
            rayon::current_num_threads()
        }
        #[cfg(not(feature = "parallel"))]
        {
            1
        }
    }

    /// The ids of the links leaving `node`, in the order a built map holds
    /// them (none until it is built: see [`LazyMap::build_node`]).
    ///
    /// # Panics
    /// If `node` is not one of this map's.
    pub fn link_ids_from(&self, node: NodeId) -> impl ExactSizeIterator<Item = LinkId> + use<> {
        self.store.link_ids(node.0).map(LinkId)
    }

    /// The raw ids of `node`'s links (none until it is built).
    pub(crate) fn link_ids(&self, node: u32) -> std::ops::Range<u32> {
        self.store.link_ids(node)
    }

    /// A generated link's search record.
    pub(crate) fn edge(&self, id: LinkId) -> Edge {
        self.store.edge(id.0)
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
        self.store.tape(id.0)
    }

    /// The search's bound per column crossed.
    pub(crate) fn ticks_per_col(&self) -> f64 {
        self.ticks_per_col
    }

    /// Starts building every node in the background, on all cores but
    /// one (at least one thread), reporting to the options' progress
    /// handle, which also cancels it. Queries go on meanwhile and take in
    /// what it has finished; [`LazyMap::into_map`] waits for it. Calling
    /// it again while it runs does nothing.
    pub fn build_in_background(&mut self) {
        if self.background.is_none() {
            self.background = Some(Background::start(&self.shared));
        }
    }

    /// Takes in the nodes the background build has finished; returns how
    /// many were new.
    pub fn absorb(&mut self) -> usize {
        let Some(bg) = &self.background else {
            return 0;
        };
        let mut added = 0;
        let mut done = Vec::new();
        while let Some(d) = bg.try_next() {
            done.push(d);
        }
        for (nodes, chunk) in done {
            added += self.take_in(&nodes, &chunk);
        }
        added
    }

    /// Waits for the background build, if one runs, and takes in
    /// everything it built: then the map [`is_complete`](Self::is_complete)
    /// unless the build was cancelled.
    pub fn wait_for_background(&mut self) {
        if let Some(bg) = self.background.take() {
            for (nodes, chunk) in bg.finish() {
                self.take_in(&nodes, &chunk);
            }
        }
    }

    /// Whether every node's links have been generated.
    #[must_use]
    pub fn is_complete(&self) -> bool {
        self.store.built() == self.shared.nodes.len()
    }

    /// The built map: every node not yet built is built (on every core the
    /// build uses, after the background build, if one runs, has finished),
    /// and the links are assembled with their landmark bounds measured.
    /// The map equals [`NavMap::build_with`]'s for the same level,
    /// physics and options.
    ///
    /// # Errors
    /// [`BuildError::Cancelled`] when the options' progress handle was
    /// cancelled.
    pub fn into_map(mut self) -> Result<NavMap, BuildError> {
        self.wait_for_background();
        self.read_all_saved();
        full::into_map(self.shared, self.store)
    }
}
