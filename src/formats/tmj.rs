//! Tiled JSON maps: see [`LoadedLevel::load_tmj`].
use std::collections::HashMap;
use std::fmt;
use std::path::Path;

use serde::Deserialize;
use serde::de::{self, IgnoredAny, SeqAccess, Visitor};

use super::tiled_data::{GID_FLAGS, decode_data, flip_bits};
use super::{MAX_LAYER_CELLS, add_within};
use crate::io::files::{read_referenced_text, read_text};
use crate::level::{LevelError, LoadedLevel, MAX_SIDE, check_size};
use crate::rules::doc::{
    Doc, Geom, Layer, LayerKind, Object, Placed, Prop, Props, TileDef, TileSet,
};
use crate::rules::{self, TileMapping};

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
    #[serde(default)]
    properties: TmjProps,
    #[serde(default)]
    propertytypes: Option<HashMap<String, String>>,
}

/// Properties in either Tiled JSON form: an array of `{name, type, value}`
/// (Tiled 1.2 and later) or a dictionary of name to value, with the types
/// in a sibling `propertytypes` dictionary (older files).
#[derive(Default)]
struct TmjProps(Vec<(String, serde_json::Value, Option<String>)>);

impl<'de> Deserialize<'de> for TmjProps {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Item {
            name: String,
            #[serde(default, rename = "type")]
            ty: Option<String>,
            #[serde(default)]
            value: serde_json::Value,
        }
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Form {
            List(Vec<Item>),
            Dict(std::collections::BTreeMap<String, serde_json::Value>),
        }
        Ok(match Form::deserialize(d)? {
            Form::List(v) => TmjProps(v.into_iter().map(|i| (i.name, i.value, i.ty)).collect()),
            Form::Dict(m) => TmjProps(m.into_iter().map(|(k, v)| (k, v, None)).collect()),
        })
    }
}

impl TmjProps {
    fn props(&self, types: Option<&HashMap<String, String>>) -> Props {
        self.0
            .iter()
            .map(|(k, v, ty)| {
                let ty = ty.as_deref().or_else(|| types?.get(k).map(String::as_str));
                (k.clone(), Prop::from_json(v, ty))
            })
            .collect()
    }
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
    objects: Option<Vec<serde_json::Value>>,
    layers: Option<Vec<TmjLayer>>,
    #[serde(default = "yes")]
    visible: bool,
    #[serde(default)]
    properties: TmjProps,
    #[serde(default)]
    propertytypes: Option<HashMap<String, String>>,
}

fn yes() -> bool {
    true
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
    rotation: f64,
    #[serde(default)]
    point: bool,
    #[serde(default)]
    ellipse: bool,
    gid: Option<u32>,
    polygon: Option<Vec<TmjPoint>>,
    polyline: Option<Vec<TmjPoint>>,
    text: Option<IgnoredAny>,
    #[serde(default)]
    properties: TmjProps,
    #[serde(default)]
    propertytypes: Option<HashMap<String, String>>,
}

#[derive(Deserialize)]
struct TmjPoint {
    x: f64,
    y: f64,
}

#[derive(Deserialize)]
struct TmjTileset {
    #[serde(default)]
    firstgid: u32,
    source: Option<String>,
    #[serde(default)]
    name: String,
    #[serde(default)]
    tilecount: Option<u32>,
    #[serde(default)]
    tilewidth: u32,
    #[serde(default)]
    tileheight: u32,
    #[serde(default)]
    imagewidth: u32,
    #[serde(default)]
    imageheight: u32,
    #[serde(default)]
    margin: u32,
    #[serde(default)]
    spacing: u32,
    #[serde(default)]
    tiles: TmjTiles,
    /// Old files: tile id to properties, and to their types.
    #[serde(default)]
    tileproperties: HashMap<String, TmjProps>,
    #[serde(default)]
    tilepropertytypes: HashMap<String, HashMap<String, String>>,
}

/// Tileset tiles: an array (Tiled 1.2 and later) or a dictionary keyed by
/// tile id (older files).
#[derive(Default)]
struct TmjTiles(Vec<TmjTile>);

