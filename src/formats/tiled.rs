//! Tiled TMX maps: see [`LoadedLevel::load_tmx`].
use std::io::Cursor;
use std::path::{Path, PathBuf};

use ::tiled::{
    DefaultResourceCache, LayerType, Loader, Map, Orientation, PropertyValue, ResourceReader,
    TileLayer,
};
use xml::attribute::OwnedAttribute;
use xml::common::Position;
use xml::reader::{ParserConfig, XmlEvent};

use super::tiled_data::{GID_FLAGS, decode_data};
use super::{MAX_LAYER_CELLS, add_within};
use crate::io::files::{MAX_FILE_BYTES, read_bytes, read_referenced};
use crate::level::{LevelError, LoadedLevel, MAX_CELLS, MAX_SIDE, check_size};
use crate::rules::doc::{
    Doc, Geom, Layer, LayerKind, Object, Placed, Prop, Props, TileDef, TileSet,
};
use crate::rules::{self, TileMapping};

/// The largest total `tilecount` over the tilesets of one map (2^18).
pub const MAX_TILECOUNT: u64 = 1 << 18;

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
    /// The largest gid (flags removed) in the root map's layer data.
    max_gid: u32,
    /// External tilesets of the root map: `source` and the gids its
    /// range spans (for tilesets that do not say their `tilecount`).
    ranges: Vec<(String, u32)>,
    /// Elements platnav does not need that the `tiled` crate would refuse,
    /// made readable: for the load summary.
    skipped: Vec<String>,
}

/// A `<tileset>` element as the pre-scan saw it, for tilesets written by old
/// Tiled versions without `tilecount` or `columns` (which the `tiled` crate
/// needs): the scan computes them and writes them into the bytes it hands on.
#[derive(Default)]
struct TsScan {
    source: Option<String>,
    firstgid: Option<u32>,
    tilecount: Option<u64>,
    columns: Option<u32>,
    tile_w: u32,
    tile_h: u32,
    margin: u32,
    spacing: u32,
    /// The tileset image's width and height, when given.
    image: Option<(u32, u32)>,
    has_image: bool,
    max_id: Option<u32>,
}

impl TsScan {
    /// Tiles in the image grid, as Tiled counts them.
    fn image_grid(&self) -> Option<(u32, u32)> {
        let (w, h) = self.image?;
        let cols = (w.checked_sub(2 * self.margin)? + self.spacing)
            .checked_div(self.tile_w.checked_add(self.spacing)?)?;
        let rows = (h.checked_sub(2 * self.margin)? + self.spacing)
            .checked_div(self.tile_h.checked_add(self.spacing)?)?;
        Some((cols, rows))
    }
}

