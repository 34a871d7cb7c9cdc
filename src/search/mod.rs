//! The pruned best-first search over a [`NavMap`].
//!
//! Exact mode (`beam_width: None`) is A* on link ticks with an admissible
//! time heuristic (horizontal distance over the fastest horizontal speed)
//! and dominance pruning: a label reaching a node is dropped when another
//! label got there no later and with no more jumps. Beam mode
//! (`beam_width: Some(k)`) expands the frontier layer by layer and keeps
//! only the `k` best partial paths, like the classic Bosonauts navigator:
//! faster on big maps, never cheaper than exact.
//!
//! The parts: `options` (what a query asks for), `outcome` (what it
//! reports), `bound` (the heuristic a search is guided by), `queue` (the
//! exact search's bucket queue), `labels` (per-state labels the map keeps
//! between queries), `exact` and `beam` (the two searches), `path` (the
//! returned [`Path`] and its replay); this file holds the queries a
//! [`NavMap`] answers.

mod beam;
mod bound;
mod exact;
mod labels;
mod lazy;
mod options;
mod oracle;
mod outcome;
mod path;
mod queue;
pub mod timed;

pub use options::SearchOptions;
pub use oracle::{dijkstra, lower_bound_ticks, replay_memo_counts, sweep, trajectory};
pub use outcome::{Endpoint, PathError, SearchStats};
use path::Chain;
pub(crate) use path::realize;
pub use path::{Path, PathStep, replay};

use crate::graph::{LinkId, NavMap, NodeId};
use crate::level::Cell;
use crate::links::LinkKind;
use crate::physics::Input;

use beam::beam;
use bound::Ctx;
use exact::exact;
use labels::with_labels;

/// A graph-level result: links and total ticks.
pub(crate) struct Route {
    pub links: Vec<LinkId>,
    pub ticks: u32,
}

type Found = Result<(Option<Route>, SearchStats), PathError>;

/// Snaps `cell` to the nearest standable cell within `radius` (by
/// Euclidean distance, ties to the lower, then the left one); `None`
/// when there is none. A standable cell is returned as is.
#[must_use]
pub fn snap(map: &NavMap, cell: Cell, radius: u32) -> Option<Cell> {
    snap_by(map.level(), |c| map.node(c).is_some(), cell, radius)
}

