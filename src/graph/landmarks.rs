//! Landmark lower bounds (ALT) for the search.
//!
//! For a few *landmark* nodes `L`, the map keeps the route ticks from `L` to
//! every node and from every node to `L`. By the triangle inequality, for
//! any nodes `v` and `t`:
//!
//! - `d(v, t) >= d(L, t) - d(L, v)` and
//! - `d(v, t) >= d(v, L) - d(t, L)`,
//!
//! so the largest of these over the landmarks is a lower bound on the ticks
//! from `v` to `t`. It is consistent (it changes by at most a link's ticks
//! along a link), stays a lower bound when a search forbids kinds, caps
//! jumps or bans links (those only remove routes), and on platformer maps,
//! where routes climb and detour, it is far tighter than horizontal distance.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::Range;

use crate::graph::edge::Edge;
use crate::graph::splice::splice;

/// No route.
const FAR: u32 = u32::MAX;

/// No route, in a [`Narrow`] block.
const FAR16: u16 = u16::MAX;

/// Route ticks from and to a few landmark nodes, per node: in [`Narrow`]
/// blocks when every route to or from a landmark is shorter than
/// [`FAR16`] ticks (every map of a few hundred cells a side), else in
/// [`Block`]s. Exactly one of the two is non-empty, unless the map has
/// fewer than two nodes.
#[derive(Debug, Clone, Default)]
pub(crate) struct Landmarks {
    /// Per node, its ticks from and to every landmark, in one aligned
    /// block.
    blocks: Vec<Block>,
    /// The same in half the bytes.
    narrow: Vec<Narrow>,
    /// Landmarks whose `from` half an edit dropped (bit `l`): it bounds
    /// nothing until the table is measured again.
    dead_from: u32,
    /// The same for the `to` halves.
    dead_to: u32,
}

/// The most landmarks a map keeps. More landmarks tighten the bound, and
/// each adds 4 or 8 bytes per node; 32 keeps the table near the size of the
/// links themselves. Random queries on `Level::generate(n, n, 42)` expand
/// about 160 nodes (n = 256), 460 (512) and 2,500 (1024) with 32 landmarks
/// in the largest component, against 1,040, 3,900 and 15,900 with 8 picked
/// over the whole graph.
const MAX_LANDMARKS: usize = 32;

/// One node's landmark distances: `from[l]` ticks from landmark `l` to the
/// node, `to[l]` ticks from the node to landmark `l` ([`FAR`] when there is
/// no route, and in the slots of landmarks a small map does not pick, which
/// then bound nothing). One aligned 256-byte block, so a bound reads four
/// whole cache lines per node and its fixed-width loop compiles to vector
/// code.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(256))]
struct Block {
    from: [u32; MAX_LANDMARKS],
    to: [u32; MAX_LANDMARKS],
}

/// A [`Block`] in 16 bits per distance (128 bytes, two cache lines): half
/// the memory, so more of the table stays in cache during a search. `from`
/// holds [`FAR16`] for no route; `to` holds the ticks plus one, and 0 for
/// no route, so that with the goal prepared ([`GoalBound`]) both halves of
/// the bound are saturating differences with no test, which compile to
/// vector code.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(128))]
struct Narrow {
    from: [u16; MAX_LANDMARKS],
    to1: [u16; MAX_LANDMARKS],
}

/// No route from the goal to a landmark, in [`GoalBound::to1`]: at least
/// every [`Narrow::to1`], so the saturating difference is 0.
const FAR_GOAL: u16 = u16::MAX;

