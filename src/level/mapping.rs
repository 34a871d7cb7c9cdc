//! What the tiles and objects of a Tiled map mean: see [`TileMapping`].
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path as FsPath;

use base64::Engine;

use super::{Cell, Level, LevelError, LoadedLevel, MAX_CELLS, Tile, read_text};

/// What a Tiled tile is, before it becomes a [`Tile`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TileKind {
    /// Passable.
    Empty,
    /// A ladder; platnav has no ladder tile yet, so it loads as
    /// [`Tile::Empty`].
    Ladder,
    /// A spawn marker.
    Spawn,
    /// A goal marker.
    Goal,
    /// Kills on touch.
    Hazard,
    /// Solid from above only.
    #[serde(alias = "one-way", alias = "oneway")]
    OneWay,
    /// Solid.
    Solid,
}

impl TileKind {
    /// The level tile for this kind ([`TileKind::Ladder`] gives
    /// [`Tile::Empty`]).
    #[must_use]
    pub const fn tile(self) -> Tile {
        match self {
            TileKind::Empty | TileKind::Ladder => Tile::Empty,
            TileKind::Spawn => Tile::Spawn,
            TileKind::Goal => Tile::Goal,
            TileKind::Hazard => Tile::Hazard,
            TileKind::OneWay => Tile::OneWay,
            TileKind::Solid => Tile::Solid,
        }
    }
}

/// What the tiles and objects of a Tiled map (TMX or TMJ) mean to platnav.
///
/// A Tiled tile carries no collision meaning of its own; games mark it with
/// custom properties or a class. platnav reads, for every tile of a tileset:
///
/// 1. the bool properties `solid`, `one_way`, `hazard` and `ladder` (a
///    property set to `true` gives that kind);
/// 2. the string property named by the mapping's `property` (for example
///    `TileType`), looked up in its `values` table. A value missing from the
///    table is an error ([`LevelError::Mapping`]) so a typo cannot silently
///    turn spikes into air;
/// 3. the tile's class (Tiled's `type`/`class`, the `tiled` crate's
///    `user_type`), looked up in the `classes` table; classes missing from
///    it are ignored (games use classes for many other things).
///
/// When several of these apply, the strongest wins, in this order:
/// `solid` > `one_way` > `hazard` > `goal` > `spawn` > `ladder` > `empty`.
/// The same order merges several tile layers into one grid ("solid wins").
///
/// **Ladders**: platnav has no ladder tile yet, so [`TileKind::Ladder`]
/// becomes [`Tile::Empty`]; the kind is kept so a later ladder link can
/// start using it without changing mapping files.
///
/// # The mapping file (JSON)
///
/// ```json
/// {
///   "property": "TileType",
///   "values": { "Geometry": "solid", "Spikes": "hazard", "Ladder": "ladder",
///               "JumpPad": "empty", "Decor": "empty" },
///   "classes": { "Spike": "hazard" },
///   "spawn": ["PlayerSpawnPoint"],
///   "goal": ["LevelCompleteTrigger"],
///   "layer": "GamePlayTiles"
/// }
/// ```
///
/// Every field is optional. Kinds are `empty`, `solid`, `one_way` (also
/// `one-way`), `hazard`, `ladder`, `goal` and `spawn`. `spawn` and `goal`
/// list the object classes or names that mark the spawn point and the goal
/// area (defaults: `PlayerSpawnPoint` and `LevelCompleteTrigger`). `layer`
/// picks the collision tile layer (default: every tile layer, merged); a
/// layer named in [`LoadOptions::layer`](super::LoadOptions) overrides it.
/// Unknown fields are an error. The file may be at most
/// [`TileMapping::MAX_BYTES`] long.
///
/// # Objects
///
/// Object positions are pixels; a pixel `(x, y)` lies in cell
/// `(floor(x / tilewidth), floor(y / tileheight))`. A point object marks the
/// cell that contains it; a rectangle (or ellipse, or tile object) marks
/// every cell it overlaps as a goal, or, for a spawn, the cell holding the
/// middle of its bottom edge (where a body stands). An object marks its
/// cells as [`Tile::Spawn`]/[`Tile::Goal`] in the level where the cell is
/// not solid; the cells are returned in [`LoadedLevel`](super::LoadedLevel)
/// either way. Two spawn objects are an error, and so is a marker object
/// that lies wholly off the map. Polygons, polylines and text are ignored.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TileMapping {
    /// The string tile property whose value is looked up in `values`.
    pub property: Option<String>,
    /// Property value to kind.
    pub values: BTreeMap<String, TileKind>,
    /// Tile class (Tiled `type`/`class`) to kind; unlisted classes are ignored.
    pub classes: BTreeMap<String, TileKind>,
    /// Object classes or names that mark the spawn point.
    pub spawn: Vec<String>,
    /// Object classes or names that mark the goal.
    pub goal: Vec<String>,
    /// The collision tile layer; `None` merges every tile layer.
    pub layer: Option<String>,
}

