//! In-place replacement of a stretch of a flat array, for edits that
//! rewrite a few nodes of a map whose records lie end to end.

use std::ops::Range;

/// Replaces `v[range]` by `with`. A vector that must grow reserves a
/// little room beyond the fit, so that later edits rarely move it whole.
pub(crate) fn splice<T: Copy>(v: &mut Vec<T>, range: Range<usize>, with: &[T]) {
    let grow = with.len().saturating_sub(range.len());
    if v.capacity() - v.len() < grow {
        v.reserve_exact(grow + v.len() / 64 + 64);
    }
    v.splice(range, with.iter().copied());
}

/// Replaces `v[range]` by `with` and applies `f` to every later item as
/// it moves: the tail moves in blocks that fit in the cache and is mapped
/// there, one pass over memory where a splice and then a loop over the
/// tail would take two (on the largest maps the tails are tens of
/// megabytes, and moving them is most of an edit's cost). An item-by-item
/// loop does the same in one pass but is slower than `memmove`.
pub(crate) fn splice_map<T: Copy>(
    v: &mut Vec<T>,
    range: Range<usize>,
    with: &[T],
    f: impl Fn(T) -> T,
) {
    /// Items moved and mapped at a time (tens of kilobytes).
    const BLOCK: usize = 2048;
    let (old_len, end) = (v.len(), range.start + with.len());
    if end > range.end {
        let d = end - range.end;
        if v.capacity() - v.len() < d {
            v.reserve_exact(d + v.len() / 64 + 64);
        }
        v.resize(old_len + d, with[0]);
        // Back to front: each block lands beyond every item still to move.
        let mut hi = old_len;
        while hi > range.end {
            let lo = hi.saturating_sub(BLOCK).max(range.end);
            v.copy_within(lo..hi, lo + d);
            v[lo + d..hi + d].iter_mut().for_each(|x| *x = f(*x));
            hi = lo;
        }
    } else {
        let d = range.end - end;
        let mut lo = range.end;
        while lo < old_len {
            let hi = (lo + BLOCK).min(old_len);
            v.copy_within(lo..hi, lo - d);
            v[lo - d..hi - d].iter_mut().for_each(|x| *x = f(*x));
            lo = hi;
        }
        v.truncate(old_len - d);
    }
    v[range.start..end].copy_from_slice(with);
}

/// In an array of ends (`ends[i]..ends[i + 1]` is item `i`'s stretch of
/// some other array), replaces items `items` by items of lengths `lens`,
/// and moves the ends of the later items by the change.
pub(crate) fn splice_ends(ends: &mut Vec<u32>, items: Range<usize>, lens: &[u32]) {
    let mut at = ends[items.start];
    let new: Vec<u32> = lens
        .iter()
        .map(|&n| {
            at += n;
            at
        })
        .collect();
    let shift = at.wrapping_sub(ends[items.end]);
    let range = items.start + 1..items.end + 1;
    if shift == 0 {
        splice(ends, range, &new);
    } else {
        splice_map(ends, range, &new, |e| e.wrapping_add(shift));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spliced_ends_equal_ends_built_afresh() {
        let lens = [3u32, 0, 2, 5, 1];
        let ends_of = |lens: &[u32]| {
            let mut at = 0;
            std::iter::once(0)
                .chain(lens.iter().map(|&n| {
                    at += n;
                    at
                }))
                .collect::<Vec<u32>>()
        };
        for (items, with) in [
            (1..3, vec![4, 4, 4]),
            (0..5, vec![]),
            (2..2, vec![7]),
            (4..5, vec![0]),
        ] {
            let mut ends = ends_of(&lens);
            splice_ends(&mut ends, items.clone(), &with);
            let mut want = lens.to_vec();
            want.splice(items, with);
            assert_eq!(ends, ends_of(&want));
        }
        let mut v = vec![1, 2, 3];
        splice(&mut v, 1..2, &[9, 9]);
        assert_eq!(v, [1, 9, 9, 3]);
    }

    #[test]
    fn a_mapped_splice_equals_a_splice_then_a_pass_over_the_tail() {
        let v: Vec<u32> = (0..5000).collect();
        for start in [0, 3, 17, 39, 40, 2047, 4990, 5000] {
            for len in [0, 1, 5, 12, 3000] {
                let end = (start + len).min(v.len());
                for with_len in [0, 1, 4, 12, 30, 2500] {
                    let with: Vec<u32> = (100..100 + with_len).collect();
                    let mut want = v.clone();
                    want.splice(start..end, with.iter().copied());
                    for x in &mut want[start + with.len()..] {
                        *x += 1000;
                    }
                    let mut got = v.clone();
                    splice_map(&mut got, start..end, &with, |x| x + 1000);
                    assert_eq!(got, want, "{start}..{end} by {with_len}");
                }
            }
        }
    }
}
