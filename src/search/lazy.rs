//! The search over a [`LazyMap`]: A* on whole ticks, as the exact search,
//! generating each node's links the first time it is expanded.
//!
//! No landmark is measured on a map that is not built, so the bound is the
//! column bound alone (columns to cross at top speed): admissible and
//! consistent, so the first route to the goal is a cheapest one, of the
//! cost a full map's exact search finds. A map opened on a saved map also
//! has the landmark table saved with it, while the links taken in agree
//! with it (`graph/lazy/saved.rs`); a search during which a link
//! contradicted it is run again without it. Labels live in a table of the
//! states the search touched, not in per-node arrays: a lazy search on a
//! huge level touches few of its nodes.

use std::collections::HashMap;

use super::bound::cols_apart;
use super::path::realize_with;
use super::queue::{BucketQueue, key};
use super::{
    Endpoint, Found, Path, PathError, Planner, Route, RouteAsk, SearchOptions, SearchStats,
};
use super::{plan, snap_by};
use crate::graph::landmarks::GoalBound;
use crate::graph::{LazyMap, LinkId, NodeId};
use crate::level::Cell;
use crate::links::LinkKind;
use crate::physics::Input;

impl LazyMap {
    /// Finds a path from standing on `start` to standing on `goal`, as
    /// [`find_path`](crate::find_path) does on a built map (snapping,
    /// replay, re-plans and budgets alike), generating the links of each
    /// node the search expands. The search is always exact:
    /// [`SearchOptions::beam_width`] is not used.
    ///
    /// # Errors
    /// As [`find_path`](crate::find_path).
    pub fn find_path(
        &mut self,
        start: Cell,
        goal: Cell,
        options: &SearchOptions,
    ) -> Result<Path, PathError> {
        let s = self.endpoint(Endpoint::Start, start, options.snap_radius)?;
        let g = self.endpoint(Endpoint::Goal, goal, options.snap_radius)?;
        plan(self, s, g, options)
    }

    fn endpoint(&self, which: Endpoint, cell: Cell, radius: u32) -> Result<NodeId, PathError> {
        snap_by(self.level(), |c| self.node(c).is_some(), cell, radius)
            .and_then(|c| self.node(c))
            .ok_or(PathError::InvalidEndpoint {
                which,
                cell,
                radius,
            })
    }
}

impl Planner for LazyMap {
    type Links = LazyMap;
    fn links(&self) -> &LazyMap {
        self
    }
    fn cell(&self, node: NodeId) -> Cell {
        LazyMap::cell(self, node)
    }
    fn target(&self, id: LinkId) -> NodeId {
        LazyMap::target(self, id)
    }
    fn kind(&self, id: LinkId) -> LinkKind {
        LazyMap::kind(self, id)
    }
    fn route(&mut self, ask: &RouteAsk<'_>) -> Found {
        let bounded = self.has_saved_bounds();
        let found = Search::new(self, ask.goal, ask.opts, ask.banned).run(ask.start, ask.budget);
        if bounded && !self.has_saved_bounds() {
            // The table that guided it was dropped: it may have overstated.
            return Search::new(self, ask.goal, ask.opts, ask.banned).run(ask.start, ask.budget);
        }
        found
    }
    fn realize(&self, start: Cell, links: &[LinkId]) -> Result<Vec<Input>, LinkId> {
        realize_with(self, start, links, None)
    }
}

/// A state's label: the state (node and jumps used), its best arrival,
/// and the label and link it came from.
struct Label {
    node: u32,
    jumps: usize,
    g: u32,
    parent: u32,
    link: u32,
}

const NO_PARENT: u32 = u32::MAX;

/// Queue entries [`Search::build_ahead`] looks through per node it may
/// build alongside the one expanded (stale entries and nodes built already
/// are skipped).
const LOOK_AHEAD: usize = 16;

/// The most nodes one [`Search::build_ahead`] builds, per thread: batches
/// this large keep every core busy (a batch waits for its slowest node),
/// and the look-ahead still guesses the nodes the search expands next.
const MOST_PER_THREAD: usize = 32;

