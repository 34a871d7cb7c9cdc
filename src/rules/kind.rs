//! What rules say a tile, cell or area is: [`TileKind`], a tile as the rules
//! of editor maps weigh it, and its names in rules files. Each tile's
//! names and ranks are its mechanic's.

use std::cmp::Ordering;
use std::fmt;

use crate::level::Tile;
use crate::mechanics;

/// What a tile, cell or area is, before it becomes a [`Tile`]: that tile,
/// ordered as the layers that mark one cell weigh it (the greatest wins:
/// solid over slopes over one-way, then hazard, goal, spawn, ladder and
/// empty).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileKind(Tile);

impl TileKind {
    /// Passable.
    pub const EMPTY: TileKind = TileKind(Tile::EMPTY);
    /// Solid.
    pub const SOLID: TileKind = TileKind(Tile::SOLID);
    /// Solid from above only.
    pub const ONE_WAY: TileKind = TileKind(Tile::ONE_WAY);
    /// A ladder.
    pub const LADDER: TileKind = TileKind(Tile::LADDER);
    /// A 45° slope rising to the right.
    pub const SLOPE_RIGHT: TileKind = TileKind(Tile::SLOPE_RIGHT);
    /// A 45° slope rising to the left.
    pub const SLOPE_LEFT: TileKind = TileKind(Tile::SLOPE_LEFT);

    /// The kind that makes a cell `tile`.
    #[must_use]
    pub const fn of(tile: Tile) -> Self {
        Self(tile)
    }

    /// The level tile for this kind.
    #[must_use]
    pub const fn tile(self) -> Tile {
        self.0
    }

    /// The kind's name in rules files (`one_way`).
    #[must_use]
    pub fn name(self) -> &'static str {
        self.0.name()
    }

    /// Rank among the marks of one tile (its mechanic's `rank.mark`): a
    /// hazard wins (a tile marked both solid and deadly must never be stood
    /// on), then a slope (a tile marked solid whose shape is a slope is that
    /// slope), solid, one-way, ladder, goal, spawn, empty.
    pub(crate) fn within_tile(self) -> u8 {
        mechanics::tile(self.0).rank.mark
    }

    /// Rank among the layers marking one cell (its mechanic's
    /// `rank.layer`).
    fn across_layers(self) -> u8 {
        mechanics::tile(self.0).rank.layer
    }
}

impl Ord for TileKind {
    fn cmp(&self, other: &Self) -> Ordering {
        self.across_layers()
            .cmp(&other.across_layers())
            .then(self.0.index().cmp(&other.0.index()))
    }
}

impl PartialOrd for TileKind {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for TileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for TileKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        kind_from_str(&s)
            .ok_or_else(|| serde::de::Error::unknown_variant(&s, &mechanics::TILE_NAMES))
    }
}

/// The kind a rules file names (`one_way`, `one-way` and `oneway` alike;
/// `ignore` is `empty`).
pub(crate) fn kind_from_str(s: &str) -> Option<TileKind> {
    if s == "ignore" {
        return Some(TileKind::EMPTY);
    }
    Tile::from_name(s).map(TileKind)
}
