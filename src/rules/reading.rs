//! Reading a map's layers: each reading (a plan of which layers count and
//! how) carried out into cells, with the conventions that apply after the
//! marks (a layer read as every tile solid, the only layer, a room's
//! walls), and the choice of the reading that explains the map best.
use super::doc::{Doc, Layer, Placed};
use super::grid::KindCell;
use super::kind::TileKind;
use super::layer_cells::mark_layers;
use super::layers::{Plan, Reading, Treat};
use super::mapping::TileMapping;
use super::markers::Markers;
use super::marks::Engine;
use super::raster::Budget;
use crate::level::LevelError;

/// One reading of the layers, carried out: its plan, its summary and the
/// cells it marks.
pub(super) struct Read {
    pub(super) plan: Plan,
    /// How the reading names itself (its first phrase, before the marks').
    label: String,
    pub(super) used: Vec<String>,
    pub(super) cells: Vec<KindCell>,
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
pub(super) fn choose_reading(
    e: &mut Engine<'_>,
    rules: &TileMapping,
    mut readings: Vec<Reading>,
    tile: (f64, f64),
) -> Result<Read, LevelError> {
    // One reading (the rules say which layers count): nothing to choose.
    if readings.len() == 1
        && let Some(only) = readings.pop()
    {
        return read_layers(e, rules, only, tile);
    }
    let spawn = map_spawn(e.doc, rules, e.conv, tile);
    let mut reads = Vec::with_capacity(readings.len());
    for (i, r) in readings.into_iter().enumerate() {
        // The most telling reading's errors are the map's; a later one
        // that cannot be carried out is no candidate.
        match read_layers(e, rules, r, tile) {
            Ok(read) => reads.push(read),
            Err(err) if i == 0 => return Err(err),
            Err(_) => {}
        }
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
        format: doc.format,
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
