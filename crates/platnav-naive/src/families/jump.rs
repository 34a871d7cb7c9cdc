//! The jump family's twin (`src/links/families/jump/`).

use crate::NaiveLink;
use platnav::{Body, Input, JumpVariety, LinkKind};

use crate::sim::{Best, Ctx, Sim, action_limit, apex_ticks, full_speed_ticks, tick_set};

/// A jump link's kind by the presses that took effect.
/// A jump link's kind by the presses that took effect.
pub(crate) fn jump_kind(jumps: u8) -> LinkKind {
    if jumps >= 2 {
        LinkKind::DOUBLE_JUMP
    } else {
        LinkKind::JUMP
    }
}

/// A jump program: run-up, one or two held presses, and an optional
/// steering switch `(flight tick, move)`.
#[derive(Clone, Copy)]
pub(crate) struct JumpProgram {
    dir: i8,
    run_up: usize,
    presses: [(usize, usize); 2],
    n_presses: usize,
    steer: Option<(usize, i8)>,
}

impl JumpProgram {
    /// One press held `hold` ticks after `run_up`, moving `dir`.
    fn single(dir: i8, run_up: usize, hold: usize) -> Self {
        Self {
            dir,
            run_up,
            presses: [(0, hold), (0, 0)],
            n_presses: 1,
            steer: None,
        }
    }

    fn input(&self, t: usize, body: &Body) -> Option<Input> {
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
        let mv = match self.steer {
            Some((k, b)) if ft >= k => b,
            _ => self.dir,
        };
        Some(Input::new(mv, jump, false))
    }

    /// Performs the whole program from standing on the from-cell.
    fn perform(&self, ctx: &Ctx<'_>) -> Option<NaiveLink> {
        let mut s = Sim::new(ctx);
        if !s.fly(|t, b| self.input(t, b)) {
            return None;
        }
        let kind = jump_kind(s.jumps);
        s.land(kind)
    }
}

/// Every steering variant of one jump program, each from scratch: a switch
/// at each of `switches` to each of `targets`, then no switch.
pub(crate) fn jump_family(
    ctx: &Ctx<'_>,
    base: JumpProgram,
    switches: &[usize],
    targets: &[i8],
    best: &mut Best,
) {
    for &k in switches {
        for &b in targets {
            let prog = JumpProgram {
                steer: Some((k, b)),
                ..base
            };
            best.offer(prog.perform(ctx));
        }
    }
    best.offer(base.perform(ctx));
}

/// Jump and double jump: direction, run-up, hold ticks, steering, and the
/// second press's tick and hold.
pub(crate) fn jump_links(ctx: &Ctx<'_>, best: &mut Best) {
    let p = ctx.p;
    let apex = apex_ticks(p);
    let full = full_speed_ticks(p);
    let coarse = ctx.jumps == JumpVariety::Coarse;
    let holds = if p.jump_cut_speed >= p.jump_speed && !p.boosts() {
        vec![apex]
    } else if coarse {
        tick_set([4, 11, apex], apex)
    } else {
        tick_set([2, 4, 7, 11, 16, apex], apex)
    };
    let switches = if coarse {
        tick_set([8, apex, apex + apex / 2], 4 * apex)
    } else {
        tick_set([3, 8, apex / 2, apex, apex + apex / 2], 4 * apex)
    };
    for dir in [-1i8, 0, 1] {
        let targets: Vec<i8> = if dir == 0 { vec![-1, 1] } else { vec![0, -dir] };
        let run_ups = if dir == 0 {
            vec![0]
        } else {
            regular_run_ups(full, coarse)
        };
        for &run_up in &run_ups {
            for &hold in &holds {
                let base = JumpProgram::single(dir, run_up, hold);
                jump_family(ctx, base, &switches, &targets, best);
            }
            if p.air_jumps > 0 && (dir == 0 || run_up != full / 2) {
                for (base, switches) in double_jumps(apex, dir, run_up) {
                    jump_family(ctx, base, &switches, &targets, best);
                }
            }
        }
    }
    edge_take_offs(ctx, &regular_run_ups(full, coarse), &switches, best);
    hop_runs(ctx, &holds, &switches, best);
}

/// The double jumps of direction `dir` after `run_up` ticks, each with
/// its switch ticks: a full first jump, the air jump pressed at half, one
/// and 1.5 times the apex ticks and held 4 ticks or to the apex.
fn double_jumps(apex: usize, dir: i8, run_up: usize) -> Vec<(JumpProgram, Vec<usize>)> {
    let mut out = Vec::new();
    for t2 in tick_set([apex / 2, apex, apex + apex / 2], 3 * apex) {
        for h2 in tick_set([4, apex], apex) {
            let base = JumpProgram {
                dir,
                run_up,
                presses: [(0, apex.min(t2.saturating_sub(1)).max(1)), (t2, h2)],
                n_presses: 2,
                steer: None,
            };
            out.push((base, tick_set([t2, t2 + apex / 2, t2 + apex], 5 * apex)));
        }
    }
    out
}