/// A goal's landmark distances, prepared once per search so that
/// [`Landmarks::bound_to`] needs no test on the goal's side: `from` holds 0
/// where the goal is unreachable from the landmark, `to` keeps [`FAR`] where
/// the goal cannot reach it (both then bound nothing).
///
/// For a narrow table, `from16` holds the goal's `d(L, t)` (0 for no
/// route, below every [`FAR16`] `d(L, v)`) and `to1` its `d(t, L) + 1`
/// ([`FAR_GOAL`] for no route), as in [`Narrow::to1`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct GoalBound {
    from: [u32; MAX_LANDMARKS],
    to: [u32; MAX_LANDMARKS],
    from16: [u16; MAX_LANDMARKS],
    to1: [u16; MAX_LANDMARKS],
}

/// Dijkstra over a CSR graph given as `(offsets, targets and ticks)`.
fn dijkstra(offsets: &[u32], arcs: &[(u32, u32)], start: u32) -> Vec<u32> {
    let n = offsets.len() - 1;
    let mut dist = vec![FAR; n];
    let mut heap = BinaryHeap::new();
    dist[start as usize] = 0;
    heap.push(Reverse((0u32, start)));
    while let Some(Reverse((d, v))) = heap.pop() {
        if d > dist[v as usize] {
            continue;
        }
        let (a, b) = (
            offsets[v as usize] as usize,
            offsets[v as usize + 1] as usize,
        );
        for &(t, w) in &arcs[a..b] {
            let d2 = d.saturating_add(w);
            if d2 < dist[t as usize] {
                dist[t as usize] = d2;
                heap.push(Reverse((d2, t)));
            }
        }
    }
    dist
}

impl Landmarks {
    /// Picks landmarks far apart in the largest strongly connected
    /// component (each the node of it farthest, by round trip, from those
    /// already picked) and measures routes from and to them.
    pub fn compute(offsets: &[u32], edges: &[Edge]) -> Self {
        let n = offsets.len().saturating_sub(1);
        if n < 2 {
            return Self::default();
        }
        let fwd: Vec<(u32, u32)> = edges
            .iter()
            .map(|e| (e.target, u32::from(e.ticks)))
            .collect();
        let (rev_off, rev) = reverse(offsets, edges);
        let k = MAX_LANDMARKS.min(n);
        let mut from_l: Vec<Vec<u32>> = Vec::with_capacity(k);
        let mut to_l: Vec<Vec<u32>> = Vec::with_capacity(k);
        // Round-trip distance to the nearest picked landmark, per node.
        // Landmarks are picked in the largest strongly connected component,
        // where every node has a route to and from each of them. Picking
        // the farthest node by round trip over the whole graph instead
        // spent every landmark after the first on a different small
        // component (a pit one cannot climb out of, a ledge one cannot
        // reach), which bound almost nothing: on a generated 1024 x 1024
        // level all 32 went there.
        let main = largest_scc(offsets, &fwd, &rev_off, &rev);
        let mut near = vec![FAR; n];
        let mut pick = main.iter().position(|&m| m).unwrap_or(0) as u32;
        for _ in 0..k {
            let (f, t) = measure(offsets, &fwd, &rev_off, &rev, pick);
            for v in 0..n {
                let round = f[v].saturating_add(t[v]);
                near[v] = near[v].min(round);
            }
            from_l.push(f);
            to_l.push(t);
            // Next: the node of the component farthest from every landmark.
            let Some(next) = (0..n).filter(|&v| main[v]).max_by_key(|&v| near[v]) else {
                break;
            };
            if near[next] == 0 {
                break;
            }
            pick = next as u32;
        }
        let mut blocks = vec![
            Block {
                from: [FAR; MAX_LANDMARKS],
                to: [FAR; MAX_LANDMARKS],
            };
            n
        ];
        for (l, (f, t)) in from_l.iter().zip(&to_l).enumerate() {
            for (v, b) in blocks.iter_mut().enumerate() {
                b.from[l] = f[v];
                b.to[l] = t[v];
            }
        }
        let fits = |d: u32| d == FAR || d < u32::from(FAR16);
        if !blocks
            .iter()
            .all(|b| b.from.iter().chain(&b.to).all(|&d| fits(d)))
        {
            return Self {
                blocks,
                ..Self::default()
            };
        }
        let narrow = blocks
            .iter()
            .map(|b| {
                let n = |d: u32| u16::try_from(d).unwrap_or(FAR16);
                let plus1 = |d: u32| if d == FAR { 0 } else { n(d + 1) };
                Narrow {
                    from: b.from.map(n),
                    to1: b.to.map(plus1),
                }
            })
            .collect();
        Self {
            blocks: Vec::new(),
            narrow,
            ..Self::default()
        }
    }

