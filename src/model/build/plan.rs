//! Paths on a [`ModelMap`], searched in the body's real states: a best-
//! first search over cells whose labels carry the model's state at rest
//! there, as the path so far left it. A link is performed from that state
//! (its program, then its settle) when the search first takes it, so every
//! path is performed on the model as it is found and no route is planned
//! twice. Until then its recorded ticks stand for its cost; a link that
//! performs slower from the real state goes back on the queue at its real
//! cost, one that misses is dropped.

use super::ModelMap;
use super::perform::{Run, fly, settle};
use crate::level::Cell;
use crate::mechanics::LinkKind;
use crate::model::BodyModel;
use crate::physics::Input;
use crate::search::{Endpoint, PathError, SearchOptions, SearchStats};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

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
    /// Its inputs in the path (performed from where the path got to).
    pub ticks: usize,
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
    /// The fastest path from standing at rest on `start` to `goal` that
    /// the model performs, as far as the search sees: links are taken at
    /// their recorded ticks until performed from the real state (see the
    /// module docs).
    ///
    /// # Errors
    /// [`PathError::InvalidEndpoint`] when an end is not a cell the model
    /// stands on, [`PathError::Unreachable`] or
    /// [`PathError::BudgetExhausted`] (`max_expansions` counts cells
    /// reached and links performed).
    pub fn find_path(
        &self,
        start: Cell,
        goal: Cell,
        options: &SearchOptions,
    ) -> Result<ModelPath, PathError> {
        let state = self.model.start(&self.level, start);
        self.find_path_from(&state, goal, options)
    }

    /// [`ModelMap::find_path`] from the body's real `state`, at rest on a
    /// cell the model stands on (as a path or a knock may leave it): the
    /// path's inputs are performed from that state. The reference body's
    /// own map plans from the state's cell, as [`crate::find_path`] does
    /// (its [`crate::PathFollower`] follows such paths closed-loop).
    ///
    /// # Errors
    /// As [`ModelMap::find_path`]; [`PathError::InvalidEndpoint`] for the
    /// start when the body is not at rest on a cell of the map.
    pub fn find_path_from(
        &self,
        state: &M::State,
        goal: Cell,
        options: &SearchOptions,
    ) -> Result<ModelPath, PathError> {
        let m = &self.model;
        let on = m
            .standing_cell(state)
            .filter(|_| m.at_rest(state) && !m.dead(state));
        let start = on.unwrap_or_else(|| {
            let [x, y] = m.feet(state);
            Cell::new(x.floor() as i32, y.floor() as i32 - 1)
        });
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
        if on.is_none() {
            return Err(PathError::InvalidEndpoint {
                which: Endpoint::Start,
                cell: start,
                radius: 0,
            });
        }
        let (s, g) = (node(Endpoint::Start, start)?, node(Endpoint::Goal, goal)?);
        if let Some(native) = &self.native {
            return crate::search::find_path(native, start, goal, options).map(of_native);
        }
        let mut search = Search::new(self, s, g, state.clone());
        if s == g {
            return Ok(search.path(0));
        }
        search.expand(0);
        let limit = options.max_expansions;
        while let Some(Reverse((_, ticks, entry))) = search.open.pop() {
            if search.stats.expanded + search.performed > limit {
                return Err(PathError::BudgetExhausted {
                    limit,
                    stats: search.stats,
                });
            }
            if let Some(label) = search.take(entry, ticks) {
                if search.labels[label].node == g {
                    return Ok(search.path(label));
                }
                search.expand(label);
            }
        }
        Err(PathError::Unreachable {
            start,
            goal,
            stats: search.stats,
        })
    }
}

/// A path of the reference body's own map.
fn of_native(path: crate::search::Path) -> ModelPath {
    ModelPath {
        steps: path
            .steps()
            .iter()
            .map(|s| ModelStep {
                kind: s.kind,
                from: s.from,
                to: s.to,
                ticks: s.ticks as usize,
            })
            .collect(),
        inputs: path.inputs().to_vec(),
        stats: path.stats(),
    }
}

/// A cell reached: the model's state at rest there and how it came.
struct Label<S> {
    node: usize,
    ticks: usize,
    state: S,
    /// The link and the label it left from, and the inputs it took.
    via: Option<(usize, usize, Vec<Input>)>,
}

/// A link on the queue, from a label; performed or not yet.
struct Entry<S> {
    link: usize,
    from: usize,
    performed: Option<(S, Vec<Input>)>,
}

/// One query's search.
struct Search<'a, M: BodyModel> {
    map: &'a ModelMap<M>,
    goal_col: i32,
    per_col: f64,
    /// Per node, its label once taken.
    closed: Vec<Option<usize>>,
    labels: Vec<Label<M::State>>,
    entries: Vec<Entry<M::State>>,
    open: BinaryHeap<Reverse<(usize, usize, usize)>>,
    performed: usize,
    stats: SearchStats,
}

