//! Keeping the landmark table a lower bound through an edit.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::Range;

use super::compute::reverse;
use super::{Block, FAR, FAR16, Landmarks, MAX_LANDMARKS, Narrow};
use crate::graph::edge::Edge;
use crate::graph::splice::splice;

/// Passes over an edit's window the repair of the `to` halves takes at
/// most (each settles the new nodes one link further from the old ones).
const MAX_PASSES: usize = 16;

impl Landmarks {
    /// [`Landmarks::splice_rows`] then [`Landmarks::repair`].
    #[cfg(test)]
    pub fn edit(
        &mut self,
        window: Range<usize>,
        olds: &[Option<u32>],
        relinked: &[bool],
        offsets: &[u32],
        edges: &[Edge],
        budgets: (usize, usize),
    ) {
        self.splice_rows(window.clone(), olds);
        self.repair(window.start, olds, relinked, offsets, edges, budgets);
    }

    /// The first half of an edit's update: puts the rows of the nodes
    /// `olds` names (none for a new node) in place of the rows of
    /// `window`. On the largest maps this moves tens of megabytes, so an
    /// edit does it while it gathers the window's links.
    pub fn splice_rows(&mut self, window: Range<usize>, olds: &[Option<u32>]) {
        if self.narrow.is_empty() && self.blocks.is_empty() {
            return;
        }
        if self.narrow.is_empty() {
            let rows: Vec<Block> = olds
                .iter()
                .map(|o| o.map_or(Block::NONE, |o| self.blocks[o as usize]))
                .collect();
            splice(&mut self.blocks, window, &rows);
        } else {
            let rows: Vec<Narrow> = olds
                .iter()
                .map(|o| o.map_or(Narrow::NONE, |o| self.narrow[o as usize]))
                .collect();
            splice(&mut self.narrow, window, &rows);
        }
    }

    /// Repairs the table after an edit that put `olds.len()` nodes in place
    /// of a window of nodes and [`Landmarks::splice_rows`] moved the rows
    /// (`olds[i]` names the old id of the new node `lo + i` if it had one),
    /// on the edited graph (`offsets`, `edges`), within `budget`
    /// relaxations a half, with a reverse index of the links when there
    /// are at most `reverse_limit`. `relinked[i]` is false when that node
    /// kept its old links.
    ///
    /// The table stays a bound because of what it is: a set of
    /// *potentials*. A bound `d(L, t) - d(L, v)` needs only that `F = d(L, ·)`
    /// rise by at most a link's ticks along every link (`F(y) <= F(x) + c`
    /// for a link `x -> y` of `c` ticks, where `F(x)` is finite); summing
    /// that along any route from `v` to `t` gives `F(t) - F(v) <= d(v, t)`.
    /// Likewise `G = d(·, L)` needs `G(x) <= c + G(y)` where `G(y)` is finite.
    /// Exact distances satisfy both, and so do the old values after
    /// links are removed or made slower (fewer constraints). Only the
    /// links of relinked nodes are new, so only they can break one:
    ///
    /// - `F` is repaired by lowering the targets of broken links and
    ///   passing the decrease on along links, Dijkstra's way;
    /// - `G` is repaired by lowering the sources of broken links and
    ///   passing the decrease on backwards along links, through the
    ///   reverse index. Without one, only a new node can be lowered: every
    ///   link into it starts at a relinked node (an old node's kept links
    ///   do not lead to it). A broken link from an old node, whose other
    ///   sources are then unknown, drops the half.
    ///
    /// A half whose repair would take more than the budget, or a value
    /// beyond a narrow table's range, is dropped: it bounds nothing until
    /// the table is measured again. The bound stays admissible and
    /// consistent either way; dropped halves only make it looser.
    pub fn repair(
        &mut self,
        lo: usize,
        olds: &[Option<u32>],
        relinked: &[bool],
        offsets: &[u32],
        edges: &[Edge],
        (budget, reverse_limit): (usize, usize),
    ) {
        if self.narrow.is_empty() && self.blocks.is_empty() {
            // Never measured (fewer than two nodes): nothing bounds.
            if offsets.len() > 2 {
                (self.dead_from, self.dead_to) = (u32::MAX, u32::MAX);
            }
            return;
        }
        debug_assert_eq!(
            self.narrow.len().max(self.blocks.len()),
            offsets.len() - 1,
            "a row per node"
        );
        let graph = Csr { offsets, edges };
        let relinked: Vec<usize> = relinked
            .iter()
            .enumerate()
            .filter(|&(_, &r)| r)
            .map(|(i, _)| lo + i)
            .collect();
        let broken = self.broken_to(&relinked, graph);
        if broken.is_empty() {
            // Nothing to repair.
        } else if edges.len() <= reverse_limit {
            let (rev_off, rev) = reverse(offsets, edges);
            self.lower(Half::To, &broken, budget, |x| {
                rev[rev_off[x as usize] as usize..rev_off[x as usize + 1] as usize]
                    .iter()
                    .copied()
            });
        } else {
            self.lower_new_to(&relinked, olds, lo, graph);
        }
        let broken = self.broken_from(&relinked, graph);
        self.lower(Half::From, &broken, budget, |x| {
            graph
                .out(x as usize)
                .iter()
                .map(|e| (e.target, u32::from(e.ticks)))
        });
    }