impl<'de> Deserialize<'de> for TmjTiles {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Form {
            List(Vec<TmjTile>),
            Dict(std::collections::BTreeMap<String, TmjTile>),
        }
        Ok(match Form::deserialize(d)? {
            Form::List(v) => TmjTiles(v),
            Form::Dict(m) => TmjTiles(
                m.into_iter()
                    .filter_map(|(k, mut t)| {
                        t.id = Some(k.trim().parse().ok()?);
                        Some(t)
                    })
                    .collect(),
            ),
        })
    }
}

#[derive(Deserialize)]
struct TmjTile {
    #[serde(default)]
    id: Option<u32>,
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    class: Option<String>,
    #[serde(default)]
    properties: TmjProps,
    #[serde(default)]
    propertytypes: Option<HashMap<String, String>>,
    #[serde(default)]
    objectgroup: Option<TmjObjectGroup>,
}

#[derive(Deserialize)]
struct TmjObjectGroup {
    #[serde(default)]
    objects: Vec<TmjObject>,
}

fn json_err(e: &serde_json::Error) -> LevelError {
    LevelError::Tmj(e.to_string())
}

impl LoadedLevel {
    /// Loads a Tiled JSON map (`.tmj`, `.json`) with embedded or external JSON
    /// tilesets (`.tsj`) and object templates (`.tj`), read with serde (the
    /// `tiled` crate reads only TMX).
    ///
    /// The rules file and the conventions (see [`TileMapping`]) give tiles,
    /// layers and objects their meaning, as for TMX. Layer data may be a
    /// JSON array of gids or a base64 string, uncompressed, `zlib` or
    /// `gzip`; infinite maps are read from their chunks (at any coordinates,
    /// negative too) and become the bounding box of their collision tiles.
    /// Properties may be arrays or the old dictionaries with
    /// `propertytypes`; tileset tiles an array or the old dictionary keyed
    /// by id; a tileset without `tilecount` spans its image grid, else its
    /// gid range. A gid that no tileset covers is an error. Only orthogonal
    /// maps load.
    ///
    /// # Allocation bound
    ///
    /// The document is at most [`MAX_FILE_BYTES`](crate::io::files::MAX_FILE_BYTES) long
    /// (checked by the path loaders; [`LoadedLevel::from_tmj_str`] takes what it
    /// is given), and so is each tileset and template file. serde_json holds
    /// at most 4 bytes per gid, and each gid takes at least 2 bytes of JSON;
    /// base64 data is decoded to exactly `width * height * 4` bytes
    /// (compressed data is inflated with that cap). Layer and chunk cells
    /// summed over the map are bounded by
    /// [`MAX_LAYER_CELLS`]; the final grid by
    /// [`MAX_CELLS`](crate::level::MAX_CELLS); object shapes by
    /// [`MAX_RASTER_WORK`](crate::rules::MAX_RASTER_WORK). `tilecount` is only
    /// compared, never allocated. Group nesting is bounded by serde_json's
    /// recursion limit (128).
    ///
    /// # Errors
    /// Any [`LevelError`], wrapped in [`LevelError::File`] naming the map.
    pub fn load_tmj(path: &Path, mapping: &TileMapping) -> Result<Self, LevelError> {
        let text = read_text(path)?;
        let base = path.parent().unwrap_or(Path::new(""));
        Self::from_tmj_str(&text, Some(base), mapping).map_err(|e| e.in_file(path))
    }

    /// Reads a Tiled JSON map held in memory; external tilesets and
    /// templates are read from `base_dir`, and are an error when it is
    /// `None`.
    ///
    /// # Errors
    /// [`LevelError::Tmj`] for malformed JSON (with line and column) or
    /// inconsistent data, and the rules and size errors of the loaders.
    pub fn from_tmj_str(
        text: &str,
        base_dir: Option<&Path>,
        mapping: &TileMapping,
    ) -> Result<Self, LevelError> {
        let map: TmjMap = serde_json::from_str(text).map_err(|e| json_err(&e))?;
        let doc = convert(map, base_dir)?;
        rules::resolve(&doc, mapping)
    }
}

/// A tileset's gid range and marked tiles.
struct Set {
    first: u32,
    /// The gids it spans; `None` when the file does not say (the range up
    /// to the next tileset is used).
    count: Option<u32>,
    /// Where its file lives (external tilesets), for templates.
    source: Option<String>,
    set: TileSet,
}

