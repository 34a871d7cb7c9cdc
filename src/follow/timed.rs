//! Following a path over moving platforms ([`TimedFollower`]): the game
//! keeps time, the follower hands it the plan's input for each tick while
//! the body is where the plan has it, and plans again from where the body
//! comes to rest when it is not (a knock, or platforms that are not
//! where the plan expected).

use super::recovery::{Ground, ground_input};
use crate::graph::NavMap;
use crate::level::{Cell, Platforms};
use crate::links::settle_input;
use crate::physics::{Body, Input};
use crate::search::PathError;
use crate::search::timed::{
    TimedMemory, TimedOptions, TimedPath, TimedPlanner, World, find_path_timed_from,
};

/// The longest a recovery flight is followed for, in ticks.
const RECOVERY_TICKS: u32 = 600;
/// The ticks before a failed plan is tried again (the platforms move on).
const RETRY_TICKS: u64 = 30;

/// What a [`TimedFollower`] is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimedFollowState {
    /// No target yet, or at rest on it.
    Idle,
    /// On the plan: the body is in the planned state for this tick.
    OnPlan,
    /// Off the plan: landing and coming to rest before planning again.
    Recovering,
    /// No path from where the body rests, last time it looked.
    Unreachable,
}

/// A closed-loop follower of paths over moving platforms.
#[derive(Debug, Clone)]
pub struct TimedFollower {
    options: TimedOptions,
    plan: Option<Plan>,
    state: TimedFollowState,
    retry_at: u64,
}

/// A plan and the state the body is in before each of its ticks.
#[derive(Debug, Clone)]
struct Plan {
    path: TimedPath,
    states: Vec<Body>,
    /// The goal as asked (the path's is snapped to a cell of the map).
    goal: Cell,
}

impl TimedFollower {
    /// A follower that plans with `options`.
    #[must_use]
    pub fn new(options: TimedOptions) -> Self {
        Self {
            options,
            plan: None,
            state: TimedFollowState::Idle,
            retry_at: 0,
        }
    }

    /// What it is doing.
    #[must_use]
    pub fn state(&self) -> TimedFollowState {
        self.state
    }

    /// The plan it follows, if any.
    #[must_use]
    pub fn path(&self) -> Option<&TimedPath> {
        self.plan.as_ref().map(|p| &p.path)
    }

    /// The input for tick `tick` that takes `body` toward `goal` on `map`
    /// with `platforms` (where they are on that tick).
    pub fn next_input(
        &mut self,
        map: &NavMap,
        platforms: &Platforms,
        body: &Body,
        tick: u64,
        goal: Cell,
    ) -> Input {
        let options = self.options;
        self.next_input_planned(map, platforms, body, tick, goal, |b, t| {
            find_path_timed_from(map, platforms, b, t, goal, &options)
        })
    }

    /// [`TimedFollower::next_input`], planning with `planner` (its map,
    /// platforms and options): the plans of many followers on one level
    /// then share what it keeps.
    pub fn next_input_with(
        &mut self,
        planner: &TimedPlanner<'_>,
        body: &Body,
        tick: u64,
        goal: Cell,
    ) -> Input {
        let (map, platforms) = (planner.map(), planner.platforms());
        self.next_input_planned(map, platforms, body, tick, goal, |b, t| {
            planner.find_path_from(b, t, goal)
        })
    }

    /// [`TimedFollower::next_input`], planning (on the ticks it plans)
    /// with a [`TimedPlanner`] taking up `memory`: the followers of a game
    /// that keeps one memory share its forecasts, and a tick that does not
    /// plan makes no planner.
    pub fn next_input_with_memory(
        &mut self,
        (map, platforms): (&NavMap, &Platforms),
        memory: &TimedMemory,
        body: &Body,
        tick: u64,
        goal: Cell,
    ) -> Input {
        let options = self.options;
        self.next_input_planned(map, platforms, body, tick, goal, |b, t| {
            TimedPlanner::with_memory(map, platforms, options, memory).find_path_from(b, t, goal)
        })
    }

