//! The tile grid every stage reads: a [`Level`] is a rectangle of
//! [`Tile`]s, row 0 at the top, addressed by [`Cell`].
//!
//! Levels are only built by validating constructors ([`Level::new`],
//! [`Level::empty`]) and loaders (`formats`), so everything downstream can
//! rely on a well-formed grid.

mod cell;
mod contents;
mod error;
mod generate;
mod loaded;
mod platform;
mod tile;
mod wrap;

use std::fmt;

pub use cell::Cell;
pub use contents::MapContents;
pub use error::{LevelError, SUPPORTED_FORMATS};
pub use generate::SplitMix64;
pub use loaded::{LoadedLevel, Unmodelled};
pub use platform::{
    MAX_PERIOD, MAX_PLATFORM_POINTS, MAX_PLATFORMS, Moving, Platform, PlatformError, PlatformLoop,
    Platforms,
};
pub use tile::Tile;
pub use wrap::{UnknownWrap, Wrap};

/// The largest number of cells a loader accepts (16 Mi cells, 4096 x 4096).
///
/// Checked before any tile storage is allocated, so a hostile file cannot
/// make platnav reserve more than this many tiles.
pub const MAX_CELLS: usize = 1 << 24;

/// The largest width or height a loader accepts.
pub const MAX_SIDE: usize = 1 << 16;

/// Checks a level size against [`MAX_SIDE`] and [`MAX_CELLS`].
///
/// # Errors
/// [`LevelError::TooLarge`] when a side or the cell count is over the limit,
/// [`LevelError::Empty`] when a side is zero.
pub fn check_size(width: usize, height: usize) -> Result<(), LevelError> {
    if width == 0 || height == 0 {
        return Err(LevelError::Empty);
    }
    if width > MAX_SIDE || height > MAX_SIDE || width.saturating_mul(height) > MAX_CELLS {
        return Err(LevelError::TooLarge { width, height });
    }
    Ok(())
}

/// A rectangular tile level.
///
/// The left, right and top borders behave as solid; below the bottom row is
/// open (a body that falls out dies); unless the level wraps
/// ([`Level::wrap`]), when opposite edges meet. See `PHYSICS.md`.
#[derive(Clone, Eq)]
pub struct Level {
    width: usize,
    height: usize,
    tiles: Vec<Tile>,
    /// Which edges meet (none by default).
    wrap: Wrap,
    /// How many tiles of each kind there are: a summary of `tiles` that
    /// every constructor computes and [`Level::set`] keeps, so the body can
    /// skip the rules of kinds the level does not hold ([`Level::holds`]).
    /// Not part of the level's identity (equality, hashing and `Debug` see
    /// the grid only).
    counts: [usize; Tile::COUNT],
}

/// How many tiles of each kind `tiles` holds.
fn count(tiles: &[Tile]) -> [usize; Tile::COUNT] {
    let mut counts = [0; Tile::COUNT];
    for &t in tiles {
        counts[t.index()] += 1;
    }
    counts
}

impl PartialEq for Level {
    fn eq(&self, other: &Self) -> bool {
        self.width == other.width
            && self.height == other.height
            && self.wrap == other.wrap
            && self.tiles == other.tiles
    }
}

impl std::hash::Hash for Level {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.width.hash(state);
        self.height.hash(state);
        self.wrap.hash(state);
        self.tiles.hash(state);
    }
}

impl fmt::Debug for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Level")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("wrap", &self.wrap)
            .field("tiles", &self.tiles)
            .finish()
    }
}

impl Level {
    /// Builds a level from its tiles, row-major, top row first.
    ///
    /// # Errors
    /// [`LevelError::TooLarge`], [`LevelError::Empty`] or
    /// [`LevelError::WrongTileCount`].
    pub fn new(width: usize, height: usize, tiles: Vec<Tile>) -> Result<Self, LevelError> {
        check_size(width, height)?;
        if tiles.len() != width * height {
            return Err(LevelError::WrongTileCount {
                width,
                height,
                len: tiles.len(),
            });
        }
        Ok(Self {
            width,
            height,
            counts: count(&tiles),
            tiles,
            wrap: Wrap::NONE,
        })
    }

    /// An all-empty level.
    ///
    /// # Errors
    /// [`LevelError::TooLarge`] or [`LevelError::Empty`].
    pub fn empty(width: usize, height: usize) -> Result<Self, LevelError> {
        check_size(width, height)?;
        Ok(Self {
            width,
            height,
            tiles: vec![Tile::EMPTY; width * height],
            counts: {
                let mut c = [0; Tile::COUNT];
                c[Tile::EMPTY.index()] = width * height;
                c
            },
            wrap: Wrap::NONE,
        })
    }

    /// Width in tiles.
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height in tiles.
    #[must_use]
    pub fn height(&self) -> usize {
        self.height
    }

    /// Which edges of the level meet (`PHYSICS.md`, "Screen wrap").
    #[must_use]
    #[inline]
    pub fn wrap(&self) -> Wrap {
        self.wrap
    }

