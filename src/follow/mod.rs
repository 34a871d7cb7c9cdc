//! A closed-loop path follower: from the body's actual state, the next
//! [`Input`] toward a (possibly moving) target. See [`PathFollower`].

mod knock;
mod recovery;
mod timed;

pub use knock::{KnockDeath, KnockOptions, KnockReport, can_land_alive, knock, knock_chases};
pub use recovery::{
    MAX_RECOVERY_TICKS, RECOVERY_SWITCH_TICKS, RecoveryEnd, RecoveryProgram, RecoverySwitch,
};
pub use timed::{TimedFollowState, TimedFollower, recovery_input};

use crate::graph::NavMap;
use crate::level::Cell;
use crate::physics::{Body, Input};
use crate::search::Path;
use crate::search::SearchOptions;
use crate::search::{self, find_path};
use recovery::{Outlook, Search, Settled};

/// How a [`PathFollower`] plans and how strictly it checks the body.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct FollowOptions {
    /// Largest difference (tiles, tiles/s) between the body and the planned
    /// state at a tick that still counts as on plan.
    pub tolerance: f64,
    /// The search used to (re-)plan; its `snap_radius` also snaps targets.
    pub search: SearchOptions,
    /// Body steps the follower may spend per tick trying recovery programs
    /// once one lands cleanly (see [`PathFollower`]); the rest of the
    /// family is tried on later ticks.
    pub recovery_budget: u32,
}

setters!(FollowOptions {
    with_tolerance => tolerance: f64,
    with_search => search: SearchOptions,
    with_recovery_budget => recovery_budget: u32,
});

impl Default for FollowOptions {
    /// A tolerance of 1e-6, the default (exact) search and a recovery
    /// budget of 2,000 body steps a tick.
    fn default() -> Self {
        Self {
            tolerance: 1e-6,
            search: SearchOptions::default(),
            recovery_budget: 2_000,
        }
    }
}

/// What a [`PathFollower`] is doing, as of its last
/// [`PathFollower::next_input`] call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FollowState {
    /// Not called yet, or no standing cell near the target.
    #[default]
    Idle,
    /// Performing a planned path's tape.
    OnPlan,
    /// On the ground off plan: braking and centring on a standing cell
    /// before planning from it.
    Settling,
    /// Off plan and holding a recovery program that lands alive.
    Recovering {
        /// Ticks until it lands; `None` when no program lands or dies
        /// within [`MAX_RECOVERY_TICKS`].
        lands_in: Option<u32>,
        /// The standing cell the body settles on after landing; `None`
        /// when the settle leaves the ground again (the follower then
        /// recovers from there).
        landing: Option<Cell>,
    },
    /// Every recovery program dies: the body is falling to death. The
    /// follower holds the program that dies last.
    FallingToDeath {
        /// Ticks until the body dies, unless something knocks it again.
        ticks: u32,
    },
    /// Standing at rest on the goal.
    Arrived,
    /// No route leads from the body's standing cell to the goal.
    Unreachable,
    /// The body is dead.
    Dead,
}

#[derive(Debug, Clone)]
struct Plan {
    path: Path,
    /// The body's state before each tick of the tape (one more than inputs).
    expected: Vec<Body>,
    /// Tick indices at which a link ends (re-planning points).
    boundaries: Vec<usize>,
    tick: usize,
}

