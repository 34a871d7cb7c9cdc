//! The rules file ([`TileMapping`]): what the layers, tiles and objects of
//! a map mean, as the user writes it, and how it is read.
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path as FsPath;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};

use super::kind::{TileKind, kind_from_str};
use crate::io::files::read_text;
use crate::level::LevelError;

/// What a tile layer contributes (a `layers` entry of the rules file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayerRule {
    /// Every non-empty tile (IntGrid: every non-zero value) is this kind;
    /// `empty` ignores the layer.
    Kind(TileKind),
    /// The tiles' own marks (properties, classes, shapes; IntGrid value
    /// names) decide.
    Tiles,
}

impl<'de> serde::Deserialize<'de> for LayerRule {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        match s.as_str() {
            "tiles" => Ok(LayerRule::Tiles),
            "ignore" => Ok(LayerRule::Kind(TileKind::EMPTY)),
            other => kind_from_str(other).map(LayerRule::Kind).ok_or_else(|| {
                de::Error::custom(format!(
                    "unknown layer rule {other:?} (expected a kind: solid, one_way, hazard, \
                     ladder, slope_right, slope_left, goal, spawn, empty; or tiles, ignore)"
                ))
            }),
        }
    }
}

/// What a tile property means (a `properties` entry of the rules file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PropRule {
    /// The tile is this kind when the property is "yes": `true`, a number
    /// other than 0, or a string other than `false`, `no`, `0`, `none`.
    Kind(TileKind),
    /// The property's value (string, number or `true`/`false`) looked up
    /// in the table; `"*"` covers values not listed, and without it an
    /// unlisted value is an error (a typo must not turn spikes into air).
    Values(BTreeMap<String, TileKind>),
}

impl<'de> serde::Deserialize<'de> for PropRule {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = PropRule;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a kind (\"solid\") or a table of values to kinds")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<PropRule, E> {
                kind_from_str(s)
                    .map(PropRule::Kind)
                    .ok_or_else(|| E::custom(format!("unknown kind {s:?}")))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<PropRule, A::Error> {
                let mut t = BTreeMap::new();
                while let Some((k, v)) = m.next_entry::<String, TileKind>()? {
                    t.insert(k, v);
                }
                Ok(PropRule::Values(t))
            }
        }
        d.deserialize_any(V)
    }
}

