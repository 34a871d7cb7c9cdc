//! The exact search's bucket queue and its key.

/// The exact search's queue key: `f` rounded down to whole ticks. With
/// integer link costs, flooring keeps the heuristic admissible and
/// consistent, so keys never decrease along the search, which lets the
/// queue be a bucket queue.
pub(super) fn key(f: f64) -> u64 {
    // `as` truncates toward zero: the floor of a non-negative value (and
    // needs no libm call on targets without SSE4.1). Through `i64`, one
    // conversion instruction: keys are far below 2^63, and a larger `f`
    // would still saturate, keeping keys monotone.
    f.max(0.0) as i64 as u64
}

/// The exact search's queue of `(key, g, state)`: pops a least key, and
/// among equal keys the entry pushed last. Every key pushed is at least the
/// last key popped (A* with a consistent heuristic; a smaller one is served
/// as the last popped key). This is exactly the order the radix heap it
/// replaces produced (kept in the tests as the reference), so searches
/// expand the same states in the same order.
///
/// Keys near the last popped one live in a ring of [`BucketQueue::RING`]
/// stacks, one per key, so push and pop are O(1); the rare key beyond the
/// ring waits in an overflow list, in push order, and moves into its stack
/// (before any entry pushed there later) once the ring reaches it.
pub(super) struct BucketQueue {
    /// The last key popped: the ring holds keys `last..last + RING`.
    last: u64,
    /// Entries in the ring.
    len: usize,
    /// Stack of key `k` at `k % RING`; empty until the first `clear`.
    ring: Vec<Vec<(u32, u32)>>,
    /// Entries whose key was beyond the ring when pushed, in push order.
    over: Vec<(u64, u32, u32)>,
    /// The least key in `over` (`u64::MAX` when empty).
    over_min: u64,
}

impl BucketQueue {
    /// Heap bytes held.
    pub(super) fn bytes(&self) -> usize {
        self.ring.capacity() * size_of::<Vec<(u32, u32)>>()
            + self.ring.iter().map(|b| b.capacity() * 8).sum::<usize>()
            + self.over.capacity() * size_of::<(u64, u32, u32)>()
    }
}

impl BucketQueue {
    /// Keys the ring spans.
    const RING: u64 = 512;

    pub(super) const fn new() -> Self {
        Self {
            last: 0,
            len: 0,
            ring: Vec::new(),
            over: Vec::new(),
            over_min: u64::MAX,
        }
    }

    pub(super) fn clear(&mut self) {
        self.last = 0;
        self.len = 0;
        if self.ring.is_empty() {
            self.ring = (0..Self::RING).map(|_| Vec::new()).collect();
        }
        self.ring.iter_mut().for_each(Vec::clear);
        self.over.clear();
        self.over_min = u64::MAX;
    }

    #[inline]
    pub(super) fn stack(&mut self, key: u64) -> &mut Vec<(u32, u32)> {
        &mut self.ring[(key % Self::RING) as usize]
    }

    #[inline]
    pub(super) fn push(&mut self, key: u64, g: u32, state: u32) {
        let key = key.max(self.last);
        if self.ring.is_empty() {
            self.clear();
        }
        if key - self.last < Self::RING {
            self.stack(key).push((g, state));
            self.len += 1;
        } else {
            self.over.push((key, g, state));
            self.over_min = self.over_min.min(key);
        }
    }

    #[inline]
    pub(super) fn pop(&mut self) -> Option<(u64, u32, u32)> {
        if self.len == 0 {
            if self.over.is_empty() {
                return None;
            }
            self.last = self.over_min;
            self.admit();
        }
        while self.stack(self.last).is_empty() {
            self.last += 1;
        }
        let last = self.last;
        let (g, state) = self.stack(last).pop()?;
        self.len -= 1;
        if self.over_min < self.last + Self::RING {
            self.admit();
        }
        Some((last, g, state))
    }

    /// Up to `n` of the entries the next pops return first, in that order,
    /// left in place; entries beyond the ring are not looked at.
    pub(super) fn peek(&self, n: usize) -> Vec<(u32, u32)> {
        let mut out = Vec::with_capacity(n);
        if self.ring.is_empty() {
            return out;
        }
        for key in self.last..self.last + Self::RING {
            for &entry in self.ring[(key % Self::RING) as usize].iter().rev() {
                if out.len() == n {
                    return out;
                }
                out.push(entry);
            }
        }
        out
    }