fn read_json_file(
    base_dir: Option<&Path>,
    src: &str,
    what: &str,
) -> Result<(String, std::path::PathBuf), LevelError> {
    let Some(base) = base_dir else {
        return Err(LevelError::Tmj(format!(
            "{what} {src:?}: external files cannot be read for an in-memory map"
        )));
    };
    let path = base.join(src);
    let text = read_referenced_text(&path)?;
    Ok((text, path))
}

fn tile_shapes(group: Option<&TmjObjectGroup>) -> Vec<Object> {
    group
        .map(|g| {
            g.objects
                .iter()
                .filter_map(|o| object(o, "", None))
                .collect()
        })
        .unwrap_or_default()
}

fn tileset(ts: TmjTileset, base_dir: Option<&Path>) -> Result<Set, LevelError> {
    let first = ts.firstgid;
    let source = ts.source.clone();
    let ts = match &ts.source {
        None => ts,
        Some(src) => {
            let lower = src.to_ascii_lowercase();
            if !lower.ends_with(".tsj") && !lower.ends_with(".json") {
                return Err(LevelError::Tmj(format!(
                    "tileset {src:?}: only JSON tilesets (.tsj) can be used by a JSON map"
                )));
            }
            let (text, path) = read_json_file(base_dir, src, "tileset")?;
            serde_json::from_str::<TmjTileset>(&text).map_err(|e| json_err(&e).in_file(&path))?
        }
    };
    let mut tiles: HashMap<u32, TileDef> = HashMap::new();
    let mut max_id: Option<u32> = None;
    for tile in &ts.tiles.0 {
        let Some(id) = tile.id else {
            return Err(LevelError::Tmj(format!(
                "tileset {:?}: a tile without an id",
                ts.name
            )));
        };
        max_id = Some(max_id.map_or(id, |m| m.max(id)));
        let class = tile
            .kind
            .clone()
            .filter(|s| !s.is_empty())
            .or_else(|| tile.class.clone())
            .filter(|s| !s.is_empty());
        let def = TileDef {
            class,
            props: tile.properties.props(tile.propertytypes.as_ref()),
            shapes: tile_shapes(tile.objectgroup.as_ref()),
        };
        if def != TileDef::default() {
            tiles.insert(id, def);
        }
    }
    for (id, p) in &ts.tileproperties {
        let Ok(id) = id.trim().parse::<u32>() else {
            continue;
        };
        max_id = Some(max_id.map_or(id, |m| m.max(id)));
        let more = p.props(ts.tilepropertytypes.get(&id.to_string()));
        tiles.entry(id).or_default().props.extend(more);
    }
    let grid = || {
        let cols = (ts.imagewidth.checked_sub(2 * ts.margin)? + ts.spacing)
            .checked_div(ts.tilewidth.checked_add(ts.spacing)?)?;
        let rows = (ts.imageheight.checked_sub(2 * ts.margin)? + ts.spacing)
            .checked_div(ts.tileheight.checked_add(ts.spacing)?)?;
        cols.checked_mul(rows)
    };
    let count = match ts.tilecount {
        Some(n) => Some(n.max(max_id.map_or(0, |m| m.saturating_add(1)))),
        None => match (grid(), max_id) {
            (None, None) => None,
            (g, m) => Some(g.unwrap_or(0).max(m.map_or(0, |m| m.saturating_add(1)))),
        },
    };
    Ok(Set {
        first,
        count,
        source,
        set: TileSet {
            name: ts.name,
            tile_w: f64::from(ts.tilewidth),
            tile_h: f64::from(ts.tileheight),
            tiles,
        },
    })
}

