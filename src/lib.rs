#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

#[macro_use]
mod setters;

pub mod analysis;
mod build;
mod classify;
mod edge;
#[cfg(feature = "fly")]
pub mod fly;
pub mod follow;
mod graph;
#[cfg(feature = "serde")]
pub mod json;
mod landmarks;
pub mod level;
mod links;
mod memo;
#[cfg(feature = "serde")]
pub mod navfile;
pub mod path;
pub mod physics;
mod pool;
mod query;
mod reads;
pub mod render;
mod search;
mod splice;
mod tape;

pub use build::{BuildError, BuildProgress};
pub use classify::{Classification, NodeType};
pub use follow::PathFollower;
pub use graph::{EditError, EditReport, LinkId, NavMap, NodeId};
pub use level::{Cell, Level, LevelError, Tile};
pub use links::{BuildCache, JumpVariety, LinkKind, LinkOptions};
pub use path::Path;
pub use physics::{Body, Input, Physics, PhysicsError};
pub use query::{PathError, SearchOptions, SearchStats};
