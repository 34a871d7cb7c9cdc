//! The jump and double-jump programs.
//!
//! The program family, for each direction `d` in {-1, 0, +1}, with
//! [`JumpVariety::Full`] (the [`JumpVariety::Coarse`] set in brackets, a
//! subset of each):
//! - run-up: `r` ticks of `move = d` on the ground before the press
//!   (0, half and all of the ticks to reach full speed [0 and all]; 0 only
//!   for `d = 0`);
//! - hold: the jump is held for `H` ticks (2, 4, 7, 11, 16 and the apex tick
//!   count [4, 11 and the apex tick count]), giving variable height when
//!   `jump_cut_speed` is lower than `jump_speed` or the jump boost is on;
//! - steering: `move = d` in the air, or after `k` flight ticks (3, 8, half
//!   the apex ticks, the apex ticks, 1.5 times them [8, the apex ticks, 1.5
//!   times them]) switch to idle or to `-d` (for `d = 0`: to -1 or +1);
//! - double jump (when `air_jumps > 0`): full first jump, release, press
//!   again at flight tick `t2` (half, one and 1.5 times the apex ticks) and
//!   hold 4 ticks or to the apex, steering as above from `t2` on.
//!
//! Near a ledge, the edge take-offs (`edge.rs`) add the run-ups of the last
//! ticks before the body would walk off it.
//!
//! Programs that share a prefix share its simulation: the body is cloned at
//! each steering switch instead of being re-run from the start.

use crate::links::best::Best;
use crate::links::options::JumpVariety;
use crate::links::sim::{Flight, Sim, Twins, apex_ticks, full_speed_ticks, tick_set};
use crate::mechanics::LinkKind;
use crate::mechanics::seam::steering;
use crate::physics::{Body, Input, Physics};

/// The part of a program before any steering switch.
#[derive(Clone, Copy)]
pub(crate) struct Base {
    pub dir: i8,
    pub run_up: usize,
    /// (start flight tick, hold ticks) of each press.
    pub presses: [(usize, usize); 2],
    pub n_presses: usize,
}

impl Base {
    /// One press held `hold` ticks after `run_up` ticks moving `dir`.
    pub fn single(dir: i8, run_up: usize, hold: usize) -> Self {
        Self {
            dir,
            run_up,
            presses: [(0, hold), (0, 0)],
            n_presses: 1,
        }
    }

    /// The input of tick `t`, or `None` when the run-up left the ground.
    pub fn input(&self, t: usize, body: &Body, steer: Option<(usize, i8)>) -> Option<Input> {
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
        Some(Input::new(steering(self.dir, steer, ft), jump, false))
    }
}

/// A base program and its steering branches: at flight tick `k` of each of
/// `switches`, one branch per direction of `targets` leaves the base.
pub(crate) struct Steered {
    pub base: Base,
    pub switches: Vec<usize>,
    pub targets: Vec<i8>,
}

pub(crate) fn kind_of(jumps: u8) -> LinkKind {
    if jumps >= 2 {
        LinkKind::DOUBLE_JUMP
    } else {
        LinkKind::JUMP
    }
}

/// Lands a sim whose flight ended, if it ended on the ground, as a link of
/// the kind `kind` gives its presses.
fn offer_landing(s: Sim<'_>, best: &mut Best, kind: &dyn Fn(u8) -> LinkKind) {
    let kind = kind(s.jumps);
    let link = s.land(kind, best);
    best.offer(link);
}

/// Flies one steering branch of `base` to its landing.
pub(crate) fn fly_branch(s: Sim<'_>, base: Base, steer: (usize, i8), best: &mut Best) {
    fly_noting(s, base, steer, &[], &mut Twins::default(), best, &kind_of);
}

/// [`fly_branch`], noting in `twins` the branch's states at the tape
/// indices `marks`.
fn fly_noting(
    mut s: Sim<'_>,
    base: Base,
    steer: (usize, i8),
    marks: &[usize],
    twins: &mut Twins,
    best: &mut Best,
    kind: &dyn Fn(u8) -> LinkKind,
) {
    if twins.fly(&mut s, steer.1, marks, |t, body| {
        base.input(t, body, Some(steer))
    }) {
        offer_landing(s, best, kind);
    }
}

/// Runs the base of `fam` on from `s` (whose tape may already hold a
/// prefix of it), branching off every steering option at each switch tick
/// still ahead; a branch repeating an earlier one is left out ([`Twins`]).
pub(crate) fn run_family(s: Sim<'_>, fam: &Steered, best: &mut Best) {
    run_family_as(s, fam, best, &kind_of, &mut |_| {});
}

