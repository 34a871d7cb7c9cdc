//! The best link per target and kind found so far from one cell, and the
//! fast hash map link generation keys on whole words.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::options::Link;
use crate::level::{Cell, Level};
use crate::mechanics::LinkKind;
use crate::physics::Input;

/// A `HashMap` for the builders' small integer and float-bit keys, hashed
/// with FxHash's multiply-rotate per word instead of SipHash, which took
/// about 6% of an SMB build. The keys (cells near one start, template node
/// numbers, exact body states) follow from the level and physics rather
/// than being chosen freely, and every such map is bounded: by one cell's
/// links, or by a memory budget.
pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;

/// A `HashSet` hashed as [`FastMap`] is.
pub(crate) type FastSet<K> = std::collections::HashSet<K, BuildHasherDefault<WordHasher>>;

/// The hasher of [`FastMap`].
#[derive(Default)]
pub(crate) struct WordHasher(u64);

impl Hasher for WordHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

/// Keeps the best link per `(to, kind)` (fewest ticks, then fewest jumps).
pub(crate) struct Best {
    from: Cell,
    /// The level's cells across an edge that wraps, as `(wrap, width,
    /// height)`: targets are kept as the cells on the map they are.
    seam: (crate::level::Wrap, usize, usize),
    map: FastMap<(Cell, LinkKind), Link>,
    /// Kept links whose tapes are still in the templates, by template node.
    pending: FastMap<(Cell, LinkKind), u32>,
}

impl Best {
    pub fn new(from: Cell, level: &Level) -> Self {
        Self {
            from,
            seam: (level.wrap(), level.width(), level.height()),
            map: FastMap::default(),
            pending: FastMap::default(),
        }
    }

    /// Whether a link to `to` of `kind` taking at least `ticks` ticks with
    /// `jumps` jumps could replace the one kept.
    pub fn could_improve(&self, to: Cell, kind: LinkKind, ticks: u32, jumps: u8) -> bool {
        self.map
            .get(&(self.on_map(to), kind))
            .is_none_or(|old| (old.ticks, old.jumps) > (ticks, jumps))
    }

    /// `c`, or across an edge that wraps, the cell on the map it is.
    #[inline]
    fn on_map(&self, c: Cell) -> Cell {
        let (wrap, w, h) = self.seam;
        wrap.on_map(c, w, h)
    }

    pub fn offer(&mut self, link: Option<Link>) {
        let Some(mut link) = link else { return };
        if self.seam.0.any() {
            // A way around the level back to its start is no link.
            link.to = self.on_map(link.to);
            if link.to == self.from {
                return;
            }
        }
        let key = (link.to, link.kind);
        if self.could_improve(link.to, link.kind, link.ticks, link.jumps) {
            self.pending.remove(&key);
            self.map.insert(key, link);
        }
    }

    /// Offers a link whose tape [`Best::fill_templates`] will fetch from
    /// template node `node`.
    pub fn offer_template(
        &mut self,
        to: Cell,
        kind: LinkKind,
        action_ticks: u32,
        ticks: u32,
        jumps: u8,
        node: u32,
    ) {
        let to = self.on_map(to);
        if to == self.from || !self.could_improve(to, kind, ticks, jumps) {
            return;
        }
        let link = Link {
            kind,
            from: self.from,
            to,
            ticks,
            action_ticks,
            jumps,
            inputs: Vec::new(),
        };
        self.pending.insert((to, kind), node);
        self.map.insert((to, kind), link);
    }

    /// Writes the tapes of the kept template links.
    pub fn fill_templates(&mut self, mut tape: impl FnMut(u32, &mut Vec<Input>)) {
        for (key, node) in self.pending.drain() {
            if let Some(link) = self.map.get_mut(&key) {
                link.inputs.clear();
                tape(node, &mut link.inputs);
            }
        }
    }

    /// The kept links, sorted.
    pub fn into_sorted(self) -> Vec<Link> {
        let mut v: Vec<Link> = self
            .map
            .into_values()
            .map(|mut l| {
                l.inputs.shrink_to_fit();
                l
            })
            .collect();
        v.sort_by_key(|l| (l.to, l.kind, l.ticks));
        v
    }
}