/// [`snap`] on `level`, a cell being standable when `standable` says so.
pub(crate) fn snap_by(
    level: &crate::Level,
    standable: impl Fn(Cell) -> bool,
    cell: Cell,
    radius: u32,
) -> Option<Cell> {
    if standable(cell) {
        return Some(cell);
    }
    // Past the level's extent a ring holds no new cells: bound the work.
    let extent = level.width() + level.height();
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
                if standable(c) {
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

fn endpoint(map: &NavMap, which: Endpoint, cell: Cell, radius: u32) -> Result<NodeId, PathError> {
    snap(map, cell, radius)
        .and_then(|c| map.node(c))
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
/// use platnav::{Cell, Level, LinkKind, NavMap, Physics, SearchOptions, find_path};
///
/// let level: Level = "..........\n..........\n.S..##..G.\n##########".parse()?;
/// let map = NavMap::build(&level, &Physics::default())?;
/// let path = find_path(&map, Cell::new(1, 2), Cell::new(8, 2), &SearchOptions::default())?;
/// assert_eq!(path.goal(), Cell::new(8, 2));
/// // Over the block: a jump somewhere along the way.
/// assert!(path.steps().iter().any(|s| map.link(s.link).kind == LinkKind::JUMP));
/// // The tape was replayed before the path was returned; replay it again.
/// assert!(path.replay(map.level(), map.physics()).stands_on(Cell::new(8, 2)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`PathError::InvalidEndpoint`], [`PathError::Unreachable`],
/// [`PathError::ReplanLimit`] or [`PathError::BudgetExhausted`].
pub fn find_path(
    map: &NavMap,
    start: Cell,
    goal: Cell,
    options: &SearchOptions,
) -> Result<Path, PathError> {
    let s = endpoint(map, Endpoint::Start, start, options.snap_radius)?;
    let g = endpoint(map, Endpoint::Goal, goal, options.snap_radius)?;
    plan(&mut Full(map), s, g, options)
}

/// A map a path is planned on: the routes its search finds, and the links
/// they chain, performed to prove them.
pub(crate) trait Planner {
    /// The map holding the links.
    type Links: Chain;
    /// The links' map.
    fn links(&self) -> &Self::Links;
    /// A node's cell.
    fn cell(&self, node: NodeId) -> Cell;
    /// A link's target.
    fn target(&self, id: LinkId) -> NodeId;
    /// A link's kind.
    fn kind(&self, id: LinkId) -> LinkKind;
    /// The search's route for `ask`.
    fn route(&mut self, ask: &RouteAsk<'_>) -> Found;
    /// The route's tape, performed from standing on `start`, or the link
    /// that missed.
    fn realize(&self, start: Cell, links: &[LinkId]) -> Result<Vec<Input>, LinkId>;
}

/// What [`Planner::route`] is asked: a route from `start` to `goal` under
/// `opts`, avoiding the `banned` links (sorted), expanding at most
/// `budget` nodes.
pub(crate) struct RouteAsk<'a> {
    pub start: NodeId,
    pub goal: NodeId,
    pub opts: &'a SearchOptions,
    pub banned: &'a [LinkId],
    pub budget: usize,
}

/// A built map as a [`Planner`].
struct Full<'a>(&'a NavMap);

impl Planner for Full<'_> {
    type Links = NavMap;
    fn links(&self) -> &NavMap {
        self.0
    }
    fn cell(&self, node: NodeId) -> Cell {
        self.0.cell(node)
    }
    fn target(&self, id: LinkId) -> NodeId {
        self.0.target(id)
    }
    fn kind(&self, id: LinkId) -> LinkKind {
        self.0.kind(id)
    }
    fn route(&mut self, ask: &RouteAsk<'_>) -> Found {
        search_route_within(
            self.0, ask.start, ask.goal, ask.opts, ask.banned, ask.budget,
        )
    }
    fn realize(&self, start: Cell, links: &[LinkId]) -> Result<Vec<Input>, LinkId> {
        realize(self.0, start, links)
    }
}

/// Plans a path from node `s` to node `g`: a route, performed; a link that
/// misses is banned and the route planned again, within the options'
/// budgets.
pub(crate) fn plan(
    map: &mut impl Planner,
    s: NodeId,
    g: NodeId,
    options: &SearchOptions,
) -> Result<Path, PathError> {
    let mut banned: Vec<LinkId> = Vec::new();
    let mut total = SearchStats::default();
    loop {
        // The expansion budget is the whole call's, re-plans included.
        let budget = options.max_expansions.saturating_sub(total.expanded);
        let ask = RouteAsk {
            start: s,
            goal: g,
            opts: options,
            banned: &banned,
            budget,
        };
        let (route, stats) = match map.route(&ask) {
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
                start: map.cell(s),
                goal: map.cell(g),
                stats: total,
            });
        };
        match map.realize(map.cell(s), &route.links) {
            Ok(inputs) => return Ok(path_of(map, (s, g), &route, inputs, total)),
            Err(failed) => {
                if let Err(at) = banned.binary_search(&failed) {
                    banned.insert(at, failed);
                }
                total.replans += 1;
                if total.replans > options.max_replans as usize {
                    return Err(PathError::ReplanLimit {
                        start: map.cell(s),
                        goal: map.cell(g),
                        limit: options.max_replans,
                        stats: total,
                    });
                }
            }
        }
    }
}