impl Default for TileMapping {
    fn default() -> Self {
        Self {
            property: None,
            values: BTreeMap::new(),
            classes: BTreeMap::new(),
            spawn: vec!["PlayerSpawnPoint".to_owned()],
            goal: vec!["LevelCompleteTrigger".to_owned()],
            layer: None,
        }
    }
}

/// A custom property value, as far as the mapping cares.
pub(crate) enum Prop<'a> {
    Bool(bool),
    Str(&'a str),
    Other,
}

impl TileMapping {
    /// The largest mapping file accepted, in bytes (1 MiB).
    pub const MAX_BYTES: usize = 1 << 20;

    /// Parses a mapping JSON document.
    ///
    /// # Errors
    /// [`LevelError::Mapping`] for malformed or oversized JSON, an unknown
    /// field or an unknown kind (the message has line and column).
    pub fn from_json(text: &str) -> Result<Self, LevelError> {
        if text.len() > Self::MAX_BYTES {
            return Err(LevelError::Limit {
                what: "mapping file size in bytes",
                value: text.len() as u64,
                limit: Self::MAX_BYTES as u64,
            });
        }
        serde_json::from_str(text).map_err(|e| LevelError::Mapping(e.to_string()))
    }

    /// Reads a mapping file.
    ///
    /// # Errors
    /// As [`TileMapping::from_json`], wrapped with the file name.
    pub fn load(path: &FsPath) -> Result<Self, LevelError> {
        let text = read_text(path)?;
        Self::from_json(&text).map_err(|e| e.in_file(path))
    }