/// The rules file: what the layers, tiles and objects of a Tiled or LDtk
/// map mean to platnav. Everything is optional, and **conventions** cover
/// whatever the file does not say (see [`TileMapping::CONVENTIONS`]), so
/// most maps load with no rules file at all.
///
/// ```json
/// {
///   "layers": { "Ground": "tiles", "Spikes": "hazard", "Decor": "ignore" },
///   "collide_unless": "nocollide",
///   "properties": { "collides": "solid", "isSpike": "hazard",
///                   "TileType": { "Geometry": "solid", "Ladder": "ladder", "*": "empty" } },
///   "classes": { "Spike": "hazard" },
///   "shapes": true,
///   "objects": { "Collision": "solid", "Ledges": "one_way", "Lava": "hazard" },
///   "intgrid": { "dirt": "solid", "2": "ladder" },
///   "tiles": { "0": "solid", "terrain:12": "one_way" },
///   "spawn": ["PlayerSpawnPoint"],
///   "goal": ["exit"],
///   "platforms": { "objects": ["MovingPlatform"], "speed_px": 30 },
///   "conventions": true
/// }
/// ```
///
/// Kinds are `solid`, `one_way` (also `one-way`), `hazard`, `ladder`,
/// `slope_right`, `slope_left`, `goal`, `spawn` and `empty`.
///
/// - **`layers`**: tile or IntGrid layer name (or `"*"` for every other
///   layer) to a kind (every non-empty tile of the layer is that kind),
///   `"tiles"` (the tiles' own marks decide, and when none of its tiles is
///   marked at all, every tile is solid) or `"ignore"`. When `layers` is
///   given, only the layers it names count; hidden layers count when named.
///   `layer` (a single name, also `--layer`) is `{"NAME": "tiles"}`.
/// - **`collide_unless`**: every visible tile layer is solid unless the
///   layer has this property set to yes (HaxeFlixel's `nocollide`).
/// - **`properties`**: tile property name to a kind (when the property is
///   yes: `true`, a number other than 0, a string other than `false`,
///   `no`, `0`, `none`; an explicit no marks the tile empty) or to a table
///   of its values (strings, numbers, `true`/`false`; `"*"` for the rest;
///   an unlisted value is an error). Property arrays and the old
///   `tileproperties`/`propertytypes` dictionaries of Tiled JSON both work.
///   The older `property` + `values` pair is the same as one table entry.
/// - **`classes`**: tile class (Tiled's `type`/`class`) to kind.
/// - **`shapes`**: whether tiles' collision shapes decide unmarked tiles
///   (default on; see the raster rules in the README).
/// - **`objects`**: object layer name, object class, object name or a yes
///   property name to a kind, or a property name to a table of its values
///   (`{"kind": {"platform": "one_way", "crate": "ignore", "*": "solid"}}`;
///   `"true"`/`"false"` strings are booleans; an unlisted value leaves the
///   object to the next rule). An object's own name, class and properties
///   come before its layer. Rectangles, ellipses and polygons mark every
///   cell they cover at least half; polylines mark every cell they pass
///   through (a ledge: `one_way`). Tile objects and template instances
///   take their tile's and template's class and properties.
/// - **`intgrid`**: LDtk IntGrid value name or number to kind (values not
///   listed follow the conventions).
/// - **`tiles`**: a tile's id in its tileset (as the editors show it), or
///   `"TILESET:ID"`, to kind, over the tile's own marks; for games that
///   decide by tile id in code. On an LDtk IntGrid layer, the cells whose
///   auto-layer tile is listed take its kind (solid cells stay solid).
/// - **`spawn`**, **`goal`**: object or entity names, classes or yes
///   property names that mark the spawn point and the goal area. When given,
///   only they count; two spawn objects are then an error.
/// - **`conventions`**: `false` turns every convention off, leaving the
///   rules above and the bool tile properties `solid`, `one_way`, `hazard`,
///   `ladder`, `slope_right` and `slope_left`.
/// - **`wrap`**: which edges of the level meet, `"x"` (left and right),
///   `"y"` (top and bottom), `"xy"` or `"none"`, over the map's own `wrap`
///   property (a Tiled map property, an LDtk level field; a string as
///   these, or `true` for `"x"`).
/// - **`platforms`**: which objects are moving platforms and how their
///   paths, speeds and widths are read ([`PlatformRules`]); they fill
///   [`LoadedLevel::platforms`](crate::level::LoadedLevel::platforms).
///
/// Kinds are `solid`, `one_way`, `hazard`, `ladder`, `slope_right` (a 45°
/// slope rising to the right), `slope_left`, `goal`, `spawn` and `empty`.
/// Within one tile, a hazard mark wins over a slope, a slope over solid,
/// solid over one-way, and so on; when several layers mark one cell, solid
/// wins over slopes, slopes over one-way, then hazard, goal, spawn, ladder
/// and empty. Unknown fields are an error. The
/// file may be at most [`TileMapping::MAX_BYTES`] long.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TileMapping {
    /// The string tile property whose value is looked up in `values`
    /// (the older form of one `properties` table).
    pub property: Option<String>,
    /// Property value to kind, for `property`.
    pub values: BTreeMap<String, TileKind>,
    /// Tile class (Tiled `type`/`class`) to kind; unlisted classes follow
    /// the conventions.
    pub classes: BTreeMap<String, TileKind>,
    /// Object names, classes or yes property names that mark the spawn.
    pub spawn: Vec<String>,
    /// Object names, classes or yes property names that mark the goal.
    pub goal: Vec<String>,
    /// The collision tile layer (same as `layers: {NAME: "tiles"}`).
    pub layer: Option<String>,
    /// Layer name (or `"*"`) to what its tiles are.
    pub layers: BTreeMap<String, LayerRule>,
    /// Every visible tile layer is solid unless it has this property.
    pub collide_unless: Option<String>,
    /// Tile property name to a kind or a table of values.
    pub properties: BTreeMap<String, PropRule>,
    /// Whether tile collision shapes mark tiles (`None`: the conventions').
    pub shapes: Option<bool>,
    /// Object layer, class, name or property to kind; a property may map
    /// its values to kinds.
    pub objects: BTreeMap<String, PropRule>,
    /// LDtk IntGrid value name or number to kind.
    pub intgrid: BTreeMap<String, TileKind>,
    /// Tile id in its tileset (`"12"`), or tileset and id (`"terrain:12"`),
    /// to kind: for games that decide by tile id in their code.
    pub tiles: BTreeMap<String, TileKind>,
    /// `false` turns the conventions off (`None`: on).
    pub conventions: Option<bool>,
    /// Which edges of the level meet (`"x"`, `"y"`, `"xy"` or `"none"`),
    /// over the map's own `wrap` property (`None`: the map's, else none).
    pub wrap: Option<crate::level::Wrap>,
    /// Which objects are moving platforms and how their paths and speeds
    /// are read.
    pub platforms: PlatformRules,
}

