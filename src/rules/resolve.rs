//! The pass that turns a map's document into a level: which layers count,
//! the marks of their cells, object areas and ledges, the spawn and goal,
//! and the load summary of what was used.
use super::doc::{Doc, Geom, Layer, LayerKind, Object, Placed};
use super::grid::{Coverage, Grid, KindCell, cover, covered_cells, extent};
use super::kind::TileKind;
use super::layers::{Plan, Reading, Treat, readings};
use super::mapping::TileMapping;
use super::markers::{Markers, describe_markers, place_markers};
use super::marks::{Engine, Mark, SHAPES};
use super::raster::{Budget, area_cells, line_cells};
use super::unmodelled::unmodelled;
use crate::level::{Level, LevelError, LoadedLevel, Tile, check_size};

/// Turns a map's content into a level by the rules and conventions.
pub(crate) fn resolve(doc: &Doc, rules: &TileMapping) -> Result<LoadedLevel, LevelError> {
    let mut e = Engine::new(doc, rules);
    // What marked the cells, spawn and goal, for the load summary.
    let mut warnings = Vec::new();
    let readings = readings(&doc.layers, rules, e.conv, &mut warnings)?;
    let tile = (doc.tile_w.max(1e-9), doc.tile_h.max(1e-9));
    let Read {
        plan, used, cells, ..
    } = choose_reading(&mut e, rules, readings, tile)?;
    let mut used = used;
    used.extend(warnings);
    let mut budget = Budget::new();

    let Some((origin, width, height)) = extent(doc.size, &cells) else {
        return Err(nothing(doc));
    };
    check_size(width, height)?;
    let mut grid = Grid::new(origin, width, height);
    for (k, c, r) in cells {
        grid.merge(c, r, k);
    }
    mark_objects(&e, &doc.objects, tile, &mut grid, &mut budget, &mut used)?;

    // Spawn and goal.
    let dims = (width as i64, height as i64);
    let markers = Markers { tile, origin, dims };
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
        .any(|t| matches!(*t, Tile::SOLID | Tile::ONE_WAY));
    if !standable {
        return Err(nothing(doc));
    }
    let (spawn_cell, goal_cells) = place_markers(&mut level, spawn.as_ref(), &goals);
    if ladders > 0 {
        used.push(format!("{ladders} ladder cells"));
    }
    if e.partial_shapes > 0 {
        used.push(format!(
            "{} tiles with partial collision shapes (under half the tile, not a top ledge): no collision",
            e.partial_shapes
        ));
    }
    describe_markers(spawn.as_ref(), spawn_cell, &goals, &goal_cells, &mut used);
    let unmodelled = unmodelled(doc, &plan, origin, (width, height));
    Ok(LoadedLevel {
        level,
        spawn: spawn_cell,
        goals: goal_cells,
        rules_used: used,
        unmodelled,
    })
}

/// One reading of the layers, carried out: its plan, its summary and the
/// cells it marks.
struct Read {
    plan: Plan,
    /// How the reading names itself (its first phrase, before the marks').
    label: String,
    used: Vec<String>,
    cells: Vec<KindCell>,
}

/// Marks the layers' cells as one reading says.
fn read_layers(
    e: &mut Engine<'_>,
    rules: &TileMapping,
    (plan, mut used): Reading,
    tile: (f64, f64),
) -> Result<Read, LevelError> {
    let doc = e.doc;
    let mut budget = Budget::new();
    let marked = mark_layers(e, &plan, tile, &mut budget)?;
    note_all_solid(doc, &marked.all_solid, &mut used);
    let mut cells = marked.cells;
    only_layer_convention(doc, rules, e.conv, &plan, &mut cells, &mut used);
    let label = used
        .first()
        .cloned()
        .unwrap_or_else(|| "every visible tile layer by its tiles' marks".into());
    used.extend(marked.how);
    Ok(Read {
        plan,
        label,
        used,
        cells,
    })
}

