//! Drop links: fall through the one-way platform under the feet.
//!
//! The program holds `down` for the first two ticks (with `move = d`), then
//! steers: keep `d`, or after `k` ticks switch to idle or `-d` (for `d = 0`,
//! to -1 or +1).

use super::{Best, LinkKind, Sim};
use crate::level::{Cell, Level, Tile};
use crate::physics::Input;

const SWITCH_TICKS: [usize; 5] = [4, 8, 12, 18, 26];

pub(super) fn generate<'a>(sim: &impl Fn() -> Sim<'a>, level: &Level, from: Cell, best: &mut Best) {
    if level.get(Cell::new(from.col, from.row + 1)) != Some(Tile::OneWay) {
        return;
    }
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
            let mut s = sim();
            let ok = s.fly(|t, _| {
                let mv = match sched {
                    Some((k, b)) if t >= k => b,
                    _ => d,
                };
                Some(Input::new(mv, false, t < 2))
            });
            if ok {
                let link = s.land(LinkKind::Drop, best);
                best.offer(link);
            }
        }
    }
}
