//! The pruned best-first search over a [`NavMap`].
//!
//! Exact mode (`beam_width: None`) is A* on link ticks with an admissible
//! time heuristic (horizontal distance over the fastest horizontal speed)
//! and dominance pruning: a label reaching a node is dropped when another
//! label got there no later and with no more jumps. Beam mode
//! (`beam_width: Some(k)`) expands the frontier layer by layer and keeps
//! only the `k` best partial paths, like the classic Bosonauts navigator:
//! faster on big maps, never cheaper than exact.

use crate::graph::{LinkId, NavMap, NodeId};
use crate::landmarks::GoalBound;
use crate::level::Cell;

use crate::path::{Path, PathStep, realize};

use crate::query::{Endpoint, PathError, SearchOptions, SearchStats};

/// A graph-level result: links and total ticks.
pub(crate) struct Route {
    pub links: Vec<LinkId>,
    pub ticks: u32,
}

struct Ctx<'a> {
    map: &'a NavMap,
    opts: &'a SearchOptions,
    /// Expansions this search may make: what is left of the call's
    /// `opts.max_expansions` after earlier attempts.
    budget: usize,
    /// Links a replay missed, sorted; usually empty.
    banned: &'a [LinkId],
    forbid: [bool; 6],
    levels: usize,
    goal: GoalBound,
    goal_col: i32,
    ticks_per_col: f64,
}

impl Ctx<'_> {
    /// The node and jump count of a state (no division when jumps are not
    /// capped, which is one state per node).
    #[inline]
    fn split(&self, state: usize) -> (NodeId, usize) {
        if self.levels == 1 {
            (NodeId(state as u32), 0)
        } else {
            (NodeId((state / self.levels) as u32), state % self.levels)
        }
    }

    #[inline]
    fn h(&self, node: u32) -> f64 {
        self.h_at(node, self.map.nodes()[node as usize].col)
    }

    /// [`Ctx::h`] for a node in column `col`.
    #[inline]
    fn h_at(&self, node: u32, col: i32) -> f64 {
        let across = f64::from((col - self.goal_col).abs()) * self.ticks_per_col;
        across.max(f64::from(self.map.landmark_bound(node, &self.goal)))
    }
}

/// The exact search's queue key: `f` rounded down to whole ticks. With
/// integer link costs, flooring keeps the heuristic admissible and
/// consistent, so keys never decrease along the search, which lets the
/// queue be a bucket queue.
fn key(f: f64) -> u64 {
    // `as` truncates toward zero: the floor of a non-negative value (and
    // needs no libm call on targets without SSE4.1). Through `i64`, one
    // conversion instruction: keys are far below 2^63, and a larger `f`
    // would still saturate, keeping keys monotone.
    f.max(0.0) as i64 as u64
}

/// The exact search's queue of `(key, g, state)`: pops a least key, and
/// among equal keys the entry pushed last. Every key pushed is at least the
/// last key popped (A* with a consistent heuristic; a smaller one is served
/// as the last popped key). This is exactly the order the radix heap it
/// replaces produced (kept in the tests as the reference), so searches
/// expand the same states in the same order.
///
/// Keys near the last popped one live in a ring of [`BucketQueue::RING`]
/// stacks, one per key, so push and pop are O(1); the rare key beyond the
/// ring waits in an overflow list, in push order, and moves into its stack
/// (before any entry pushed there later) once the ring reaches it.
struct BucketQueue {
    /// The last key popped: the ring holds keys `last..last + RING`.
    last: u64,
    /// Entries in the ring.
    len: usize,
    /// Stack of key `k` at `k % RING`; empty until the first `clear`.
    ring: Vec<Vec<(u32, u32)>>,
    /// Entries whose key was beyond the ring when pushed, in push order.
    over: Vec<(u64, u32, u32)>,
    /// The least key in `over` (`u64::MAX` when empty).
    over_min: u64,
}

impl BucketQueue {
    /// Heap bytes held.
    fn bytes(&self) -> usize {
        self.ring.capacity() * size_of::<Vec<(u32, u32)>>()
            + self.ring.iter().map(|b| b.capacity() * 8).sum::<usize>()
            + self.over.capacity() * size_of::<(u64, u32, u32)>()
    }
}

