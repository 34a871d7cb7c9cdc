//! Graph reachability over a map's links, traps, and strongly connected
//! regions (iterative Tarjan: no recursion, so big maps cannot overflow the
//! stack).

use std::collections::VecDeque;

use crate::graph::{LinkId, NavMap, NodeId};
use crate::level::Cell;

/// The standing cells reachable from one start cell, and which of them can
/// get back to it. Found by [`reachable_from`].
///
/// Reachability is over the map's links only (breadth-first search): a cell
/// is reached when some chain of links leads to it. Every link replays on
/// the reference body from its cell's centre, so this matches what
/// [`find_path`](crate::find_path) can prove except for the rare knife-edge chain whose
/// replay fails from an off-centre start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reach {
    start: NodeId,
    reached: Vec<bool>,
    returns: Vec<bool>,
    count: usize,
}

impl Reach {
    /// The start node.
    #[must_use]
    pub fn start(&self) -> NodeId {
        self.start
    }

    /// True when `node` is reachable from the start (the start itself is).
    #[must_use]
    pub fn contains(&self, node: NodeId) -> bool {
        self.reached.get(node.0 as usize).copied().unwrap_or(false)
    }

    /// True when `node` is reachable from the start but the start cannot be
    /// reached back from it: a *trap*. Reaching any cell of the start's
    /// region (see [`regions`]) would lead back to the start, so a
    /// trap is exactly a reachable cell outside the start's region whose
    /// every way on avoids that region.
    #[must_use]
    pub fn is_trap(&self, node: NodeId) -> bool {
        self.contains(node) && !self.returns[node.0 as usize]
    }

    /// Number of reachable nodes (the start included).
    #[must_use]
    pub fn len(&self) -> usize {
        self.count
    }

    /// Never true: the start is always reached.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Reachable nodes over all nodes of the map (1.0 for an empty map).
    #[must_use]
    pub fn fraction(&self) -> f64 {
        if self.reached.is_empty() {
            1.0
        } else {
            self.count as f64 / self.reached.len() as f64
        }
    }

    /// The reachable cells, in node order.
    #[must_use]
    pub fn cells(&self, map: &NavMap) -> Vec<Cell> {
        self.filter(map, |i| self.reached[i])
    }

    /// The standing cells not reachable from the start, in node order.
    #[must_use]
    pub fn unreachable_cells(&self, map: &NavMap) -> Vec<Cell> {
        self.filter(map, |i| !self.reached[i])
    }

    /// The traps (see [`Reach::is_trap`]), in node order.
    #[must_use]
    pub fn traps(&self, map: &NavMap) -> Vec<Cell> {
        self.filter(map, |i| self.reached[i] && !self.returns[i])
    }

    /// The reachable cell nearest to `cell` (Euclidean, ties to the first in
    /// node order).
    #[must_use]
    pub fn nearest(&self, map: &NavMap, cell: Cell) -> Option<Cell> {
        let d2 = |c: Cell| {
            let (dc, dr) = (
                i64::from(c.col) - i64::from(cell.col),
                i64::from(c.row) - i64::from(cell.row),
            );
            dc * dc + dr * dr
        };
        self.cells(map).into_iter().min_by_key(|&c| d2(c))
    }

    fn filter(&self, map: &NavMap, keep: impl Fn(usize) -> bool) -> Vec<Cell> {
        map.nodes()
            .iter()
            .enumerate()
            .filter(|&(i, _)| i < self.reached.len() && keep(i))
            .map(|(_, &c)| c)
            .collect()
    }
}

/// Strongly connected components of a map's link graph: two cells are in
/// one region when each can be reached from the other. Found by
/// [`regions`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Regions {
    of_node: Vec<u32>,
    sizes: Vec<usize>,
}

impl Regions {
    /// Number of regions.
    #[must_use]
    pub fn count(&self) -> usize {
        self.sizes.len()
    }

    /// The region of a node, an index into [`Regions::sizes`].
    #[must_use]
    pub fn of(&self, node: NodeId) -> usize {
        self.of_node[node.0 as usize] as usize
    }

    /// Node count of each region. Regions are numbered in reverse
    /// topological order: no link leads from a region to a higher-numbered
    /// one, so region 0 is a dead end (a sink).
    #[must_use]
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }
}

