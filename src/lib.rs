#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod level;
mod physics;

#[cfg(feature = "serde")]
pub use level::VglcLegend;
pub use level::{
    Cell, Level, LevelError, LoadOptions, LoadedLevel, MAX_CELLS, MAX_FILE_BYTES, MAX_SIDE, Tile,
    check_size, load_level, read_bytes, read_text,
};
#[cfg(feature = "png")]
pub use level::{ColorLegend, MAX_PIXELS};
#[cfg(feature = "tiled")]
pub use level::{MAX_LAYER_CELLS, MAX_TILECOUNT, MAX_XML_DEPTH, TileKind, TileMapping};
pub use physics::{Body, EPS, Input, Physics, PhysicsError, WallJump};
