//! Marks: what the rules and the conventions make of each tile (by its
//! properties, class and collision shapes), each IntGrid value and each
//! object, with the phrase the load summary gives for it.
use std::collections::{BTreeMap, HashMap};

use super::doc::{Doc, Object, Placed, Prop, TileDef};
use super::kind::TileKind;
use super::mapping::{PropRule, TileMapping};
use super::raster::shapes_kind;
use super::words::{is_single_word, kind_of_name, names_a_kind};
use crate::level::LevelError;
use crate::mechanics;

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
        let named = kind_of_name(name);
        let mark = match value {
            Prop::Str(s) if names_a_kind(name) => match kind_of_name(s) {
                Some(k) => Some(k),
                None => named.map(|k| if value.truthy() { k } else { TileKind::EMPTY }),
            },
            Prop::Bool(_) | Prop::Int(_) | Prop::Float(_) | Prop::Str(_) => {
                named.map(|k| if value.truthy() { k } else { TileKind::EMPTY })
            }
            Prop::Other => None,
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
        let Some(def) = doc.tile(p) else {
            self.tile_cache.insert(key, None);
            return Ok(None);
        };
        let set_name = &doc.tilesets[usize::from(p.set)].name;
        let mut mark = self
            .def_mark(def, p.id)
            .map_err(|e| LevelError::Mapping(format!("tileset {set_name:?}: {e}")))?;
        let solid = mark.as_ref().is_some_and(|m| m.0 == TileKind::SOLID);
        if (mark.is_none() || solid) && self.rules.shapes_on() && !def.shapes.is_empty() {
            let ts = &doc.tilesets[usize::from(p.set)];
            let mut partial = false;
            let by_shapes = shapes_kind(&def.shapes, p.flip, ts.tile_w, ts.tile_h, &mut partial)
                .map(|k| (k, "tile collision shapes".to_owned()));
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
                    mark = Some((TileKind::EMPTY, "tile collision shapes".to_owned()));
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
        for (name, value) in &def.props {
            mark = best(mark, self.prop_mark(name, value, id)?);
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
        let hit = |key: &str| self.rules.objects.get(key).copied();
        if let Some(k) = hit(&o.name).filter(|_| !o.name.is_empty()) {
            return Some((k, format!("objects named {:?}", o.name)));
        }
        if let Some(k) = hit(&o.class).filter(|_| !o.class.is_empty()) {
            return Some((k, format!("objects of class {:?}", o.class)));
        }
        for (p, v) in &o.props {
            if v.truthy()
                && let Some(k) = hit(p)
            {
                return Some((k, format!("objects with property {p:?}")));
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
        match kind_of_name(&o.layer) {
            Some(TileKind::EMPTY) | None => None,
            Some(k) => Some((k, format!("object layer {:?}", o.layer))),
        }
    }
}
