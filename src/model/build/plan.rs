//! Paths on a [`ModelMap`]: the cheapest route by the links' ticks,
//! performed on the model from the start; a link that misses from where
//! the body really is gets banned and the route planned again.

use super::perform::{Run, settle};
use super::{ModelLink, ModelMap};
use crate::level::Cell;
use crate::mechanics::LinkKind;
use crate::model::BodyModel;
use crate::physics::Input;
use crate::search::{Endpoint, PathError, SearchOptions, SearchStats};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

/// One link of a [`ModelPath`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ModelStep {
    /// The link's kind.
    pub kind: LinkKind,
    /// Where it starts.
    pub from: Cell,
    /// Where it ends.
    pub to: Cell,
}

/// A path performed on a model: its links and the inputs that perform it
/// from standing at rest on its start.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ModelPath {
    steps: Vec<ModelStep>,
    inputs: Vec<Input>,
    stats: SearchStats,
}

impl ModelPath {
    /// The links, in order.
    #[must_use]
    pub fn steps(&self) -> &[ModelStep] {
        &self.steps
    }

    /// The inputs, one per tick.
    #[must_use]
    pub fn inputs(&self) -> &[Input] {
        &self.inputs
    }

    /// The search's counters.
    #[must_use]
    pub fn stats(&self) -> SearchStats {
        self.stats
    }
}

impl<M: BodyModel> ModelMap<M> {
    /// The fastest path from `start` to `goal` that the model performs.
    ///
    /// # Errors
    /// [`PathError::InvalidEndpoint`] when an end is not a cell the model
    /// stands on, [`PathError::Unreachable`], [`PathError::ReplanLimit`]
    /// or [`PathError::BudgetExhausted`].
    pub fn find_path(
        &self,
        start: Cell,
        goal: Cell,
        options: &SearchOptions,
    ) -> Result<ModelPath, PathError> {
        let node = |which, cell| {
            self.node_at
                .get(&cell)
                .map(|&n| n as usize)
                .ok_or(PathError::InvalidEndpoint {
                    which,
                    cell,
                    radius: 0,
                })
        };
        let (s, g) = (node(Endpoint::Start, start)?, node(Endpoint::Goal, goal)?);
        let mut banned = HashSet::new();
        let mut stats = SearchStats::default();
        loop {
            let budget = options.max_expansions.saturating_sub(stats.expanded);
            let route = self.route(s, g, &banned, budget, &mut stats)?;
            let Some(route) = route else {
                return Err(PathError::Unreachable { start, goal, stats });
            };
            match self.realize(start, &route) {
                Ok(inputs) => {
                    let steps = route
                        .iter()
                        .map(|&l| {
                            let l = &self.links[l];
                            ModelStep {
                                kind: l.kind,
                                from: l.from,
                                to: l.to,
                            }
                        })
                        .collect();
                    return Ok(ModelPath {
                        steps,
                        inputs,
                        stats,
                    });
                }
                Err(missed) => {
                    banned.insert(missed);
                    stats.replans += 1;
                    if stats.replans > options.max_replans as usize {
                        let limit = options.max_replans;
                        return Err(PathError::ReplanLimit {
                            start,
                            goal,
                            limit,
                            stats,
                        });
                    }
                }
            }
        }
    }

    /// The cheapest route's links from node `s` to node `g` avoiding
    /// `banned`, by A* under the model's top speed (Dijkstra without one).
    fn route(
        &self,
        s: usize,
        g: usize,
        banned: &HashSet<usize>,
        budget: usize,
        stats: &mut SearchStats,
    ) -> Result<Option<Vec<usize>>, PathError> {
        let goal_col = self.nodes[g].col;
        // Each link ends within the settle's tolerance of its target's
        // middle, so it crosses at least all but one of the columns.
        let per_col = self
            .model
            .bounds()
            .top_speed
            .filter(|v| *v > 0.0)
            .map_or(0.0, |v| 1.0 / (v * self.model.dt()));
        let h = |n: usize| {
            let cols = (self.nodes[n].col - goal_col).abs().saturating_sub(1);
            (f64::from(cols) * per_col * (1.0 - 1e-9)).floor() as usize
        };
        let mut dist = vec![usize::MAX; self.nodes.len()];
        let mut via = vec![usize::MAX; self.nodes.len()];
        let mut open = BinaryHeap::new();
        dist[s] = 0;
        open.push(Reverse((h(s), 0usize, s)));
        let mut expanded = 0;
        while let Some(Reverse((_, d, n))) = open.pop() {
            if d > dist[n] {
                continue;
            }
            if n == g {
                stats.expanded += expanded;
                let mut links = Vec::new();
                let mut at = g;
                while at != s {
                    let l = via[at];
                    links.push(l);
                    at = self.node_at[&self.links[l].from] as usize;
                }
                links.reverse();
                return Ok(Some(links));
            }
            expanded += 1;
            if expanded > budget {
                stats.expanded += expanded;
                return Err(PathError::BudgetExhausted {
                    limit: budget,
                    stats: *stats,
                });
            }
            for l in self.offsets[n]..self.offsets[n + 1] {
                if banned.contains(&l) {
                    continue;
                }
                let to = self.node_at[&self.links[l].to] as usize;
                let nd = d + self.links[l].ticks();
                if nd < dist[to] {
                    dist[to] = nd;
                    via[to] = l;
                    open.push(Reverse((nd + h(to), nd, to)));
                }
            }
        }
        stats.expanded += expanded;
        Ok(None)
    }

    /// Performs `route` from standing on `start`: each flight as
    /// recorded, each settle from where the body is. The inputs, or the
    /// link that missed.
    fn realize(&self, start: Cell, route: &[usize]) -> Result<Vec<Input>, usize> {
        let (m, level) = (&self.model, &self.level);
        let mut r = Run::new(m.start(level, start));
        for &l in route {
            let ModelLink {
                tape, flight, to, ..
            } = &self.links[l];
            for &input in &tape[..*flight] {
                m.step(level, &mut r.state, input);
                r.tape.push(input);
            }
            if m.dead(&r.state) || !settle(m, level, &mut r, *to) {
                return Err(l);
            }
        }
        Ok(r.tape)
    }
}
