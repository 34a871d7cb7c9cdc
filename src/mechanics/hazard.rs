//! Hazards: tiles that kill a body that overlaps them (`PHYSICS.md`, step
//! 8), which are not solid. Their body rule is part of the base rules'
//! step 8 (`base.rs`, `contact.rs`).

use super::NodeType;
use super::seam::{Glyph, Mechanic, Rank, TileSpec, node};
use crate::level::Tile;

/// The hazard tile, and the node type of cells the agent cannot be in
/// without touching one.
pub(super) const HAZARD: Mechanic = Mechanic {
    name: "hazards",
    physics_md: "One tick, in this order",
    tiles: &[TileSpec {
        tile: Tile::HAZARD,
        name: "hazard",
        aliases: &[],
        ascii: '^',
        vglc: &["hazard", "damaging"],
        words: &[
            "spike", "hazard", "lava", "death", "deadly", "kill", "killer", "damage", "acid",
            "thorn", "saw", "harm", "lethal", "hurt", "danger",
        ],
        qualifier: None,
        rank: Rank {
            layer: 6,
            mark: 10,
            name: 5,
            vglc: 6,
            mask: 4,
        },
        mask: [255, 0, 0],
        colour: [120, 10, 10],
        glyph: Glyph::Fill,
        standing: None,
        free: None,
        overlap: Some(NodeType::DEATH),
    }],
    nodes: &[node(NodeType::DEATH, "death", '^', [230, 0, 0])],
    families: &[],
    tile_rules: None,
    decorate: None,
};

impl Tile {
    /// Kills a body that overlaps it; not solid.
    pub const HAZARD: Tile = Tile::with_id(3);
}

impl NodeType {
    /// The agent's box would overlap a hazard.
    pub const DEATH: NodeType = NodeType::with_id(11);
}
