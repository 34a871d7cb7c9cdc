//! Hop runs: jumps that carry a run's speed up steps to a ledge, and on
//! across the tops they land on. Every other jump starts at rest on its
//! cell, so a jump that needs the speed of a run that first hops onto a
//! block or up a staircase, or lands on a pillar too short to reach that
//! speed on, is missing without them.
//!
//! For `d` = -1 and +1, from standing on the start cell, with no hop or
//! leap made yet:
//!
//! 1. **Walk**: hold `move = d` (no jump) tick by tick, at most `W` ticks
//!    (the edge take-offs' walk, `edge.rs`) before the first hop and after
//!    a leap (from further, a run from rest reaches full speed), and
//!    `floor(A / 4)` after a hop (`A` the action limit), along the step's
//!    top. The walk ends at the first tick after which the body is not
//!    grounded or is dead (a *ledge*, at walk tick `leave`), or is grounded
//!    with `x` unchanged by the tick (*blocked*, at walk tick `b`). Neither:
//!    the hop run ends.
//! 2. **At a ledge**, with no hop made: no hop run (the edge take-offs
//!    cover it). Else the final jumps: for each run-up `r` from `max(0,
//!    leave + 1 - 2)` to `leave`, the tape so far, then `r` ticks of `move
//!    = d`, then the jump held for the apex ticks, steering as the regular
//!    jump programs do (the same switch ticks, to idle or to `-d`); for `r
//!    = leave` the jump held for other hold times in turn first, holding
//!    `move = d`, the last of them the steering one: when the *full jump*
//!    (that run-up, then the jump held for the apex ticks with `move = d`)
//!    touches a ceiling, every hold time up to the apex ticks (with `a` the
//!    apex ticks and `n = min(a, 32)`, the holds `ceil(i * a / n)` for `i`
//!    = 1 to `n`), else the holds of the regular programs; the apex ticks
//!    alone when, as in the regular programs, the hold changes nothing. A
//!    flight touches a ceiling when some tick ends with `vy == 0` and not
//!    grounded after a tick that ended with `vy < 0` (watched until it
//!    lands, dies or times out). With air jumps, the double jumps of the
//!    regular programs after that run-up. Each landing is a link. Then,
//!    with fewer than [`MAX_HOPS`] hops and leaps made, a **leap**: of the
//!    final jumps with one press that hold `move = d` throughout (no
//!    steering switch), the one that landed farthest along `d` (the first
//!    in that order among equals); the tape goes on from its landing, and
//!    the run walks again (step 1). None landed, or as many made: the hop
//!    run ends.
//! 3. **Blocked**, after a leap or with [`MAX_HOPS`] hops and leaps
//!    made: the hop run ends. Else a hop: for `k` from 0 to `min(b,
//!    HOP_LEAD)` and, for each, every hold `H` of the regular jump
//!    programs in ascending order: from the state
//!    after `b - k` ticks of the walk, hold `move = d` with the jump held
//!    the first `H` ticks, until the body lands (is grounded after being in
//!    the air). The hop fails on death, on timing out, after twice the
//!    apex ticks without landing, and on a tick that leaves `x` unchanged
//!    (it ran into the step); it succeeds when it lands with its feet
//!    higher than where it pressed. Of the hops that succeed, the one that
//!    lands highest is taken (the first in that order among equals): the
//!    tape goes on from its landing, and the run walks again (step 1). No
//!    success: the hop run ends.
//!
//! A hop run's links are jumps, or double jumps when a press beyond the
//! hops, the leaps and the final jump took effect (an air jump), with
//! every press counted in their jumps. They are offered after the edge
//! take-offs.

use super::programs::{Base, Steered, double_jumps, holds, run_family_as, switch_ticks};
use crate::links::best::Best;
use crate::links::options::{JumpVariety, SETTLE_SLACK, action_limit, settle_limit};
use crate::links::sim::{Flight, Sim, apex_ticks};
use crate::mechanics::LinkKind;
use crate::physics::{Input, Physics};

/// The most hops and leaps a hop run makes: the steps of the tallest
/// staircases of Super Mario Bros.
pub(crate) const MAX_HOPS: usize = 8;

/// How many ticks before running into a step a hop may be pressed.
pub(crate) const HOP_LEAD: usize = 8;

/// The most hold times a hop run's final jump tries: every tick up to the
/// apex at 60 Hz, spread evenly over it at finer ticks.
pub(crate) const MAX_HOLDS: usize = 32;

/// The ticks a hop may fly before it fails: a hop that lands higher than
/// it pressed comes down within twice the apex ticks.
fn hop_ticks(p: &Physics) -> usize {
    2 * apex_ticks(p)
}

