//! The one-way mechanic's twin (`src/mechanics/one_way.rs`): drops through
//! the one-way platform under the feet.

use platnav::{Cell, Input, Level, LinkKind, Tile};

use crate::sim::{Best, Ctx, Sim};

/// The drops from `from`, when it stands on a one-way tile.
pub(crate) fn links(ctx: &Ctx<'_>, level: &Level, from: Cell, best: &mut Best) {
    if level.get(Cell::new(from.col, from.row + 1)) == Some(Tile::ONE_WAY) {
        drop_links(ctx, best);
    }
}

/// Drop: hold `down` two ticks moving `d`, then keep `d` or, after `k`
/// ticks, switch (to idle or `-d`; for `d = 0` to -1 or +1).
fn drop_links(ctx: &Ctx<'_>, best: &mut Best) {
    const SWITCH_TICKS: [usize; 5] = [4, 8, 12, 18, 26];
    for d in [-1i8, 0, 1] {
        let mut schedules: Vec<Option<(usize, i8)>> = vec![None];
        for &k in &SWITCH_TICKS {
            if d == 0 {
                schedules.push(Some((k, -1)));
                schedules.push(Some((k, 1)));
            } else {
                schedules.push(Some((k, 0)));
                schedules.push(Some((k, -d)));
            }
        }
        for sched in schedules {
            let mut s = Sim::new(ctx);
            let ok = s.fly(|t, _| {
                let mv = match sched {
                    Some((k, b)) if t >= k => b,
                    _ => d,
                };
                Some(Input::new(mv, false, t < 2))
            });
            if ok {
                best.offer(s.land(LinkKind::DROP));
            }
        }
    }
}
