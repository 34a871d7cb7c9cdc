//! Tile edits of a lazy map: the level and its classification updated in
//! place, and the built nodes whose links read an edited cell dropped, to
//! be built again when a search needs them.

use std::sync::Arc;

use super::store::Store;
use super::{LazyMap, Shared};
use crate::classify::Classification;
use crate::graph::edit::bounds;
use crate::graph::{EditError, EditReport, node_table};
use crate::level::{Cell, Tile};
use crate::mechanics::Active;

impl LazyMap {
    /// Sets tiles, as [`NavMap::edit`](crate::NavMap::edit) does, and drops
    /// the links of every built node that read an edited cell or a cell
    /// whose standability changed: they are generated again, on the edited
    /// level, when a search needs them. Paths then cost what a full build
    /// of the edited level gives. An edit that changes which mechanics the
    /// level holds (its first hazard, ladder or slope, say) drops every
    /// node.
    ///
    /// An edit stops the background build and drops what it had not yet
    /// handed over; [`LazyMap::build_in_background`] starts it again.
    /// The report's `nodes_rebuilt` counts the built nodes dropped.
    ///
    /// # Errors
    /// [`EditError::OffMap`] for a cell outside the level; nothing is
    /// changed then.
    pub fn edit(&mut self, changes: &[(Cell, Tile)]) -> Result<EditReport, EditError> {
        let (width, height) = (self.level().width(), self.level().height());
        if let Some(&(cell, _)) = changes.iter().find(|(c, _)| !self.level().contains(*c)) {
            return Err(EditError::OffMap {
                cell,
                width,
                height,
            });
        }
        self.background = None;
        let shared = Arc::make_mut(&mut self.shared);
        let rules = |l: &crate::level::Level| (l.holds(Tile::HAZARD), Active::of(l));
        let had_rules = rules(&shared.level);
        let mut changed: Vec<Cell> = changes
            .iter()
            .filter(|&&(c, t)| shared.level.get(c) != Some(t))
            .map(|&(c, _)| c)
            .collect();
        for &(cell, tile) in changes {
            shared.level.set(cell, tile);
        }
        changed.sort_unstable();
        changed.dedup();
        if changed.is_empty() {
            return Ok(EditReport::unchanged(self.generation));
        }
        // The saved map, if the map was opened on one, is another level's.
        if let Some(source) = &shared.source {
            source.close();
        }
        self.bounds = None;
        let (lo, hi) = bounds(&changed);
        let flips = shared
            .classes
            .update(&shared.level, &shared.physics, lo, hi);
        changed.extend_from_slice(&flips);
        self.generation += 1;
        let whole = had_rules != rules(&shared.level);
        let dropped = if whole {
            let dropped = self.store.built();
            renumber(shared);
            self.store = Store::new(shared.nodes.len());
            dropped
        } else {
            let touched = self
                .store
                .touched(bounds(&changed), &changed, &shared.level);
            for &v in &touched {
                self.store.forget(v);
            }
            if !flips.is_empty() {
                let new_of = renumber(shared);
                self.store.renumber(&new_of, shared.nodes.len());
            }
            touched.len()
        };
        if self.store.dead() > self.store.built() {
            self.store = self.store.compacted();
        }
        Ok(EditReport {
            tiles_changed: changed.len() - flips.len(),
            standability_changed: flips.len(),
            nodes_rebuilt: dropped,
            full_rebuild: whole,
            generation: self.generation,
        })
    }
}

/// Renumbers the nodes for the edited classification (the standable cells
/// now); returns each old node's new id, `None` for a removed one.
fn renumber(shared: &mut Shared) -> Vec<Option<u32>> {
    let nodes: Vec<Cell> = Classification::standable_cells(&shared.classes).collect();
    let node_at = node_table(&shared.level, &nodes);
    let (w, h) = (shared.level.width(), shared.level.height());
    let new_of: Vec<Option<u32>> = shared
        .nodes
        .iter()
        .map(|&c| crate::graph::lookup(&node_at, w, h, c))
        .collect();
    shared.nodes = nodes;
    shared.node_at = node_at;
    new_of
}