    /// Moves the overflow entries the ring now spans into their stacks, in
    /// push order. Their stacks are empty: a stack's previous key is below
    /// `last`, and no key they hold has been pushed into the ring yet.
    pub(super) fn admit(&mut self) {
        let end = self.last + Self::RING;
        let mut over = std::mem::take(&mut self.over);
        let mut min = u64::MAX;
        over.retain(|&(key, g, state)| {
            if key < end {
                self.ring[(key % Self::RING) as usize].push((g, state));
                self.len += 1;
                false
            } else {
                min = min.min(key);
                true
            }
        });
        self.over = over;
        self.over_min = min;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_queue_pops_exactly_as_the_radix_heap_did() {
        let mut x = 99u64;
        let mut rand = move || {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            x >> 33
        };
        let mut overflowed = 0;
        for trial in 0..40u32 {
            let (mut queue, mut heap) = (BucketQueue::new(), RadixHeap::new());
            queue.clear();
            let mut last = 0;
            let (mut pops, mut pushed) = (0, 0u32);
            for round in 0..3000u32 {
                for _ in 0..rand() % 4 {
                    // Mostly near the last key, with ties, some far past the
                    // ring, and now and then below it.
                    let r = rand();
                    let k = match r % 16 {
                        0 => last + BucketQueue::RING + r % 3000,
                        1 => last.saturating_sub(r % 3),
                        _ => last + r % (u64::from(trial % 5) * 8 + 2),
                    };
                    overflowed += usize::from(k >= last + BucketQueue::RING);
                    // A unique payload, so that any difference in order shows.
                    pushed += 1;
                    queue.push(k, pushed, round);
                    heap.push(k, pushed, round);
                }
                if rand() % 3 > 0 {
                    let got = queue.pop();
                    assert_eq!(got, heap.pop(), "trial {trial}, round {round}");
                    if let Some((k, ..)) = got {
                        last = k;
                        pops += 1;
                    }
                }
            }
            while let Some(e) = heap.pop() {
                assert_eq!(queue.pop(), Some(e));
                pops += 1;
            }
            assert_eq!(queue.pop(), None);
            assert!(pops > 1000);
        }
        assert!(overflowed > 100);
    }

    /// The queue the exact search used before [`BucketQueue`], the reference
    /// for its pop order. A monotone priority queue of `(key, g, state)`: every key pushed is at
    /// least the last key popped (A* with a consistent heuristic). Keys live in
    /// buckets by the highest bit in which they differ from the last popped
    /// key, so push is O(1) and each entry moves down at most 64 times.
    pub(super) struct RadixHeap {
        last: u64,
        len: usize,
        buckets: [Vec<(u64, u32, u32)>; 65],
    }

    impl RadixHeap {
        const fn new() -> Self {
            Self {
                last: 0,
                len: 0,
                buckets: [const { Vec::new() }; 65],
            }
        }

        fn clear(&mut self) {
            self.last = 0;
            self.len = 0;
            self.buckets.iter_mut().for_each(Vec::clear);
        }

        fn bucket(&self, key: u64) -> usize {
            (64 - (key ^ self.last).leading_zeros()) as usize
        }

        #[inline]
        fn push(&mut self, key: u64, g: u32, state: u32) {
            // A key below the last popped one would mean an inconsistent
            // heuristic; it is served next rather than lost.
            let key = key.max(self.last);
            let b = self.bucket(key);
            self.buckets[b].push((key, g, state));
            self.len += 1;
        }

        #[inline]
        fn pop(&mut self) -> Option<(u64, u32, u32)> {
            if self.len == 0 {
                return None;
            }
            if self.buckets[0].is_empty() {
                let i = self.buckets.iter().position(|b| !b.is_empty())?;
                let moved = std::mem::take(&mut self.buckets[i]);
                self.last = moved.iter().map(|e| e.0).min().unwrap_or(self.last);
                for &e in &moved {
                    let b = self.bucket(e.0);
                    self.buckets[b].push(e);
                }
                // Hand the emptied allocation back to its bucket.
                let mut moved = moved;
                moved.clear();
                if self.buckets[i].is_empty() {
                    self.buckets[i] = moved;
                }
            }
            self.len -= 1;
            self.buckets[0].pop()
        }
    }

    #[test]
    fn radix_heap_pops_keys_in_order_while_pushes_stay_monotone() {
        let mut heap = RadixHeap::new();
        let mut reference: Vec<u64> = Vec::new();
        let mut x = 12_345u64;
        let mut last = 0;
        let mut popped = Vec::new();
        for round in 0..2000u32 {
            // Push a few keys at or above the last popped one.
            for _ in 0..(round % 4) {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let k = last + (x >> 54);
                heap.push(k, 0, round);
                reference.push(k);
            }
            if let Some((k, _, _)) = heap.pop() {
                assert!(k >= last);
                last = k;
                popped.push(k);
            }
        }
        while let Some((k, _, _)) = heap.pop() {
            popped.push(k);
        }
        reference.sort_unstable();
        let mut sorted = popped.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, reference);
        assert!(popped.windows(2).all(|w| w[0] <= w[1]));
        heap.clear();
        assert!(heap.pop().is_none());
    }

    #[test]
    fn peek_shows_what_the_next_pops_return_and_leaves_it() {
        let mut q = BucketQueue::new();
        assert!(q.peek(3).is_empty());
        q.clear();
        for (k, s) in [(5, 1), (3, 2), (5, 3), (4, 4), (900, 5)] {
            q.push(k, 0, s);
        }
        let peeked = q.peek(4);
        let popped: Vec<(u32, u32)> = (0..4)
            .map(|_| q.pop().map(|(_, g, s)| (g, s)).unwrap())
            .collect();
        assert_eq!(peeked, popped);
        // The far key waits beyond the ring: not peeked, still popped.
        assert!(q.peek(4).is_empty());
        assert_eq!(q.pop().map(|e| e.2), Some(5));
    }
}