/// The most programs the hop runs cost from one standing cell: their final
/// jumps (every hold on the last run-up, and the full jump that looks for a
/// ceiling) at each of as many ledges as hops and leaps, and each
/// direction's walks and hops counted as the programs their steps could
/// make (for the work bound, `LinkOptions::max_steps_per_cell`).
pub(crate) fn max_programs(p: &Physics, variety: JumpVariety) -> usize {
    let finals: usize = [false, true]
        .into_iter()
        .flat_map(|last| final_families(p, variety, 1, 0, final_holds(p, variety, last, || true)))
        .map(|f| f.switches.len() * f.targets.len() + 1)
        .sum::<usize>()
        + 1;
    let (quarter, tries) = (action_limit(p) / 4, MAX_HOPS * (HOP_LEAD + 1));
    let steps =
        (MAX_HOPS + 1) * quarter + tries * (quarter + holds(p, variety).len() * hop_ticks(p));
    let per_program = action_limit(p) + 2 * settle_limit(p) + SETTLE_SLACK as usize;
    2 * (MAX_HOPS * finals + steps.div_ceil(per_program))
}

/// How a walk ended: off the ground or dead after walk tick `leave`, or
/// blocked on walk tick `b`.
#[derive(Clone, Copy)]
enum Walked {
    Ledge { leave: usize },
    Blocked { b: usize },
}

/// Walks `d` from `s` for at most `w` ticks.
fn walk(s: &Sim<'_>, d: i8, w: usize) -> Option<Walked> {
    let mut s = s.clone();
    for t in 0..w {
        let x = s.body.x;
        if !s.step(Input::new(d, false, false)) || !s.body.grounded {
            return Some(Walked::Ledge { leave: t });
        }
        if s.body.x == x {
            return Some(Walked::Blocked { b: t });
        }
    }
    None
}

/// The states a hop may be pressed from, of a walk `d` from `s` blocked
/// on walk tick `b`: after `b - k` walk ticks, for `k` from 0 to
/// `min(b, HOP_LEAD)` in that order (the latest press first).
fn press_states<'a>(s: &Sim<'a>, d: i8, b: usize) -> Vec<Sim<'a>> {
    let mut at = s.clone();
    let first = b - b.min(HOP_LEAD);
    for _ in 0..first {
        at.step(Input::new(d, false, false));
    }
    let mut states = vec![at.clone()];
    for _ in first..b {
        at.step(Input::new(d, false, false));
        states.push(at.clone());
    }
    states.reverse();
    states
}

/// The hop that lands highest (the first in order among equals) from a
/// walk `d` from `s` blocked on walk tick `b`, landed.
fn hop<'a>(s: &Sim<'a>, b: usize, d: i8, holds: &[usize]) -> Option<Sim<'a>> {
    let mut best: Option<Sim<'a>> = None;
    let cap = hop_ticks(s.p);
    for pressed in press_states(s, d, b) {
        for &hold in holds {
            let mut s = pressed.clone();
            let (feet, press) = (s.body.y, s.tape.len());
            let mut airborne = false;
            let landed = loop {
                if s.timed_out() || s.tape.len() - press >= cap {
                    break false;
                }
                let x = s.body.x;
                let jump = s.tape.len() < press + hold;
                if !s.step(Input::new(d, jump, false)) || s.body.x == x {
                    break false;
                }
                if !s.body.grounded {
                    airborne = true;
                } else if airborne {
                    break true;
                }
            };
            let higher = best.as_ref().is_none_or(|h| s.body.y < h.body.y);
            if landed && s.body.y < feet && higher {
                best = Some(s);
            }
        }
    }
    best
}

/// The hop runs from the start of `sim` (a fresh sim on the start cell,
/// for each direction), offering their links to `best`.
pub(crate) fn generate<'a>(
    sim: impl Fn() -> Sim<'a>,
    p: &Physics,
    variety: JumpVariety,
    best: &mut Best,
) {
    let (w, holds) = (super::edge::walk_ticks(p), holds(p, variety));
    for dir in [-1i8, 1] {
        let mut s = sim();
        // After a hop the walk goes on along the step's top as far as a
        // quarter of the action limit; after a leap, as far as before the
        // first hop (from further, a run from rest reaches full speed).
        let (mut hops, mut leapt) = (0u8, false);
        let walk_limit = |hops: u8, leapt: bool| match (hops, leapt) {
            (0, _) | (_, true) => w,
            _ => action_limit(p) / 4,
        };
        while let Some(event) = walk(&s, dir, walk_limit(hops, leapt)) {
            match event {
                Walked::Ledge { leave } => {
                    if hops == 0 {
                        break;
                    }
                    let landed = finals(s, (dir, leave, hops), variety, best);
                    match landed {
                        Some(landed) if usize::from(hops) < MAX_HOPS => {
                            (s, leapt) = (landed, true);
                            hops += 1;
                        }
                        _ => break,
                    }
                }
                Walked::Blocked { b } => {
                    // A leap carries speed across short tops, not up steps.
                    if leapt || usize::from(hops) == MAX_HOPS {
                        break;
                    }
                    let Some(landed) = hop(&s, b, dir, &holds) else {
                        break;
                    };
                    (s, leapt) = (landed, false);
                    hops += 1;
                }
            }
        }
    }
}

