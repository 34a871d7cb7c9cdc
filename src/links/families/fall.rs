//! Fall links: walk off an edge, then steer in the air.
//!
//! Programs: walk in direction `d` until airborne; then keep `d`, or after
//! `k` air ticks switch to idle or to `-d` (k in 0, 3, 6, 10, 15, 22, 32).
//!
//! The programs of one direction share their prefix: the walk to the edge is
//! simulated once, and each steering switch branches off the `d` flight at
//! its tick ([`Sim::steered`]), exactly as simulating each program from
//! scratch would.
//!
//! Two jump programs start from the same walk off the edge, when the
//! profile forgives late and early presses (`PHYSICS.md`, "Coyote time and
//! jump buffering"); their links are jumps. With `A` the apex ticks and the
//! holds `H` 4 and `A` (`A` alone when the jump cannot be cut):
//! - **coyote jump** (`coyote_ticks` above 0): press the jump on air tick
//!   `a` (0 and `coyote_ticks - 1`) after leaving the ground, hold it `H`
//!   ticks, moving `d` throughout or switching to idle `A` ticks after the
//!   press;
//! - **buffered bounce** (`jump_buffer_ticks` above 0): with `L` the tape
//!   length at which the kept `d` fall lands, press the jump on tick `L -
//!   jump_buffer_ticks` (the earliest press the buffer keeps) and hold it
//!   until tick `L + H`, moving `d` throughout, so that the body jumps
//!   again on the tick after it lands; the link ends at the next landing.
//!   There is no program when the press would fall on the ground or in
//!   coyote time, or when the body is on the ground after tick `L`.

use super::family::Engine;
use super::jump::programs::kind_of;
use super::start::Start;
use crate::links::best::Best;
use crate::links::cache::WorkerGuard;
use crate::links::sim::{Flight, Sim, apex_ticks, full_speed_ticks, tick_set};
use crate::mechanics::LinkKind;
use crate::mechanics::seam::{KindSpec, steering};
use crate::physics::{Body, Input, Physics};

/// Falls off an edge, steered in the air (and coyote jumps and buffered
/// bounces from the same walk off it).
pub(super) const FALL: Engine = Engine {
    kinds: &[KindSpec {
        kind: LinkKind::FALL,
        name: "fall",
        letter: 'f',
        colour: [110, 160, 255],
    }],
    applies: |_, _| true,
    programs: |p, _| 2 * (SWITCH_TICKS.len() * 2 + 1) + forgiving_programs(p),
    generate,
};

impl LinkKind {
    /// Walking off an edge, with air control.
    pub const FALL: LinkKind = LinkKind::with_id(1);
}

/// Air ticks after which the steering switches.
const SWITCH_TICKS: [usize; 7] = [0, 3, 6, 10, 15, 22, 32];

fn generate(s: &Start<'_>, worker: &mut WorkerGuard<'_>, best: &mut Best) {
    let memo = Some(&worker.get().memo);
    let sim = || s.sim(memo);
    perform(&sim, best);
}

fn perform<'a>(sim: &impl Fn() -> Sim<'a>, best: &mut Best) {
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
        let switches = SWITCH_TICKS.map(|k| air_start + k);
        let steer =
            move |sched| move |t, _: &Body| Some(Input::new(steering(d, sched, t), false, false));
        if p.coyote_ticks > 0 {
            coyote(&edge, d, best);
        }
        if p.jump_buffer_ticks > 0 {
            bounce(&edge, d, best);
        }
        for s in edge.steered(switches, [0, -d], steer) {
            let link = s.land(LinkKind::FALL, best);
            best.offer(link);
        }
    }
}

/// The air ticks after leaving the ground on which a coyote jump presses.
fn coyote_delays(p: &Physics) -> Vec<usize> {
    if p.coyote_ticks == 0 {
        return Vec::new();
    }
    let mut v = vec![0, p.coyote_ticks as usize - 1];
    v.dedup();
    v
}

/// How long coyote jumps and bounces hold the jump.
fn forgiving_holds(p: &Physics) -> Vec<usize> {
    let apex = apex_ticks(p);
    if p.jump_cut_speed >= p.jump_speed && !p.boosts() {
        vec![apex]
    } else {
        tick_set([4, apex], apex)
    }
}

/// Programs of the coyote and bounce families per cell for `p`.
fn forgiving_programs(p: &Physics) -> usize {
    let holds = forgiving_holds(p).len();
    let bounce = if p.jump_buffer_ticks > 0 { holds } else { 0 };
    2 * (coyote_delays(p).len() * holds * 2 + bounce)
}

/// Coyote jumps from `edge`, the body that just left the ground moving `d`.
fn coyote(edge: &Sim<'_>, d: i8, best: &mut Best) {
    let p = edge.p;
    let air_start = edge.tape.len();
    let apex = apex_ticks(p);
    for a in coyote_delays(p) {
        let press = air_start + a;
        for hold in forgiving_holds(p) {
            for idle_at in [None, Some(press + apex)] {
                let mut s = edge.clone();
                let landed = s.fly(|t, _| {
                    let jump = t >= press && t < press + hold;
                    let mv = match idle_at {
                        Some(k) if t >= k => 0,
                        _ => d,
                    };
                    Some(Input::new(mv, jump, false))
                });
                if landed {
                    let kind = kind_of(s.jumps);
                    let link = s.land(kind, best);
                    best.offer(link);
                }
            }
        }
    }
}

/// Buffered bounces from `edge`, the body that just left the ground moving
/// `d`.
fn bounce(edge: &Sim<'_>, d: i8, best: &mut Best) {
    let p = edge.p;
    let keep = |_: usize, _: &Body| Some(Input::new(d, false, false));
    let mut fall = edge.clone();
    if !fall.fly(keep) {
        return;
    }
    let land = fall.tape.len();
    let Some(press) = land.checked_sub(p.jump_buffer_ticks as usize) else {
        return;
    };
    if press < edge.tape.len() + p.coyote_ticks as usize {
        return;
    }
    for hold in forgiving_holds(p) {
        let input = |t: usize| Input::new(d, t >= press && t < land + hold, false);
        let mut s = edge.clone();
        // The fall up to the press, then every tick to the landing and the
        // jump after it, whatever the body does on them.
        if s.run(keep, Some(press)) != Flight::Paused {
            continue;
        }
        let mut alive = true;
        for t in press..=land {
            if s.timed_out() || !s.step(input(t)) {
                alive = false;
                break;
            }
        }
        if !alive || s.body.grounded {
            continue;
        }
        s.airborne = true;
        if s.fly(|t, _| Some(input(t))) {
            let kind = kind_of(s.jumps);
            let link = s.land(kind, best);
            best.offer(link);
        }
    }
}

/// Walks `d` until the body is airborne; `None` when it dies, times out or
/// walks `walk_limit` ticks without leaving the ground.
fn walk_off(mut s: Sim<'_>, d: i8, walk_limit: usize) -> Option<Sim<'_>> {
    while !s.timed_out() {
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
