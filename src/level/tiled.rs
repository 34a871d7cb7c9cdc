//! Tiled TMX maps: see [`LoadedLevel::load_tmx`].
use std::collections::HashMap;
use std::io::Cursor;
use std::path::{Path, PathBuf};

use ::tiled::{
    DefaultResourceCache, LayerType, Loader, Map, Orientation, PropertyValue, ResourceReader,
    TileLayer,
};
use xml::common::Position;
use xml::reader::{ParserConfig, XmlEvent};

use super::mapping::{GID_FLAGS, Grid, Marks, Prop, Shape, TileKind, decode_data};
use super::{
    LevelError, LoadedLevel, MAX_CELLS, MAX_SIDE, TileMapping, check_size, read_bytes,
    read_referenced,
};

/// The largest total `tilecount` over the tilesets of one map (2^18).
pub const MAX_TILECOUNT: u64 = 1 << 18;

/// The largest number of tile-layer cells, summed over all layers and
/// chunks of one map (2^24).
pub const MAX_LAYER_CELLS: u64 = 1 << 24;

/// The deepest XML element nesting accepted in a TMX/TSX file.
pub const MAX_XML_DEPTH: usize = 32;

/// The largest chunk coordinate accepted in an infinite map.
const MAX_CHUNK_COORD: i64 = 1 << 24;

/// Counts shared by every file of one load.
#[derive(Default)]
struct Budget {
    tiles: u64,
    cells: u64,
    /// The root map's tileset `firstgid`s, in file order.
    firstgids: Vec<u32>,
}

fn attr<'a>(attrs: &'a [xml::attribute::OwnedAttribute], name: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|a| a.name.local_name == name)
        .map(|a| a.value.as_str())
}

fn num<T: std::str::FromStr>(attrs: &[xml::attribute::OwnedAttribute], name: &str) -> Option<T> {
    attr(attrs, name).and_then(|v| v.trim().parse().ok())
}

/// The data element being read.
struct DataScan {
    encoding: Option<String>,
    compression: Option<String>,
    /// The text of its first (and only) `Characters` event.
    text: Option<String>,
}

/// The chunk being read: position, size and text.
struct ChunkScan {
    x: i64,
    y: i64,
    w: u64,
    h: u64,
    text: Option<String>,
}

fn structure(what: String) -> LevelError {
    LevelError::Tiled(what)
}