impl BucketQueue {
    /// Keys the ring spans.
    const RING: u64 = 512;

    const fn new() -> Self {
        Self {
            last: 0,
            len: 0,
            ring: Vec::new(),
            over: Vec::new(),
            over_min: u64::MAX,
        }
    }

    fn clear(&mut self) {
        self.last = 0;
        self.len = 0;
        if self.ring.is_empty() {
            self.ring = (0..Self::RING).map(|_| Vec::new()).collect();
        }
        self.ring.iter_mut().for_each(Vec::clear);
        self.over.clear();
        self.over_min = u64::MAX;
    }

    #[inline]
    fn stack(&mut self, key: u64) -> &mut Vec<(u32, u32)> {
        &mut self.ring[(key % Self::RING) as usize]
    }

    #[inline]
    fn push(&mut self, key: u64, g: u32, state: u32) {
        let key = key.max(self.last);
        if self.ring.is_empty() {
            self.clear();
        }
        if key - self.last < Self::RING {
            self.stack(key).push((g, state));
            self.len += 1;
        } else {
            self.over.push((key, g, state));
            self.over_min = self.over_min.min(key);
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<(u64, u32, u32)> {
        if self.len == 0 {
            if self.over.is_empty() {
                return None;
            }
            self.last = self.over_min;
            self.admit();
        }
        while self.stack(self.last).is_empty() {
            self.last += 1;
        }
        let last = self.last;
        let (g, state) = self.stack(last).pop()?;
        self.len -= 1;
        if self.over_min < self.last + Self::RING {
            self.admit();
        }
        Some((last, g, state))
    }

    /// Moves the overflow entries the ring now spans into their stacks, in
    /// push order. Their stacks are empty: a stack's previous key is below
    /// `last`, and no key they hold has been pushed into the ring yet.
    fn admit(&mut self) {
        let end = self.last + Self::RING;
        let mut over = std::mem::take(&mut self.over);
        let mut min = u64::MAX;
        over.retain(|&(key, g, state)| {
            if key < end {
                self.ring[(key % Self::RING) as usize].push((g, state));
                self.len += 1;
                false
            } else {
                min = min.min(key);
                true
            }
        });
        self.over = over;
        self.over_min = min;
    }
}

impl NavMap {
    /// Snaps `cell` to the nearest standable cell within `radius` (by
    /// Euclidean distance, ties to the lower, then the left one); `None`
    /// when there is none. A standable cell is returned as is.
    #[must_use]
    pub fn snap(&self, cell: Cell, radius: u32) -> Option<Cell> {
        if self.node(cell).is_some() {
            return Some(cell);
        }
        // Past the level's extent a ring holds no new cells: bound the work.
        let extent = self.level().width() + self.level().height();
        let r = radius.min(u32::try_from(extent).unwrap_or(u32::MAX)) as i32;
        let r = r.max(0);
        let mut best: Option<(i64, i32, i32, Cell)> = None;
        for ring in 1..=r {
            // Once a hit is closer than this ring can be, stop.
            if let Some((d2, ..)) = best
                && d2 < i64::from(ring) * i64::from(ring)
            {
                break;
            }
            for dr in -ring..=ring {
                for dc in -ring..=ring {
                    if dr.abs() != ring && dc.abs() != ring {
                        continue;
                    }
                    let c = Cell::new(cell.col.saturating_add(dc), cell.row.saturating_add(dr));
                    if self.node(c).is_some() {
                        let d2 = i64::from(dc) * i64::from(dc) + i64::from(dr) * i64::from(dr);
                        let k = (d2, -dr, dc, c);
                        if best.is_none_or(|b| (k.0, k.1, k.2) < (b.0, b.1, b.2)) {
                            best = Some(k);
                        }
                    }
                }
            }
        }
        best.map(|b| b.3)
    }

    fn endpoint(&self, which: Endpoint, cell: Cell, radius: u32) -> Result<NodeId, PathError> {
        self.snap(cell, radius)
            .and_then(|c| self.node(c))
            .ok_or(PathError::InvalidEndpoint {
                which,
                cell,
                radius,
            })
    }

    /// Finds a path from standing on `start` to standing on `goal`, and
    /// proves it by replaying its input tape on the reference body.
    ///
    /// A start or goal that is off the map, in a wall or in the air snaps to
    /// the nearest standable cell within `options.snap_radius`.
    ///
    /// ```
    /// use platnav::{Cell, Level, LinkKind, NavMap, Physics, SearchOptions};
    ///
    /// let level: Level = "..........\n..........\n.S..##..G.\n##########".parse()?;
    /// let map = NavMap::build(&level, &Physics::default())?;
    /// let path = map.find_path(Cell::new(1, 2), Cell::new(8, 2), &SearchOptions::default())?;
    /// assert_eq!(path.goal(), Cell::new(8, 2));
    /// // Over the block: a jump somewhere along the way.
    /// assert!(path.steps().iter().any(|s| map.link(s.link).kind == LinkKind::Jump));
    /// // The tape was replayed before the path was returned; replay it again.
    /// assert!(path.replay(map.level(), map.physics()).stands_on(Cell::new(8, 2)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`PathError::InvalidEndpoint`], [`PathError::Unreachable`],
    /// [`PathError::ReplanLimit`] or [`PathError::BudgetExhausted`].
    pub fn find_path(
        &self,
        start: Cell,
        goal: Cell,
        options: &SearchOptions,
    ) -> Result<Path, PathError> {
        let s = self.endpoint(Endpoint::Start, start, options.snap_radius)?;
        let g = self.endpoint(Endpoint::Goal, goal, options.snap_radius)?;
        let mut banned: Vec<LinkId> = Vec::new();
        let mut total = SearchStats::default();
        loop {
            // The expansion budget is the whole call's, re-plans included.
            let budget = options.max_expansions.saturating_sub(total.expanded);
            let (route, stats) = match self.search_route_within(s, g, options, &banned, budget) {
                Ok(found) => found,
                Err(PathError::BudgetExhausted { limit, stats }) => {
                    return Err(PathError::BudgetExhausted {
                        limit,
                        stats: SearchStats {
                            expanded: total.expanded + stats.expanded,
                            pruned: total.pruned + stats.pruned,
                            replans: total.replans,
                        },
                    });
                }
                Err(e) => return Err(e),
            };
            total.expanded += stats.expanded;
            total.pruned += stats.pruned;
            let Some(route) = route else {
                return Err(PathError::Unreachable {
                    start: self.cell(s),
                    goal: self.cell(g),
                    stats: total,
                });
            };
            match realize(self, self.cell(s), &route.links) {
                Ok(inputs) => {
                    // Each link starts where the previous one ended (the
                    // route is a chain of parents), so no link's source
                    // needs looking up.
                    let mut from = s;
                    let steps = route
                        .links
                        .iter()
                        .map(|&id| {
                            let to = self.target(id);
                            let step = PathStep {
                                link: id,
                                kind: self.kind(id),
                                from: self.cell(from),
                                to: self.cell(to),
                                ticks: self.ticks(id),
                            };
                            from = to;
                            step
                        })
                        .collect();
                    return Ok(Path::new(
                        self.cell(s),
                        self.cell(g),
                        steps,
                        route.ticks,
                        self.physics().dt,
                        inputs,
                        total,
                    ));
                }
                Err(failed) => {
                    if let Err(at) = banned.binary_search(&failed) {
                        banned.insert(at, failed);
                    }
                    total.replans += 1;
                    if total.replans > options.max_replans as usize {
                        return Err(PathError::ReplanLimit {
                            start: self.cell(s),
                            goal: self.cell(g),
                            limit: options.max_replans,
                            stats: total,
                        });
                    }
                }
            }
        }
    }

    /// The graph search alone: the cheapest route (exact mode) or the beam's
    /// route, without replay. `Ok((None, stats))` when unreachable.
    pub(crate) fn search_route(
        &self,
        start: NodeId,
        goal: NodeId,
        opts: &SearchOptions,
        banned: &[LinkId],
    ) -> Result<(Option<Route>, SearchStats), PathError> {
        self.search_route_within(start, goal, opts, banned, opts.max_expansions)
    }

    /// [`NavMap::search_route`] expanding at most `budget` nodes.
    fn search_route_within(
        &self,
        start: NodeId,
        goal: NodeId,
        opts: &SearchOptions,
        banned: &[LinkId],
        budget: usize,
    ) -> Result<(Option<Route>, SearchStats), PathError> {
        let mut forbid = [false; 6];
        for k in &opts.forbid {
            forbid[*k as usize] = true;
        }
        let ctx = Ctx {
            map: self,
            opts,
            budget,
            banned,
            forbid,
            levels: opts.max_jumps.map_or(1, |j| j as usize + 1),
            goal: self.landmark_goal(goal.0),
            goal_col: self.cell(goal).col,
            ticks_per_col: self.ticks_per_col(),
        };
        with_labels(
            self.labels(),
            self.node_count(),
            ctx.levels,
            |labels| match opts.beam_width {
                None => exact(&ctx, labels, start, goal),
                Some(k) => beam(&ctx, labels, start, goal, k.max(1)),
            },
        )
    }

    /// The cost in ticks of the cheapest route between two cells, by the
    /// search in `options` (no replay), with the start and goal snapped as
    /// [`NavMap::find_path`] snaps them. For tests and tools.
    ///
    /// # Errors
    /// [`PathError::InvalidEndpoint`] or [`PathError::BudgetExhausted`].
    pub fn route_ticks(
        &self,
        start: Cell,
        goal: Cell,
        options: &SearchOptions,
    ) -> Result<Option<u32>, PathError> {
        let s = self.endpoint(Endpoint::Start, start, options.snap_radius)?;
        let g = self.endpoint(Endpoint::Goal, goal, options.snap_radius)?;
        Ok(self.search_route(s, g, options, &[])?.0.map(|r| r.ticks))
    }
}

/// The hot half of a label, packed in one `u64`: the search's generation
/// in the high half, the best arrival time at the state in the low half.
/// Valid only when the generation is the current one, so starting a search
/// clears nothing; since generations only grow, one wrapping subtraction of
/// the current generation's tag gives the arrival time of a current label
/// and a value above `u32::MAX` for a stale one. Every relaxed link reads
/// one, so it is kept to 8 bytes.
type Best = u64;

/// The cold half of a label: how its best arrival was reached (written
/// with its [`Best`], read when the route is traced back), and the state's
/// heuristic. A node is often labelled again on a cheaper arrival and its
/// bound does not change, so when jumps are not capped (one state per
/// node) a relabelled node's bound is read back from here instead of being
/// computed again, valid exactly when its [`Best`] is current.
#[derive(Clone, Copy)]
struct Via {
    parent: u32,
    link: u32,
    h: f64,
}

const NO_PARENT: u32 = u32::MAX;

/// Labels: one per (node, jumps used) when jumps are capped, else per node.
/// Kept by the map between searches ([`LabelPool`]) with a generation
/// stamp, so a query neither allocates nor clears O(nodes) memory.
struct Labels {
    levels: usize,
    generation: u32,
    /// `generation` in the high half: the stamp of current [`Best`]s.
    tag: u64,
    best: Vec<Best>,
    via: Vec<Via>,
    heap: BucketQueue,
}

impl Labels {
    const fn new() -> Self {
        Self {
            levels: 1,
            generation: 0,
            tag: 0,
            best: Vec::new(),
            via: Vec::new(),
            heap: BucketQueue::new(),
        }
    }
}

/// Search labels kept by a map between its queries (one set per query
/// running at once), so that a query neither allocates nor clears O(nodes)
/// memory. Owned by the [`NavMap`]: what a map's queries keep is freed with
/// the map, and counted in [`NavMap::memory_bytes`].
#[derive(Default)]
pub(crate) struct LabelPool(std::sync::Mutex<Vec<Labels>>);

impl LabelPool {
    /// Sets kept at most: one per thread querying the map at once, up to
    /// this many.
    const MAX_KEPT: usize = 8;

    /// Heap bytes held by the kept labels.
    pub fn bytes(&self) -> usize {
        let kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.iter()
            .map(|l| {
                l.best.capacity() * size_of::<Best>()
                    + l.via.capacity() * size_of::<Via>()
                    + l.heap.bytes()
            })
            .sum()
    }
}

impl Clone for LabelPool {
    /// A clone keeps no labels: they are scratch space.
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl std::fmt::Debug for LabelPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LabelPool")
    }
}

/// Runs `f` on a set of `pool`'s labels (a new one when all are in use),
/// reset for `nodes` nodes of `levels` states each, and keeps it after.
fn with_labels<R>(
    pool: &LabelPool,
    nodes: usize,
    levels: usize,
    f: impl FnOnce(&mut Labels) -> R,
) -> R {
    let taken = pool.0.lock().unwrap_or_else(|e| e.into_inner()).pop();
    let mut labels = taken.unwrap_or_else(Labels::new);
    labels.reset(nodes, levels);
    let out = f(&mut labels);
    let mut kept = pool.0.lock().unwrap_or_else(|e| e.into_inner());
    if kept.len() < LabelPool::MAX_KEPT {
        kept.push(labels);
    }
    out
}

impl Labels {
    fn reset(&mut self, nodes: usize, levels: usize) {
        self.levels = levels;
        self.heap.clear();
        if self.generation == u32::MAX {
            self.generation = 0;
            self.best.iter_mut().for_each(|l| *l = 0);
        }
        self.generation += 1;
        self.tag = u64::from(self.generation) << 32;
        let states = nodes * levels;
        if self.best.len() < states {
            self.best.resize(states, 0);
            self.via.resize(
                states,
                Via {
                    parent: NO_PARENT,
                    link: 0,
                    h: 0.0,
                },
            );
        }
    }

