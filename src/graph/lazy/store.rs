//! The links a lazy map has generated, node after node in the order they
//! were generated (on demand, or taken in from the background build).

use std::ops::Range;

use super::Shared;
use crate::graph::Edge;
use crate::graph::chunk::Chunk;
use crate::graph::tape::Tape;
use crate::links::{WorkerGuard, links_and_reads};

/// A node whose links were not generated yet, in [`Store::slot`].
const UNBUILT: u32 = u32::MAX;

/// The generated links, in the compact records a built map keeps.
pub(super) struct Store {
    /// Per node, its place in generation order, or [`UNBUILT`].
    slot: Vec<u32>,
    /// Per place, the id of its node's first link.
    first: Vec<u32>,
    /// Per place, the node's links and what they read.
    links: Chunk,
    /// Per link, where its tape starts in `links.tapes`.
    tape_at: Vec<u32>,
    /// Nodes built (places whose node an edit has not dropped).
    live: usize,
}

/// Generates node `node`'s links, with what they read, at the end of
/// `chunk`.
pub(super) fn generate_into(
    shared: &Shared,
    node: u32,
    chunk: &mut Chunk,
    worker: &mut WorkerGuard<'_>,
) {
    let cell = shared.nodes[node as usize];
    let generated = links_and_reads(
        &shared.level,
        &shared.physics,
        &shared.classes,
        cell,
        &shared.options,
        worker,
    );
    chunk.push_generated(generated, |c| shared.node_of(c));
}

/// Generates the links of `nodes`, `per_task` nodes a task, on every core
/// the build uses; a task stops early once `halt` says so (its chunk then
/// holds fewer nodes than it names, and must not be taken in).
pub(super) fn generate_nodes(
    shared: &Shared,
    nodes: &[u32],
    per_task: usize,
    halt: &(impl Fn() -> bool + Sync),
) -> Vec<(Vec<u32>, Chunk)> {
    let generate = |nodes: &[u32]| {
        let mut chunk = Chunk::default();
        let mut worker = shared.cache.worker();
        for &v in nodes {
            if halt() {
                break;
            }
            generate_into(shared, v, &mut chunk, &mut worker);
        }
        (nodes.to_vec(), chunk)
    };
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        nodes.par_chunks(per_task.max(1)).map(generate).collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        nodes.chunks(per_task.max(1)).map(generate).collect()
    }
}

impl Store {
    pub(super) fn new(nodes: usize) -> Self {
        Self {
            slot: vec![UNBUILT; nodes],
            first: Vec::new(),
            links: Chunk::default(),
            tape_at: Vec::new(),
            live: 0,
        }
    }

    /// Nodes built.
    pub(super) fn built(&self) -> usize {
        self.live
    }

    pub(super) fn link_count(&self) -> usize {
        self.links.edges.len()
    }

    pub(super) fn is_built(&self, node: u32) -> bool {
        self.slot[node as usize] != UNBUILT
    }

    /// The ids of `node`'s links (none until it is built).
    pub(super) fn link_ids(&self, node: u32) -> Range<u32> {
        let place = self.slot[node as usize];
        if place == UNBUILT {
            return 0..0;
        }
        let first = self.first[place as usize];
        first..first + self.links.counts[place as usize]
    }

    pub(super) fn edge(&self, id: u32) -> Edge {
        self.links.edges[id as usize]
    }