/// [`run_family`], its links of the kind `kind` gives their presses;
/// `landed` sees the body where the base program (no switch) landed, if
/// it did.
pub(crate) fn run_family_as<'a>(
    mut s: Sim<'a>,
    fam: &Steered,
    best: &mut Best,
    kind: &dyn Fn(u8) -> LinkKind,
    landed: &mut dyn FnMut(&Sim<'a>),
) {
    let base = fam.base;
    let marks: Vec<usize> = fam.switches.iter().map(|&k| base.run_up + k).collect();
    let mut twins = Twins::default();
    for (i, &k) in fam.switches.iter().enumerate() {
        if marks[i] <= s.tape.len() {
            continue;
        }
        match s.run(|t, b| base.input(t, b, None), Some(marks[i])) {
            Flight::Paused => {
                for &b in &fam.targets {
                    if !twins.repeats(&s, b) {
                        let marks = &marks[i + 1..];
                        fly_noting(s.clone(), base, (k, b), marks, &mut twins, best, kind);
                    }
                }
            }
            // Landed or failed before the switch: every later branch is the base.
            _ => {
                if s.airborne && s.body.grounded && !s.body.dead {
                    landed(&s);
                    offer_landing(s, best, kind);
                }
                return;
            }
        }
    }
    if s.fly(|t, b| base.input(t, b, None)) {
        landed(&s);
        offer_landing(s, best, kind);
    }
}

/// The jump program families for `p`, of the `variety` set.
pub(crate) fn families(p: &Physics, variety: JumpVariety) -> Vec<Steered> {
    let full = full_speed_ticks(p);
    let holds = holds(p, variety);
    let switches = switch_ticks(p, variety);
    let mut out = Vec::new();
    for dir in [-1i8, 0, 1] {
        let targets: Vec<i8> = if dir == 0 { vec![-1, 1] } else { vec![0, -dir] };
        let run_ups = if dir == 0 {
            vec![0]
        } else {
            regular_run_ups(p, variety)
        };
        for &run_up in &run_ups {
            for &hold in &holds {
                let base = Base::single(dir, run_up, hold);
                out.push(Steered {
                    base,
                    switches: switches.clone(),
                    targets: targets.clone(),
                });
            }
            if p.air_jumps > 0 && (dir == 0 || run_up != full / 2) {
                out.extend(double_jumps(p, dir, run_up, &targets));
            }
        }
    }
    out
}

/// The double-jump programs of direction `dir` after `run_up` ticks: a
/// full first jump, then the air jump pressed at flight tick `t2` (half,
/// one and 1.5 times the apex ticks) and held 4 ticks or to the apex,
/// steering from `t2` on.
pub(crate) fn double_jumps(p: &Physics, dir: i8, run_up: usize, targets: &[i8]) -> Vec<Steered> {
    let apex = apex_ticks(p);
    let mut out = Vec::new();
    for t2 in tick_set([apex / 2, apex, apex + apex / 2], 3 * apex) {
        for h2 in tick_set([4, apex], apex) {
            let base = Base {
                dir,
                run_up,
                presses: [(0, apex.min(t2.saturating_sub(1)).max(1)), (t2, h2)],
                n_presses: 2,
            };
            out.push(Steered {
                base,
                switches: tick_set([t2, t2 + apex / 2, t2 + apex], 5 * apex),
                targets: targets.to_vec(),
            });
        }
    }
    out
}

/// The hold times of the single-press programs, ascending: the apex ticks
/// alone when holding longer changes nothing (no jump cut, no boost).
pub(crate) fn holds(p: &Physics, variety: JumpVariety) -> Vec<usize> {
    let apex = apex_ticks(p);
    if p.jump_cut_speed >= p.jump_speed && !p.boosts() {
        vec![apex]
    } else if variety == JumpVariety::Coarse {
        tick_set([4, 11, apex], apex)
    } else {
        tick_set([2, 4, 7, 11, 16, apex], apex)
    }
}

/// The flight ticks at which the single-press programs may switch their
/// steering.
pub(crate) fn switch_ticks(p: &Physics, variety: JumpVariety) -> Vec<usize> {
    let apex = apex_ticks(p);
    if variety == JumpVariety::Coarse {
        tick_set([8, apex, apex + apex / 2], 4 * apex)
    } else {
        tick_set([3, 8, apex / 2, apex, apex + apex / 2], 4 * apex)
    }
}

/// The run-ups of the programs that move (0, half and all of the ticks to
/// full speed; 0 and all for the coarse set).
pub(crate) fn regular_run_ups(p: &Physics, variety: JumpVariety) -> Vec<usize> {
    let full = full_speed_ticks(p);
    let mut v = if variety == JumpVariety::Coarse {
        vec![0, full]
    } else {
        vec![0, full / 2, full]
    };
    v.dedup();
    v
}
