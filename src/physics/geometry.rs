//! The geometry every rule shares: the overlap tolerance, floors and
//! nearest integers without libm, the tiles a span of the box overlaps, and
//! wall contact.

use std::ops::Range;

use super::Tiles;
use crate::level::Tile;

/// Overlap tolerance: box and tile overlap when both axis overlaps exceed it.
pub const EPS: f64 = 1e-9;

/// `floor` as an integer, without a libm call (exact for |x| < 2^62;
/// larger values saturate, which no level can reach).
#[inline]
pub(crate) fn ifloor(x: f64) -> i64 {
    let i = x as i64;
    if (i as f64) > x { i - 1 } else { i }
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
