//! Level files: one reader per format (platnav ASCII, VGLC text, Tiled
//! TMX and TMJ, LDtk, PNG masks), each with byte and cell limits for
//! untrusted input, and one entry point that tells them apart
//! ([`load_level`]). Editor maps (Tiled, LDtk) are read into a document
//! that the rules engine (`rules`) gives meaning.

mod ascii;
#[cfg(feature = "ldtk")]
mod ldtk;
#[cfg(feature = "ldtk")]
mod ldtk_tilesets;
mod load;
#[cfg(feature = "png")]
mod mask;
#[cfg(feature = "tiled")]
mod tiled;
#[cfg(feature = "tiled")]
mod tiled_data;
#[cfg(feature = "tiled")]
mod tmj;
#[cfg(feature = "serde")]
mod vglc;

#[cfg(feature = "tiled")]
pub use self::tiled::{MAX_TILECOUNT, MAX_XML_DEPTH};
pub use crate::level::SUPPORTED_FORMATS;
pub use ascii::BadPlatform;
pub use load::{LoadOptions, load_level, sniff_format};
#[cfg(feature = "png")]
pub use mask::{ColorLegend, MAX_PIXELS};
#[cfg(feature = "serde")]
pub use vglc::VglcLegend;

#[cfg(any(feature = "tiled", feature = "ldtk"))]
use crate::level::LevelError;

/// The largest number of layer cells (tiles, IntGrid values), summed over
/// all layers and chunks of one Tiled map or LDtk level (2^24).
pub const MAX_LAYER_CELLS: u64 = 1 << 24;

/// Adds `n` to a running count and fails when it passes `limit`: the
/// allocation bounds of the loaders (layer cells, tile counts).
#[cfg(any(feature = "tiled", feature = "ldtk"))]
pub(crate) fn add_within(
    count: &mut u64,
    n: u64,
    limit: u64,
    what: &'static str,
) -> Result<(), LevelError> {
    *count = count.saturating_add(n);
    if *count > limit {
        return Err(LevelError::Limit {
            what,
            value: *count,
            limit,
        });
    }
    Ok(())
}
