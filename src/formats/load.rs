//! One entry point for every level format: [`load_level`].
use std::path::{Path, PathBuf};

#[cfg(feature = "serde")]
use super::VglcLegend;
use crate::io::files::read_bytes;
#[cfg(feature = "serde")]
use crate::level::Level;
use crate::level::{LevelError, LoadedLevel};

/// How [`load_level`] reads a file. `Default` reads every format with its
/// defaults (for Tiled and LDtk maps: the conventions of
/// [`TileMapping`](crate::rules::TileMapping), no rules file).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadOptions {
    /// Tiled and LDtk maps: the collision layer's name (overrides the rules
    /// file's `layer`); its tiles' marks decide, or every tile is solid
    /// when none is marked.
    pub layer: Option<String>,
    /// Tiled and LDtk maps: a rules file (see
    /// [`TileMapping`](crate::rules::TileMapping)); `None` applies the
    /// conventions alone. An error for other formats.
    pub rules: Option<PathBuf>,
    /// The former name of [`LoadOptions::rules`] (a mapping file is a rules
    /// file); used when `rules` is `None`.
    pub mapping: Option<PathBuf>,
    /// Text files: a VGLC legend (its presence selects the VGLC format).
    /// PNG masks: a colour legend (see [`ColorLegend`](super::ColorLegend)).
    pub legend: Option<PathBuf>,
    /// PNG masks: the side of one tile in pixels (default 1).
    pub pixels_per_tile: Option<u32>,
    /// LDtk projects: the level's identifier (default: the first level).
    pub level: Option<String>,
    /// Which edges of the level meet (`PHYSICS.md`, "Screen wrap"), over
    /// what the file or the rules file say; `None` keeps theirs.
    pub wrap: Option<crate::level::Wrap>,
}

setters!(LoadOptions {
    with_layer => layer: Option<String>,
    with_rules => rules: Option<PathBuf>,
    with_mapping => mapping: Option<PathBuf>,
    with_legend => legend: Option<PathBuf>,
    with_pixels_per_tile => pixels_per_tile: Option<u32>,
    with_level => level: Option<String>,
    with_wrap => wrap: Option<crate::level::Wrap>,
});

impl LoadOptions {
    /// The rules file, under either name.
    #[must_use]
    pub fn rules_file(&self) -> Option<&Path> {
        self.rules.as_deref().or(self.mapping.as_deref())
    }
}

/// What a level file is, by its extension and, where that does not say,
/// its first bytes (see [`sniff_format`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Tmx,
    TiledJson,
    Ldtk,
    Png,
}

#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct JsonSniff {
    #[serde(rename = "jsonVersion")]
    json_version: Option<serde::de::IgnoredAny>,
    #[serde(rename = "type")]
    ty: Option<serde_json::Value>,
    tilewidth: Option<serde::de::IgnoredAny>,
    layers: Option<serde::de::IgnoredAny>,
    defs: Option<serde::de::IgnoredAny>,
    levels: Option<serde::de::IgnoredAny>,
    worlds: Option<serde::de::IgnoredAny>,
}

/// Names the format of a JSON document: a Tiled map or an LDtk project.
#[cfg(feature = "serde")]
fn sniff_json(text: &str) -> Result<Format, LevelError> {
    let s: JsonSniff = serde_json::from_str(text)
        .map_err(|e| LevelError::Tmj(format!("not valid JSON, so neither Tiled nor LDtk: {e}")))?;
    let ty = s.ty.as_ref().and_then(|t| t.as_str());
    if s.json_version.is_some() && (s.defs.is_some() || s.levels.is_some() || s.worlds.is_some()) {
        return Ok(Format::Ldtk);
    }
    if s.json_version.is_some() && s.layers.is_none() {
        return Err(LevelError::UnknownFormat(
            "an LDtk level file (.ldtkl): load its project (.ldtk), with --level NAME".into(),
        ));
    }
    match ty {
        Some("map") => return Ok(Format::TiledJson),
        Some("tileset") => {
            return Err(LevelError::UnknownFormat(
                "a Tiled tileset, not a map: load the map that uses it".into(),
            ));
        }
        Some("template") => {
            return Err(LevelError::UnknownFormat(
                "a Tiled object template, not a map".into(),
            ));
        }
        _ => {}
    }
    if s.tilewidth.is_some() && s.layers.is_some() {
        return Ok(Format::TiledJson);
    }
    Err(LevelError::UnknownFormat(
        "a JSON file that is neither a Tiled map nor an LDtk project".into(),
    ))
}

