//! Tile levels: the grid every other stage reads.
//!
//! A [`Level`] is a rectangle of [`Tile`]s, row 0 at the top. Levels are only
//! built by validating loaders ([`Level::from_ascii`], [`Level::from_vglc`],
//! [`Level::new`]), so everything downstream can rely on a well-formed grid.

mod ascii;
#[cfg(feature = "serde")]
// Parts serve only the Tiled or only the LDtk loader.
#[cfg_attr(not(all(feature = "tiled", feature = "ldtk")), allow(dead_code))]
mod doc;
mod generate;
#[cfg(feature = "ldtk")]
mod ldtk;
mod load;
#[cfg(feature = "tiled")]
mod mapping;
#[cfg(feature = "png")]
mod mask;
#[cfg(feature = "serde")]
// Parts serve only the Tiled or only the LDtk loader.
#[cfg_attr(not(all(feature = "tiled", feature = "ldtk")), allow(dead_code))]
mod raster;
#[cfg(feature = "serde")]
// Parts serve only the Tiled or only the LDtk loader.
#[cfg_attr(not(all(feature = "tiled", feature = "ldtk")), allow(dead_code))]
mod rules;
#[cfg(feature = "tiled")]
mod tiled;
#[cfg(feature = "tiled")]
mod tmj;
#[cfg(feature = "serde")]
mod vglc;
#[cfg(feature = "serde")]
// Parts serve only the Tiled or only the LDtk loader.
#[cfg_attr(not(all(feature = "tiled", feature = "ldtk")), allow(dead_code))]
mod words;

use std::fmt;
use std::path::{Path as FsPath, PathBuf};

#[cfg(feature = "tiled")]
pub use self::tiled::{MAX_TILECOUNT, MAX_XML_DEPTH};
#[cfg(feature = "serde")]
pub use doc::MapContents;
pub use generate::SplitMix64;
pub use load::{LoadOptions, LoadedLevel, Mechanic, load_level};
pub use load::{SUPPORTED_FORMATS, sniff_format};
#[cfg(feature = "png")]
pub use mask::{ColorLegend, MAX_PIXELS};
#[cfg(feature = "serde")]
pub use raster::MAX_RASTER_WORK;
#[cfg(feature = "serde")]
pub use rules::{LayerRule, PropRule, Rules, TileKind, TileMapping};
#[cfg(feature = "serde")]
pub use vglc::VglcLegend;

/// The largest number of cells a loader accepts (16 Mi cells, 4096 x 4096).
///
/// Checked before any tile storage is allocated, so a hostile file cannot
/// make platnav reserve more than this many tiles.
pub const MAX_CELLS: usize = 1 << 24;

/// The largest width or height a loader accepts.
pub const MAX_SIDE: usize = 1 << 16;

/// The largest number of layer cells (tiles, IntGrid values), summed over
/// all layers and chunks of one Tiled map or LDtk level (2^24).
pub const MAX_LAYER_CELLS: u64 = 1 << 24;

/// The largest level file the path-based loaders read, in bytes (64 MiB).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

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

/// A tile position: `col` grows to the right, `row` grows downward.
///
/// Coordinates are signed so that requests for cells off the map can be
/// expressed (and then snapped or rejected) without wrapping.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(from = "[i32; 2]", into = "[i32; 2]"))]
pub struct Cell {
    /// Column, 0 at the left.
    pub col: i32,
    /// Row, 0 at the top.
    pub row: i32,
}

impl Cell {
    /// The cell at column `col`, row `row`.
    #[must_use]
    pub const fn new(col: i32, row: i32) -> Self {
        Self { col, row }
    }
}

impl From<[i32; 2]> for Cell {
    fn from([col, row]: [i32; 2]) -> Self {
        Self { col, row }
    }
}

impl From<Cell> for [i32; 2] {
    fn from(c: Cell) -> Self {
        [c.col, c.row]
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.col, self.row)
    }
}

