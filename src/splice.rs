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
    let later = items.start + 1 + new.len();
    splice(ends, items.start + 1..items.end + 1, &new);
    if shift != 0 {
        for e in &mut ends[later..] {
            *e = e.wrapping_add(shift);
        }
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
}