    /// [`TimedFollower::next_input`], planning with `plan(body, tick)`.
    fn next_input_planned(
        &mut self,
        map: &NavMap,
        platforms: &Platforms,
        body: &Body,
        tick: u64,
        goal: Cell,
        plan: impl FnOnce(&Body, u64) -> Result<TimedPath, PathError>,
    ) -> Input {
        let world = World::new(map.level(), map.physics(), platforms);
        if let Some(input) = self.on_plan(body, tick, goal) {
            return input;
        }
        self.plan = None;
        if body.dead {
            return Input::IDLE;
        }
        // In the air, or grounded but thrown up (the next tick lifts it).
        if !body.grounded || body.vy < 0.0 {
            self.state = TimedFollowState::Recovering;
            return recovery_input(&world, body, tick).unwrap_or(Input::IDLE);
        }
        if let Some(input) = rest_input(map, &world, body, tick) {
            self.state = TimedFollowState::Recovering;
            return input;
        }
        if body.stands_on(goal) {
            self.state = TimedFollowState::Idle;
            return Input::IDLE;
        }
        if tick < self.retry_at {
            return Input::IDLE;
        }
        match plan(body, tick) {
            Ok(path) => {
                let states = states_along(&world, body, tick, &path.inputs);
                self.plan = Some(Plan { path, states, goal });
                self.on_plan(body, tick, goal).unwrap_or(Input::IDLE)
            }
            Err(_) => {
                self.state = TimedFollowState::Unreachable;
                self.retry_at = tick + RETRY_TICKS;
                Input::IDLE
            }
        }
    }

    /// The plan's input for `tick`, when the body is in its planned state.
    fn on_plan(&mut self, body: &Body, tick: u64, goal: Cell) -> Option<Input> {
        let plan = self.plan.as_ref()?;
        let i = usize::try_from(tick.checked_sub(plan.path.start_tick)?).ok()?;
        // Past the plan's end, the body stays at rest on the goal (a
        // platform coming by and lifting it takes it off).
        let expected = plan.states.get(i).or(plan.states.last());
        if plan.goal != goal || expected != Some(body) {
            return None;
        }
        match plan.path.inputs.get(i) {
            Some(&input) => {
                self.state = TimedFollowState::OnPlan;
                Some(input)
            }
            None => {
                self.state = TimedFollowState::Idle;
                Some(Input::IDLE)
            }
        }
    }
}

/// The states a body goes through performing `inputs` from tick `tick`.
fn states_along(world: &World<'_>, body: &Body, tick: u64, inputs: &[Input]) -> Vec<Body> {
    let mut b = *body;
    let mut states = Vec::with_capacity(inputs.len() + 1);
    states.push(b);
    for (i, &input) in inputs.iter().enumerate() {
        world.step(&mut b, tick + i as u64, input);
        states.push(b);
    }
    states
}

/// The input that brings a grounded body to rest: on the middle of the
/// tile of a platform's width it rides, or where the path follower's
/// ground policy brings it (the cell of the map under its feet or nearest
/// them in its row, [`ground_input`]); `None` when it is at rest there, or
/// stands where no cell of the map is near.
fn rest_input(map: &NavMap, world: &World<'_>, body: &Body, tick: u64) -> Option<Input> {
    let p = world.physics;
    let Some(k) = body.riding(world.platforms, tick, p) else {
        return match ground_input(map, body) {
            Ground::Push(input) => Some(input),
            Ground::Rest(_) | Ground::Lost => None,
        };
    };
    let m = &world.platforms.all()[k];
    let left = m.at(tick)[0];
    let slot = (body.x - left)
        .floor()
        .clamp(0.0, f64::from(m.platform.width - 1));
    settle_input(body, left + slot + 0.5, p)
}

/// The first input of the steadiest way down for a body in the air: of
/// the six held inputs (each way or none, jump held or not), the one that
/// lands alive soonest with the platforms moving; `None` when every one
/// dies or is still in the air after 600 ticks.
#[must_use]
pub fn recovery_input(world: &World<'_>, body: &Body, tick: u64) -> Option<Input> {
    let mut best: Option<(u32, Input)> = None;
    for jump in [false, true] {
        for dir in [0, -1, 1] {
            let input = Input::new(dir, jump, false);
            let mut b = *body;
            for t in 0..RECOVERY_TICKS {
                world.step(&mut b, tick + u64::from(t), input);
                if b.dead {
                    break;
                }
                if b.grounded {
                    if best.is_none_or(|(bt, _)| t < bt) {
                        best = Some((t, input));
                    }
                    break;
                }
            }
        }
    }
    best.map(|(_, input)| input)
}
