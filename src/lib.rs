#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod level;
mod physics;

pub use level::{Cell, Level, LevelError, MAX_CELLS, MAX_FILE_BYTES, MAX_SIDE, Tile, check_size, read_text};
#[cfg(feature = "serde")]
pub use level::VglcLegend;
pub use physics::{Body, EPS, Input, Physics, PhysicsError, WallJump};
