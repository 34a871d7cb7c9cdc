//! LDtk projects: see [`LoadedLevel::load_ldtk`].
//!
//! The serde types below read only what platnav needs from LDtk's published
//! JSON schema, every field optional with a default, so that projects from
//! LDtk 0.9 to 1.5 (and the fields later versions add) load alike.
use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::ldtk_tilesets::{TilesetDef, Tilesets};
use super::{MAX_LAYER_CELLS, add_within};
use crate::io::files::{read_referenced_text, read_text};
use crate::level::{LevelError, LoadedLevel, MAX_SIDE, check_size};
use crate::rules::doc::{Doc, Geom, Layer, LayerKind, Object, Placed, Prop, Props};
use crate::rules::{self, TileMapping};

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Project {
    json_version: String,
    defs: Defs,
    levels: Vec<LdtkLevel>,
    worlds: Vec<World>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Defs {
    layers: Vec<LayerDef>,
    tilesets: Vec<TilesetDef>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct LayerDef {
    uid: i64,
    identifier: String,
    int_grid_values: Vec<IntGridValue>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct IntGridValue {
    value: i64,
    identifier: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct World {
    identifier: String,
    levels: Vec<LdtkLevel>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct LdtkLevel {
    identifier: String,
    iid: String,
    px_wid: i64,
    px_hei: i64,
    layer_instances: Option<Vec<LayerInstance>>,
    external_rel_path: Option<String>,
    /// The level's custom fields (a `wrap` field says which edges meet).
    field_instances: Vec<Field>,
}

#[derive(Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct LayerInstance {
    #[serde(rename = "__identifier")]
    identifier: String,
    #[serde(rename = "__type")]
    ty: String,
    #[serde(rename = "__cWid")]
    c_wid: i64,
    #[serde(rename = "__cHei")]
    c_hei: i64,
    #[serde(rename = "__gridSize")]
    grid_size: i64,
    layer_def_uid: i64,
    #[serde(rename = "__tilesetDefUid")]
    tileset_def_uid: Option<i64>,
    override_tileset_uid: Option<i64>,
    px_offset_x: i64,
    px_offset_y: i64,
    visible: bool,
    int_grid_csv: Option<Vec<i64>>,
    /// Before LDtk 0.8: `{coordId, v}` with `v` the value's index.
    int_grid: Option<Vec<OldIntGrid>>,
    grid_tiles: Vec<TileInstance>,
    auto_layer_tiles: Vec<TileInstance>,
    entity_instances: Vec<Entity>,
}

impl Default for LayerInstance {
    fn default() -> Self {
        Self {
            identifier: String::new(),
            ty: String::new(),
            c_wid: 0,
            c_hei: 0,
            grid_size: 0,
            layer_def_uid: 0,
            tileset_def_uid: None,
            override_tileset_uid: None,
            px_offset_x: 0,
            px_offset_y: 0,
            visible: true,
            int_grid_csv: None,
            int_grid: None,
            grid_tiles: Vec::new(),
            auto_layer_tiles: Vec::new(),
            entity_instances: Vec::new(),
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct OldIntGrid {
    coord_id: i64,
    v: i64,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct TileInstance {
    px: Vec<f64>,
    /// The tile's id in its tileset.
    t: i64,
    /// Flips: 1 horizontal, 2 vertical.
    f: i64,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Entity {
    #[serde(rename = "__identifier")]
    identifier: String,
    #[serde(rename = "__pivot")]
    pivot: Vec<f64>,
    #[serde(rename = "__tags")]
    tags: Vec<String>,
    px: Vec<f64>,
    width: Option<f64>,
    height: Option<f64>,
    #[serde(rename = "fieldInstances")]
    fields: Vec<Field>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Field {
    #[serde(rename = "__identifier")]
    identifier: String,
    #[serde(rename = "__type")]
    ty: String,
    #[serde(rename = "__value")]
    value: serde_json::Value,
}

fn err(m: String) -> LevelError {
    LevelError::Ldtk(m)
}

impl LoadedLevel {
    /// Loads one level of an LDtk project (`.ldtk`): levels embedded in the
    /// project, in external `.ldtkl` files beside it, or in the
    /// multi-worlds layout. `level` picks a level by its identifier (or
    /// iid); `None` takes the first.
    ///
    /// IntGrid layers give the collision: by the rules file's `intgrid`
    /// table (value names or numbers) and `layers`, and by the conventions
    /// (an IntGrid layer named like collisions: values named like wall or
    /// unnamed are solid, platform one-way, spike deadly, ladder ladders;
    /// see [`TileMapping`]). Entities are objects whose class is their
    /// identifier, with their fields and tags as properties: the spawn and
    /// goal by the rules or conventions (an entity named `Player` is the
    /// spawn). Tile and auto-layers count only when the rules name them.
    /// The level's grid is its IntGrid layer's (else its first layer's);
    /// layers of another grid size or offset are laid over it, each of
    /// their cells marking the cells it covers at least half.
    ///
    /// # Allocation bound
    ///
    /// The project (and each level file) is at most
    /// [`MAX_FILE_BYTES`](crate::io::files::MAX_FILE_BYTES); layer sizes pass
    /// [`check_size`] and their cells summed over the
    /// level are bounded by [`MAX_LAYER_CELLS`]
    /// before any grid is allocated; an IntGrid array must hold exactly
    /// its layer's cells.
    ///
    /// # Errors
    /// Any [`LevelError`], wrapped in [`LevelError::File`] naming the
    /// project; [`LevelError::Ldtk`] for an unknown level (listing the
    /// levels) or inconsistent data.
    pub fn load_ldtk(
        path: &Path,
        level: Option<&str>,
        mapping: &TileMapping,
    ) -> Result<Self, LevelError> {
        let text = read_text(path)?;
        let base = path.parent().unwrap_or(Path::new(""));
        Self::from_ldtk_str(&text, Some(base), level, mapping).map_err(|e| e.in_file(path))
    }

    /// Reads an LDtk project held in memory; external level files are read
    /// from `base_dir`, and are an error when it is `None`.
    ///
    /// # Errors
    /// As [`LoadedLevel::load_ldtk`].
    pub fn from_ldtk_str(
        text: &str,
        base_dir: Option<&Path>,
        level: Option<&str>,
        mapping: &TileMapping,
    ) -> Result<Self, LevelError> {
        let project: Project = serde_json::from_str(text).map_err(|e| err(format!("{e}")))?;
        if project.json_version.is_empty() {
            return Err(err("no jsonVersion: not an LDtk project".into()));
        }
        let doc = convert(project, base_dir, level, mapping)?;
        rules::resolve(&doc, mapping)
    }
}

fn pick(project: Project, want: Option<&str>) -> Result<LdtkLevel, LevelError> {
    let mut all: Vec<(String, LdtkLevel)> = project
        .levels
        .into_iter()
        .map(|l| (String::new(), l))
        .collect();
    for w in project.worlds {
        for l in w.levels {
            all.push((w.identifier.clone(), l));
        }
    }
    let names = |all: &[(String, LdtkLevel)]| {
        let mut v: Vec<String> = all
            .iter()
            .take(20)
            .map(|(w, l)| {
                if w.is_empty() {
                    format!("{:?}", l.identifier)
                } else {
                    format!("{:?} (world {w:?})", l.identifier)
                }
            })
            .collect();
        if all.len() > 20 {
            v.push(format!("... ({} more)", all.len() - 20));
        }
        v.join(", ")
    };
    let i = match want {
        None => {
            if all.is_empty() {
                return Err(err("the project has no level".into()));
            }
            0
        }
        Some(name) => all
            .iter()
            .position(|(_, l)| l.identifier == name || l.iid == name)
            .ok_or_else(|| err(format!("no level named {name:?} (levels: {})", names(&all))))?,
    };
    Ok(all.swap_remove(i).1)
}

fn num(v: &[f64], i: usize) -> f64 {
    v.get(i).copied().filter(|x| x.is_finite()).unwrap_or(0.0)
}

fn field_prop(f: &Field) -> Prop {
    use serde_json::Value;
    match (&f.value, f.ty.as_str()) {
        (Value::Bool(b), _) => Prop::Bool(*b),
        (Value::Number(n), "Float") => n.as_f64().map_or(Prop::Other, Prop::Float),
        (Value::Number(n), _) => n
            .as_i64()
            .map(Prop::Int)
            .or_else(|| n.as_f64().map(Prop::Float))
            .unwrap_or(Prop::Other),
        (Value::String(s), _) => Prop::Str(s.clone()),
        _ => Prop::Other,
    }
}

/// A `Point` or `Array<Point>` field's value (`{cx, cy}` in the layer's
/// grid of `gs` pixels, offset by `(ox, oy)`) as points in map pixels, each
/// at its cell's top-left corner: a null point is none, and an array with
/// an element that is not a point is no path at all ([`Prop::Other`]).
fn field_points(v: &serde_json::Value, gs: i64, (ox, oy): (f64, f64)) -> Prop {
    let one = |p: &serde_json::Value| {
        let c = |k: &str| p.get(k)?.as_f64().filter(|x| x.is_finite());
        Some((ox + c("cx")? * gs as f64, oy + c("cy")? * gs as f64))
    };
    match v {
        serde_json::Value::Array(a) => a
            .iter()
            .map(one)
            .collect::<Option<Vec<_>>>()
            .map_or(Prop::Other, Prop::Points),
        p => Prop::Points(one(p).into_iter().collect()),
    }
}

/// Reads the chosen level of a project into the rules' document: its
/// entity, IntGrid and tile layers on the level's grid.
fn convert(
    project: Project,
    base_dir: Option<&Path>,
    want: Option<&str>,
    rules: &TileMapping,
) -> Result<Doc, LevelError> {
    let defs = LayerDefs::new(&project.defs.layers);
    let mut budget = 0;
    let sets = Tilesets::new(&project.defs.tilesets, &mut budget)?;
    let mut level = pick(
        Project {
            json_version: String::new(),
            defs: Defs::default(),
            levels: project.levels,
            worlds: project.worlds,
        },
        want,
    )?;
    let instances = layer_instances(&mut level, base_dir)?;
    // The level's grid: its (first) IntGrid layer's, else its first layer's.
    let grid = instances
        .iter()
        .find(|l| l.ty == "IntGrid")
        .or_else(|| instances.first())
        .map_or(16, |l| l.grid_size)
        .max(1);
    let g = grid as f64;
    let (w, h) = level_size(&level, g)?;
    let fields: crate::rules::doc::Props = level
        .field_instances
        .iter()
        .map(|f| {
            let prop = crate::rules::doc::Prop::from_json(&f.value, None);
            (f.identifier.clone(), prop)
        })
        .collect();

    let mut read = LevelLayers {
        grid,
        budget,
        sets,
        rules,
        layers: Vec::new(),
        objects: Vec::new(),
        object_layers: Vec::new(),
    };
    // LDtk lists layers top first; platnav's listings go bottom up like Tiled.
    for inst in instances.iter().rev() {
        read.add(inst, &level.identifier, &defs)?;
    }
    Ok(Doc {
        format: "LDtk",
        tile_w: g,
        tile_h: g,
        size: Some((w, h)),
        layers: read.layers,
        tilesets: read.sets.sets,
        objects: read.objects,
        object_layers: read.object_layers,
        wrap: crate::rules::doc::wrap_property(&fields),
    })
}

/// The project's layer definitions, to find an IntGrid layer's value names.
struct LayerDefs<'a> {
    /// By uid (of definitions sharing a uid, the last).
    by_uid: BTreeMap<i64, &'a LayerDef>,
    all: &'a [LayerDef],
}

impl<'a> LayerDefs<'a> {
    /// Indexes the definitions by uid.
    fn new(all: &'a [LayerDef]) -> Self {
        LayerDefs {
            by_uid: all.iter().map(|d| (d.uid, d)).collect(),
            all,
        }
    }

    /// An IntGrid layer's values and their names, from its definition (by
    /// uid, else by identifier); none when it has no definition.
    fn values_of(&self, inst: &LayerInstance) -> BTreeMap<u32, Option<String>> {
        let def = self
            .by_uid
            .get(&inst.layer_def_uid)
            .copied()
            .or_else(|| self.all.iter().find(|d| d.identifier == inst.identifier));
        def.map(|d| {
            d.int_grid_values
                .iter()
                .enumerate()
                // Before LDtk 0.8 values had no number: their index + 1.
                .filter_map(|(i, v)| {
                    let value = if v.value == 0 { i as i64 + 1 } else { v.value };
                    Some((u32::try_from(value).ok()?, v.identifier.clone()))
                })
                .collect()
        })
        .unwrap_or_default()
    }
}

/// A level's layer instances: its own, else those of its external level
/// file (read from `base_dir`), else none.
fn layer_instances(
    level: &mut LdtkLevel,
    base_dir: Option<&Path>,
) -> Result<Vec<LayerInstance>, LevelError> {
    let name = &level.identifier;
    Ok(
        match (level.layer_instances.take(), &level.external_rel_path) {
            (Some(l), _) => l,
            (None, Some(rel)) => {
                let Some(base) = base_dir else {
                    return Err(err(format!(
                        "level {name:?} is in {rel:?}: external files cannot be read for an in-memory project"
                    )));
                };
                let p = base.join(rel);
                let text = read_referenced_text(&p)?;
                let l: LdtkLevel =
                    serde_json::from_str(&text).map_err(|e| err(e.to_string()).in_file(&p))?;
                l.layer_instances.unwrap_or_default()
            }
            (None, None) => Vec::new(),
        },
    )
}

/// The level's size in cells of `g` pixels (a partial cell counts), which
/// must be positive and pass [`check_size`].
fn level_size(level: &LdtkLevel, g: f64) -> Result<(usize, usize), LevelError> {
    let (w, h) = (
        (level.px_wid.max(0) as f64 / g).ceil() as usize,
        (level.px_hei.max(0) as f64 / g).ceil() as usize,
    );
    if level.px_wid <= 0 || level.px_hei <= 0 {
        return Err(err(format!(
            "level {:?} has a size of {} x {} pixels",
            level.identifier, level.px_wid, level.px_hei
        )));
    }
    check_size(w, h)?;
    Ok((w, h))
}

/// The rules' layers, objects and object layer names read so far from one
/// level's layer instances.
struct LevelLayers<'a> {
    /// The level's grid size in pixels.
    grid: i64,
    /// Layer cells (and tagged tiles) read so far, bounded by
    /// [`MAX_LAYER_CELLS`].
    budget: u64,
    /// The project's tilesets.
    sets: Tilesets,
    /// The rules, whose `tiles` may mark tiles.
    rules: &'a TileMapping,
    layers: Vec<Layer>,
    objects: Vec<Object>,
    object_layers: Vec<String>,
}

impl LevelLayers<'_> {
    /// Reads one layer instance of level `level` by its type: entities,
    /// IntGrid or tiles (other types are skipped). A layer of another grid
    /// size or offset than the level's keeps its own grid.
    fn add(
        &mut self,
        inst: &LayerInstance,
        level: &str,
        defs: &LayerDefs<'_>,
    ) -> Result<(), LevelError> {
        let (cw, chh) = (inst.c_wid, inst.c_hei);
        if cw < 0 || chh < 0 || cw as usize > MAX_SIDE || chh as usize > MAX_SIDE {
            return Err(LevelError::TooLarge {
                width: cw.max(0) as usize,
                height: chh.max(0) as usize,
            });
        }
        let gs = inst.grid_size.max(1);
        let (ox, oy) = (inst.px_offset_x as f64, inst.px_offset_y as f64);
        let own_grid = (gs != self.grid || inst.px_offset_x != 0 || inst.px_offset_y != 0)
            .then_some((gs as f64, gs as f64, ox, oy));
        match inst.ty.as_str() {
            "Entities" => {
                self.object_layers.push(inst.identifier.clone());
                for (i, e) in inst.entity_instances.iter().enumerate() {
                    self.objects
                        .push(entity_object(e, i, &inst.identifier, gs, (ox, oy)));
                }
            }
            "IntGrid" => {
                let cells = self.int_grid_cells(inst, level)?;
                let values = LayerKind::IntGrid(defs.values_of(inst));
                self.layers.push(layer(inst, values, cells, own_grid));
                // Its auto-layer tiles are its picture; where enum tags or
                // the rules mark some of them, they count by those marks.
                let cells = self.tile_cells(inst, &inst.auto_layer_tiles, gs)?;
                if cells.iter().any(|p| self.sets.marked(p, self.rules)) {
                    let mut tiles = layer(inst, LayerKind::Tiles, cells, own_grid);
                    tiles.marks_only = true;
                    self.layers.push(tiles);
                }
            }
            "Tiles" | "AutoLayer" => {
                let tiles: Vec<&TileInstance> = inst
                    .grid_tiles
                    .iter()
                    .chain(&inst.auto_layer_tiles)
                    .collect();
                let cells = self.tile_cells(inst, tiles, gs)?;
                let marked = cells.iter().any(|p| self.sets.marked(p, self.rules));
                let mut tiles = layer(inst, LayerKind::Tiles, cells, own_grid);
                tiles.decorative = !marked;
                self.layers.push(tiles);
            }
            _ => {}
        }
        Ok(())
    }

    /// The non-zero cells of an IntGrid layer (`intGridCsv`, which must
    /// hold exactly the layer's cells, or the pre-0.8 `intGrid` list).
    fn int_grid_cells(
        &mut self,
        inst: &LayerInstance,
        level: &str,
    ) -> Result<Vec<Placed>, LevelError> {
        let (cw, chh) = (inst.c_wid, inst.c_hei);
        let n = (cw as u64) * (chh as u64);
        add_within(&mut self.budget, n, MAX_LAYER_CELLS, "layer cells")?;
        let mut cells = Vec::new();
        let mut put = |idx: i64, v: i64| {
            if v > 0 && cw > 0 && idx >= 0 && idx < n as i64 {
                cells.push(Placed {
                    col: (idx % cw) as i32,
                    row: (idx / cw) as i32,
                    set: 0,
                    flip: 0,
                    id: u32::try_from(v).unwrap_or(u32::MAX),
                });
            }
        };
        if let Some(csv) = &inst.int_grid_csv {
            if csv.len() as u64 != n {
                return Err(err(format!(
                    "level {level:?}, layer {:?}: intGridCsv holds {} values, expected {n} ({cw} x {chh})",
                    inst.identifier,
                    csv.len()
                )));
            }
            for (i, v) in csv.iter().enumerate() {
                put(i as i64, *v);
            }
        } else if let Some(old) = &inst.int_grid {
            for c in old {
                put(c.coord_id, c.v.saturating_add(1));
            }
        }
        Ok(cells)
    }

    /// The cells of a layer's `tiles`, one per cell (the one drawn last, on
    /// top), row-major; `gs` is the layer's grid size.
    fn tile_cells<'t>(
        &mut self,
        inst: &LayerInstance,
        tiles: impl IntoIterator<Item = &'t TileInstance, IntoIter: ExactSizeIterator>,
        gs: i64,
    ) -> Result<Vec<Placed>, LevelError> {
        let tiles = tiles.into_iter();
        add_within(
            &mut self.budget,
            tiles.len() as u64,
            MAX_LAYER_CELLS,
            "layer cells",
        )?;
        let set = self
            .sets
            .index(inst.override_tileset_uid.or(inst.tileset_def_uid));
        let mut cells: Vec<Placed> = tiles
            .map(|t| Placed {
                col: (num(&t.px, 0) / gs as f64).floor().clamp(-1e9, 1e9) as i32,
                row: (num(&t.px, 1) / gs as f64).floor().clamp(-1e9, 1e9) as i32,
                set,
                // LDtk's x flip is Tiled's horizontal (4), its y flip vertical (2).
                flip: (if t.f & 1 != 0 { 4 } else { 0 }) | (if t.f & 2 != 0 { 2 } else { 0 }),
                id: u32::try_from(t.t).unwrap_or(u32::MAX),
            })
            .collect();
        // Keep each cell's last tile: reverse, stable sort, keep the first.
        cells.reverse();
        cells.sort_by_key(|p| (p.row, p.col));
        cells.dedup_by_key(|p| (p.row, p.col));
        Ok(cells)
    }
}

/// A layer instance's cells as a rules layer on `grid` (`None`: the
/// level's), counted by the plan.
fn layer(
    inst: &LayerInstance,
    kind: LayerKind,
    cells: Vec<Placed>,
    grid: Option<(f64, f64, f64, f64)>,
) -> Layer {
    Layer {
        name: inst.identifier.clone(),
        visible: inst.visible,
        props: Vec::new(),
        kind,
        cells,
        grid,
        decorative: false,
        marks_only: false,
    }
}

/// An entity as an object: its identifier is its class, its fields and tags
/// its properties, and its rectangle is placed by its pivot (`gs`: the
/// layer's grid size, the size of an entity that gives none; `(ox, oy)`:
/// the layer's offset in pixels).
fn entity_object(e: &Entity, i: usize, layer: &str, gs: i64, (ox, oy): (f64, f64)) -> Object {
    let (ew, eh) = (e.width.unwrap_or(gs as f64), e.height.unwrap_or(gs as f64));
    let (pvx, pvy) = if e.pivot.len() == 2 {
        (num(&e.pivot, 0), num(&e.pivot, 1))
    } else {
        (0.0, 0.0)
    };
    let mut props: Props = e
        .fields
        .iter()
        .map(|f| {
            let prop = match f.ty.as_str() {
                "Point" | "Array<Point>" => field_points(&f.value, gs, (ox, oy)),
                _ => field_prop(f),
            };
            (f.identifier.clone(), prop)
        })
        .collect();
    props.extend(e.tags.iter().map(|t| (t.clone(), Prop::Bool(true))));
    Object {
        id: u32::try_from(i).unwrap_or(u32::MAX),
        name: String::new(),
        class: e.identifier.clone(),
        layer: layer.to_owned(),
        x: ox + num(&e.px, 0) - pvx * ew,
        y: oy + num(&e.px, 1) - pvy * eh,
        rotation: 0.0,
        geom: Geom::Rect { w: ew, h: eh },
        props,
    }
}
