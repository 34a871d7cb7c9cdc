//! The level report of `platnav check`: reachability, regions, traps, and
//! for each goal either its path or what is missing to reach it.

use super::AnalysisError;
use super::tune::{Endpoints, Param};
use crate::graph::{LinkId, NavMap, NodeId};
use crate::level::{Cell, Wrap};
use crate::links::LinkKind;
use crate::search::{SearchOptions, find_path};

/// How [`report`](crate::analysis::report()) works.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ReportOptions {
    /// The search used for each goal.
    pub search: SearchOptions,
    /// Diagnose goals that cannot be reached (rebuilds the map at higher
    /// jumps and faster runs; the costly part of a report).
    pub diagnose: bool,
    /// Precision of the missing jump height (tiles).
    pub tolerance: f64,
    /// Precision of the missing run speed (tiles/s).
    pub speed_tolerance: f64,
    /// The highest jump the diagnosis tries (tiles); `None`: twice the
    /// current jump or 4 tiles more, whichever is higher, capped where the
    /// jump speed would break [`crate::Physics::validate`].
    pub max_jump_height: Option<f64>,
}

setters!(ReportOptions {
    with_search => search: SearchOptions,
    with_diagnose => diagnose: bool,
    with_tolerance => tolerance: f64,
    with_speed_tolerance => speed_tolerance: f64,
    with_max_jump_height => max_jump_height: Option<f64>,
});

impl Default for ReportOptions {
    fn default() -> Self {
        Self {
            search: SearchOptions::default(),
            diagnose: true,
            tolerance: 0.05,
            speed_tolerance: 0.1,
            max_jump_height: None,
        }
    }
}

/// A link that exists only with a higher jump: it starts on a cell the body
/// reaches now and ends on one it does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MissingLink {
    /// Its kind (usually a jump).
    pub kind: LinkKind,
    /// Where it starts (reachable now).
    pub from: Cell,
    /// Where it lands (unreachable now).
    pub to: Cell,
}

/// What is missing to reach a goal.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Diagnosis {
    /// The reachable standing cell nearest to the goal.
    pub nearest: Option<Cell>,
    /// The goal is reachable over the map's links, but no path to it
    /// replayed (a knife-edge chain): no extra jump is needed.
    pub graph_reachable: bool,
    /// The least full-hold jump height (tiles) that reaches the goal, time
    /// to apex kept, to within [`ReportOptions::tolerance`]; `None` when
    /// even [`Diagnosis::tried_up_to`] does not.
    pub needed_jump_height: Option<f64>,
    /// `needed_jump_height` minus the current jump height (tiles).
    pub missing_jump_height: Option<f64>,
    /// The highest jump tried (tiles).
    pub tried_up_to: f64,
    /// Alternatively, the least run speed (tiles/s) that reaches the goal
    /// with the current jump, to within [`ReportOptions::speed_tolerance`];
    /// `None` when even [`Diagnosis::run_speed_tried_up_to`] does not.
    pub needed_run_speed: Option<f64>,
    /// `needed_run_speed` minus the current run speed (tiles/s).
    pub missing_run_speed: Option<f64>,
    /// The fastest run tried (tiles/s).
    pub run_speed_tried_up_to: f64,
    /// The first link of the path at the needed height that the current
    /// physics cannot perform: the closest failed jump.
    pub missing_link: Option<MissingLink>,
    /// On a level that does not wrap: the first of `x`, `y` and `xy` with
    /// whose edges meeting the goal is reached, as in Kid Icarus (`None`
    /// when none does, or the level wraps already).
    pub reached_with_wrap: Option<Wrap>,
}

/// One goal of a [`Report`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GoalReport {
    /// The goal cell (snapped to standing ground).
    pub goal: Cell,
    /// A replay-proven path was found.
    pub found: bool,
    /// The path's cost in seconds, when found.
    pub cost: Option<f64>,
    /// The path's link count, when found.
    pub links: Option<usize>,
    /// What is missing, when not found (and diagnosis is on).
    pub diagnosis: Option<Diagnosis>,
}