fn regular_run_ups(full: usize, coarse: bool) -> Vec<usize> {
    let mut v = if coarse {
        vec![0, full]
    } else {
        vec![0, full / 2, full]
    };
    v.dedup();
    v
}

/// `W`, the longest walk toward a ledge: the ticks to full speed and a
/// tile more, at most a quarter of the action limit.
fn walk_limit(p: &platnav::Physics) -> usize {
    let cap = action_limit(p) / 4;
    if p.run_speed * p.dt > 0.0 {
        let w = full_speed_ticks(p) as f64 + (1.0 / (p.run_speed * p.dt)).ceil() + 1.0;
        if w >= cap as f64 { cap } else { w as usize }
    } else {
        cap
    }
}

/// The edge take-offs (`src/links/families/jump/edge.rs`): walking `d`
/// for at most `W` ticks, the first tick after which the body is off the
/// ground, and a full jump from each of the last 2 run-ups up to it that is
/// not a regular one.
fn edge_take_offs(ctx: &Ctx<'_>, regular: &[usize], switches: &[usize], best: &mut Best) {
    let p = ctx.p;
    let w = walk_limit(p);
    for dir in [-1i8, 1] {
        let mut s = Sim::new(ctx);
        let mut leave = None;
        for t in 0..w {
            let alive = s.step(Input::new(dir, false, false));
            if !alive || !s.body.grounded {
                leave = Some(t);
                break;
            }
        }
        let Some(leave) = leave else { continue };
        for run_up in (leave + 1).saturating_sub(2)..=leave {
            if regular.contains(&run_up) {
                continue;
            }
            let base = JumpProgram::single(dir, run_up, apex_ticks(p));
            jump_family(ctx, base, switches, &[0, -dir], best);
        }
    }
}

/// The hop runs (`src/links/families/jump/hops.rs`), each program
/// performed from scratch: walk `d`; blocked, hop (of the presses up to 8
/// ticks before the block and the holds, the one that lands highest
/// without running into anything) and walk on along the top; at a ledge
/// after a hop, from each of the last 2 run-ups up to it, the full jump
/// steering (on the last run-up, the other holds before) and the double
/// jumps, then leap on from the landing farthest along (to a ledge, not
/// a step); as many as 8 hops and leaps.
fn hop_runs(ctx: &Ctx<'_>, holds: &[usize], switches: &[usize], best: &mut Best) {
    let p = ctx.p;
    let (w, cap) = (walk_limit(p), action_limit(p) / 4);
    for dir in [-1i8, 1] {
        let walk = Input::new(dir, false, false);
        let mut prefix: Vec<Input> = Vec::new();
        let (mut hops, mut leapt) = (0u8, false);
        loop {
            let mut s = replayed(ctx, &prefix);
            let mut ended = None;
            for t in 0..if hops == 0 || leapt { w } else { cap } {
                let x = s.body.x;
                if !s.step(walk) || !s.body.grounded {
                    ended = Some((true, t));
                    break;
                }
                if s.body.x == x {
                    ended = Some((false, t));
                    break;
                }
            }
            match ended {
                None => break,
                Some((true, leave)) => {
                    if hops == 0 {
                        break;
                    }
                    let farthest =
                        hop_run_finals(ctx, (&prefix, dir, leave, hops), (holds, switches), best);
                    match farthest {
                        Some(tape) if hops < 8 => {
                            (prefix, leapt) = (tape, true);
                            hops += 1;
                        }
                        _ => break,
                    }
                }
                Some((false, b)) => {
                    if leapt || hops == 8 {
                        break;
                    }
                    match first_hop(ctx, &prefix, (dir, b), holds) {
                        Some(tape) => {
                            (prefix, leapt) = (tape, false);
                            hops += 1;
                        }
                        None => break,
                    }
                }
            }
        }
    }
}

/// A sim that performed `tape` from standing on the from-cell.
fn replayed<'c, 'a>(ctx: &'c Ctx<'a>, tape: &[Input]) -> Sim<'c, 'a> {
    let mut s = Sim::new(ctx);
    for &i in tape {
        s.step(i);
    }
    s
}