/// Names a level file's format from its extension, or from its content
/// where the extension does not say (`.json`, unknown or no extension): a
/// Tiled JSON map or an LDtk project by their top-level keys, a TMX map by
/// its `<map` element, a PNG by its signature, else text. Returns a short
/// name ("tmx", "tmj", "ldtk", "png", "text") or the reason the file is
/// not a level.
///
/// # Errors
/// [`LevelError::UnknownFormat`] for tilesets, templates, LDtk level files
/// and other files that are not levels; [`LevelError::Tmj`] for a `.json`
/// file that is not JSON.
pub fn sniff_format(path: &Path, bytes: &[u8]) -> Result<&'static str, LevelError> {
    Ok(match format_of(path, bytes)? {
        Format::Text => "text",
        Format::Tmx => "tmx",
        Format::TiledJson => "tmj",
        Format::Ldtk => "ldtk",
        Format::Png => "png",
    })
}

fn format_of(path: &Path, bytes: &[u8]) -> Result<Format, LevelError> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    let text_start = || {
        let t = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let i = t
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(t.len());
        &t[i..]
    };
    match ext.as_str() {
        "tmx" => Ok(Format::Tmx),
        "tmj" => Ok(Format::TiledJson),
        "ldtk" => Ok(Format::Ldtk),
        "png" => Ok(Format::Png),
        "txt" => Ok(Format::Text),
        "ldtkl" => Err(LevelError::UnknownFormat(
            "an LDtk level file (.ldtkl): load its project (.ldtk), with --level NAME".into(),
        )),
        "tsx" | "tsj" => Err(LevelError::UnknownFormat(
            "a Tiled tileset, not a map: load the map that uses it".into(),
        )),
        "tx" | "tj" => Err(LevelError::UnknownFormat(
            "a Tiled object template, not a map".into(),
        )),
        "tiled-project" | "tiled-session" | "world" => Err(LevelError::UnknownFormat(
            "a Tiled project, session or world file, not a map: load one of its maps".into(),
        )),
        _ => {
            let start = text_start();
            if bytes.starts_with(b"\x89PNG") {
                Ok(Format::Png)
            } else if start.starts_with(b"{") || ext == "json" {
                #[cfg(feature = "serde")]
                {
                    let text = std::str::from_utf8(bytes)
                        .map_err(|_| LevelError::UnknownFormat("JSON that is not UTF-8".into()))?;
                    sniff_json(text)
                }
                #[cfg(not(feature = "serde"))]
                Err(LevelError::UnknownFormat(
                    "JSON (feature `serde` is off)".into(),
                ))
            } else if start.starts_with(b"<") {
                let head = &start[..start.len().min(4096)];
                if head.windows(4).any(|w| w == b"<map") {
                    Ok(Format::Tmx)
                } else if head.windows(8).any(|w| w == b"<tileset") {
                    Err(LevelError::UnknownFormat(
                        "a Tiled tileset, not a map: load the map that uses it".into(),
                    ))
                } else {
                    Err(LevelError::UnknownFormat(
                        "an XML file that is not a Tiled map".into(),
                    ))
                }
            } else if bytes.contains(&0) {
                Err(LevelError::UnknownFormat(format!(
                    "binary data{}",
                    if ext.is_empty() {
                        String::new()
                    } else {
                        format!(" with the extension .{ext}")
                    }
                )))
            } else {
                Ok(Format::Text)
            }
        }
    }
}

