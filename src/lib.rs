#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod classify;
mod follow;
mod graph;
#[cfg(feature = "serde")]
pub mod json;
mod level;
mod links;
mod path;
mod physics;
pub mod render;
mod search;

pub use classify::{Classification, NodeType};
pub use follow::{FollowOptions, PathFollower};
pub use graph::{LinkId, NavMap, NodeId};
#[cfg(feature = "serde")]
pub use level::VglcLegend;
pub use level::{
    Cell, Level, LevelError, MAX_CELLS, MAX_FILE_BYTES, MAX_SIDE, Tile, check_size, read_text,
};
pub use links::{Link, LinkKind, LinkOptions, SETTLE_SLACK};
pub use path::{Path, PathStep, replay};
pub use physics::{Body, EPS, Input, Physics, PhysicsError, WallJump};
pub use search::{PathError, SearchOptions, SearchStats};
