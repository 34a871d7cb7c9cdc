//! What the layers, tiles and objects of a map mean: the rules file
//! ([`TileMapping`]) and the conventions applied where it says nothing.
use std::collections::{BTreeMap, HashMap};

pub(crate) mod doc;
mod grid;
mod kind;
mod layers;
mod mapping;
mod markers;
mod raster;
mod unmodelled;
mod words;

pub use kind::TileKind;
pub use mapping::{LayerRule, PropRule, Rules, TileMapping};
pub use raster::MAX_RASTER_WORK;

use crate::level::{Cell, Level, LevelError, LoadedLevel, Tile, check_size};
use crate::mechanics;
use doc::{Doc, Geom, LayerKind, Object, Placed, Prop, TileDef};
use grid::{Coverage, Grid, KindCell, cover, covered_cells, extent};
use layers::{Treat, plan};
use markers::Markers;
use raster::{Budget, area_cells, line_cells, shapes_kind};
use unmodelled::unmodelled;
use words::{is_single_word, kind_of_name, names_a_kind};

/// The mark of one placed tile or value, and what gave it.
type Mark = Option<(TileKind, String)>;

struct Engine<'a> {
    doc: &'a Doc,
    rules: &'a TileMapping,
    conv: bool,
    used: Vec<String>,
    partial_shapes: usize,
    tile_cache: HashMap<(u16, u32, u8), Mark>,
}

fn push_unique(v: &mut Vec<String>, s: String) {
    if !v.contains(&s) {
        v.push(s);
    }
}

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

