//! Navigation maps for 2D tile platformers, and paths an enemy can
//! actually perform.
//!
//! Build a [`NavMap`] of a [`Level`] for one [`Physics`] profile, ask it
//! for a path with [`find_path`], and perform the path's input tape on the
//! reference [`Body`] (`docs/PHYSICS.md` specifies it tick by tick), or let
//! a [`PathFollower`] give the next input from the body's actual state:
//!
//! ```
//! use platnav::{Body, Cell, Level, NavMap, Physics, SearchOptions, find_path};
//!
//! let level: Level = "..........\n..........\n.S..##..G.\n##########".parse()?;
//! let physics = Physics::default();
//! let map = NavMap::build(&level, &physics)?;
//! let path = find_path(&map, Cell::new(1, 2), Cell::new(8, 2), &SearchOptions::default())?;
//!
//! // The tape performs the path on the body, tick for tick.
//! let mut body = Body::start(&level, path.start(), &physics);
//! for &input in path.inputs() {
//!     body.step(&level, &physics, input);
//! }
//! assert!(body.stands_on(Cell::new(8, 2)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Where to go next: [`formats`] loads Tiled, LDtk, VGLC, PNG-mask and
//! ASCII levels ([`Level::load`] reads the last); [`follow`] drives
//! enemies along paths and recovers them when knocked; [`NavMap::edit`]
//! updates a map after tile edits; [`analysis`] reports what a level's
//! physics can reach; [`fly`] plans for flying and top-down agents. The
//! repository's `README.md` and the guides under `docs/` walk through each.
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
pub mod model;
pub mod physics;
pub mod render;
#[cfg(feature = "serde")]
// Parts serve only the Tiled or only the LDtk loader.
#[cfg_attr(not(all(feature = "tiled", feature = "ldtk")), allow(dead_code))]
pub mod rules;
pub mod search;

pub use classify::{Classification, NodeType};
pub use follow::PathFollower;
pub use graph::{BuildError, EditError, EditReport, LazyMap, LinkId, NavMap, NodeId};
pub use level::{Cell, Level, LevelError, Tile, Wrap};
pub use links::{BuildCache, BuildProgress, JumpVariety, LinkKind, LinkOptions};
pub use physics::{Body, Input, Physics, PhysicsError};
pub use search::{Path, PathError, SearchOptions, SearchStats, find_path};

/// The README's and the guides' examples, run as doctests so that they
/// stay true.
#[cfg(doctest)]
mod doc_examples {
    #[doc = include_str!("../README.md")]
    struct Readme;
    #[doc = include_str!("../docs/library.md")]
    struct Library;
    #[doc = include_str!("../docs/following.md")]
    struct Following;
    #[doc = include_str!("../docs/live-edits.md")]
    struct LiveEdits;
    #[doc = include_str!("../docs/huge-worlds.md")]
    struct HugeWorlds;
    #[doc = include_str!("../docs/models.md")]
    struct Models;
    #[doc = include_str!("../docs/moving-platforms.md")]
    struct MovingPlatforms;
    #[cfg(feature = "fly")]
    #[doc = include_str!("../docs/flying.md")]
    struct Flying;
}
