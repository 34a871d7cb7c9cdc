//! The cells a plan marks: every placed tile or IntGrid value of the
//! counted layers, by its mark, laid on the map's grid; with the collision
//! layer whose only marks are shapes, whose plain tiles are solid.
use super::doc::{LayerKind, Placed};
use super::grid::{Coverage, KindCell, cover, covered_cells};
use super::kind::TileKind;
use super::layers::Treat;
use super::marks::{Engine, Mark, SHAPES};
use super::raster::Budget;
use crate::level::LevelError;

/// What the counted layers' cells are.
pub(super) struct LayerMarks {
    /// Every placed cell of a counted layer: (kind, col, row) in map cells.
    pub(super) cells: Vec<KindCell>,
    /// The summary phrases of the marks that gave a cell a kind, first
    /// use first.
    pub(super) how: Vec<String>,
    /// The layers read as every tile solid (no tile of theirs marked).
    pub(super) all_solid: Vec<usize>,
}

/// Marks the cells of every counted layer as the plan says: a layer read
/// by marks whose tiles none is marked is every tile solid, and so are the
/// unmarked tiles of a collision layer whose only marks are collision
/// shapes ([`shapes_leave_solid`]); a layer of another grid marks the map
/// cells its cells cover at least half.
pub(super) fn mark_layers(
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
                    cover(&mut coverage, g, tile, p, kind, budget).map_err(|m| doc.error(m))?
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

/// Adds `s` to `v` unless it is there already.
pub(super) fn push_unique(v: &mut Vec<String>, s: String) {
    if !v.contains(&s) {
        v.push(s);
    }
}
