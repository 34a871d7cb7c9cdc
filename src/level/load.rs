//! One entry point for every level format: [`load_level`].
use std::path::{Path, PathBuf};

use super::{Cell, Level, LevelError, Tile};

/// How [`load_level`] reads a file. `Default` reads every format with its
/// defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// Tiled maps: the collision tile layer's name (overrides the mapping
    /// file's `layer`); `None` merges every tile layer, solid winning.
    pub layer: Option<String>,
    /// Tiled maps: a tile mapping file (see [`TileMapping`](crate::TileMapping));
    /// `None` uses only the bool tile properties and the default object
    /// names.
    pub mapping: Option<PathBuf>,
    /// Text files: a VGLC legend (its presence selects the VGLC format).
    /// PNG masks: a colour legend (see [`ColorLegend`](crate::ColorLegend)).
    pub legend: Option<PathBuf>,
    /// PNG masks: the side of one tile in pixels (default 1).
    pub pixels_per_tile: Option<u32>,
}

/// A loaded level with the spawn and goal cells its file marks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedLevel {
    /// The tile grid.
    pub level: Level,
    /// The spawn cell: a spawn object (Tiled) or the first
    /// [`Tile::Spawn`] in row-major order (text and images).
    pub spawn: Option<Cell>,
    /// Goal cells, row-major.
    pub goals: Vec<Cell>,
}

impl LoadedLevel {
    /// Wraps a level, taking the spawn and goals from its
    /// [`Tile::Spawn`]/[`Tile::Goal`] tiles.
    #[must_use]
    pub fn from_tiles(level: Level) -> Self {
        let spawn = level.cells_of(Tile::Spawn).next();
        let goals = level.cells_of(Tile::Goal).collect();
        Self {
            level,
            spawn,
            goals,
        }
    }
}

/// Loads a level file in the format its extension names.
///
/// | extension | format | options used |
/// |-----------|--------|--------------|
/// | `.tmx` | Tiled XML map (feature `tiled`) | `layer`, `mapping` |
/// | `.tmj`, `.json` | Tiled JSON map (feature `tiled`) | `layer`, `mapping` |
/// | `.png` | image mask (feature `png`) | `legend` (colour legend), `pixels_per_tile` |
/// | anything else | text: VGLC when `legend` is set, else platnav ASCII | `legend` (VGLC legend) |
///
/// A text file that is not platnav ASCII and has a `legend.json` beside it
/// (the VGLC corpus layout) is read as VGLC with that legend.
///
/// Every error is wrapped in [`LevelError::File`] naming the level file;
/// an error in a mapping, legend or tileset file names that file too
/// (`level.tmx: mapping.json: ...`).
///
/// # Errors
/// Any [`LevelError`], wrapped in [`LevelError::File`] naming the file;
/// [`LevelError::UnknownFormat`] when the format's feature is disabled.
pub fn load_level(path: &Path, opts: &LoadOptions) -> Result<LoadedLevel, LevelError> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    match ext.as_str() {
        "tmx" => load_tmx(path, opts),
        "tmj" | "json" => load_tmj(path, opts),
        "png" => load_png(path, opts),
        _ => load_text(path, opts),
    }
}

fn load_text(path: &Path, opts: &LoadOptions) -> Result<LoadedLevel, LevelError> {
    match &opts.legend {
        #[cfg(feature = "serde")]
        Some(legend) => {
            let legend = super::VglcLegend::load(legend).map_err(|e| e.in_file(path))?;
            Level::load_vglc(path, &legend).map(LoadedLevel::from_tiles)
        }
        #[cfg(not(feature = "serde"))]
        Some(_) => {
            Err(LevelError::UnknownFormat("VGLC (feature `serde` is off)".into()).in_file(path))
        }
        None => {
            let ascii = Level::load(path);
            #[cfg(feature = "serde")]
            if let Err(LevelError::File { source, .. }) = &ascii
                && matches!(**source, LevelError::UnknownTile { .. })
            {
                // VGLC corpora keep one `legend.json` beside their levels.
                // A sibling that is not a legend leaves the ASCII error standing.
                let sibling = path.with_file_name("legend.json");
                if let Ok(legend) = super::VglcLegend::load(&sibling) {
                    return Level::load_vglc(path, &legend).map(LoadedLevel::from_tiles);
                }
            }
            ascii.map(LoadedLevel::from_tiles)
        }
    }
}

#[cfg(feature = "tiled")]
fn mapping_for(opts: &LoadOptions) -> Result<crate::TileMapping, LevelError> {
    let mut mapping = match &opts.mapping {
        Some(p) => crate::TileMapping::load(p)?,
        None => crate::TileMapping::default(),
    };
    if opts.layer.is_some() {
        mapping.layer.clone_from(&opts.layer);
    }
    Ok(mapping)
}

#[cfg(feature = "tiled")]
fn load_tmx(path: &Path, opts: &LoadOptions) -> Result<LoadedLevel, LevelError> {
    let mapping = mapping_for(opts).map_err(|e| e.in_file(path))?;
    LoadedLevel::load_tmx(path, &mapping)
}

#[cfg(feature = "tiled")]
fn load_tmj(path: &Path, opts: &LoadOptions) -> Result<LoadedLevel, LevelError> {
    let mapping = mapping_for(opts).map_err(|e| e.in_file(path))?;
    LoadedLevel::load_tmj(path, &mapping)
}

#[cfg(feature = "png")]
fn load_png(path: &Path, opts: &LoadOptions) -> Result<LoadedLevel, LevelError> {
    let legend = match &opts.legend {
        Some(p) => crate::ColorLegend::load(p).map_err(|e| e.in_file(path))?,
        None => crate::ColorLegend::default(),
    };
    LoadedLevel::load_png(path, &legend, opts.pixels_per_tile.unwrap_or(1))
}

#[cfg(not(feature = "tiled"))]
fn load_tmx(path: &Path, _: &LoadOptions) -> Result<LoadedLevel, LevelError> {
    Err(LevelError::UnknownFormat("tmx (feature `tiled` is off)".into()).in_file(path))
}

#[cfg(not(feature = "tiled"))]
fn load_tmj(path: &Path, _: &LoadOptions) -> Result<LoadedLevel, LevelError> {
    Err(LevelError::UnknownFormat("tmj (feature `tiled` is off)".into()).in_file(path))
}

#[cfg(not(feature = "png"))]
fn load_png(path: &Path, _: &LoadOptions) -> Result<LoadedLevel, LevelError> {
    Err(LevelError::UnknownFormat("png (feature `png` is off)".into()).in_file(path))
}
