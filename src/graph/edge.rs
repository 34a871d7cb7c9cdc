//! The search's view of a link: the one record the graph, its landmark
//! bounds and the search all read.

use crate::links::LinkKind;

/// One link as the search sees it: 8 bytes, stored contiguously per source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Edge {
    /// The target node.
    pub target: u32,
    /// Duration in ticks.
    pub ticks: u16,
    /// The link's kind.
    pub kind: LinkKind,
    /// Jump presses that took effect.
    pub jumps: u8,
}