/// A level's playability report under one physics profile.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Report {
    /// The start cell (snapped to standing ground).
    pub start: Cell,
    /// The current full-hold jump height (tiles).
    pub jump_height: f64,
    /// Number of standing cells.
    pub standing_cells: usize,
    /// Number of standing cells reachable from the start.
    pub reachable_cells: usize,
    /// `reachable_cells / standing_cells`.
    pub reachable_fraction: f64,
    /// Number of regions (strongly connected components of the links).
    pub regions: usize,
    /// Region sizes, largest first.
    pub region_sizes: Vec<usize>,
    /// Size of the start's region.
    pub start_region_size: usize,
    /// Reachable cells from which the start cannot be reached again.
    pub traps: Vec<Cell>,
    /// Standing cells not reachable from the start.
    pub unreachable: Vec<Cell>,
    /// Each goal, found or diagnosed.
    pub goals: Vec<GoalReport>,
    /// Some goal was found.
    pub completable: bool,
}

/// Reports on the level from `endpoints` (defaults: see
/// [`default_start`](crate::analysis::default_start), [`default_goals`](crate::analysis::default_goals)). The map should
/// be a full [`NavMap::build`] map, so that regions cover every cell.
///
/// ```
/// use platnav::analysis::{Endpoints, ReportOptions, report};
/// use platnav::{Level, NavMap, Physics};
///
/// // The goal is sealed in a room of its own.
/// let level: Level = [
///     "...........",
///     "..#######..",
///     "..#.....#..",
///     "..#.....#..",
///     "..#..G..#..",
///     "..#######..",
///     "...........",
///     ".S.........",
///     "###########",
/// ]
/// .join("\n")
/// .parse()?;
/// let map = NavMap::build(&level, &Physics::default())?;
/// let report = report(&map, &Endpoints::default(), &ReportOptions::default())?;
/// assert!(!report.completable);
/// assert!(report.reachable_fraction < 1.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`AnalysisError::NoStart`] when the start does not snap to standing
/// ground.
pub fn report(
    map: &NavMap,
    endpoints: &Endpoints,
    options: &ReportOptions,
) -> Result<Report, AnalysisError> {
    let (start, goals) = super::resolve(map, endpoints)?;
    let reach =
        super::reachable_from(map, start).ok_or(AnalysisError::NoStart { cell: Some(start) })?;
    let regions = super::regions(map);
    let mut region_sizes = regions.sizes().to_vec();
    region_sizes.sort_unstable_by(|a, b| b.cmp(a));
    let start_region_size = regions.sizes()[regions.of(reach.start())];
    let mut diagnoser = Diagnosers::new(map, start, options);
    let mut goal_reports = Vec::with_capacity(goals.len());
    for &goal in &goals {
        let found = find_path(map, start, goal, &options.search).ok();
        let diagnosis = match (&found, options.diagnose) {
            (None, true) => Some(diagnoser.diagnose(&reach, goal)),
            _ => None,
        };
        goal_reports.push(GoalReport {
            goal,
            found: found.is_some(),
            cost: found.as_ref().map(crate::Path::cost),
            links: found.as_ref().map(|p| p.steps().len()),
            diagnosis,
        });
    }
    Ok(Report {
        start,
        jump_height: map.physics().jump_height(),
        standing_cells: map.node_count(),
        reachable_cells: reach.len(),
        reachable_fraction: reach.fraction(),
        regions: regions.count(),
        region_sizes,
        start_region_size,
        traps: reach.traps(map),
        unreachable: reach.unreachable_cells(map),
        completable: goal_reports.iter().any(|g| g.found),
        goals: goal_reports,
    })
}

/// What is missing to reach `goal` from `start` (both standing cells of
/// `map`): where the reachable region comes nearest the goal, and the least
/// jump height and the least run speed that reach it, each found by
/// building the map at that value and searching it (not estimated).
///
/// # Errors
/// [`AnalysisError::NoStart`] when `start` is not a standing cell.
pub fn diagnose(
    map: &NavMap,
    start: Cell,
    goal: Cell,
    options: &ReportOptions,
) -> Result<Diagnosis, AnalysisError> {
    let reach =
        super::reachable_from(map, start).ok_or(AnalysisError::NoStart { cell: Some(start) })?;
    Ok(Diagnosers::new(map, start, options).diagnose(&reach, goal))
}

