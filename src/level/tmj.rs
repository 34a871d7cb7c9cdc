//! Tiled JSON maps: see [`LoadedLevel::load_tmj`].
use std::collections::HashMap;
use std::fmt;
use std::path::Path;

use serde::Deserialize;
use serde::de::{self, IgnoredAny, SeqAccess, Visitor};

use super::mapping::{GID_FLAGS, Grid, Marks, Prop, Shape, TileKind, decode_data};
use super::{
    LevelError, LoadedLevel, MAX_SIDE, TileMapping, check_size, read_referenced, read_text,
};
use crate::MAX_LAYER_CELLS;

const MAX_CHUNK_COORD: i64 = 1 << 24;

#[derive(Deserialize)]
struct TmjMap {
    #[serde(default)]
    width: u32,
    #[serde(default)]
    height: u32,
    #[serde(default)]
    infinite: bool,
    tilewidth: u32,
    tileheight: u32,
    #[serde(default)]
    orientation: Option<String>,
    #[serde(default)]
    layers: Vec<TmjLayer>,
    #[serde(default)]
    tilesets: Vec<TmjTileset>,
}

#[derive(Deserialize)]
struct TmjLayer {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    width: u32,
    #[serde(default)]
    height: u32,
    data: Option<TmjData>,
    encoding: Option<String>,
    compression: Option<String>,
    chunks: Option<Vec<TmjChunk>>,
    objects: Option<Vec<TmjObject>>,
    layers: Option<Vec<TmjLayer>>,
}

#[derive(Deserialize)]
struct TmjChunk {
    x: i64,
    y: i64,
    width: u32,
    height: u32,
    data: TmjData,
}

/// Layer data: an array of gids or a base64 string.
enum TmjData {
    Gids(Vec<u32>),
    Base64(String),
}