/// Byte offsets just after the name of every start tag `tag` (`b"<tileset"`;
/// outside comments, CDATA and processing instructions, the only places XML
/// lets a literal tag appear otherwise).
fn tag_ends(bytes: &[u8], tag: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut i = 0;
    let skip = |i: usize, open: &[u8], close: &[u8]| -> Option<usize> {
        if bytes[i..].starts_with(open) {
            let rest = &bytes[i + open.len()..];
            Some(
                rest.windows(close.len())
                    .position(|w| w == close)
                    .map_or(bytes.len(), |p| i + open.len() + p + close.len()),
            )
        } else {
            None
        }
    };
    while i < bytes.len() {
        if bytes[i] != b'<' {
            i += 1;
            continue;
        }
        if let Some(j) = skip(i, b"<!--", b"-->")
            .or_else(|| skip(i, b"<![CDATA[", b"]]>"))
            .or_else(|| skip(i, b"<?", b"?>"))
        {
            i = j;
            continue;
        }
        if bytes[i..].starts_with(tag)
            && bytes
                .get(i + tag.len())
                .is_some_and(|b| b.is_ascii_whitespace() || *b == b'>' || *b == b'/')
        {
            out.push(i + tag.len());
        }
        i += 1;
    }
    out
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
fn prescan(
    bytes: &[u8],
    budget: &mut Budget,
    root: bool,
    range: Option<u32>,
) -> Result<Vec<(usize, String)>, LevelError> {
    // The same parser configuration as the `tiled` crate, so both see the
    // same events.
    let mut reader = ParserConfig::new().create_reader(Cursor::new(bytes));
    let mut scan = Prescan::new(budget, root);
    loop {
        let event = reader.next();
        let line = reader.position().row + 1;
        let handled = match event.map_err(|e| LevelError::Tiled(e.to_string()))? {
            XmlEvent::StartElement {
                name, attributes, ..
            } => scan.start(&name.local_name, &attributes),
            XmlEvent::Characters(s) => scan.characters(s),
            XmlEvent::CData(_) if scan.data.is_some() => {
                Err(structure("CDATA in layer data is not supported".into()))
            }
            XmlEvent::EndElement { name } => scan.end(&name.local_name),
            XmlEvent::EndDocument => {
                let mut patches = image_patches(bytes, &scan.images, scan.budget);
                patches.extend(tileset_patches(
                    bytes,
                    &scan.tilesets,
                    scan.budget,
                    root,
                    range,
                )?);
                patches.sort_by_key(|p| p.0);
                return Ok(patches);
            }
            _ => Ok(()),
        };
        handled.map_err(|e| at_line(line, e))?;
    }
}

/// An error of the pre-scan, prefixed with the line it was found on.
fn at_line(line: u64, e: LevelError) -> LevelError {
    match e {
        LevelError::Tiled(m) => LevelError::Tiled(format!("line {line}: {m}")),
        e => LevelError::Tiled(format!("line {line}: {e}")),
    }
}

/// The state of [`prescan`] between XML events: where in the document it
/// is, and what it has seen. Each handler below takes one element kind; its
/// errors get their line number from [`prescan`].
struct Prescan<'b> {
    budget: &'b mut Budget,
    /// Whether this is the root map (not a tileset or template file).
    root: bool,
    depth: usize,
    seen_map: bool,
    infinite: bool,
    /// (name, width, height) of the tile layer being read.
    layer: Option<(String, u64, u64)>,
    data: Option<DataScan>,
    chunk: Option<ChunkScan>,
    /// (tilewidth, margin, spacing) of a tileset without `columns`, whose
    /// column count the `tiled` crate computes from its image with unchecked
    /// arithmetic.
    columns_from_image: Option<(u32, u32, u32)>,
    /// Every tileset element, and the one being read (with its depth).
    tilesets: Vec<TsScan>,
    /// Every `<image>` element, in order: the attributes it lacks that the
    /// `tiled` crate requires (Tiled 0.x and 1.0 files leave an image's size
    /// out; platnav never reads images, and a tileset's grid comes from its
    /// `columns` and `tilecount`, or its tile ids, when the size is absent).
    images: Vec<&'static str>,
    ts: Option<(usize, TsScan)>,
}

impl<'b> Prescan<'b> {
    /// The state before the first event.
    fn new(budget: &'b mut Budget, root: bool) -> Self {
        Prescan {
            budget,
            root,
            depth: 0,
            seen_map: false,
            infinite: false,
            layer: None,
            data: None,
            chunk: None,
            columns_from_image: None,
            tilesets: Vec::new(),
            images: Vec::new(),
            ts: None,
        }
    }

    /// A start tag: checks the nesting (depth, nothing inside layer data)
    /// and hands the element to its handler.
    fn start(&mut self, tag: &str, a: &[OwnedAttribute]) -> Result<(), LevelError> {
        self.depth += 1;
        if self.depth > MAX_XML_DEPTH {
            return Err(LevelError::Limit {
                what: "XML nesting depth",
                value: self.depth as u64,
                limit: MAX_XML_DEPTH as u64,
            });
        }
        if self.chunk.is_some() || (self.data.is_some() && (tag != "chunk" || !self.infinite)) {
            return Err(structure(format!("unexpected <{tag}> inside layer data")));
        }
        match tag {
            "map" => self.start_map(a),
            "tileset" => self.start_tileset(a),
            "tile" => {
                self.start_tile(a);
                Ok(())
            }
            "image" => self.start_image(a),
            "layer" => self.start_layer(a),
            "data" if self.layer.is_some() => self.start_data(a),
            "chunk" => self.start_chunk(a),
            _ => Ok(()),
        }
    }

