//! Live edits: a changed tile rebuilds only the nodes whose links read it.
//!
//! A node's links are a deterministic function of the tiles and standable
//! cells their generation looked up (plus the level's size, and whether it
//! has hazards); the build records those lookups per node (which cells,
//! within a window around the node; their bounding box beyond it). An
//! edit therefore:
//!
//! 1. sets the tiles, and reclassifies the level;
//! 2. collects the *changed cells*: the edited tiles, and every cell whose
//!    standability changed;
//! 3. regenerates the links of every node that read a changed cell, and of
//!    every new node (recording their reads afresh); every other node keeps
//!    its links, tapes and reads, which a fresh build would give it bit
//!    for bit;
//! 4. splices the window of node ids holding every rebuilt, added or
//!    removed node into the link arrays and the search's reduced graph in
//!    place (the nodes before the window keep their ids, those after it
//!    move by the change in count, and the links after it are renumbered
//!    as they move), and bumps [`NavMap::generation`].
//!
//! The search's landmark bounds are repaired, not measured again
//! (measuring takes a few Dijkstra runs over the whole map, tens of
//! milliseconds at 256 x 256 and seconds at 1024 x 1024): the links of the
//! rebuilt nodes are the only new ones, and the landmark table only needs
//! to stay a set of potentials along every link (`crate::landmarks`).
//! Distances from a landmark are lowered where a new link breaks that, and
//! the decrease passed on along links; distances to a landmark the same
//! way backwards, through an index of incoming links built for the edit
//! (on maps of up to [`REVERSE_LINKS`] links; beyond, only at new nodes).
//! A half that cannot be repaired that way, or within a budget, is
//! dropped. Exact search stays exact; [`NavMap::landmark_bounds`] counts
//! the halves still live, and [`NavMap::refresh_bounds`] measures the table
//! again, when a frame has time to spare, or on a clone in the background
//! that then replaces the map.
//!
//! An edit that adds the level's first hazard, ladder or slope, or removes
//! its last one, changes what every body step checks, and rebuilds the
//! whole map; so does
//! the first edit of a map loaded from a file, whose reads were not
//! recorded.

mod affected;
mod gather;
mod relink;
mod tails;
mod tapes;
#[cfg(test)]
mod tests;
mod window;

use super::NavMap;
use crate::classify::Classification;
use crate::level::{Cell, Level, Tile};
use crate::mechanics::Active;

/// Relaxations an edit's repair of one landmark bound may take at least
/// (a 64th of the nodes on larger maps) before it drops the bound. Most
/// repairs take a few; one in a few edits lowers a region of hundreds to
/// a few thousand nodes. The 64 bounds together take at most about one
/// Dijkstra run, where measuring them again takes 64.
const BOUND_BUDGET: usize = 1024;

/// The most links a map may have for an edit to index them backwards when
/// it repairs distances to the landmarks (about 8 MB, a millisecond; on
/// larger maps a bound it would need that for is dropped instead).
const REVERSE_LINKS: usize = 1 << 20;

/// What an edit did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct EditReport {
    /// Tiles whose value changed (an edit setting a tile to what it holds
    /// changes nothing).
    pub tiles_changed: usize,
    /// Cells that became standable or stopped being standable.
    pub standability_changed: usize,
    /// Nodes whose links were generated again.
    pub nodes_rebuilt: usize,
    /// Whether the whole map was rebuilt (see the module documentation).
    pub full_rebuild: bool,
    /// The map's generation after the edit.
    pub generation: u64,
}

impl EditReport {
    /// The report of an edit that changed no tile.
    pub(crate) fn unchanged(generation: u64) -> Self {
        Self {
            tiles_changed: 0,
            standability_changed: 0,
            nodes_rebuilt: 0,
            full_rebuild: false,
            generation,
        }
    }
}

/// Why an edit was refused (the map is then unchanged).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EditError {
    /// A cell outside the level.
    #[error("cell {cell} is outside the {width} x {height} level")]
    OffMap {
        /// The cell.
        cell: Cell,
        /// The level's width.
        width: usize,
        /// The level's height.
        height: usize,
    },
    /// A rebuild of the whole map failed.
    #[error(transparent)]
    Build(#[from] crate::graph::BuildError),
}

impl EditError {
    /// [`EditError::OffMap`] for the first of `changes` outside `level`.
    pub(crate) fn off_map(level: &Level, changes: &[(Cell, Tile)]) -> Result<(), Self> {
        match changes.iter().find(|(c, _)| !level.contains(*c)) {
            Some(&(cell, _)) => Err(EditError::OffMap {
                cell,
                width: level.width(),
                height: level.height(),
            }),
            None => Ok(()),
        }
    }
}

impl NavMap {
    /// How many edits have changed this map: 0 when built or loaded, one
    /// more after each [`NavMap::edit`] that changed a tile. A path found
    /// at an older generation may use links that no longer exist.
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Whether an edit dropped some of the search's landmark bounds (see
    /// the module documentation); queries are exact either way.
    #[must_use]
    pub fn bounds_stale(&self) -> bool {
        self.landmarks.stale()
    }

    /// How many of the search's landmark bounds still bound routes after
    /// edits: `(live, measured)`, two per landmark (routes from it and to
    /// it). Equal on a fresh build; [`NavMap::refresh_bounds`] makes them
    /// equal again.
    #[must_use]
    pub fn landmark_bounds(&self) -> (usize, usize) {
        self.landmarks.halves()
    }