    /// Makes the level's edges meet as `wrap` says.
    pub fn set_wrap(&mut self, wrap: Wrap) {
        self.wrap = wrap;
    }

    /// The level with its edges meeting as `wrap` says.
    #[must_use]
    pub fn with_wrap(mut self, wrap: Wrap) -> Self {
        self.wrap = wrap;
        self
    }

    /// The cell of the level that `cell` is: itself, or on a level that
    /// wraps, the cell a whole number of widths (heights) away that lies
    /// on the map. Cells off a side that does not wrap are returned as
    /// they are.
    #[must_use]
    #[inline]
    pub fn wrapped(&self, cell: Cell) -> Cell {
        self.wrap.on_map(cell, self.width, self.height)
    }

    /// True when `cell` lies on the map.
    #[must_use]
    pub fn contains(&self, cell: Cell) -> bool {
        cell.col >= 0
            && cell.row >= 0
            && (cell.col as usize) < self.width
            && (cell.row as usize) < self.height
    }

    /// The tile at `cell`, or `None` off the map.
    #[must_use]
    pub fn get(&self, cell: Cell) -> Option<Tile> {
        self.contains(cell)
            .then(|| self.tiles[cell.row as usize * self.width + cell.col as usize])
    }

    /// The tile as the body sees it: borders left, right and above are
    /// [`Tile::SOLID`], below the bottom row is [`Tile::EMPTY`]; across an
    /// edge that wraps, the tile on the other side.
    #[must_use]
    #[inline]
    pub fn tile_at(&self, col: i64, row: i64) -> Tile {
        // One unsigned comparison per axis: negative values wrap above any
        // side (at most `MAX_SIDE`).
        if (col as u64) < self.width as u64 && (row as u64) < self.height as u64 {
            self.tiles[row as usize * self.width + col as usize]
        } else if self.wrap.any() {
            self.tile_across(col, row)
        } else if (col as u64) >= self.width as u64 || row < 0 {
            Tile::SOLID
        } else {
            Tile::EMPTY
        }
    }

    /// [`Level::tile_at`] off the map on a level that wraps.
    #[cold]
    fn tile_across(&self, col: i64, row: i64) -> Tile {
        let (col, row) = self.wrap.fold(col, row, self.width, self.height);
        if (col as u64) < self.width as u64 && (row as u64) < self.height as u64 {
            self.tiles[row as usize * self.width + col as usize]
        } else if (col as u64) >= self.width as u64 || row < 0 {
            Tile::SOLID
        } else {
            Tile::EMPTY
        }
    }

    /// True when columns `cols` and rows `rows` lie inside the level and
    /// hold only tiles the body passes freely ([`Tile::EMPTY`],
    /// [`Tile::GOAL`], [`Tile::SPAWN`]); false otherwise.
    #[must_use]
    #[inline]
    pub(crate) fn is_clear(&self, cols: std::ops::Range<i64>, rows: std::ops::Range<i64>) -> bool {
        if cols.start < 0
            || rows.start < 0
            || cols.end > self.width as i64
            || rows.end > self.height as i64
        {
            return false;
        }
        let (c0, c1) = (cols.start as usize, cols.end.max(cols.start) as usize);
        rows.into_iter().all(|r| {
            let at = r as usize * self.width;
            self.tiles[at + c0..at + c1].iter().all(|t| t.is_free())
        })
    }

    /// Sets the tile at `cell`; returns false (and changes nothing) off the map.
    pub fn set(&mut self, cell: Cell, tile: Tile) -> bool {
        if self.contains(cell) {
            let slot = &mut self.tiles[cell.row as usize * self.width + cell.col as usize];
            self.counts[slot.index()] -= 1;
            self.counts[tile.index()] += 1;
            *slot = tile;
            true
        } else {
            false
        }
    }

    /// Whether some tile is a `tile` (kept as tiles are set).
    #[must_use]
    #[inline]
    pub fn holds(&self, tile: Tile) -> bool {
        self.counts[tile.index()] > 0
    }

    /// All tiles, row-major, top row first.
    #[must_use]
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// Cells holding `tile`, row-major.
    pub fn cells_of(&self, tile: Tile) -> impl Iterator<Item = Cell> + '_ {
        self.tiles
            .iter()
            .enumerate()
            .filter(move |(_, t)| **t == tile)
            .map(|(i, _)| Cell::new((i % self.width) as i32, (i / self.width) as i32))
    }

    /// A 64-bit fingerprint of the grid (FNV-1a over size and tiles), for
    /// telling saved maps and caches apart.
    #[must_use]
    pub fn fingerprint(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |b: u8| {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        };
        for b in (self.width as u64).to_le_bytes() {
            eat(b);
        }
        for b in (self.height as u64).to_le_bytes() {
            eat(b);
        }
        for t in &self.tiles {
            eat(t.index() as u8);
        }
        // Only a level that wraps adds to it, so that the fingerprints of
        // every other level stay what saved maps recorded.
        if self.wrap.any() {
            eat(0xF0 | u8::from(self.wrap.x) | (u8::from(self.wrap.y) << 1));
        }
        h
    }
}
