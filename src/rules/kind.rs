//! What rules say a tile, cell or area is: [`TileKind`], and its names
//! in rules files.

use crate::level::Tile;

/// What a tile, cell or area is, before it becomes a [`Tile`].
///
/// The order is the one of several layers marking one cell: the greatest
/// wins (solid over slopes over one-way, then hazard, goal, spawn, ladder
/// and empty).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TileKind {
    /// Passable.
    Empty,
    /// A ladder ([`Tile::Ladder`]).
    Ladder,
    /// A spawn marker.
    Spawn,
    /// A goal marker.
    Goal,
    /// Kills on touch.
    Hazard,
    /// Solid from above only.
    #[serde(alias = "one-way", alias = "oneway")]
    OneWay,
    /// A 45° slope rising to the left ([`Tile::SlopeLeft`]).
    #[serde(alias = "slope-left")]
    SlopeLeft,
    /// A 45° slope rising to the right ([`Tile::SlopeRight`]).
    #[serde(alias = "slope-right")]
    SlopeRight,
    /// Solid.
    Solid,
}

impl TileKind {
    /// The level tile for this kind.
    #[must_use]
    pub const fn tile(self) -> Tile {
        match self {
            TileKind::Empty => Tile::Empty,
            TileKind::Ladder => Tile::Ladder,
            TileKind::Spawn => Tile::Spawn,
            TileKind::Goal => Tile::Goal,
            TileKind::Hazard => Tile::Hazard,
            TileKind::OneWay => Tile::OneWay,
            TileKind::SlopeLeft => Tile::SlopeLeft,
            TileKind::SlopeRight => Tile::SlopeRight,
            TileKind::Solid => Tile::Solid,
        }
    }

    /// The kind's name in rules files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TileKind::Empty => "empty",
            TileKind::Ladder => "ladder",
            TileKind::Spawn => "spawn",
            TileKind::Goal => "goal",
            TileKind::Hazard => "hazard",
            TileKind::OneWay => "one_way",
            TileKind::SlopeLeft => "slope_left",
            TileKind::SlopeRight => "slope_right",
            TileKind::Solid => "solid",
        }
    }

    /// Rank among the marks of one tile: a hazard wins (a tile marked both
    /// solid and deadly must never be stood on), then a slope (a tile marked
    /// solid whose shape is a slope is that slope), solid, one-way, ladder,
    /// goal, spawn, empty.
    pub(crate) const fn within_tile(self) -> u8 {
        match self {
            TileKind::Hazard => 8,
            TileKind::SlopeRight => 7,
            TileKind::SlopeLeft => 6,
            TileKind::Solid => 5,
            TileKind::OneWay => 4,
            TileKind::Ladder => 3,
            TileKind::Goal => 2,
            TileKind::Spawn => 1,
            TileKind::Empty => 0,
        }
    }
}

/// The kind a rules file names (`one_way`, `one-way` and `oneway` alike).
pub(crate) fn kind_from_str(s: &str) -> Option<TileKind> {
    Some(match s {
        "empty" => TileKind::Empty,
        "ladder" => TileKind::Ladder,
        "spawn" => TileKind::Spawn,
        "goal" => TileKind::Goal,
        "hazard" => TileKind::Hazard,
        "one_way" | "one-way" | "oneway" => TileKind::OneWay,
        "slope_right" | "slope-right" => TileKind::SlopeRight,
        "slope_left" | "slope-left" => TileKind::SlopeLeft,
        "solid" => TileKind::Solid,
        _ => return None,
    })
}
