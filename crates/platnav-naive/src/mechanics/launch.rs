//! The launchers' twin (`src/mechanics/launch.rs`): spring jumps, jumps held to
//! their landing, on levels with springs.

use platnav::{Cell, Input, Level, LinkKind, Tile};

use crate::sim::{Best, Ctx};

/// The spring jumps from `from`, on a level with springs: for each direction
/// `d`, press jump and hold it to the landing, moving `d`, or after `k`
/// ticks switch to idle or `-d` (for `d = 0`, to -1 or +1).
pub(crate) fn links(ctx: &Ctx<'_>, level: &Level, _from: Cell, best: &mut Best) {
    if !level.holds(Tile::SPRING) {
        return;
    }
    const SWITCH_TICKS: [usize; 5] = [4, 8, 12, 18, 26];
    super::steered(ctx, best, LinkKind::SPRING_JUMP, &SWITCH_TICKS, |mv, _| {
        Input::new(mv, true, false)
    });
}