/// The standing cells reachable from standing on `start` by following
/// links, and which of them are traps (see [`Reach`]). `None` when
/// `start` is not a standable cell (snap it first with [`snap`](crate::search::snap)).
#[must_use]
pub fn reachable_from(map: &NavMap, start: Cell) -> Option<Reach> {
    let s = map.node(start)?;
    let n = map.node_count();
    let mut reached = vec![false; n];
    let mut queue = VecDeque::from([s]);
    reached[s.0 as usize] = true;
    let mut count = 1;
    while let Some(v) = queue.pop_front() {
        for id in map.link_range(v) {
            let t = map.target(LinkId(id));
            if !reached[t.0 as usize] {
                reached[t.0 as usize] = true;
                count += 1;
                queue.push_back(t);
            }
        }
    }
    // Backward search from the start over reversed links, restricted to
    // reached nodes: any way back from a reached node stays reached.
    let mut rev_count = vec![0u32; n + 1];
    let reached_nodes: Vec<NodeId> = (0..n as u32)
        .map(NodeId)
        .filter(|v| reached[v.0 as usize])
        .collect();
    for &v in &reached_nodes {
        for id in map.link_range(v) {
            rev_count[map.target(LinkId(id)).0 as usize + 1] += 1;
        }
    }
    for i in 0..n {
        rev_count[i + 1] += rev_count[i];
    }
    let mut fill = rev_count.clone();
    let mut sources = vec![NodeId(0); rev_count[n] as usize];
    for &v in &reached_nodes {
        for id in map.link_range(v) {
            let t = map.target(LinkId(id)).0 as usize;
            sources[fill[t] as usize] = v;
            fill[t] += 1;
        }
    }
    let mut returns = vec![false; n];
    returns[s.0 as usize] = true;
    let mut queue = VecDeque::from([s]);
    while let Some(v) = queue.pop_front() {
        let r = rev_count[v.0 as usize] as usize..rev_count[v.0 as usize + 1] as usize;
        for &u in &sources[r] {
            if !returns[u.0 as usize] {
                returns[u.0 as usize] = true;
                queue.push_back(u);
            }
        }
    }
    Some(Reach {
        start: s,
        reached,
        returns,
        count,
    })
}

/// The traps seen from `start`: standing cells reachable from `start`
/// from which `start` cannot be reached again (see [`Reach::is_trap`]).
/// `None` when `start` is not standable.
#[must_use]
pub fn traps(map: &NavMap, start: Cell) -> Option<Vec<Cell>> {
    reachable_from(map, start).map(|r| r.traps(map))
}

/// The strongly connected components of the link graph (iterative
/// Tarjan, linear in nodes plus links).
#[must_use]
pub fn regions(map: &NavMap) -> Regions {
    let n = map.node_count();
    let mut index: Vec<Option<u32>> = vec![None; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut of_node = vec![0u32; n];
    let mut sizes = Vec::new();
    let mut next = 0u32;
    // Explicit call stack: (node, next link id to scan).
    let mut call: Vec<(u32, u32)> = Vec::new();
    for root in 0..n as u32 {
        if index[root as usize].is_some() {
            continue;
        }
        index[root as usize] = Some(next);
        low[root as usize] = next;
        next += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        call.push((root, map.link_range(NodeId(root)).start));
        while let Some(&(v, it)) = call.last() {
            let end = map.link_range(NodeId(v)).end;
            if it < end {
                if let Some(top) = call.last_mut() {
                    top.1 += 1;
                }
                let w = map.target(LinkId(it)).0;
                match index[w as usize] {
                    None => {
                        index[w as usize] = Some(next);
                        low[w as usize] = next;
                        next += 1;
                        stack.push(w);
                        on_stack[w as usize] = true;
                        call.push((w, map.link_range(NodeId(w)).start));
                    }
                    Some(iw) if on_stack[w as usize] => {
                        low[v as usize] = low[v as usize].min(iw);
                    }
                    Some(_) => {}
                }
            } else {
                call.pop();
                if let Some(&(p, _)) = call.last() {
                    low[p as usize] = low[p as usize].min(low[v as usize]);
                }
                if Some(low[v as usize]) == index[v as usize] {
                    let id = sizes.len() as u32;
                    let mut size = 0;
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        of_node[w as usize] = id;
                        size += 1;
                        if w == v {
                            break;
                        }
                    }
                    sizes.push(size);
                }
            }
        }
    }
    Regions { of_node, sizes }
}
