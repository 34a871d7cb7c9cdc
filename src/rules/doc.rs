//! What a map file holds, before any rule gives it meaning: the common
//! shape every editor loader (TMX, TMJ, LDtk) reads its file into, so that
//! one rules engine ([`super`]) serves them all.

use std::collections::{BTreeMap, HashMap};

use crate::level::{LevelError, MapContents};

/// A custom property value, as far as rules care.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Prop {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    /// A reference to another object, by its id (Tiled `object`
    /// properties): never a collision mark; a moving platform's ends.
    Object(u32),
    /// Points in map pixels (LDtk `Point` and `Array<Point>` fields, each
    /// point at its cell's top-left corner): never a collision mark; a
    /// moving platform's path.
    Points(Vec<(f64, f64)>),
    /// Colours, files, classes: never a collision mark.
    Other,
}

impl Prop {
    /// Whether the property says "yes": `true`, a number other than 0, or a
    /// string other than `false`, `no`, `0` and `none` (an empty string
    /// counts as yes: the property is there as a tag).
    pub fn truthy(&self) -> bool {
        match self {
            Prop::Bool(b) => *b,
            Prop::Int(i) => *i != 0,
            Prop::Float(f) => *f != 0.0,
            Prop::Str(s) => !matches!(
                s.trim().to_ascii_lowercase().as_str(),
                "false" | "no" | "0" | "none"
            ),
            Prop::Object(_) | Prop::Points(_) | Prop::Other => false,
        }
    }

    /// The value as rules tables key it: `true`/`false`, the number, or the
    /// string itself.
    pub fn key(&self) -> Option<String> {
        match self {
            Prop::Bool(b) => Some(b.to_string()),
            Prop::Int(i) => Some(i.to_string()),
            Prop::Float(f) => Some(f.to_string()),
            Prop::Str(s) => Some(s.clone()),
            Prop::Object(_) | Prop::Points(_) | Prop::Other => None,
        }
    }

    /// The type's name, for listings.
    pub fn type_name(&self) -> &'static str {
        match self {
            Prop::Bool(_) => "bool",
            Prop::Int(_) => "int",
            Prop::Float(_) => "float",
            Prop::Str(_) => "string",
            Prop::Object(_) => "object",
            Prop::Points(_) => "points",
            Prop::Other => "other",
        }
    }

    /// A Tiled JSON property from its value and declared type.
    #[cfg(feature = "serde")]
    pub fn from_json(value: &serde_json::Value, ty: Option<&str>) -> Self {
        use serde_json::Value;
        match (value, ty) {
            (Value::Bool(b), _) => Prop::Bool(*b),
            (Value::Number(n), Some("float")) => n.as_f64().map_or(Prop::Other, Prop::Float),
            (Value::Number(n), Some("object")) => n
                .as_u64()
                .and_then(|i| u32::try_from(i).ok())
                .map_or(Prop::Other, Prop::Object),
            (Value::Number(n), _) => match n.as_i64() {
                Some(i) => Prop::Int(i),
                None => n.as_f64().map_or(Prop::Other, Prop::Float),
            },
            (Value::String(s), Some("bool")) => Prop::Bool(s == "true"),
            (Value::String(s), Some("int")) => s.trim().parse().map_or(Prop::Other, Prop::Int),
            (Value::String(s), Some("float")) => s.trim().parse().map_or(Prop::Other, Prop::Float),
            (Value::String(s), None | Some("string" | "")) => Prop::Str(s.clone()),
            _ => Prop::Other,
        }
    }
}

/// Named properties, in file order.
pub(crate) type Props = Vec<(String, Prop)>;

/// The value of a `wrap` property (any case) among `props`, as text: a
/// string as written, `true` as `x` and `false` as `none`; another type
/// as a value no wrap is spelled as, for the reader to refuse by name.
pub(crate) fn wrap_property(props: &Props) -> Option<String> {
    let (_, v) = props.iter().find(|(k, _)| k.eq_ignore_ascii_case("wrap"))?;
    Some(match v {
        Prop::Str(s) => s.clone(),
        Prop::Bool(true) => "x".into(),
        Prop::Bool(false) => "none".into(),
        Prop::Int(i) => i.to_string(),
        Prop::Float(f) => f.to_string(),
        Prop::Object(_) | Prop::Points(_) | Prop::Other => "(not a string)".into(),
    })
}

