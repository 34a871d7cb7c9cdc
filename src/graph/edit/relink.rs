//! Updating the map in place (steps 3 and 4 of the module documentation):
//! the nodes to rebuild, their links generated again, the window spliced
//! and the landmark bounds repaired.

use super::{BOUND_BUDGET, REVERSE_LINKS, bounds};
use crate::classify::Classification;
use crate::graph::NavMap;
use crate::level::{Cell, Level};
use crate::links::{Link, WorkerGuard, links_and_reads};
use crate::physics::reads::Reads;

impl NavMap {
    /// Updates the map in place (steps 3 and 4 of the module
    /// documentation), as generation `generation`, with the edited level's
    /// classification `classes`: `changed` holds the edited cells and then
    /// `flips`, those whose standability changed. Returns the nodes
    /// rebuilt.
    pub(super) fn relink(
        &mut self,
        classes: Classification,
        changed: &[Cell],
        flips: &[Cell],
        generation: u64,
    ) -> usize {
        let rect = bounds(changed);
        let touched = self.touched(rect, changed);
        let (window, cells) = self.window(&classes, &touched, flips);
        // Per window node: its old node, rebuilt or kept.
        let olds: Vec<Option<u32>> = cells.iter().map(|&c| self.node(c).map(|n| n.0)).collect();
        // Per window node: its old node when that one's links still hold.
        let keep: Vec<Option<u32>> = olds
            .iter()
            .map(|o| o.filter(|&n| touched.binary_search(&(n as usize)).is_err()))
            .collect();
        let rebuild: Vec<Cell> = cells
            .iter()
            .zip(&keep)
            .filter(|(_, k)| k.is_none())
            .map(|(&c, _)| c)
            .collect();
        let fresh = self.generate(&self.level, &classes, &rebuild);
        self.splice_window(
            window.clone(),
            &cells,
            (&olds, &keep),
            fresh,
            &classes,
            !flips.is_empty(),
        );
        let budget = BOUND_BUDGET.max(self.nodes.len() / 64);
        let relinked: Vec<bool> = keep.iter().map(Option::is_none).collect();
        self.landmarks.repair(
            window.start,
            &olds,
            &relinked,
            &self.offsets,
            &self.edges,
            (budget, REVERSE_LINKS),
        );
        self.classes = classes;
        self.memo = crate::graph::memo::LinkMemo::new(self.edges.len());
        self.labels = crate::graph::pool::ScratchPool::default();
        self.generation = generation;
        rebuild.len()
    }

    /// The links of the nodes on `cells` in the edited `level`, with what
    /// each read, generated on every core the build uses.
    fn generate(
        &self,
        level: &Level,
        classes: &Classification,
        cells: &[Cell],
    ) -> Vec<(Vec<Link>, Reads)> {
        let (physics, options) = (&self.physics, &self.options);
        let generate = |worker: &mut WorkerGuard<'_>, &c: &Cell| {
            links_and_reads(level, physics, classes, c, options, worker)
        };
        #[cfg(feature = "parallel")]
        if cells.len() > 1 {
            use rayon::prelude::*;
            return cells
                .par_iter()
                .map_init(|| self.cache.worker(), generate)
                .collect();
        }
        let mut worker = self.cache.worker();
        cells.iter().map(|c| generate(&mut worker, c)).collect()
    }
}