/// Pre-scans one TMX/TSX/TX document (see [`LoadedLevel::load_tmx`]).
///
/// The `tiled` crate reads layer data as the first text event inside
/// `<data>` (or `<chunk>`) and matches elements at any depth, so the scan
/// insists on the plain structure Tiled writes: no nested `<map>`,
/// `<layer>`, `<data>` or `<chunk>`, no other element or CDATA inside layer
/// data, and one text node per data or chunk. Anything else is an error
/// rather than a guess at what the crate would make of it.
fn prescan(bytes: &[u8], budget: &mut Budget, root: bool) -> Result<(), LevelError> {
    // The same parser configuration as the `tiled` crate, so both see the
    // same events.
    let mut reader = ParserConfig::new().create_reader(Cursor::new(bytes));
    let mut depth = 0usize;
    let mut seen_map = false;
    let mut infinite = false;
    // (name, width, height) of the tile layer being read.
    let mut layer: Option<(String, u64, u64)> = None;
    let mut data: Option<DataScan> = None;
    let mut chunk: Option<ChunkScan> = None;
    // (tilewidth, margin, spacing) of a tileset without `columns`, whose
    // column count the `tiled` crate computes from its image with unchecked
    // arithmetic.
    let mut columns_from_image: Option<(u32, u32, u32)> = None;
    loop {
        let event = reader.next();
        let pos = reader.position();
        let at = |e: LevelError| match e {
            LevelError::Tiled(m) => LevelError::Tiled(format!("line {}: {m}", pos.row + 1)),
            e => LevelError::Tiled(format!("line {}: {e}", pos.row + 1)),
        };
        match event.map_err(|e| LevelError::Tiled(e.to_string()))? {
            XmlEvent::StartElement {
                name, attributes, ..
            } => {
                depth += 1;
                if depth > MAX_XML_DEPTH {
                    return Err(at(LevelError::Limit {
                        what: "XML nesting depth",
                        value: depth as u64,
                        limit: MAX_XML_DEPTH as u64,
                    }));
                }
                let a = &attributes;
                let tag = name.local_name.as_str();
                if chunk.is_some() || (data.is_some() && (tag != "chunk" || !infinite)) {
                    return Err(at(structure(format!(
                        "unexpected <{tag}> inside layer data"
                    ))));
                }
                match tag {
                    "map" => {
                        if seen_map {
                            return Err(at(structure("a second <map> element".into())));
                        }
                        seen_map = true;
                        // Exactly as the `tiled` crate reads it.
                        infinite = attr(a, "infinite") == Some("1");
                        if !infinite
                            && let (Some(w), Some(h)) =
                                (num::<u64>(a, "width"), num::<u64>(a, "height"))
                        {
                            check_size(w as usize, h as usize).map_err(at)?;
                        }
                    }
                    "tileset" => {
                        if let Some(tc) = num::<u64>(a, "tilecount") {
                            budget.tiles = budget.tiles.saturating_add(tc);
                            if budget.tiles > MAX_TILECOUNT {
                                return Err(at(LevelError::Limit {
                                    what: "tilecount",
                                    value: budget.tiles,
                                    limit: MAX_TILECOUNT,
                                }));
                            }
                        }
                        columns_from_image = num::<u32>(a, "columns").is_none().then(|| {
                            (
                                num::<u32>(a, "tilewidth").unwrap_or(0),
                                num::<u32>(a, "margin").unwrap_or(0),
                                num::<u32>(a, "spacing").unwrap_or(0),
                            )
                        });
                        if root
                            && depth == 2
                            && let Some(g) = num::<u32>(a, "firstgid")
                        {
                            budget.firstgids.push(g);
                        }
                    }
                    "image" => {
                        if let Some((tw, margin, spacing)) = columns_from_image {
                            let w = num::<i32>(a, "width").unwrap_or(0) as u32;
                            let ok = w
                                .checked_sub(margin)
                                .and_then(|x| x.checked_add(spacing))
                                .is_some()
                                && tw.checked_add(spacing).is_some_and(|d| d > 0);
                            if !ok {
                                return Err(at(structure(format!(
                                    "tileset without columns: image width {w}, margin {margin}, \
                                     spacing {spacing} and tile width {tw} give no column count"
                                ))));
                            }
                        }
                    }
                    "layer" => {
                        if layer.is_some() {
                            return Err(at(structure("a <layer> inside a <layer>".into())));
                        }
                        let w = num::<u64>(a, "width").unwrap_or(0);
                        let h = num::<u64>(a, "height").unwrap_or(0);
                        if !infinite {
                            add_cells(budget, w.saturating_mul(h)).map_err(at)?;
                        }
                        let name = attr(a, "name").unwrap_or_default().to_owned();
                        layer = Some((name, w, h));
                    }
                    "data" if layer.is_some() => {
                        let encoding = attr(a, "encoding").map(str::to_owned);
                        if encoding.is_none() {
                            return Err(at(structure(
                                "layer data without an encoding (XML <tile> elements) is not supported"
                                    .into(),
                            )));
                        }
                        data = Some(DataScan {
                            encoding,
                            compression: attr(a, "compression").map(str::to_owned),
                            text: None,
                        });
                    }
                    "chunk" => {
                        let x = num::<i64>(a, "x").unwrap_or(0);
                        let y = num::<i64>(a, "y").unwrap_or(0);
                        let w = num::<u64>(a, "width").unwrap_or(0);
                        let h = num::<u64>(a, "height").unwrap_or(0);
                        if x.abs() > MAX_CHUNK_COORD || y.abs() > MAX_CHUNK_COORD {
                            return Err(at(structure(format!(
                                "chunk at {x},{y} lies beyond ±{MAX_CHUNK_COORD}"
                            ))));
                        }
                        if w > MAX_SIDE as u64 || h > MAX_SIDE as u64 {
                            return Err(at(LevelError::TooLarge {
                                width: w as usize,
                                height: h as usize,
                            }));
                        }
                        add_cells(budget, w * h).map_err(at)?;
                        chunk = Some(ChunkScan {
                            x,
                            y,
                            w,
                            h,
                            text: None,
                        });
                    }
                    _ => {}
                }
            }
            XmlEvent::Characters(s) => {
                let slot = match (&mut chunk, &mut data) {
                    (Some(c), _) => Some(&mut c.text),
                    (None, Some(d)) if !infinite => Some(&mut d.text),
                    _ => None,
                };
                if let Some(slot) = slot {
                    if slot.is_some() {
                        return Err(at(structure(
                            "layer data split into several text nodes".into(),
                        )));
                    }
                    *slot = Some(s);
                }
            }
            XmlEvent::CData(_) if data.is_some() => {
                return Err(at(structure("CDATA in layer data is not supported".into())));
            }
            XmlEvent::EndElement { name } => {
                depth = depth.saturating_sub(1);
                match name.local_name.as_str() {
                    "chunk" => {
                        if let (Some(c), Some(d), Some((lname, ..))) = (chunk.take(), &data, &layer)
                        {
                            let gids = decode_data(
                                d.encoding.as_deref(),
                                d.compression.as_deref(),
                                c.text.as_deref().unwrap_or(""),
                                (c.w * c.h) as usize,
                            )
                            .map_err(|m| {
                                at(structure(format!(
                                    "layer {lname:?}, chunk {},{}: {m}",
                                    c.x, c.y
                                )))
                            })?;
                            check_gids(&gids, c.w, budget, lname, (c.x, c.y)).map_err(at)?;
                        }
                    }
                    "data" => {
                        if let (Some(d), Some((lname, w, h))) = (data.take(), &layer)
                            && !infinite
                        {
                            let gids = decode_data(
                                d.encoding.as_deref(),
                                d.compression.as_deref(),
                                d.text.as_deref().unwrap_or(""),
                                w.saturating_mul(*h).min(MAX_CELLS as u64 + 1) as usize,
                            )
                            .map_err(|m| at(structure(format!("layer {lname:?}: {m}"))))?;
                            check_gids(&gids, *w, budget, lname, (0, 0)).map_err(at)?;
                        }
                    }
                    "layer" => layer = None,
                    "tileset" => columns_from_image = None,
                    _ => {}
                }
            }
            XmlEvent::EndDocument => return Ok(()),
            _ => {}
        }
    }
}

