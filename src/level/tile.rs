//! What occupies one cell of a level: [`Tile`].

/// What occupies one tile of a level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Tile {
    /// Nothing: the body moves freely.
    #[default]
    Empty,
    /// Solid from every side.
    Solid,
    /// Solid only for a body landing on its top; passable from below and
    /// when dropping through with `down` held.
    OneWay,
    /// Kills a body that overlaps it; not solid.
    Hazard,
    /// A goal marker; behaves as [`Tile::Empty`] for the body.
    Goal,
    /// A spawn marker; behaves as [`Tile::Empty`] for the body.
    Spawn,
    /// A ladder: not solid, climbable (`PHYSICS.md`, "Ladders"). The top
    /// of a ladder whose upper neighbour is not a ladder is a one-way
    /// platform.
    Ladder,
    /// A 45° slope rising to the right (`/`): solid below the diagonal
    /// from its bottom-left to its top-right corner (`PHYSICS.md`,
    /// "Slopes").
    SlopeRight,
    /// A 45° slope rising to the left (`\`): solid below the diagonal
    /// from its top-left to its bottom-right corner.
    SlopeLeft,
}

impl Tile {
    /// True for tiles that stop the body from every side.
    #[must_use]
    pub const fn is_solid(self) -> bool {
        matches!(self, Tile::Solid)
    }

    /// True for the two slope tiles.
    #[must_use]
    pub const fn is_slope(self) -> bool {
        matches!(self, Tile::SlopeRight | Tile::SlopeLeft)
    }
}

impl Tile {
    /// True for the tiles the body passes freely: [`Tile::Empty`] and the
    /// goal and spawn markers.
    #[must_use]
    pub const fn is_free(self) -> bool {
        matches!(self, Tile::Empty | Tile::Goal | Tile::Spawn)
    }

    /// How many kinds of tile there are.
    pub const COUNT: usize = 9;

    /// Every kind of tile, in declaration order (`Tile::ALL[t as usize] == t`).
    pub const ALL: [Tile; Tile::COUNT] = [
        Tile::Empty,
        Tile::Solid,
        Tile::OneWay,
        Tile::Hazard,
        Tile::Goal,
        Tile::Spawn,
        Tile::Ladder,
        Tile::SlopeRight,
        Tile::SlopeLeft,
    ];
}
