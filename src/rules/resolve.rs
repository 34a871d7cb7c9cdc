//! The pass that turns a map's document into a level: which layers count,
//! the marks of their cells, object areas and ledges, the spawn and goal,
//! and the load summary of what was used.
use super::doc::{Doc, Geom, Object};
use super::grid::{Grid, extent};
use super::layer_cells::push_unique;
use super::layers::readings;
use super::mapping::TileMapping;
use super::markers::{Markers, describe_markers, place_markers};
use super::marks::Engine;
use super::platforms::platforms;
use super::raster::{Budget, area_cells, line_cells};
use super::reading::{Read, choose_reading};
use super::unmodelled::unmodelled;
use crate::level::{Level, LevelError, LoadedLevel, Tile, Wrap, check_size};

/// Turns a map's content into a level by the rules and conventions.
pub(crate) fn resolve(doc: &Doc, rules: &TileMapping) -> Result<LoadedLevel, LevelError> {
    let mut e = Engine::new(doc, rules);
    // What marked the cells, spawn and goal, for the load summary.
    let mut warnings = Vec::new();
    let readings = readings(&doc.layers, rules, e.conv, &mut warnings)?;
    let tile = (doc.tile_w.max(1e-9), doc.tile_h.max(1e-9));
    let Read {
        plan,
        mut used,
        cells,
        ..
    } = choose_reading(&mut e, rules, readings, tile)?;
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
    // Moving platforms are not cells: the objects read as platforms mark
    // none.
    let found = platforms(doc, rules, origin)?;
    mark_objects(
        &e,
        &doc.objects,
        &found.taken,
        tile,
        &mut grid,
        &mut budget,
        &mut used,
    )?;

    // Spawn and goal.
    let dims = (width as i64, height as i64);
    let markers = Markers {
        tile,
        origin,
        dims,
        format: doc.format,
    };
    let spawn = markers.spawn(doc, rules, e.conv)?;
    let goals = markers.goals(doc, rules, e.conv)?;

    let tiles = grid.kinds.iter().map(|k| k.tile()).collect();
    let mut level = Level::new(width, height, tiles)?;
    // The cells of the mechanics' tiles beyond ground and hazards.
    let special: Vec<String> = [
        (Tile::LADDER, "ladder"),
        (Tile::PAD, "jump pad"),
        (Tile::SPRING, "spring"),
    ]
    .into_iter()
    .map(|(t, what)| (level.cells_of(t).count(), what))
    .filter(|&(n, _)| n > 0)
    .map(|(n, what)| format!("{n} {what} cells"))
    .collect();
    let standable = level
        .tiles()
        .iter()
        .any(|t| matches!(*t, Tile::SOLID | Tile::ONE_WAY));
    if !standable {
        return Err(nothing(doc));
    }
    level.set_wrap(wrap_of(doc, rules, &mut used)?);
    let (spawn_cell, goal_cells) = place_markers(&mut level, spawn.as_ref(), &goals);
    used.extend(special);
    if e.partial_shapes > 0 {
        used.push(format!(
            "{} tiles with partial collision shapes (under half the tile, not a top ledge): no collision",
            e.partial_shapes
        ));
    }
    used.extend(found.phrase);
    describe_markers(spawn.as_ref(), spawn_cell, &goals, &goal_cells, &mut used);
    let unmodelled = unmodelled(doc, &plan, &found.taken, origin, (width, height));
    Ok(LoadedLevel {
        level,
        spawn: spawn_cell,
        goals: goal_cells,
        rules_used: used,
        unmodelled,
        platforms: found.platforms,
    })
}

/// Which edges of the level meet: the rules file's `wrap`, else the map's
/// `wrap` property (an error naming its value when it is not a wrap),
/// else none. Notes where a wrap came from.
fn wrap_of(doc: &Doc, rules: &TileMapping, used: &mut Vec<String>) -> Result<Wrap, LevelError> {
    let (wrap, from) = match (rules.wrap, &doc.wrap) {
        (Some(w), _) => (w, "the rules file"),
        (None, Some(text)) => {
            let w = text
                .parse::<Wrap>()
                .map_err(|e| doc.error(format!("the map's wrap property: {e}")))?;
            (w, "the map's wrap property")
        }
        (None, None) => (Wrap::NONE, ""),
    };
    if wrap.any() {
        used.push(format!("wrap {wrap} ({from})"));
    }
    Ok(wrap)
}

/// Object areas and lines: each object the rules or conventions give a
/// kind marks the cells its shape covers (a polyline: the cells it passes
/// through), noting its phrase when it marks any. Objects `taken` as
/// moving platforms mark nothing.
fn mark_objects(
    e: &Engine<'_>,
    objects: &[Object],
    taken: &[bool],
    (tw, th): (f64, f64),
    grid: &mut Grid,
    budget: &mut Budget,
    used: &mut Vec<String>,
) -> Result<(), LevelError> {
    let origin = grid.origin;
    let cell_px = (tw, th, origin.0 as f64 * tw, origin.1 as f64 * th);
    let dims = (grid.width as i64, grid.height as i64);
    for (o, _) in objects.iter().zip(taken).filter(|(_, t)| !**t) {
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
                let c = line_cells(&pts, cell_px, dims, budget).map_err(|m| e.doc.error(m))?;
                c.into_iter().map(|(c, r)| (kind, c, r)).collect()
            }
            _ => {
                let poly = o.polygon().unwrap_or_default();
                let c = area_cells(&poly, cell_px, dims, budget).map_err(|m| e.doc.error(m))?;
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