fn add_cells(budget: &mut Budget, n: u64) -> Result<(), LevelError> {
    budget.cells = budget.cells.saturating_add(n);
    if budget.cells > MAX_LAYER_CELLS {
        return Err(LevelError::Limit {
            what: "tile layer cells",
            value: budget.cells,
            limit: MAX_LAYER_CELLS,
        });
    }
    Ok(())
}

/// Rejects gids below every tileset's `firstgid` (the `tiled` crate would
/// silently read them as empty).
fn check_gids(
    gids: &[u32],
    width: u64,
    budget: &Budget,
    layer: &str,
    origin: (i64, i64),
) -> Result<(), LevelError> {
    let first = budget.firstgids.iter().copied().min().unwrap_or(u32::MAX);
    for (i, g) in gids.iter().enumerate() {
        let gid = g & !GID_FLAGS;
        if gid != 0 && gid < first {
            let w = width.max(1) as usize;
            return Err(LevelError::UnknownGid {
                gid,
                layer: layer.to_owned(),
                col: origin.0 + (i % w) as i64,
                row: origin.1 + (i / w) as i64,
            });
        }
    }
    Ok(())
}

/// Hands the `tiled` crate pre-scanned bytes: the root map from memory,
/// other files from `base` (or nothing when there is no base).
struct ScanReader {
    root_path: PathBuf,
    root: Option<Vec<u8>>,
    external: bool,
    budget: Budget,
}