/// The reading that explains the map best: one that gives the body
/// something to stand on, and then one under whose spawn there is ground;
/// on a tie, the most telling (the first). When another reading gives
/// other cells, the summary says what the best of those would have given.
fn choose_reading(
    e: &mut Engine<'_>,
    rules: &TileMapping,
    readings: Vec<Reading>,
    tile: (f64, f64),
) -> Result<Read, LevelError> {
    let spawn = map_spawn(e.doc, rules, e.conv, tile);
    let mut reads = Vec::with_capacity(readings.len());
    for r in readings {
        reads.push(read_layers(e, rules, r, tile)?);
    }
    let scores: Vec<(bool, bool)> = reads.iter().map(|r| explains(&r.cells, spawn)).collect();
    let best = (0..reads.len())
        .rev()
        .max_by_key(|&i| scores[i])
        .unwrap_or(0);
    let runner = (0..reads.len())
        .rev()
        .filter(|&i| i != best && reads[i].cells != reads[best].cells)
        .max_by_key(|&i| scores[i]);
    let note = runner.map(|i| {
        let r = &reads[i];
        let solid = r.cells.iter().filter(|c| c.0 == TileKind::SOLID).count();
        let what = &r.label;
        let ground = if spawn.is_some() && !scores[i].1 {
            ", nothing under the spawn"
        } else {
            ""
        };
        format!("runner-up: {what} ({solid} solid cells{ground})")
    });
    let mut chosen = reads.swap_remove(best);
    chosen.used.extend(note);
    Ok(chosen)
}

/// The spawn's cell on a finite map's grid, if the map marks one.
fn map_spawn(doc: &Doc, rules: &TileMapping, conv: bool, tile: (f64, f64)) -> Option<(i64, i64)> {
    let (w, h) = doc.size?;
    let markers = Markers {
        tile,
        origin: (0, 0),
        dims: (w as i64, h as i64),
    };
    let m = markers.spawn(doc, rules, conv).ok().flatten()?;
    let c = m.cells.first()?;
    Some((i64::from(c.col), i64::from(c.row)))
}

/// Whether cells give the body something to stand on, and ground under
/// the spawn (in its column, at or below it).
fn explains(cells: &[KindCell], spawn: Option<(i64, i64)>) -> (bool, bool) {
    let ground = |k: TileKind| {
        matches!(
            k,
            TileKind::SOLID
                | TileKind::ONE_WAY
                | TileKind::SLOPE_RIGHT
                | TileKind::SLOPE_LEFT
                | TileKind::LADDER
        )
    };
    let stand = cells
        .iter()
        .any(|c| matches!(c.0, TileKind::SOLID | TileKind::ONE_WAY));
    let under = spawn.is_some_and(|(sc, sr)| {
        cells
            .iter()
            .any(|&(k, c, r)| c == sc && r >= sr && ground(k))
    });
    (stand, under)
}

/// What the counted layers' cells are.
struct LayerMarks {
    /// Every placed cell of a counted layer: (kind, col, row) in map cells.
    cells: Vec<KindCell>,
    /// The summary phrases of the marks that gave a cell a kind, first
    /// use first.
    how: Vec<String>,
    /// The layers read as every tile solid (no tile of theirs marked).
    all_solid: Vec<usize>,
}

/// Marks the cells of every counted layer as the plan says: a layer read
/// by marks whose tiles none is marked is every tile solid, and so are the
/// unmarked tiles of a collision layer whose only marks are collision
/// shapes ([`shapes_leave_solid`]); a layer of another grid marks the map
/// cells its cells cover at least half.
fn mark_layers(
    e: &mut Engine<'_>,
    plan: &[Option<Treat>],
    tile: (f64, f64),
    budget: &mut Budget,
) -> Result<LayerMarks, LevelError> {
    let doc = e.doc;
    let mut out = LayerMarks {
        cells: Vec::new(),
        how: Vec::new(),
        all_solid: Vec::new(),
    };
    let marked = placed_marks(e, plan)?;
    let shaped = shapes_leave_solid(&marked, plan);
    let mut coverage = Coverage::new();
    for (li, layer_cells) in marked.into_iter().enumerate() {
        let Some(layer_cells) = layer_cells else {
            continue;
        };
        let layer = &doc.layers[li];
        let none_marked = layer_cells.iter().all(|(m, _)| m.is_none());
        let solid_all = plan[li] == Some(Treat::MarksOrSolid) && none_marked;
        if solid_all && !layer_cells.is_empty() {
            out.all_solid.push(li);
        }
        if shaped == Some(li) {
            let n = layer_cells.iter().filter(|(m, _)| m.is_none()).count();
            out.how.push(format!(
                "layer {:?}: tiles with collision shapes by their shapes, the {n} without \
                 solid (runner-up, shapes alone, leaves the layer's other tiles empty)",
                layer.name
            ));
        }
        for (mark, p) in layer_cells {
            let kind = match mark {
                None if solid_all || shaped == Some(li) => TileKind::SOLID,
                mark => kind_of_mark(mark, &mut out.how),
            };
            match layer.grid {
                None => out.cells.push((kind, i64::from(p.col), i64::from(p.row))),
                Some(g) => {
                    cover(&mut coverage, g, tile, p, kind, budget).map_err(LevelError::Tiled)?
                }
            }
        }
        covered_cells(&mut coverage, &mut out.cells);
    }
    Ok(out)
}

