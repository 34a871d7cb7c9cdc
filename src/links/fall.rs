//! Fall links: walk off an edge, then steer in the air.
//!
//! Programs: walk in direction `d` until airborne; then keep `d`, or after
//! `k` air ticks switch to idle or to `-d` (k in 0, 3, 6, 10, 15, 22, 32).
//!
//! The programs of one direction share their prefix: the walk to the edge is
//! simulated once, and each steering switch branches off the `d` flight at
//! its tick ([`Sim::steered`]), exactly as simulating each program from
//! scratch would.

use super::{Best, LinkKind, MAX_ACTION_TICKS, Sim, full_speed_ticks, steering};
use crate::physics::{Body, Input};

/// Air ticks after which the steering switches.
pub(super) const RECOVERY_SWITCH_TICKS: [usize; 7] = [0, 3, 6, 10, 15, 22, 32];

pub(super) fn generate<'a>(sim: &impl Fn() -> Sim<'a>, best: &mut Best) {
    let p = sim().p;
    // Walking more than this many ticks without leaving the ground means
    // there is no edge within reach: give up.
    let walk_limit =
        full_speed_ticks(p) + (1.5 / (p.run_speed * p.dt).max(1e-6)).ceil() as usize + 2;
    for d in [-1i8, 1] {
        let Some(edge) = walk_off(sim(), d, walk_limit) else {
            continue;
        };
        let air_start = edge.tape.len();
        let switches = RECOVERY_SWITCH_TICKS.map(|k| air_start + k);
        let steer =
            move |sched| move |t, _: &Body| Some(Input::new(steering(d, sched, t), false, false));
        for s in edge.steered(switches, [0, -d], steer) {
            let link = s.land(LinkKind::Fall, best);
            best.offer(link);
        }
    }
}

/// Walks `d` until the body is airborne; `None` when it dies, times out or
/// walks `walk_limit` ticks without leaving the ground.
fn walk_off(mut s: Sim<'_>, d: i8, walk_limit: usize) -> Option<Sim<'_>> {
    while s.tape.len() < MAX_ACTION_TICKS {
        if !s.body.grounded {
            return Some(s);
        }
        if s.tape.len() > walk_limit || !s.step(Input::new(d, false, false)) {
            return None;
        }
        if !s.body.grounded {
            s.airborne = true;
        }
    }
    None
}