/// Bisection on one parameter (jump height or run speed) with a cache of
/// the maps built on the way, so that goals that open up together cost one
/// bisection.
struct Diagnoser<'a> {
    map: &'a NavMap,
    start: Cell,
    param: Param,
    tolerance: f64,
    current: f64,
    limit: f64,
    tried: Vec<(f64, NavMap)>,
}

impl<'a> Diagnoser<'a> {
    fn new(map: &'a NavMap, start: Cell, param: Param, options: &ReportOptions) -> Self {
        let p = map.physics();
        let current = param.get(p);
        let (limit, tolerance) = if param == Param::JumpHeight {
            let apex = if p.gravity > 0.0 && p.jump_speed > 0.0 {
                p.jump_speed / p.gravity
            } else {
                0.4
            };
            // jump_speed = 2H/T must stay under one tile per tick.
            let cap = 0.999 * apex / (2.0 * p.dt);
            let limit = options
                .max_jump_height
                .unwrap_or((2.0 * current).max(current + 4.0));
            (limit.min(cap), options.tolerance)
        } else {
            let cap = 0.999 / p.dt;
            (
                (2.0 * current).max(current + 4.0).min(cap),
                options.speed_tolerance,
            )
        };
        Self {
            map,
            start,
            param,
            tolerance: tolerance.max(1e-6),
            current,
            limit,
            tried: Vec::new(),
        }
    }

    /// The map at parameter value `v` (built from the start only), cached.
    fn map_at(&mut self, v: f64) -> Option<&NavMap> {
        let i = match self.tried.iter().position(|(t, _)| *t == v) {
            Some(i) => i,
            None => {
                let physics = self.param.apply(self.map.physics(), v);
                let m = super::build_from(self.map.level(), &physics, Some(self.start)).ok()?;
                self.tried.push((v, m));
                self.tried.len() - 1
            }
        };
        Some(&self.tried[i].1)
    }

    fn reaches(&mut self, v: f64, goal: Cell) -> bool {
        let start = self.start;
        self.map_at(v)
            .and_then(|m| Some((super::reachable_from(m, start)?, m.node(goal)?)))
            .is_some_and(|(r, g)| r.contains(g))
    }

    /// The least value reaching `goal`, by bisection from the current value
    /// (which does not reach it) to the limit.
    fn least(&mut self, goal: Cell) -> Option<f64> {
        if self.limit <= self.current {
            return None;
        }
        // Bracket from what earlier goals already tried.
        let (mut bad, mut good) = (self.current, None::<f64>);
        let tried: Vec<f64> = self.tried.iter().map(|(v, _)| *v).collect();
        for v in tried {
            if self.reaches(v, goal) {
                good = Some(good.map_or(v, |g: f64| g.min(v)));
            } else if v > bad {
                bad = v;
            }
        }
        let mut good = match good {
            Some(g) => g,
            None if self.reaches(self.limit, goal) => self.limit,
            None => return None,
        };
        while good - bad > self.tolerance {
            let mid = 0.5 * (bad + good);
            if self.reaches(mid, goal) {
                good = mid;
            } else {
                bad = mid;
            }
        }
        Some(good)
    }
}

/// Both diagnosers of a report.
struct Diagnosers<'a> {
    jump: Diagnoser<'a>,
    run: Diagnoser<'a>,
    /// The maps of the level with each wrap tried, built as first needed.
    wraps: Vec<(Wrap, Option<NavMap>)>,
}

impl<'a> Diagnosers<'a> {
    fn new(map: &'a NavMap, start: Cell, options: &ReportOptions) -> Self {
        Self {
            jump: Diagnoser::new(map, start, Param::JumpHeight, options),
            run: Diagnoser::new(map, start, Param::RunSpeed, options),
            wraps: Vec::new(),
        }
    }

