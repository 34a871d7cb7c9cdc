//! Fall links: walk off an edge, then steer in the air.
//!
//! Programs: walk in direction `d` until airborne; then keep `d`, or after
//! `k` air ticks switch to idle or to `-d` (k in 0, 3, 6, 10, 15, 22, 32).
//!
//! The programs of one direction share their prefix: the walk to the edge is
//! simulated once, and each steering switch branches off the `d` flight at
//! its tick, exactly as simulating each program from scratch would.

use super::{Best, Flight, LinkKind, MAX_ACTION_TICKS, Sim, full_speed_ticks};
use crate::physics::Input;

/// Air ticks after which the steering switches.
pub(super) const SWITCH_TICKS: [usize; 7] = [0, 3, 6, 10, 15, 22, 32];

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
        for s in flights(edge, d).into_iter().flatten() {
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

/// The flights of every steering schedule from the first airborne tick, in
/// program order (keep `d`, then idle and `-d` at each switch tick): the
/// landed sim of each, or `None` where it died or timed out.
fn flights(mut base: Sim<'_>, d: i8) -> Vec<Option<Sim<'_>>> {
    let air_start = base.tape.len();
    let mv =
        move |m: i8| move |_: usize, _: &crate::physics::Body| Some(Input::new(m, false, false));
    // Branches in program order after the base: (k, 0), (k, -d) for each k.
    let mut branches = Vec::with_capacity(2 * SWITCH_TICKS.len());
    let mut base_end = None;
    for &k in &SWITCH_TICKS {
        match base.run(mv(d), Some(air_start + k)) {
            Flight::Paused => {
                for b in [0, -d] {
                    let mut s = base.clone();
                    branches.push(s.fly(mv(b)).then_some(s));
                }
            }
            end => {
                base_end = Some(end);
                break;
            }
        }
    }
    let landed = match base_end {
        Some(end) => end == Flight::Landed,
        None => base.fly(mv(d)),
    };
    let base = landed.then_some(base);
    let mut out = Vec::with_capacity(1 + 2 * SWITCH_TICKS.len());
    out.push(base.clone());
    out.extend(branches);
    // A switch after the base ended changes nothing: that program is the base.
    out.resize(1 + 2 * SWITCH_TICKS.len(), base);
    out
}
