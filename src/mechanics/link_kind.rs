//! The kinds of link: [`LinkKind`]. Each link family declares the kinds
//! its links are (their names, letters and colours: `seam::KindSpec`).

/// The kinds of link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum LinkKind {
    /// Running along the ground.
    Run,
    /// Walking off an edge, with air control.
    Fall,
    /// A ground jump.
    Jump,
    /// A ground jump followed by an air jump.
    DoubleJump,
    /// A jump with one or more wall jumps.
    WallJump,
    /// Dropping through a one-way platform.
    Drop,
    /// Climbing a ladder: up it, down it, or up and off it sideways with a
    /// jump (levels with ladders).
    Climb,
}

impl LinkKind {
    /// Every kind, in order.
    pub const ALL: [LinkKind; 7] = [
        LinkKind::Run,
        LinkKind::Fall,
        LinkKind::Jump,
        LinkKind::DoubleJump,
        LinkKind::WallJump,
        LinkKind::Drop,
        LinkKind::Climb,
    ];
}