    /// The first wrap that reaches `goal` on a level that does not wrap.
    fn wrap_reaching(&mut self, goal: Cell) -> Option<Wrap> {
        let (map, start) = (self.jump.map, self.jump.start);
        if map.level().wrap().any() {
            return None;
        }
        [Wrap::X, Wrap::Y, Wrap::XY].into_iter().find(|&wrap| {
            let i = match self.wraps.iter().position(|(w, _)| *w == wrap) {
                Some(i) => i,
                None => {
                    let level = map.level().clone().with_wrap(wrap);
                    let built = super::build_from(&level, map.physics(), Some(start)).ok();
                    self.wraps.push((wrap, built));
                    self.wraps.len() - 1
                }
            };
            self.wraps[i].1.as_ref().is_some_and(|m| {
                let reach = super::reachable_from(m, start);
                reach.zip(m.node(goal)).is_some_and(|(r, g)| r.contains(g))
            })
        })
    }

    fn diagnose(&mut self, reach: &super::Reach, goal: Cell) -> Diagnosis {
        let map = self.jump.map;
        let graph_reachable = map.node(goal).is_some_and(|g| reach.contains(g));
        let mut d = Diagnosis {
            nearest: reach.nearest(map, goal),
            graph_reachable,
            needed_jump_height: None,
            missing_jump_height: None,
            tried_up_to: self.jump.limit,
            missing_link: None,
            needed_run_speed: None,
            missing_run_speed: None,
            run_speed_tried_up_to: self.run.limit,
            reached_with_wrap: None,
        };
        if graph_reachable {
            return d;
        }
        d.reached_with_wrap = self.wrap_reaching(goal);
        if let Some(h) = self.jump.least(goal) {
            d.needed_jump_height = Some(h);
            d.missing_jump_height = Some(h - self.jump.current);
            let start = self.jump.start;
            if let Some(relaxed) = self.jump.map_at(h) {
                d.missing_link = first_missing_link(relaxed, map, reach, start, goal);
            }
        }
        if let Some(v) = self.run.least(goal) {
            d.needed_run_speed = Some(v);
            d.missing_run_speed = Some(v - self.run.current);
        }
        d
    }
}

/// On the cheapest route from `start` to `goal` in `relaxed` (fewest links
/// if the search fails), the first link that lands outside `reach` (the
/// reach of `base`).
fn first_missing_link(
    relaxed: &NavMap,
    base: &NavMap,
    reach: &super::Reach,
    start: Cell,
    goal: Cell,
) -> Option<MissingLink> {
    let links: Vec<LinkId> = match find_path(relaxed, start, goal, &SearchOptions::default()) {
        Ok(p) => p.steps().iter().map(|s| s.link).collect(),
        Err(_) => bfs_links(relaxed, relaxed.node(start)?, relaxed.node(goal)?)?,
    };
    links.into_iter().map(|id| relaxed.link(id)).find_map(|l| {
        let inside = base.node(l.to).is_some_and(|n| reach.contains(n));
        (!inside).then_some(MissingLink {
            kind: l.kind,
            from: l.from,
            to: l.to,
        })
    })
}

/// The fewest-links route from `s` to `g`.
fn bfs_links(map: &NavMap, s: NodeId, g: NodeId) -> Option<Vec<LinkId>> {
    let mut parent: Vec<Option<LinkId>> = vec![None; map.node_count()];
    let mut seen = vec![false; map.node_count()];
    seen[s.0 as usize] = true;
    let mut queue = std::collections::VecDeque::from([s]);
    while let Some(v) = queue.pop_front() {
        if v == g {
            break;
        }
        for id in map.link_ids_from(v) {
            let t = map.target(id);
            if !seen[t.0 as usize] {
                seen[t.0 as usize] = true;
                parent[t.0 as usize] = Some(id);
                queue.push_back(t);
            }
        }
    }
    if !seen[g.0 as usize] {
        return None;
    }
    let mut out = Vec::new();
    let mut v = g;
    while let Some(id) = parent[v.0 as usize] {
        out.push(id);
        v = map.node(map.link(id).from)?;
    }
    out.reverse();
    Some(out)
}
