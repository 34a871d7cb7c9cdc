//! The navigation map: standing cells as nodes, links as edges, stored as
//! `Vec` arenas with links sorted by source and an offset table.

use std::ops::Range;

use crate::classify::{Classification, NodeType};
use crate::level::{Cell, Level};
use crate::links::{Link, LinkKind, LinkOptions, links_from};
use crate::physics::{Physics, PhysicsError};

/// Index of a node (a standable cell) in a [`NavMap`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

/// Index of a link in a [`NavMap`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct LinkId(pub u32);

/// A level's navigation map for one physics profile.
#[derive(Debug, Clone)]
pub struct NavMap {
    level: Level,
    physics: Physics,
    classes: Classification,
    nodes: Vec<Cell>,
    node_at: Vec<Option<NodeId>>,
    links: Vec<Link>,
    targets: Vec<NodeId>,
    offsets: Vec<u32>,
}

impl NavMap {
    /// Classifies the level and generates every link kind.
    ///
    /// # Errors
    /// [`PhysicsError`] when `physics` fails [`Physics::validate`].
    pub fn build(level: &Level, physics: &Physics) -> Result<Self, PhysicsError> {
        Self::build_with(level, physics, &LinkOptions::default())
    }

    /// As [`NavMap::build`], generating only the link kinds `options` enables.
    ///
    /// # Errors
    /// [`PhysicsError`] when `physics` fails [`Physics::validate`].
    pub fn build_with(
        level: &Level,
        physics: &Physics,
        options: &LinkOptions,
    ) -> Result<Self, PhysicsError> {
        physics.validate()?;
        let classes = Classification::new(level, physics);
        let nodes: Vec<Cell> = classes.standable_cells().collect();
        #[cfg(feature = "parallel")]
        let per_node: Vec<Vec<Link>> = {
            use rayon::prelude::*;
            nodes
                .par_iter()
                .map(|&c| links_from(level, physics, &classes, c, options))
                .collect()
        };
        #[cfg(not(feature = "parallel"))]
        let per_node: Vec<Vec<Link>> = nodes
            .iter()
            .map(|&c| links_from(level, physics, &classes, c, options))
            .collect();
        Ok(Self::assemble(
            level.clone(),
            physics.clone(),
            classes,
            nodes,
            per_node,
        ))
    }

    /// A map from already validated links, in any order.
    pub(crate) fn from_links(
        level: Level,
        physics: Physics,
        classes: Classification,
        nodes: Vec<Cell>,
        links: Vec<Link>,
    ) -> Self {
        let mut per_node: Vec<Vec<Link>> = vec![Vec::new(); nodes.len()];
        let index: std::collections::HashMap<Cell, usize> =
            nodes.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        for l in links {
            if let Some(&i) = index.get(&l.from) {
                per_node[i].push(l);
            }
        }
        Self::assemble(level, physics, classes, nodes, per_node)
    }

    pub(crate) fn assemble(
        level: Level,
        physics: Physics,
        classes: Classification,
        nodes: Vec<Cell>,
        per_node: Vec<Vec<Link>>,
    ) -> Self {
        let mut node_at = vec![None; level.width() * level.height()];
        for (i, c) in nodes.iter().enumerate() {
            node_at[c.row as usize * level.width() + c.col as usize] = Some(NodeId(i as u32));
        }
        let width = level.width();
        let node_of = |c: Cell| {
            (c.col >= 0 && c.row >= 0 && (c.col as usize) < width)
                .then(|| {
                    node_at
                        .get(c.row as usize * width + c.col as usize)
                        .copied()
                        .flatten()
                })
                .flatten()
        };
        let mut offsets = Vec::with_capacity(nodes.len() + 1);
        let mut links = Vec::new();
        let mut targets = Vec::new();
        offsets.push(0);
        for group in per_node {
            // Generators only end links on standable cells; anything else is dropped.
            for l in group {
                if let Some(t) = node_of(l.to) {
                    targets.push(t);
                    links.push(l);
                }
            }
            offsets.push(links.len() as u32);
        }
        Self {
            level,
            physics,
            classes,
            nodes,
            node_at,
            links,
            targets,
            offsets,
        }
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
        self.links.len()
    }