    #[inline]
    fn best(&self, state: usize) -> u32 {
        u32::try_from(self.best[state].wrapping_sub(self.tag)).unwrap_or(u32::MAX)
    }

    /// True if the label of `state` is no later than `g` (one load, one
    /// compare: a stale label compares above every `g`).
    #[inline]
    fn no_later(&self, state: usize, g: u32) -> bool {
        self.best[state].wrapping_sub(self.tag) <= u64::from(g)
    }

    #[inline]
    fn set(&mut self, state: usize, best: u32, parent: u32, link: u32, h: f64) {
        self.best[state] = self.tag | u64::from(best);
        self.via[state] = Via { parent, link, h };
    }

    fn state(&self, node: NodeId, j: usize) -> usize {
        node.0 as usize * self.levels + j
    }

    /// True if some label at `node` with at most `j` jumps is no later than `g`.
    #[inline]
    fn dominated(&self, node: u32, j: usize, g: u32) -> bool {
        let base = node as usize * self.levels;
        if self.levels == 1 {
            return self.no_later(base, g);
        }
        (base..=base + j).any(|s| self.no_later(s, g))
    }

    /// Follows parent links back to the start. Parents only ever change to
    /// strictly earlier arrivals, so the chain cannot cycle; in beam mode a
    /// parent improved after its child was reached makes the chain cheaper
    /// than the child's label, so the cost is summed from the links.
    fn route(&self, mut state: usize, map: &NavMap) -> Route {
        let mut links = Vec::new();
        loop {
            let v = self.via[state];
            if self.best(state) == u32::MAX || v.parent == NO_PARENT {
                break;
            }
            links.push(LinkId(v.link));
            state = v.parent as usize;
        }
        links.reverse();
        let ticks = links.iter().map(|&l| map.ticks(l)).sum();
        Route { links, ticks }
    }
}

type Found = Result<(Option<Route>, SearchStats), PathError>;

fn exact(ctx: &Ctx<'_>, labels: &mut Labels, start: NodeId, goal: NodeId) -> Found {
    let mut stats = SearchStats::default();
    let s0 = labels.state(start, 0);
    let h0 = ctx.h(start.0);
    labels.set(s0, 0, NO_PARENT, 0, h0);
    let mut heap = std::mem::replace(&mut labels.heap, BucketQueue::new());
    heap.push(key(h0), 0, s0 as u32);
    let found = loop {
        let Some((_, g, state)) = heap.pop() else {
            break Ok((None, stats));
        };
        let state = state as usize;
        if g > labels.best(state) {
            stats.pruned += 1;
            continue;
        }
        let (node, _) = ctx.split(state);
        if node == goal {
            break Ok((Some(labels.route(state, ctx.map)), stats));
        }
        if let Err(e) = expand(ctx, labels, &mut stats, state, g, |f, g2, s2| {
            heap.push(key(f), g2, s2 as u32);
        }) {
            break Err(e);
        }
    };
    // Keep the heap's allocation for the next search.
    labels.heap = heap;
    found
}

/// Expands the label `state` (reached at `g`): counts the expansion against
/// the budget, relaxes every allowed link, and hands each label that is not
/// dominated to `push` as `(f, g, state)`.
fn expand(
    ctx: &Ctx<'_>,
    labels: &mut Labels,
    stats: &mut SearchStats,
    state: usize,
    g: u32,
    mut push: impl FnMut(f64, u32, usize),
) -> Result<(), PathError> {
    if stats.expanded >= ctx.budget {
        return Err(PathError::BudgetExhausted {
            limit: ctx.opts.max_expansions,
            stats: *stats,
        });
    }
    stats.expanded += 1;
    let (node, j) = ctx.split(state);
    let capped = ctx.opts.max_jumps.is_some();
    let filter = ctx.forbid.contains(&true) || !ctx.banned.is_empty();
    if !filter && !capped {
        // The common case, one state per node and every link allowed: the
        // loop below without its per-link tests, over the reduced graph. A
        // link it leaves out has a sibling to the same target that is
        // faster, or as fast and earlier: its label would be dropped as
        // dominated at once, or pushed, overwritten and dropped when popped,
        // so leaving it out changes no label, no pop order and so no route.
        let (hops, dominated) = ctx.map.hops_from(node.0);
        stats.pruned += dominated;
        for e in hops {
            let g2 = g + u32::from(e.ticks);
            let s2 = e.target as usize;
            let seen = labels.best[s2];
            if seen.wrapping_sub(labels.tag) <= u64::from(g2) {
                stats.pruned += 1;
                continue;
            }
            // A current label (stamped this search) holds the node's bound.
            let h = if seen >= labels.tag {
                labels.via[s2].h
            } else {
                ctx.h_at(e.target, i32::from(e.col))
            };
            labels.set(s2, g2, state as u32, e.link, h);
            push(f64::from(g2) + h, g2, s2);
        }
        return Ok(());
    }
    let first = ctx.map.link_range(node).start;
    for (k, e) in ctx.map.edges_from(node.0).iter().enumerate() {
        let id = first + k as u32;
        if filter && (ctx.forbid[e.kind as usize] || ctx.banned.binary_search(&LinkId(id)).is_ok())
        {
            continue;
        }
        let j2 = if capped { j + usize::from(e.jumps) } else { 0 };
        if j2 >= ctx.levels {
            continue;
        }
        let g2 = g + u32::from(e.ticks);
        if labels.dominated(e.target, j2, g2) {
            stats.pruned += 1;
            continue;
        }
        let s2 = e.target as usize * ctx.levels + j2;
        // With one state per node, a current label holds the node's bound.
        let h = if ctx.levels == 1 && labels.best[s2] >= labels.tag {
            labels.via[s2].h
        } else {
            ctx.h(e.target)
        };
        labels.set(s2, g2, state as u32, id, h);
        push(f64::from(g2) + h, g2, s2);
    }
    Ok(())
}

fn beam(ctx: &Ctx<'_>, labels: &mut Labels, start: NodeId, goal: NodeId, width: usize) -> Found {
    let mut stats = SearchStats::default();
    let s0 = labels.state(start, 0);
    labels.set(s0, 0, NO_PARENT, 0, ctx.h(start.0));
    let mut frontier: Vec<(u32, usize)> = vec![(0, s0)];
    let mut found: Option<usize> = None;
    while !frontier.is_empty() {
        let mut next: Vec<(f64, u32, usize)> = Vec::new();
        for (g, state) in frontier.drain(..) {
            if g > labels.best(state) {
                stats.pruned += 1;
                continue;
            }
            let (node, _) = ctx.split(state);
            if node == goal {
                if found.is_none_or(|f| g < labels.best(f)) {
                    found = Some(state);
                }
                continue;
            }
            expand(ctx, labels, &mut stats, state, g, |f, g2, s2| {
                next.push((f, g2, s2));
            })?;
        }
        next.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        // A label may appear twice (improved within the layer); keep the latest.
        next.retain(|&(_, g, s)| labels.best(s) == g);
        if next.len() > width {
            stats.pruned += next.len() - width;
            next.truncate(width);
        }
        if let Some(f) = found
            && next
                .first()
                .is_none_or(|n| n.0 >= f64::from(labels.best(f)))
        {
            break;
        }
        frontier = next.into_iter().map(|(_, g, s)| (g, s)).collect();
    }
    Ok((found.map(|s| labels.route(s, ctx.map)), stats))
}

#[cfg(test)]
mod tests {
    use super::{BucketQueue, SearchOptions};
    use crate::graph::{LinkId, NavMap, NodeId};
    use crate::{Level, Physics};