    pub(super) fn tape(&self, id: u32) -> Tape<'_> {
        let at = self.tape_at[id as usize] as usize;
        Tape::new(&self.links.tapes[at..], usize::from(self.edge(id).ticks))
    }

    /// Heap bytes held.
    pub(super) fn bytes(&self) -> usize {
        let l = &self.links;
        (self.slot.capacity() + self.first.capacity() + self.tape_at.capacity()) * 4
            + (l.counts.capacity() + l.tape_lens.capacity()) * 4
            + l.edges.capacity() * size_of::<Edge>()
            + l.action.capacity() * 2
            + l.tapes.capacity()
            + l.reads.bytes()
    }

    /// Generates `node`'s links unless they already are.
    pub(super) fn build(&mut self, shared: &Shared, node: u32) {
        if self.is_built(node) {
            return;
        }
        let (first, tapes) = (self.links.edges.len(), self.links.tapes.len());
        let mut worker = shared.cache.worker();
        generate_into(shared, node, &mut self.links, &mut worker);
        self.close(node, first, tapes);
    }

    /// Takes in the nodes of `chunk` (`nodes[i]` its node `i`) not built
    /// yet; returns how many.
    pub(super) fn absorb(&mut self, nodes: &[u32], chunk: &Chunk) -> usize {
        let (mut link, mut tape, mut added) = (0usize, 0usize, 0);
        for (i, &node) in nodes.iter().enumerate() {
            let n = chunk.counts[i] as usize;
            let bytes: usize = chunk.tape_lens[link..link + n]
                .iter()
                .map(|&b| b as usize)
                .sum();
            if !self.is_built(node) {
                let (first, tapes) = (self.links.edges.len(), self.links.tapes.len());
                self.links
                    .push_node_from(chunk, link..link + n, tape..tape + bytes, i);
                self.close(node, first, tapes);
                added += 1;
            }
            (link, tape) = (link + n, tape + bytes);
        }
        added
    }

    /// Records the node whose links were just appended (from link `first`
    /// and tape byte `tapes` on).
    fn close(&mut self, node: u32, first: usize, tapes: usize) {
        self.live += 1;
        self.slot[node as usize] = self.first.len() as u32;
        self.first.push(first as u32);
        let mut at = tapes as u32;
        for &len in &self.links.tape_lens[first..] {
            self.tape_at.push(at);
            at += len;
        }
    }

    /// `node`'s links in the store as [`Chunk::push_node_from`] takes
    /// them: the links, their tape bytes and its place; `None` until built.
    pub(super) fn node_links(&self, node: u32) -> Option<(Range<usize>, Range<usize>, usize)> {
        let place = self.slot[node as usize];
        if place == UNBUILT {
            return None;
        }
        let links = self.link_ids(node);
        let (a, b) = (links.start as usize, links.end as usize);
        let tapes = if a == b {
            0..0
        } else {
            let last = b - 1;
            self.tape_at[a] as usize
                ..self.tape_at[last] as usize + self.links.tape_lens[last] as usize
        };
        Some((a..b, tapes, place as usize))
    }

    /// The links of every node, as generated.
    pub(super) fn links(&self) -> &Chunk {
        &self.links
    }

    /// Drops `node`'s links: it is built again when a search needs it.
    pub(super) fn forget(&mut self, node: u32) {
        if self.is_built(node) {
            self.slot[node as usize] = UNBUILT;
            self.live -= 1;
        }
    }

    /// The built nodes whose links read a cell of `changed` (inside
    /// `rect`; on a level that wraps, at any of the cell's images).
    pub(super) fn touched(
        &self,
        rect: (crate::level::Cell, crate::level::Cell),
        changed: &[crate::level::Cell],
        level: &crate::level::Level,
    ) -> Vec<u32> {
        let reads = &self.links.reads;
        (0..self.slot.len() as u32)
            .filter(|&v| {
                let place = self.slot[v as usize];
                place != UNBUILT
                    && if level.wrap().any() {
                        reads.touched_across(place as usize, changed, level)
                    } else {
                        reads.touched(place as usize, rect, changed)
                    }
            })
            .collect()
    }

    /// Renumbers the nodes after an edit added or removed some: `new_of[v]`
    /// is old node `v`'s new id (`None` for a removed one), `nodes` the new
    /// count. A node with a link to a removed node is dropped too.
    pub(super) fn renumber(&mut self, new_of: &[Option<u32>], nodes: usize) {
        let mut slot = vec![UNBUILT; nodes];
        let mut live = 0;
        for (v, &place) in self.slot.iter().enumerate() {
            let Some(new) = new_of[v] else { continue };
            if place == UNBUILT {
                continue;
            }
            let (first, n) = (
                self.first[place as usize],
                self.links.counts[place as usize],
            );
            let edges = &mut self.links.edges[first as usize..(first + n) as usize];
            let targets: Option<Vec<u32>> =
                edges.iter().map(|e| new_of[e.target as usize]).collect();
            if let Some(targets) = targets {
                for (e, t) in edges.iter_mut().zip(targets) {
                    e.target = t;
                }
                slot[new as usize] = place;
                live += 1;
            }
        }
        self.slot = slot;
        self.live = live;
    }

    /// Places whose node was dropped, whose links still take room.
    pub(super) fn dead(&self) -> usize {
        self.first.len() - self.live
    }

    /// The store with only its built nodes' links.
    pub(super) fn compacted(&self) -> Self {
        let mut out = Self::new(self.slot.len());
        for v in 0..self.slot.len() as u32 {
            if let Some((links, tapes, place)) = self.node_links(v) {
                let (first, at) = (out.links.edges.len(), out.links.tapes.len());
                out.links.push_node_from(&self.links, links, tapes, place);
                out.close(v, first, at);
            }
        }
        out
    }
}
