//! Search labels, kept by the map between queries.

use super::Route;
use super::queue::BucketQueue;
use crate::graph::pool::{Scratch, ScratchPool};
use crate::graph::{LinkId, NavMap, NodeId};

/// The hot half of a label, packed in one `u64`: the search's generation
/// in the high half, the best arrival time at the state in the low half.
/// Valid only when the generation is the current one, so starting a search
/// clears nothing; since generations only grow, one wrapping subtraction of
/// the current generation's tag gives the arrival time of a current label
/// and a value above `u32::MAX` for a stale one. Every relaxed link reads
/// one, so it is kept to 8 bytes.
pub(super) type Best = u64;

/// The cold half of a label: how its best arrival was reached (written
/// with its [`Best`], read when the route is traced back), and the state's
/// heuristic. A node is often labelled again on a cheaper arrival and its
/// bound does not change, so when jumps are not capped (one state per
/// node) a relabelled node's bound is read back from here instead of being
/// computed again, valid exactly when its [`Best`] is current.
#[derive(Clone, Copy)]
pub(super) struct Via {
    pub(super) parent: u32,
    pub(super) link: u32,
    pub(super) h: f64,
}

pub(super) const NO_PARENT: u32 = u32::MAX;

/// Labels: one per (node, jumps used) when jumps are capped, else per node.
/// Kept by the map between searches ([`ScratchPool`]) with a generation
/// stamp, so a query neither allocates nor clears O(nodes) memory.
pub(super) struct Labels {
    pub(super) levels: usize,
    pub(super) generation: u32,
    /// `generation` in the high half: the stamp of current [`Best`]s.
    pub(super) tag: u64,
    pub(super) best: Vec<Best>,
    pub(super) via: Vec<Via>,
    pub(super) heap: BucketQueue,
}

impl Labels {
    const fn new() -> Self {
        Self {
            levels: 1,
            generation: 0,
            tag: 0,
            best: Vec::new(),
            via: Vec::new(),
            heap: BucketQueue::new(),
        }
    }
}

impl Scratch for Labels {
    fn bytes(&self) -> usize {
        self.best.capacity() * size_of::<Best>()
            + self.via.capacity() * size_of::<Via>()
            + self.heap.bytes()
    }
}

/// Runs `f` on a set of `pool`'s labels (a new one when all are in use),
/// reset for `nodes` nodes of `levels` states each, and keeps it after.
pub(super) fn with_labels<R>(
    pool: &ScratchPool,
    nodes: usize,
    levels: usize,
    f: impl FnOnce(&mut Labels) -> R,
) -> R {
    let mut labels = pool
        .take::<Labels>()
        .unwrap_or_else(|| Box::new(Labels::new()));
    labels.reset(nodes, levels);
    let out = f(&mut labels);
    pool.put(labels);
    out
}

impl Labels {
    pub(super) fn reset(&mut self, nodes: usize, levels: usize) {
        self.levels = levels;
        self.heap.clear();
        if self.generation == u32::MAX {
            self.generation = 0;
            self.best.iter_mut().for_each(|l| *l = 0);
        }
        self.generation += 1;
        self.tag = u64::from(self.generation) << 32;
        let states = nodes * levels;
        if self.best.len() < states {
            self.best.resize(states, 0);
            self.via.resize(
                states,
                Via {
                    parent: NO_PARENT,
                    link: 0,
                    h: 0.0,
                },
            );
        }
    }

    #[inline]
    pub(super) fn best(&self, state: usize) -> u32 {
        u32::try_from(self.best[state].wrapping_sub(self.tag)).unwrap_or(u32::MAX)
    }

    /// True if the label of `state` is no later than `g` (one load, one
    /// compare: a stale label compares above every `g`).
    #[inline]
    pub(super) fn no_later(&self, state: usize, g: u32) -> bool {
        self.best[state].wrapping_sub(self.tag) <= u64::from(g)
    }

    #[inline]
    pub(super) fn set(&mut self, state: usize, best: u32, parent: u32, link: u32, h: f64) {
        self.best[state] = self.tag | u64::from(best);
        self.via[state] = Via { parent, link, h };
    }

    pub(super) fn state(&self, node: NodeId, j: usize) -> usize {
        node.0 as usize * self.levels + j
    }

    /// True if some label at `node` with at most `j` jumps is no later than `g`.
    #[inline]
    pub(super) fn dominated(&self, node: u32, j: usize, g: u32) -> bool {
        let base = node as usize * self.levels;
        if self.levels == 1 {
            return self.no_later(base, g);
        }
        (base..=base + j).any(|s| self.no_later(s, g))
    }

    /// Follows parent links back to the start. Parents only ever change to
    /// strictly earlier arrivals, so the chain cannot cycle; in beam mode a
    /// parent improved after its child was reached makes the chain cheaper
    /// than the child's label, so the cost is summed from the links.
    pub(super) fn route(&self, mut state: usize, map: &NavMap) -> Route {
        let mut links = Vec::new();
        loop {
            let v = self.via[state];
            if self.best(state) == u32::MAX || v.parent == NO_PARENT {
                break;
            }
            links.push(LinkId(v.link));
            state = v.parent as usize;
        }
        links.reverse();
        let ticks = links.iter().map(|&l| map.ticks(l)).sum();
        Route { links, ticks }
    }
}