    /// `<map>`: only one; a finite map's size must pass [`check_size`].
    fn start_map(&mut self, a: &[OwnedAttribute]) -> Result<(), LevelError> {
        if self.seen_map {
            return Err(structure("a second <map> element".into()));
        }
        self.seen_map = true;
        // Exactly as the `tiled` crate reads it.
        self.infinite = attr(a, "infinite") == Some("1");
        if !self.infinite
            && let (Some(w), Some(h)) = (num::<u64>(a, "width"), num::<u64>(a, "height"))
        {
            check_size(w as usize, h as usize)?;
        }
        Ok(())
    }

    /// `<tileset>`: counts its `tilecount`, notes the root map's
    /// `firstgid`s and starts a [`TsScan`].
    fn start_tileset(&mut self, a: &[OwnedAttribute]) -> Result<(), LevelError> {
        if let Some(tc) = num::<u64>(a, "tilecount") {
            add_within(&mut self.budget.tiles, tc, MAX_TILECOUNT, "tilecount")?;
        }
        self.columns_from_image = num::<u32>(a, "columns").is_none().then(|| {
            (
                num::<u32>(a, "tilewidth").unwrap_or(0),
                num::<u32>(a, "margin").unwrap_or(0),
                num::<u32>(a, "spacing").unwrap_or(0),
            )
        });
        if self.root
            && self.depth == 2
            && let Some(g) = num::<u32>(a, "firstgid")
        {
            self.budget.firstgids.push(g);
        }
        self.ts = Some((
            self.depth,
            TsScan {
                source: attr(a, "source").map(str::to_owned),
                firstgid: num(a, "firstgid"),
                tilecount: num(a, "tilecount"),
                columns: num(a, "columns"),
                tile_w: num(a, "tilewidth").unwrap_or(0),
                tile_h: num(a, "tileheight").unwrap_or(0),
                margin: num(a, "margin").unwrap_or(0),
                spacing: num(a, "spacing").unwrap_or(0),
                ..TsScan::default()
            },
        ));
        Ok(())
    }

    /// A tileset's `<tile>`: its id, for the highest id of the tileset.
    fn start_tile(&mut self, a: &[OwnedAttribute]) {
        if let Some((d, t)) = &mut self.ts
            && self.depth == *d + 1
            && let Some(id) = num::<u32>(a, "id")
        {
            t.max_id = Some(t.max_id.map_or(id, |m| m.max(id)));
        }
    }

    /// `<image>`: a tileset's image size; and for a tileset without
    /// `columns`, an image width the `tiled` crate can compute columns from.
    fn start_image(&mut self, a: &[OwnedAttribute]) -> Result<(), LevelError> {
        let in_tileset = self.ts.as_ref().is_some_and(|(d, _)| self.depth == *d + 1);
        if let Some((_, t)) = self.ts.as_mut().filter(|_| in_tileset) {
            t.has_image = true;
            t.image = num::<u32>(a, "width").zip(num::<u32>(a, "height"));
        }
        self.images
            .push(match (attr(a, "width"), attr(a, "height")) {
                (Some(_), Some(_)) => "",
                (None, None) => " width=\"0\" height=\"0\"",
                (None, _) => " width=\"0\"",
                (_, None) => " height=\"0\"",
            });
        if let Some((tw, margin, spacing)) = self.columns_from_image {
            let w = num::<i32>(a, "width").unwrap_or(0) as u32;
            let ok = w
                .checked_sub(margin)
                .and_then(|x| x.checked_add(spacing))
                .is_some()
                && tw.checked_add(spacing).is_some_and(|d| d > 0);
            if !ok {
                return Err(structure(format!(
                    "tileset without columns: image width {w}, margin {margin}, \
                     spacing {spacing} and tile width {tw} give no column count"
                )));
            }
        }
        Ok(())
    }

    /// `<layer>`: not nested; a finite layer's cells count against the
    /// budget.
    fn start_layer(&mut self, a: &[OwnedAttribute]) -> Result<(), LevelError> {
        if self.layer.is_some() {
            return Err(structure("a <layer> inside a <layer>".into()));
        }
        let w = num::<u64>(a, "width").unwrap_or(0);
        let h = num::<u64>(a, "height").unwrap_or(0);
        if !self.infinite {
            add_cells(self.budget, w.saturating_mul(h))?;
        }
        let name = attr(a, "name").unwrap_or_default().to_owned();
        self.layer = Some((name, w, h));
        Ok(())
    }

