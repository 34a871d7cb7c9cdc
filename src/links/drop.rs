//! Drop links: fall through the one-way platform under the feet.
//!
//! The program holds `down` for the first two ticks (with `move = d`), then
//! steers: keep `d`, or after `k` ticks switch to idle or `-d` (for `d = 0`,
//! to -1 or +1).
//!
//! The programs of one direction share their prefix: the flight keeping
//! `d` is simulated once, and each steering switch branches off it at its
//! tick, exactly as simulating each program from scratch would.

use super::{Best, Flight, LinkKind, Sim};
use crate::level::{Cell, Level, Tile};
use crate::physics::{Body, Input};

const SWITCH_TICKS: [usize; 5] = [4, 8, 12, 18, 26];

pub(super) fn generate<'a>(sim: &impl Fn() -> Sim<'a>, level: &Level, from: Cell, best: &mut Best) {
    if level.get(Cell::new(from.col, from.row + 1)) != Some(Tile::OneWay) {
        return;
    }
    for d in [-1i8, 0, 1] {
        let targets = if d == 0 { [-1, 1] } else { [0, -d] };
        for s in flights(sim(), d, targets) {
            let link = s.land(LinkKind::Drop, best);
            best.offer(link);
        }
    }
}

/// The input of tick `t` of the program in direction `d` that switches
/// to `sched.1` at tick `sched.0` (never for `None`).
fn program(d: i8, sched: Option<(usize, i8)>) -> impl Fn(usize, &Body) -> Option<Input> {
    move |t, _| {
        let mv = match sched {
            Some((k, b)) if t >= k => b,
            _ => d,
        };
        Some(Input::new(mv, false, t < 2))
    }
}

/// The landed sims of the programs of direction `d`, in program order
/// (keep `d`, then each switch tick's `targets`). A program whose switch
/// comes after the flight keeping `d` ended is that flight: it is left
/// out, as offering the same link twice changes nothing.
fn flights(mut base: Sim<'_>, d: i8, targets: [i8; 2]) -> Vec<Sim<'_>> {
    let mut branches = Vec::with_capacity(2 * SWITCH_TICKS.len());
    let mut ended = None;
    for &k in &SWITCH_TICKS {
        match base.run(program(d, None), Some(k)) {
            Flight::Paused => {
                for b in targets {
                    let mut s = base.clone();
                    if s.fly(program(d, Some((k, b)))) {
                        branches.push(s);
                    }
                }
            }
            end => {
                ended = Some(end);
                break;
            }
        }
    }
    let landed = match ended {
        Some(end) => end == Flight::Landed,
        None => base.fly(program(d, None)),
    };
    let mut out = Vec::with_capacity(1 + branches.len());
    if landed {
        out.push(base);
    }
    out.extend(branches);
    out
}