/// An object's outline in map pixels. Rotation (degrees, clockwise) turns
/// the shape around `(x, y)`, as Tiled does.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Geom {
    Point,
    /// `w x h` from `(x, y)` (top-left corner before rotation).
    Rect {
        w: f64,
        h: f64,
    },
    /// Inscribed in the rectangle `w x h` from `(x, y)`.
    Ellipse {
        w: f64,
        h: f64,
    },
    /// Points relative to `(x, y)`.
    Polygon(Vec<(f64, f64)>),
    /// Points relative to `(x, y)`.
    Polyline(Vec<(f64, f64)>),
}

/// An object or entity.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Object {
    pub id: u32,
    pub name: String,
    /// Tiled `type`/`class` (its tile's when the object has none), LDtk
    /// entity identifier.
    pub class: String,
    /// The object layer it is on.
    pub layer: String,
    pub x: f64,
    pub y: f64,
    pub rotation: f64,
    pub geom: Geom,
    /// Its own properties, then its template's and tile's.
    pub props: Props,
}

impl Object {
    /// The object's outline as a polygon in map pixels (rotation applied),
    /// or `None` for points and polylines.
    pub fn polygon(&self) -> Option<Vec<(f64, f64)>> {
        let pts: Vec<(f64, f64)> = match &self.geom {
            Geom::Point | Geom::Polyline(_) => return None,
            Geom::Rect { w, h } => vec![(0.0, 0.0), (*w, 0.0), (*w, *h), (0.0, *h)],
            Geom::Ellipse { w, h } => (0..32)
                .map(|i| {
                    let a = f64::from(i) * std::f64::consts::TAU / 32.0;
                    (w / 2.0 * (1.0 + a.cos()), h / 2.0 * (1.0 + a.sin()))
                })
                .collect(),
            Geom::Polygon(p) => p.clone(),
        };
        Some(self.place(&pts))
    }

    /// Points relative to the object, rotated and moved into map pixels.
    pub fn place(&self, pts: &[(f64, f64)]) -> Vec<(f64, f64)> {
        let (s, c) = self.rotation.to_radians().sin_cos();
        pts.iter()
            .map(|&(px, py)| (self.x + px * c - py * s, self.y + px * s + py * c))
            .collect()
    }

    /// The axis-aligned bounds `(x0, y0, x1, y1)` in map pixels.
    pub fn bounds(&self) -> (f64, f64, f64, f64) {
        let pts = match &self.geom {
            Geom::Point => vec![(self.x, self.y)],
            Geom::Polyline(p) => self.place(p),
            _ => self.polygon().unwrap_or_default(),
        };
        let mut b = (
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        );
        for (x, y) in pts {
            b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
        }
        b
    }
}

/// A tileset tile's own marks.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct TileDef {
    pub class: Option<String>,
    pub props: Props,
    /// Collision shapes (Tiled's collision editor) in the tile's pixels.
    pub shapes: Vec<Object>,
}

impl TileDef {
    /// What a tile object takes from its tile: the tile's class when the
    /// object has none, and the properties the object does not set.
    pub fn lend(&self, class: &mut String, props: &mut Props) {
        if class.is_empty() {
            class.clone_from(&self.class.clone().unwrap_or_default());
        }
        for (k, v) in &self.props {
            if !props.iter().any(|(n, _)| n == k) {
                props.push((k.clone(), v.clone()));
            }
        }
    }
}

/// A tileset: the marked tiles of one gid range.
#[derive(Debug, Clone, Default)]
pub(crate) struct TileSet {
    pub name: String,
    /// Tile size in pixels (collision shapes are in these units).
    pub tile_w: f64,
    pub tile_h: f64,
    pub tiles: HashMap<u32, TileDef>,
}

/// One non-empty cell of a layer: a tile (tileset index, local id, flip
/// bits H=4, V=2, D=1) or an IntGrid value (`set` unused).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Placed {
    pub col: i32,
    pub row: i32,
    pub set: u16,
    pub flip: u8,
    pub id: u32,
}

/// What a layer's cells are.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum LayerKind {
    /// Tiles of the map's tilesets.
    Tiles,
    /// LDtk IntGrid: value to its name (if any).
    IntGrid(BTreeMap<u32, Option<String>>),
}

