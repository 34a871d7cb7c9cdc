//! Edge take-offs: jumps that leave in the last ticks before a ledge,
//! which the regular run-ups (0, half and all of the ticks to full speed)
//! miss when the start cell is near the ledge and the jump must leave
//! late (under a low ceiling, or across a gap at the limit of the jump).
//!
//! For `d` = -1 and +1: from standing on the start cell, hold `move = d`
//! (no jump) for at most `W = min(full + ceil(1 / (run_speed * dt)) + 1,
//! floor(A / 4))` ticks (`full` the ticks to full run speed, `A` the action
//! limit): the run to full speed and a tile more. If the body is grounded
//! and alive after each of those ticks, there is no edge take-off. Else,
//! with `leave` the first tick after which it is not grounded or is dead
//! (walking off over spikes kills on the tick the body leaves the ground,
//! and walking into them ends the run as surely as a ledge does), every
//! run-up `r` from `max(0, leave + 1 - EDGE_TICKS)` to `leave` that is not
//! one of the regular run-ups gives a program: `r` ticks of `move = d`,
//! then the jump held for the apex ticks, steering as the regular jump
//! programs do (the same switch ticks, to idle or to `-d`).

use super::programs::{Base, Steered, regular_run_ups, switch_ticks};
use crate::links::options::{JumpVariety, action_limit};
use crate::links::sim::{Sim, apex_ticks, full_speed_ticks};
use crate::physics::{Input, Physics};

/// How many of the last ticks before the ledge are tried as take-offs:
/// the last one finds most of what the edge take-offs add and the one
/// before it a few more; the programs of each cost about a twentieth of a
/// build, as they are simulated where the others are served from their
/// templates.
pub(crate) const EDGE_TICKS: usize = 2;

/// The most programs the edge take-offs add from one standing cell, each
/// direction's walk toward its ledge counted as one.
pub(crate) fn max_programs(p: &Physics, variety: JumpVariety) -> usize {
    2 * (EDGE_TICKS * (2 * switch_ticks(p, variety).len() + 1) + 1)
}

/// The longest walk toward a ledge, `W` in the module's notes.
pub(crate) fn walk_ticks(p: &Physics) -> usize {
    let cap = action_limit(p) / 4;
    let per_tick = p.run_speed * p.dt;
    if per_tick <= 0.0 {
        return cap;
    }
    let tile = (1.0 / per_tick).ceil();
    let w = full_speed_ticks(p) as f64 + tile + 1.0;
    if w >= cap as f64 { cap } else { w as usize }
}

/// The tick after which a body walking `d` from the start leaves the
/// ground or dies, when it does within [`walk_ticks`] ticks.
fn leave_tick(mut s: Sim<'_>, d: i8) -> Option<usize> {
    (0..walk_ticks(s.p)).find(|_| !s.step(Input::new(d, false, false)) || !s.body.grounded)
}

/// The edge take-off programs from the start of `sim` (a fresh sim on the
/// start cell, for each direction).
pub(crate) fn families<'a>(
    sim: impl Fn() -> Sim<'a>,
    p: &Physics,
    variety: JumpVariety,
) -> Vec<Steered> {
    let apex = apex_ticks(p);
    let switches = switch_ticks(p, variety);
    let regular = regular_run_ups(p, variety);
    let mut out = Vec::new();
    for dir in [-1i8, 1] {
        let Some(leave) = leave_tick(sim(), dir) else {
            continue;
        };
        for run_up in (leave + 1).saturating_sub(EDGE_TICKS)..=leave {
            if regular.contains(&run_up) {
                continue;
            }
            out.push(Steered {
                base: Base::single(dir, run_up, apex),
                switches: switches.clone(),
                targets: vec![0, -dir],
            });
        }
    }
    out
}