    /// Per landmark, the least `c + G(y)` over node `x`'s links `x -> y`
    /// of `c` ticks: what its `to` distance may be at most.
    fn least_to(&self, x: usize, graph: Csr<'_>) -> [u32; MAX_LANDMARKS] {
        let mut least = [FAR; MAX_LANDMARKS];
        for e in graph.out(x) {
            if let Some((_, gy)) = self.raw(e.target) {
                for l in 0..MAX_LANDMARKS {
                    least[l] = least[l].min(gy[l].saturating_add(u32::from(e.ticks)));
                }
            }
        }
        least
    }

    /// The links from `relinked` nodes that break a live `to` half, as
    /// `(landmark, the source's repaired value, source)`, by landmark.
    fn broken_to(&self, relinked: &[usize], graph: Csr<'_>) -> Vec<(usize, u32, u32)> {
        let mut broken = Vec::new();
        for &x in relinked {
            let Some((_, gx)) = self.raw(x as u32) else {
                continue;
            };
            let least = self.least_to(x, graph);
            for l in 0..MAX_LANDMARKS {
                if least[l] < gx[l] && self.dead_to >> l & 1 == 0 {
                    broken.push((l, least[l], x as u32));
                }
            }
        }
        broken.sort_by_key(|&(l, ..)| l);
        broken
    }

    /// The links from `relinked` nodes that break a live `from` half, as
    /// `(landmark, the target's repaired value, target)`, by landmark.
    fn broken_from(&self, relinked: &[usize], graph: Csr<'_>) -> Vec<(usize, u32, u32)> {
        let mut broken = Vec::new();
        for &x in relinked {
            let Some((fx, _)) = self.raw(x as u32) else {
                continue;
            };
            for e in graph.out(x) {
                let Some((fy, _)) = self.raw(e.target) else {
                    continue;
                };
                for l in 0..MAX_LANDMARKS {
                    let d = fx[l].saturating_add(u32::from(e.ticks));
                    if fx[l] != FAR && d < fy[l] && self.dead_from >> l & 1 == 0 {
                        broken.push((l, d, e.target));
                    }
                }
            }
        }
        broken.sort_by_key(|&(l, ..)| l);
        broken
    }