/// Why a level could not be built or read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LevelError {
    /// The text holds no rows.
    #[error("the level is empty")]
    Empty,
    /// A character that the legend does not define.
    #[error("line {line}, column {column}: unknown tile {ch:?}")]
    UnknownTile {
        /// The character found.
        ch: char,
        /// 1-based line.
        line: usize,
        /// 1-based column (in characters).
        column: usize,
    },
    /// A row whose length differs from the first row's.
    #[error("line {line}: row has {found} tiles, expected {expected} like the first row")]
    RaggedRow {
        /// 1-based line.
        line: usize,
        /// Width of the first row.
        expected: usize,
        /// Width of this row.
        found: usize,
    },
    /// The level is larger than [`MAX_CELLS`] or [`MAX_SIDE`].
    #[error(
        "level of {width} x {height} tiles exceeds the limit ({MAX_SIDE} per side, {MAX_CELLS} cells)"
    )]
    TooLarge {
        /// Requested width.
        width: usize,
        /// Requested height.
        height: usize,
    },
    /// A tile vector whose length is not `width * height`.
    #[error("{len} tiles given for a {width} x {height} level")]
    WrongTileCount {
        /// Requested width.
        width: usize,
        /// Requested height.
        height: usize,
        /// Tiles supplied.
        len: usize,
    },
    /// A legend that could not be read.
    #[error("legend: {0}")]
    Legend(String),
    /// A file that could not be read, or whose content failed to load.
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong in it.
        #[source]
        source: Box<LevelError>,
    },
    /// A file that could not be read, or that is not text where text was
    /// expected.
    #[error("{0}")]
    Io(#[source] std::io::Error),
    /// A Tiled TMX map or TSX tileset that could not be read (the message
    /// of the `tiled` crate or of platnav's pre-scan, with its line and
    /// column where known).
    #[error("tiled: {0}")]
    Tiled(String),
    /// A Tiled JSON (TMJ/TSJ) map that could not be read.
    #[error("tmj: {0}")]
    Tmj(String),
    /// A PNG mask that could not be decoded or mapped.
    #[error("image: {0}")]
    Image(String),
    /// A tile mapping file (see [`TileMapping`]) that could not be read.
    #[error("mapping: {0}")]
    Mapping(String),
    /// A tile id (gid) in a map layer that no tileset defines.
    #[error("layer {layer:?}, tile {col},{row}: gid {gid} is not in any tileset")]
    UnknownGid {
        /// The gid with its flip flags removed.
        gid: u32,
        /// The layer's name.
        layer: String,
        /// Column of the tile in the layer.
        col: i64,
        /// Row of the tile in the layer.
        row: i64,
    },
    /// A pixel colour that the colour legend does not define.
    #[error("pixel {x},{y}: colour {color} is not in the legend")]
    UnknownColor {
        /// The colour, `#RRGGBBAA`.
        color: String,
        /// Pixel column.
        x: u32,
        /// Pixel row.
        y: u32,
    },
    /// A count in the input above one of platnav's documented allocation
    /// bounds (tilecount, pixels, layer cells, nesting depth, ...).
    #[error("{what} of {value} exceeds the limit of {limit}")]
    Limit {
        /// What was counted.
        what: &'static str,
        /// The value found.
        value: u64,
        /// The bound.
        limit: u64,
    },
    /// A file that is not in any format platnav reads (or whose format's
    /// feature is off).
    #[error("unsupported file: {0} (platnav reads {SUPPORTED_FORMATS})")]
    UnknownFormat(String),
    /// A Tiled or LDtk map in which nothing marks a solid cell: what the
    /// file holds, and a rules line that would mark something.
    #[cfg(feature = "serde")]
    #[error("{0}")]
    NothingSolid(Box<MapContents>),
    /// An LDtk project that could not be read.
    #[error("ldtk: {0}")]
    Ldtk(String),
}

impl LevelError {
    /// Wraps this error with the file it came from.
    #[must_use]
    pub fn in_file(self, path: &FsPath) -> Self {
        LevelError::File {
            path: path.to_path_buf(),
            source: Box::new(self),
        }
    }
}

