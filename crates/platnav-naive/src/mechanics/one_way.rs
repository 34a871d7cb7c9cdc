//! The one-way mechanic's twin (`src/mechanics/one_way.rs`): drops through
//! the one-way platform under the feet.

use platnav::{Cell, Input, Level, LinkKind, Tile};

use crate::sim::{Best, Ctx};

/// The drops from `from`, when it stands on a one-way tile.
pub(crate) fn links(ctx: &Ctx<'_>, level: &Level, from: Cell, best: &mut Best) {
    if level.get(level.wrapped(Cell::new(from.col, from.row + 1))) == Some(Tile::ONE_WAY) {
        drop_links(ctx, best);
    }
}

/// Drop: hold `down` two ticks moving `d`, then keep `d` or, after `k`
/// ticks, switch (to idle or `-d`; for `d = 0` to -1 or +1).
fn drop_links(ctx: &Ctx<'_>, best: &mut Best) {
    const SWITCH_TICKS: [usize; 5] = [4, 8, 12, 18, 26];
    super::steered(ctx, best, LinkKind::DROP, &SWITCH_TICKS, |mv, t| {
        Input::new(mv, false, t < 2)
    });
}