/// Loads a level file in the format its extension names, or, where the
/// extension does not say, its content shows (see [`sniff_format`]).
///
/// | format | read as | options used |
/// |--------|---------|--------------|
/// | `.tmx` | Tiled XML map (feature `tiled`) | `layer`, `rules` |
/// | `.tmj`, `.json` with a Tiled map | Tiled JSON map (feature `tiled`) | `layer`, `rules` |
/// | `.ldtk`, `.json` with an LDtk project | LDtk project (feature `ldtk`) | `level`, `layer`, `rules` |
/// | `.png` | image mask (feature `png`) | `legend` (colour legend), `pixels_per_tile` |
/// | `.txt`, other text | VGLC when `legend` is set, else platnav ASCII | `legend` (VGLC legend) |
///
/// A text file that is not platnav ASCII and has a `legend.json` beside it
/// (the VGLC corpus layout) is read as VGLC with that legend. A file whose
/// extension is not `.txt` and that is not an ASCII level either is
/// reported as an unsupported file, listing the supported formats.
///
/// Every error is wrapped in [`LevelError::File`] naming the level file;
/// an error in a rules, legend or tileset file names that file too
/// (`level.tmx: rules.json: ...`).
///
/// # Errors
/// Any [`LevelError`], wrapped in [`LevelError::File`] naming the file;
/// [`LevelError::UnknownFormat`] for files that are no level (or whose
/// format's feature is disabled); [`LevelError::NothingSolid`] for a Tiled
/// or LDtk map in which nothing marks a solid cell.
pub fn load_level(path: &Path, opts: &LoadOptions) -> Result<LoadedLevel, LevelError> {
    if opts.rules.is_some() && opts.mapping.is_some() {
        return Err(LevelError::Mapping(
            "both a rules file and a mapping file given: they are the same thing, give one".into(),
        )
        .in_file(path));
    }
    // Only the head is needed to tell the format; the loaders read the file.
    let head = read_head(path)?;
    let format = format_of(path, &head).map_err(|e| e.in_file(path))?;
    let editor = matches!(format, Format::Tmx | Format::TiledJson | Format::Ldtk);
    if !editor && (opts.rules_file().is_some() || opts.layer.is_some() || opts.level.is_some()) {
        return Err(LevelError::UnknownFormat(
            "rules, --layer and --level apply to Tiled and LDtk maps only, and this file is not one"
                .into(),
        )
        .in_file(path));
    }
    if format != Format::Ldtk && opts.level.is_some() {
        return Err(LevelError::UnknownFormat(
            "--level picks a level of an LDtk project, and this file is not one".into(),
        )
        .in_file(path));
    }
    let mut loaded = load_format(path, format, opts)?;
    if let Some(wrap) = opts.wrap {
        loaded.level.set_wrap(wrap);
    }
    Ok(loaded)
}

/// [`load_level`] for a file of format `format`.
fn load_format(path: &Path, format: Format, opts: &LoadOptions) -> Result<LoadedLevel, LevelError> {
    match format {
        Format::Tmx => load_tmx(path, opts),
        Format::TiledJson => load_tmj(path, opts),
        Format::Ldtk => load_ldtk(path, opts),
        Format::Png => load_png(path, opts),
        Format::Text => {
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            let result = load_text(path, opts);
            match result {
                Err(LevelError::File { source, .. })
                    if !ext.eq_ignore_ascii_case("txt")
                        && opts.legend.is_none()
                        && matches!(
                            *source,
                            LevelError::UnknownTile { .. } | LevelError::RaggedRow { .. }
                        ) =>
                {
                    Err(
                        LevelError::UnknownFormat(format!("not a platnav ASCII level ({source})"))
                            .in_file(path),
                    )
                }
                other => other,
            }
        }
    }
}