/// A tile or IntGrid layer.
#[derive(Debug, Clone)]
pub(crate) struct Layer {
    pub name: String,
    pub visible: bool,
    pub props: Props,
    pub kind: LayerKind,
    pub cells: Vec<Placed>,
    /// Cell size and offset in map pixels when the layer's grid is not the
    /// map's (LDtk layers of another grid size); `None`: the map's grid.
    pub grid: Option<(f64, f64, f64, f64)>,
    /// Tiles that carry no collision data of their own (LDtk tile and
    /// auto-layers whose tiles no enum tag or rule marks): the conventions
    /// skip the layer; rules may name it.
    pub decorative: bool,
    /// Counts by its tiles' marks alone, whatever the plan (the auto-layer
    /// tiles of an LDtk IntGrid layer, where enum tags or the rules'
    /// `tiles` mark some).
    pub marks_only: bool,
}

/// A map file's content.
#[derive(Debug, Clone)]
pub(crate) struct Doc {
    /// "Tiled TMX", "Tiled JSON" or "LDtk".
    pub format: &'static str,
    /// Cell size in pixels.
    pub tile_w: f64,
    pub tile_h: f64,
    /// Width and height in cells; `None` for infinite maps (the bounding
    /// box of the collision cells is used).
    pub size: Option<(usize, usize)>,
    pub layers: Vec<Layer>,
    pub tilesets: Vec<TileSet>,
    pub objects: Vec<Object>,
    /// Object layer names, in file order.
    pub object_layers: Vec<String>,
    /// The map's (LDtk: the level's) `wrap` property, if it has one
    /// ([`wrap_property`]).
    pub wrap: Option<String>,
}

/// A reading error in the variant of the map's format (`format` as in
/// [`Doc::format`]), so that it names the format the user loaded.
pub(crate) fn format_error(format: &str, msg: String) -> LevelError {
    match format {
        "LDtk" => LevelError::Ldtk(msg),
        "Tiled JSON" => LevelError::Tmj(msg),
        _ => LevelError::Tiled(msg),
    }
}

impl Doc {
    /// A reading error of this document, in its format's variant.
    pub fn error(&self, msg: String) -> LevelError {
        format_error(self.format, msg)
    }

    /// The tile definition of a placed tile, if its tileset marks it.
    pub fn tile(&self, p: &Placed) -> Option<&TileDef> {
        self.tilesets.get(usize::from(p.set))?.tiles.get(&p.id)
    }

    /// What the file holds, for the "nothing is solid" error.
    pub fn contents(&self) -> MapContents {
        let mut c = MapContents {
            format: self.format.to_owned(),
            ..MapContents::default()
        };
        for l in &self.layers {
            let hidden = if l.visible { "" } else { " (hidden)" };
            match &l.kind {
                LayerKind::Tiles => c.tile_layers.push(format!("{:?}{hidden}", l.name)),
                LayerKind::IntGrid(values) => {
                    let names: Vec<String> = values
                        .iter()
                        .map(|(v, n)| match n {
                            Some(n) => format!("{v}={n}"),
                            None => v.to_string(),
                        })
                        .collect();
                    c.intgrid_layers
                        .push(format!("{:?}{hidden} [{}]", l.name, names.join(", ")));
                }
            }
            for (k, v) in &l.props {
                push_unique(&mut c.layer_properties, format!("{k} ({})", v.type_name()));
            }
        }
        c.object_layers.clone_from(&self.object_layers);
        for ts in &self.tilesets {
            let mut ids: Vec<&u32> = ts.tiles.keys().collect();
            ids.sort_unstable();
            for id in ids {
                let t = &ts.tiles[id];
                for (k, v) in &t.props {
                    push_unique(&mut c.tile_properties, format!("{k} ({})", v.type_name()));
                }
                if let Some(class) = t.class.as_ref().filter(|s| !s.is_empty()) {
                    push_unique(&mut c.tile_classes, class.clone());
                }
                if !t.shapes.is_empty() {
                    c.tiles_with_shapes += 1;
                }
            }
        }
        for o in &self.objects {
            if !o.class.is_empty() {
                push_unique(&mut c.object_classes, o.class.clone());
            }
            if !o.name.is_empty() {
                push_unique(&mut c.object_names, o.name.clone());
            }
        }
        c
    }
}

fn push_unique(v: &mut Vec<String>, s: String) {
    if !v.contains(&s) {
        v.push(s);
    }
}
