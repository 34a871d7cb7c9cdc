//! What the layers, tiles and objects of a map mean: the rules file
//! ([`TileMapping`]) and the conventions applied where it says nothing.

// A loader reads its map into a document (`doc`), and `resolve` turns the
// document into a level: the readings of which layers count (`layers`),
// each carried out and the one that explains the map kept (`reading`), the
// marks of tiles, IntGrid values and objects (`marks`) laid as cells
// (`layer_cells`) on the grid (`grid`; shapes become cells in `raster`),
// the spawn and goal (`markers`), the moving platforms objects place
// (`platforms`) and the mechanics platnav does not model (`unmodelled`). The rules file is `mapping`; kinds and the words of the
// conventions are `kind` and `words`. No file imports one that imports it
// back.
pub(crate) mod doc;
mod grid;
mod kind;
mod layer_cells;
mod layers;
mod mapping;
mod markers;
mod marks;
mod platforms;
mod raster;
mod reading;
mod resolve;
mod unmodelled;
mod words;

pub use kind::TileKind;
pub use mapping::{LayerRule, PlatformRules, PropRule, Rules, TileMapping, Tween};
pub use raster::MAX_RASTER_WORK;

// The Tiled and LDtk loaders are the only callers.
#[cfg(any(feature = "tiled", feature = "ldtk"))]
pub(crate) use resolve::resolve;