    /// Node `v`'s distances from and to the landmarks as 32-bit values
    /// ([`FAR`] for no route), if `v` is in the table.
    fn raw(&self, v: u32) -> Option<([u32; MAX_LANDMARKS], [u32; MAX_LANDMARKS])> {
        let wide = |d: u16| if d == FAR16 { FAR } else { u32::from(d) };
        match self.narrow.get(v as usize) {
            Some(b) => Some((
                b.from.map(wide),
                b.to1.map(|d| d.checked_sub(1).map_or(FAR, u32::from)),
            )),
            None => self.blocks.get(v as usize).map(|b| (b.from, b.to)),
        }
    }

    /// `t`'s distances prepared for [`Landmarks::bound_to`]; a goal off the
    /// table bounds nothing.
    pub fn goal(&self, t: u32) -> GoalBound {
        let mut g = GoalBound {
            from: [0; MAX_LANDMARKS],
            to: [FAR; MAX_LANDMARKS],
            from16: [0; MAX_LANDMARKS],
            to1: [FAR_GOAL; MAX_LANDMARKS],
        };
        if let Some((from, to)) = self.raw(t) {
            g.from = from.map(|lt| if lt == FAR { 0 } else { lt });
            g.to = to;
            // In a narrow table every finite distance is below FAR16.
            g.from16 = g.from.map(|d| u16::try_from(d).unwrap_or(0));
            g.to1 = to.map(|d| u16::try_from(d.saturating_add(1)).unwrap_or(FAR_GOAL));
            // A dropped half bounds nothing: its goal side is the one of a
            // goal no landmark route meets.
            for l in 0..MAX_LANDMARKS {
                if self.dead_from >> l & 1 != 0 {
                    (g.from[l], g.from16[l]) = (0, 0);
                }
                if self.dead_to >> l & 1 != 0 {
                    (g.to[l], g.to1[l]) = (FAR, FAR_GOAL);
                }
            }
        }
        g
    }

    /// A lower bound on the ticks of any route from `v` to the goal `g`
    /// (0 for a node off the table): the largest, over the landmarks, of
    /// `d(L, t) - d(L, v)` and `d(v, L) - d(t, L)` where both terms are
    /// routes. Branch-free: a [`FAR`] `d(L, v)` exceeds every prepared
    /// `d(L, t)` and a [`FAR`] `d(t, L)` every finite `d(v, L)`, so their
    /// saturating differences are 0; only a [`FAR`] `d(v, L)` needs a mask.
    #[inline]
    pub fn bound_to(&self, v: u32, g: &GoalBound) -> u32 {
        if let Some(b) = self.narrow.get(v as usize) {
            // A FAR16 `d(L, v)` exceeds every prepared `d(L, t)`; a missing
            // `d(v, L)` is 0 below every prepared `d(t, L) + 1`; a missing
            // `d(t, L)` is FAR_GOAL, at least every `d(v, L) + 1`. The
            // differences saturate at 0, where the bound starts anyway, so
            // the loop runs in 16-bit lanes (eight to an SSE2 register).
            let mut best = 0u16;
            for l in 0..MAX_LANDMARKS {
                best = best.max(g.from16[l].saturating_sub(b.from[l]));
                best = best.max(b.to1[l].saturating_sub(g.to1[l]));
            }
            u32::from(best)
        } else if let Some(b) = self.blocks.get(v as usize) {
            bound_of(b.from, b.to, FAR, g)
        } else {
            0
        }
    }

