//! A landmark table in a saved map: written after the links, read back,
//! and checked against the links before it bounds a search.
//!
//! The check is what lets a table from a file be trusted: a table whose
//! distances are consistent with every link (`from[v] <= from[u] + t` and
//! `to[u] <= t + to[v]` for each link `u -> v` of `t` ticks, no route
//! counting as infinite) bounds every route of those links from below,
//! whatever its numbers are, since the inequalities add up along a route.
//!
//! Layout: the form (0 none, 1 narrow, 2 wide), the dead halves' masks
//! (two u32), then per node its 32 `from` and 32 `to` distances: u16 in the
//! narrow form ([`FAR16`] and 0 for no route, `to` plus one), u32 in the
//! wide one ([`FAR`]); little-endian.

#[cfg(any(test, feature = "serde"))]
use super::{Block, Narrow};
use super::{FAR, Landmarks, MAX_LANDMARKS};
use crate::graph::edge::Edge;

#[cfg(any(test, feature = "serde"))]
const NONE: u8 = 0;
#[cfg(any(test, feature = "serde"))]
const NARROW: u8 = 1;
#[cfg(any(test, feature = "serde"))]
const WIDE: u8 = 2;

/// Bytes before the rows.
#[cfg(any(test, feature = "serde"))]
const HEAD: usize = 1 + 4 + 4;

