//! One link as a value, and the iterator that yields them.

use std::ops::Range;

use super::{LinkId, NavMap, NodeId};
use crate::level::Cell;
use crate::links::LinkKind;
use crate::physics::Physics;

/// Everything about one link of a [`NavMap`] except its input tape
/// ([`NavMap::inputs`]) and its sweep ([`sweep`](crate::search::sweep)). A small `Copy`
/// value assembled from the map's compact storage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LinkInfo {
    /// The link's id in its map.
    pub id: LinkId,
    /// What kind of move it is.
    pub kind: LinkKind,
    /// The node it starts from.
    pub source: NodeId,
    /// The node it ends on.
    pub target: NodeId,
    /// The standing cell it starts from (the source node's cell).
    pub from: Cell,
    /// The standing cell it ends on (the target node's cell).
    pub to: Cell,
    /// Duration in ticks (the length of its tape).
    pub ticks: u32,
    /// Ticks of the open-loop action phase; the rest is the settle phase.
    pub action_ticks: u32,
    /// Jump presses that took effect (ground, air and wall jumps).
    pub jumps: u8,
}

impl LinkInfo {
    /// Cost in seconds (ticks times `physics.dt`).
    #[must_use]
    pub fn cost(&self, physics: &Physics) -> f64 {
        f64::from(self.ticks) * physics.dt
    }
}

/// Iterator over links of a [`NavMap`] as [`LinkInfo`] values, in id order
/// ([`NavMap::links`], [`NavMap::links_from`]).
#[derive(Debug, Clone)]
pub struct Links<'a> {
    map: &'a NavMap,
    ids: Range<u32>,
    /// The source node of `ids.start` (or a node before it).
    source: u32,
}

impl<'a> Links<'a> {
    /// The links `ids` of `map`; `source` is the source node of
    /// `ids.start` or a node before it.
    pub(super) fn new(map: &'a NavMap, ids: Range<u32>, source: u32) -> Self {
        Self { map, ids, source }
    }
}

impl Iterator for Links<'_> {
    type Item = LinkInfo;

    fn next(&mut self) -> Option<LinkInfo> {
        let id = self.ids.next()?;
        while self.map.offsets[self.source as usize + 1] <= id {
            self.source += 1;
        }
        Some(self.map.info(id, self.source))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.ids.size_hint()
    }
}

impl ExactSizeIterator for Links<'_> {}

impl std::iter::FusedIterator for Links<'_> {}