impl ResourceReader for ScanReader {
    type Resource = Cursor<Vec<u8>>;
    type Error = LevelError;

    fn read_from(&mut self, path: &Path) -> Result<Self::Resource, Self::Error> {
        let (bytes, root) = if path == self.root_path {
            match self.root.take() {
                Some(b) => (b, true),
                None => return Err(LevelError::Tiled("the map was read twice".into())),
            }
        } else if self.external {
            (read_referenced(path)?, false)
        } else {
            return Err(LevelError::Tiled(format!(
                "{}: external files cannot be read for an in-memory map",
                path.display()
            )));
        };
        prescan(&bytes, &mut self.budget, root)
            .map_err(|e| if root { e } else { e.in_file(path) })?;
        Ok(Cursor::new(bytes))
    }
}

/// Turns a `tiled` crate error into ours, recovering our own errors that
/// travelled through it.
fn from_tiled(e: ::tiled::Error) -> LevelError {
    match e {
        ::tiled::Error::ResourceLoadingError { path, err } => match err.downcast::<LevelError>() {
            Ok(ours) => match *ours {
                e @ LevelError::File { .. } => e,
                // The root map's own pre-scan errors are named by the caller.
                e if path.extension().is_some_and(|x| x == "tmx") => e,
                e => e.in_file(&path),
            },
            Err(other) => LevelError::Tiled(format!("{}: {other}", path.display())),
        },
        other => LevelError::Tiled(other.to_string()),
    }
}

impl LoadedLevel {
    /// Loads a Tiled TMX map (and its TSX tilesets) through the `tiled`
    /// crate; external tilesets are read relative to the map.
    ///
    /// Tile meaning and spawn/goal objects follow the tile mapping (see
    /// [`TileMapping`]). Finite and
    /// infinite (chunked) maps are read; flip and rotation flags are stripped
    /// from gids. Layer data may be CSV or base64, uncompressed, zlib or gzip
    /// (not zstd: the `tiled` crate is built without its C dependency). Only
    /// orthogonal maps are accepted. Layer and object offsets and parallax are
    /// ignored: cells are the map's own tile grid.
    ///
    /// An infinite map becomes the bounding box of its non-empty collision
    /// tiles; object positions are shifted by the same origin.
    ///
    /// # Bounds on what a hostile file can make platnav allocate
    ///
    /// The `tiled` crate trusts its input: a `tilecount` of four billion makes
    /// it reserve a hash map that aborts the process, a layer whose data is
    /// shorter than `width * height` makes it panic later, chunk coordinates can
    /// overflow, and nested groups recurse without limit. So every file the
    /// crate is given (the map, each external tileset and template) is first
    /// read (at most [`MAX_FILE_BYTES`](crate::MAX_FILE_BYTES)) and pre-scanned
    /// with a streaming XML parser that rejects:
    ///
    /// - element nesting deeper than [`MAX_XML_DEPTH`];
    /// - a finite map whose size fails [`check_size`](crate::check_size);
    /// - a total `tilecount` over all tilesets above [`MAX_TILECOUNT`];
    /// - layer or chunk cells, summed over all layers, above
    ///   [`MAX_LAYER_CELLS`]; chunk coordinates beyond ±2^24;
    /// - layer or chunk data that does not hold exactly `width * height` gids
    ///   (compressed data is inflated with a cap of that many bytes, so a
    ///   compression bomb costs nothing), and gids below every tileset's
    ///   `firstgid`.
    ///
    /// So a load allocates at most: the files' bytes, about 16 bytes per layer
    /// cell in the `tiled` crate (≤ 256 MiB at [`MAX_LAYER_CELLS`]), about
    /// 200 bytes per tileset tile (≤ 50 MiB at [`MAX_TILECOUNT`]), objects and
    /// properties in proportion to the file size, and the final grid
    /// (≤ [`MAX_CELLS`](crate::MAX_CELLS) tiles).
    ///
    ///
    /// # Errors
    /// Any [`LevelError`], wrapped in [`LevelError::File`] naming the map
    /// (and, inside it, the tileset at fault).
    pub fn load_tmx(path: &Path, mapping: &TileMapping) -> Result<Self, LevelError> {
        let bytes = read_bytes(path)?;
        tmx(bytes, path.to_path_buf(), true, mapping).map_err(|e| e.in_file(path))
    }

