//! What occupies one cell of a level: [`Tile`].

/// What occupies one tile of a level.
///
/// Each mechanic declares its tiles as constants of this type in its own
/// module (the base rules [`Tile::EMPTY`], [`Tile::SOLID`], [`Tile::GOAL`]
/// and [`Tile::SPAWN`]; then [`Tile::ONE_WAY`], [`Tile::HAZARD`],
/// [`Tile::LADDER`], [`Tile::SLOPE_RIGHT`] and [`Tile::SLOPE_LEFT`]), so
/// that adding a mechanic adds its tiles without touching this type. A
/// tile's number is its place in [`Tile::ALL`] and in saved maps.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tile(u8);

impl Tile {
    /// The tile numbered `id`: for the mechanics' declarations, which the
    /// registry checks cover `0..Tile::COUNT` once each.
    pub(crate) const fn with_id(id: u8) -> Self {
        Self(id)
    }

    /// The tile's number, for indexing per-tile tables
    /// (`Tile::ALL[t.index()] == t`).
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}
