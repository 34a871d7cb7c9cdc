#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

/// Builds a `with_<field>` setter per listed field, for the options structs:
/// they are `#[non_exhaustive]` (new options can be added without breaking
/// callers), so callers start from `Default::default()` or a preset and
/// chain these.
macro_rules! setters {
    ($ty:ident { $($with:ident => $field:ident: $t:ty),* $(,)? }) => {
        impl $ty {
            $(
                #[doc = concat!("This value with [`", stringify!($ty), "::", stringify!($field), "`] set to `", stringify!($field), "`.")]
                #[must_use]
                pub fn $with(mut self, $field: $t) -> Self {
                    self.$field = $field;
                    self
                }
            )*
        }
    };
}

pub mod analysis;
mod classify;
#[cfg(feature = "fly")]
pub mod fly;
pub mod follow;
pub mod formats;
pub mod graph;
pub mod io;
pub mod level;
pub mod links;
mod mechanics;
pub mod physics;
pub mod render;
#[cfg(feature = "serde")]
// Parts serve only the Tiled or only the LDtk loader.
#[cfg_attr(not(all(feature = "tiled", feature = "ldtk")), allow(dead_code))]
pub mod rules;
pub mod search;

pub use classify::{Classification, NodeType};
pub use follow::PathFollower;
pub use graph::{BuildError, EditError, EditReport, LinkId, NavMap, NodeId};
pub use level::{Cell, Level, LevelError, Tile};
pub use links::{BuildCache, BuildProgress, JumpVariety, LinkKind, LinkOptions};
pub use physics::{Body, Input, Physics, PhysicsError};
pub use search::{Path, PathError, SearchOptions, SearchStats, find_path};