impl Engine<'_> {
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
    fn tile_mark(&mut self, p: &Placed) -> Result<Mark, LevelError> {
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
    fn value_mark(
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
}

/// The kind an object's area is, by the rules or conventions.
fn object_kind(o: &Object, rules: &TileMapping, conv: bool) -> Option<(TileKind, String)> {
    let hit = |key: &str| rules.objects.get(key).copied();
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
    if !conv {
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

/// Turns a map's content into a level by the rules and conventions.
pub(crate) fn resolve(doc: &Doc, rules: &TileMapping) -> Result<LoadedLevel, LevelError> {
    let mut e = Engine {
        doc,
        rules,
        conv: rules.conventions_on(),
        used: Vec::new(),
        partial_shapes: 0,
        tile_cache: HashMap::new(),
    };
    let plan = plan(&doc.layers, rules, e.conv, &mut e.used)?;
    let (tw, th) = (doc.tile_w.max(1e-9), doc.tile_h.max(1e-9));
    let mut budget = Budget::new();
    let raster = |m: String| LevelError::Tiled(m);

    // Every placed cell of a counted layer: (kind, col, row) in map cells.
    let mut cells: Vec<KindCell> = Vec::new();
    let mut how: Vec<String> = Vec::new();
    let mut all_solid = Vec::new();
    let mut coverage = Coverage::new();
    for (li, (layer, treat)) in doc.layers.iter().zip(&plan).enumerate() {
        let Some(treat) = *treat else { continue };
        let mut layer_cells: Vec<(Mark, &Placed)> = Vec::with_capacity(layer.cells.len());
        for p in &layer.cells {
            let mark = match (&layer.kind, treat) {
                (_, Treat::Kind(k)) => Some((k, String::new())),
                (LayerKind::Tiles, _) => e.tile_mark(p)?,
                (LayerKind::IntGrid(values), t) => {
                    e.value_mark(values, p.id, t == Treat::MarksOrSolid)
                }
            };
            layer_cells.push((mark, p));
        }
        let none_marked = layer_cells.iter().all(|(m, _)| m.is_none());
        let solid_all = treat == Treat::MarksOrSolid && none_marked;
        if solid_all && !layer_cells.is_empty() {
            all_solid.push(li);
        }
        for (mark, p) in layer_cells {
            let kind = if solid_all {
                TileKind::SOLID
            } else {
                match mark {
                    Some((k, h)) => {
                        if k != TileKind::EMPTY && !h.is_empty() {
                            push_unique(&mut how, h);
                        }
                        k
                    }
                    None => TileKind::EMPTY,
                }
            };
            match layer.grid {
                None => cells.push((kind, i64::from(p.col), i64::from(p.row))),
                Some(g) => {
                    cover(&mut coverage, g, (tw, th), p, kind, &mut budget).map_err(raster)?
                }
            }
        }
        covered_cells(&mut coverage, &mut cells);
    }
    for li in all_solid {
        let l = &doc.layers[li];
        let s = format!("layer {:?}: every tile solid", l.name);
        if let Some(d) = e
            .used
            .iter_mut()
            .find(|d| **d == format!("layer {:?}", l.name))
        {
            *d = s;
        } else {
            e.used.push(s);
        }
    }
    // The only-layer convention: nothing marked, one visible tile layer.
    let marked_any = cells.iter().any(|c| c.0 != TileKind::EMPTY);
    if !marked_any && e.conv && rules.layers.is_empty() && rules.layer.is_none() {
        let visible: Vec<usize> = (0..doc.layers.len())
            .filter(|&i| {
                let l = &doc.layers[i];
                l.visible && !l.decorative && !l.cells.is_empty()
            })
            .collect();
        if let [only] = visible[..]
            && plan[only].is_some()
        {
            let l = &doc.layers[only];
            cells = l
                .cells
                .iter()
                .map(|p| (TileKind::SOLID, i64::from(p.col), i64::from(p.row)))
                .collect();
            e.used = vec![format!(
                "the only tile layer {:?}: every tile solid",
                l.name
            )];
        }
    }
    for h in how {
        e.used.push(h);
    }

    let Some((origin, width, height)) = extent(doc.size, &cells) else {
        return Err(nothing(doc));
    };
    check_size(width, height)?;
    let mut grid = Grid::new(origin, width, height);
    for (k, c, r) in cells {
        grid.merge(c, r, k);
    }

    // Object areas and ledges.
    let cell_px = (tw, th, origin.0 as f64 * tw, origin.1 as f64 * th);
    let dims = (width as i64, height as i64);
    for o in &doc.objects {
        let Some((kind, why)) = object_kind(o, rules, e.conv) else {
            continue;
        };
        let mut any = false;
        let marked = match &o.geom {
            Geom::Point => Vec::new(),
            Geom::Polyline(p) => {
                let kind = if kind == TileKind::SOLID {
                    TileKind::ONE_WAY
                } else {
                    kind
                };
                let pts = o.place(p);
                let c = line_cells(&pts, cell_px, dims, &mut budget).map_err(raster)?;
                c.into_iter().map(|(c, r)| (kind, c, r)).collect()
            }
            _ => {
                let poly = o.polygon().unwrap_or_default();
                let c = area_cells(&poly, cell_px, dims, &mut budget).map_err(raster)?;
                c.into_iter().map(|(c, r)| (kind, c, r)).collect()
            }
        };
        for (k, c, r) in marked {
            any = true;
            grid.merge(c + origin.0, r + origin.1, k);
        }
        if any {
            push_unique(&mut e.used, format!("{why}: {}", kind.name()));
        }
    }

    // Spawn and goal.
    let markers = Markers {
        tile: (tw, th),
        origin,
        dims,
    };
    let spawn = markers.spawn(doc, rules, e.conv)?;
    let goals = markers.goals(doc, rules, e.conv)?;

    let tiles = grid.kinds.iter().map(|k| k.tile()).collect();
    let ladders = grid
        .kinds
        .iter()
        .filter(|k| **k == TileKind::LADDER)
        .count();
    let mut level = Level::new(width, height, tiles)?;
    let standable = level
        .tiles()
        .iter()
        .any(|t| matches!(t, Tile::Solid | Tile::OneWay));
    if !standable {
        return Err(nothing(doc));
    }
    let mut goal_cells: Vec<Cell> = goals.iter().flat_map(|g| g.cells.clone()).collect();
    goal_cells.extend(level.cells_of(Tile::Goal));
    goal_cells.sort_unstable();
    goal_cells.dedup();
    // Markers never replace a tile the body stands on or climbs.
    let keeps = |t: Tile| t.is_solid() || t.is_slope() || t == Tile::Ladder;
    for &g in &goal_cells {
        if !level.get(g).is_some_and(keeps) {
            level.set(g, Tile::Goal);
        }
    }
    let spawn_cell = match &spawn {
        Some(m) => m.cells.first().copied(),
        None => level.cells_of(Tile::Spawn).next(),
    };
    if let Some(s) = spawn_cell
        && !level.get(s).is_some_and(keeps)
    {
        level.set(s, Tile::Spawn);
    }
    if ladders > 0 {
        e.used.push(format!("{ladders} ladder cells"));
    }
    if e.partial_shapes > 0 {
        e.used.push(format!(
            "{} tiles with partial collision shapes (under half the tile, not a top ledge): no collision",
            e.partial_shapes
        ));
    }
    match &spawn {
        Some(m) => e.used.push(format!("spawn {}", m.what)),
        None if spawn_cell.is_some() => e.used.push("spawn tile".into()),
        None => e.used.push("no spawn marked".into()),
    }
    if goals.is_empty() && goal_cells.is_empty() {
        e.used.push("no goal marked".into());
    } else {
        let names: Vec<&str> = goals.iter().map(|g| g.what.as_str()).collect();
        e.used.push(format!(
            "goal {} ({} cells)",
            if names.is_empty() {
                "tiles".to_owned()
            } else {
                names.join(", ")
            },
            goal_cells.len()
        ));
    }
    let unmodelled = unmodelled(doc, &plan, origin, (width, height));
    Ok(LoadedLevel {
        level,
        spawn: spawn_cell,
        goals: goal_cells,
        rules_used: e.used,
        unmodelled,
    })
}

/// The "nothing is solid" error, with what the file holds and a rules line.
fn nothing(doc: &Doc) -> LevelError {
    let mut c = doc.contents();
    let first = doc
        .layers
        .iter()
        .find(|l| l.visible && !l.cells.is_empty())
        .or_else(|| doc.layers.first());
    c.suggestion = match first {
        Some(l) => format!("{{\"layers\": {{{:?}: \"solid\"}}}}", l.name),
        None if !doc.object_layers.is_empty() => {
            format!("{{\"objects\": {{{:?}: \"solid\"}}}}", doc.object_layers[0])
        }
        None => "{\"layers\": {\"LAYER\": \"solid\"}} (the file has no layer at all)".into(),
    };
    LevelError::NothingSolid(Box::new(c))
}