/// Follows paths on a [`NavMap`] in closed loop, re-planning when the
/// target changes cell or the body leaves the plan, and recovering when the
/// body is knocked off it.
///
/// The follower keeps the current [`Path`], the states the reference body
/// passes through when it performs the path's tape from where the plan
/// started, and a tick index. Each tick it compares the body with the
/// expected state at that tick:
///
/// - **on plan** (every coordinate within [`FollowOptions::tolerance`], same
///   grounded flag): it emits the tape's input for that tick. Motion is
///   deterministic, so an undisturbed body stays on plan to the goal, and
///   such a tick costs one comparison;
/// - **the target moved** to another standing cell: the plan is kept until
///   the next link boundary (every link ends at rest on its cell, see
///   `PHYSICS.md`) and re-planned from there, so a chase never brakes
///   mid-jump;
/// - **off plan** (knocked, blocked, or landed somewhere unexpected): the
///   plan is dropped and the follower *recovers*:
///   - on the ground, it brakes and centres on its standing cell (the
///     state every path starts from), or, standing where no path starts
///     (the overhang past a ledge), on the nearest standing cell of its
///     row within two columns, then re-plans from that cell. It first
///     plays that settle out on the reference body; when the settle would
///     leave the ground (a body knocked toward a pit) it recovers as in
///     the air;
///   - in the air, it flies a family of recovery programs on the reference
///     body from the body's actual state (steer left, none or right, with
///     and without the jump held, air and wall jumps, switch times: see
///     [`RecoveryProgram`]), keeps those that land alive, holds the best
///     (fewest ticks to land and settle plus a lower bound on the route
///     from the landing cell to the goal) while the body stays on it, and
///     re-plans once it has landed and settled.
///
/// When no program lands alive, the state says so before it happens:
/// [`FollowState::FallingToDeath`], with the ticks left. The follower then
/// holds the program that dies last (something may still knock it to
/// safety), and recovers afresh if the body leaves that program.
///
/// Cost: a tick on plan or on a held recovery program compares one state.
/// The first tick off plan flies the 12 constant programs (a few hundred
/// body steps on a small level) and, when none lands cleanly, the others
/// until one does; every other program is tried within
/// [`FollowOptions::recovery_budget`] body steps a tick, spread over the
/// ticks of the flight (a program stays valid while its inputs so far are
/// the ones the held program gave). A re-plan costs one search.
///
/// A target that is not standable (a player in mid-air) snaps to the nearest
/// standable cell, as in [`find_path`]. An unreachable target is not
/// searched for again until the body's cell or the target's cell changes.
///
/// ```
/// use platnav::follow::FollowOptions;
/// use platnav::{Body, Cell, Level, NavMap, PathFollower, Physics};
///
/// let level: Level = "............\n............\n.S...##...G.\n############".parse()?;
/// let map = NavMap::build(&level, &Physics::default())?;
/// let mut enemy = Body::standing(Cell::new(1, 2), map.physics());
/// let mut follower = PathFollower::new(FollowOptions::default());
/// let player = Cell::new(10, 2);
/// // Each tick: the input from where the body really is, then the step.
/// for _ in 0..600 {
///     let input = follower.next_input(&map, &enemy, player);
///     enemy.step(&level, map.physics(), input);
/// }
/// assert!(enemy.stands_on(player));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct PathFollower {
    options: FollowOptions,
    plan: Option<Plan>,
    goal: Option<Cell>,
    pending: bool,
    failed: Option<(Cell, Cell)>,
    plans: u32,
    state: FollowState,
    /// The recovery search, its vectors kept between knocks.
    search: Search,
    /// A recovery program is held.
    recovering: bool,
    /// The held program's tick to emit next.
    elapsed: u32,
    /// Body steps the last call simulated.
    steps: u64,
    /// The map generation the plan and recovery were made on.
    generation: Option<u64>,
}

fn close(a: &Body, b: &Body, tol: f64) -> bool {
    a.grounded == b.grounded
        && a.dead == b.dead
        && a.climbing == b.climbing
        && (a.x - b.x).abs() <= tol
        && (a.y - b.y).abs() <= tol
        && (a.vx - b.vx).abs() <= tol
        && (a.vy - b.vy).abs() <= tol
}

/// [`close`], and the same jump state (recovery programs press the jump),
/// coyote time, jump buffer and jump boost included.
fn same_state(a: &Body, b: &Body, tol: f64) -> bool {
    close(a, b, tol)
        && a.air_jumps_left == b.air_jumps_left
        && a.jump_held_last_tick == b.jump_held_last_tick
        && a.coyote_left == b.coyote_left
        && a.buffer_left == b.buffer_left
        && a.boost_tick == b.boost_tick
        && a.launched == b.launched
}

impl PathFollower {
    /// A follower with no plan yet.
    #[must_use]
    pub fn new(options: FollowOptions) -> Self {
        Self {
            options,
            ..Self::default()
        }
    }