impl<'de> Deserialize<'de> for TmjData {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = TmjData;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array of gids or a base64 string")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<TmjData, E> {
                Ok(TmjData::Base64(s.to_owned()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TmjData, A::Error> {
                // No size hint is trusted: the vector grows with the input.
                let mut v = Vec::new();
                while let Some(g) = seq.next_element::<u32>()? {
                    v.push(g);
                }
                Ok(TmjData::Gids(v))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize)]
struct TmjObject {
    #[serde(default)]
    id: u32,
    #[serde(default)]
    name: String,
    #[serde(default, rename = "type")]
    kind: String,
    #[serde(default)]
    class: String,
    #[serde(default)]
    x: f64,
    #[serde(default)]
    y: f64,
    #[serde(default)]
    width: f64,
    #[serde(default)]
    height: f64,
    #[serde(default)]
    point: bool,
    gid: Option<u32>,
    polygon: Option<IgnoredAny>,
    polyline: Option<IgnoredAny>,
    text: Option<IgnoredAny>,
}

#[derive(Deserialize)]
struct TmjTileset {
    #[serde(default)]
    firstgid: u32,
    source: Option<String>,
    #[serde(default)]
    name: String,
    #[serde(default)]
    tilecount: u32,
    #[serde(default)]
    tiles: Vec<TmjTile>,
}

#[derive(Deserialize)]
struct TmjTile {
    id: u32,
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    class: Option<String>,
    #[serde(default)]
    properties: Vec<TmjProp>,
}

#[derive(Deserialize)]
struct TmjProp {
    name: String,
    #[serde(default)]
    value: serde_json::Value,
}

fn json_err(e: &serde_json::Error) -> LevelError {
    LevelError::Tmj(e.to_string())
}

impl LoadedLevel {
    /// Loads a Tiled JSON map (`.tmj`, `.json`) with embedded or external JSON
    /// tilesets (`.tsj`), read with serde (the `tiled` crate reads only TMX).
    ///
    /// The same [`TileMapping`] rules as TMX apply (see
    /// [`TileMapping`]): tile properties and classes give tile kinds, several tile
    /// layers merge with solid winning, point and rectangle objects give spawn
    /// and goals. Layer data may be a JSON array of gids or a base64 string,
    /// uncompressed, `zlib` or `gzip`; infinite maps are read from their chunks
    /// and become the bounding box of their non-empty tiles. Flip flags are
    /// stripped from gids; a gid that no tileset covers (`firstgid` to
    /// `firstgid + tilecount - 1`) is an error. Only orthogonal maps load.
    ///
    /// # Allocation bound
    ///
    /// The document is at most [`MAX_FILE_BYTES`](crate::MAX_FILE_BYTES) long
    /// (checked by the path loaders; [`LoadedLevel::from_tmj_str`] takes what it
    /// is given). serde_json holds at most 4 bytes per gid, and each gid takes
    /// at least 2 bytes of JSON; base64 data is decoded to exactly
    /// `width * height * 4` bytes (compressed data is inflated with that cap).
    /// Layer and chunk cells summed over the map are bounded by
    /// [`MAX_LAYER_CELLS`](crate::MAX_LAYER_CELLS); the final grid by
    /// [`MAX_CELLS`](crate::MAX_CELLS). `tilecount` is only compared, never
    /// allocated. Group nesting is bounded by serde_json's recursion limit (128).
    ///
    ///
    /// # Errors
    /// Any [`LevelError`], wrapped in [`LevelError::File`] naming the map.
    pub fn load_tmj(path: &Path, mapping: &TileMapping) -> Result<Self, LevelError> {
        let text = read_text(path)?;
        let base = path.parent().unwrap_or(Path::new(""));
        Self::from_tmj_str(&text, Some(base), mapping).map_err(|e| e.in_file(path))
    }

    /// Reads a Tiled JSON map held in memory; external tilesets are read
    /// from `base_dir`, and are an error when it is `None`.
    ///
    /// # Errors
    /// [`LevelError::Tmj`] for malformed JSON (with line and column) or
    /// inconsistent data, and the mapping and size errors of the loaders.
    pub fn from_tmj_str(
        text: &str,
        base_dir: Option<&Path>,
        mapping: &TileMapping,
    ) -> Result<Self, LevelError> {
        let map: TmjMap = serde_json::from_str(text).map_err(|e| json_err(&e))?;
        convert(map, base_dir, mapping)
    }
}

/// A tileset's gid range and marked tiles.
struct Set {
    first: u32,
    count: u32,
    kinds: HashMap<u32, TileKind>,
}

fn tileset(
    ts: TmjTileset,
    base_dir: Option<&Path>,
    mapping: &TileMapping,
) -> Result<Set, LevelError> {
    let first = ts.firstgid;
    let ts = match &ts.source {
        None => ts,
        Some(src) => {
            let Some(base) = base_dir else {
                return Err(LevelError::Tmj(format!(
                    "tileset {src:?}: external files cannot be read for an in-memory map"
                )));
            };
            if !src.to_ascii_lowercase().ends_with(".tsj")
                && !src.to_ascii_lowercase().ends_with(".json")
            {
                return Err(LevelError::Tmj(format!(
                    "tileset {src:?}: only JSON tilesets (.tsj) can be used by a JSON map"
                )));
            }
            let path = base.join(src);
            let bytes = read_referenced(&path)?;
            let text = String::from_utf8(bytes)
                .map_err(|_| LevelError::Io("not UTF-8 text".into()).in_file(&path))?;
            serde_json::from_str::<TmjTileset>(&text).map_err(|e| json_err(&e).in_file(&path))?
        }
    };
    let mut kinds = HashMap::new();
    let mut count = ts.tilecount;
    for tile in &ts.tiles {
        count = count.max(tile.id.saturating_add(1));
        let class = tile
            .kind
            .as_deref()
            .filter(|s| !s.is_empty())
            .or(tile.class.as_deref());
        let props = tile.properties.iter().map(|p| {
            let v = match &p.value {
                serde_json::Value::Bool(b) => Prop::Bool(*b),
                serde_json::Value::String(s) => Prop::Str(s.as_str()),
                _ => Prop::Other,
            };
            (p.name.as_str(), v)
        });
        let kind = mapping
            .kind_of(tile.id, class, props)
            .map_err(|e| LevelError::Mapping(format!("tileset {:?}: {e}", ts.name)))?;
        if let Some(k) = kind {
            kinds.insert(tile.id, k);
        }
    }
    Ok(Set {
        first,
        count,
        kinds,
    })
}

/// Layers flattened out of groups.
fn flatten(layers: Vec<TmjLayer>, tiles: &mut Vec<TmjLayer>, objects: &mut Vec<TmjObject>) {
    for mut layer in layers {
        match layer.kind.as_str() {
            "tilelayer" => tiles.push(layer),
            "objectgroup" => objects.extend(layer.objects.take().unwrap_or_default()),
            "group" => flatten(layer.layers.take().unwrap_or_default(), tiles, objects),
            _ => {}
        }
    }
}

fn gids_of(
    layer: &TmjLayer,
    data: TmjData,
    expected: usize,
    what: &str,
) -> Result<Vec<u32>, LevelError> {
    let gids = match data {
        TmjData::Gids(v) => {
            if layer.encoding.as_deref().is_some_and(|e| e != "csv") {
                return Err(LevelError::Tmj(format!(
                    "layer {:?}{what}: data is an array but encoding is {:?}",
                    layer.name, layer.encoding
                )));
            }
            v
        }
        TmjData::Base64(s) => {
            decode_data(Some("base64"), layer.compression.as_deref(), &s, expected)
                .map_err(|m| LevelError::Tmj(format!("layer {:?}{what}: {m}", layer.name)))?
        }
    };
    if gids.len() != expected {
        return Err(LevelError::Tmj(format!(
            "layer {:?}{what}: data holds {} tiles, expected {expected}",
            layer.name,
            gids.len()
        )));
    }
    Ok(gids)
}

fn convert(
    map: TmjMap,
    base_dir: Option<&Path>,
    mapping: &TileMapping,
) -> Result<LoadedLevel, LevelError> {
    if let Some(o) = map.orientation.as_deref().filter(|o| *o != "orthogonal") {
        return Err(LevelError::Tmj(format!(
            "only orthogonal maps are supported, not {o:?}"
        )));
    }
    if !map.infinite {
        check_size(map.width as usize, map.height as usize)?;
    }
    let mut sets = Vec::with_capacity(map.tilesets.len().min(1024));
    for ts in map.tilesets {
        sets.push(tileset(ts, base_dir, mapping)?);
    }
    let mut tile_layers = Vec::new();
    let mut objects = Vec::new();
    flatten(map.layers, &mut tile_layers, &mut objects);
    if let Some(want) = &mapping.layer {
        let names: Vec<String> = tile_layers
            .iter()
            .map(|l| format!("{:?}", l.name))
            .collect();
        tile_layers.retain(|l| &l.name == want);
        if tile_layers.is_empty() {
            return Err(LevelError::Tmj(format!(
                "no tile layer named {want:?} (tile layers: {})",
                names.join(", ")
            )));
        }
    }

    // Non-empty tiles: (kind, col, row); unknown gids fail here.
    let mut cells: Vec<(TileKind, i64, i64)> = Vec::new();
    let mut budget: u64 = 0;
    let mut spend = |n: u64| -> Result<(), LevelError> {
        budget = budget.saturating_add(n);
        if budget > MAX_LAYER_CELLS {
            return Err(LevelError::Limit {
                what: "tile layer cells",
                value: budget,
                limit: MAX_LAYER_CELLS,
            });
        }
        Ok(())
    };
    let mut add =
        |layer: &TmjLayer, gids: &[u32], x0: i64, y0: i64, w: u32| -> Result<(), LevelError> {
            let w = w.max(1) as usize;
            for (i, g) in gids.iter().enumerate() {
                let gid = g & !GID_FLAGS;
                if gid == 0 {
                    continue;
                }
                let (col, row) = (x0 + (i % w) as i64, y0 + (i / w) as i64);
                let set = sets
                    .iter()
                    .rev()
                    .find(|s| s.first <= gid && gid - s.first < s.count)
                    .ok_or_else(|| LevelError::UnknownGid {
                        gid,
                        layer: layer.name.clone(),
                        col,
                        row,
                    })?;
                let kind = set
                    .kinds
                    .get(&(gid - set.first))
                    .copied()
                    .unwrap_or(TileKind::Empty);
                cells.push((kind, col, row));
            }
            Ok(())
        };
    for mut layer in tile_layers {
        if let Some(chunks) = layer.chunks.take() {
            for c in chunks {
                if c.x.abs() > MAX_CHUNK_COORD || c.y.abs() > MAX_CHUNK_COORD {
                    return Err(LevelError::Tmj(format!(
                        "layer {:?}: chunk at {},{} lies beyond ±{MAX_CHUNK_COORD}",
                        layer.name, c.x, c.y
                    )));
                }
                if c.width as usize > MAX_SIDE || c.height as usize > MAX_SIDE {
                    return Err(LevelError::TooLarge {
                        width: c.width as usize,
                        height: c.height as usize,
                    });
                }
                let n = u64::from(c.width) * u64::from(c.height);
                spend(n)?;
                let gids = gids_of(
                    &layer,
                    c.data,
                    n as usize,
                    &format!(", chunk {},{}", c.x, c.y),
                )?;
                add(&layer, &gids, c.x, c.y, c.width)?;
            }
        } else if let Some(data) = layer.data.take() {
            let n = u64::from(layer.width) * u64::from(layer.height);
            spend(n)?;
            let gids = gids_of(&layer, data, n as usize, "")?;
            add(&layer, &gids, 0, 0, layer.width)?;
        }
    }

    let (origin, width, height) = if map.infinite {
        let Some(&(_, c, r)) = cells.first() else {
            return Err(LevelError::Empty);
        };
        let (mut c0, mut r0, mut c1, mut r1) = (c, r, c, r);
        for &(_, c, r) in &cells {
            c0 = c0.min(c);
            r0 = r0.min(r);
            c1 = c1.max(c);
            r1 = r1.max(r);
        }
        ((c0, r0), (c1 - c0 + 1) as usize, (r1 - r0 + 1) as usize)
    } else {
        ((0, 0), map.width as usize, map.height as usize)
    };
    let mut grid = Grid::new(width, height)?;
    for &(kind, c, r) in &cells {
        grid.merge(c - origin.0, r - origin.1, kind);
    }

    let mut marks = Marks::new(mapping, map.tilewidth, map.tileheight, origin, &grid);
    for o in &objects {
        if o.polygon.is_some() || o.polyline.is_some() || o.text.is_some() {
            continue;
        }
        let point = o.point;
        // Tile objects are anchored at their bottom-left corner.
        let y = if o.gid.is_some() { o.y - o.height } else { o.y };
        let class = if o.kind.is_empty() { &o.class } else { &o.kind };
        let shape = Shape {
            x: o.x,
            y,
            w: o.width,
            h: o.height,
            point,
        };
        marks.object(o.id, class, &o.name, &shape)?;
    }
    marks.finish(grid)
}
