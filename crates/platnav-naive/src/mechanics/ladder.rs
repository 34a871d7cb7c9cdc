//! The ladder mechanic's twin (`src/mechanics/ladder/climb.rs`): climbs.

use platnav::{Cell, Input, Level, LinkKind, Tile};

use crate::sim::{Best, Ctx, Sim};

/// The climbs from `from`, on a level with ladders.
pub(crate) fn links(ctx: &Ctx<'_>, level: &Level, from: Cell, best: &mut Best) {
    if !level.holds(Tile::LADDER) {
        return;
    }
    // Tiles as the body sees them: across an edge that wraps, the other side.
    let up = level.get(level.wrapped(from)) == Some(Tile::LADDER);
    let down = level.get(level.wrapped(Cell::new(from.col, from.row + 1))) == Some(Tile::LADDER);
    // A ladder within 3 columns, from 4 rows above to 1 below.
    let near = (-4..=1).any(|dr| {
        (-3..=3).any(|dc| {
            level.get(level.wrapped(Cell::new(from.col + dc, from.row + dr))) == Some(Tile::LADDER)
        })
    });
    // The ladder's rows from the feet up, and from under the feet down
    // (at most 64 each way).
    let height = |row: i32, step: i32| {
        (0..64)
            .take_while(|&i| {
                level.get(level.wrapped(Cell::new(from.col, row + step * i))) == Some(Tile::LADDER)
            })
            .count()
    };
    let rungs = (height(from.row, -1), height(from.row + 1, 1));
    climb_links(ctx, up, down, near, best);
    let down_input = Input::new(0, false, true);
    jump_offs(ctx, Input::IDLE.with_up(true), rungs.0, best);
    jump_offs(ctx, down_input, rungs.1, best);
}

/// Climb (levels with ladders): hold `up` (feet tile a ladder) or `down`
/// (a ladder under the feet) until the body stands again. Any program
/// whose body stands after a tick without having left the ground gives up.
fn climb_links(ctx: &Ctx<'_>, up: bool, down: bool, near: bool, best: &mut Best) {
    let p = ctx.p;
    let up_input = Input {
        up: true,
        ..Input::IDLE
    };
    // Catching a nearby ladder: move left or right holding up, walking (at
    // most the ticks of 3 columns at run speed on the ground) or jumping;
    // once climbing, up alone, or (on the next tick) a jump off it moving
    // `e`, held. Only programs that climbed count.
    if near {
        let walk_limit = (3.0 / (p.run_speed * p.dt).max(1e-6)).ceil() as usize + 2;
        for (d, jump, off) in [-1i8, 1].into_iter().flat_map(|d| {
            [false, true]
                .into_iter()
                .flat_map(move |j| [None, Some(-1i8), Some(1)].map(|o| (d, j, o)))
        }) {
            {
                let mut climbed: Option<usize> = None;
                let mut s = Sim::new(ctx);
                let ok = s.fly(|t, b| {
                    if let (Some(c), Some(e)) = (climbed, off)
                        && t > c
                    {
                        return Some(Input::new(e, true, false));
                    }
                    if b.climbing {
                        climbed.get_or_insert(t);
                        return Some(up_input);
                    }
                    if t > 0 && b.grounded && (jump || t > walk_limit) {
                        return None;
                    }
                    Some(Input {
                        up: true,
                        ..Input::new(d, jump, false)
                    })
                });
                if ok && climbed.is_some() {
                    best.offer(s.land(LinkKind::CLIMB));
                }
            }
        }
    }
    let down_input = Input::new(0, false, true);
    let simple = [(up, up_input), (down, down_input)];
    for (start, input) in simple {
        if !start {
            continue;
        }
        let mut s = Sim::new(ctx);
        if s.fly(|t, b| (t == 0 || !b.grounded).then_some(input)) {
            best.offer(s.land(LinkKind::CLIMB));
        }
    }
}

/// Hold `climb` for the ticks of 1 to `rows` rows, then (still climbing)
/// hold the jump moving left or right until the body lands.
fn jump_offs(ctx: &Ctx<'_>, climb: Input, rows: usize, best: &mut Best) {
    let p = ctx.p;
    for rows in 1..=rows {
        let k = ((rows as f64 / (p.climb_speed * p.dt).max(1e-9)).ceil() as usize).max(1);
        for d in [-1i8, 1] {
            let mut s = Sim::new(ctx);
            let ok = s.fly(|t, b| {
                if t > 0 && b.grounded {
                    None
                } else if t < k {
                    Some(climb)
                } else if t == k && !b.climbing {
                    None
                } else {
                    Some(Input::new(d, true, false))
                }
            });
            if ok {
                best.offer(s.land(LinkKind::CLIMB));
            }
        }
    }
}
