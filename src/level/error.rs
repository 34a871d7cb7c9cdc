//! Why a level could not be built or read: [`LevelError`].

use std::path::{Path as FsPath, PathBuf};

#[cfg(feature = "serde")]
use super::MapContents;
use super::{MAX_CELLS, MAX_SIDE};

/// The formats platnav reads, as its errors list them.
pub const SUPPORTED_FORMATS: &str = "platnav ASCII or VGLC text (.txt), Tiled maps (.tmx, .tmj, \
     .json), LDtk projects (.ldtk, .json) and PNG masks (.png)";

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
    /// An option line of the ASCII format (`@wrap x`) that could not be
    /// read.
    #[error("line {line}: {message}")]
    Directive {
        /// 1-based line.
        line: usize,
        /// What is wrong with it.
        message: String,
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
    /// A tile mapping file (see [`TileMapping`](crate::rules::TileMapping)) that could not be read.
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
