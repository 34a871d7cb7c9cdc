//! What a cell is to an agent of a given size: [`NodeType`], the
//! classifier's palette. Each mechanic declares the node types it adds
//! (their names, symbols and colours: `seam::NodeSpec`).

/// What a cell is to an agent of a given size.
///
/// A cell is *standable* when a body standing on it (feet on top of the row
/// below, centred in the column; on a slope tile, feet on its surface,
/// [`Body::start`](crate::Body::start)) overlaps no solid or hazard tile and is grounded.
/// Standable cells are sorted by their sides: a side is a *wall* when the
/// neighbouring cell is [`NodeType::BLOCKED`], an *edge* when the
/// neighbour is not standable (a drop), and *open* otherwise.
///
/// Each mechanic declares the node types it adds as constants of this
/// type in its own module (the base rules' [`NodeType::AIR`] to
/// [`NodeType::GOAL`], then [`NodeType::DEATH`], [`NodeType::ONE_WAY`],
/// [`NodeType::LADDER`], [`NodeType::STEEP_RIGHT`],
/// [`NodeType::STEEP_LEFT`] and [`NodeType::LAUNCH`]). A node type's number is its place in
/// [`NodeType::ALL`], the palette order.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct NodeType(u8);

impl NodeType {
    /// The node type numbered `id`: for the mechanics' declarations, which
    /// the registry checks cover `0..NodeType::COUNT` once each.
    pub(crate) const fn with_id(id: u8) -> Self {
        Self(id)
    }

    /// The node type's number, for indexing per-type tables.
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}