/// Layers flattened out of groups (a hidden group hides its layers).
fn flatten(
    layers: Vec<TmjLayer>,
    visible: bool,
    tiles: &mut Vec<TmjLayer>,
    objects: &mut Vec<(String, Vec<serde_json::Value>)>,
) {
    for mut layer in layers {
        layer.visible &= visible;
        match layer.kind.as_str() {
            "tilelayer" => tiles.push(layer),
            "objectgroup" => {
                objects.push((layer.name.clone(), layer.objects.take().unwrap_or_default()))
            }
            "group" => {
                let vis = layer.visible;
                flatten(layer.layers.take().unwrap_or_default(), vis, tiles, objects);
            }
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

/// An object's outline (tile objects are anchored at their bottom-left
/// corner) and marks (its tile's class and properties when it has none).
fn object(o: &TmjObject, layer: &str, tile: Option<(&TileDef, (f64, f64))>) -> Option<Object> {
    if o.text.is_some() {
        return None;
    }
    let pts = |p: &[TmjPoint]| p.iter().map(|q| (q.x, q.y)).collect::<Vec<_>>();
    let geom = if let Some(p) = &o.polygon {
        Geom::Polygon(pts(p))
    } else if let Some(p) = &o.polyline {
        Geom::Polyline(pts(p))
    } else if o.point {
        Geom::Point
    } else if o.gid.is_some() {
        let size = tile.map_or((0.0, 0.0), |t| t.1);
        let w = if o.width > 0.0 { o.width } else { size.0 };
        let h = if o.height > 0.0 { o.height } else { size.1 };
        Geom::Polygon(vec![(0.0, -h), (w, -h), (w, 0.0), (0.0, 0.0)])
    } else if o.ellipse {
        Geom::Ellipse {
            w: o.width,
            h: o.height,
        }
    } else {
        Geom::Rect {
            w: o.width,
            h: o.height,
        }
    };
    let mut class = if o.kind.is_empty() {
        o.class.clone()
    } else {
        o.kind.clone()
    };
    let mut props = o.properties.props(o.propertytypes.as_ref());
    if let Some((t, _)) = tile {
        t.lend(&mut class, &mut props);
    }
    Some(Object {
        id: o.id,
        name: o.name.clone(),
        class,
        layer: layer.to_owned(),
        x: o.x,
        y: o.y,
        rotation: o.rotation,
        geom,
        props,
    })
}

/// Object templates (`.tj`) read so far: path to its object and its tileset
/// (`firstgid`, `source`).
type Templates = HashMap<String, (serde_json::Value, Option<(u32, String)>)>;

/// Merges an object with its template (the object's own fields win) and
/// maps a template tile's gid into the map's gids.
fn with_template(
    mut v: serde_json::Value,
    base_dir: Option<&Path>,
    templates: &mut Templates,
    sets: &[Set],
) -> Result<serde_json::Value, LevelError> {
    let Some(src) = v
        .get("template")
        .and_then(|t| t.as_str())
        .map(str::to_owned)
    else {
        return Ok(v);
    };
    if !templates.contains_key(&src) {
        let (text, path) = read_json_file(base_dir, &src, "template")?;
        let t: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| json_err(&e).in_file(&path))?;
        let obj = t.get("object").cloned().unwrap_or_default();
        let ts = t.get("tileset").and_then(|ts| {
            Some((
                u32::try_from(ts.get("firstgid")?.as_u64()?).ok()?,
                ts.get("source")?.as_str()?.to_owned(),
            ))
        });
        templates.insert(src.clone(), (obj, ts));
    }
    let (tobj, tset) = &templates[&src];
    let (Some(own), Some(base)) = (v.as_object_mut(), tobj.as_object()) else {
        return Ok(v);
    };
    for (k, val) in base {
        if k == "gid" {
            // The template's gid counts in the template's tileset.
            let mapped = val.as_u64().and_then(|g| {
                let g = u32::try_from(g).ok()?;
                let (tfirst, tsrc) = tset.as_ref()?;
                let set = sets.iter().find(|s| {
                    s.source
                        .as_deref()
                        .is_some_and(|s| Path::new(s).file_name() == Path::new(tsrc).file_name())
                })?;
                let local = (g & !GID_FLAGS).checked_sub(*tfirst)?;
                Some((g & GID_FLAGS) | set.first.checked_add(local)?)
            });
            if let Some(g) = mapped {
                own.entry("gid").or_insert(g.into());
            }
            continue;
        }
        if k == "properties" {
            // Template properties the object does not override.
            if let (Some(mine), Some(theirs)) = (
                own.get("properties").and_then(|p| p.as_array()).cloned(),
                val.as_array(),
            ) {
                let mut merged = mine.clone();
                for p in theirs {
                    let name = p.get("name");
                    if !mine.iter().any(|m| m.get("name") == name) {
                        merged.push(p.clone());
                    }
                }
                own.insert(k.clone(), merged.into());
                continue;
            }
        }
        own.entry(k.clone()).or_insert_with(|| val.clone());
    }
    own.remove("template");
    Ok(v)
}

/// Reads a parsed map into the rules' document: its tilesets, tile layers
/// (cells by tileset and tile id) and objects (templates merged).
fn convert(map: TmjMap, base_dir: Option<&Path>) -> Result<Doc, LevelError> {
    check_header(&map)?;
    let mut sets = Vec::with_capacity(map.tilesets.len().min(1024));
    for ts in map.tilesets {
        sets.push(tileset(ts, base_dir)?);
    }
    let mut tile_layers = Vec::new();
    let mut object_layers = Vec::new();
    flatten(map.layers, true, &mut tile_layers, &mut object_layers);

    let raw = raw_gids(&mut tile_layers)?;
    let ranges = GidRanges::new(&sets, &raw);
    let layers = place_cells(&tile_layers, raw, &ranges)?;
    let objects = read_objects(&object_layers, base_dir, &sets, &ranges)?;
    Ok(Doc {
        format: "Tiled JSON",
        tile_w: f64::from(map.tilewidth.max(1)),
        tile_h: f64::from(map.tileheight.max(1)),
        size: (!map.infinite).then_some((map.width as usize, map.height as usize)),
        layers,
        tilesets: sets.into_iter().map(|s| s.set).collect(),
        objects,
        object_layers: object_layers.into_iter().map(|(n, _)| n).collect(),
        wrap: crate::rules::doc::wrap_property(&map.properties.props(map.propertytypes.as_ref())),
    })
}

/// Rejects what platnav does not read before anything is allocated: maps
/// that are not orthogonal, finite maps of too many cells, and more
/// tilesets than a cell can name.
fn check_header(map: &TmjMap) -> Result<(), LevelError> {
    if let Some(o) = map.orientation.as_deref().filter(|o| *o != "orthogonal") {
        return Err(LevelError::Tmj(format!(
            "only orthogonal maps are supported, not {o:?}"
        )));
    }
    if !map.infinite {
        check_size(map.width as usize, map.height as usize)?;
    }
    if map.tilesets.len() > usize::from(u16::MAX) {
        return Err(LevelError::Limit {
            what: "tilesets",
            value: map.tilesets.len() as u64,
            limit: u64::from(u16::MAX),
        });
    }
    Ok(())
}

/// The gids of one layer's data or of one of its chunks, row-major.
struct RawGids {
    /// Index of the layer in the flattened tile layers.
    layer: usize,
    /// The cell of the first gid (a chunk's position; 0,0 for plain data).
    x0: i64,
    y0: i64,
    /// Gids per row.
    width: u32,
    gids: Vec<u32>,
}

/// Raw gids per layer (their data or chunks, taken out of the layers),
/// checked against the cell budget and the chunk limits.
fn raw_gids(tile_layers: &mut [TmjLayer]) -> Result<Vec<RawGids>, LevelError> {
    let mut budget: u64 = 0;
    let mut spend = |n: u64| add_within(&mut budget, n, MAX_LAYER_CELLS, "tile layer cells");
    let mut raw = Vec::new();
    for (li, layer) in tile_layers.iter_mut().enumerate() {
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
                let what = format!(", chunk {},{}", c.x, c.y);
                let gids = gids_of(layer, c.data, n as usize, &what)?;
                raw.push(RawGids {
                    layer: li,
                    x0: c.x,
                    y0: c.y,
                    width: c.width,
                    gids,
                });
            }
        } else if let Some(data) = layer.data.take() {
            let n = u64::from(layer.width) * u64::from(layer.height);
            spend(n)?;
            let gids = gids_of(layer, data, n as usize, "")?;
            raw.push(RawGids {
                layer: li,
                x0: 0,
                y0: 0,
                width: layer.width,
                gids,
            });
        }
    }
    Ok(raw)
}

