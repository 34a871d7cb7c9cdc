//! Which mechanics' tile rules a view of a level brings into play beyond
//! the base rules, and what that means for the stages that generate and
//! cache links: [`Active`].

use super::{ALL, MECHANIC_OF};
use crate::level::Tile;
use crate::physics::Tiles;

/// The mechanics whose tiles have body rules of their own (their
/// `tile_rules`: ladders, slopes) that a view may show: one bit per
/// mechanic of [`ALL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Active(u8);

impl Active {
    /// The mechanics `level` may need: those with tile rules of which it
    /// may hold a tile.
    #[inline]
    pub fn of<T: Tiles + ?Sized>(level: &T) -> Self {
        let mut bits = 0;
        for (i, m) in ALL.iter().enumerate() {
            if m.tile_rules.is_some() && m.tiles.iter().any(|t| level.holds(t.tile)) {
                bits |= 1 << i;
            }
        }
        Self(bits)
    }

    /// The tiles that bring their mechanic's tile rules into play: a view
    /// that holds none of them is [`Active::plain`].
    pub fn rule_tiles() -> impl Iterator<Item = Tile> {
        ALL.iter()
            .filter(|m| m.tile_rules.is_some())
            .flat_map(|m| m.tiles.iter().map(|t| t.tile))
    }

    /// The tile rules of the mechanics in.
    fn rules(self) -> impl Iterator<Item = super::seam::TileRules> {
        ALL.iter()
            .enumerate()
            .filter(move |(i, _)| self.0 >> i & 1 != 0)
            .filter_map(|(_, m)| m.tile_rules)
    }

    /// Only the base rules: no tile with rules of its own can appear.
    #[inline]
    pub fn plain(self) -> bool {
        self.0 == 0
    }

    /// Whether the ground is flat: a standing body's feet are on a tile's
    /// top, and walking keeps them on its row (see
    /// `TileRules::flat_ground`).
    #[inline]
    pub fn flat_ground(self) -> bool {
        self.rules().all(|r| r.flat_ground)
    }

    /// Whether a view with these mechanics may show `tile`: a tile with
    /// rules of its own only when its mechanic is in; every other tile.
    #[inline]
    pub fn may_hold(self, tile: Tile) -> bool {
        let m = MECHANIC_OF[tile.index()];
        ALL[m].tile_rules.is_none() || self.0 >> m & 1 != 0
    }

    /// Whether `tile` has rules of its own under these mechanics (a flat
    /// run must not meet one).
    #[inline]
    pub fn special(self, tile: Tile) -> bool {
        !self.plain() && ALL[MECHANIC_OF[tile.index()]].tile_rules.is_some()
    }

    /// The bits, for cache keys.
    #[inline]
    pub fn bits(self) -> u8 {
        self.0
    }
}
