//! Jump and double-jump links.
//!
//! The program family, for each direction `d` in {-1, 0, +1}:
//! - run-up: `r` ticks of `move = d` on the ground before the press
//!   (0, half and all of the ticks to reach full speed; 0 only for `d = 0`);
//! - hold: the jump is held for `H` ticks (2, 4, 7, 11, 16 and the apex tick
//!   count), giving variable height when `jump_cut_speed` is lower than
//!   `jump_speed`;
//! - steering: `move = d` in the air, or after `k` flight ticks (3, 8, half
//!   the apex ticks, the apex ticks, 1.5 times them) switch to idle or to
//!   `-d` (for `d = 0`: to -1 or +1);
//! - double jump (when `air_jumps > 0`): full first jump, release, press
//!   again at flight tick `t2` (half, one and 1.5 times the apex ticks) and
//!   hold 4 ticks or to the apex, steering as above from `t2` on.
//!
//! Programs that share a prefix share its simulation: the body is cloned at
//! each steering switch instead of being re-run from the start.

use super::{Best, Flight, LinkKind, Sim, apex_ticks, full_speed_ticks, tick_set};
use crate::physics::{Body, Input, Physics};

/// The part of a program before any steering switch.
#[derive(Clone, Copy)]
struct Base {
    dir: i8,
    run_up: usize,
    /// (start flight tick, hold ticks) of each press.
    presses: [(usize, usize); 2],
    n_presses: usize,
}

impl Base {
    fn input(&self, t: usize, body: &Body, steer: Option<(usize, i8)>) -> Option<Input> {
        if t < self.run_up {
            if !body.grounded {
                return None;
            }
            return Some(Input::new(self.dir, false, false));
        }
        let ft = t - self.run_up;
        let jump = self.presses[..self.n_presses]
            .iter()
            .any(|&(start, hold)| ft >= start && ft < start + hold);
        let mv = match steer {
            Some((k, b)) if ft >= k => b,
            _ => self.dir,
        };
        Some(Input::new(mv, jump, false))
    }
}

fn kind_of(s: &Sim<'_>) -> LinkKind {
    if s.jumps >= 2 {
        LinkKind::DoubleJump
    } else {
        LinkKind::Jump
    }
}

/// Runs `base`, branching off every steering option at its switch tick.
fn run_family<'a>(
    sim: &impl Fn() -> Sim<'a>,
    base: Base,
    switches: &[usize],
    targets: &[i8],
    best: &mut Best,
) {
    let mut s = sim();
    for &k in switches {
        match s.run(|t, b| base.input(t, b, None), Some(base.run_up + k)) {
            Flight::Paused => {
                for &b in targets {
                    let mut br = s.clone();
                    if br.fly(|t, body| base.input(t, body, Some((k, b)))) {
                        let kind = kind_of(&br);
                        let link = br.land(kind, best);
                        best.offer(link);
                    }
                }
            }
            // Landed or failed before the switch: every later branch is the base.
            _ => {
                if s.airborne && s.body.grounded && !s.body.dead {
                    let kind = kind_of(&s);
                    let link = s.land(kind, best);
                    best.offer(link);
                }
                return;
            }
        }
    }
    if s.fly(|t, b| base.input(t, b, None)) {
        let kind = kind_of(&s);
        let link = s.land(kind, best);
        best.offer(link);
    }
}

pub(super) fn generate<'a>(sim: &impl Fn() -> Sim<'a>, p: &Physics, best: &mut Best) {
    let apex = apex_ticks(p);
    let full = full_speed_ticks(p);
    let holds = if p.jump_cut_speed >= p.jump_speed {
        vec![apex]
    } else {
        tick_set([2, 4, 7, 11, 16, apex], apex)
    };
    let switches = tick_set([3, 8, apex / 2, apex, apex + apex / 2], 4 * apex);
    for dir in [-1i8, 0, 1] {
        let targets: Vec<i8> = if dir == 0 { vec![-1, 1] } else { vec![0, -dir] };
        let run_ups = if dir == 0 {
            vec![0]
        } else {
            let mut v = vec![0, full / 2, full];
            v.dedup();
            v
        };
        for &run_up in &run_ups {
            for &hold in &holds {
                let base = Base {
                    dir,
                    run_up,
                    presses: [(0, hold), (0, 0)],
                    n_presses: 1,
                };
                run_family(sim, base, &switches, &targets, best);
            }
            if p.air_jumps > 0 && (dir == 0 || run_up != full / 2) {
                for t2 in tick_set([apex / 2, apex, apex + apex / 2], 3 * apex) {
                    for h2 in tick_set([4, apex], apex) {
                        let base = Base {
                            dir,
                            run_up,
                            presses: [(0, apex.min(t2.saturating_sub(1)).max(1)), (t2, h2)],
                            n_presses: 2,
                        };
                        let switches = tick_set([t2, t2 + apex / 2, t2 + apex], 5 * apex);
                        run_family(sim, base, &switches, &targets, best);
                    }
                }
            }
        }
    }
}