    /// A layer's `<data>`: it must have an encoding (XML `<tile>` elements
    /// are not read).
    fn start_data(&mut self, a: &[OwnedAttribute]) -> Result<(), LevelError> {
        let encoding = attr(a, "encoding").map(str::to_owned);
        if encoding.is_none() {
            return Err(structure(
                "layer data without an encoding (XML <tile> elements) is not supported".into(),
            ));
        }
        self.data = Some(DataScan {
            encoding,
            compression: attr(a, "compression").map(str::to_owned),
            text: None,
        });
        Ok(())
    }

    /// `<chunk>`: its position and size are bounded, and its cells count
    /// against the budget.
    fn start_chunk(&mut self, a: &[OwnedAttribute]) -> Result<(), LevelError> {
        let x = num::<i64>(a, "x").unwrap_or(0);
        let y = num::<i64>(a, "y").unwrap_or(0);
        let w = num::<u64>(a, "width").unwrap_or(0);
        let h = num::<u64>(a, "height").unwrap_or(0);
        if x.abs() > MAX_CHUNK_COORD || y.abs() > MAX_CHUNK_COORD {
            return Err(structure(format!(
                "chunk at {x},{y} lies beyond ±{MAX_CHUNK_COORD}"
            )));
        }
        if w > MAX_SIDE as u64 || h > MAX_SIDE as u64 {
            return Err(LevelError::TooLarge {
                width: w as usize,
                height: h as usize,
            });
        }
        add_cells(self.budget, w * h)?;
        self.chunk = Some(ChunkScan {
            x,
            y,
            w,
            h,
            text: None,
        });
        Ok(())
    }

    /// Text: the data of the chunk or (finite map) layer being read, which
    /// must come in one piece.
    fn characters(&mut self, s: String) -> Result<(), LevelError> {
        let slot = match (&mut self.chunk, &mut self.data) {
            (Some(c), _) => Some(&mut c.text),
            (None, Some(d)) if !self.infinite => Some(&mut d.text),
            _ => None,
        };
        if let Some(slot) = slot {
            if slot.is_some() {
                return Err(structure("layer data split into several text nodes".into()));
            }
            *slot = Some(s);
        }
        Ok(())
    }

