//! Node and link ids: plain indices into a map's arrays.

#[cfg(doc)]
use super::NavMap;

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