/// The path of a performed `route` from `s` to `g`.
fn path_of(
    map: &impl Planner,
    (s, g): (NodeId, NodeId),
    route: &Route,
    inputs: Vec<Input>,
    stats: SearchStats,
) -> Path {
    // Each link starts where the previous one ended (the route is a chain
    // of parents), so no link's source needs looking up.
    let mut from = s;
    let steps = route
        .links
        .iter()
        .map(|&id| {
            let to = map.target(id);
            let step = PathStep {
                link: id,
                kind: map.kind(id),
                from: map.cell(from),
                to: map.cell(to),
                ticks: map.links().ticks(id),
            };
            from = to;
            step
        })
        .collect();
    let dt = map.links().physics().dt;
    Path::new(
        map.cell(s),
        map.cell(g),
        steps,
        route.ticks,
        dt,
        inputs,
        stats,
    )
}

/// The graph search alone: the cheapest route (exact mode) or the beam's
/// route, without replay. `Ok((None, stats))` when unreachable.
pub(crate) fn search_route(
    map: &NavMap,
    start: NodeId,
    goal: NodeId,
    opts: &SearchOptions,
    banned: &[LinkId],
) -> Result<(Option<Route>, SearchStats), PathError> {
    search_route_within(map, start, goal, opts, banned, opts.max_expansions)
}

/// [`search_route`] expanding at most `budget` nodes.
fn search_route_within(
    map: &NavMap,
    start: NodeId,
    goal: NodeId,
    opts: &SearchOptions,
    banned: &[LinkId],
    budget: usize,
) -> Result<(Option<Route>, SearchStats), PathError> {
    let mut forbid = [false; LinkKind::ALL.len()];
    for k in &opts.forbid {
        forbid[k.index()] = true;
    }
    let ctx = Ctx {
        map,
        opts,
        budget,
        banned,
        forbid,
        levels: opts.max_jumps.map_or(1, |j| j as usize + 1),
        goal: map.landmark_goal(goal.0),
        goal_col: map.cell(goal).col,
        ticks_per_col: map.ticks_per_col(),
        wrap_cols: wrap_cols(map),
    };
    with_labels(
        map.labels(),
        map.node_count(),
        ctx.levels,
        |labels| match opts.beam_width {
            None => exact(&ctx, labels, start, goal),
            Some(k) => beam(&ctx, labels, start, goal, k.max(1)),
        },
    )
}

/// The cost in ticks of the cheapest route between two cells, by the
/// search in `options` (no replay), with the start and goal snapped as
/// [`find_path`] snaps them. For tests and tools.
///
/// # Errors
/// [`PathError::InvalidEndpoint`] or [`PathError::BudgetExhausted`].
pub fn route_ticks(
    map: &NavMap,
    start: Cell,
    goal: Cell,
    options: &SearchOptions,
) -> Result<Option<u32>, PathError> {
    let s = endpoint(map, Endpoint::Start, start, options.snap_radius)?;
    let g = endpoint(map, Endpoint::Goal, goal, options.snap_radius)?;
    Ok(search_route(map, s, g, options, &[])?.0.map(|r| r.ticks))
}

/// The level's width when its left and right edges meet, else 0 (the
/// search's column bound goes the nearer way round).
pub(crate) fn wrap_cols(map: &NavMap) -> i32 {
    let level = map.level();
    if level.wrap().x {
        level.width() as i32
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::SearchOptions;
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
                let (fast, a) = super::search_route(&map, s, g, &opts, &[]).unwrap();
                let (full, b) = super::search_route(&map, s, g, &opts, &never).unwrap();
                assert_eq!(a.expanded, b.expanded, "{s:?} -> {g:?}");
                let key = |r: Option<super::Route>| r.map(|r| (r.links, r.ticks));
                let (fast, full) = (key(fast), key(full));
                compared += usize::from(fast.is_some());
                assert_eq!(fast, full, "{s:?} -> {g:?}");
            }
        }
        assert!(compared > 100, "only {compared} routes found");
    }
}
