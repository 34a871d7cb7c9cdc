//! Links of some nodes in compact form, before a map is assembled.

use super::reads::ReadSets;
use super::{Edge, tape};
use crate::level::Cell;
use crate::links::Link;

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

    /// Appends one node's links. Generators only end links on standable
    /// cells with tapes of `ticks` inputs; a link that does not (or that
    /// does not fit the compact records) is dropped.
    pub(super) fn push_node(&mut self, links: Vec<Link>, node_of: impl Fn(Cell) -> Option<u32>) {
        let mut n = 0;
        for l in links {
            let (Some(target), Ok(ticks), Ok(action)) = (
                node_of(l.to),
                u16::try_from(l.ticks),
                u16::try_from(l.action_ticks),
            ) else {
                continue;
            };
            if l.inputs.len() != l.ticks as usize {
                continue;
            }
            let before = self.tapes.len();
            if !tape::encode(&l.inputs, &mut self.tapes) {
                continue;
            }
            self.tape_lens.push((self.tapes.len() - before) as u32);
            self.edges.push(Edge {
                target,
                ticks,
                kind: l.kind,
                jumps: l.jumps,
            });
            self.action.push(action);
            n += 1;
        }
        self.counts.push(n);
    }
}