    /// An end tag: checks the data of a chunk or layer, and closes a layer
    /// or tileset.
    fn end(&mut self, tag: &str) -> Result<(), LevelError> {
        self.depth = self.depth.saturating_sub(1);
        match tag {
            "chunk" => self.end_chunk()?,
            "data" => self.end_data()?,
            "layer" => self.layer = None,
            "tileset" => {
                self.columns_from_image = None;
                if let Some((_, t)) = self.ts.take() {
                    self.tilesets.push(t);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// `</chunk>`: its data must decode to exactly its cells, with known
    /// gids.
    fn end_chunk(&mut self) -> Result<(), LevelError> {
        if let (Some(c), Some(d), Some((lname, ..))) = (self.chunk.take(), &self.data, &self.layer)
        {
            let gids = decode_data(
                d.encoding.as_deref(),
                d.compression.as_deref(),
                c.text.as_deref().unwrap_or(""),
                (c.w * c.h) as usize,
            )
            .map_err(|m| structure(format!("layer {lname:?}, chunk {},{}: {m}", c.x, c.y)))?;
            check_gids(&gids, c.w, self.budget, lname, (c.x, c.y))?;
            note_max_gid(self.budget, &gids, self.root);
        }
        Ok(())
    }

    /// `</data>` of a finite map's layer: its data must decode to exactly
    /// the layer's cells, with known gids.
    fn end_data(&mut self) -> Result<(), LevelError> {
        if let (Some(d), Some((lname, w, h))) = (self.data.take(), &self.layer)
            && !self.infinite
        {
            let gids = decode_data(
                d.encoding.as_deref(),
                d.compression.as_deref(),
                d.text.as_deref().unwrap_or(""),
                w.saturating_mul(*h).min(MAX_CELLS as u64 + 1) as usize,
            )
            .map_err(|m| structure(format!("layer {lname:?}: {m}")))?;
            check_gids(&gids, *w, self.budget, lname, (0, 0))?;
            note_max_gid(self.budget, &gids, self.root);
        }
        Ok(())
    }
}

fn note_max_gid(budget: &mut Budget, gids: &[u32], root: bool) {
    if root {
        let m = gids.iter().map(|g| g & !GID_FLAGS).max().unwrap_or(0);
        budget.max_gid = budget.max_gid.max(m);
    }
}

/// The attributes to add to tilesets without `tilecount` or `columns`:
/// `tilecount` from the image grid (and the highest `<tile id>`), else from
/// the gid range the map gives the tileset (up to the next `firstgid`, or
/// up to the highest gid used for the last tileset); `columns` from the
/// image, or 0 for an image collection. Also records the gid ranges of the
/// root map's external tilesets.
fn tileset_patches(
    bytes: &[u8],
    tilesets: &[TsScan],
    budget: &mut Budget,
    root: bool,
    range: Option<u32>,
) -> Result<Vec<(usize, String)>, LevelError> {
    // The gid range of each tileset of the root map.
    let firsts: Vec<Option<u32>> = tilesets.iter().map(|t| t.firstgid).collect();
    let span = |i: usize| -> Option<u32> {
        let f = firsts[i]?;
        match firsts[i + 1..].iter().flatten().next() {
            Some(next) => next.checked_sub(f),
            None => (budget.max_gid >= f).then(|| budget.max_gid - f + 1),
        }
    };
    let mut patches = Vec::new();
    for (i, t) in tilesets.iter().enumerate() {
        let own_range = if root { span(i) } else { range };
        if let Some(src) = &t.source {
            if root && let Some(r) = own_range {
                budget.ranges.push((src.clone(), r));
            }
            continue;
        }
        let mut add = String::new();
        if t.tilecount.is_none() {
            let from_image = t.image_grid().map(|(c, r)| u64::from(c) * u64::from(r));
            let from_ids = t.max_id.map(|m| u64::from(m) + 1);
            let n = match (from_image, from_ids) {
                (None, None) => own_range.map_or(0, u64::from),
                (a, b) => a.unwrap_or(0).max(b.unwrap_or(0)),
            };
            add_within(&mut budget.tiles, n, MAX_TILECOUNT, "tilecount")?;
            add += &format!(" tilecount=\"{n}\"");
        }
        if t.columns.is_none() {
            let cols = if t.has_image {
                t.image_grid().map_or(1, |(c, _)| c.max(1))
            } else {
                0
            };
            add += &format!(" columns=\"{cols}\"");
        }
        if !add.is_empty() {
            patches.push((i, add));
        }
    }
    if patches.is_empty() {
        return Ok(patches);
    }
    let at = tag_ends(bytes, b"<tileset");
    if at.len() != tilesets.len() {
        // A layout the byte scan does not understand: leave the file as it
        // is, and the `tiled` crate says what is missing.
        return Ok(Vec::new());
    }
    Ok(patches.into_iter().map(|(i, a)| (at[i], a)).collect())
}

/// The sizes an image without one needs for the `tiled` crate to read the
/// file (platnav never reads the image), noted in the budget's `skipped`.
fn image_patches(
    bytes: &[u8],
    images: &[&'static str],
    budget: &mut Budget,
) -> Vec<(usize, String)> {
    if images.iter().all(|a| a.is_empty()) {
        return Vec::new();
    }
    let at = tag_ends(bytes, b"<image");
    if at.len() != images.len() {
        return Vec::new();
    }
    let n = images.iter().filter(|a| !a.is_empty()).count();
    budget
        .skipped
        .push(format!("{n} images without a size (not needed)"));
    at.into_iter()
        .zip(images)
        .filter(|(_, a)| !a.is_empty())
        .map(|(i, a)| (i, (*a).to_owned()))
        .collect()
}

/// Inserts the attributes of [`tileset_patches`] and [`image_patches`], in
/// the order of their offsets.
fn apply_patches(bytes: Vec<u8>, patches: &[(usize, String)]) -> Vec<u8> {
    if patches.is_empty() {
        return bytes;
    }
    let mut out = Vec::with_capacity(bytes.len() + patches.len() * 40);
    let mut last = 0;
    for (at, add) in patches {
        out.extend_from_slice(&bytes[last..*at]);
        out.extend_from_slice(add.as_bytes());
        last = *at;
    }
    out.extend_from_slice(&bytes[last..]);
    out
}

fn add_cells(budget: &mut Budget, n: u64) -> Result<(), LevelError> {
    add_within(&mut budget.cells, n, MAX_LAYER_CELLS, "tile layer cells")
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
        let range = if root {
            None
        } else {
            let dir = self.root_path.parent().unwrap_or(Path::new(""));
            self.budget
                .ranges
                .iter()
                .find(|(src, _)| dir.join(src) == path)
                .map(|(_, r)| *r)
        };
        let patches = prescan(&bytes, &mut self.budget, root, range)
            .map_err(|e| if root { e } else { e.in_file(path) })?;
        Ok(Cursor::new(apply_patches(bytes, &patches)))
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
    /// What collides, and the spawn and goal, follow the rules file and the
    /// conventions (see [`TileMapping`]): layers, tile properties, classes
    /// and collision shapes (flipped with the tile), object areas, ledges
    /// and markers, templates (`.tx`) and tile objects. Finite and infinite
    /// (chunked) maps are read. Layer data may be CSV or base64,
    /// uncompressed, zlib or gzip (not zstd: the `tiled` crate is built
    /// without its C dependency). Tilesets written without `tilecount` or
    /// `columns` (old Tiled versions) get them from their image, else from
    /// the gid range the map gives them. Only orthogonal maps are accepted.
    /// Layer and object offsets and parallax are ignored: cells are the
    /// map's own tile grid.
    ///
    /// An infinite map becomes the bounding box of the tiles of its
    /// collision layers; object positions are shifted by the same origin.
    ///
    /// # Bounds on what a hostile file can make platnav allocate
    ///
    /// The `tiled` crate trusts its input: a `tilecount` of four billion makes
    /// it reserve a hash map that aborts the process, a layer whose data is
    /// shorter than `width * height` makes it panic later, chunk coordinates can
    /// overflow, and nested groups recurse without limit. So every file the
    /// crate is given (the map, each external tileset and template) is first
    /// read (at most [`MAX_FILE_BYTES`]) and pre-scanned
    /// with a streaming XML parser that rejects:
    ///
    /// - element nesting deeper than [`MAX_XML_DEPTH`];
    /// - a finite map whose size fails [`check_size`];
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
    /// (≤ [`MAX_CELLS`] tiles).
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
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(LevelError::Limit {
            what: "file size in bytes",
            value: bytes.len() as u64,
            limit: MAX_FILE_BYTES,
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
    let budget = &mut loader.reader_mut().budget;
    let (firstgids, skipped) = (
        std::mem::take(&mut budget.firstgids),
        std::mem::take(&mut budget.skipped),
    );
    let mut loaded = convert(&map, mapping, &firstgids)?;
    loaded
        .rules_used
        .extend(skipped.into_iter().map(|s| format!("skipped: {s}")));
    Ok(loaded)
}

/// A `tiled` crate property as the rules see it.
fn prop(v: &PropertyValue) -> Prop {
    match v {
        PropertyValue::BoolValue(b) => Prop::Bool(*b),
        PropertyValue::IntValue(i) => Prop::Int(i64::from(*i)),
        PropertyValue::FloatValue(f) => Prop::Float(f64::from(*f)),
        PropertyValue::StringValue(s) => Prop::Str(s.clone()),
        PropertyValue::ObjectValue(id) => Prop::Object(*id),
        _ => Prop::Other,
    }
}

/// Properties sorted by name (the crate keeps them in a hash map).
fn props(p: &::tiled::Properties) -> Props {
    let mut v: Props = p.iter().map(|(k, v)| (k.clone(), prop(v))).collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

/// An object's outline: tile objects are anchored at their bottom-left
/// corner, every other shape at its top-left corner.
fn object(
    obj: &::tiled::ObjectData,
    layer: &str,
    tile: Option<&TileDef>,
    tile_size: (f32, f32),
) -> Option<Object> {
    let geom = match &obj.shape {
        ::tiled::ObjectShape::Point(..) => Geom::Point,
        ::tiled::ObjectShape::Rect { width, height } if obj.tile_data().is_some() => {
            let (w, h) = (
                f64::from(if *width > 0.0 { *width } else { tile_size.0 }),
                f64::from(if *height > 0.0 { *height } else { tile_size.1 }),
            );
            Geom::Polygon(vec![(0.0, -h), (w, -h), (w, 0.0), (0.0, 0.0)])
        }
        ::tiled::ObjectShape::Rect { width, height } => Geom::Rect {
            w: f64::from(*width),
            h: f64::from(*height),
        },
        ::tiled::ObjectShape::Ellipse { width, height } => Geom::Ellipse {
            w: f64::from(*width),
            h: f64::from(*height),
        },
        ::tiled::ObjectShape::Polygon { points } => Geom::Polygon(
            points
                .iter()
                .map(|&(x, y)| (f64::from(x), f64::from(y)))
                .collect(),
        ),
        ::tiled::ObjectShape::Polyline { points } => Geom::Polyline(
            points
                .iter()
                .map(|&(x, y)| (f64::from(x), f64::from(y)))
                .collect(),
        ),
        _ => return None,
    };
    let mut class = obj.user_type.clone();
    let mut p = props(&obj.properties);
    if let Some(t) = tile {
        t.lend(&mut class, &mut p);
    }
    Some(Object {
        id: obj.id(),
        name: obj.name.clone(),
        class,
        layer: layer.to_owned(),
        x: f64::from(obj.x),
        y: f64::from(obj.y),
        rotation: f64::from(obj.rotation),
        geom,
        props: p,
    })
}

fn tile_def(tile: &::tiled::TileData) -> Option<TileDef> {
    let shapes: Vec<Object> = tile
        .collision
        .as_ref()
        .map(|c| {
            c.object_data()
                .iter()
                .filter_map(|o| object(o, "", None, (0.0, 0.0)))
                .collect()
        })
        .unwrap_or_default();
    let class = tile.user_type.clone().filter(|c| !c.is_empty());
    if tile.properties.is_empty() && class.is_none() && shapes.is_empty() {
        return None;
    }
    Some(TileDef {
        class,
        props: props(&tile.properties),
        shapes,
    })
}

/// Collects tile layers (descending into groups, a hidden group hiding its
/// layers) and object layers.
fn walk<'m>(
    layers: impl Iterator<Item = ::tiled::Layer<'m>>,
    visible: bool,
    tiles: &mut Vec<(::tiled::Layer<'m>, bool, TileLayer<'m>)>,
    objects: &mut Vec<(String, ::tiled::ObjectLayer<'m>)>,
) {
    for layer in layers {
        let vis = visible && layer.visible;
        match layer.layer_type() {
            LayerType::Tiles(t) => tiles.push((layer, vis, t)),
            LayerType::Objects(o) => objects.push((layer.name.clone(), o)),
            LayerType::Group(g) => walk(g.layers(), vis, tiles, objects),
            LayerType::Image(_) => {}
        }
    }
}

/// Reads a loaded map into the rules' document (tilesets, tile layers with
/// groups flattened, objects) and resolves it into a level.
fn convert(map: &Map, rules: &TileMapping, firstgids: &[u32]) -> Result<LoadedLevel, LevelError> {
    check_map(map)?;
    let tilesets: Vec<TileSet> = map
        .tilesets()
        .iter()
        .map(|ts| TileSet {
            name: ts.name.clone(),
            tile_w: f64::from(ts.tile_width),
            tile_h: f64::from(ts.tile_height),
            tiles: ts
                .tiles()
                .filter_map(|(id, t)| tile_def(&t).map(|d| (id, d)))
                .collect(),
        })
        .collect();

    let mut tile_layers = Vec::new();
    let mut object_layers = Vec::new();
    walk(map.layers(), true, &mut tile_layers, &mut object_layers);

    let mut layers = Vec::with_capacity(tile_layers.len());
    for (layer, visible, data) in &tile_layers {
        layers.push(Layer {
            name: layer.name.clone(),
            visible: *visible,
            props: props(&layer.properties),
            kind: LayerKind::Tiles,
            cells: tile_cells(&layer.name, data, firstgids)?,
            grid: None,
            decorative: false,
            marks_only: false,
        });
    }
    let doc = Doc {
        format: "Tiled TMX",
        tile_w: f64::from(map.tile_width.max(1)),
        tile_h: f64::from(map.tile_height.max(1)),
        size: (!map.infinite()).then_some((map.width as usize, map.height as usize)),
        layers,
        tilesets,
        objects: layer_objects(&object_layers),
        object_layers: object_layers.iter().map(|(n, _)| n.clone()).collect(),
        wrap: crate::rules::doc::wrap_property(&props(&map.properties)),
    };
    rules::resolve(&doc, rules)
}

/// Rejects maps that are not orthogonal, and more tilesets than a cell can
/// name.
fn check_map(map: &Map) -> Result<(), LevelError> {
    if map.orientation != Orientation::Orthogonal {
        return Err(LevelError::Tiled(format!(
            "only orthogonal maps are supported, not {}",
            map.orientation
        )));
    }
    if map.tilesets().len() > usize::from(u16::MAX) {
        return Err(LevelError::Limit {
            what: "tilesets",
            value: map.tilesets().len() as u64,
            limit: u64::from(u16::MAX),
        });
    }
    Ok(())
}

/// The placed tiles of tile layer `name` (finite, or infinite by chunks),
/// row by row; a tile whose tileset does not hold it is an error naming its
/// gid (`firstgids`: the root map's, in tileset order).
fn tile_cells(
    name: &str,
    data: &TileLayer<'_>,
    firstgids: &[u32],
) -> Result<Vec<Placed>, LevelError> {
    let mut cells = Vec::new();
    let mut put = |x: i64, y: i64, t: ::tiled::LayerTile<'_>| -> Result<(), LevelError> {
        let idx = t.tileset_index();
        if t.get_tile().is_none() {
            let base = firstgids.get(idx).copied().unwrap_or(0);
            return Err(LevelError::UnknownGid {
                gid: base.saturating_add(t.id()),
                layer: name.to_owned(),
                col: x,
                row: y,
            });
        }
        let flip = (u8::from(t.flip_h) << 2) | (u8::from(t.flip_v) << 1) | u8::from(t.flip_d);
        cells.push(Placed {
            col: x as i32,
            row: y as i32,
            set: idx as u16,
            flip,
            id: t.id(),
        });
        Ok(())
    };
    match data {
        TileLayer::Finite(f) => {
            for y in 0..f.height() as i32 {
                for x in 0..f.width() as i32 {
                    if let Some(t) = f.get_tile(x, y) {
                        put(i64::from(x), i64::from(y), t)?;
                    }
                }
            }
        }
        TileLayer::Infinite(inf) => {
            let w = ::tiled::ChunkData::WIDTH as i32;
            let h = ::tiled::ChunkData::HEIGHT as i32;
            for ((cx, cy), chunk) in inf.chunks() {
                for y in 0..h {
                    for x in 0..w {
                        if let Some(t) = chunk.get_tile(x, y) {
                            let col = i64::from(cx) * i64::from(w) + i64::from(x);
                            let row = i64::from(cy) * i64::from(h) + i64::from(y);
                            put(col, row, t)?;
                        }
                    }
                }
            }
        }
    }
    Ok(cells)
}

/// The objects of every object layer; a tile object takes its tile's
/// class, properties and (when it gives none) size.
fn layer_objects(object_layers: &[(String, ::tiled::ObjectLayer<'_>)]) -> Vec<Object> {
    let mut objects = Vec::new();
    for (name, layer) in object_layers {
        for obj in layer.objects() {
            let tile = obj.get_tile().and_then(|t| {
                let data = t.get_tile()?;
                tile_def(&data)
            });
            let size = obj
                .get_tile()
                .map(|t| {
                    let ts = t.get_tileset();
                    (ts.tile_width as f32, ts.tile_height as f32)
                })
                .unwrap_or((0.0, 0.0));
            if let Some(o) = object(&obj, name, tile.as_ref(), size) {
                objects.push(o);
            }
        }
    }
    objects
}