/// The rules file's `platforms` entry: which objects (or LDtk entities)
/// are moving platforms and how to read them. Every field is optional.
///
/// ```json
/// { "platforms": { "objects": ["MovingPlatform"], "speed_px": 30,
///                  "start": "StartPosition", "end": "EndPosition", "width": "Width" } }
/// ```
///
/// - **`objects`**: object names, classes or object layer names that are
///   moving platforms; when given, only they are, and one that gives no
///   path is an error. Without it (and with the conventions on), objects
///   whose class, name or layer names a moving platform (`MovingPlatform`,
///   `Elevator`, ...) are, when they give a path.
/// - **`speed`** (tiles/s) or **`speed_px`** (pixels/s, in the map's tile
///   width): the speed of platforms that give none of their own (default
///   2 tiles/s).
/// - **`start`**, **`end`**: the names of the object-reference properties
///   naming the path's two ends (default: such a property named like
///   `start`/`from`, and `end`/`to`/`target`).
/// - **`width`**: the property giving a platform's width in tiles
///   (default `Width`, any case; else the object's own width).
/// - **`tweens`**: paths a game's code gives, by object name or class (an
///   object so named is a moving platform): a back-and-forth tween as
///   Phaser's `tweens.add({ props, duration, yoyo: true, repeat: -1 })`
///   with a linear ease makes one. See [`Tween`].
///
/// ```json
/// { "platforms": { "tweens": {
///     "platformMovingUpAndDown": { "y": 50, "ms": 1500 },
///     "platformMovingLeftAndRight": { "dx": 50, "ms": 1200 } } } }
/// ```
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PlatformRules {
    /// Object names, classes or layer names that are moving platforms.
    pub objects: Vec<String>,
    /// Speed in tiles/s for platforms that give none.
    #[serde(deserialize_with = "positive")]
    pub speed: Option<f64>,
    /// Speed in pixels/s (of the map's tile width), for platforms that
    /// give none; `speed` wins when both are given.
    #[serde(deserialize_with = "positive")]
    pub speed_px: Option<f64>,
    /// The object-reference property naming the path's first end.
    pub start: Option<String>,
    /// The object-reference property naming the path's last end.
    pub end: Option<String>,
    /// The property giving a platform's width in tiles.
    pub width: Option<String>,
    /// Paths by object name or class, as a game's code tweens them.
    pub tweens: BTreeMap<String, Tween>,
}

/// A moving platform's path as a game's code gives it: from where its
/// object is to a target and back, again and again, at a constant speed
/// (a yoyo tween with a linear ease). The target, in map pixels, moves the
/// object's own position (its `x`, `y` as the map gives them, which a game
/// places its sprite at): to `x` and `y` (absolute), or by `dx` and `dy`;
/// an axis not given stays. `ms` is the time one way, `hold_ms` the rest at
/// each end (Phaser's `hold`, default 0).
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tween {
    /// The target's x, in map pixels.
    pub x: Option<f64>,
    /// The target's y, in map pixels.
    pub y: Option<f64>,
    /// The target's x from the object's, in pixels.
    pub dx: Option<f64>,
    /// The target's y from the object's, in pixels.
    pub dy: Option<f64>,
    /// Milliseconds one way.
    pub ms: f64,
    /// Milliseconds of rest at each end.
    #[serde(default)]
    pub hold_ms: f64,
}