    /// Lowers a `half` of the table from its `broken` links, passing each
    /// decrease on to the nodes `next` names (with the ticks between),
    /// Dijkstra's way, within `budget` relaxations a landmark; a landmark
    /// whose repair needs more, or a value the table cannot hold, loses
    /// the half.
    fn lower<N: Iterator<Item = (u32, u32)>>(
        &mut self,
        half: Half,
        broken: &[(usize, u32, u32)],
        budget: usize,
        next: impl Fn(u32) -> N,
    ) {
        let mut heap = BinaryHeap::new();
        for group in broken.chunk_by(|a, b| a.0 == b.0) {
            let l = group[0].0;
            let mut left = budget;
            heap.clear();
            heap.extend(group.iter().map(|&(_, d, x)| Reverse((d, x))));
            while let Some(Reverse((d, x))) = heap.pop() {
                if d >= self.dist(half, x as usize, l) {
                    continue;
                }
                if left == 0 || !self.set(half, x as usize, l, d) {
                    match half {
                        Half::From => self.dead_from |= 1 << l,
                        Half::To => self.dead_to |= 1 << l,
                    }
                    break;
                }
                left -= 1;
                for (y, c) in next(x) {
                    let d2 = d.saturating_add(c);
                    if d2 < self.dist(half, y as usize, l) {
                        heap.push(Reverse((d2, y)));
                    }
                }
            }
        }
    }

    /// The repair of the `to` halves without a reverse index: the new
    /// nodes among the `relinked` ones take the least `c + G(y)` over their
    /// links, pass by pass, until nothing changes (every link into a new
    /// node starts at a relinked node); an old node's broken link drops the
    /// half.
    fn lower_new_to(
        &mut self,
        relinked: &[usize],
        olds: &[Option<u32>],
        lo: usize,
        graph: Csr<'_>,
    ) {
        for pass in 0..MAX_PASSES {
            // Halves a new node's value changed in this pass.
            let mut changed = 0u32;
            for &x in relinked {
                let Some((_, gx)) = self.raw(x as u32) else {
                    continue;
                };
                let least = self.least_to(x, graph);
                for l in 0..MAX_LANDMARKS {
                    if least[l] >= gx[l] || self.dead_to >> l & 1 != 0 {
                        continue;
                    }
                    if olds[x - lo].is_some() || !self.set(Half::To, x, l, least[l]) {
                        self.dead_to |= 1 << l;
                    } else {
                        changed |= 1 << l;
                    }
                }
            }
            // A half no value of which changed in a whole pass holds on
            // every window link; after the last pass, one still changing
            // may not.
            changed &= !self.dead_to;
            if changed == 0 {
                break;
            }
            if pass + 1 == MAX_PASSES {
                self.dead_to |= changed;
            }
        }
    }

    /// Node `v`'s distance in `half` of landmark `l` ([`FAR`] for none).
    fn dist(&self, half: Half, v: usize, l: usize) -> u32 {
        match (self.narrow.get(v), half) {
            (Some(b), Half::From) if b.from[l] == FAR16 => FAR,
            (Some(b), Half::From) => u32::from(b.from[l]),
            (Some(b), Half::To) => b.to1[l].checked_sub(1).map_or(FAR, u32::from),
            (None, Half::From) => self.blocks[v].from[l],
            (None, Half::To) => self.blocks[v].to[l],
        }
    }

    /// Sets node `v`'s distance in `half` of landmark `l`; false when `d`
    /// does not fit the table.
    fn set(&mut self, half: Half, v: usize, l: usize, d: u32) -> bool {
        if self.narrow.is_empty() {
            let b = &mut self.blocks[v];
            match half {
                Half::From => b.from[l] = d,
                Half::To => b.to[l] = d,
            }
            return d != FAR;
        }
        match u16::try_from(d) {
            Ok(d) if d < FAR16 => {
                let b = &mut self.narrow[v];
                match half {
                    Half::From => b.from[l] = d,
                    Half::To => b.to1[l] = d + 1,
                }
                true
            }
            _ => false,
        }
    }
}

/// A half of the landmark table: routes from the landmarks, or to them.
#[derive(Clone, Copy)]
enum Half {
    From,
    To,
}

/// A graph as the map keeps it: node `v`'s links are
/// `edges[offsets[v]..offsets[v + 1]]`.
#[derive(Clone, Copy)]
struct Csr<'a> {
    offsets: &'a [u32],
    edges: &'a [Edge],
}

impl<'a> Csr<'a> {
    /// Node `v`'s links.
    fn out(self, v: usize) -> &'a [Edge] {
        &self.edges[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }
}
