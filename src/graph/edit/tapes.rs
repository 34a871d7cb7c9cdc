//! The tape arena through edits: where the window's new tapes start, a
//! link's tape, and laying the tapes end to end again.

use crate::graph::{Chunk, NavMap};

impl NavMap {
    /// Where each of the window's new tapes (`chunk`'s) will start once
    /// they are appended after every other tape. The tapes are laid end to
    /// end again first when the appended tapes would end past `u32` offsets.
    pub(super) fn tape_starts(&mut self, chunk: &Chunk) -> Vec<u32> {
        if u32::try_from(self.tapes.len() + chunk.tapes.len()).is_err() {
            self.compact_tapes();
        }
        let mut at = self.tapes.len() as u32;
        chunk
            .tape_lens
            .iter()
            .map(|&n| {
                at += n;
                at - n
            })
            .collect()
    }

    /// Link `l`'s tape, in `tapes`: its runs (`graph::tape`).
    pub(crate) fn tape_bytes(&self, l: usize) -> &[u8] {
        let runs = &self.tapes[self.tape_at[l] as usize..];
        &runs[..crate::graph::tape::byte_len(runs, usize::from(self.edges[l].ticks))]
    }

    /// Lays the tapes end to end again, in link order, dropping the bytes
    /// edits left behind (once they are half of them: each edit leaves a
    /// few kilobytes, so this comes seldom and costs a pass over the tapes).
    pub(super) fn compact_tapes(&mut self) {
        let live = self.tapes.len() - self.tape_garbage;
        let mut tapes = Vec::with_capacity(live + live / 8);
        for l in 0..self.tape_at.len() {
            let tape = self.tape_bytes(l);
            let at = tapes.len() as u32;
            tapes.extend_from_slice(tape);
            self.tape_at[l] = at;
        }
        self.tapes = tapes;
        self.tape_garbage = 0;
    }
}

/// Appends the window's tapes `new` to the tapes.
#[inline]
pub(super) fn append_tapes(tapes: &mut Vec<u8>, new: &[u8]) {
    if tapes.capacity() - tapes.len() < new.len() {
        // Room for many edits' tapes: growing copies every tape.
        tapes.reserve_exact(new.len() + tapes.len() / 8);
    }
    tapes.extend_from_slice(new);
}
