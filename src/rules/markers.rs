//! The spawn and the goal: the objects that mark them, by the rules'
//! `spawn` and `goal` lists or by the conventions' names, and their cells.
use super::doc::{Doc, Geom, Object, Prop, format_error};
use super::mapping::TileMapping;
use super::words::{goal_score, spawn_score};
use crate::level::{Cell, Level, LevelError, Tile};

/// A spawn or goal object found, with the cell(s) it marks.
pub(super) struct Marker {
    /// How the summary names it: the object and its cell.
    pub(super) what: String,
    pub(super) cells: Vec<Cell>,
}

/// Whether an object's name, class or a yes property is in `list` (the
/// rules' `spawn` or `goal`).
fn matches_list(o: &Object, list: &[String]) -> bool {
    list.iter().any(|s| {
        (!o.name.is_empty() && *s == o.name)
            || (!o.class.is_empty() && *s == o.class)
            || o.props.iter().any(|(k, v)| k == s && v.truthy())
    })
}

/// How the summary names an object: its name and class, else its id.
fn label(o: &Object) -> String {
    match (o.name.is_empty(), o.class.is_empty()) {
        (false, false) => format!("{:?} ({})", o.name, o.class),
        (false, true) => format!("{:?}", o.name),
        (true, false) => format!("a {:?}", o.class),
        (true, true) => format!("object {}", o.id),
    }
}

/// Finds the spawn and goal objects and the level cells they mark.
pub(super) struct Markers {
    /// The map's tile size in pixels.
    pub(super) tile: (f64, f64),
    /// The level's first cell in map cells.
    pub(super) origin: (i64, i64),
    /// The level's width and height.
    pub(super) dims: (i64, i64),
    /// The map's format ([`Doc::format`]), for its errors.
    pub(super) format: &'static str,
}

impl Markers {
    /// The level cell holding pixel `(x, y)` (possibly off the level).
    fn cell_of(&self, x: f64, y: f64) -> (i64, i64) {
        // `as` saturates and NaN gives 0: no overflow on hostile floats.
        (
            ((x / self.tile.0).floor() as i64).saturating_sub(self.origin.0),
            ((y / self.tile.1).floor() as i64).saturating_sub(self.origin.1),
        )
    }

    /// Whether a cell lies on the level.
    fn on_map(&self, (c, r): (i64, i64)) -> bool {
        c >= 0 && r >= 0 && c < self.dims.0 && r < self.dims.1
    }

    /// A reading error, in the variant of the map's format.
    fn error(&self, msg: String) -> LevelError {
        format_error(self.format, msg)
    }

    /// An object's bounding box in pixels, which must be finite.
    fn bounds(&self, o: &Object) -> Result<(f64, f64, f64, f64), LevelError> {
        let b = o.bounds();
        if [b.0, b.1, b.2, b.3].iter().all(|v| v.is_finite()) {
            Ok(b)
        } else {
            Err(self.error(format!(
                "object {} ({:?}) has a non-finite position or size",
                o.id, o.name
            )))
        }
    }

    /// The error of a marker object that lies off the map.
    fn off(&self, o: &Object) -> LevelError {
        self.error(format!(
            "object {} ({:?}) at pixel {},{} lies off the map",
            o.id, o.name, o.x, o.y
        ))
    }

    /// The spawn cell of an object: the cell holding a point, or the middle
    /// of a shape's bottom edge (where a body stands).
    fn spawn_cell(&self, o: &Object) -> Result<Cell, LevelError> {
        let (x0, y0, x1, y1) = self.bounds(o)?;
        let at = if matches!(o.geom, Geom::Point) || x1 <= x0 || y1 <= y0 {
            self.cell_of(x0, y0)
        } else {
            let h = y1 - y0;
            self.cell_of((x0 + x1) / 2.0, y1 - h.min(self.tile.1) / 2.0)
        };
        if !self.on_map(at) {
            return Err(self.off(o));
        }
        Ok(Cell::new(at.0 as i32, at.1 as i32))
    }

    /// Every cell a goal object overlaps (a point: its cell).
    fn goal_cells(&self, o: &Object) -> Result<Vec<Cell>, LevelError> {
        let (x0, y0, x1, y1) = self.bounds(o)?;
        let mut out = Vec::new();
        if matches!(o.geom, Geom::Point) || x1 <= x0 || y1 <= y0 {
            let at = self.cell_of(x0, y0);
            if self.on_map(at) {
                out.push(Cell::new(at.0 as i32, at.1 as i32));
            }
        } else {
            let (c0, r0) = self.cell_of(x0, y0);
            // The last cell the shape overlaps (its far edge is open).
            let (w, h) = (x1 - x0, y1 - y0);
            let (c1, r1) = self.cell_of(
                x1 - w.min(self.tile.0) * 1e-6,
                y1 - h.min(self.tile.1) * 1e-6,
            );
            let (c0, r0) = (c0.max(0), r0.max(0));
            let (c1, r1) = (c1.min(self.dims.0 - 1), r1.min(self.dims.1 - 1));
            for r in r0..=r1 {
                for c in c0..=c1 {
                    out.push(Cell::new(c as i32, r as i32));
                }
            }
        }
        if out.is_empty() {
            return Err(self.off(o));
        }
        Ok(out)
    }

