//! [`ModelFollower`]: a body model's path, fed to it one input a tick,
//! planned again from where the body really is when it leaves the plan.

use super::{BodyModel, ModelMap};
use crate::level::Cell;
use crate::physics::Input;
use crate::search::SearchOptions;

/// What a [`ModelFollower`] is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ModelFollowState {
    /// No target, or standing on it.
    #[default]
    Idle,
    /// Feeding a plan's inputs.
    OnPlan,
    /// Off any plan (knocked, landing, or the target moved): letting the
    /// body come to rest to plan from there.
    Settling,
    /// No path from where the body rests to the target.
    Unreachable,
}

/// A plan being fed: its inputs, and the body's state expected at the end
/// of each link.
#[derive(Debug, Clone)]
struct Plan<S> {
    goal: Cell,
    inputs: Vec<Input>,
    tick: usize,
    /// (tick, state) at the end of each link.
    checks: Vec<(usize, S)>,
    next_check: usize,
}

/// Drives a body model along paths of its [`ModelMap`]: each tick, the
/// next input of the plan. A plan is made from the body's real state,
/// at rest, so it performs exactly; at the end of each link the body's
/// state is compared with the plan's, and one that differs (the game
/// knocked the body, or moved it) drops the plan: the follower lets the
/// body come to rest and plans again from there.
///
/// ```
/// use platnav::model::{ModelFollower, ModelMap, BodyModel, nes::NesMario};
/// use platnav::{Cell, Level};
///
/// let level: Level = "..........\n..........\n....#.....\n##########".parse()?;
/// let map = ModelMap::build(&level, NesMario::small())?;
/// let mario = map.model();
/// let mut state = mario.start(&level, Cell::new(1, 2));
/// let mut follower = ModelFollower::default();
/// for _ in 0..600 {
///     let input = follower.next_input(&map, &state, Cell::new(8, 2));
///     mario.step(&level, &mut state, input);
/// }
/// assert_eq!(mario.standing_cell(&state), Some(Cell::new(8, 2)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct ModelFollower<S> {
    options: SearchOptions,
    plan: Option<Plan<S>>,
    state: ModelFollowState,
    plans: u32,
    /// The (start, goal) found unreachable, not searched again until one
    /// changes.
    unreachable: Option<(Cell, Cell)>,
}

impl<S> Default for ModelFollower<S> {
    fn default() -> Self {
        Self::new(SearchOptions::default())
    }
}

impl<S> ModelFollower<S> {
    /// A follower searching with `options`.
    #[must_use]
    pub fn new(options: SearchOptions) -> Self {
        Self {
            options,
            plan: None,
            state: ModelFollowState::Idle,
            plans: 0,
            unreachable: None,
        }
    }

    /// What it is doing.
    #[must_use]
    pub fn state(&self) -> ModelFollowState {
        self.state
    }

    /// How many plans it has made.
    #[must_use]
    pub fn plans(&self) -> u32 {
        self.plans
    }

    /// Forgets the plan (after teleporting the body, say).
    pub fn reset(&mut self) {
        self.plan = None;
        self.unreachable = None;
        self.state = ModelFollowState::Idle;
    }

    /// The input for this tick, taking the body in `state` toward
    /// `target` (snapped to a cell the model stands on).
    pub fn next_input<M>(&mut self, map: &ModelMap<M>, state: &S, target: Cell) -> Input
    where
        M: BodyModel<State = S>,
        S: Clone + PartialEq + std::fmt::Debug,
    {
        let Some(goal) = map.snap(target, self.options.snap_radius) else {
            self.plan = None;
            self.state = ModelFollowState::Unreachable;
            return Input::IDLE;
        };
        if let Some(input) = self.on_plan(state, goal) {
            self.state = ModelFollowState::OnPlan;
            return input;
        }
        let m = map.model();
        let Some(here) = m.standing_cell(state).filter(|_| m.at_rest(state)) else {
            self.state = ModelFollowState::Settling;
            return Input::IDLE;
        };
        if here == goal {
            self.state = ModelFollowState::Idle;
            return Input::IDLE;
        }
        if self.unreachable == Some((here, goal)) {
            return Input::IDLE;
        }
        match map.find_path_from(state, goal, &self.options) {
            Ok(path) => {
                self.plans += 1;
                self.unreachable = None;
                self.plan = Some(Plan {
                    goal,
                    checks: checks(map, state, &path),
                    inputs: path.inputs().to_vec(),
                    tick: 0,
                    next_check: 0,
                });
                self.state = ModelFollowState::OnPlan;
                self.on_plan(state, goal).unwrap_or(Input::IDLE)
            }
            Err(_) => {
                self.unreachable = Some((here, goal));
                self.state = ModelFollowState::Unreachable;
                Input::IDLE
            }
        }
    }

    /// The plan's next input, unless there is no plan for `goal`, it is
    /// done, or the body is not where it expects: then the plan is
    /// dropped.
    fn on_plan(&mut self, state: &S, goal: Cell) -> Option<Input>
    where
        S: PartialEq,
    {
        let plan = self.plan.as_mut()?;
        let off = plan.goal != goal
            || plan.tick >= plan.inputs.len()
            || plan
                .checks
                .get(plan.next_check)
                .is_some_and(|(t, s)| *t == plan.tick && s != state);
        if off {
            self.plan = None;
            return None;
        }
        if plan
            .checks
            .get(plan.next_check)
            .is_some_and(|(t, _)| *t == plan.tick)
        {
            plan.next_check += 1;
        }
        plan.tick += 1;
        Some(plan.inputs[plan.tick - 1])
    }
}

/// The state at the end of each link of `path` (but the last), from
/// `state`, with its tick.
fn checks<M: BodyModel>(
    map: &ModelMap<M>,
    state: &M::State,
    path: &super::ModelPath,
) -> Vec<(usize, M::State)> {
    let (m, level) = (map.model(), map.level());
    let mut s = state.clone();
    let mut out = Vec::new();
    let mut tick = 0;
    for step in path.steps() {
        for &i in &path.inputs()[tick..tick + step.ticks] {
            m.step(level, &mut s, i);
        }
        tick += step.ticks;
        out.push((tick, s.clone()));
    }
    out.pop();
    out
}