    /// Whether the table proves that no route leads from `v` to `t`: some
    /// landmark is reachable from `t` but not from `v` (a route from `v`
    /// to `t` would go on to it). False proves nothing.
    pub fn separated(&self, v: u32, t: u32) -> bool {
        match (self.raw(v), self.raw(t)) {
            (Some((_, v_to)), Some((_, t_to))) => (0..MAX_LANDMARKS)
                .any(|l| self.dead_to >> l & 1 == 0 && v_to[l] == FAR && t_to[l] != FAR),
            _ => false,
        }
    }

    /// A lower bound on the ticks of any route from `v` to `t` (the tests'
    /// shorthand for [`Landmarks::bound_to`] a prepared goal).
    #[cfg(test)]
    pub fn bound(&self, v: u32, t: u32) -> u32 {
        self.bound_to(v, &self.goal(t))
    }

    /// Heap bytes held.
    pub fn bytes(&self) -> usize {
        self.blocks.capacity() * size_of::<Block>() + self.narrow.capacity() * size_of::<Narrow>()
    }

    /// Whether an edit dropped a half of the table, or left it unmeasured
    /// (see [`Landmarks::repair`]).
    pub fn stale(&self) -> bool {
        self.dead_from | self.dead_to != 0
    }

    /// The landmark halves that bound routes: `(live, measured)`.
    pub fn halves(&self) -> (usize, usize) {
        let measured = if self.narrow.is_empty() && self.blocks.is_empty() && !self.stale() {
            0
        } else {
            2 * MAX_LANDMARKS
        };
        let dead = (self.dead_from.count_ones() + self.dead_to.count_ones()) as usize;
        (measured.saturating_sub(dead), measured)
    }

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

/// The reverse graph of a CSR graph: per node, its incoming links as
/// `(source, ticks)`.
fn reverse(offsets: &[u32], edges: &[Edge]) -> (Vec<u32>, Vec<(u32, u32)>) {
    let n = offsets.len().saturating_sub(1);
    let mut rev_off = vec![0u32; n + 1];
    for e in edges {
        rev_off[e.target as usize + 1] += 1;
    }
    for i in 0..n {
        rev_off[i + 1] += rev_off[i];
    }
    let mut fill = rev_off.clone();
    let mut rev = vec![(0u32, 0u32); edges.len()];
    for v in 0..n {
        for e in &edges[offsets[v] as usize..offsets[v + 1] as usize] {
            let slot = &mut fill[e.target as usize];
            rev[*slot as usize] = (v as u32, u32::from(e.ticks));
            *slot += 1;
        }
    }
    (rev_off, rev)
}

/// Passes over an edit's window the repair of the `to` halves takes at
/// most (each settles the new nodes one link further from the old ones).
const MAX_PASSES: usize = 16;

impl Block {
    /// A node no landmark route meets.
    const NONE: Self = Self {
        from: [FAR; MAX_LANDMARKS],
        to: [FAR; MAX_LANDMARKS],
    };
}

impl Narrow {
    /// A node no landmark route meets.
    const NONE: Self = Self {
        from: [FAR16; MAX_LANDMARKS],
        to1: [0; MAX_LANDMARKS],
    };
}

/// [`Landmarks::bound_to`] for one node's distances, `far` marking no
/// route in `to`.
#[inline]
fn bound_of(from: [u32; MAX_LANDMARKS], to: [u32; MAX_LANDMARKS], far: u32, g: &GoalBound) -> u32 {
    let mut best = 0;
    for l in 0..MAX_LANDMARKS {
        let f = g.from[l].saturating_sub(from[l]);
        let t = if to[l] == far {
            0
        } else {
            to[l].saturating_sub(g.to[l])
        };
        best = best.max(f).max(t);
    }
    best
}

/// Membership of the largest strongly connected component (the first
/// found among equals), by Kosaraju's two passes with explicit stacks.
fn largest_scc(
    offsets: &[u32],
    fwd: &[(u32, u32)],
    rev_off: &[u32],
    rev: &[(u32, u32)],
) -> Vec<bool> {
    let n = offsets.len() - 1;
    // Pass 1: nodes in order of finishing a depth-first search of the graph.
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut stack: Vec<(u32, u32)> = Vec::new();
    for root in 0..n as u32 {
        if seen[root as usize] {
            continue;
        }
        seen[root as usize] = true;
        stack.push((root, offsets[root as usize]));
        while let Some(top) = stack.last_mut() {
            let (v, next) = *top;
            if next < offsets[v as usize + 1] {
                top.1 += 1;
                let t = fwd[next as usize].0;
                if !seen[t as usize] {
                    seen[t as usize] = true;
                    stack.push((t, offsets[t as usize]));
                }
            } else {
                order.push(v);
                stack.pop();
            }
        }
    }
    // Pass 2: components of the reverse graph, latest finisher first.
    let mut comp = vec![u32::MAX; n];
    let (mut best, mut best_size, mut count) = (0u32, 0usize, 0u32);
    let mut todo: Vec<u32> = Vec::new();
    for &root in order.iter().rev() {
        if comp[root as usize] != u32::MAX {
            continue;
        }
        comp[root as usize] = count;
        todo.push(root);
        let mut size = 0;
        while let Some(v) = todo.pop() {
            size += 1;
            for &(u, _) in &rev[rev_off[v as usize] as usize..rev_off[v as usize + 1] as usize] {
                if comp[u as usize] == u32::MAX {
                    comp[u as usize] = count;
                    todo.push(u);
                }
            }
        }
        if size > best_size {
            (best, best_size) = (count, size);
        }
        count += 1;
    }
    comp.iter().map(|&c| c == best).collect()
}

/// Route ticks from `l` to every node and from every node to `l`.
fn measure(
    offsets: &[u32],
    fwd: &[(u32, u32)],
    rev_off: &[u32],
    rev: &[(u32, u32)],
    l: u32,
) -> (Vec<u32>, Vec<u32>) {
    #[cfg(feature = "parallel")]
    {
        rayon::join(|| dijkstra(offsets, fwd, l), || dijkstra(rev_off, rev, l))
    }
    #[cfg(not(feature = "parallel"))]
    {
        (dijkstra(offsets, fwd, l), dijkstra(rev_off, rev, l))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::links::LinkKind;

    /// The bound as the plain per-landmark rule, with every route test.
    fn reference(lm: &Landmarks, v: u32, t: u32) -> u32 {
        let (bv, bt) = (lm.raw(v).unwrap(), lm.raw(t).unwrap());
        let mut best = 0;
        for l in 0..MAX_LANDMARKS {
            let (lv, lt) = (bv.0[l], bt.0[l]);
            if lv != FAR && lt != FAR && lt > lv {
                best = best.max(lt - lv);
            }
            let (vl, tl) = (bv.1[l], bt.1[l]);
            if vl != FAR && tl != FAR && vl > tl {
                best = best.max(vl - tl);
            }
        }
        best
    }

    /// Offsets and arcs, forward then reverse.
    type Csr = (Vec<u32>, Vec<(u32, u32)>, Vec<u32>, Vec<(u32, u32)>);

    /// A graph as `(offsets, arcs, reverse offsets, reverse arcs)`.
    fn csr(n: usize, arcs: &[(u32, u32)]) -> Csr {
        let build = |pairs: Vec<(u32, u32)>| {
            let mut off = vec![0u32; n + 1];
            for &(a, _) in &pairs {
                off[a as usize + 1] += 1;
            }
            for i in 0..n {
                off[i + 1] += off[i];
            }
            let mut sorted = pairs;
            sorted.sort_unstable();
            (
                off,
                sorted.into_iter().map(|(_, b)| (b, 1)).collect::<Vec<_>>(),
            )
        };
        let (off, fwd) = build(arcs.to_vec());
        let (roff, rev) = build(arcs.iter().map(|&(a, b)| (b, a)).collect());
        (off, fwd, roff, rev)
    }

    #[test]
    fn largest_strongly_connected_component() {
        // 0 -> 1 (a ledge left for good), the ring 1 -> 2 -> 3 -> 4 -> 1,
        // 4 -> 5 <-> 6 (a pit of two), 7 alone.
        let arcs = [
            (0, 1),
            (1, 2),
            (2, 3),
            (3, 4),
            (4, 1),
            (4, 5),
            (5, 6),
            (6, 5),
        ];
        let (off, fwd, roff, rev) = csr(8, &arcs);
        let main = largest_scc(&off, &fwd, &roff, &rev);
        let want = [false, true, true, true, true, false, false, false];
        assert_eq!(main, want);
        // A long chain with a ring at its end: explicit stacks, no recursion.
        let n = 200_000u32;
        let mut arcs: Vec<(u32, u32)> = (0..n - 1).map(|v| (v, v + 1)).collect();
        arcs.extend([(n - 1, n - 3)]);
        let (off, fwd, roff, rev) = csr(n as usize, &arcs);
        let main = largest_scc(&off, &fwd, &roff, &rev);
        assert_eq!(main.iter().filter(|&&m| m).count(), 3);
        assert!(main[(n - 1) as usize] && main[(n - 3) as usize]);
    }

    #[test]
    fn branch_free_bound_matches_the_rule_and_never_overestimates() {
        // Short routes fit the narrow table; long ones need the wide one.
        for scale in [1u16, 2000] {
            check_bounds(scale);
        }
    }

    fn check_bounds(scale: u16) {
        // Two one-way chains with shortcuts, and an island no one reaches.
        let n = 30u32;
        let mut offsets = vec![0u32];
        let mut edges = Vec::new();
        for v in 0..n {
            let mut add = |target: u32, ticks: u16| {
                edges.push(Edge {
                    target,
                    ticks,
                    kind: LinkKind::Run,
                    jumps: 0,
                });
            };
            if v < 12 {
                add((v + 1) % 12, (3 + (v % 4) as u16) * scale);
                add((v * 7 + 2) % 12, 20 * scale);
            } else if v < 26 {
                add(12 + (v - 11) % 14, 5 * scale);
                if v % 3 == 0 {
                    add(v - 12, 9 * scale);
                }
            }
            offsets.push(edges.len() as u32);
        }
        let lm = Landmarks::compute(&offsets, &edges);
        assert_eq!(lm.narrow.is_empty(), scale > 1);
        let fwd: Vec<(u32, u32)> = edges
            .iter()
            .map(|e| (e.target, u32::from(e.ticks)))
            .collect();
        let (mut far_seen, mut positive) = (false, false);
        for v in 0..n {
            let d = dijkstra(&offsets, &fwd, v);
            for t in 0..n {
                let b = lm.bound(v, t);
                positive |= b > 0;
                assert_eq!(b, reference(&lm, v, t), "{v} -> {t}");
                if d[t as usize] == FAR {
                    far_seen = true;
                } else {
                    assert!(b <= d[t as usize], "{v} -> {t}: {b} > {}", d[t as usize]);
                }
            }
        }
        assert!(far_seen && positive);
        assert!(lm.bound(0, n + 5) == 0 && lm.bound(n + 5, 0) == 0);
    }
}

#[cfg(test)]
mod edit_tests {
    use super::*;
    use crate::links::LinkKind;

    /// A seeded generator for the random graphs.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 33) % n.max(1)
        }
    }

