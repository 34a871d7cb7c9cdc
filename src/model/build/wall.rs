//! The wall-jump programs of a model that jumps off walls: measured on the
//! model ([`wall_jumps`]) and performed on its own step function.
//!
//! A model says nothing of walls, so a program sees one as the model
//! moves: the body is *against a wall* on side `m` when it is off the
//! ground, the last tick held `move = m`, and that tick left its feet's x
//! where it was.
//!
//! The program (direction `d`, run-up `r`, hold `H`, delay, steering back
//! after `k`, at most `W` walls): `r` ticks of `move = d` on the ground,
//! then the jump held `H` ticks, moving `d`. Whenever the body is against
//! a wall on the side it moves toward (after the flight's first tick, and
//! before its `W`-th wall jump), it slides holding toward the wall, the
//! jump released, for `delay` ticks; then, if the last tick held the jump,
//! it releases it for a tick; then it presses the jump moving away: a wall
//! jump. After it, it moves away (or, `k` ticks after the wall jump, back
//! toward the wall it left, to climb one wall) and holds the jump `A`
//! ticks (`A` the apex ticks). A program that stands again after at least
//! one wall jump is a link of kind `wall_jump`.
//!
//! The programs, for `d` left and right, `r` none or all the ticks to top
//! speed, `H` half or all of `A`, delays 0 and 10, steering back never,
//! after 4 or after 10 ticks, and `W` 1 or 8 (the reference body's wall
//! jump family's, `links/families/wall_jump.rs`, shared from there).

use super::perform::{FLIGHT_LIMIT, GROUND_LIMIT, Run, landed, tick};
use super::programs::Probe;
use crate::level::{Cell, Level, Tile};
use crate::links::families::wall_jump::{BACK_AFTER, DELAYS, MAX_WALLS};
use crate::model::BodyModel;
use crate::physics::Input;

/// A wall-jump program (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WallJump {
    pub dir: i8,
    pub run_up: usize,
    pub hold: usize,
    pub delay: usize,
    pub back_after: Option<usize>,
    pub hold2: usize,
    pub max_walls: u8,
}

/// The wall-jump programs of a model probed as `probe`, in a fixed order.
pub(crate) fn programs(probe: Probe) -> Vec<WallJump> {
    let mut out = Vec::new();
    let apex = probe.apex;
    for dir in [-1, 1] {
        for run_up in [0, probe.full] {
            for hold in [apex / 2, apex] {
                for delay in DELAYS {
                    for back_after in BACK_AFTER {
                        for max_walls in MAX_WALLS {
                            out.push(WallJump {
                                dir,
                                run_up,
                                hold: hold.max(1),
                                delay,
                                back_after,
                                hold2: apex,
                                max_walls,
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

/// What a wall-jump program has done so far.
#[derive(Default)]
struct Walls {
    /// Wall jumps made.
    made: u8,
    /// Ticks spent against the wall before the next one.
    contact: usize,
    /// Away from the last wall, and ticks since its wall jump.
    since: Option<(i8, usize)>,
    /// The last tick's input and the feet's x before it.
    last: Option<(Input, f64)>,
}

impl Walls {
    /// The input of flight tick `ft` (after the run-up), the body
    /// `airborne` with its feet at `x`.
    fn input(&mut self, w: &WallJump, ft: usize, airborne: bool, x: f64) -> Input {
        let (mv, mut jump) = match self.since {
            None => (w.dir, ft < w.hold),
            Some((away, n)) => match w.back_after {
                Some(k) if n >= k => (-away, n < w.hold2),
                _ => (away, n < w.hold2),
            },
        };
        let against = self.last.is_some_and(|(i, lx)| i.move_x == mv && lx == x);
        if airborne && self.made < w.max_walls && ft > 0 && against {
            self.contact += 1;
            if self.contact > w.delay {
                if self.last.is_some_and(|(i, _)| i.jump) {
                    return Input::new(mv, false, false);
                }
                self.made += 1;
                self.contact = 0;
                self.since = Some((-mv, 1));
                return Input::new(-mv, true, false);
            }
            jump = false;
        } else {
            self.contact = 0;
        }
        if let Some((_, n)) = &mut self.since {
            *n += 1;
        }
        Input::new(mv, jump, false)
    }
}

/// Performs `w` from `r` until the body stands again: `true` when it
/// does after at least one wall jump.
pub(crate) fn fly<M: BodyModel>(m: &M, level: &Level, r: &mut Run<M::State>, w: WallJump) -> bool {
    let mut walls = Walls::default();
    while r.tape.len() < FLIGHT_LIMIT {
        let t = r.tape.len();
        let standing = m.standing_cell(&r.state).is_some();
        let x = m.feet(&r.state)[0];
        let input = if t < w.run_up {
            if !standing {
                return false;
            }
            Input::new(w.dir, false, false)
        } else {
            walls.input(&w, t - w.run_up, !standing, x)
        };
        walls.last = Some((input, x));
        if !tick(m, level, r, input) {
            return false;
        }
        if landed(m, r) {
            return walls.made > 0;
        }
        if !r.airborne && t + 1 >= w.run_up + GROUND_LIMIT {
            return false;
        }
    }
    false
}

/// Whether a press of the jump against a wall lifts `model`: on a floor
/// beside a tall wall, a jump held toward it and then, once the body is
/// against the wall and falling, the jump pressed moving away has the
/// body rising within three ticks (a wall jump, or an air jump taken
/// there).
pub(crate) fn wall_jumps<M: BodyModel>(model: &M, apex: usize) -> bool {
    if apex == 0 {
        return false;
    }
    let (w, h) = (16usize, 40usize);
    let mut tiles = vec![Tile::EMPTY; w * h];
    tiles[w * (h - 1)..].fill(Tile::SOLID);
    for row in 0..h {
        tiles[row * w + 10] = Tile::SOLID;
    }
    let level = Level::new(w, h, tiles).expect("a fixed, valid size");
    let mut s = model.start(&level, Cell::new(8, h as i32 - 2));
    let toward = Input::new(1, false, false);
    let (mut x, mut left) = (model.feet(&s)[0], false);
    for t in 0..FLIGHT_LIMIT {
        let falling = model.velocity(&s)[1] > 0.0;
        let off = model.standing_cell(&s).is_none();
        left |= off;
        model.step(&level, &mut s, Input::new(1, t < apex, false));
        let stuck = model.feet(&s)[0] == x;
        x = model.feet(&s)[0];
        let stands = model.standing_cell(&s).is_some();
        if model.dead(&s) || (left && stands) || (!left && t >= GROUND_LIMIT) {
            return false;
        }
        if off && falling && stuck {
            model.step(&level, &mut s, toward);
            return (0..3).any(|_| {
                model.step(&level, &mut s, Input::new(-1, true, false));
                model.velocity(&s)[1] < 0.0
            });
        }
    }
    false
}
