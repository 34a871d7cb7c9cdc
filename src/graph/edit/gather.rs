//! The window's new links, hops and reads: a kept node's copied with
//! their targets renumbered, a rebuilt node's fresh ones reduced again,
//! while the landmark rows move.

use std::ops::Range;

use crate::graph::landmarks::Landmarks;
use crate::graph::{Chunk, Edge, Hop, NO_NODE, NavMap};
use crate::level::Cell;
use crate::links::Link;
use crate::physics::reads::Reads;

impl NavMap {
    /// [`NavMap::window_links`] (see there for `keep`, `fresh`, `ids` and
    /// `first`), while the rows of `landmarks` for the nodes of `window`
    /// (whose old nodes are `olds`) are spliced, on another thread when
    /// the build is parallel.
    pub(super) fn gather_window(
        &self,
        (landmarks, olds): (&mut Landmarks, &[Option<u32>]),
        window: Range<usize>,
        keep: &[Option<u32>],
        fresh: Vec<(Vec<Link>, Reads)>,
        ids: (
            &(impl Fn(u32) -> u32 + Sync),
            &(impl Fn(Cell) -> Option<u32> + Sync),
        ),
        first: u32,
    ) -> (Chunk, Vec<u32>, Vec<Hop>) {
        let gather = || self.window_links(keep, fresh, ids, first);
        #[cfg(feature = "parallel")]
        {
            rayon::join(gather, || landmarks.splice_rows(window, olds)).0
        }
        #[cfg(not(feature = "parallel"))]
        {
            landmarks.splice_rows(window, olds);
            gather()
        }
    }

    /// The link arrays of the window's nodes, their hop counts and their
    /// hops, in order: per node, the links of its old node when `keep`
    /// names one (copied, their targets renumbered by `remap`), else its
    /// `fresh` links (their targets' new nodes by `node_of`). `first` is
    /// the window's first link id.
    ///
    /// A kept node's targets are all still standable: its landings read
    /// their standability, so a change there would have rebuilt it. Its
    /// links keep their order, so its hops are the old ones, renumbered.
    fn window_links(
        &self,
        keep: &[Option<u32>],
        fresh: Vec<(Vec<Link>, Reads)>,
        (remap, node_of): (&impl Fn(u32) -> u32, &impl Fn(Cell) -> Option<u32>),
        first: u32,
    ) -> (Chunk, Vec<u32>, Vec<Hop>) {
        let mut chunk = Chunk::default();
        let mut hop_counts = Vec::with_capacity(keep.len());
        let mut hops = Vec::new();
        let mut order = Vec::new();
        let mut fresh = fresh.into_iter();
        for old in keep {
            let at = chunk.edges.len() as u32;
            let hops_before = hops.len();
            let whole = match *old {
                Some(n) => {
                    let n = n as usize;
                    let (a, b) = (self.offsets[n] as usize, self.offsets[n + 1] as usize);
                    let whole = self.edges[a..b].iter().all(|e| remap(e.target) != NO_NODE);
                    debug_assert!(whole, "a kept link lost its target");
                    if whole {
                        // The node's links, actions and tapes lie end to
                        // end: copied a slice at a time.
                        chunk.edges.extend(self.edges[a..b].iter().map(|e| Edge {
                            target: remap(e.target),
                            ..*e
                        }));
                        chunk.action.extend_from_slice(&self.action[a..b]);
                        for l in a..b {
                            let tape = self.tape_bytes(l);
                            chunk.tape_lens.push(tape.len() as u32);
                            chunk.tapes.extend_from_slice(tape);
                        }
                    } else {
                        for l in a..b {
                            let e = self.edges[l];
                            let target = remap(e.target);
                            if target == NO_NODE {
                                continue;
                            }
                            chunk.edges.push(Edge { target, ..e });
                            chunk.action.push(self.action[l]);
                            let tape = self.tape_bytes(l);
                            chunk.tape_lens.push(tape.len() as u32);
                            chunk.tapes.extend_from_slice(tape);
                        }
                    }
                    chunk.counts.push(chunk.edges.len() as u32 - at);
                    chunk.reads.push_from(&self.reads, n);
                    if whole {
                        let (ha, hb) = (self.hop_at[n] as usize, self.hop_at[n + 1] as usize);
                        hops.extend(self.hops[ha..hb].iter().map(|h| Hop {
                            target: remap(h.target),
                            link: h.link - a as u32 + first + at,
                            ..*h
                        }));
                    }
                    whole
                }
                None => {
                    let (links, reads) = fresh.next().expect("one generation per rebuilt node");
                    chunk.push_node(links, node_of);
                    chunk.reads.push(&reads);
                    false
                }
            };
            if !whole {
                let ids = at..chunk.edges.len() as u32;
                crate::graph::reduce_node(ids, &chunk.edges, &self.nodes, &mut order, &mut hops);
                for h in &mut hops[hops_before..] {
                    h.link += first;
                }
            }
            hop_counts.push((hops.len() - hops_before) as u32);
        }
        (chunk, hop_counts, hops)
    }
}