    /// The path being followed, if any.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        self.plan.as_ref().map(|p| &p.path)
    }

    /// The tick of [`PathFollower::path`] the next input comes from.
    #[must_use]
    pub fn tick(&self) -> Option<usize> {
        self.plan.as_ref().map(|p| p.tick)
    }

    /// The standing cell the follower is heading for (the snapped target).
    #[must_use]
    pub fn goal(&self) -> Option<Cell> {
        self.goal
    }

    /// How many paths have been planned so far.
    #[must_use]
    pub fn plans(&self) -> u32 {
        self.plans
    }

    /// What the follower is doing, as of the last
    /// [`PathFollower::next_input`] call: on plan, settling, recovering
    /// (and where it lands), falling to death, and so on.
    #[must_use]
    pub fn state(&self) -> FollowState {
        self.state
    }

    /// Body steps the last [`PathFollower::next_input`] call simulated to
    /// try recovery programs and settles (a new plan's replay aside): 0 on
    /// plan and while a recovery program is held with nothing left to try.
    #[must_use]
    pub fn simulated_steps(&self) -> u64 {
        self.steps
    }

    /// Forgets the current plan and recovery (for example after teleporting
    /// the body).
    pub fn reset(&mut self) {
        self.plan = None;
        self.failed = None;
        self.pending = false;
        self.recovering = false;
        self.state = FollowState::Idle;
    }

    /// The input for this tick, for `body` (its state now) heading to
    /// `target`, on `map`. Call once per tick, then step the body with the
    /// returned input on the map's level and physics.
    ///
    /// ```
    /// use platnav::follow::FollowOptions;
    /// use platnav::{Body, Cell, Level, NavMap, PathFollower, Physics};
    ///
    /// let level: Level = "..........\n..........\n.S..##..G.\n##########".parse()?;
    /// let physics = Physics::default();
    /// let map = NavMap::build(&level, &physics)?;
    /// let mut enemy = Body::standing(Cell::new(1, 2), &physics);
    /// let mut follower = PathFollower::new(FollowOptions::default());
    /// // The game loop: ask for an input, step the body with it.
    /// for _ in 0..600 {
    ///     let input = follower.next_input(&map, &enemy, Cell::new(8, 2));
    ///     enemy.step(map.level(), &physics, input);
    /// }
    /// assert!(enemy.stands_on(Cell::new(8, 2)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn next_input(&mut self, map: &NavMap, body: &Body, target: Cell) -> Input {
        // A game's own body, as PHYSICS.md places a state from outside: on
        // the position grid, and on a level that wraps, on the map.
        let mut placed = body.on_grid();
        crate::physics::Tiles::wrap_feet(map.level(), &mut placed.x, &mut placed.y);
        let body = &placed;
        self.steps = 0;
        if body.dead {
            self.plan = None;
            self.recovering = false;
            self.state = FollowState::Dead;
            return Input::IDLE;
        }
        self.notice_edits(map);
        let goal = search::snap(map, target, self.options.search.snap_radius);
        if goal != self.goal {
            self.goal = goal;
            self.pending = true;
        }
        if let Some(plan) = &mut self.plan {
            let len = plan.path.inputs().len();
            let on_plan =
                plan.tick < len && close(&plan.expected[plan.tick], body, self.options.tolerance);
            if on_plan {
                let boundary = plan.tick == 0 || plan.boundaries.contains(&plan.tick);
                if !(self.pending && boundary) {
                    let input = plan.path.inputs()[plan.tick];
                    plan.tick += 1;
                    self.state = FollowState::OnPlan;
                    return input;
                }
            }
            self.plan = None;
        }
        let budget = u64::from(self.options.recovery_budget);
        if self.recovering
            && self
                .search
                .follows(body, self.elapsed, self.options.tolerance)
        {
            let before = self.search.spent;
            self.search.work(map, self.elapsed, budget);
            self.steps = self.search.spent - before;
            return self.recovery_input();
        }
        self.recovering = false;
        if body.grounded {
            let settled = recovery::settle(map, body, &mut self.steps);
            match settled {
                Settled::Rest(0, cell) => return self.at_rest(map, body, cell),
                Settled::Rest(..) => {
                    if let recovery::Ground::Push(input) = recovery::ground_input(map, body) {
                        self.state = FollowState::Settling;
                        return input;
                    }
                }
                Settled::Failed(_) => {}
            }
        }
        // In the air, or a settle that would leave the ground: recover.
        self.search.start(map, body, self.goal);
        self.search.work(map, 0, budget);
        self.steps += self.search.spent;
        self.recovering = true;
        self.elapsed = 0;
        self.recovery_input()
    }

    /// After an edit of `map` ([`NavMap::generation`]): the rest of the
    /// plan is performed again on the edited level, and kept only when the
    /// body would pass through exactly the same states (then the follower
    /// re-plans at the next link boundary, from where the body is); a plan
    /// the edit breaks is dropped at once, so the body re-plans from where
    /// it stands, or recovers in the air. A held recovery program is
    /// searched for again, and a target found unreachable is tried again.
    fn notice_edits(&mut self, map: &NavMap) {
        let now = map.generation();
        let before = self.generation.replace(now);
        if before.is_none_or(|g| g == now) {
            return;
        }
        self.failed = None;
        self.pending = true;
        self.recovering = false;
        if let Some(plan) = &self.plan {
            let (level, p) = (map.level(), map.physics());
            let rest = plan.path.inputs().get(plan.tick..).unwrap_or(&[]);
            let mut b = plan.expected[plan.tick.min(plan.expected.len() - 1)];
            let later = plan.expected.get(plan.tick + 1..).unwrap_or(&[]);
            let holds = rest.iter().zip(later).all(|(&i, e)| {
                b.step(level, p, i);
                b == *e
            });
            if !holds {
                self.plan = None;
            }
        }
    }

    /// The held recovery program's input for this tick, and the state.
    fn recovery_input(&mut self) -> Input {
        let input = self.search.input(self.elapsed);
        self.state = match self.search.outlook(self.elapsed) {
            Outlook::Lands { landing, ticks } => FollowState::Recovering {
                lands_in: Some(ticks),
                landing,
            },
            Outlook::Open => FollowState::Recovering {
                lands_in: None,
                landing: None,
            },
            Outlook::Dies { ticks } => FollowState::FallingToDeath { ticks },
        };
        self.elapsed += 1;
        input
    }

    /// At rest, centred on standing cell `cell`: arrived, or plan.
    fn at_rest(&mut self, map: &NavMap, body: &Body, cell: Cell) -> Input {
        let Some(goal) = self.goal else {
            self.state = FollowState::Idle;
            return Input::IDLE;
        };
        if cell == goal {
            self.pending = false;
            self.state = FollowState::Arrived;
            return Input::IDLE;
        }
        if self.failed == Some((cell, goal)) {
            self.state = FollowState::Unreachable;
            return Input::IDLE;
        }
        let p = map.physics();
        match find_path(map, cell, goal, &self.options.search) {
            Ok(path) if !path.inputs().is_empty() => {
                self.plans += 1;
                self.pending = false;
                self.failed = None;
                let level = map.level();
                let mut b = *body;
                let mut expected = Vec::with_capacity(path.inputs().len() + 1);
                expected.push(b);
                for &i in path.inputs() {
                    b.step(level, p, i);
                    expected.push(b);
                }
                let mut boundaries = Vec::with_capacity(path.steps().len());
                let mut t = 0usize;
                for s in path.steps() {
                    t += s.ticks as usize;
                    boundaries.push(t);
                }
                let input = path.inputs()[0];
                self.plan = Some(Plan {
                    path,
                    expected,
                    boundaries,
                    tick: 1,
                });
                self.state = FollowState::OnPlan;
                input
            }
            Ok(_) => {
                self.pending = false;
                self.state = FollowState::Arrived;
                Input::IDLE
            }
            Err(_) => {
                self.failed = Some((cell, goal));
                self.state = FollowState::Unreachable;
                Input::IDLE
            }
        }
    }
}
