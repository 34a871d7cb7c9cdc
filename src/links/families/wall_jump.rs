//! Wall-jump links (only when [`crate::Physics::wall_jump`] is enabled).
//!
//! The program: run up `r` ticks toward direction `d`, jump (hold `H`),
//! keep moving toward `d`. Whenever the body is airborne and touches a wall
//! on the side it is moving toward, it slides (holding toward the wall) for
//! `delay` ticks, releases the jump for a tick if needed, and presses it:
//! a wall jump away. After each wall jump it steers away, or after `k` ticks
//! back toward the wall it left (to climb a single wall), holding the jump
//! for `H2` ticks. At most `max_walls` wall jumps per link.

use super::family::Engine;
use super::start::Start;
use crate::links::best::Best;
use crate::links::cache::WorkerGuard;
use crate::links::sim::{Sim, apex_ticks, full_speed_ticks};
use crate::mechanics::LinkKind;
use crate::mechanics::seam::KindSpec;
use crate::physics::{Body, Frame, Input, Physics};

/// Jumps with one or more wall jumps (only when the physics has them).
pub(super) const WALL_JUMP: Engine = Engine {
    kinds: &[KindSpec {
        kind: LinkKind::WALL_JUMP,
        name: "wall_jump",
        letter: 'w',
        colour: [110, 255, 240],
    }],
    applies: |_, p| p.wall_jump.is_some(),
    programs: |p, _| if p.wall_jump.is_some() { PROGRAMS } else { 0 },
    generate,
};

impl LinkKind {
    /// A jump with one or more wall jumps.
    pub const WALL_JUMP: LinkKind = LinkKind::with_id(4);
}

#[derive(Clone, Copy)]
struct Program {
    dir: i8,
    run_up: usize,
    hold: usize,
    delay: usize,
    back_after: Option<usize>,
    hold2: usize,
    max_walls: u8,
}

fn touches(body: &Body, level: &Frame<'_>, p: &Physics, side: i8) -> bool {
    match side {
        -1 => body.touches_wall_left(level, p),
        1 => body.touches_wall_right(level, p),
        _ => false,
    }
}

fn run_program<'a>(sim: &impl Fn() -> Sim<'a>, prog: Program, best: &mut Best) {
    let mut s = sim();
    let (frame, p) = (s.frame, s.p);
    let level = &frame;
    let mut walls = 0u8;
    let mut contact = 0usize;
    // Direction away from the last wall and ticks since that wall jump.
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
        if !body.grounded && walls < prog.max_walls && ft > 0 && touches(body, level, p, mv) {
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
        let link = s.land(LinkKind::WALL_JUMP, best);
        best.offer(link);
    }
}

/// Directions, run-ups, holds, slide delays, steering back and wall
/// counts of the programs (a body model's wall jumps, `model/build/wall.rs`,
/// take the same delays, steering back and wall counts).
const DIRS: [i8; 2] = [-1, 1];
pub(crate) const DELAYS: [usize; 2] = [0, 10];
pub(crate) const BACK_AFTER: [Option<usize>; 3] = [None, Some(4), Some(10)];
pub(crate) const MAX_WALLS: [u8; 2] = [1, 8];

/// The number of programs tried from each cell (two run-ups and two holds
/// per direction).
const PROGRAMS: usize = DIRS.len() * 2 * 2 * DELAYS.len() * BACK_AFTER.len() * MAX_WALLS.len();

fn generate(s: &Start<'_>, worker: &mut WorkerGuard<'_>, best: &mut Best) {
    let memo = Some(&worker.get().memo);
    let sim = || s.sim(memo);
    perform(&sim, s.p, best);
}

fn perform<'a>(sim: &impl Fn() -> Sim<'a>, p: &Physics, best: &mut Best) {
    let apex = apex_ticks(p);
    let full = full_speed_ticks(p);
    for dir in DIRS {
        for run_up in [0, full] {
            for hold in [apex / 2, apex] {
                for delay in DELAYS {
                    for back_after in BACK_AFTER {
                        for max_walls in MAX_WALLS {
                            let prog = Program {
                                dir,
                                run_up,
                                hold: hold.max(1),
                                delay,
                                back_after,
                                hold2: apex,
                                max_walls,
                            };
                            run_program(sim, prog, best);
                        }
                    }
                }
            }
        }
    }
}