/// The gids each tileset spans, to find the tileset and tile of a gid.
struct GidRanges<'a> {
    sets: &'a [Set],
    /// Per tileset, the gids it spans.
    counts: Vec<u32>,
}

impl<'a> GidRanges<'a> {
    /// Tilesets that do not say their size span the gids up to the next
    /// tileset, or up to the highest gid used.
    fn new(sets: &'a [Set], raw: &[RawGids]) -> Self {
        let max_gid = raw
            .iter()
            .flat_map(|r| r.gids.iter())
            .map(|g| g & !GID_FLAGS)
            .max()
            .unwrap_or(0);
        let mut order: Vec<usize> = (0..sets.len()).collect();
        order.sort_by_key(|&i| sets[i].first);
        let counts: Vec<u32> = (0..sets.len())
            .map(|i| {
                sets[i].count.unwrap_or_else(|| {
                    let pos = order.iter().position(|&j| j == i).unwrap_or(0);
                    match order.get(pos + 1) {
                        Some(&next) => sets[next].first.saturating_sub(sets[i].first),
                        None => max_gid.saturating_add(1).saturating_sub(sets[i].first),
                    }
                })
            })
            .collect();
        GidRanges { sets, counts }
    }

    /// The tileset index and tile id of a gid (flags removed); the last
    /// tileset whose range holds it wins.
    fn locate(&self, gid: u32) -> Option<(u16, u32)> {
        let sets = self.sets;
        (0..sets.len())
            .rev()
            .find(|&i| sets[i].first <= gid && gid - sets[i].first < self.counts[i])
            .map(|i| (i as u16, gid - sets[i].first))
    }
}