/// One lazy search: its options and the labels it has made.
struct Search<'a> {
    map: &'a mut LazyMap,
    goal: NodeId,
    goal_col: i32,
    wrap_cols: i32,
    forbid: [bool; LinkKind::ALL.len()],
    banned: &'a [LinkId],
    /// Jump counts a node's states tell apart (1 when jumps are not capped).
    levels: usize,
    labels: Vec<Label>,
    /// Each (node, jumps) state's label.
    index: HashMap<(u32, usize), u32>,
    stats: SearchStats,
    /// The goal prepared for the saved landmark table, if there is one.
    goal_bound: Option<GoalBound>,
    /// How many nodes the next [`Search::build_ahead`] may build.
    batch: usize,
}

impl<'a> Search<'a> {
    fn new(map: &'a mut LazyMap, goal: NodeId, opts: &SearchOptions, banned: &'a [LinkId]) -> Self {
        let mut forbid = [false; LinkKind::ALL.len()];
        for k in &opts.forbid {
            forbid[k.index()] = true;
        }
        let level = map.level();
        let wrap_cols = if level.wrap().x {
            level.width() as i32
        } else {
            0
        };
        Self {
            goal_col: map.cell(goal).col,
            goal_bound: map.saved_goal(goal.0),
            map,
            goal,
            wrap_cols,
            forbid,
            banned,
            levels: opts.max_jumps.map_or(1, |j| j as usize + 1),
            labels: Vec::new(),
            index: HashMap::new(),
            stats: SearchStats::default(),
            batch: LazyMap::build_width(),
        }
    }

    /// The bound on the ticks from `node` to the goal.
    fn h(&self, node: u32) -> f64 {
        let col = self.map.cell(NodeId(node)).col;
        let across =
            f64::from(cols_apart(col, self.goal_col, self.wrap_cols)) * self.map.ticks_per_col();
        match &self.goal_bound {
            Some(g) => across.max(f64::from(self.map.saved_bound(node, g))),
            None => across,
        }
    }

    fn run(mut self, start: NodeId, budget: usize) -> Found {
        let mut heap = BucketQueue::new();
        heap.clear();
        self.label(start.0, 0, 0, (NO_PARENT, 0));
        heap.push(key(self.h(start.0)), 0, 0);
        while let Some((_, g, at)) = heap.pop() {
            let label = &self.labels[at as usize];
            if g > label.g {
                self.stats.pruned += 1;
                continue;
            }
            let (node, jumps) = (label.node, label.jumps);
            if node == self.goal.0 {
                return Ok((Some(self.route(at)), self.stats));
            }
            if self.stats.expanded >= budget {
                return Err(PathError::BudgetExhausted {
                    limit: budget,
                    stats: self.stats,
                });
            }
            self.stats.expanded += 1;
            if !self.map.is_built(NodeId(node)) {
                self.build_ahead(&heap, node);
            }
            for id in self.map.link_ids(node) {
                if let Some((f, g2, next)) = self.relax(at, jumps, g, LinkId(id)) {
                    heap.push(key(f), g2, next);
                }
            }
        }
        Ok((None, self.stats))
    }

    /// Builds `node` together with the next nodes the queue will expand
    /// that are not built yet, in one batch on every core: the search
    /// expands most of them next (entries the queue drops as stale, and the
    /// goal, are left out). The batch starts at one node a thread and
    /// doubles each time, up to [`MOST_PER_THREAD`] a thread: a search that
    /// keeps meeting unbuilt nodes gets batches that keep the cores busy,
    /// and one that meets a few builds few it does not expand.
    fn build_ahead(&mut self, heap: &BucketQueue, node: u32) {
        let threads = LazyMap::build_width();
        let mut nodes = vec![NodeId(node)];
        if threads > 1 {
            for (g, at) in heap.peek(self.batch * LOOK_AHEAD) {
                let l = &self.labels[at as usize];
                let next = NodeId(l.node);
                if g == l.g
                    && next != self.goal
                    && !self.map.is_built(next)
                    && !nodes.contains(&next)
                {
                    nodes.push(next);
                    if nodes.len() == self.batch {
                        break;
                    }
                }
            }
            self.batch = (self.batch * 2).min(threads * MOST_PER_THREAD);
        }
        self.map.build_nodes(&nodes);
    }

