//! The VGLC text format: one character per tile with a JSON legend that maps
//! each character to a list of tags (`{"tiles": {"X": ["solid", "ground"]}}`).
//!
//! Each tile's mechanic declares the tags that mean it and its precedence
//! when one entry holds the tags of several tiles; today's order:
//! 1. `enemy`: the tile is [`Tile::EMPTY`] (enemies are stomped or avoided);
//! 2. `solid`: [`Tile::SOLID`];
//! 3. `solidtop`: [`Tile::ONE_WAY`];
//! 4. `hazard` or `damaging`: [`Tile::HAZARD`];
//! 5. `climbable` or `ladder`: [`Tile::LADDER`];
//! 6. `slope_right`: [`Tile::SLOPE_RIGHT`]; `slope_left`: [`Tile::SLOPE_LEFT`];
//! 7. `goal`: [`Tile::GOAL`]; `spawn`: [`Tile::SPAWN`];
//! 8. anything else (`passable`, decoration): [`Tile::EMPTY`].

use std::collections::HashMap;
use std::path::Path as FsPath;

use super::ascii::parse_grid;
use crate::io::files::read_text;
use crate::level::{Level, LevelError, Tile};
use crate::mechanics;

/// A VGLC legend: which [`Tile`] each character stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VglcLegend {
    map: HashMap<char, Tile>,
}

#[derive(serde::Deserialize)]
struct LegendFile {
    tiles: HashMap<String, Vec<String>>,
}

impl VglcLegend {
    /// The largest legend file accepted, in bytes.
    pub const MAX_BYTES: usize = 1 << 20;

    /// Parses a VGLC legend JSON document.
    ///
    /// # Errors
    /// [`LevelError::Legend`] when the JSON is malformed, too large, or a key
    /// is not exactly one character.
    pub fn from_json(text: &str) -> Result<Self, LevelError> {
        if text.len() > Self::MAX_BYTES {
            return Err(LevelError::Legend(format!(
                "{} bytes exceeds the {}-byte limit",
                text.len(),
                Self::MAX_BYTES
            )));
        }
        let file: LegendFile =
            serde_json::from_str(text).map_err(|e| LevelError::Legend(e.to_string()))?;
        let mut map = HashMap::new();
        for (key, tags) in file.tiles {
            let mut chars = key.chars();
            let (Some(ch), None) = (chars.next(), chars.next()) else {
                return Err(LevelError::Legend(format!(
                    "key {key:?} is not a single character"
                )));
            };
            map.insert(ch, Self::tile_for_tags(&tags));
        }
        Ok(Self { map })
    }

    /// Reads a legend file.
    ///
    /// # Errors
    /// As [`VglcLegend::from_json`], wrapped with the file name.
    pub fn load(path: &FsPath) -> Result<Self, LevelError> {
        let text = read_text(path)?;
        Self::from_json(&text).map_err(|e| e.in_file(path))
    }

    /// The tile for one legend entry's tags (see the module docs).
    #[must_use]
    pub fn tile_for_tags<S: AsRef<str>>(tags: &[S]) -> Tile {
        let has = |t: &str| tags.iter().any(|s| s.as_ref().eq_ignore_ascii_case(t));
        if has("enemy") {
            return Tile::EMPTY;
        }
        mechanics::tiles()
            .filter(|spec| spec.vglc.iter().any(|&tag| has(tag)))
            .max_by_key(|spec| spec.rank.vglc)
            .map_or(Tile::EMPTY, |spec| spec.tile)
    }

    /// The tile a character stands for, if the legend defines it.
    #[must_use]
    pub fn get(&self, ch: char) -> Option<Tile> {
        self.map.get(&ch).copied()
    }
}

impl Level {
    /// Parses VGLC text with its legend.
    ///
    /// # Errors
    /// [`LevelError::UnknownTile`] for a character missing from the legend,
    /// [`LevelError::RaggedRow`], [`LevelError::Empty`], [`LevelError::TooLarge`].
    pub fn from_vglc(text: &str, legend: &VglcLegend) -> Result<Self, LevelError> {
        parse_grid(text, |ch| legend.get(ch))
    }

    /// Loads a VGLC text file with its legend.
    ///
    /// # Errors
    /// As [`Level::from_vglc`], wrapped with the file name.
    pub fn load_vglc(path: &FsPath, legend: &VglcLegend) -> Result<Self, LevelError> {
        let text = read_text(path)?;
        Self::from_vglc(&text, legend).map_err(|e| e.in_file(path))
    }
}
