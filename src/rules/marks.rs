//! Marks: what the rules and the conventions make of each tile (by its
//! properties, class and collision shapes), each IntGrid value and each
//! object, with the phrase the load summary gives for it.
use std::collections::{BTreeMap, HashMap};

use super::doc::{Doc, Object, Placed, Prop, Props, TileDef};
use super::kind::TileKind;
use super::mapping::{PropRule, TileMapping};
use super::raster::shapes_kind;
use super::words::{is_single_word, kind_of_name, names_a_kind, names_a_non_collider, words};
use crate::level::LevelError;
use crate::mechanics;

/// How the load summary names marks given by tiles' collision shapes.
pub(super) const SHAPES: &str = "tile collision shapes";

/// The mark of one placed tile or value, and what gave it.
pub(super) type Mark = Option<(TileKind, String)>;

/// Marks the tiles, IntGrid values and objects of one document by the rules
/// and the conventions.
pub(super) struct Engine<'a> {
    /// The document whose tiles it marks.
    pub(super) doc: &'a Doc,
    rules: &'a TileMapping,
    /// Whether the conventions apply.
    pub(super) conv: bool,
    /// Tiles whose collision shapes were partial (no collision), for the
    /// load summary.
    pub(super) partial_shapes: usize,
    /// The mark of each tile as placed: (tileset, id, flip).
    tile_cache: HashMap<(u16, u32, u8), Mark>,
}

/// The stronger of two marks within one tile ([`TileKind::within_tile`]);
/// on a tie, the first.
fn best(a: Mark, b: Mark) -> Mark {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.0.within_tile() > x.0.within_tile() {
            y
        } else {
            x
        }),
        (x, None) => x,
        (None, y) => y,
    }
}

impl<'a> Engine<'a> {
    /// An engine for `doc` under `rules`, with nothing marked yet.
    pub(super) fn new(doc: &'a Doc, rules: &'a TileMapping) -> Self {
        Engine {
            doc,
            rules,
            conv: rules.conventions_on(),
            partial_shapes: 0,
            tile_cache: HashMap::new(),
        }
    }

    /// The explicit rules' and conventions' mark of one property.
    fn prop_mark(&self, name: &str, value: &Prop, tile_id: u32) -> Result<Mark, LevelError> {
        // platnav's own bool properties, named as the tiles the body does
        // not pass freely (`solid`, `one_way`, `hazard`, ...), always count.
        if let Prop::Bool(true) = value {
            let own = mechanics::tiles()
                .find(|s| s.name == name && !s.tile.is_free())
                .map(|s| TileKind::of(s.tile));
            if let Some(k) = own {
                return Ok(Some((k, format!("tile property {name:?}"))));
            }
        }
        let table = match self.rules.properties.get(name) {
            Some(PropRule::Kind(k)) => {
                let k = if value.truthy() { *k } else { TileKind::EMPTY };
                return Ok(Some((k, format!("tile property {name:?}"))));
            }
            Some(PropRule::Values(t)) => Some(t),
            None if self.rules.property.as_deref() == Some(name) => Some(&self.rules.values),
            None => None,
        };
        if let Some(table) = table {
            let key = value.key().unwrap_or_default();
            return match table.get(&key).or_else(|| table.get("*")) {
                Some(k) => Ok(Some((*k, format!("tile property {name:?} values")))),
                None => Err(LevelError::Mapping(format!(
                    "tile {tile_id}: {name} value {key:?} is not in the rules' table for it \
                     (add it, or \"*\" for every other value)"
                ))),
            };
        }
        if !self.conv {
            return Ok(None);
        }
        if let Some(k) = slope_value(name, value) {
            return Ok(Some((k, format!("tile property {name:?} values"))));
        }
        let named = kind_of_name(name);
        let mark = match value {
            Prop::Str(s) if names_a_kind(name) => match kind_of_name(s) {
                Some(k) => Some(k),
                None => named.map(|k| if value.truthy() { k } else { TileKind::EMPTY }),
            },
            Prop::Bool(_) | Prop::Int(_) | Prop::Float(_) | Prop::Str(_) => {
                named.map(|k| if value.truthy() { k } else { TileKind::EMPTY })
            }
            Prop::Object(_) | Prop::Points(_) | Prop::Other => None,
        };
        Ok(mark.map(|k| {
            let how = if matches!(value, Prop::Str(_)) && names_a_kind(name) {
                format!("tile property {name:?} values")
            } else {
                format!("tile property {name:?}")
            };
            (k, how)
        }))
    }

