//! A program performed on a model: its flight to where the body stands
//! again, and the settle that brings the body to rest on a cell's middle.

use super::programs::{Jump, Program};
use crate::level::{Cell, Level};
use crate::model::BodyModel;
use crate::physics::Input;

/// The most ticks a program's flight may take before it stands again.
pub(crate) const FLIGHT_LIMIT: usize = 600;
/// The most ticks a settle may take.
pub(crate) const SETTLE_LIMIT: usize = 240;
/// The most ticks braking may take to bring the body to rest.
const BRAKE_LIMIT: usize = 120;
/// The most ticks a program may stay on the ground after its run-up.
pub(crate) const GROUND_LIMIT: usize = 120;
/// How far from a cell's middle (tiles) a settled body may rest.
pub(crate) const SETTLE_TOLERANCE: f64 = 0.07;

/// A body being performed, with the inputs it was given.
#[derive(Clone)]
pub(crate) struct Run<S> {
    pub state: S,
    pub tape: Vec<Input>,
    /// The body has left the ground since the current jump began.
    pub airborne: bool,
    /// The tape's length when the current jump began: its tick 0.
    pub origin: usize,
}

impl<S: Clone> Run<S> {
    pub fn new(state: S) -> Self {
        Self {
            state,
            tape: Vec::new(),
            airborne: false,
            origin: 0,
        }
    }

    /// A second jump begins now: on the ground it just landed on.
    pub fn again(&mut self) {
        self.airborne = false;
        self.origin = self.tape.len();
    }
}

/// One tick of `input`; `false` when the body died.
pub(crate) fn tick<M: BodyModel>(
    m: &M,
    level: &Level,
    r: &mut Run<M::State>,
    input: Input,
) -> bool {
    m.step(level, &mut r.state, input);
    r.tape.push(input);
    r.airborne |= m.standing_cell(&r.state).is_none();
    !m.dead(&r.state)
}

/// Whether a run that left the ground stands again.
pub(crate) fn landed<M: BodyModel>(m: &M, r: &Run<M::State>) -> bool {
    r.airborne && m.standing_cell(&r.state).is_some()
}

/// Performs `program` from `r` until the body stands again after leaving
/// the ground (or, for a run, stands on the next column). `false` when it
/// dies, never leaves the ground, or flies too long.
pub(crate) fn fly<M: BodyModel>(m: &M, level: &Level, r: &mut Run<M::State>, p: &Program) -> bool {
    match *p {
        Program::Run { dir } => run(m, level, r, dir),
        Program::WalkOff { dir, steer } => {
            leave(m, level, r, Input::new(dir, false, false))
                && air(m, level, r, Input::new(steer, false, false))
        }
        Program::Drop => {
            leave(m, level, r, Input::new(0, false, true)) && air(m, level, r, Input::IDLE)
        }
        Program::Jump(j) => jump_until(m, level, r, &j, usize::MAX) == Flight::Landed,
        Program::Climb(c) => super::climb::fly(m, level, r, c),
        Program::Wall(w) => super::wall::fly(m, level, r, w),
        Program::Edge(e) => {
            super::edge::run_up(m, level, r, &e)
                && jump_until(m, level, r, &e.jump, usize::MAX) == Flight::Landed
        }
        Program::Hop(j, again) => {
            jump_until(m, level, r, &j, usize::MAX) == Flight::Landed && {
                r.again();
                jump_until(m, level, r, &again, usize::MAX) == Flight::Landed
            }
        }
    }
}

/// Settles on the next column's middle, `dir` of the start, on the same
/// row.
fn run<M: BodyModel>(m: &M, level: &Level, r: &mut Run<M::State>, dir: i8) -> bool {
    let Some(from) = m.standing_cell(&r.state) else {
        return false;
    };
    settle(m, level, r, Cell::new(from.col + i32::from(dir), from.row))
}

