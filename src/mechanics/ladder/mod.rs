//! Ladders (`PHYSICS.md`, "Ladders"): a tile the body climbs, whose top
//! is a platform. The body's rules are in `body.rs` (step 0 of a tick; the
//! ladder top as a platform is in `contact.rs`), the climb family in
//! `climb.rs`.

mod body;
mod climb;

use body::{Climb, before_tick};

use super::seam::{
    Before, BodyRules, Family, Glyph, KindSpec, Mechanic, Rank, TileRules, TileSpec, node,
};
use super::{LinkKind, NodeType};
use crate::level::{Cell, Level, SplitMix64, Tile};
use crate::physics::{Body, Input, Physics, Tiles};

/// The ladder tile, the node type of ladder cells the agent climbs
/// through, and climbs.
pub(super) const LADDER: Mechanic = Mechanic {
    name: "ladders",
    physics_md: "Ladders",
    tiles: &[TileSpec {
        tile: Tile::LADDER,
        name: "ladder",
        aliases: &[],
        ascii: 'H',
        vglc: &["climbable", "ladder"],
        words: &["ladder", "climb", "climbable", "vine", "rope"],
        qualifier: None,
        rank: Rank {
            layer: 1,
            mark: 3,
            name: 1,
            vglc: 5,
            mask: 5,
        },
        mask: [255, 128, 0],
        colour: [200, 150, 60],
        // Two rails and three rungs.
        glyph: Glyph::Lines(
            &[
                ((0.2, 0.0), (0.2, 1.0)),
                ((0.8, 0.0), (0.8, 1.0)),
                ((0.2, 0.5 / 3.0), (0.8, 0.5 / 3.0)),
                ((0.2, 1.5 / 3.0), (0.8, 1.5 / 3.0)),
                ((0.2, 2.5 / 3.0), (0.8, 2.5 / 3.0)),
            ],
            0.15,
        ),
        standing: None,
        free: Some(NodeType::LADDER),
        overlap: None,
    }],
    nodes: &[node(NodeType::LADDER, "ladder", 'H', [230, 180, 90])],
    families: &[Family {
        kinds: &[KindSpec {
            kind: LinkKind::CLIMB,
            name: "climb",
            letter: 'H',
            colour: [255, 170, 60],
        }],
        applies: |level, _| level.holds(Tile::LADDER),
        programs: climb::programs,
        generate: climb::generate,
    }],
    tile_rules: Some(TileRules { flat_ground: true }),
    decorate: Some(decorate),
};

impl Tile {
    /// A ladder: not solid, climbable (`PHYSICS.md`, "Ladders"). The top
    /// of a ladder whose upper neighbour is not a ladder is a one-way
    /// platform.
    pub const LADDER: Tile = Tile::with_id(6);
}

impl NodeType {
    /// A ladder tile the agent does not stand in: it climbs through it
    /// (levels with ladders).
    pub const LADDER: NodeType = NodeType::with_id(14);
}

impl LinkKind {
    /// Climbing a ladder: up it, down it, or up and off it sideways with a
    /// jump (levels with ladders).
    pub const CLIMB: LinkKind = LinkKind::with_id(6);
}

/// Whether the ladder rules apply to a body seeing `level`: it may hold a
/// ladder.
#[inline]
pub(super) fn active<T: Tiles + ?Sized>(level: &T) -> bool {
    level.holds(Tile::LADDER)
}

/// The ladders' body rules: step 0 (grab, climb, jump off), a climber's
/// jump, and ladder tops as platforms (in the extended steps of
/// `contact.rs`).
pub(super) struct LadderRules;

impl BodyRules for LadderRules {
    const CONTACT: bool = true;

    #[inline]
    fn active<T: Tiles + ?Sized>(level: &T) -> bool {
        active(level)
    }

    #[inline]
    fn before_tick<T: Tiles + ?Sized>(
        body: &mut Body,
        level: &T,
        p: &Physics,
        input: Input,
        pressed: bool,
    ) -> Before {
        match before_tick(body, level, p, input, pressed) {
            Climb::No => Before::Pass,
            Climb::JumpedOff => Before::Jumped,
            Climb::Done => Before::Done,
        }
    }

    #[inline]
    fn starts_jump<T: Tiles + ?Sized>(body: &Body, _: &T) -> bool {
        body.climbing
    }
}

/// Whether `(col, row)` is a ladder top: a ladder whose upper neighbour is
/// not a ladder.
#[inline]
pub(super) fn is_top<T: Tiles + ?Sized>(level: &T, col: i64, row: i64) -> bool {
    level.tile_at(col, row) == Tile::LADDER && level.tile_at(col, row - 1) != Tile::LADDER
}

/// Adds ladders to a generated level: from platform tops down to the
/// ground below (some stop short, hanging over nothing).
fn decorate(level: &mut Level, rng: &mut SplitMix64) {
    let (w, h) = (level.width() as i64, level.height() as i64);
    let at = |level: &Level, c: i64, r: i64| level.tile_at(c, r);
    let set = |level: &mut Level, c: i64, r: i64, t: Tile| {
        level.set(Cell::new(c as i32, r as i32), t);
    };
    // Ladders from platform tops down to the ground below.
    let ladders = 1 + (w * h / 200) as u64;
    for _ in 0..ladders * 8 {
        let (c, r) = (
            rng.below(w as u64) as i64,
            1 + rng.below((h - 2) as u64) as i64,
        );
        let platform = matches!(at(level, c, r), Tile::SOLID | Tile::ONE_WAY)
            && at(level, c, r - 1) == Tile::EMPTY
            && at(level, c, r + 1) == Tile::EMPTY;
        if !platform {
            continue;
        }
        let mut bottom = r + 1;
        while bottom < h && at(level, c, bottom) == Tile::EMPTY {
            bottom += 1;
        }
        // Most reach the ground; some stop short, hanging.
        let end = if rng.chance(0.2) {
            (r + 2).min(bottom)
        } else {
            bottom
        };
        for y in r..end {
            set(level, c, y, Tile::LADDER);
        }
    }
}
