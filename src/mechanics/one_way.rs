//! One-way platforms: solid only for a body landing on their top, passed
//! from below and dropped through with `down` held (`PHYSICS.md`, steps 6
//! and 7, whose rules for them are the base rules'); and drop links, which
//! fall through the platform under the feet.
//!
//! Drop programs hold `down` for the first two ticks (with `move = d`),
//! then steer: keep `d`, or after `k` ticks switch to idle or `-d` (for
//! `d = 0`, to -1 or +1).

use super::seam::{
    Driver, Family, Glyph, KindSpec, Mechanic, Rank, TileSpec, node, steered_each_way,
};
use super::{LinkKind, NodeType};
use crate::level::{Cell, Tile};
use crate::physics::{Input, Physics};

/// The one-way tile, the node type of cells standing on one, and drops.
pub(super) const ONE_WAY: Mechanic = Mechanic {
    name: "one-way platforms",
    physics_md: "One tick, in this order",
    tiles: &[TileSpec {
        tile: Tile::ONE_WAY,
        name: "one_way",
        aliases: &["one-way", "oneway"],
        ascii: '=',
        vglc: &["solidtop"],
        words: &[
            "platform",
            "oneway",
            "jumpthrough",
            "jumpthru",
            "semisolid",
            "passthrough",
            "ledge",
            "unisolid",
            "shelf",
        ],
        qualifier: None,
        rank: Rank {
            layer: 7,
            mark: 4,
            name: 4,
            vglc: 7,
            mask: 6,
        },
        mask: [0, 0, 255],
        colour: [160, 130, 90],
        glyph: Glyph::Fill,
        standing: None,
        free: None,
        overlap: None,
    }],
    nodes: &[node(NodeType::ONE_WAY, "one_way", '=', [170, 255, 0])],
    families: &[Family {
        kinds: &[KindSpec {
            kind: LinkKind::DROP,
            name: "drop",
            letter: 'v',
            colour: [200, 140, 255],
        }],
        // Every cell looks at the tile under it (an edit that puts a
        // one-way tile there rebuilds the cell).
        applies: |_, _| true,
        programs,
        generate,
    }],
    tile_rules: None,
    decorate: None,
};

impl Tile {
    /// Solid only for a body landing on its top; passable from below and
    /// when dropping through with `down` held.
    pub const ONE_WAY: Tile = Tile::with_id(2);
}

impl NodeType {
    /// Standable on a one-way platform.
    pub const ONE_WAY: NodeType = NodeType::with_id(12);
}

impl LinkKind {
    /// Dropping through a one-way platform.
    pub const DROP: LinkKind = LinkKind::with_id(5);
}

/// Ticks after which the steering switches.
const SWITCH_TICKS: [usize; 5] = [4, 8, 12, 18, 26];

fn programs(_: &Physics) -> usize {
    3 * (SWITCH_TICKS.len() * 2 + 1)
}

fn generate(drive: &mut dyn Driver) {
    let from = drive.from();
    if drive.tile(Cell::new(from.col, from.row + 1)) != Some(Tile::ONE_WAY) {
        return;
    }
    steered_each_way(drive, LinkKind::DROP, &SWITCH_TICKS, &|mv, t| {
        Input::new(mv, false, t < 2)
    });
}
