//! Which mechanics' rules a view of a level brings into play beyond the
//! base rules, and what that means for the stages that generate and cache
//! links: [`Active`].

use super::{ladder, slope};
use crate::level::Tile;
use crate::physics::Tiles;

/// The mechanics with tile rules of their own (ladders, slopes) that a
/// view may show: a set of bits, one per mechanic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Active(u8);

const LADDERS: u8 = 1;
const SLOPES: u8 = 2;

impl Active {
    /// The mechanics `level` may need.
    #[inline]
    pub fn of<T: Tiles + ?Sized>(level: &T) -> Self {
        let mut bits = 0;
        if ladder::active(level) {
            bits |= LADDERS;
        }
        if slope::active(level) {
            bits |= SLOPES;
        }
        Self(bits)
    }

    /// Only the base rules: no tile with rules of its own can appear.
    #[inline]
    pub fn plain(self) -> bool {
        self.0 == 0
    }

    /// Whether motion is the same in every frame to the last bit, so that a
    /// link can be computed in its start cell's frame. Not with slopes:
    /// the feet column that picks a slope's surface (`floor(x)`) has no EPS
    /// margin, so a body reaching a slope's foot exactly at a column
    /// boundary can take the surface a tick earlier in one frame than in
    /// another.
    #[inline]
    pub fn frame_exact(self) -> bool {
        self.0 & SLOPES == 0
    }

    /// Whether the ground is flat: a standing body's feet are on a tile's
    /// top, and walking keeps them on its row. Not with slopes.
    #[inline]
    pub fn flat_ground(self) -> bool {
        self.0 & SLOPES == 0
    }

    /// Whether a view with these mechanics may show `tile`: a tile with
    /// rules of its own only when its mechanic is in; every other tile.
    #[inline]
    pub fn may_hold(self, tile: Tile) -> bool {
        match tile {
            Tile::Ladder => self.0 & LADDERS != 0,
            Tile::SlopeRight | Tile::SlopeLeft => self.0 & SLOPES != 0,
            _ => true,
        }
    }

    /// Whether `tile` has rules of its own under these mechanics (a flat
    /// run must not meet one).
    #[inline]
    pub fn special(self, tile: Tile) -> bool {
        !self.plain() && matches!(tile, Tile::Ladder | Tile::SlopeRight | Tile::SlopeLeft)
    }

    /// The bits, for cache keys.
    #[inline]
    pub fn bits(self) -> u8 {
        self.0
    }
}
