//! Links of some nodes in compact form, before a map is assembled.

use super::reads::ReadSets;
use super::{Edge, tape};
use crate::level::Cell;
use crate::links::{Link, LinkKind};
use crate::physics::reads::Reads;

/// The links of some nodes in compact form, before they are concatenated.
#[derive(Default)]
pub(super) struct Chunk {
    /// Links per node, in order.
    pub(super) counts: Vec<u32>,
    pub(super) edges: Vec<Edge>,
    pub(super) action: Vec<u16>,
    /// Encoded tape length per link (bytes).
    pub(super) tape_lens: Vec<u32>,
    pub(super) tapes: Vec<u8>,
    /// Per node, the cells its links read ([`ReadSets`]).
    pub(super) reads: ReadSets,
}

impl Chunk {
    /// The chunks one after the other (the one chunk as it is).
    pub(super) fn concat(mut chunks: Vec<Chunk>) -> Chunk {
        if chunks.len() == 1 {
            return chunks.pop().unwrap_or_default();
        }
        let mut out = Chunk::default();
        for c in chunks {
            out.counts.extend_from_slice(&c.counts);
            out.edges.extend_from_slice(&c.edges);
            out.action.extend_from_slice(&c.action);
            out.tape_lens.extend_from_slice(&c.tape_lens);
            out.tapes.extend_from_slice(&c.tapes);
            out.reads.extend(&c.reads);
        }
        out
    }

    /// Appends a node of `other`: its links `links` (their tapes, end to
    /// end, are `tapes` of `other.tapes`) and its reads, node `n` of
    /// `other.reads`.
    pub(super) fn push_node_from(
        &mut self,
        other: &Chunk,
        links: std::ops::Range<usize>,
        tapes: std::ops::Range<usize>,
        n: usize,
    ) {
        self.counts.push(links.len() as u32);
        self.edges.extend_from_slice(&other.edges[links.clone()]);
        self.action.extend_from_slice(&other.action[links.clone()]);
        self.tape_lens.extend_from_slice(&other.tape_lens[links]);
        self.tapes.extend_from_slice(&other.tapes[tapes]);
        self.reads.push_from(&other.reads, n);
    }

    /// Appends one node's links. Generators only end links on standable
    /// cells with tapes of `ticks` inputs; a link that does not (or that
    /// does not fit the compact records) is dropped.
    pub(super) fn push_node(&mut self, links: Vec<Link>, node_of: impl Fn(Cell) -> Option<u32>) {
        let mut n = 0;
        for l in links {
            if l.inputs.len() != l.ticks as usize {
                continue;
            }
            let head = Head::of(&l);
            n += u32::from(self.push_link(head, &node_of, |out| tape::encode(&l.inputs, out)));
        }
        self.counts.push(n);
    }

    /// Appends one node's generated links and what they read.
    pub(super) fn push_generated(
        &mut self,
        (links, reads): (Vec<Link>, Reads),
        node_of: impl Fn(Cell) -> Option<u32>,
    ) {
        self.push_node(links, node_of);
        self.reads.push(&reads);
    }

    /// As [`Chunk::push_node`] for links whose tapes are already encoded:
    /// their runs are kept as they are.
    pub(super) fn push_encoded<'a>(
        &mut self,
        links: impl Iterator<Item = &'a EncodedLink<'a>>,
        node_of: impl Fn(Cell) -> Option<u32>,
    ) {
        let mut n = 0;
        for l in links {
            n += u32::from(self.push_link(l.head, &node_of, |out| {
                out.extend_from_slice(&l.tape);
                true
            }));
        }
        self.counts.push(n);
    }

    /// Appends one link whose tape `write` appends; `false` (nothing
    /// appended) when it does not fit the records or `write` fails.
    fn push_link(
        &mut self,
        head: Head,
        node_of: impl Fn(Cell) -> Option<u32>,
        write: impl FnOnce(&mut Vec<u8>) -> bool,
    ) -> bool {
        let (Some(target), Ok(ticks), Ok(action)) = (
            node_of(head.to),
            u16::try_from(head.ticks),
            u16::try_from(head.action_ticks),
        ) else {
            return false;
        };
        let before = self.tapes.len();
        if !write(&mut self.tapes) {
            self.tapes.truncate(before);
            return false;
        }
        self.tape_lens.push((self.tapes.len() - before) as u32);
        self.edges.push(Edge {
            target,
            ticks,
            kind: head.kind,
            jumps: head.jumps,
        });
        self.action.push(action);
        true
    }
}

/// What a link's record holds besides its source and its tape.
#[derive(Clone, Copy)]
pub(crate) struct Head {
    pub kind: LinkKind,
    pub to: Cell,
    pub ticks: u32,
    pub action_ticks: u32,
    pub jumps: u8,
}

impl Head {
    fn of(l: &Link) -> Self {
        Self {
            kind: l.kind,
            to: l.to,
            ticks: l.ticks,
            action_ticks: l.action_ticks,
            jumps: l.jumps,
        }
    }
}

/// A link whose tape is already run-length encoded (`graph::tape`): a
/// saved map's, its runs checked with `tape::is_exact`.
pub(crate) struct EncodedLink<'a> {
    pub from: Cell,
    pub head: Head,
    pub tape: std::borrow::Cow<'a, [u8]>,
}
