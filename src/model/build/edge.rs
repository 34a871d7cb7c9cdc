//! Edge take-offs for a model: jumps that leave in the last ticks before
//! a ledge, which the regular run-ups (none, half and all of the ticks to
//! top speed, from the cell's middle) miss when the jump must leave late;
//! and the same after backing up to the far edge first, for the run-up a
//! platform too narrow to hold two standing cells still gives.
//!
//! For `d` = -1 and +1, with `W` the program's walk limit (the probe's
//! ticks to top speed, plus the ticks a tile takes at top speed, plus 1,
//! at most the ground limit of `perform.rs`), a *walk* in a direction is
//! that direction held (no jump) for at most `W` ticks, and its *leave
//! tick* `L` is the first tick after which the body stands on no cell or
//! is dead (counted from 0); a walk that stands on a cell, alive, after
//! all `W` ticks has none.
//! - Without a back-up, the run starts from the body where it is.
//! - With a back-up, let `B` be the leave tick of the walk `-d` from
//!   where the body is (none: no program). For `b` from `B - 1` down to
//!   `max(B - 8, 1)`, the body walks `-d` for `b` ticks and then `d`; the
//!   back-up is the first `b` whose walk `d` has a leave tick after which
//!   the feet are beyond where they started, in direction `d` (none: no
//!   program). The run starts after those `b` ticks of `-d`.
//! - From the run's start, with `L` the leave tick of its walk `d` (none:
//!   no program), the body holds `d` for `L - e` ticks (`e` the program's
//!   0 or 1 ticks early; none when `L < e`), and then jumps: the jump
//!   program's hold and steering, with no run-up, counted from there.
//!
//! The programs, for each `d`, with and without a back-up and for `e` of
//! 0 and 1: each hold of the jump programs, moving `d`, and each of them
//! switching at each of the jump programs' switch ticks to moving `-d` or
//! not moving (no down held).

use super::perform::{Run, tick};
use super::programs::Jump;
use crate::level::Level;
use crate::model::BodyModel;
use crate::physics::Input;

/// How many back-ups are tried, from the longest down.
pub(crate) const BACK_TRIES: usize = 8;

/// An edge take-off (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Edge {
    /// The ticks a walk may take: `W`.
    pub walk: usize,
    /// Back up to the far edge first.
    pub back: bool,
    /// Take off this many ticks before the walk leaves the ground: `e`.
    pub early: usize,
    /// The jump from there: its direction is `d`, its run-up 0.
    pub jump: Jump,
}

/// The leave tick of holding `input` from `state`, with the state after
/// that tick.
fn leave<M: BodyModel>(
    m: &M,
    level: &Level,
    state: &M::State,
    input: Input,
    walk: usize,
) -> Option<(usize, M::State)> {
    let mut s = state.clone();
    (0..walk).find_map(|t| {
        m.step(level, &mut s, input);
        (m.dead(&s) || m.standing_cell(&s).is_none()).then(|| (t, s.clone()))
    })
}

/// The ticks of `-d` a back-up takes from `state`, if there is one.
fn back_up<M: BodyModel>(m: &M, level: &Level, state: &M::State, e: &Edge) -> Option<usize> {
    let d = e.jump.dir;
    let (away, toward) = (Input::new(-d, false, false), Input::new(d, false, false));
    let (b_leave, _) = leave(m, level, state, away, e.walk)?;
    // The states after 0, 1, ... `b_leave - 1` ticks of `-d`.
    let mut states = vec![state.clone()];
    for _ in 1..b_leave {
        let mut s = states[states.len() - 1].clone();
        m.step(level, &mut s, away);
        states.push(s);
    }
    let x0 = m.feet(state)[0];
    let lowest = b_leave.saturating_sub(BACK_TRIES).max(1);
    (lowest..b_leave).rev().find(|&b| {
        leave(m, level, &states[b], toward, e.walk)
            .is_some_and(|(_, s)| (m.feet(&s)[0] - x0) * f64::from(d) > 0.0)
    })
}

/// Performs the edge take-off's walks on `r`, up to the tick the jump is
/// pressed, which becomes the jump's tick 0; `false` when the program has
/// none from here.
pub(crate) fn run_up<M: BodyModel>(m: &M, level: &Level, r: &mut Run<M::State>, e: &Edge) -> bool {
    let d = e.jump.dir;
    let back = if e.back {
        match back_up(m, level, &r.state, e) {
            Some(b) => b,
            None => return false,
        }
    } else {
        0
    };
    for _ in 0..back {
        if !tick(m, level, r, Input::new(-d, false, false)) {
            return false;
        }
    }
    let Some((l, _)) = leave(m, level, &r.state, Input::new(d, false, false), e.walk) else {
        return false;
    };
    if l < e.early {
        return false;
    }
    for _ in 0..l - e.early {
        if !tick(m, level, r, Input::new(d, false, false)) {
            return false;
        }
    }
    r.again();
    true
}

/// The walks of the last edge take-off performed from a start, kept for
/// the programs after it with the same direction, back-up and earliness
/// (its holds and switches), which share them.
pub(crate) struct Walked<S> {
    key: Option<(i8, bool, usize)>,
    run: Option<Run<S>>,
}

impl<S: Clone> Walked<S> {
    pub fn new() -> Self {
        Self {
            key: None,
            run: None,
        }
    }

    /// Where `e`'s walks from `start` leave the body, if they do.
    pub fn from<M: BodyModel<State = S>>(
        &mut self,
        m: &M,
        level: &Level,
        start: &Run<S>,
        e: &Edge,
    ) -> Option<Run<S>> {
        let key = (e.jump.dir, e.back, e.early);
        if self.key != Some(key) {
            let mut r = start.clone();
            self.run = run_up(m, level, &mut r, e).then_some(r);
            self.key = Some(key);
        }
        self.run.clone()
    }
}