/// Holds `input` until the body leaves the ground.
fn leave<M: BodyModel>(m: &M, level: &Level, r: &mut Run<M::State>, input: Input) -> bool {
    for _ in 0..GROUND_LIMIT {
        if !tick(m, level, r, input) {
            return false;
        }
        if r.airborne {
            return true;
        }
    }
    false
}

/// Holds `input` until the body stands again.
fn air<M: BodyModel>(m: &M, level: &Level, r: &mut Run<M::State>, input: Input) -> bool {
    while r.tape.len() < FLIGHT_LIMIT {
        if !tick(m, level, r, input) {
            return false;
        }
        if landed(m, r) {
            return true;
        }
    }
    false
}

/// Where a jump's performance stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flight {
    /// The body stands again after leaving the ground.
    Landed,
    /// The tape holds the inputs asked for, and the body has not landed.
    Paused,
    /// It died, left the ground in its run-up, never left the ground, or
    /// flew too long.
    Failed,
}

/// Performs jump `j` from `r` until the body lands or the jump has taken
/// `pause` ticks.
pub(crate) fn jump_until<M: BodyModel>(
    m: &M,
    level: &Level,
    r: &mut Run<M::State>,
    j: &Jump,
    pause: usize,
) -> Flight {
    while r.tape.len() < FLIGHT_LIMIT {
        if r.tape.len() - r.origin == pause {
            return Flight::Paused;
        }
        let t = r.tape.len() - r.origin;
        let standing = m.standing_cell(&r.state).is_some();
        let Some(input) = j.input(t, standing) else {
            return Flight::Failed;
        };
        if !tick(m, level, r, input) {
            return Flight::Failed;
        }
        if landed(m, r) {
            return Flight::Landed;
        }
        if !r.airborne && t + 1 >= j.run_up + GROUND_LIMIT {
            return Flight::Failed;
        }
    }
    Flight::Failed
}

/// The cell braking alone brings the body to rest on, if it does.
pub(crate) fn rest_cell<M: BodyModel>(m: &M, level: &Level, state: &M::State) -> Option<Cell> {
    let mut s = state.clone();
    for _ in 0..BRAKE_LIMIT {
        if m.at_rest(&s) {
            return m.standing_cell(&s);
        }
        m.step(level, &mut s, Input::IDLE);
        if m.dead(&s) || m.standing_cell(&s).is_none() {
            return None;
        }
    }
    None
}

/// Brings the body to rest within [`SETTLE_TOLERANCE`] of `cell`'s middle,
/// standing on `cell`: `false` when it cannot within [`SETTLE_LIMIT`].
pub(crate) fn settle<M: BodyModel>(
    m: &M,
    level: &Level,
    r: &mut Run<M::State>,
    cell: Cell,
) -> bool {
    let mid = f64::from(cell.col) + 0.5;
    for _ in 0..SETTLE_LIMIT {
        let x = m.feet(&r.state)[0];
        if m.at_rest(&r.state) && (x - mid).abs() <= SETTLE_TOLERANCE {
            return m.standing_cell(&r.state) == Some(cell);
        }
        let input = settle_input(m, level, &r.state, mid);
        if !tick(m, level, r, input) {
            return false;
        }
    }
    false
}

/// The settle's next input: toward the middle, unless braking from here
/// already stops within the tolerance of it or beyond.
fn settle_input<M: BodyModel>(m: &M, level: &Level, state: &M::State, mid: f64) -> Input {
    let x = m.feet(state)[0];
    let dir: i8 = if mid > x { 1 } else { -1 };
    let toward = Input::new(dir, false, false);
    let d = f64::from(dir);
    if m.velocity(state)[0] * d < 0.0 {
        return toward;
    }
    let mut s = state.clone();
    for _ in 0..BRAKE_LIMIT {
        if m.velocity(&s)[0] == 0.0 {
            break;
        }
        m.step(level, &mut s, Input::IDLE);
    }
    let short = (mid - m.feet(&s)[0]) * d;
    if short > SETTLE_TOLERANCE {
        toward
    } else {
        Input::IDLE
    }
}