    /// A graph as its nodes' out-links, `(target, ticks)`.
    type Graph = Vec<Vec<(u32, u16)>>;

    fn links_near(rng: &mut Rng, v: usize, n: usize, scale: u16) -> Vec<(u32, u16)> {
        (0..rng.below(4))
            .map(|_| {
                let t = (v as i64 + rng.below(9) as i64 - 4).clamp(0, n as i64 - 1);
                (t as u32, (1 + rng.below(12) as u16) * scale)
            })
            .collect()
    }

    fn csr(g: &Graph) -> (Vec<u32>, Vec<Edge>) {
        let mut offsets = vec![0u32];
        let mut edges = Vec::new();
        for out in g {
            edges.extend(out.iter().map(|&(target, ticks)| Edge {
                target,
                ticks,
                kind: LinkKind::Run,
                jumps: 0,
            }));
            offsets.push(edges.len() as u32);
        }
        (offsets, edges)
    }

    /// Every live half of `lm` is a potential of `g`, every bound is at
    /// most the route's ticks, and `separated` is never wrong.
    fn assert_bounds(lm: &Landmarks, g: &Graph, what: &str) {
        let (offsets, edges) = csr(g);
        let fwd: Vec<(u32, u32)> = edges
            .iter()
            .map(|e| (e.target, u32::from(e.ticks)))
            .collect();
        for (x, out) in g.iter().enumerate() {
            let (fx, gx) = lm.raw(x as u32).unwrap();
            for &(y, c) in out {
                let (fy, gy) = lm.raw(y).unwrap();
                for l in 0..MAX_LANDMARKS {
                    if lm.dead_from >> l & 1 == 0 && fx[l] != FAR {
                        assert!(fy[l] <= fx[l] + u32::from(c), "{what}: F{l} {x} -> {y}");
                    }
                    if lm.dead_to >> l & 1 == 0 && gy[l] != FAR {
                        assert!(gx[l] <= gy[l] + u32::from(c), "{what}: G{l} {x} -> {y}");
                    }
                }
            }
        }
        for v in 0..g.len() as u32 {
            let d = dijkstra(&offsets, &fwd, v);
            for t in 0..g.len() as u32 {
                if d[t as usize] == FAR {
                    continue;
                }
                assert!(lm.bound(v, t) <= d[t as usize], "{what}: bound {v} -> {t}");
                assert!(!lm.separated(v, t), "{what}: separated {v} -> {t}");
            }
        }
    }