    /// Reads a TMX map held in memory. External tilesets and templates
    /// are read from `base_dir` (the directory the map would be in); with
    /// `None` they are an error, so only embedded tilesets work.
    ///
    /// # Errors
    /// Any [`LevelError`] (see [`LoadedLevel::load_tmx`]).
    pub fn from_tmx_bytes(
        bytes: &[u8],
        base_dir: Option<&Path>,
        mapping: &TileMapping,
    ) -> Result<Self, LevelError> {
        let root = base_dir.unwrap_or(Path::new("")).join("<memory>.tmx");
        tmx(bytes.to_vec(), root, base_dir.is_some(), mapping)
    }
}

fn tmx(
    bytes: Vec<u8>,
    root_path: PathBuf,
    external: bool,
    mapping: &TileMapping,
) -> Result<LoadedLevel, LevelError> {
    if bytes.len() as u64 > crate::MAX_FILE_BYTES {
        return Err(LevelError::Limit {
            what: "file size in bytes",
            value: bytes.len() as u64,
            limit: crate::MAX_FILE_BYTES,
        });
    }
    let reader = ScanReader {
        root_path: root_path.clone(),
        root: Some(bytes),
        external,
        budget: Budget::default(),
    };
    let mut loader = Loader::with_cache_and_reader(DefaultResourceCache::new(), reader);
    let map = loader.load_tmx_map(&root_path).map_err(from_tiled)?;
    let firstgids = std::mem::take(&mut loader.reader_mut().budget.firstgids);
    convert(&map, mapping, &firstgids)
}

/// Collects the tile layers (descending into groups) and object layers.
fn walk<'m>(
    layers: impl Iterator<Item = ::tiled::Layer<'m>>,
    tiles: &mut Vec<(String, TileLayer<'m>)>,
    objects: &mut Vec<::tiled::ObjectLayer<'m>>,
) {
    for layer in layers {
        let name = layer.name.clone();
        match layer.layer_type() {
            LayerType::Tiles(t) => tiles.push((name, t)),
            LayerType::Objects(o) => objects.push(o),
            LayerType::Group(g) => walk(g.layers(), tiles, objects),
            LayerType::Image(_) => {}
        }
    }
}

