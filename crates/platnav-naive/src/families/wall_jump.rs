//! The wall-jump family's twin (`src/links/families/wall_jump.rs`).

use crate::NaiveLink;
use platnav::{Body, Input, LinkKind, Physics, physics::Frame};

use crate::sim::{Best, Ctx, Sim, apex_ticks, full_speed_ticks};

/// A wall-jump program (see `src/links/wall_jump.rs`).
#[derive(Clone, Copy)]
pub(crate) struct WallProgram {
    dir: i8,
    run_up: usize,
    hold: usize,
    delay: usize,
    back_after: Option<usize>,
    hold2: usize,
    max_walls: u8,
}

pub(crate) fn touches(body: &Body, frame: &Frame<'_>, p: &Physics, side: i8) -> bool {
    match side {
        -1 => body.touches_wall_left(frame, p),
        1 => body.touches_wall_right(frame, p),
        _ => false,
    }
}

pub(crate) fn wall_program(ctx: &Ctx<'_>, prog: WallProgram) -> Option<NaiveLink> {
    let (frame, p) = (&ctx.frame, ctx.p);
    let mut s = Sim::new(ctx);
    let mut walls = 0u8;
    let mut contact = 0usize;
    let mut since: Option<(i8, usize)> = None;
    let ok = s.fly(|t, body| {
        if t < prog.run_up {
            if !body.grounded {
                return None;
            }
            return Some(Input::new(prog.dir, false, false));
        }
        let ft = t - prog.run_up;
        let (mv, mut jump) = match since {
            None => (prog.dir, ft < prog.hold),
            Some((away, n)) => {
                let mv = match prog.back_after {
                    Some(k) if n >= k => -away,
                    _ => away,
                };
                (mv, n < prog.hold2)
            }
        };
        if !body.grounded && walls < prog.max_walls && ft > 0 && touches(body, frame, p, mv) {
            contact += 1;
            if contact > prog.delay {
                if body.jump_held_last_tick {
                    return Some(Input::new(mv, false, false));
                }
                walls += 1;
                contact = 0;
                since = Some((-mv, 1));
                return Some(Input::new(-mv, true, false));
            }
            jump = false;
        } else {
            contact = 0;
        }
        if let Some((_, n)) = &mut since {
            *n += 1;
        }
        Some(Input::new(mv, jump, false))
    });
    if ok && walls > 0 {
        s.land(LinkKind::WALL_JUMP)
    } else {
        None
    }
}

/// Wall jump: direction, run-up, hold, slide delay, climbing back, and the
/// number of walls allowed.
pub(crate) fn wall_jump_links(ctx: &Ctx<'_>, best: &mut Best) {
    let p = ctx.p;
    let apex = apex_ticks(p);
    let full = full_speed_ticks(p);
    for dir in [-1i8, 1] {
        for run_up in [0, full] {
            for hold in [apex / 2, apex] {
                for delay in [0, 10] {
                    for back_after in [None, Some(4), Some(10)] {
                        for max_walls in [1, 8] {
                            let prog = WallProgram {
                                dir,
                                run_up,
                                hold: hold.max(1),
                                delay,
                                back_after,
                                hold2: apex,
                                max_walls,
                            };
                            best.offer(wall_program(ctx, prog));
                        }
                    }
                }
            }
        }
    }
}
