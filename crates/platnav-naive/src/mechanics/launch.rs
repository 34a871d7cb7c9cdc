//! The launchers' twin (`src/mechanics/launch.rs`): spring jumps, jumps held to
//! their landing, on levels with springs.

use platnav::{Cell, Input, Level, LinkKind, Tile};

use crate::sim::{Best, Ctx, Sim};

/// The spring jumps from `from`, on a level with springs: for each direction
/// `d`, press jump and hold it to the landing, moving `d`, or after `k`
/// ticks switch to idle or `-d` (for `d = 0`, to -1 or +1).
pub(crate) fn links(ctx: &Ctx<'_>, level: &Level, _from: Cell, best: &mut Best) {
    if !level.holds(Tile::SPRING) {
        return;
    }
    const SWITCH_TICKS: [usize; 5] = [4, 8, 12, 18, 26];
    for d in [-1i8, 0, 1] {
        let targets = if d == 0 { [-1, 1] } else { [0, -d] };
        let mut schedules: Vec<Option<(usize, i8)>> = vec![None];
        for &k in &SWITCH_TICKS {
            schedules.extend(targets.map(|b| Some((k, b))));
        }
        for sched in schedules {
            let mut s = Sim::new(ctx);
            let ok = s.fly(|t, _| {
                let mv = match sched {
                    Some((k, b)) if t >= k => b,
                    _ => d,
                };
                Some(Input::new(mv, true, false))
            });
            if ok {
                best.offer(s.land(LinkKind::SPRING_JUMP));
            }
        }
    }
}
