//! A closed-loop path follower: from the body's actual state, the next
//! [`Input`] toward a (possibly moving) target. See [`PathFollower`].

use crate::graph::NavMap;
use crate::level::Cell;
use crate::links::settle_input;
use crate::path::Path;
use crate::physics::{Body, Input};
use crate::search::SearchOptions;

/// How a [`PathFollower`] plans and how strictly it checks the body.
#[derive(Debug, Clone, PartialEq)]
pub struct FollowOptions {
    /// Largest difference (tiles, tiles/s) between the body and the planned
    /// state at a tick that still counts as on plan.
    pub tolerance: f64,
    /// The search used to (re-)plan; its `snap_radius` also snaps targets.
    pub search: SearchOptions,
}

impl Default for FollowOptions {
    /// A tolerance of 1e-6 and the default (exact) search.
    fn default() -> Self {
        Self {
            tolerance: 1e-6,
            search: SearchOptions::default(),
        }
    }
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
/// target changes cell or the body leaves the plan.
///
/// The follower keeps the current [`Path`], the states the reference body
/// passes through when it performs the path's tape from where the plan
/// started, and a tick index. Each tick it compares the body with the
/// expected state at that tick:
///
/// - **on plan** (every coordinate within [`FollowOptions::tolerance`], same
///   grounded flag): it emits the tape's input for that tick. Motion is
///   deterministic, so an undisturbed body stays on plan to the goal;
/// - **the target moved** to another standing cell: the plan is kept until
///   the next link boundary (every link ends at rest on its cell, see
///   [`crate::Link`]) and re-planned from there, so a chase never brakes
///   mid-jump;
/// - **off plan** (knocked, blocked, or landed somewhere unexpected): the
///   plan is dropped. Airborne, the follower steers toward the target and
///   keeps a rising jump held; standing, it brakes and centres on its cell
///   (the state every path starts from) and then re-plans from that cell.
///
/// A target that is not standable (a player in mid-air) snaps to the nearest
/// standable cell, as in [`NavMap::find_path`]. An unreachable target is not
/// searched for again until the body's cell or the target's cell changes.
#[derive(Debug, Clone, Default)]
pub struct PathFollower {
    options: FollowOptions,
    plan: Option<Plan>,
    goal: Option<Cell>,
    pending: bool,
    failed: Option<(Cell, Cell)>,
    plans: u32,
}

fn close(a: &Body, b: &Body, tol: f64) -> bool {
    a.grounded == b.grounded
        && a.dead == b.dead
        && (a.x - b.x).abs() <= tol
        && (a.y - b.y).abs() <= tol
        && (a.vx - b.vx).abs() <= tol
        && (a.vy - b.vy).abs() <= tol
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

    /// Forgets the current plan (for example after teleporting the body).
    pub fn reset(&mut self) {
        self.plan = None;
        self.failed = None;
        self.pending = false;
    }

    /// The input for this tick, for `body` (its state now) heading to
    /// `target`, on `map`. Call once per tick, then step the body with the
    /// returned input on the map's level and physics.
    pub fn next_input(&mut self, map: &NavMap, body: &Body, target: Cell) -> Input {
        if body.dead {
            return Input::IDLE;
        }
        let goal = map.snap(target, self.options.search.snap_radius);
        if goal != self.goal {
            self.goal = goal;
            self.pending = true;
        }
        let Some(goal) = goal else {
            self.plan = None;
            return Input::IDLE;
        };
        if let Some(plan) = &mut self.plan {
            let len = plan.path.inputs().len();
            let on_plan =
                plan.tick < len && close(&plan.expected[plan.tick], body, self.options.tolerance);
            if on_plan {
                let boundary = plan.tick == 0 || plan.boundaries.contains(&plan.tick);
                if !(self.pending && boundary) {
                    let input = plan.path.inputs()[plan.tick];
                    plan.tick += 1;
                    return input;
                }
            }
            self.plan = None;
        }
        let p = map.physics();
        let Some(cell) = body.standing_cell() else {
            // Airborne and off plan: steer toward the target, keep rising.
            let dx = f64::from(target.col) + 0.5 - body.x;
            let dir = if dx.abs() < 0.1 {
                0
            } else if dx > 0.0 {
                1
            } else {
                -1
            };
            let hold = body.jump_held_last_tick && body.vy < 0.0;
            return Input::new(dir, hold, false);
        };
        if cell == goal {
            self.pending = false;
            return settle_input(body, f64::from(cell.col) + 0.5, p).unwrap_or(Input::IDLE);
        }
        // Paths start at rest on a cell's centre: get there first.
        if let Some(input) = settle_input(body, f64::from(cell.col) + 0.5, p) {
            return input;
        }
        if self.failed == Some((cell, goal)) {
            return Input::IDLE;
        }
        match map.find_path(cell, goal, &self.options.search) {
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
                input
            }
            Ok(_) => {
                self.pending = false;
                Input::IDLE
            }
            Err(_) => {
                self.failed = Some((cell, goal));
                Input::IDLE
            }
        }
    }
}