    /// The search over the reduced graph ([`NavMap::fastest_links_from`])
    /// against the same search over every link: a ban on a link id no map
    /// has sends it down the general loop, which relaxes all of them. Same
    /// routes to the link, same expansions, exact and beam.
    #[test]
    fn reduced_graph_changes_no_route() {
        let level = Level::generate(48, 48, 7).unwrap();
        let map = NavMap::build(&level, &Physics::default()).unwrap();
        let n = map.node_count() as u32;
        let mut dropped = 0;
        for v in 0..n {
            let all: Vec<LinkId> = map.link_range(NodeId(v)).map(LinkId).collect();
            let kept: Vec<LinkId> = map.fastest_links_from(NodeId(v)).collect();
            dropped += all.len() - kept.len();
            // Brute force: per target, the first link with the fewest ticks.
            let want: Vec<LinkId> = all
                .iter()
                .copied()
                .filter(|&l| {
                    all.iter().all(|&o| {
                        map.target(o) != map.target(l)
                            || map.ticks(o) > map.ticks(l)
                            || (map.ticks(o) == map.ticks(l) && o >= l)
                    })
                })
                .collect();
            assert_eq!(kept, want, "node {v}");
        }
        assert!(dropped > 0, "the level has parallel links to reduce");
        let never = [LinkId(u32::MAX)];
        let mut compared = 0;
        for i in 0..150u32 {
            let (s, g) = (NodeId(i * 7919 % n), NodeId(i * 104_729 % n));
            for opts in [SearchOptions::default(), SearchOptions::beam(4)] {
                let (fast, a) = map.search_route(s, g, &opts, &[]).unwrap();
                let (full, b) = map.search_route(s, g, &opts, &never).unwrap();
                assert_eq!(a.expanded, b.expanded, "{s:?} -> {g:?}");
                let key = |r: Option<super::Route>| r.map(|r| (r.links, r.ticks));
                let (fast, full) = (key(fast), key(full));
                compared += usize::from(fast.is_some());
                assert_eq!(fast, full, "{s:?} -> {g:?}");
            }
        }
        assert!(compared > 100, "only {compared} routes found");
    }