    /// The kind of one tileset tile from its class and properties, or `None`
    /// when nothing marks it.
    pub(crate) fn kind_of<'a>(
        &self,
        tile_id: u32,
        class: Option<&str>,
        props: impl IntoIterator<Item = (&'a str, Prop<'a>)>,
    ) -> Result<Option<TileKind>, LevelError> {
        let mut best: Option<TileKind> = None;
        let mut take = |k: TileKind| best = Some(best.map_or(k, |b| b.max(k)));
        if let Some(kind) = class.and_then(|c| self.classes.get(c)) {
            take(*kind);
        }
        for (name, value) in props {
            match value {
                Prop::Bool(true) => match name {
                    "solid" => take(TileKind::Solid),
                    "one_way" => take(TileKind::OneWay),
                    "hazard" => take(TileKind::Hazard),
                    "ladder" => take(TileKind::Ladder),
                    _ => {}
                },
                Prop::Str(v) if self.property.as_deref() == Some(name) => {
                    match self.values.get(v) {
                        Some(kind) => take(*kind),
                        None => {
                            return Err(LevelError::Mapping(format!(
                                "tile {tile_id}: {name} value {v:?} is not in the mapping's \"values\""
                            )));
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(best)
    }

    /// True when an object with this class and name marks the spawn.
    pub(crate) fn is_spawn(&self, class: &str, name: &str) -> bool {
        self.spawn.iter().any(|s| s == class || s == name)
    }

    /// True when an object with this class and name marks the goal.
    pub(crate) fn is_goal(&self, class: &str, name: &str) -> bool {
        self.goal.iter().any(|s| s == class || s == name)
    }
}

/// Flip and rotation flags in the top four bits of a Tiled gid.
pub(crate) const GID_FLAGS: u32 = 0xF000_0000;

/// A merged collision grid under construction.
pub(crate) struct Grid {
    pub width: usize,
    pub height: usize,
    pub kinds: Vec<TileKind>,
}

impl Grid {
    /// An all-empty grid; the size must already have passed `check_size`.
    pub fn new(width: usize, height: usize) -> Result<Self, LevelError> {
        super::check_size(width, height)?;
        Ok(Self {
            width,
            height,
            kinds: vec![TileKind::Empty; width * height],
        })
    }

    /// Merges `kind` into the cell (the stronger kind wins); off-grid
    /// cells are ignored.
    pub fn merge(&mut self, col: i64, row: i64, kind: TileKind) {
        if col >= 0
            && row >= 0
            && (col as u64) < self.width as u64
            && (row as u64) < self.height as u64
        {
            let k = &mut self.kinds[row as usize * self.width + col as usize];
            *k = (*k).max(kind);
        }
    }
}

/// A marker object's footprint in pixels.
pub(crate) struct Shape {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    /// A point (no area).
    pub point: bool,
}

/// Spawn and goal objects collected while reading a map.
pub(crate) struct Marks<'m> {
    mapping: &'m TileMapping,
    tile_w: f64,
    tile_h: f64,
    /// The map cell at the grid's top-left corner (non-zero for infinite maps).
    origin: (i64, i64),
    width: i64,
    height: i64,
    spawn: Option<(Cell, u32)>,
    goals: Vec<Cell>,
}

impl<'m> Marks<'m> {
    pub fn new(
        mapping: &'m TileMapping,
        tile_w: u32,
        tile_h: u32,
        origin: (i64, i64),
        grid: &Grid,
    ) -> Self {
        Self {
            mapping,
            tile_w: f64::from(tile_w.max(1)),
            tile_h: f64::from(tile_h.max(1)),
            origin,
            width: grid.width as i64,
            height: grid.height as i64,
            spawn: None,
            goals: Vec::new(),
        }
    }

    fn cell_of(&self, x: f64, y: f64) -> (i64, i64) {
        // `as` saturates, and NaN gives 0: no overflow on hostile floats.
        (
            ((x / self.tile_w).floor() as i64).saturating_sub(self.origin.0),
            ((y / self.tile_h).floor() as i64).saturating_sub(self.origin.1),
        )
    }

    fn on_map(&self, (c, r): (i64, i64)) -> bool {
        c >= 0 && r >= 0 && c < self.width && r < self.height
    }

    /// Records one object if its class or name marks a spawn or a goal.
    pub fn object(
        &mut self,
        id: u32,
        class: &str,
        name: &str,
        s: &Shape,
    ) -> Result<(), LevelError> {
        let spawn = self.mapping.is_spawn(class, name);
        let goal = self.mapping.is_goal(class, name);
        if !spawn && !goal {
            return Ok(());
        }
        if ![s.x, s.y, s.w, s.h].iter().all(|v| v.is_finite()) {
            return Err(LevelError::Tiled(format!(
                "object {id} ({name:?}) has a non-finite position or size"
            )));
        }
        let off = || {
            LevelError::Tiled(format!(
                "object {id} ({name:?}) at pixel {},{} lies off the map",
                s.x, s.y
            ))
        };
        if spawn {
            let at = if s.point || s.w <= 0.0 || s.h <= 0.0 {
                self.cell_of(s.x, s.y)
            } else {
                // The middle of the bottom edge, nudged inside the rectangle.
                self.cell_of(s.x + s.w / 2.0, s.y + s.h - s.h.min(self.tile_h) / 2.0)
            };
            if !self.on_map(at) {
                return Err(off());
            }
            let cell = Cell::new(at.0 as i32, at.1 as i32);
            if let Some((first, first_id)) = self.spawn {
                return Err(LevelError::Tiled(format!(
                    "two spawn objects: {first_id} at cell {first} and {id} at cell {cell}"
                )));
            }
            self.spawn = Some((cell, id));
        }
        if goal {
            let before = self.goals.len();
            if s.point || s.w <= 0.0 || s.h <= 0.0 {
                let at = self.cell_of(s.x, s.y);
                if self.on_map(at) {
                    self.goals.push(Cell::new(at.0 as i32, at.1 as i32));
                }
            } else {
                let (c0, r0) = self.cell_of(s.x, s.y);
                // The last cell the rectangle overlaps (its far edge is open).
                let (c1, r1) = self.cell_of(
                    s.x + s.w - s.w.min(self.tile_w) * 1e-6,
                    s.y + s.h - s.h.min(self.tile_h) * 1e-6,
                );
                let (c0, r0) = (c0.max(0), r0.max(0));
                let (c1, r1) = (c1.min(self.width - 1), r1.min(self.height - 1));
                for r in r0..=r1 {
                    for c in c0..=c1 {
                        self.goals.push(Cell::new(c as i32, r as i32));
                    }
                }
            }
            if self.goals.len() == before {
                return Err(off());
            }
        }
        Ok(())
    }

    /// Builds the level and marks the spawn and goal cells that are not solid.
    pub fn finish(mut self, grid: Grid) -> Result<LoadedLevel, LevelError> {
        let tiles = grid.kinds.iter().map(|k| k.tile()).collect();
        let mut level = Level::new(grid.width, grid.height, tiles)?;
        self.goals.sort_unstable();
        self.goals.dedup();
        for &g in &self.goals {
            if !level.get(g).is_some_and(Tile::is_solid) {
                level.set(g, Tile::Goal);
            }
        }
        let spawn = self.spawn.map(|(c, _)| c);
        if let Some(s) = spawn
            && !level.get(s).is_some_and(Tile::is_solid)
        {
            level.set(s, Tile::Spawn);
        }
        Ok(LoadedLevel {
            level,
            spawn,
            goals: self.goals,
        })
    }
}

/// Decodes one layer's (or chunk's) tile data: CSV text, or base64 with
/// optional `zlib`/`gzip` compression. Exactly `expected` gids must be
/// present; decompression stops after `expected * 4 + 1` bytes, so a
/// compression bomb costs at most that much memory.
pub(crate) fn decode_data(
    encoding: Option<&str>,
    compression: Option<&str>,
    text: &str,
    expected: usize,
) -> Result<Vec<u32>, String> {
    if expected > MAX_CELLS {
        return Err(format!(
            "data of {expected} tiles exceeds the limit of {MAX_CELLS}"
        ));
    }
    let gids = match (encoding, compression.filter(|c| !c.is_empty())) {
        (Some("csv") | None, None) => {
            let text = text.trim();
            if text.is_empty() {
                Vec::new()
            } else {
                let mut gids = Vec::with_capacity(expected.min(text.len() / 2 + 1));
                for (i, v) in text.trim_end_matches(',').split(',').enumerate() {
                    if i >= expected {
                        return Err(format!(
                            "data holds more than the {expected} tiles expected"
                        ));
                    }
                    let v = v.trim();
                    gids.push(
                        v.parse::<u32>()
                            .map_err(|e| format!("data entry {} ({v:?}): {e}", i + 1))?,
                    );
                }
                gids
            }
        }
        (Some("base64"), comp) => {
            let clean: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
            let raw = base64::engine::general_purpose::STANDARD
                .decode(&clean)
                .map_err(|e| format!("base64: {e}"))?;
            let want = expected * 4;
            let bytes = match comp {
                None => raw,
                Some(kind @ ("zlib" | "gzip")) => {
                    let mut out = Vec::new();
                    let limit = want as u64 + 1;
                    let res = if kind == "zlib" {
                        flate2::read::ZlibDecoder::new(&raw[..])
                            .take(limit)
                            .read_to_end(&mut out)
                    } else {
                        flate2::read::GzDecoder::new(&raw[..])
                            .take(limit)
                            .read_to_end(&mut out)
                    };
                    res.map_err(|e| format!("{kind}: {e}"))?;
                    out
                }
                Some(other) => {
                    return Err(format!(
                        "compression {other:?} is not supported (use csv, base64, zlib or gzip)"
                    ));
                }
            };
            if bytes.len() > want {
                return Err(format!(
                    "data inflates to more than the {want} bytes of {expected} tiles"
                ));
            }
            if bytes.len() != want {
                return Err(format!(
                    "data holds {} bytes, expected {want} for {expected} tiles",
                    bytes.len()
                ));
            }
            bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        }
        (enc, comp) => {
            return Err(format!(
                "encoding {enc:?} with compression {comp:?} is not supported"
            ));
        }
    };
    if gids.len() != expected {
        return Err(format!(
            "data holds {} tiles, expected {expected}",
            gids.len()
        ));
    }
    Ok(gids)
}
