//! What a map's links give when performed or summed without a search: a
//! link's trajectory and sweep, the replay memo's counts, the search's lower
//! bound, and plain Dijkstra (the search's oracle).

use crate::graph::{LinkId, NavMap, NodeId};
use crate::level::Cell;
use crate::physics::Body;

/// A lower bound on the ticks of any route from `from` to `to`, in
/// whole ticks: the larger of the columns to cross at top speed and the
/// landmark bound, as the exact search uses them (0 for ids off the
/// map). Admissible and consistent, so A* with it returns cheapest
/// routes.
#[must_use]
pub fn lower_bound_ticks(map: &NavMap, from: NodeId, to: NodeId) -> u32 {
    if from.0 as usize >= map.node_count() || to.0 as usize >= map.node_count() {
        return 0;
    }
    let cols =
        super::bound::cols_apart(map.cell(from).col, map.cell(to).col, super::wrap_cols(map));
    let across = (f64::from(cols) * map.ticks_per_col()).floor() as u32;
    across.max(map.landmark_bound(from.0, &map.landmark_goal(to.0)))
}

/// The body's state before and after each tick of a link's canonical
/// performance (from exactly standing on its source cell), for drawing
/// its trajectory: `ticks + 1` states.
#[must_use]
pub fn trajectory(map: &NavMap, id: LinkId) -> Vec<Body> {
    let from = map.link(id).from;
    let mut body = Body::start(map.level(), from, map.physics());
    let mut out = Vec::with_capacity(map.ticks(id) as usize + 1);
    out.push(body);
    for input in map.inputs(id) {
        body.step(map.level(), map.physics(), input);
        out.push(body);
    }
    out
}

/// Every cell the body's box overlaps while performing a link from
/// standing on its source cell, sorted. Computed by replaying the tape
/// (sweeps are not stored).
#[must_use]
pub fn sweep(map: &NavMap, id: LinkId) -> Vec<Cell> {
    crate::links::sweep_cells(
        map.level(),
        map.physics(),
        map.link(id).from,
        map.inputs(id),
    )
}

/// The replay memo's lookups so far as `(hits, misses)`: each link of a
/// path [`find_path`](super::find_path) proves is one lookup, a hit when the same
/// link was performed before from the bit-identical start state (its
/// cached outcome is then used, and checked, instead of stepping the
/// body again). For measuring; a clone of the map starts at zero.
#[must_use]
pub fn replay_memo_counts(map: &NavMap) -> (u64, u64) {
    map.memo().counts()
}

/// Least ticks from `start` to every node over the map's links
/// (plain Dijkstra; `None` where unreachable). The oracle for the search.
#[must_use]
pub fn dijkstra(map: &NavMap, start: NodeId) -> Vec<Option<u32>> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut dist: Vec<Option<u32>> = vec![None; map.node_count()];
    let mut heap = BinaryHeap::new();
    dist[start.0 as usize] = Some(0);
    heap.push(Reverse((0u32, start.0)));
    while let Some(Reverse((d, n))) = heap.pop() {
        if dist[n as usize].is_some_and(|best| d > best) {
            continue;
        }
        for e in map.edges_from(n) {
            let t = e.target as usize;
            let nd = d + u32::from(e.ticks);
            if dist[t].is_none_or(|best| nd < best) {
                dist[t] = Some(nd);
                heap.push(Reverse((nd, t as u32)));
            }
        }
    }
    dist
}
