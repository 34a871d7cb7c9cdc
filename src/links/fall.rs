//! Fall links: walk off an edge, then steer in the air.
//!
//! Programs: walk in direction `d` until airborne; then keep `d`, or after
//! `k` air ticks switch to idle or to `-d` (k in 0, 3, 6, 10, 15, 22, 32).

use super::{Best, LinkKind, Sim, full_speed_ticks};
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
        let mut schedules: Vec<Option<(usize, i8)>> = vec![None];
        for &k in &SWITCH_TICKS {
            schedules.push(Some((k, 0)));
            schedules.push(Some((k, -d)));
        }
        for sched in schedules {
            let mut s = sim();
            let mut air_start: Option<usize> = None;
            let ok = s.fly(|t, body| {
                if air_start.is_none() && !body.grounded {
                    air_start = Some(t);
                }
                let mv = match (air_start, sched) {
                    (None, _) => {
                        if t > walk_limit {
                            return None;
                        }
                        d
                    }
                    (Some(a), Some((k, b))) if t - a >= k => b,
                    _ => d,
                };
                Some(Input::new(mv, false, false))
            });
            if ok {
                let link = s.land(LinkKind::Fall, best);
                best.offer(link);
            } else if air_start.is_none() {
                // No edge this way: every schedule would walk the same.
                break;
            }
        }
    }
}