/// The rules' tile layers: each layer's gids placed as cells, in map cells;
/// a gid no tileset covers is an error.
fn place_cells(
    tile_layers: &[TmjLayer],
    raw: Vec<RawGids>,
    ranges: &GidRanges<'_>,
) -> Result<Vec<Layer>, LevelError> {
    let mut layers: Vec<Layer> = tile_layers
        .iter()
        .map(|l| Layer {
            name: l.name.clone(),
            visible: l.visible,
            props: l.properties.props(l.propertytypes.as_ref()),
            kind: LayerKind::Tiles,
            cells: Vec::new(),
            grid: None,
            decorative: false,
            marks_only: false,
        })
        .collect();
    for RawGids {
        layer: li,
        x0,
        y0,
        width: w,
        gids,
    } in raw
    {
        let w = w.max(1) as usize;
        for (i, g) in gids.iter().enumerate() {
            let gid = g & !GID_FLAGS;
            if gid == 0 {
                continue;
            }
            let (col, row) = (x0 + (i % w) as i64, y0 + (i / w) as i64);
            let (set, id) = ranges.locate(gid).ok_or_else(|| LevelError::UnknownGid {
                gid,
                layer: layers[li].name.clone(),
                col,
                row,
            })?;
            layers[li].cells.push(Placed {
                col: col as i32,
                row: row as i32,
                set,
                flip: flip_bits(*g),
                id,
            });
        }
    }
    Ok(layers)
}

/// The objects of every object layer, merged with their templates; a tile
/// object lends its tile's class, properties and size.
fn read_objects(
    object_layers: &[(String, Vec<serde_json::Value>)],
    base_dir: Option<&Path>,
    sets: &[Set],
    ranges: &GidRanges<'_>,
) -> Result<Vec<Object>, LevelError> {
    let mut templates = Templates::new();
    let mut objects = Vec::new();
    for (lname, objs) in object_layers {
        for v in objs {
            let v = with_template(v.clone(), base_dir, &mut templates, sets)?;
            let o: TmjObject = serde_json::from_value(v).map_err(|e| json_err(&e))?;
            let tile = o.gid.and_then(|g| {
                let (set, id) = ranges.locate(g & !GID_FLAGS)?;
                let s = &sets[usize::from(set)].set;
                Some((s.tiles.get(&id)?, (s.tile_w, s.tile_h)))
            });
            if let Some(obj) = object(&o, lname, tile) {
                objects.push(obj);
            }
        }
    }
    Ok(objects)
}
