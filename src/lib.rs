#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod analysis;
mod build;
mod classify;
mod edge;
#[cfg(feature = "fly")]
pub mod fly;
mod follow;
mod graph;
#[cfg(feature = "serde")]
pub mod json;
mod landmarks;
mod level;
mod links;
mod memo;
#[cfg(feature = "serde")]
mod navfile;
mod path;
mod physics;
mod query;
mod reads;
pub mod render;
mod search;
mod tape;

pub use analysis::{
    AnalysisError, Diagnosis, Endpoints, Evaluation, GoalReport, Least, MissingLink, Param, Reach,
    Regions, Report, ReportOptions, SNAP_RADIUS, bisect, evaluate, least_value,
};
pub use build::{BuildError, BuildProgress};
pub use classify::{Classification, NodeType};
pub use follow::{
    FollowOptions, FollowState, KnockDeath, KnockOptions, KnockReport, MAX_RECOVERY_TICKS,
    PathFollower, RECOVERY_SWITCH_TICKS, RecoveryEnd, RecoveryProgram, RecoverySwitch,
    can_land_alive, knock, knock_chases,
};
pub use graph::{EditError, EditReport, LinkId, LinkInfo, Links, NavMap, NodeId};
#[cfg(feature = "serde")]
pub use level::VglcLegend;
pub use level::{
    Cell, Level, LevelError, LoadOptions, LoadedLevel, MAX_CELLS, MAX_FILE_BYTES, MAX_LAYER_CELLS,
    MAX_SIDE, SplitMix64, Tile, check_size, load_level, read_bytes, read_text, write_atomically,
};
#[cfg(feature = "png")]
pub use level::{ColorLegend, MAX_PIXELS};
#[cfg(feature = "serde")]
pub use level::{LayerRule, MAX_RASTER_WORK, MapContents, PropRule, Rules, TileKind, TileMapping};
#[cfg(feature = "tiled")]
pub use level::{MAX_TILECOUNT, MAX_XML_DEPTH};
pub use level::{SUPPORTED_FORMATS, sniff_format};
pub use links::{JumpVariety, Link, LinkKind, LinkOptions, SETTLE_SLACK, clear_caches};
#[cfg(feature = "serde")]
pub use navfile::{MAX_LINK_TICKS, MAX_LINKS_PER_NODE, NAVMAP_FORMAT_VERSION, NavFileError};
pub use path::{Path, PathStep, replay};
pub use physics::{Body, EPS, Frame, Input, Physics, PhysicsError, Tiles, WallJump};
pub use query::{PathError, SearchOptions, SearchStats};
pub use tape::Tape;
