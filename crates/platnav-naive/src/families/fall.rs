//! The fall family's twin (`src/links/families/fall.rs`): falls, coyote
//! jumps and buffered bounces.

use platnav::{Input, LinkKind};

use crate::families::jump::jump_kind;
use crate::sim::{Best, Ctx, Sim, apex_ticks, full_speed_ticks, tick_set};

/// Fall: walk off an edge toward `d`, then keep `d` or, after `k` air ticks,
/// switch to idle or `-d`.
pub(crate) fn fall_links(ctx: &Ctx<'_>, best: &mut Best) {
    const SWITCH_TICKS: [usize; 7] = [0, 3, 6, 10, 15, 22, 32];
    let p = ctx.p;
    let walk_limit =
        full_speed_ticks(p) + (1.5 / (p.run_speed * p.dt).max(1e-6)).ceil() as usize + 2;
    for d in [-1i8, 1] {
        let mut schedules: Vec<Option<(usize, i8)>> = vec![None];
        for &k in &SWITCH_TICKS {
            schedules.push(Some((k, 0)));
            schedules.push(Some((k, -d)));
        }
        for sched in schedules {
            let mut s = Sim::new(ctx);
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
                best.offer(s.land(LinkKind::FALL));
            } else if air_start.is_none() {
                break;
            }
        }
    }
}

/// Coyote jumps and buffered bounces (`src/links/fall.rs`): walk off an
/// edge toward `d`; press on air tick `a` (0 and `coyote_ticks - 1`) and
/// hold `H` ticks (4 and the apex ticks), moving `d` or idle from `apex`
/// ticks after the press; or press `jump_buffer_ticks` before the tick `L`
/// the kept fall lands on and hold to `L + H`, bouncing on landing.
pub(crate) fn forgiving_links(ctx: &Ctx<'_>, best: &mut Best) {
    let p = ctx.p;
    let apex = apex_ticks(p);
    let holds = if p.jump_cut_speed >= p.jump_speed && !p.boosts() {
        vec![apex]
    } else {
        tick_set([4, apex], apex)
    };
    let mut delays = Vec::new();
    if p.coyote_ticks > 0 {
        delays = vec![0, p.coyote_ticks as usize - 1];
        delays.dedup();
    }
    let walk_limit =
        full_speed_ticks(p) + (1.5 / (p.run_speed * p.dt).max(1e-6)).ceil() as usize + 2;
    // The kept fall toward `d`: its first air tick and its landing tick.
    let fall = |d: i8| {
        let mut s = Sim::new(ctx);
        let mut air_start = None;
        let ok = s.fly(|t, body| {
            if air_start.is_none() && !body.grounded {
                air_start = Some(t);
            }
            (air_start.is_some() || t <= walk_limit).then(|| Input::new(d, false, false))
        });
        ok.then(|| (air_start.unwrap_or(0), s.tape.len()))
    };
    for d in [-1i8, 1] {
        for &a in &delays {
            for &hold in &holds {
                for idle in [false, true] {
                    let mut s = Sim::new(ctx);
                    let mut air_start: Option<usize> = None;
                    let ok = s.fly(|t, body| {
                        if air_start.is_none() && !body.grounded {
                            air_start = Some(t);
                        }
                        let Some(a0) = air_start else {
                            return (t <= walk_limit).then(|| Input::new(d, false, false));
                        };
                        let press = a0 + a;
                        let mv = if idle && t >= press + apex { 0 } else { d };
                        Some(Input::new(mv, t >= press && t < press + hold, false))
                    });
                    if ok {
                        let kind = jump_kind(s.jumps);
                        best.offer(s.land(kind));
                    }
                }
            }
        }
        if p.jump_buffer_ticks == 0 {
            continue;
        }
        let Some((a0, land)) = fall(d) else {
            continue;
        };
        let Some(press) = land.checked_sub(p.jump_buffer_ticks as usize) else {
            continue;
        };
        if press < a0 + p.coyote_ticks as usize {
            continue;
        }
        for &hold in &holds {
            let input = |t: usize| Input::new(d, t >= press && t < land + hold, false);
            let mut s = Sim::new(ctx);
            let alive = (0..=land).all(|t| !s.out_of_time() && s.step(input(t)));
            if !alive || s.body.grounded {
                continue;
            }
            s.airborne = true;
            if s.fly(|t, _| Some(input(t))) {
                let kind = jump_kind(s.jumps);
                best.offer(s.land(kind));
            }
        }
    }
}