/// Adds `n` to a running count and fails when it passes `limit`: the
/// allocation bounds of the loaders (layer cells, tile counts).
#[cfg(any(feature = "tiled", feature = "ldtk"))]
pub(crate) fn add_within(
    count: &mut u64,
    n: u64,
    limit: u64,
    what: &'static str,
) -> Result<(), LevelError> {
    *count = count.saturating_add(n);
    if *count > limit {
        return Err(LevelError::Limit {
            what,
            value: *count,
            limit,
        });
    }
    Ok(())
}

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

/// Reads a file's bytes with the [`MAX_FILE_BYTES`] bound, naming the file
/// in every error.
///
/// # Errors
/// [`LevelError::File`] for a missing, unreadable or oversized file.
pub fn read_bytes(path: &FsPath) -> Result<Vec<u8>, LevelError> {
    use std::io::Read;
    let wrap = |e: LevelError| e.in_file(path);
    let file = std::fs::File::open(path).map_err(|e| wrap(LevelError::Io(e)))?;
    let len = file.metadata().map_or(0, |m| m.len());
    if len > MAX_FILE_BYTES {
        return Err(wrap(LevelError::Limit {
            what: "file size in bytes",
            value: len,
            limit: MAX_FILE_BYTES,
        }));
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| wrap(LevelError::Io(e)))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(wrap(LevelError::Limit {
            what: "file size in bytes",
            value: bytes.len() as u64,
            limit: MAX_FILE_BYTES,
        }));
    }
    Ok(bytes)
}

/// Reads a file that a level refers to (a tileset or template): as
/// [`read_bytes`], but only a regular file, so a hostile map cannot point at
/// a device such as `/dev/stdin` and block the load.
#[cfg(any(feature = "tiled", feature = "ldtk"))]
pub(crate) fn read_referenced(path: &FsPath) -> Result<Vec<u8>, LevelError> {
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => {
            Err(LevelError::Io(std::io::Error::other("not a regular file")).in_file(path))
        }
        _ => read_bytes(path),
    }
}

/// [`read_referenced`] for a file that must be UTF-8 text.
#[cfg(any(feature = "tiled", feature = "ldtk"))]
pub(crate) fn read_referenced_text(path: &FsPath) -> Result<String, LevelError> {
    String::from_utf8(read_referenced(path)?).map_err(|_| {
        LevelError::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "not UTF-8 text",
        ))
        .in_file(path)
    })
}

/// Writes `bytes` to `path` whole or not at all: to a hidden temporary file
/// beside it, then renamed over it, so a failed write never leaves a
/// half-written file behind.
///
/// # Errors
/// The I/O error of the write or the rename (the temporary file is removed).
pub fn write_atomically(path: &FsPath, bytes: &[u8]) -> std::io::Result<()> {
    let name = path.file_name().map_or_else(
        || std::ffi::OsString::from("out"),
        std::ffi::OsStr::to_os_string,
    );
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(&name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let result = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Reads a text file with the [`MAX_FILE_BYTES`] bound, naming the file in
/// every error.
///
/// # Errors
/// [`LevelError::File`] for a missing, unreadable, oversized or non-UTF-8 file.
pub fn read_text(path: &FsPath) -> Result<String, LevelError> {
    let wrap = |e: LevelError| e.in_file(path);
    let bytes = read_bytes(path)?;
    String::from_utf8(bytes).map_err(|e| {
        wrap(LevelError::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )))
    })
}

/// A rectangular tile level.
///
/// The left, right and top borders behave as solid; below the bottom row is
/// open (a body that falls out dies). See `PHYSICS.md`.
#[derive(Clone, Eq)]
pub struct Level {
    width: usize,
    height: usize,
    tiles: Vec<Tile>,
    /// How many tiles are hazards: a summary of `tiles` that every
    /// constructor computes and [`Level::set`] keeps, so the body can skip
    /// its hazard test on levels without any. Not part of the level's
    /// identity (equality, hashing and `Debug` see the grid only).
    hazards: usize,
    /// How many tiles are ladders, kept like `hazards`: the body skips
    /// the ladder rules on levels without any.
    ladders: usize,
    /// How many tiles are slopes, kept like `hazards`.
    slopes: usize,
}