impl<'a, M: BodyModel> Search<'a, M> {
    fn new(map: &'a ModelMap<M>, s: usize, g: usize, state: M::State) -> Self {
        // Each link ends within the settle's tolerance of its target's
        // middle, so it crosses at least all but one of the columns.
        let per_col = map
            .model
            .bounds()
            .top_speed
            .filter(|v| *v > 0.0)
            .map_or(0.0, |v| 1.0 / (v * map.model.dt()));
        let mut search = Self {
            map,
            goal_col: map.nodes[g].col,
            per_col,
            closed: vec![None; map.nodes.len()],
            labels: Vec::new(),
            entries: Vec::new(),
            open: BinaryHeap::new(),
            performed: 0,
            stats: SearchStats::default(),
        };
        search.accept(s, 0, state, None);
        search
    }

    /// A lower bound on the ticks from `node` to the goal.
    fn bound(&self, node: usize) -> usize {
        let cols = (self.map.nodes[node].col - self.goal_col)
            .abs()
            .saturating_sub(1);
        (f64::from(cols) * self.per_col * (1.0 - 1e-9)).floor() as usize
    }

    fn target(&self, link: usize) -> usize {
        self.map.node_at[&self.map.links[link].to] as usize
    }

    /// Takes a popped entry reached in `ticks`: performs its link if it
    /// was not yet (re-queued when slower than recorded), and labels its
    /// target when it is first reached.
    fn take(&mut self, entry: usize, ticks: usize) -> Option<usize> {
        let (link, from) = (self.entries[entry].link, self.entries[entry].from);
        let to = self.target(link);
        if self.closed[to].is_some() {
            self.stats.pruned += 1;
            return None;
        }
        let Some((state, tape)) = self.entries[entry].performed.take() else {
            self.performed += 1;
            let Some((state, tape)) = self.perform(link, from) else {
                self.stats.pruned += 1;
                return None;
            };
            let real = self.labels[from].ticks + tape.len();
            if real > ticks {
                self.entries[entry].performed = Some((state, tape));
                self.open
                    .push(Reverse((real + self.bound(to), real, entry)));
                return None;
            }
            return Some(self.accept(to, real, state, Some((link, from, tape))));
        };
        Some(self.accept(to, ticks, state, Some((link, from, tape))))
    }

    /// Performs `link` from label `from`'s state: its end state and
    /// inputs, if it ends at rest on its target.
    fn perform(&self, link: usize, from: usize) -> Option<(M::State, Vec<Input>)> {
        let (m, level) = (&self.map.model, &self.map.level);
        let l = &self.map.links[link];
        let mut r = Run::new(self.labels[from].state.clone());
        let program = l.program.as_ref()?;
        (fly(m, level, &mut r, program) && settle(m, level, &mut r, l.to))
            .then_some((r.state, r.tape))
    }

    fn accept(
        &mut self,
        node: usize,
        ticks: usize,
        state: M::State,
        via: Option<(usize, usize, Vec<Input>)>,
    ) -> usize {
        let label = self.labels.len();
        self.labels.push(Label {
            node,
            ticks,
            state,
            via,
        });
        self.closed[node] = Some(label);
        label
    }

    /// Queues the links from `label`'s cell at their recorded ticks.
    fn expand(&mut self, label: usize) {
        self.stats.expanded += 1;
        let (node, ticks) = (self.labels[label].node, self.labels[label].ticks);
        for link in self.map.offsets[node]..self.map.offsets[node + 1] {
            let to = self.target(link);
            if self.closed[to].is_some() {
                continue;
            }
            let t = ticks + self.map.links[link].ticks();
            self.open
                .push(Reverse((t + self.bound(to), t, self.entries.len())));
            self.entries.push(Entry {
                link,
                from: label,
                performed: None,
            });
        }
    }

    /// The path to `label`.
    fn path(mut self, label: usize) -> ModelPath {
        let mut parts = Vec::new();
        let mut at = label;
        while let Some((link, from, tape)) = self.labels[at].via.take() {
            parts.push((link, tape));
            at = from;
        }
        parts.reverse();
        let mut inputs = Vec::new();
        let mut steps = Vec::new();
        for (link, tape) in parts {
            let l = &self.map.links[link];
            steps.push(ModelStep {
                kind: l.kind,
                from: l.from,
                to: l.to,
                ticks: tape.len(),
            });
            inputs.extend(tape);
        }
        ModelPath {
            steps,
            inputs,
            stats: self.stats,
        }
    }
}
