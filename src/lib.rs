#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod analysis;
mod classify;
mod graph;
#[cfg(feature = "serde")]
pub mod json;
mod level;
mod links;
mod path;
mod physics;
mod search;

pub use analysis::{
    AnalysisError, Diagnosis, Endpoints, Evaluation, GoalReport, Least, MissingLink, Param, Reach,
    Regions, Report, ReportOptions, SNAP_RADIUS, bisect, evaluate, least_value,
};
pub use classify::{Classification, NodeType};
pub use graph::{LinkId, NavMap, NodeId};
#[cfg(feature = "serde")]
pub use level::VglcLegend;
pub use level::{
    Cell, Level, LevelError, MAX_CELLS, MAX_FILE_BYTES, MAX_SIDE, SplitMix64, Tile, check_size,
    read_text,
};
pub use links::{Link, LinkKind, LinkOptions, SETTLE_SLACK};
pub use path::{Path, PathStep, replay};
pub use physics::{Body, EPS, Input, Physics, PhysicsError, WallJump};
pub use search::{PathError, SearchOptions, SearchStats};
