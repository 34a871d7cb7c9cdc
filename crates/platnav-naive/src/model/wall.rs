//! The wall-jump programs of a model that jumps off walls, the obvious
//! way, as `src/model/build/wall.rs` documents them.

use platnav::model::BodyModel;
use platnav::{Cell, Input, Level, Tile};

use super::{FLIGHT_LIMIT, GROUND_LIMIT};

/// Direction, run-up, hold, delay, steering back after, second hold, most
/// walls.
pub(super) type Wall = (i8, usize, usize, usize, Option<usize>, usize, u8);

/// The programs, in the library's order.
pub(super) fn programs(apex: usize, full: usize) -> Vec<Wall> {
    let mut v = Vec::new();
    for d in [-1i8, 1] {
        for r in [0, full] {
            for h in [apex / 2, apex] {
                for delay in [0, 10] {
                    for back in [None, Some(4), Some(10)] {
                        for most in [1u8, 8] {
                            v.push((d, r, h.max(1), delay, back, apex, most));
                        }
                    }
                }
            }
        }
    }
    v
}

/// Whether pressing the jump against a wall lifts the model (on a floor
/// 16 wide and 40 high, a wall in column 10, from standing on column 8:
/// the jump held `apex` ticks moving right; once off the ground, falling
/// and left where it was by a tick of pushing right, a tick of pushing
/// right, then the jump moving left: rising within three ticks).
pub(super) fn lifts<M: BodyModel>(m: &M, apex: usize) -> bool {
    if apex == 0 {
        return false;
    }
    let (w, h) = (16usize, 40usize);
    let tiles: Vec<Tile> = (0..w * h)
        .map(|i| {
            if i / w == h - 1 || i % w == 10 {
                Tile::SOLID
            } else {
                Tile::EMPTY
            }
        })
        .collect();
    let Ok(level) = Level::new(w, h, tiles) else {
        return false;
    };
    let mut s = m.start(&level, Cell::new(8, h as i32 - 2));
    let mut been_off = false;
    for t in 0..FLIGHT_LIMIT {
        let before_x = m.feet(&s)[0];
        let falling = m.velocity(&s)[1] > 0.0;
        let off = m.standing_cell(&s).is_none();
        been_off = been_off || off;
        m.step(&level, &mut s, Input::new(1, t < apex, false));
        let on = m.standing_cell(&s).is_some();
        if m.dead(&s) || (been_off && on) || (!been_off && t >= GROUND_LIMIT) {
            return false;
        }
        if off && falling && m.feet(&s)[0] == before_x {
            m.step(&level, &mut s, Input::new(1, false, false));
            for _ in 0..3 {
                m.step(&level, &mut s, Input::new(-1, true, false));
                if m.velocity(&s)[1] < 0.0 {
                    return true;
                }
            }
            return false;
        }
    }
    false
}

/// Performs `p` from standing on `from`: the end state and the tape, when
/// the body stands again after at least one wall jump.
pub(super) fn perform<M: BodyModel>(
    level: &Level,
    m: &M,
    from: Cell,
    (d, run_up, hold, delay, back, hold2, most): Wall,
) -> Option<(M::State, Vec<Input>)> {
    let mut s = m.start(level, from);
    let mut tape: Vec<Input> = Vec::new();
    let (mut made, mut contact) = (0u8, 0usize);
    let mut away: Option<(i8, usize)> = None;
    let mut prev: Option<(Input, f64)> = None;
    let mut been_off = false;
    while tape.len() < FLIGHT_LIMIT {
        let t = tape.len();
        let on = m.standing_cell(&s).is_some();
        let x = m.feet(&s)[0];
        let input = if t < run_up {
            if !on {
                return None;
            }
            Input::new(d, false, false)
        } else {
            let ft = t - run_up;
            let (mv, held) = match away {
                None => (d, ft < hold),
                Some((a, n)) if back.is_some_and(|k| n >= k) => (-a, n < hold2),
                Some((a, n)) => (a, n < hold2),
            };
            let pushing = matches!(prev, Some((i, px)) if i.move_x == mv && px == x);
            if !on && made < most && ft > 0 && pushing {
                contact += 1;
                if contact > delay && prev.is_some_and(|(i, _)| i.jump) {
                    Input::new(mv, false, false)
                } else if contact > delay {
                    made += 1;
                    contact = 0;
                    away = Some((-mv, 1));
                    Input::new(-mv, true, false)
                } else {
                    if let Some((_, n)) = &mut away {
                        *n += 1;
                    }
                    Input::new(mv, false, false)
                }
            } else {
                contact = 0;
                if let Some((_, n)) = &mut away {
                    *n += 1;
                }
                Input::new(mv, held, false)
            }
        };
        prev = Some((input, x));
        m.step(level, &mut s, input);
        tape.push(input);
        if m.dead(&s) {
            return None;
        }
        let stands = m.standing_cell(&s).is_some();
        if been_off && stands {
            return (made > 0).then_some((s, tape));
        }
        been_off = been_off || !stands;
        if !been_off && t + 1 >= run_up + GROUND_LIMIT {
            return None;
        }
    }
    None
}
