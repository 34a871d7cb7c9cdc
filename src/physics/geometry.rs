//! The geometry every rule shares: the overlap tolerance, floors and
//! nearest integers without libm, the tiles a span of the box overlaps, and
//! wall contact.

use std::ops::Range;

use super::Tiles;
use crate::level::Tile;

/// Overlap tolerance: box and tile overlap when both axis overlaps exceed
/// it. `2^-30` (about `9.3e-10`), a multiple of [`GRID`], so that adding it
/// to a position is exact.
pub const EPS: f64 = 1.0 / (1u64 << 30) as f64;

/// The position grid (`PHYSICS.md`, "Space and units"): positions are
/// multiples of `2^-36` tile. Every level coordinate (at most `2^16`) times
/// `2^36` stays below `2^53`, so sums and differences of positions are
/// exact, and motion is the same, to the last bit, in every frame.
pub const GRID: f64 = 1.0 / (1u64 << 36) as f64;

/// `d` rounded to the nearest multiple of [`GRID`], ties to even: every
/// displacement and box dimension goes through it before it meets a
/// position. Exact for `|d| < 2^15` (adding and taking away `1.5 * 2^52`
/// rounds to an integer, without a libm call).
#[inline]
pub fn snap(d: f64) -> f64 {
    const SCALE: f64 = (1u64 << 36) as f64;
    const MAGIC: f64 = 1.5 * (1u64 << 52) as f64;
    ((d * SCALE + MAGIC) - MAGIC) * GRID
}

/// `floor` as an integer, without a libm call (exact for |x| < 2^62;
/// larger values saturate, which no level can reach).
#[inline]
pub(crate) fn ifloor(x: f64) -> i64 {
    let i = x as i64;
    if (i as f64) > x { i - 1 } else { i }
}

/// The position nearest `x` on the grid: its whole tiles plus its fraction
/// [`snap`]ped (the fraction is exact, and below 1).
#[inline]
pub fn on_grid(x: f64) -> f64 {
    let whole = ifloor(x) as f64;
    whole + snap(x - whole)
}

/// The integer nearest `x` (ties either way; only used within EPS of one).
#[inline]
pub(crate) fn inearest(x: f64) -> i64 {
    ifloor(x + 0.5)
}

/// The columns (or rows) of tiles a `[lo, hi]` span overlaps by more than EPS.
///
/// Interior tiles overlap by a whole tile, so only the two end tiles need
/// the EPS test; the range is exactly the tiles `c` with
/// `min(hi, c + 1) - max(lo, c) > EPS`.
#[inline]
pub(crate) fn span(lo: f64, hi: f64) -> Range<i64> {
    let mut first = ifloor(lo);
    let mut last = ifloor(hi);
    // The overlap of each end tile `[t, t + 1]`, without the operand its
    // floor makes redundant: `max(lo, t) = lo` for `t = floor(lo)`, and
    // `min(hi, t + 1) = hi` for `t = floor(hi)` (finite `lo <= hi`).
    // Plain comparisons rather than `min` and `max`, which add NaN handling:
    // they pick the same value here, as `t` is never NaN (a NaN `hi` or `lo`
    // loses either way), and a zero's sign is moot to the EPS test.
    let t = first as f64 + 1.0;
    if (if hi < t { hi } else { t }) - lo <= EPS {
        first += 1;
    }
    let t = last as f64;
    if hi - (if lo > t { lo } else { t }) <= EPS {
        last -= 1;
    }
    // Half-open: loops over a `Range` compile tighter than `RangeInclusive`.
    first..last + 1
}

/// Whether a tile of column `edge`'s nearest integer plus `shift` that
/// `blocks` touches a box side at `edge` (within EPS) on one of `rows` (the
/// box's row span): the wall tests of step 7, for a row span computed once.
#[inline]
pub(crate) fn wall_at<T: Tiles + ?Sized>(
    level: &T,
    edge: f64,
    shift: i64,
    rows: Range<i64>,
    blocks: impl Fn(Tile, i64, i64) -> bool,
) -> bool {
    let c = inearest(edge);
    if (c as f64 - edge).abs() > EPS {
        return false;
    }
    let col = c + shift;
    rows.into_iter()
        .any(|r| blocks(level.tile_at(col, r), col, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snap_rounds_to_the_nearest_grid_multiple_ties_to_even() {
        assert_eq!(snap(0.1), (0.1 * 2f64.powi(36)).round() / 2f64.powi(36));
        assert_eq!(snap(-0.1), -snap(0.1));
        // Half a grid step rounds to 0 (even), one and a half to 2 steps.
        assert_eq!(snap(0.5 * GRID), 0.0);
        assert_eq!(snap(1.5 * GRID), 2.0 * GRID);
        assert_eq!(snap(EPS), EPS);
    }

    #[test]
    fn grid_positions_move_the_same_in_every_frame() {
        let mut x = on_grid(0.3);
        for i in 0..10_000u32 {
            let d = snap(f64::from(i % 97) * 0.013_7 - 0.6);
            let k = f64::from(i % 60_000);
            // The same step taken k tiles away lands k tiles away, exactly.
            assert_eq!((x + k) + d, (x + d) + k);
            x = on_grid(x) + d;
            assert_eq!(on_grid(x), x);
        }
    }
}