/// The final jumps of a hop run from `start` (`hops` made), whose walk
/// `dir` leaves the ground after walk tick `leave`; returns the body where
/// the one with one press held toward `dir` throughout landed farthest
/// along it (the leap's start), if any landed.
fn finals<'a>(
    mut start: Sim<'a>,
    (dir, leave, hops): (i8, usize, u8),
    variety: JumpVariety,
    best: &mut Best,
) -> Option<Sim<'a>> {
    // The final jump lands when it is grounded after leaving the ground
    // again.
    start.airborne = false;
    let p = start.p;
    // A press beyond the hops and the final jump is an air jump.
    let kind = |jumps: u8| {
        if jumps > hops.saturating_add(1) {
            LinkKind::DOUBLE_JUMP
        } else {
            LinkKind::JUMP
        }
    };
    // Every program walks the same run-up first: walked once, in turn.
    let (mut at, first) = (start.clone(), start.tape.len());
    // The landing farthest along `dir` of the single presses held toward
    // it throughout (the first among equals).
    let mut farthest: Option<Sim<'a>> = None;
    let mut note = |s: &Sim<'a>| {
        if farthest
            .as_ref()
            .is_none_or(|f| f64::from(dir) * (s.body.x - f.body.x) > 0.0)
        {
            farthest = Some(s.clone());
        }
    };
    for r in (leave + 1).saturating_sub(super::edge::EDGE_TICKS)..=leave {
        let run_up = first + r;
        let full = Base::single(dir, run_up, apex_ticks(p));
        if at.run(|t, b| full.input(t, b, None), Some(run_up)) != Flight::Paused {
            return None;
        }
        let holds = final_holds(p, variety, r == leave, || touches_ceiling(at.clone(), full));
        for fam in &final_families(p, variety, dir, run_up, holds) {
            if fam.base.n_presses == 1 {
                run_family_as(at.clone(), fam, best, &kind, &mut note);
            } else {
                run_family_as(at.clone(), fam, best, &kind, &mut |_| {});
            }
        }
    }
    farthest
}

/// Whether the flight of `base` from `s` touches a ceiling: on some tick
/// the body ends with `vy == 0` and not grounded, having ended the tick
/// before with `vy < 0` (watched until it lands, dies or times out).
fn touches_ceiling(mut s: Sim<'_>, base: Base) -> bool {
    let (mut rising, mut touched) = (false, false);
    s.fly(|t, body| {
        touched |= rising && body.vy == 0.0 && !body.grounded;
        rising = body.vy < 0.0;
        base.input(t, body, None)
    });
    touched
}

/// The hold times of a hop run's final jump: on the `last` run-up (`r ==
/// leave`), every hold up to the apex ticks (at most
/// [`MAX_HOLDS`]) when the full jump touches a ceiling, else the regular
/// holds; on the other, the apex ticks alone. The apex ticks alone, too,
/// when the hold changes nothing.
fn final_holds(
    p: &Physics,
    variety: JumpVariety,
    last: bool,
    ceiling: impl FnOnce() -> bool,
) -> Vec<usize> {
    let (apex, regular) = (apex_ticks(p), holds(p, variety));
    if !last || regular.len() == 1 {
        vec![apex]
    } else if ceiling() {
        // The jump across a gap at its limit under a low ceiling is held
        // to the last tick that does not bump the head.
        let n = apex.min(MAX_HOLDS);
        (1..=n).map(|i| (i * apex).div_ceil(n)).collect()
    } else {
        regular
    }
}

/// The final jumps of direction `dir` after `run_up` ticks: the jump held
/// for each of `holds`, the apex ticks steering as the regular programs;
/// with air jumps, the double jumps.
fn final_families(
    p: &Physics,
    variety: JumpVariety,
    dir: i8,
    run_up: usize,
    holds: Vec<usize>,
) -> Vec<Steered> {
    let apex = apex_ticks(p);
    // Steering switches for the full jump only, as the edge take-offs.
    let mut fams: Vec<Steered> = holds
        .into_iter()
        .map(|hold| Steered {
            base: Base::single(dir, run_up, hold),
            switches: if hold == apex {
                switch_ticks(p, variety)
            } else {
                Vec::new()
            },
            targets: vec![0, -dir],
        })
        .collect();
    if p.air_jumps > 0 {
        fams.extend(double_jumps(p, dir, run_up, &[0, -dir]));
    }
    fams
}
