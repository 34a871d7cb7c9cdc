//! The twins of the mechanics' link families (`src/mechanics/`): the same
//! programs, each performed from scratch.

mod ladder;
mod launch;
mod one_way;

use platnav::{Cell, Input, Level, LinkKind};

use crate::sim::{Best, Ctx, Sim};

/// A mechanic's family twin: the links from standing on `from`, offered to
/// the best.
pub(crate) type Twin = fn(&Ctx<'_>, &Level, Cell, &mut Best);

/// Every mechanic's twin, in the order of the mechanics' registry.
pub(crate) const TWINS: [Twin; 3] = [one_way::links, ladder::links, launch::links];

/// The mechanics' steered programs, each performed from scratch: for each
/// direction `d` in {-1, 0, +1}, `input(move, t)` with `move = d`, or after
/// `k` ticks of `switches` switched to idle or `-d` (for `d = 0`, to -1
/// or +1); the landings offered as links of `kind`.
pub(crate) fn steered(
    ctx: &Ctx<'_>,
    best: &mut Best,
    kind: LinkKind,
    switches: &[usize],
    input: impl Fn(i8, usize) -> Input,
) {
    for d in [-1i8, 0, 1] {
        let targets = if d == 0 { [-1, 1] } else { [0, -d] };
        let mut schedules: Vec<Option<(usize, i8)>> = vec![None];
        for &k in switches {
            schedules.extend(targets.map(|b| Some((k, b))));
        }
        for sched in schedules {
            let mut s = Sim::new(ctx);
            let ok = s.fly(|t, _| {
                let mv = match sched {
                    Some((k, b)) if t >= k => b,
                    _ => d,
                };
                Some(input(mv, t))
            });
            if ok {
                best.offer(s.land(kind));
            }
        }
    }
}