    /// The mark of a tileset tile as placed with `flip`.
    pub(super) fn tile_mark(&mut self, p: &Placed) -> Result<Mark, LevelError> {
        let key = (p.set, p.id, p.flip);
        if let Some(m) = self.tile_cache.get(&key) {
            return Ok(m.clone());
        }
        let doc = self.doc;
        let set = doc.tilesets.get(usize::from(p.set));
        if let Some(k) = self
            .rules
            .tile_rule(set.map_or("", |s| s.name.as_str()), p.id)
        {
            let mark = Some((flipped(k, p.flip), "tiles by the rules' ids".to_owned()));
            self.tile_cache.insert(key, mark.clone());
            return Ok(mark);
        }
        let Some(def) = doc.tile(p) else {
            self.tile_cache.insert(key, None);
            return Ok(None);
        };
        let set_name = &doc.tilesets[usize::from(p.set)].name;
        let mut mark = self
            .def_mark(def, p.id)
            .map_err(|e| LevelError::Mapping(format!("tileset {set_name:?}: {e}")))?
            .map(|(k, how)| (flipped(k, p.flip), how));
        let solid = mark.as_ref().is_some_and(|m| m.0 == TileKind::SOLID);
        if (mark.is_none() || solid) && self.rules.shapes_on() && !def.shapes.is_empty() {
            let ts = &doc.tilesets[usize::from(p.set)];
            let mut partial = false;
            let by_shapes = shapes_kind(&def.shapes, p.flip, ts.tile_w, ts.tile_h, &mut partial)
                .map(|k| (k, SHAPES.to_owned()));
            if solid {
                // A tile marked solid whose shape is a slope is that slope.
                if let Some(m) = by_shapes
                    .filter(|m| matches!(m.0, TileKind::SLOPE_RIGHT | TileKind::SLOPE_LEFT))
                {
                    mark = Some(m);
                }
            } else {
                mark = by_shapes;
                if partial {
                    self.partial_shapes += 1;
                    mark = Some((TileKind::EMPTY, SHAPES.to_owned()));
                }
            }
        }
        self.tile_cache.insert(key, mark.clone());
        Ok(mark)
    }

    /// A tile's class and properties.
    fn def_mark(&self, def: &TileDef, id: u32) -> Result<Mark, LevelError> {
        let mut mark = None;
        if let Some(class) = def.class.as_deref().filter(|c| !c.is_empty()) {
            if let Some(k) = self.rules.classes.get(class) {
                mark = Some((*k, format!("tile class {class:?}")));
            } else if self.conv
                && let Some(k) = kind_of_name(class)
            {
                mark = Some((k, "tile classes".to_owned()));
            }
        }
        let pair = if self.conv {
            slope_pair(&def.props)
        } else {
            None
        };
        for (name, value) in &def.props {
            if pair.as_ref().is_some_and(|(_, names)| names.contains(name)) {
                continue;
            }
            mark = best(mark, self.prop_mark(name, value, id)?);
        }
        if let Some((k, names)) = pair {
            mark = best(mark, Some((k, format!("tile properties {names:?}"))));
        }
        Ok(mark)
    }

    /// The mark of an IntGrid value on a layer (`solid_default`: unnamed
    /// and unknown values are solid, as on a layer named like collisions).
    pub(super) fn value_mark(
        &self,
        values: &BTreeMap<u32, Option<String>>,
        v: u32,
        solid_default: bool,
    ) -> Mark {
        let name = values.get(&v).cloned().flatten();
        let by_rule = self
            .rules
            .intgrid
            .get(&v.to_string())
            .or_else(|| name.as_ref().and_then(|n| self.rules.intgrid.get(n)));
        if let Some(k) = by_rule {
            return Some((*k, "IntGrid values by the rules".to_owned()));
        }
        if !self.conv {
            return None;
        }
        match name.as_deref().and_then(kind_of_name) {
            Some(k) => Some((k, "IntGrid values by their names".to_owned())),
            None if solid_default => Some((
                TileKind::SOLID,
                "other IntGrid values of a collision layer: solid".to_owned(),
            )),
            None => None,
        }
    }