// The speeds are finite (checked as they are read), so equality is one.
impl Eq for PlatformRules {}

/// A speed of the rules file: finite and above 0.
fn positive<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    let v = f64::deserialize(d)?;
    if v.is_finite() && v > 0.0 {
        Ok(Some(v))
    } else {
        Err(de::Error::custom(format!(
            "speed {v} (must be a number above 0)"
        )))
    }
}

/// A rules file (the name the CLI and README use for [`TileMapping`]).
pub type Rules = TileMapping;

impl TileMapping {
    /// The largest rules file accepted, in bytes (1 MiB).
    pub const MAX_BYTES: usize = 1 << 20;

    /// The conventions applied where the rules say nothing, in the words of
    /// the load summary:
    pub const CONVENTIONS: &'static str = "\
tile layers named like collision, solid, ground or walls are the collision layers \
(their tiles' marks decide, else every tile is solid; where collision shapes are the \
only marks, tiles without one are solid), like platforms one-way, like spikes or \
hazards deadly, like ladders ladders; else layers with a nocollide property are \
skipped and the other tile layers are solid; else every visible tile layer counts by \
its tiles' marks; else the only tile layer is solid (when it fills the map, the tiles \
of its edges are). Tiles are marked by bool properties named like collides, \
collision, solid or collider (or one_way, platform, unisolid, spike, hazard, deadly, \
lethal, hurt, ladder), by string properties named like type or kind whose value is \
such a word, by a slope's side heights, by their class or LDtk enum tags, and by their \
collision shapes (a 45° triangle on the tile's bottom is a slope, also on a tile \
otherwise marked solid). Object layers named like collision are solid areas and \
lines, except the pickups, doors, enemies and spawn points in them; an object's own \
class or yes property is its kind. LDtk IntGrid layers named like collisions: values \
named like wall or unnamed are solid, platform one-way, spike deadly, ladder ladders. \
Spawn: an object or entity named like spawn, start, player or hero; goal: one named \
like goal, exit, finish, flag, next level or level complete.";

    /// Parses a rules (or mapping) JSON document.
    ///
    /// # Errors
    /// [`LevelError::Mapping`] for malformed or oversized JSON, an unknown
    /// field or an unknown kind (the message has line and column).
    pub fn from_json(text: &str) -> Result<Self, LevelError> {
        if text.len() > Self::MAX_BYTES {
            return Err(LevelError::Limit {
                what: "rules file size in bytes",
                value: text.len() as u64,
                limit: Self::MAX_BYTES as u64,
            });
        }
        serde_json::from_str(text).map_err(|e| LevelError::Mapping(e.to_string()))
    }

    /// Reads a rules file.
    ///
    /// # Errors
    /// As [`TileMapping::from_json`], wrapped with the file name.
    pub fn load(path: &FsPath) -> Result<Self, LevelError> {
        let text = read_text(path)?;
        Self::from_json(&text).map_err(|e| e.in_file(path))
    }

    /// The kind the rules' `tiles` give tile `id` of tileset `set`, by
    /// `"SET:ID"`, else by `"ID"`.
    pub(crate) fn tile_rule(&self, set: &str, id: u32) -> Option<TileKind> {
        if self.tiles.is_empty() {
            return None;
        }
        self.tiles
            .get(&format!("{set}:{id}"))
            .or_else(|| self.tiles.get(&id.to_string()))
            .copied()
    }

    /// Whether the conventions apply (`conventions` is not `false`).
    pub(super) fn conventions_on(&self) -> bool {
        self.conventions != Some(false)
    }

    /// Whether tiles' collision shapes mark tiles (`shapes`, else the
    /// conventions' setting).
    pub(super) fn shapes_on(&self) -> bool {
        self.shapes.unwrap_or(self.conventions_on())
    }
}