/// The mark of every placed cell of each counted layer (`None`: the layer
/// does not count).
type PlacedMarks<'d> = Vec<Option<Vec<(Mark, &'d Placed)>>>;

/// Marks every placed cell of the counted layers.
fn placed_marks<'d>(
    e: &mut Engine<'d>,
    plan: &[Option<Treat>],
) -> Result<PlacedMarks<'d>, LevelError> {
    let doc = e.doc;
    let mut out = Vec::with_capacity(plan.len());
    for (layer, treat) in doc.layers.iter().zip(plan) {
        let Some(treat) = *treat else {
            out.push(None);
            continue;
        };
        let mut cells = Vec::with_capacity(layer.cells.len());
        for p in &layer.cells {
            let mark = match (&layer.kind, treat) {
                (_, Treat::Kind(k)) => Some((k, String::new())),
                (LayerKind::Tiles, _) => e.tile_mark(p)?,
                (LayerKind::IntGrid(values), t) => {
                    e.value_mark(values, p.id, t == Treat::MarksOrSolid)
                }
            };
            cells.push((mark, p));
        }
        out.push(Some(cells));
    }
    Ok(out)
}

/// The collision layer whose tiles are marked by collision shapes alone,
/// some of them: its other tiles are solid, not empty (games give shapes
/// to the odd slope or ledge and leave plain blocks plain). It is the one
/// layer with shaped tiles, when no tile anywhere is marked otherwise, or
/// it is named like collision.
fn shapes_leave_solid(marked: &PlacedMarks<'_>, plan: &[Option<Treat>]) -> Option<usize> {
    let by_shapes = |m: &Mark| m.as_ref().is_some_and(|m| m.1 == SHAPES);
    let other = |m: &Mark| m.as_ref().is_some_and(|m| m.1 != SHAPES && !m.1.is_empty());
    let cells = || marked.iter().flatten().flatten();
    if cells().any(|(m, _)| other(m)) {
        return None;
    }
    let shaped: Vec<usize> = (0..marked.len())
        .filter(|&i| marked[i].iter().flatten().any(|(m, _)| by_shapes(m)))
        .collect();
    let unmarked = |i: usize| marked[i].iter().flatten().any(|(m, _)| m.is_none());
    match shaped[..] {
        [only] if unmarked(only) => Some(only),
        _ => shaped
            .into_iter()
            .find(|&i| plan[i] == Some(Treat::MarksOrSolid) && unmarked(i)),
    }
}

/// The kind a mark gives a cell (no mark: empty), noting in `how` the
/// phrase of a mark that gave a kind.
fn kind_of_mark(mark: Mark, how: &mut Vec<String>) -> TileKind {
    match mark {
        Some((k, h)) => {
            if k != TileKind::EMPTY && !h.is_empty() {
                push_unique(how, h);
            }
            k
        }
        None => TileKind::EMPTY,
    }
}

/// Says in the summary that the layers of `all_solid` were read as every
/// tile solid (replacing their plain "layer NAME" line, if any).
fn note_all_solid(doc: &Doc, all_solid: &[usize], used: &mut Vec<String>) {
    for &li in all_solid {
        let l = &doc.layers[li];
        let plain = format!("layer {:?}", l.name);
        let why = format!("{plain} (");
        if let Some(d) = used
            .iter_mut()
            .find(|d| **d == plain || d.starts_with(&why))
        {
            *d = format!("{d}: every tile solid");
        } else {
            used.push(format!("{plain}: every tile solid"));
        }
    }
}

/// The only-layer convention: when nothing is marked and the rules name no
/// layer, a map with one visible tile layer (which the plan counts) has
/// every tile of it solid, and the summary says only that.
fn only_layer_convention(
    doc: &Doc,
    rules: &TileMapping,
    conv: bool,
    plan: &[Option<Treat>],
    cells: &mut Vec<KindCell>,
    used: &mut Vec<String>,
) {
    let marked_any = cells.iter().any(|c| c.0 != TileKind::EMPTY);
    if marked_any || !conv || !rules.layers.is_empty() || rules.layer.is_some() {
        return;
    }
    let visible: Vec<usize> = (0..doc.layers.len())
        .filter(|&i| {
            let l = &doc.layers[i];
            l.visible && !l.decorative && !l.marks_only && !l.cells.is_empty()
        })
        .collect();
    if let [only] = visible[..]
        && plan[only].is_some()
    {
        let l = &doc.layers[only];
        if let Some((solid, reading)) = frame_reading(doc, l) {
            *cells = solid;
            *used = vec![reading];
            return;
        }
        *cells = l
            .cells
            .iter()
            .map(|p| (TileKind::SOLID, i64::from(p.col), i64::from(p.row)))
            .collect();
        *used = vec![format!(
            "the only tile layer {:?}: every tile solid",
            l.name
        )];
    }
}