    /// The spawn object: the one the rules' `spawn` names (two are an
    /// error), else by the conventions the best-named one.
    pub(super) fn spawn(
        &self,
        doc: &Doc,
        rules: &TileMapping,
        conv: bool,
    ) -> Result<Option<Marker>, LevelError> {
        if !rules.spawn.is_empty() {
            let mut found: Option<(Cell, &Object)> = None;
            for o in doc.objects.iter().filter(|o| matches_list(o, &rules.spawn)) {
                let cell = self.spawn_cell(o)?;
                if let Some((first, f)) = found {
                    return Err(self.error(format!(
                        "two spawn objects: {} at cell {first} and {} at cell {cell}",
                        f.id, o.id
                    )));
                }
                found = Some((cell, o));
            }
            return Ok(found.map(|(c, o)| Marker {
                what: format!("{} at {c}", label(o)),
                cells: vec![c],
            }));
        }
        if !conv {
            return Ok(None);
        }
        let score = |o: &Object| spawn_score(&o.name, false).max(spawn_score(&o.class, true));
        let Some(top) = doc.objects.iter().map(score).max().filter(|s| *s > 0) else {
            return Ok(None);
        };
        let all: Vec<&Object> = doc.objects.iter().filter(|o| score(o) == top).collect();
        let o = all[0];
        let c = self.spawn_cell(o)?;
        let note = if all.len() > 1 {
            format!(" (first of {})", all.len())
        } else {
            String::new()
        };
        Ok(Some(Marker {
            what: format!("{} at {c}{note}", label(o)),
            cells: vec![c],
        }))
    }

    /// The goal objects: those the rules' `goal` names, else by the
    /// conventions the best-named ones.
    pub(super) fn goals(
        &self,
        doc: &Doc,
        rules: &TileMapping,
        conv: bool,
    ) -> Result<Vec<Marker>, LevelError> {
        let chosen: Vec<&Object> = if !rules.goal.is_empty() {
            doc.objects
                .iter()
                .filter(|o| matches_list(o, &rules.goal))
                .collect()
        } else if conv {
            let score = |o: &Object| {
                // A string property may say it too (`tag = "next_level"`).
                let by_props = o.props.iter().filter_map(|(_, v)| match v {
                    Prop::Str(s) => Some(goal_score(s)),
                    _ => None,
                });
                goal_score(&o.name)
                    .max(goal_score(&o.class))
                    .max(by_props.max().unwrap_or(0))
            };
            match doc.objects.iter().map(score).max().filter(|s| *s > 0) {
                Some(top) => doc.objects.iter().filter(|o| score(o) == top).collect(),
                None => Vec::new(),
            }
        } else {
            Vec::new()
        };
        chosen
            .into_iter()
            .map(|o| {
                Ok(Marker {
                    what: label(o),
                    cells: self.goal_cells(o)?,
                })
            })
            .collect()
    }
}

/// Places the goal and the spawn on the level and returns the spawn cell
/// and the goal cells (row-major). The goal cells are the goal objects'
/// and the level's goal tiles; the spawn cell is the spawn object's, else
/// the level's first spawn tile.
pub(super) fn place_markers(
    level: &mut Level,
    spawn: Option<&Marker>,
    goals: &[Marker],
) -> (Option<Cell>, Vec<Cell>) {
    let mut goal_cells: Vec<Cell> = goals.iter().flat_map(|g| g.cells.clone()).collect();
    goal_cells.extend(level.cells_of(Tile::GOAL));
    goal_cells.sort_unstable();
    goal_cells.dedup();
    // Markers never replace a tile the body stands on or climbs.
    let keeps = |t: Tile| t.is_solid() || t.is_slope() || t == Tile::LADDER;
    for &g in &goal_cells {
        if !level.get(g).is_some_and(keeps) {
            level.set(g, Tile::GOAL);
        }
    }
    let spawn_cell = match spawn {
        Some(m) => m.cells.first().copied(),
        None => level.cells_of(Tile::SPAWN).next(),
    };
    if let Some(s) = spawn_cell
        && !level.get(s).is_some_and(keeps)
    {
        level.set(s, Tile::SPAWN);
    }
    (spawn_cell, goal_cells)
}

/// The load summary's spawn line and goal line, pushed to `used`.
pub(super) fn describe_markers(
    spawn: Option<&Marker>,
    spawn_cell: Option<Cell>,
    goals: &[Marker],
    goal_cells: &[Cell],
    used: &mut Vec<String>,
) {
    match spawn {
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
}