impl PartialEq for Level {
    fn eq(&self, other: &Self) -> bool {
        self.width == other.width && self.height == other.height && self.tiles == other.tiles
    }
}

impl std::hash::Hash for Level {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.width.hash(state);
        self.height.hash(state);
        self.tiles.hash(state);
    }
}

impl fmt::Debug for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Level")
            .field("width", &self.width)
            .field("height", &self.height)
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
        let hazards = tiles.iter().filter(|&&t| t == Tile::Hazard).count();
        let ladders = tiles.iter().filter(|&&t| t == Tile::Ladder).count();
        let slopes = tiles.iter().filter(|&&t| t.is_slope()).count();
        Ok(Self {
            width,
            height,
            tiles,
            hazards,
            ladders,
            slopes,
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
            tiles: vec![Tile::Empty; width * height],
            hazards: 0,
            ladders: 0,
            slopes: 0,
        })
    }

    /// Loads a platnav ASCII level file (see the crate docs for the format).
    ///
    /// # Errors
    /// Any [`LevelError`], wrapped in [`LevelError::File`] naming the file.
    pub fn load(path: &FsPath) -> Result<Self, LevelError> {
        let text = read_text(path)?;
        text.parse().map_err(|e: LevelError| e.in_file(path))
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
    /// [`Tile::Solid`], below the bottom row is [`Tile::Empty`].
    #[must_use]
    #[inline]
    pub fn tile_at(&self, col: i64, row: i64) -> Tile {
        // One unsigned comparison per axis: negative values wrap above any
        // side (at most `MAX_SIDE`).
        if (col as u64) < self.width as u64 && (row as u64) < self.height as u64 {
            self.tiles[row as usize * self.width + col as usize]
        } else if (col as u64) >= self.width as u64 || row < 0 {
            Tile::Solid
        } else {
            Tile::Empty
        }
    }

    /// True when columns `cols` and rows `rows` lie inside the level and
    /// hold only tiles the body passes freely ([`Tile::Empty`],
    /// [`Tile::Goal`], [`Tile::Spawn`]); false otherwise.
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
            self.tiles[at + c0..at + c1]
                .iter()
                .all(|t| matches!(t, Tile::Empty | Tile::Goal | Tile::Spawn))
        })
    }

    /// Sets the tile at `cell`; returns false (and changes nothing) off the map.
    pub fn set(&mut self, cell: Cell, tile: Tile) -> bool {
        if self.contains(cell) {
            let slot = &mut self.tiles[cell.row as usize * self.width + cell.col as usize];
            self.hazards -= usize::from(*slot == Tile::Hazard);
            self.hazards += usize::from(tile == Tile::Hazard);
            self.ladders -= usize::from(*slot == Tile::Ladder);
            self.ladders += usize::from(tile == Tile::Ladder);
            self.slopes -= usize::from(slot.is_slope());
            self.slopes += usize::from(tile.is_slope());
            *slot = tile;
            true
        } else {
            false
        }
    }

    /// Whether any tile is a [`Tile::Hazard`] (kept as tiles are set).
    #[must_use]
    #[inline]
    pub fn has_hazards(&self) -> bool {
        self.hazards > 0
    }

    /// Whether any tile is a [`Tile::Ladder`] (kept as tiles are set).
    #[must_use]
    #[inline]
    pub fn has_ladders(&self) -> bool {
        self.ladders > 0
    }

    /// Whether any tile is a slope (kept as tiles are set).
    #[must_use]
    #[inline]
    pub fn has_slopes(&self) -> bool {
        self.slopes > 0
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
            eat(*t as u8);
        }
        h
    }
}
