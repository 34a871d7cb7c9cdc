//! Drop links: fall through the one-way platform under the feet.
//!
//! The program holds `down` for the first two ticks (with `move = d`), then
//! steers: keep `d`, or after `k` ticks switch to idle or `-d` (for `d = 0`,
//! to -1 or +1).
//!
//! The programs of one direction share their prefix ([`Sim::steered`]): the
//! flight keeping `d` is simulated once, and each steering switch branches
//! off it at its tick, exactly as simulating each program from scratch
//! would.

use super::{Best, LinkKind, Sim, steering};
use crate::level::{Cell, Level, Tile};
use crate::physics::{Body, Input};

/// Ticks after which the steering switches.
pub(super) const SWITCH_TICKS: [usize; 5] = [4, 8, 12, 18, 26];

pub(super) fn generate<'a>(sim: &impl Fn() -> Sim<'a>, level: &Level, from: Cell, best: &mut Best) {
    let below = Cell::new(from.col, from.row + 1);
    sim().frame.note(below);
    if level.get(below) != Some(Tile::OneWay) {
        return;
    }
    for d in [-1i8, 0, 1] {
        let targets = if d == 0 { [-1, 1] } else { [0, -d] };
        for s in sim().steered(SWITCH_TICKS, targets, |sched| program(d, sched)) {
            let link = s.land(LinkKind::Drop, best);
            best.offer(link);
        }
    }
}

/// The input of tick `t` of the program in direction `d` that switches
/// to `sched.1` at tick `sched.0` (never for `None`).
fn program(d: i8, sched: Option<(usize, i8)>) -> impl Fn(usize, &Body) -> Option<Input> {
    move |t, _| Some(Input::new(steering(d, sched, t), false, t < 2))
}
