//! What the layers, tiles and objects of a map mean: the rules file
//! ([`TileMapping`]) and the conventions applied where it says nothing.

pub(crate) mod doc;
mod grid;
mod kind;
mod layers;
mod mapping;
mod markers;
mod marks;
mod raster;
mod unmodelled;
mod words;

pub use kind::TileKind;
pub use mapping::{LayerRule, PropRule, Rules, TileMapping};
pub use raster::MAX_RASTER_WORK;

use crate::level::{Cell, Level, LevelError, LoadedLevel, Tile, check_size};
use doc::{Doc, Geom, LayerKind, Placed};
use grid::{Coverage, Grid, KindCell, cover, covered_cells, extent};
use layers::{Treat, plan};
use markers::Markers;
use marks::{Engine, Mark, object_kind};
use raster::{Budget, area_cells, line_cells};
use unmodelled::unmodelled;

/// Adds `s` to `v` unless it is there already.
fn push_unique(v: &mut Vec<String>, s: String) {
    if !v.contains(&s) {
        v.push(s);
    }
}

/// Turns a map's content into a level by the rules and conventions.
pub(crate) fn resolve(doc: &Doc, rules: &TileMapping) -> Result<LoadedLevel, LevelError> {
    let mut e = Engine::new(doc, rules);
    // What marked the cells, spawn and goal, for the load summary.
    let mut used = Vec::new();
    let plan = plan(&doc.layers, rules, e.conv, &mut used)?;
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
        if let Some(d) = used
            .iter_mut()
            .find(|d| **d == format!("layer {:?}", l.name))
        {
            *d = s;
        } else {
            used.push(s);
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
            used = vec![format!(
                "the only tile layer {:?}: every tile solid",
                l.name
            )];
        }
    }
    for h in how {
        used.push(h);
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
            push_unique(&mut used, format!("{why}: {}", kind.name()));
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
        used.push(format!("{ladders} ladder cells"));
    }
    if e.partial_shapes > 0 {
        used.push(format!(
            "{} tiles with partial collision shapes (under half the tile, not a top ledge): no collision",
            e.partial_shapes
        ));
    }
    match &spawn {
        Some(m) => used.push(format!("spawn {}", m.what)),
        None if spawn_cell.is_some() => used.push("spawn tile".into()),
        None => used.push("no spawn marked".into()),
    }
    if goals.is_empty() && goal_cells.is_empty() {
        used.push("no goal marked".into());
    } else {
        let names: Vec<&str> = goals.iter().map(|g| g.what.as_str()).collect();
        used.push(format!(
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
        rules_used: used,
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