    /// Measures the search's landmark bounds again after edits, so that
    /// exact queries are as fast as on a fresh build. Does nothing when
    /// they are current.
    pub fn refresh_bounds(&mut self) {
        if self.landmarks.stale() {
            self.landmarks =
                crate::graph::landmarks::Landmarks::compute(&self.offsets, &self.edges);
        }
    }

    /// Sets one tile and updates the map (see [`NavMap::edit`]).
    ///
    /// # Errors
    /// [`EditError::OffMap`] for a cell outside the level.
    pub fn set_tile(&mut self, cell: Cell, tile: Tile) -> Result<EditReport, EditError> {
        self.edit(&[(cell, tile)])
    }

    /// Sets tiles (one, or a brush of many; a later entry for the same
    /// cell wins) and updates the map in place: only the nodes whose links
    /// read a changed cell are generated again, and the result equals a
    /// fresh build of the edited level, link for link and tape for tape.
    ///
    /// ```
    /// use platnav::{Cell, Level, NavMap, Physics, Tile};
    /// let rows = [".".repeat(40), ".".repeat(40), format!(".S{}G.", ".".repeat(36)), "#".repeat(40)];
    /// let level: Level = rows.join("\n").parse()?;
    /// let mut map = NavMap::build(&level, &Physics::default())?;
    /// // A wall goes up between spawn and goal.
    /// let report = map.edit(&[(Cell::new(20, 2), Tile::SOLID), (Cell::new(20, 1), Tile::SOLID)])?;
    /// assert_eq!(map.generation(), 1);
    /// assert_eq!(report.tiles_changed, 2);
    /// assert_eq!(map.level().get(Cell::new(20, 2)), Some(Tile::SOLID));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`EditError::OffMap`] for a cell outside the level; nothing is
    /// changed then. [`EditError::Build`] cannot happen for a map built or
    /// loaded here (its physics were validated).
    pub fn edit(&mut self, changes: &[(Cell, Tile)]) -> Result<EditReport, EditError> {
        EditError::off_map(&self.level, changes)?;
        // The level and its classification are edited in place (cloning
        // them took half a millisecond at 1024 x 1024), and put back if
        // the edit fails.
        let before: Vec<(Cell, Option<Tile>)> = changes
            .iter()
            .map(|&(c, _)| (c, self.level.get(c)))
            .collect();
        // What every step of the body checks first (PHYSICS.md: hazards,
        // ladders and slopes are looked for only on levels that have them).
        let rules = |l: &crate::level::Level| (l.holds(Tile::HAZARD), Active::of(l));
        let had_rules = rules(&self.level);
        for &(cell, tile) in changes {
            self.level.set(cell, tile);
        }
        let mut changed: Vec<Cell> = before
            .iter()
            .filter(|&&(c, t)| self.level.get(c) != t)
            .map(|&(c, _)| c)
            .collect();
        changed.sort_unstable();
        changed.dedup();
        let tiles_changed = changed.len();
        if tiles_changed == 0 {
            return Ok(EditReport::unchanged(self.generation));
        }
        let (lo, hi) = bounds(&changed);
        let mut classes = std::mem::replace(&mut self.classes, Classification::empty());
        let standability_changed = classes.update(&self.level, &self.physics, lo, hi);
        let standability_count = standability_changed.len();
        // In the nodes' (row-major) order.
        let flips = standability_changed;
        changed.extend_from_slice(&flips);
        let generation = self.generation + 1;
        let full = had_rules != rules(&self.level) || self.reads.any_unknown();
        let nodes_rebuilt = if full {
            self.rebuild_whole(&before, classes, (lo, hi), generation)?
        } else {
            self.relink(classes, &changed, &flips, generation)
        };
        Ok(EditReport {
            tiles_changed,
            standability_changed: standability_count,
            nodes_rebuilt,
            full_rebuild: full,
            generation,
        })
    }

    /// Rebuilds the whole edited map, as generation `generation`, and
    /// returns its node count. When the build fails, puts back the tiles
    /// `before` the edit and the classification (`classes`, updated again
    /// over `lo`-`hi`), and the map is as it was.
    fn rebuild_whole(
        &mut self,
        before: &[(Cell, Option<Tile>)],
        mut classes: Classification,
        (lo, hi): (Cell, Cell),
        generation: u64,
    ) -> Result<usize, EditError> {
        let built = NavMap::build_cached(&self.level, &self.physics, &self.options, &self.cache);
        let mut map = match built {
            Ok(map) => map,
            Err(e) => {
                for &(c, t) in before.iter().rev() {
                    if let Some(t) = t {
                        self.level.set(c, t);
                    }
                }
                classes.update(&self.level, &self.physics, lo, hi);
                self.classes = classes;
                return Err(e.into());
            }
        };
        map.generation = generation;
        let nodes_rebuilt = map.node_count();
        *self = map;
        Ok(nodes_rebuilt)
    }
}

/// A cell's place in the nodes' order: row by row, top row first.
fn row_major(c: Cell) -> (i32, i32) {
    (c.row, c.col)
}

/// The corners of the smallest rectangle holding `cells` (not empty).
pub(super) fn bounds(cells: &[Cell]) -> (Cell, Cell) {
    let mut lo = cells[0];
    let mut hi = cells[0];
    for c in cells {
        lo = Cell::new(lo.col.min(c.col), lo.row.min(c.row));
        hi = Cell::new(hi.col.max(c.col), hi.row.max(c.row));
    }
    (lo, hi)
}