    /// The kind an object's area is, by the rules or conventions.
    pub(super) fn object_kind(&self, o: &Object) -> Option<(TileKind, String)> {
        let hit = |key: &str| match self.rules.objects.get(key) {
            Some(PropRule::Kind(k)) => Some(*k),
            _ => None,
        };
        if let Some(k) = hit(&o.name).filter(|_| !o.name.is_empty()) {
            return Some((k, format!("objects named {:?}", o.name)));
        }
        if let Some(k) = hit(&o.class).filter(|_| !o.class.is_empty()) {
            return Some((k, format!("objects of class {:?}", o.class)));
        }
        for (p, v) in &o.props {
            let k = match self.rules.objects.get(p) {
                Some(PropRule::Kind(k)) if v.truthy() => Some(*k),
                Some(PropRule::Values(t)) => {
                    let key = v.key().unwrap_or_default();
                    t.get(&key).or_else(|| t.get("*")).copied()
                }
                _ => None,
            };
            if let Some(k) = k {
                return Some((k, format!("objects by property {p:?}")));
            }
        }
        if let Some(k) = hit(&o.layer) {
            return Some((k, format!("object layer {:?}", o.layer)));
        }
        if !self.conv {
            return None;
        }
        if !o.class.is_empty()
            && is_single_word(&o.class)
            && let Some(k) = kind_of_name(&o.class).filter(|k| *k != TileKind::EMPTY)
        {
            return Some((k, format!("objects of class {:?}", o.class)));
        }
        // An object's own yes property (a tile object's, from its tile).
        for (p, v) in &o.props {
            if let Some(k) = kind_of_name(p).filter(|k| *k != TileKind::EMPTY && v.truthy()) {
                return Some((k, format!("objects with property {p:?}")));
            }
        }
        // Pickups, doors, enemies and the like are not the layer's walls.
        if names_a_non_collider(&o.class) || names_a_non_collider(&o.name) {
            return None;
        }
        match kind_of_name(&o.layer) {
            Some(TileKind::EMPTY) | None => None,
            Some(k) => Some((k, format!("object layer {:?}", o.layer))),
        }
    }
}

/// A slope kind mirrored by a tile's horizontal flip (bit 4), as games
/// mirror the tile's picture.
fn flipped(k: TileKind, flip: u8) -> TileKind {
    match k {
        TileKind::SLOPE_RIGHT if flip & 4 != 0 => TileKind::SLOPE_LEFT,
        TileKind::SLOPE_LEFT if flip & 4 != 0 => TileKind::SLOPE_RIGHT,
        k => k,
    }
}

/// A property named like slope whose value is the heights of its two
/// sides, `"LEFT_RIGHT"` (`"0_1"`: rising to the right; also `,` or `x`
/// between): the slope rising toward the higher side.
fn slope_value(name: &str, value: &Prop) -> Option<TileKind> {
    let Prop::Str(s) = value else { return None };
    if !words(name).iter().any(|w| w == "slope" || w == "ramp") {
        return None;
    }
    let mut parts = s.split(['_', ',', 'x']).map(|p| p.trim().parse::<f64>());
    let (Some(Ok(l)), Some(Ok(r)), None) = (parts.next(), parts.next(), parts.next()) else {
        return None;
    };
    rising(l, r)
}

/// The slope rising toward the higher of two side heights.
fn rising(left: f64, right: f64) -> Option<TileKind> {
    if right > left {
        Some(TileKind::SLOPE_RIGHT)
    } else if left > right {
        Some(TileKind::SLOPE_LEFT)
    } else {
        None
    }
}

/// Two number properties naming a slope's left and right sides
/// (`slopeTopLeft`/`slopeTopRight`, `slope_left`/`slope_right`): heights,
/// or with `top` in the names depths below the tile's top (Nez). The slope
/// rising toward the higher side, and the two names.
fn slope_pair(props: &Props) -> Option<(TileKind, [String; 2])> {
    let side = |want: &str| {
        props.iter().find_map(|(n, v)| {
            let w = words(n);
            let num = match v {
                Prop::Int(i) => *i as f64,
                Prop::Float(f) => *f,
                _ => return None,
            };
            let is = w.iter().any(|x| x == "slope") && w.iter().any(|x| x == want);
            is.then(|| (num, w.iter().any(|x| x == "top"), n.clone()))
        })
    };
    let ((l, top_l, nl), (r, top_r, nr)) = (side("left")?, side("right")?);
    let k = if top_l && top_r {
        rising(-l, -r)
    } else {
        rising(l, r)
    }?;
    Some((k, [nl, nr]))
}