/// The first 64 KiB of a file (enough to tell its format; JSON is sniffed
/// from the whole text by the loaders that need it).
fn read_head(path: &Path) -> Result<Vec<u8>, LevelError> {
    use std::io::Read;
    let wrap = |e: std::io::Error| LevelError::Io(e).in_file(path);
    let is_json = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let file = std::fs::File::open(path).map_err(wrap)?;
    if is_json || path.extension().is_none_or(|e| e.is_empty()) {
        // JSON is told apart by its top-level keys: read it whole (bounded).
        drop(file);
        return read_bytes(path);
    }
    let mut head = Vec::new();
    file.take(1 << 16).read_to_end(&mut head).map_err(wrap)?;
    Ok(head)
}

fn load_text(path: &Path, opts: &LoadOptions) -> Result<LoadedLevel, LevelError> {
    match &opts.legend {
        #[cfg(feature = "serde")]
        Some(legend) => {
            let legend = VglcLegend::load(legend).map_err(|e| e.in_file(path))?;
            Level::load_vglc(path, &legend).map(LoadedLevel::from_tiles)
        }
        #[cfg(not(feature = "serde"))]
        Some(_) => {
            Err(LevelError::UnknownFormat("VGLC (feature `serde` is off)".into()).in_file(path))
        }
        None => {
            let ascii = LoadedLevel::load_ascii(path);
            #[cfg(feature = "serde")]
            if let Err(LevelError::File { source, .. }) = &ascii
                && matches!(**source, LevelError::UnknownTile { .. })
            {
                // VGLC corpora keep one `legend.json` beside their levels.
                // A sibling that is not a legend leaves the ASCII error standing.
                let sibling = path.with_file_name("legend.json");
                if let Ok(legend) = VglcLegend::load(&sibling) {
                    return Level::load_vglc(path, &legend).map(LoadedLevel::from_tiles);
                }
            }
            ascii
        }
    }
}

#[cfg(any(feature = "tiled", feature = "ldtk"))]
fn mapping_for(opts: &LoadOptions) -> Result<crate::rules::TileMapping, LevelError> {
    let mut mapping = match opts.rules_file() {
        Some(p) => crate::rules::TileMapping::load(p)?,
        None => crate::rules::TileMapping::default(),
    };
    if opts.layer.is_some() {
        mapping.layer.clone_from(&opts.layer);
        mapping.layers.clear();
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

#[cfg(feature = "ldtk")]
fn load_ldtk(path: &Path, opts: &LoadOptions) -> Result<LoadedLevel, LevelError> {
    let mapping = mapping_for(opts).map_err(|e| e.in_file(path))?;
    LoadedLevel::load_ldtk(path, opts.level.as_deref(), &mapping)
}

#[cfg(feature = "png")]
fn load_png(path: &Path, opts: &LoadOptions) -> Result<LoadedLevel, LevelError> {
    let legend = match &opts.legend {
        Some(p) => super::ColorLegend::load(p).map_err(|e| e.in_file(path))?,
        None => super::ColorLegend::default(),
    };
    LoadedLevel::load_png(path, &legend, opts.pixels_per_tile.unwrap_or(1))
}

#[cfg(not(feature = "tiled"))]
fn load_tmx(path: &Path, _: &LoadOptions) -> Result<LoadedLevel, LevelError> {
    Err(LevelError::UnknownFormat("a Tiled TMX map (feature `tiled` is off)".into()).in_file(path))
}

#[cfg(not(feature = "tiled"))]
fn load_tmj(path: &Path, _: &LoadOptions) -> Result<LoadedLevel, LevelError> {
    Err(LevelError::UnknownFormat("a Tiled JSON map (feature `tiled` is off)".into()).in_file(path))
}

#[cfg(not(feature = "ldtk"))]
fn load_ldtk(path: &Path, _: &LoadOptions) -> Result<LoadedLevel, LevelError> {
    Err(LevelError::UnknownFormat("an LDtk project (feature `ldtk` is off)".into()).in_file(path))
}

#[cfg(not(feature = "png"))]
fn load_png(path: &Path, _: &LoadOptions) -> Result<LoadedLevel, LevelError> {
    Err(LevelError::UnknownFormat("a PNG mask (feature `png` is off)".into()).in_file(path))
}