    /// Random edits of random graphs, as a map's edits make them: a
    /// window of nodes is replaced by nodes old and new with links of
    /// their own, links from outside the window keep their targets (none
    /// leads to a new node) and lose those removed. After each, the
    /// repaired table still bounds every route, in both table widths.
    #[test]
    fn repaired_tables_stay_bounds_through_random_edits() {
        let (with, without) = (random_edits(usize::MAX), random_edits(0));
        // The repair keeps bounds, not just drops them all, and the reverse
        // index keeps more.
        assert!(without > 0 && with > without, "{with} {without}");
    }

    /// Edits random graphs with the repair's reverse index up to
    /// `reverse_limit` links, checking the table after each; the halves
    /// live at the end, summed.
    fn random_edits(reverse_limit: usize) -> usize {
        let mut live_after_edits = 0;
        for (seed, scale) in (1..=24).zip([1u16, 1, 1, 3000].into_iter().cycle()) {
            let mut rng = Rng(seed);
            let n = 20 + rng.below(40) as usize;
            let mut g: Graph = (0..n).map(|v| links_near(&mut rng, v, n, scale)).collect();
            // A ring so that a strongly connected core exists.
            for (v, out) in g.iter_mut().enumerate() {
                out.push((((v + 1) % n) as u32, 5 * scale));
            }
            let (offsets, edges) = csr(&g);
            let mut lm = Landmarks::compute(&offsets, &edges);
            assert_eq!(lm.narrow.is_empty(), scale > 1);
            assert_bounds(&lm, &g, &format!("seed {seed}, built"));
            for step in 0..12 {
                let n = g.len();
                let lo = rng.below(n as u64) as usize;
                let hi = (lo + rng.below(4) as usize).min(n);
                // The window's nodes after the edit: some old ones, in
                // order, and some new ones among them.
                let mut olds = Vec::new();
                for o in lo..hi {
                    if rng.below(4) != 0 {
                        olds.push(Some(o as u32));
                    }
                    if rng.below(3) == 0 {
                        olds.push(None);
                    }
                }
                if olds.is_empty() && hi == lo {
                    olds.push(None);
                }
                let moved = olds.len() as i64 - (hi - lo) as i64;
                let remap = |t: u32| -> Option<u32> {
                    let t = t as usize;
                    if t < lo {
                        Some(t as u32)
                    } else if t >= hi {
                        Some((t as i64 + moved) as u32)
                    } else {
                        olds.iter()
                            .position(|&o| o == Some(t as u32))
                            .map(|i| (lo + i) as u32)
                    }
                };
                let new_n = (n as i64 + moved) as usize;
                let mut next: Graph = Vec::with_capacity(new_n);
                for out in &g[..lo] {
                    next.push(
                        out.iter()
                            .filter_map(|&(t, c)| Some((remap(t)?, c)))
                            .collect(),
                    );
                }
                // Old nodes keep their links (renumbered) or get new ones.
                let mut relinked = Vec::new();
                for (i, o) in olds.iter().enumerate() {
                    let keep = o.filter(|_| rng.below(2) == 0);
                    relinked.push(keep.is_none());
                    next.push(match keep {
                        Some(o) => g[o as usize]
                            .iter()
                            .filter_map(|&(t, c)| Some((remap(t)?, c)))
                            .collect(),
                        None => links_near(&mut rng, lo + i, new_n, scale),
                    });
                }
                for out in &g[hi..] {
                    next.push(
                        out.iter()
                            .filter_map(|&(t, c)| Some((remap(t)?, c)))
                            .collect(),
                    );
                }
                let (offsets, edges) = csr(&next);
                lm.edit(
                    lo..hi,
                    &olds,
                    &relinked,
                    &offsets,
                    &edges,
                    (64, reverse_limit),
                );
                g = next;
                assert_bounds(&lm, &g, &format!("seed {seed}, edit {step}"));
            }
            live_after_edits += lm.halves().0;
        }
        live_after_edits
    }

