//! Slopes (`PHYSICS.md`, "Slopes"): 45° tiles whose diagonal surface the
//! feet walk on. The geometry (a slope's line, the slopes under the feet,
//! the tiles a body on a slope passes through) is in `geometry.rs`; the
//! steps that use it are the extended ones (`contact.rs`).

mod geometry;

pub(super) use geometry::{Ghosts, Slope, surfaces};

use super::NodeType;
use super::seam::{BodyRules, Glyph, Mechanic, Rank, TileRules, TileSpec, node};
use crate::level::{Cell, Level, SplitMix64, Tile};
use crate::physics::{Body, Tiles};

/// The words that name a slope (with its side: `slope_right`, `RampLeft`).
const WORDS: &[&str] = &["slope", "ramp", "incline"];

/// The two slope tiles, and the node types of cells standing on them.
pub(super) const SLOPE: Mechanic = Mechanic {
    name: "slopes",
    physics_md: "Slopes",
    tiles: &[
        TileSpec {
            tile: Tile::SLOPE_RIGHT,
            name: "slope_right",
            aliases: &["slope-right"],
            ascii: '/',
            vglc: &["slope_right"],
            words: WORDS,
            qualifier: Some("right"),
            rank: Rank {
                layer: 9,
                mark: 9,
                name: 3,
                vglc: 4,
                mask: 8,
            },
            mask: [255, 0, 255],
            colour: [132, 124, 150],
            glyph: Glyph::Triangle([(0.0, 1.0), (1.0, 0.0), (1.0, 1.0)]),
            standing: Some(NodeType::STEEP_RIGHT),
            free: None,
            overlap: None,
        },
        TileSpec {
            tile: Tile::SLOPE_LEFT,
            name: "slope_left",
            aliases: &["slope-left"],
            ascii: '\\',
            vglc: &["slope_left"],
            words: WORDS,
            qualifier: Some("left"),
            rank: Rank {
                layer: 8,
                mark: 8,
                name: 3,
                vglc: 3,
                mask: 7,
            },
            mask: [0, 255, 255],
            colour: [150, 124, 132],
            glyph: Glyph::Triangle([(0.0, 0.0), (1.0, 1.0), (0.0, 1.0)]),
            standing: Some(NodeType::STEEP_LEFT),
            free: None,
            overlap: None,
        },
    ],
    nodes: &[
        node(NodeType::STEEP_RIGHT, "steep_right", '/', [120, 200, 200]),
        node(NodeType::STEEP_LEFT, "steep_left", '\\', [90, 150, 210]),
    ],
    families: &[],
    tile_rules: Some(TileRules { flat_ground: false }),
    decorate: Some(decorate),
};

impl Tile {
    /// A 45° slope rising to the right (`/`): solid below the diagonal
    /// from its bottom-left to its top-right corner (`PHYSICS.md`,
    /// "Slopes").
    pub const SLOPE_RIGHT: Tile = Tile::with_id(7);

    /// A 45° slope rising to the left (`\`): solid below the diagonal
    /// from its top-left to its bottom-right corner.
    pub const SLOPE_LEFT: Tile = Tile::with_id(8);

    /// True for the two slope tiles.
    #[must_use]
    pub const fn is_slope(self) -> bool {
        self.index() == Tile::SLOPE_RIGHT.index() || self.index() == Tile::SLOPE_LEFT.index()
    }
}

impl NodeType {
    /// Standable on a slope tile rising to the right (`/`): the feet on its
    /// surface at the column's middle (levels with slopes).
    pub const STEEP_RIGHT: NodeType = NodeType::with_id(15);

    /// Standable on a slope tile rising to the left (`\`).
    pub const STEEP_LEFT: NodeType = NodeType::with_id(16);
}

/// Whether the slope rules apply to a body seeing `level`: it may hold a
/// slope.
#[inline]
pub(super) fn active<T: Tiles + ?Sized>(level: &T) -> bool {
    level.holds(Tile::SLOPE_RIGHT) || level.holds(Tile::SLOPE_LEFT)
}

/// The slopes' body rules: a link from a slope tile starts with the feet
/// on its surface, and slopes change what stops and holds the body (their
/// contacts are the extended steps of `contact.rs`).
pub(super) struct SlopeRules;

impl BodyRules for SlopeRules {
    const CONTACT: bool = true;

    #[inline]
    fn active<T: Tiles + ?Sized>(level: &T) -> bool {
        active(level)
    }

    #[inline]
    fn start<T: Tiles + ?Sized>(body: &mut Body, level: &T, cell: Cell) {
        if let Some(y) = standing_y(level, cell) {
            body.y = y;
        }
    }
}

/// Where the feet of a body standing on `cell` are (`PHYSICS.md`, "Link
/// generation bounds"): on a slope tile, on its surface at the column's
/// middle (`y = row + 0.5`); `None` on any other tile (on top of the row
/// below).
pub(super) fn standing_y<T: Tiles + ?Sized>(level: &T, cell: Cell) -> Option<f64> {
    let (col, row) = (i64::from(cell.col), i64::from(cell.row));
    Slope::of(level.tile_at(col, row), col, row).map(|s| s.line(f64::from(cell.col) + 0.5))
}

/// Adds slopes to a generated level: in front of one-tile steps, as small
/// hills on the ground, and at platform ends down to their edge.
fn decorate(level: &mut Level, rng: &mut SplitMix64) {
    let (w, h) = (level.width() as i64, level.height() as i64);
    let at = |level: &Level, c: i64, r: i64| level.tile_at(c, r);
    let set = |level: &mut Level, c: i64, r: i64, t: Tile| {
        level.set(Cell::new(c as i32, r as i32), t);
    };
    // Slopes up to one-tile steps, and hills on the ground.
    for r in 1..h - 1 {
        for c in 0..w {
            let here = at(level, c, r) == Tile::EMPTY
                && at(level, c, r + 1) == Tile::SOLID
                && at(level, c, r - 1) == Tile::EMPTY;
            if !here {
                continue;
            }
            let step = |dc: i64| {
                at(level, c + dc, r) == Tile::SOLID && at(level, c + dc, r - 1) != Tile::SOLID
            };
            if step(1) && rng.chance(0.6) {
                set(level, c, r, Tile::SLOPE_RIGHT);
            } else if step(-1) && rng.chance(0.6) {
                set(level, c, r, Tile::SLOPE_LEFT);
            } else if c + 1 < w
                && at(level, c + 1, r) == Tile::EMPTY
                && at(level, c + 1, r + 1) == Tile::SOLID
                && rng.chance(0.04)
            {
                set(level, c, r, Tile::SLOPE_RIGHT);
                set(level, c + 1, r, Tile::SLOPE_LEFT);
            }
        }
    }
    // Platform ends become slopes down to their edge.
    for r in 1..h {
        for c in 0..w {
            if at(level, c, r) != Tile::SOLID
                || at(level, c, r - 1) != Tile::EMPTY
                || !rng.chance(0.25)
            {
                continue;
            }
            if at(level, c - 1, r) == Tile::EMPTY && at(level, c + 1, r) == Tile::SOLID {
                set(level, c, r, Tile::SLOPE_RIGHT);
            } else if at(level, c + 1, r) == Tile::EMPTY && at(level, c - 1, r) == Tile::SOLID {
                set(level, c, r, Tile::SLOPE_LEFT);
            }
        }
    }
}