    #[test]
    fn bucket_queue_pops_exactly_as_the_radix_heap_did() {
        let mut x = 99u64;
        let mut rand = move || {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            x >> 33
        };
        let mut overflowed = 0;
        for trial in 0..40u32 {
            let (mut queue, mut heap) = (BucketQueue::new(), RadixHeap::new());
            queue.clear();
            let mut last = 0;
            let (mut pops, mut pushed) = (0, 0u32);
            for round in 0..3000u32 {
                for _ in 0..rand() % 4 {
                    // Mostly near the last key, with ties, some far past the
                    // ring, and now and then below it.
                    let r = rand();
                    let k = match r % 16 {
                        0 => last + BucketQueue::RING + r % 3000,
                        1 => last.saturating_sub(r % 3),
                        _ => last + r % (u64::from(trial % 5) * 8 + 2),
                    };
                    overflowed += usize::from(k >= last + BucketQueue::RING);
                    // A unique payload, so that any difference in order shows.
                    pushed += 1;
                    queue.push(k, pushed, round);
                    heap.push(k, pushed, round);
                }
                if rand() % 3 > 0 {
                    let got = queue.pop();
                    assert_eq!(got, heap.pop(), "trial {trial}, round {round}");
                    if let Some((k, ..)) = got {
                        last = k;
                        pops += 1;
                    }
                }
            }
            while let Some(e) = heap.pop() {
                assert_eq!(queue.pop(), Some(e));
                pops += 1;
            }
            assert_eq!(queue.pop(), None);
            assert!(pops > 1000);
        }
        assert!(overflowed > 100);
    }

