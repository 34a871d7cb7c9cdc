//! Picking the landmarks and measuring routes from and to them.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{Block, FAR, FAR16, Landmarks, MAX_LANDMARKS, Narrow};
use crate::graph::edge::Edge;

/// Dijkstra over a CSR graph given as `(offsets, targets and ticks)`.
pub(super) fn dijkstra(offsets: &[u32], arcs: &[(u32, u32)], start: u32) -> Vec<u32> {
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
        // The narrow table when every route fits it, written straight from
        // the measured routes (the wide one would double the build's peak
        // memory for a moment).
        let fits = |d: u32| d == FAR || d < u32::from(FAR16);
        if from_l
            .iter()
            .chain(&to_l)
            .all(|col| col.iter().all(|&d| fits(d)))
        {
            let narrow = (0..n)
                .map(|v| {
                    let mut b = Narrow {
                        from: [FAR16; MAX_LANDMARKS],
                        to1: [0; MAX_LANDMARKS],
                    };
                    for (l, (f, t)) in from_l.iter().zip(&to_l).enumerate() {
                        // `fits` above: every finite route is below FAR16.
                        b.from[l] = u16::try_from(f[v]).unwrap_or(FAR16);
                        b.to1[l] = if t[v] == FAR { 0 } else { (t[v] + 1) as u16 };
                    }
                    b
                })
                .collect();
            return Self {
                narrow,
                ..Self::default()
            };
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
        Self {
            blocks,
            ..Self::default()
        }
    }
}

/// The reverse graph of a CSR graph: per node, its incoming links as
/// `(source, ticks)`.
pub(super) fn reverse(offsets: &[u32], edges: &[Edge]) -> (Vec<u32>, Vec<(u32, u32)>) {
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

/// Membership of the largest strongly connected component (the first
/// found among equals), by Kosaraju's two passes with explicit stacks.
pub(super) fn largest_scc(
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