    #[test]
    fn a_shortcut_from_an_old_node_drops_the_half_it_breaks() {
        // 0 -> 1 -> 2 -> 3 -> 0, ten ticks each.
        let g: Graph = (0..4).map(|v| vec![(((v + 1) % 4) as u32, 10)]).collect();
        let (offsets_before, edges_before) = csr(&g);
        let mut lm = Landmarks::compute(&offsets_before, &edges_before);
        assert!(!lm.stale());
        // Node 1 is rebuilt with a one-tick link straight to 3.
        let mut next = g.clone();
        next[1].push((3, 1));
        let (offsets, edges) = csr(&next);
        lm.edit(1..2, &[Some(1)], &[true], &offsets, &edges, (64, 0));
        assert!(lm.stale());
        assert_bounds(&lm, &next, "shortcut");
        // The landmarks whose routes to them it shortens lose that half;
        // routes from them are repaired.
        assert!(lm.dead_to != 0);
        assert_eq!(lm.dead_from, 0);
        assert_eq!(
            lm.halves().0,
            2 * MAX_LANDMARKS - lm.dead_to.count_ones() as usize
        );
        // With the reverse index, the old node's distances are lowered and
        // so are those of the nodes before it.
        let mut lm = Landmarks::compute(&offsets_before, &edges_before);
        lm.edit(
            1..2,
            &[Some(1)],
            &[true],
            &offsets,
            &edges,
            (64, usize::MAX),
        );
        assert!(!lm.stale());
        assert_bounds(&lm, &next, "shortcut, reverse index");
    }
}
