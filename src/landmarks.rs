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

use crate::graph::Edge;

/// No route.
const FAR: u32 = u32::MAX;

/// Route ticks from and to a few landmark nodes, per node.
#[derive(Debug, Clone, Default)]
pub(crate) struct Landmarks {
    k: usize,
    /// `from[v * k + l]`: ticks from landmark `l` to `v`.
    from: Vec<u32>,
    /// `to[v * k + l]`: ticks from `v` to landmark `l`.
    to: Vec<u32>,
}

/// The most landmarks a map keeps.
const MAX_LANDMARKS: usize = 8;

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
    /// Picks landmarks far apart (each the node farthest, by round trip,
    /// from those already picked) and measures routes from and to them.
    pub fn compute(offsets: &[u32], edges: &[Edge]) -> Self {
        let n = offsets.len().saturating_sub(1);
        if n < 2 {
            return Self::default();
        }
        let fwd: Vec<(u32, u32)> = edges
            .iter()
            .map(|e| (e.target, u32::from(e.ticks)))
            .collect();
        // The reverse graph.
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
        let k = MAX_LANDMARKS.min(n);
        let mut from_l: Vec<Vec<u32>> = Vec::with_capacity(k);
        let mut to_l: Vec<Vec<u32>> = Vec::with_capacity(k);
        // Round-trip distance to the nearest picked landmark, per node.
        let mut near = vec![FAR; n];
        let mut pick = 0u32;
        for _ in 0..k {
            let (f, t) = measure(offsets, &fwd, &rev_off, &rev, pick);
            for v in 0..n {
                let round = f[v].saturating_add(t[v]);
                near[v] = near[v].min(round);
            }
            from_l.push(f);
            to_l.push(t);
            // Next: the node farthest from every landmark; unconnected
            // nodes (FAR) first, so each component gets one.
            let Some(next) = (0..n).max_by_key(|&v| near[v]) else {
                break;
            };
            if near[next] == 0 {
                break;
            }
            pick = next as u32;
        }
        let k = from_l.len();
        let mut from = vec![FAR; n * k];
        let mut to = vec![FAR; n * k];
        for l in 0..k {
            for v in 0..n {
                from[v * k + l] = from_l[l][v];
                to[v * k + l] = to_l[l][v];
            }
        }
        Self { k, from, to }
    }

    /// A lower bound on the ticks of any route from `v` to `t`.
    #[inline]
    pub fn bound(&self, v: u32, t: u32) -> u32 {
        let k = self.k;
        let (v, t) = (v as usize * k, t as usize * k);
        let mut best = 0;
        for l in 0..k {
            let (lv, lt) = (self.from[v + l], self.from[t + l]);
            // From the landmark: needs v reachable from it.
            if lv != FAR && lt != FAR && lt > lv {
                best = best.max(lt - lv);
            }
            let (vl, tl) = (self.to[v + l], self.to[t + l]);
            // To the landmark: needs t to reach it.
            if vl != FAR && tl != FAR && vl > tl {
                best = best.max(vl - tl);
            }
        }
        best
    }

    /// Heap bytes held.
    pub fn bytes(&self) -> usize {
        (self.from.capacity() + self.to.capacity()) * size_of::<u32>()
    }
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