    /// Relaxes link `id` out of label `at` (`jumps` used, reached at `g`):
    /// the new label's `(f, g, index)`, unless the link is not allowed or
    /// its arrival is dominated.
    fn relax(&mut self, at: u32, jumps: usize, g: u32, id: LinkId) -> Option<(f64, u32, u32)> {
        let e = self.map.edge(id);
        if self.forbid[e.kind.index()] || self.banned.binary_search(&id).is_ok() {
            return None;
        }
        let capped = self.levels > 1;
        let j2 = if capped {
            jumps + usize::from(e.jumps)
        } else {
            0
        };
        if j2 >= self.levels {
            return None;
        }
        let g2 = g + u32::from(e.ticks);
        // A label no later with no more jumps makes this one useless.
        let dominated = (0..=j2).any(|j| {
            self.index
                .get(&(e.target, j))
                .is_some_and(|&i| self.labels[i as usize].g <= g2)
        });
        if dominated {
            self.stats.pruned += 1;
            return None;
        }
        let next = self.label(e.target, j2, g2, (at, id.0));
        Some((f64::from(g2) + self.h(e.target), g2, next))
    }

    /// Labels state `(node, jumps)` as reached at `g` by `via` (parent
    /// label, link); returns its index.
    fn label(&mut self, node: u32, jumps: usize, g: u32, (parent, link): (u32, u32)) -> u32 {
        let fresh = Label {
            node,
            jumps,
            g,
            parent,
            link,
        };
        match self.index.get(&(node, jumps)) {
            Some(&i) => {
                self.labels[i as usize] = fresh;
                i
            }
            None => {
                let i = self.labels.len() as u32;
                self.labels.push(fresh);
                self.index.insert((node, jumps), i);
                i
            }
        }
    }

    /// The links from the start to label `at`, and its ticks.
    fn route(&self, at: u32) -> Route {
        let mut links = Vec::new();
        let mut i = at;
        while self.labels[i as usize].parent != NO_PARENT {
            links.push(LinkId(self.labels[i as usize].link));
            i = self.labels[i as usize].parent;
        }
        links.reverse();
        Route {
            links,
            ticks: self.labels[at as usize].g,
        }
    }
}

#[cfg(all(test, feature = "parallel"))]
mod tests {
    use super::MOST_PER_THREAD;
    use crate::{LazyMap, Level, NavMap, Physics, SearchOptions, find_path};

    /// On two threads a long lazy search builds in batches that grow to
    /// [`MOST_PER_THREAD`] nodes a thread, guessed from its queue: it builds
    /// few nodes it does not expand, and finds the full map's cost.
    #[test]
    fn batches_built_ahead_are_mostly_expanded() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        pool.install(|| {
            let level = Level::generate(160, 40, 3).unwrap();
            let physics = Physics::default();
            let full = NavMap::build(&level, &physics).unwrap();
            let (start, goal) = (full.nodes()[0], *full.nodes().last().unwrap());
            let opts = SearchOptions::default();
            let mut lazy = LazyMap::new(&level, &physics).unwrap();
            let path = lazy.find_path(start, goal, &opts).unwrap();
            assert_eq!(
                path.ticks(),
                find_path(&full, start, goal, &opts).unwrap().ticks()
            );
            let expanded = path.stats().expanded;
            assert!(
                expanded > 8 * MOST_PER_THREAD,
                "{expanded} expanded: too short a search"
            );
            let built = lazy.built_count();
            assert!(
                built <= expanded + 2 * MOST_PER_THREAD,
                "{built} nodes built for {expanded} expanded"
            );
        });
    }
}