/// The tape up to the landing of the hop after `prefix` that lands
/// highest (the first in order among equals), whose walk `dir` is blocked
/// on walk tick `b`.
fn first_hop(
    ctx: &Ctx<'_>,
    prefix: &[Input],
    (dir, b): (i8, usize),
    holds: &[usize],
) -> Option<Vec<Input>> {
    let mut best: Option<(f64, Vec<Input>)> = None;
    for k in 0..=b.min(8) {
        for &hold in holds {
            let mut s = replayed(ctx, prefix);
            for _ in 0..b - k {
                s.step(Input::new(dir, false, false));
            }
            let (feet, press) = (s.body.y, s.tape.len());
            let mut airborne = false;
            let landed = loop {
                if s.out_of_time() || s.tape.len() - press >= 2 * apex_ticks(ctx.p) {
                    break false;
                }
                let x = s.body.x;
                let jump = s.tape.len() < press + hold;
                if !s.step(Input::new(dir, jump, false)) || s.body.x == x {
                    break false;
                }
                if !s.body.grounded {
                    airborne = true;
                } else if airborne {
                    break true;
                }
            };
            let y = s.body.y;
            if landed && y < feet && best.as_ref().is_none_or(|(h, _)| y < *h) {
                best = Some((y, s.tape));
            }
        }
    }
    best.map(|(_, tape)| tape)
}

/// Whether `prog` performed after `prefix` touches a ceiling: some tick
/// ends with `vy == 0`, not grounded, after one that ended with `vy < 0`.
fn touches_ceiling(ctx: &Ctx<'_>, prefix: &[Input], prog: JumpProgram) -> bool {
    let mut s = replayed(ctx, prefix);
    s.airborne = false;
    let (mut rising, mut touched) = (false, false);
    s.fly(|t, body| {
        if rising && body.vy == 0.0 && !body.grounded {
            touched = true;
        }
        rising = body.vy < 0.0;
        prog.input(t, body)
    });
    touched
}

/// A hop run's final jumps after `prefix` (`hops` made), whose walk `dir`
/// leaves the ground after walk tick `leave`: each program and its
/// steering variants performed from scratch, the prefix first. Returns the
/// tape to where the one with one press held toward `dir` throughout
/// landed farthest along it (the leap's start), if any landed.
fn hop_run_finals(
    ctx: &Ctx<'_>,
    (prefix, dir, leave, hops): (&[Input], i8, usize, u8),
    (holds, switches): (&[usize], &[usize]),
    best: &mut Best,
) -> Option<Vec<Input>> {
    // The landing farthest along `dir` of the single presses held toward
    // it throughout (the first among equals), and its tape.
    let mut farthest: Option<(f64, Vec<Input>)> = None;
    let p = ctx.p;
    let apex = apex_ticks(p);
    let targets = [0, -dir];
    for r in (leave + 1).saturating_sub(2)..=leave {
        let run_up = prefix.len() + r;
        // On the last run-up, when the hold matters: every hold from 1 to
        // the apex (32 spread over it at most) when the full jump touches a
        // ceiling, else the regular holds.
        let every: Vec<usize> = if r != leave || holds.len() == 1 {
            vec![apex]
        } else if touches_ceiling(ctx, prefix, JumpProgram::single(dir, run_up, apex)) {
            let n = apex.min(32);
            (1..=n).map(|i| (i * apex).div_ceil(n)).collect()
        } else {
            holds.to_vec()
        };
        let mut programs: Vec<(JumpProgram, Vec<usize>)> = every
            .into_iter()
            .map(|hold| {
                let base = JumpProgram::single(dir, run_up, hold);
                // Only the full jump steers.
                let steers = if hold == apex {
                    switches.to_vec()
                } else {
                    Vec::new()
                };
                (base, steers)
            })
            .collect();
        if p.air_jumps > 0 {
            programs.extend(double_jumps(apex, dir, run_up));
        }
        for (base, switches) in programs {
            let variants = switches
                .iter()
                .flat_map(|&k| targets.map(|b| Some((k, b))))
                .chain([None]);
            for steer in variants {
                let prog = JumpProgram { steer, ..base };
                let mut s = replayed(ctx, prefix);
                s.airborne = false;
                if !s.fly(|t, b| prog.input(t, b)) {
                    continue;
                }
                let kind = if s.jumps > hops.saturating_add(1) {
                    LinkKind::DOUBLE_JUMP
                } else {
                    LinkKind::JUMP
                };
                let x = s.body.x;
                let further = farthest
                    .as_ref()
                    .is_none_or(|(f, _)| f64::from(dir) * (x - f) > 0.0);
                if steer.is_none() && base.n_presses == 1 && further {
                    farthest = Some((x, s.tape.clone()));
                }
                best.offer(s.land(kind));
            }
        }
    }
    farthest.map(|(_, tape)| tape)
}