    /// The node standing on `cell`, if the cell is standable.
    #[must_use]
    pub fn node(&self, cell: Cell) -> Option<NodeId> {
        if !self.level.contains(cell) {
            return None;
        }
        self.node_at[cell.row as usize * self.level.width() + cell.col as usize]
    }

    /// The cell of a node.
    #[must_use]
    pub fn cell(&self, node: NodeId) -> Cell {
        self.nodes[node.0 as usize]
    }

    /// Every node's cell, indexed by [`NodeId`].
    #[must_use]
    pub fn nodes(&self) -> &[Cell] {
        &self.nodes
    }

    /// Every link, sorted by source node, indexed by [`LinkId`].
    #[must_use]
    pub fn links(&self) -> &[Link] {
        &self.links
    }

    /// One link.
    #[must_use]
    pub fn link(&self, id: LinkId) -> &Link {
        &self.links[id.0 as usize]
    }

    /// The node a link ends on.
    #[must_use]
    pub fn target(&self, id: LinkId) -> NodeId {
        self.targets[id.0 as usize]
    }

    /// The ids of the links leaving `node`.
    #[must_use]
    pub fn link_ids_from(&self, node: NodeId) -> Range<u32> {
        self.offsets[node.0 as usize]..self.offsets[node.0 as usize + 1]
    }

    /// The links leaving `node`.
    #[must_use]
    pub fn links_from(&self, node: NodeId) -> &[Link] {
        let r = self.link_ids_from(node);
        &self.links[r.start as usize..r.end as usize]
    }

    /// Bytes the map holds on the heap (its level, node types, nodes, links
    /// with their tapes and sweeps, and the offset tables), counted from the
    /// vectors' capacities.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        let cells = self.level.width() * self.level.height();
        let links: usize = self
            .links
            .iter()
            .map(|l| {
                size_of::<Link>()
                    + l.inputs.capacity() * size_of::<crate::physics::Input>()
                    + l.sweep.capacity() * size_of::<Cell>()
            })
            .sum();
        cells * (size_of::<crate::level::Tile>() + size_of::<NodeType>() + size_of::<bool>())
            + self.node_at.capacity() * size_of::<Option<NodeId>>()
            + self.nodes.capacity() * size_of::<Cell>()
            + self.targets.capacity() * size_of::<NodeId>()
            + self.offsets.capacity() * size_of::<u32>()
            + links
    }

    /// Link counts per kind, in [`LinkKind::ALL`] order.
    #[must_use]
    pub fn link_counts(&self) -> [(LinkKind, usize); 6] {
        LinkKind::ALL.map(|k| (k, self.links.iter().filter(|l| l.kind == k).count()))
    }

    /// Least ticks from `start` to every node over the map's links
    /// (plain Dijkstra; `None` where unreachable). The oracle for the search.
    #[must_use]
    pub fn dijkstra(&self, start: NodeId) -> Vec<Option<u32>> {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let mut dist: Vec<Option<u32>> = vec![None; self.nodes.len()];
        let mut heap = BinaryHeap::new();
        dist[start.0 as usize] = Some(0);
        heap.push(Reverse((0u32, start.0)));
        while let Some(Reverse((d, n))) = heap.pop() {
            if dist[n as usize].is_some_and(|best| d > best) {
                continue;
            }
            for id in self.link_ids_from(NodeId(n)) {
                let t = self.targets[id as usize].0 as usize;
                let nd = d + self.links[id as usize].ticks;
                if dist[t].is_none_or(|best| nd < best) {
                    dist[t] = Some(nd);
                    heap.push(Reverse((nd, t as u32)));
                }
            }
        }
        dist
    }
}
