//! What a cell is to an agent of a given size: [`NodeType`], the
//! classifier's palette. Each mechanic declares the node types it adds
//! (their names, symbols and colours: `seam::NodeSpec`).

/// What a cell is to an agent of a given size.
///
/// A cell is *standable* when a body standing on it (feet on top of the row
/// below, centred in the column; on a slope tile, feet on its surface,
/// [`Body::start`](crate::Body::start)) overlaps no solid or hazard tile and is grounded.
/// Standable cells are sorted by their sides: a side is a *wall* when the
/// neighbouring cell is [`NodeType::Blocked`], an *edge* when the
/// neighbour is not standable (a drop), and *open* otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum NodeType {
    /// Free space the agent fits in, nothing to stand on.
    Air,
    /// The agent's box would overlap a solid tile.
    Blocked,
    /// Standable, both sides open.
    Platform,
    /// Standable, a drop on the left, open on the right.
    LeftEdge,
    /// Standable, open on the left, a drop on the right.
    RightEdge,
    /// Standable with drops (or walls) on both sides.
    Solo,
    /// Standable, a wall on the left, open on the right.
    LeftWall,
    /// Standable, open on the left, a wall on the right.
    RightWall,
    /// Standable, a wall on the left and a drop on the right.
    LeftWallEdge,
    /// Standable, a drop on the left and a wall on the right.
    RightWallEdge,
    /// Free space with a solid ceiling within one tile above the agent's head.
    Roof,
    /// The agent's box would overlap a hazard.
    Death,
    /// Standable on a one-way platform.
    OneWay,
    /// A goal marker the agent fits in (standable or not).
    Goal,
    /// A ladder tile the agent does not stand in: it climbs through it
    /// (levels with ladders).
    Ladder,
    /// Standable on a slope tile rising to the right (`/`): the feet on its
    /// surface at the column's middle (levels with slopes).
    SteepRight,
    /// Standable on a slope tile rising to the left (`\`).
    SteepLeft,
}

impl NodeType {
    /// Every node type, in palette order.
    pub const ALL: [NodeType; 17] = [
        NodeType::Air,
        NodeType::Blocked,
        NodeType::Platform,
        NodeType::LeftEdge,
        NodeType::RightEdge,
        NodeType::Solo,
        NodeType::LeftWall,
        NodeType::RightWall,
        NodeType::LeftWallEdge,
        NodeType::RightWallEdge,
        NodeType::Roof,
        NodeType::Death,
        NodeType::OneWay,
        NodeType::Goal,
        NodeType::Ladder,
        NodeType::SteepRight,
        NodeType::SteepLeft,
    ];
}