    /// The queue the exact search used before [`BucketQueue`], the reference
    /// for its pop order. A monotone priority queue of `(key, g, state)`: every key pushed is at
    /// least the last key popped (A* with a consistent heuristic). Keys live in
    /// buckets by the highest bit in which they differ from the last popped
    /// key, so push is O(1) and each entry moves down at most 64 times.
    pub(super) struct RadixHeap {
        last: u64,
        len: usize,
        buckets: [Vec<(u64, u32, u32)>; 65],
    }

    impl RadixHeap {
        const fn new() -> Self {
            Self {
                last: 0,
                len: 0,
                buckets: [const { Vec::new() }; 65],
            }
        }

        fn clear(&mut self) {
            self.last = 0;
            self.len = 0;
            self.buckets.iter_mut().for_each(Vec::clear);
        }

        fn bucket(&self, key: u64) -> usize {
            (64 - (key ^ self.last).leading_zeros()) as usize
        }

        #[inline]
        fn push(&mut self, key: u64, g: u32, state: u32) {
            // A key below the last popped one would mean an inconsistent
            // heuristic; it is served next rather than lost.
            let key = key.max(self.last);
            let b = self.bucket(key);
            self.buckets[b].push((key, g, state));
            self.len += 1;
        }

        #[inline]
        fn pop(&mut self) -> Option<(u64, u32, u32)> {
            if self.len == 0 {
                return None;
            }
            if self.buckets[0].is_empty() {
                let i = self.buckets.iter().position(|b| !b.is_empty())?;
                let moved = std::mem::take(&mut self.buckets[i]);
                self.last = moved.iter().map(|e| e.0).min().unwrap_or(self.last);
                for &e in &moved {
                    let b = self.bucket(e.0);
                    self.buckets[b].push(e);
                }
                // Hand the emptied allocation back to its bucket.
                let mut moved = moved;
                moved.clear();
                if self.buckets[i].is_empty() {
                    self.buckets[i] = moved;
                }
            }
            self.len -= 1;
            self.buckets[0].pop()
        }
    }

    #[test]
    fn radix_heap_pops_keys_in_order_while_pushes_stay_monotone() {
        let mut heap = RadixHeap::new();
        let mut reference: Vec<u64> = Vec::new();
        let mut x = 12_345u64;
        let mut last = 0;
        let mut popped = Vec::new();
        for round in 0..2000u32 {
            // Push a few keys at or above the last popped one.
            for _ in 0..(round % 4) {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let k = last + (x >> 54);
                heap.push(k, 0, round);
                reference.push(k);
            }
            if let Some((k, _, _)) = heap.pop() {
                assert!(k >= last);
                last = k;
                popped.push(k);
            }
        }
        while let Some((k, _, _)) = heap.pop() {
            popped.push(k);
        }
        reference.sort_unstable();
        let mut sorted = popped.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, reference);
        assert!(popped.windows(2).all(|w| w[0] <= w[1]));
        heap.clear();
        assert!(heap.pop().is_none());
    }
}