fn convert(map: &Map, mapping: &TileMapping, firstgids: &[u32]) -> Result<LoadedLevel, LevelError> {
    if map.orientation != Orientation::Orthogonal {
        return Err(LevelError::Tiled(format!(
            "only orthogonal maps are supported, not {}",
            map.orientation
        )));
    }
    // The kind of every marked tileset tile.
    let mut kinds: Vec<HashMap<u32, TileKind>> = Vec::with_capacity(map.tilesets().len());
    for ts in map.tilesets() {
        let mut table = HashMap::new();
        for (id, tile) in ts.tiles() {
            let props = tile.properties.iter().map(|(k, v)| {
                let p = match v {
                    PropertyValue::BoolValue(b) => Prop::Bool(*b),
                    PropertyValue::StringValue(s) => Prop::Str(s.as_str()),
                    _ => Prop::Other,
                };
                (k.as_str(), p)
            });
            let kind = mapping
                .kind_of(id, tile.user_type.as_deref(), props)
                .map_err(|e| LevelError::Mapping(format!("tileset {:?}: {e}", ts.name)))?;
            if let Some(k) = kind {
                table.insert(id, k);
            }
        }
        kinds.push(table);
    }

    let mut tile_layers = Vec::new();
    let mut object_layers = Vec::new();
    walk(map.layers(), &mut tile_layers, &mut object_layers);
    if let Some(want) = &mapping.layer {
        let names: Vec<String> = tile_layers.iter().map(|(n, _)| format!("{n:?}")).collect();
        tile_layers.retain(|(n, _)| n == want);
        if tile_layers.is_empty() {
            return Err(LevelError::Tiled(format!(
                "no tile layer named {want:?} (tile layers: {})",
                names.join(", ")
            )));
        }
    }

    // Every non-empty collision tile: (layer, col, row, tile data).
    let mut cells: Vec<(usize, i64, i64, ::tiled::LayerTile<'_>)> = Vec::new();
    for (li, (_, layer)) in tile_layers.iter().enumerate() {
        match layer {
            TileLayer::Finite(f) => {
                for y in 0..f.height() as i32 {
                    for x in 0..f.width() as i32 {
                        if let Some(t) = f.get_tile(x, y) {
                            cells.push((li, i64::from(x), i64::from(y), t));
                        }
                    }
                }
            }
            TileLayer::Infinite(inf) => {
                for ((cx, cy), chunk) in inf.chunks() {
                    let w = ::tiled::ChunkData::WIDTH as i32;
                    let h = ::tiled::ChunkData::HEIGHT as i32;
                    for y in 0..h {
                        for x in 0..w {
                            if let Some(t) = chunk.get_tile(x, y) {
                                let col = i64::from(cx) * i64::from(w) + i64::from(x);
                                let row = i64::from(cy) * i64::from(h) + i64::from(y);
                                cells.push((li, col, row, t));
                            }
                        }
                    }
                }
            }
        }
    }

    let (origin, width, height) = if map.infinite() {
        let Some(first) = cells.first() else {
            return Err(LevelError::Empty);
        };
        let (mut c0, mut r0, mut c1, mut r1) = (first.1, first.2, first.1, first.2);
        for (_, c, r, _) in &cells {
            c0 = c0.min(*c);
            r0 = r0.min(*r);
            c1 = c1.max(*c);
            r1 = r1.max(*r);
        }
        ((c0, r0), (c1 - c0 + 1) as usize, (r1 - r0 + 1) as usize)
    } else {
        ((0, 0), map.width as usize, map.height as usize)
    };
    let mut grid = Grid::new(width, height)?;
    for (li, col, row, t) in &cells {
        let idx = t.tileset_index();
        if t.get_tile().is_none() {
            let base = firstgids.get(idx).copied().unwrap_or(0);
            return Err(LevelError::UnknownGid {
                gid: base.saturating_add(t.id()),
                layer: tile_layers[*li].0.clone(),
                col: *col,
                row: *row,
            });
        }
        if let Some(kind) = kinds.get(idx).and_then(|k| k.get(&t.id())) {
            grid.merge(col - origin.0, row - origin.1, *kind);
        }
    }

    let mut marks = Marks::new(mapping, map.tile_width, map.tile_height, origin, &grid);
    for layer in &object_layers {
        for obj in layer.objects() {
            let (x, y) = (f64::from(obj.x), f64::from(obj.y));
            let shape = match obj.shape {
                ::tiled::ObjectShape::Point(..) => Shape {
                    x,
                    y,
                    w: 0.0,
                    h: 0.0,
                    point: true,
                },
                ::tiled::ObjectShape::Rect { width, height }
                | ::tiled::ObjectShape::Ellipse { width, height } => {
                    let (w, h) = (f64::from(width), f64::from(height));
                    // Tile objects are anchored at their bottom-left corner.
                    let y = if obj.tile_data().is_some() { y - h } else { y };
                    Shape {
                        x,
                        y,
                        w,
                        h,
                        point: false,
                    }
                }
                _ => continue,
            };
            marks.object(obj.id(), &obj.user_type, &obj.name, &shape)?;
        }
    }
    marks.finish(grid)
}