/// The reading of an only layer that fills every cell of the map, where
/// "every tile solid" would leave no room: the tiles its edges are made of
/// are the walls, the others (met only inside) background. `None` when the
/// layer leaves cells empty, or its edges use every tile it has.
fn frame_reading(doc: &Doc, l: &Layer) -> Option<(Vec<KindCell>, String)> {
    let (w, h) = doc.size?;
    if l.grid.is_some() || w < 3 || h < 3 || l.cells.len() != w * h {
        return None;
    }
    let (w, h) = (w as i32, h as i32);
    let edge = |p: &Placed| p.col == 0 || p.row == 0 || p.col == w - 1 || p.row == h - 1;
    let mut walls: Vec<(u16, u32)> = l
        .cells
        .iter()
        .filter(|p| edge(p))
        .map(|p| (p.set, p.id))
        .collect();
    walls.sort_unstable();
    walls.dedup();
    let mut others: Vec<(u16, u32)> = l
        .cells
        .iter()
        .map(|p| (p.set, p.id))
        .filter(|t| walls.binary_search(t).is_err())
        .collect();
    others.sort_unstable();
    others.dedup();
    if others.is_empty() {
        return None;
    }
    let solid = l
        .cells
        .iter()
        .filter(|p| walls.binary_search(&(p.set, p.id)).is_ok())
        .map(|p| (TileKind::SOLID, i64::from(p.col), i64::from(p.row)))
        .collect();
    let ids = |v: &[(u16, u32)]| {
        let names: Vec<String> = v.iter().take(8).map(|t| tile_name(doc, *t)).collect();
        names.join(", ") + if v.len() > 8 { ", ..." } else { "" }
    };
    let reading = format!(
        "the only tile layer {:?} fills the map: its edges' tiles ({}) solid, the others ({}) \
         background (runner-up, every tile solid, leaves no room to stand)",
        l.name,
        ids(&walls),
        ids(&others)
    );
    Some((solid, reading))
}

/// How the summary names a tile: its tileset and id.
fn tile_name(doc: &Doc, (set, id): (u16, u32)) -> String {
    match doc.tilesets.get(usize::from(set)) {
        Some(ts) if !ts.name.is_empty() => format!("{:?} {id}", ts.name),
        _ => format!("{id}"),
    }
}

/// Object areas and lines: each object the rules or conventions give a
/// kind marks the cells its shape covers (a polyline: the cells it passes
/// through), noting its phrase when it marks any.
fn mark_objects(
    e: &Engine<'_>,
    objects: &[Object],
    (tw, th): (f64, f64),
    grid: &mut Grid,
    budget: &mut Budget,
    used: &mut Vec<String>,
) -> Result<(), LevelError> {
    let origin = grid.origin;
    let cell_px = (tw, th, origin.0 as f64 * tw, origin.1 as f64 * th);
    let dims = (grid.width as i64, grid.height as i64);
    for o in objects {
        let Some((kind, why)) = e.object_kind(o) else {
            continue;
        };
        let mut any = false;
        let marked = match &o.geom {
            Geom::Point => Vec::new(),
            // A line is solid where it runs (a wall or a floor), one-way
            // only when the object itself says so.
            Geom::Polyline(p) => {
                let pts = o.place(p);
                let c = line_cells(&pts, cell_px, dims, budget).map_err(LevelError::Tiled)?;
                c.into_iter().map(|(c, r)| (kind, c, r)).collect()
            }
            _ => {
                let poly = o.polygon().unwrap_or_default();
                let c = area_cells(&poly, cell_px, dims, budget).map_err(LevelError::Tiled)?;
                c.into_iter().map(|(c, r)| (kind, c, r)).collect()
            }
        };
        for (k, c, r) in marked {
            any = true;
            grid.merge(c + origin.0, r + origin.1, k);
        }
        if any {
            push_unique(used, format!("{why}: {}", kind.name()));
        }
    }
    Ok(())
}

/// Adds `s` to `v` unless it is there already.
fn push_unique(v: &mut Vec<String>, s: String) {
    if !v.contains(&s) {
        v.push(s);
    }
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