#[cfg(any(test, feature = "serde"))]
impl Landmarks {
    /// Appends the table in its saved form.
    pub fn write(&self, out: &mut Vec<u8>) {
        let form = if !self.narrow.is_empty() {
            NARROW
        } else if !self.blocks.is_empty() {
            WIDE
        } else {
            NONE
        };
        out.push(form);
        out.extend_from_slice(&self.dead_from.to_le_bytes());
        out.extend_from_slice(&self.dead_to.to_le_bytes());
        for b in &self.narrow {
            for v in b.from.iter().chain(&b.to1) {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        for b in &self.blocks {
            for v in b.from.iter().chain(&b.to) {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
    }

    /// The bytes a saved table for `nodes` nodes takes in `form`.
    fn saved_len(form: u8, nodes: usize) -> Option<usize> {
        let row = match form {
            NONE => return Some(HEAD),
            NARROW => 2 * MAX_LANDMARKS * 2,
            WIDE => 2 * MAX_LANDMARKS * 4,
            _ => return None,
        };
        nodes.checked_mul(row)?.checked_add(HEAD)
    }

    /// Reads a table saved for `nodes` nodes, which must fill `bytes`;
    /// `None` when they do not hold one. Check it with
    /// [`Landmarks::consistent`] before it bounds anything.
    pub fn read(bytes: &[u8], nodes: usize) -> Option<Self> {
        let (&form, rest) = bytes.split_first()?;
        if Self::saved_len(form, nodes)? != bytes.len() {
            return None;
        }
        let mut table = Self {
            dead_from: u32_at(rest, 0),
            dead_to: u32_at(rest, 4),
            ..Self::default()
        };
        let rows = &rest[8..];
        match form {
            NARROW => {
                table.narrow = rows
                    .chunks_exact(4 * MAX_LANDMARKS)
                    .map(|row| Narrow {
                        from: std::array::from_fn(|l| u16_at(row, 2 * l)),
                        to1: std::array::from_fn(|l| u16_at(row, 2 * (MAX_LANDMARKS + l))),
                    })
                    .collect();
            }
            WIDE => {
                table.blocks = rows
                    .chunks_exact(8 * MAX_LANDMARKS)
                    .map(|row| Block {
                        from: std::array::from_fn(|l| u32_at(row, 4 * l)),
                        to: std::array::from_fn(|l| u32_at(row, 4 * (MAX_LANDMARKS + l))),
                    })
                    .collect();
            }
            _ => {}
        }
        Some(table)
    }
}

/// The little-endian u16 at byte `at` of `b` (the caller checked the
/// length).
#[cfg(any(test, feature = "serde"))]
fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

/// The little-endian u32 at byte `at` of `b` (the caller checked the
/// length).
#[cfg(any(test, feature = "serde"))]
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl Landmarks {
    /// Whether the table's live distances agree with the link `u -> v` of
    /// `ticks` ticks (see the module docs); a node off the table agrees.
    pub fn consistent_with(&self, u: u32, v: u32, ticks: u32) -> bool {
        let (Some((fu, tu)), Some((fv, tv))) = (self.raw(u), self.raw(v)) else {
            return self.raw(u).is_none() && self.raw(v).is_none();
        };
        (0..MAX_LANDMARKS).all(|l| {
            let from_ok = self.dead_from >> l & 1 != 0
                || fu[l] == FAR
                || (fv[l] != FAR && fv[l] <= fu[l] + ticks);
            let to_ok = self.dead_to >> l & 1 != 0
                || tv[l] == FAR
                || (tu[l] != FAR && tu[l] <= ticks + tv[l]);
            from_ok && to_ok
        })
    }

    /// Whether the table agrees with every link of the graph `offsets`,
    /// `edges` (see the module docs), and covers its nodes.
    pub fn consistent(&self, offsets: &[u32], edges: &[Edge]) -> bool {
        let nodes = offsets.len().saturating_sub(1);
        let rows = self.narrow.len().max(self.blocks.len());
        if rows != nodes && rows != 0 {
            return false;
        }
        (0..nodes).all(|u| {
            let range = offsets[u] as usize..offsets[u + 1] as usize;
            edges[range]
                .iter()
                .all(|e| self.consistent_with(u as u32, e.target, u32::from(e.ticks)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::FAR16;
    use super::*;

    /// A line of three nodes, 0 -> 1 -> 2, 5 ticks a link.
    fn line() -> (Vec<u32>, Vec<Edge>) {
        let edge = |target| Edge {
            target,
            ticks: 5,
            kind: crate::links::LinkKind::RUN,
            jumps: 0,
        };
        (vec![0, 1, 2, 2], vec![edge(1), edge(2)])
    }

    #[test]
    fn a_table_read_back_is_the_table_and_agrees_with_its_links() {
        let (offsets, edges) = line();
        let table = Landmarks::compute(&offsets, &edges);
        let mut bytes = Vec::new();
        table.write(&mut bytes);
        let back = Landmarks::read(&bytes, 3).unwrap();
        assert!(back.consistent(&offsets, &edges));
        for (u, t) in [(0, 2), (1, 2), (2, 0)] {
            assert_eq!(back.bound(u, t), table.bound(u, t));
        }
        // Too short, too long, an unknown form, another node count.
        assert!(Landmarks::read(&bytes[..bytes.len() - 1], 3).is_none());
        assert!(Landmarks::read(&[bytes.as_slice(), &[0]].concat(), 3).is_none());
        assert!(Landmarks::read(&[3, 0, 0, 0, 0, 0, 0, 0, 0], 0).is_none());
        assert!(Landmarks::read(&bytes, 4).is_none());
    }

    /// A narrow table whose one landmark is node 0: `from[0]` of each
    /// node as given, nothing else measured.
    fn narrow(from0: &[u16]) -> Vec<u8> {
        let mut bytes = vec![NARROW, 0, 0, 0, 0, 0, 0, 0, 0];
        for &f in from0 {
            let mut row = [FAR16; MAX_LANDMARKS].to_vec();
            row[0] = f;
            row.extend([0u16; MAX_LANDMARKS]);
            bytes.extend(row.iter().flat_map(|v| v.to_le_bytes()));
        }
        bytes
    }

    #[test]
    fn a_table_that_overstates_a_route_disagrees_with_a_link() {
        let (offsets, edges) = line();
        let honest = Landmarks::read(&narrow(&[0, 5, 10]), 3).unwrap();
        assert!(honest.consistent(&offsets, &edges));
        // Node 2 said 11 ticks from node 0: more than its link from node
        // 1 (5 ticks from node 0) allows.
        let tampered = Landmarks::read(&narrow(&[0, 5, 11]), 3).unwrap();
        assert!(!tampered.consistent(&offsets, &edges));
        assert!(!tampered.consistent_with(1, 2, 5));
        // Said unreachable while its source is reachable: no better.
        let cut = Landmarks::read(&narrow(&[0, 5, FAR16]), 3).unwrap();
        assert!(!cut.consistent(&offsets, &edges));
        // Understating is safe: a lower bound stays one.
        let low = Landmarks::read(&narrow(&[0, 2, 3]), 3).unwrap();
        assert!(low.consistent(&offsets, &edges));
    }
}
