//! The timed search: best-first on the tick a place is reached, over the
//! map's cells and the places on platforms, with labels that carry the
//! body's real state and tick.
//!
//! Reaching a place sooner is never worse: a body at rest can wait there
//! for any later tick (on a platform too: it rides), so each place is
//! expanded once, from its first arrival: each cell, and each tile of a
//! platform (a jump off it may need the far end, which the body reaches
//! by a hop along it). A link of the map is queued at
//! its ticks and performed when it is popped (its ticks do not change; a
//! platform in its way makes it miss, and it is dropped). Boarding and
//! leaving platforms are performed when their place is expanded, after
//! each wait of the stride.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

use super::departures::{Origin, fill, program_ends, schedule};
use super::link::{Ended, forecast_link, perform_link};
use super::memo::Memo;
use super::menu::{Outcome, Program, menu};
use super::world::World;
use super::{Place, TimedKind, TimedOptions, TimedPath, TimedStep};
use crate::graph::{LinkId, NavMap};
use crate::level::{Cell, Platforms};
use crate::links::{FastMap, FastSet};
use crate::physics::{Body, Input};
use crate::search::{Endpoint, PathError, SearchStats, snap};

/// How far the search looks for a standable cell near a given end.
pub(super) const SNAP_RADIUS: u32 = 3;

/// Plans a path from standing on `start` on tick `start_tick` to
/// standing on `goal`, over `map`'s links and `platforms` (checked for
/// the map's physics, see [`Platforms::new`]), and performs it: the
/// returned tape brings the body from `start`, on `start_tick`, alive to
/// rest on the goal, with the platforms where they are on each tick.
///
/// # Errors
/// [`PathError::InvalidEndpoint`] when an end is not standable and no
/// standable cell is near; [`PathError::Unreachable`] when no path was
/// found; [`PathError::BudgetExhausted`] when the search expanded
/// [`TimedOptions::max_expansions`] places first;
/// [`PathError::Unsupported`] on a level that wraps with platforms.
pub fn find_path_timed(
    map: &NavMap,
    platforms: &Platforms,
    start: Cell,
    start_tick: u64,
    goal: Cell,
    options: &TimedOptions,
) -> Result<TimedPath, PathError> {
    let start = snap(map, start, SNAP_RADIUS).ok_or(PathError::InvalidEndpoint {
        which: Endpoint::Start,
        cell: start,
        radius: SNAP_RADIUS,
    })?;
    let body = Body::start(map.level(), start, map.physics());
    find_path_timed_from(map, platforms, &body, start_tick, goal, options)
}

/// [`find_path_timed`] from a body's real state on tick `tick`: at rest
/// on a cell of the map, or riding a platform (then from the tile of its
/// width it is over). A follower plans from where a knock left its body.
///
/// # Errors
/// As [`find_path_timed`]; [`PathError::InvalidEndpoint`] for the start
/// when the body stands on no cell of the map and rides no platform.
pub fn find_path_timed_from(
    map: &NavMap,
    platforms: &Platforms,
    body: &Body,
    tick: u64,
    goal: Cell,
    options: &TimedOptions,
) -> Result<TimedPath, PathError> {
    plan(map, platforms, None, body, tick, goal, options)
}

/// [`find_path_timed_from`], with `memo`'s forecasts when given: a path
/// planned on them is kept only when performing it from the real state
/// passes every step's place; otherwise (or when no path was found on
/// them) the search runs again on performances alone.
pub(super) fn plan(
    map: &NavMap,
    platforms: &Platforms,
    memo: Option<&Memo>,
    body: &Body,
    tick: u64,
    goal: Cell,
    options: &TimedOptions,
) -> Result<TimedPath, PathError> {
    if map.level().wrap().any() && !platforms.is_empty() {
        return Err(PathError::Unsupported(
            "moving platforms on a level that wraps".into(),
        ));
    }
    let goal = snap(map, goal, SNAP_RADIUS).ok_or(PathError::InvalidEndpoint {
        which: Endpoint::Goal,
        cell: goal,
        radius: SNAP_RADIUS,
    })?;
    let world = World::new(map.level(), map.physics(), platforms);
    let start = start_place(map, &world, body, tick)?;
    let mut replans = 0;
    if let Some(memo) = memo {
        match search(map, world, Some(memo), start, body, tick, goal, options) {
            Ok(path) if performs(&world, body, &path) => return Ok(path),
            _ => replans = 1,
        }
    }
    let mut path = search(map, world, None, start, body, tick, goal, options)?;
    path.stats.replans += replans;
    // The proof: the whole tape performed from the start.
    let mut end = *body;
    world.perform(&mut end, tick, &path.inputs);
    if end.dead || !end.stands_on(goal) {
        return Err(PathError::Unreachable {
            start: body.standing_cell().unwrap_or(goal),
            goal,
            stats: path.stats,
        });
    }
    Ok(path)
}

/// The search from `body` at rest on `start` on tick `tick` to `goal`.
#[allow(clippy::too_many_arguments)]
fn search(
    map: &NavMap,
    world: World<'_>,
    memo: Option<&Memo>,
    start: Place,
    body: &Body,
    tick: u64,
    goal: Cell,
    options: &TimedOptions,
) -> Result<TimedPath, PathError> {
    let mut search = Search::new(map, world, memo, goal, options);
    search.push(Label {
        place: start,
        body: *body,
        tick,
        parent: None,
        kind: None,
        tape: Tape::Own(Vec::new()),
    });
    let found = search.run()?;
    Ok(search.path(found, start, tick, goal))
}

/// Whether `path`, performed from `body` on its start tick, ends every
/// step alive at rest on the step's place: on its cell, or riding its
/// platform.
fn performs(world: &World<'_>, body: &Body, path: &TimedPath) -> bool {
    let (mut body, mut tick, mut at) = (*body, path.start_tick, 0);
    path.steps.iter().all(|step| {
        let inputs = &path.inputs[at..at + step.ticks as usize];
        at += inputs.len();
        tick = world.perform(&mut body, tick, inputs);
        !body.dead
            && match step.to {
                Place::Cell(c) => body.stands_on(c) && body.vx == 0.0,
                Place::Platform { platform, .. } => {
                    world.riding(&body, tick) == Some(platform as usize)
                }
            }
    })
}

/// Where a body starts a search: the platform it rides, or its cell.
pub(super) fn start_place(
    map: &NavMap,
    world: &World<'_>,
    body: &Body,
    tick: u64,
) -> Result<Place, PathError> {
    if let Some(k) = world.riding(body, tick) {
        let m = &world.platforms.all()[k];
        let offset = (body.x - m.at(tick)[0]).floor().max(0.0) as u32;
        return Ok(Place::Platform {
            platform: k as u32,
            slot: offset.min(m.platform.width - 1),
        });
    }
    match body.standing_cell() {
        Some(c) if !body.dead && map.node(c).is_some() => Ok(Place::Cell(c)),
        other => Err(PathError::InvalidEndpoint {
            which: Endpoint::Start,
            cell: other.unwrap_or(Cell::new(0, 0)),
            radius: 0,
        }),
    }
}

/// A place reached: the body's state there at rest, the tick, and the
/// step that got there.
struct Label {
    place: Place,
    body: Body,
    tick: u64,
    parent: Option<usize>,
    kind: Option<TimedKind>,
    tape: Tape,
}

/// The inputs of a label's step, made into a vector only for the path
/// found.
enum Tape {
    /// These inputs.
    Own(Vec<Input>),
    /// A map link's, where it ended.
    Link(Arc<Ended>),
    /// A wait of so many idle ticks, then a program's.
    Waited(u64, Arc<Outcome>),
}

impl Tape {
    fn len(&self) -> usize {
        match self {
            Tape::Own(inputs) => inputs.len(),
            Tape::Link(ended) => ended.as_ref().as_ref().map_or(0, |e| e.1.len()),
            Tape::Waited(waited, o) => *waited as usize + o.len(),
        }
    }

    fn append_to(&self, out: &mut Vec<Input>) {
        match self {
            Tape::Own(inputs) => out.extend_from_slice(inputs),
            Tape::Link(ended) => {
                if let Some((_, inputs)) = ended.as_ref() {
                    out.extend_from_slice(inputs);
                }
            }
            Tape::Waited(waited, o) => {
                out.extend(std::iter::repeat_n(Input::IDLE, *waited as usize));
                out.extend(o.inputs());
            }
        }
    }
}

/// What the queue holds: a label performed already, or a link of the map
/// to perform from a label when it is popped.
enum Item {
    Reached(Label),
    Link { parent: usize, link: LinkId },
}

struct Search<'a> {
    map: &'a NavMap,
    world: World<'a>,
    /// Where forecasts are taken from and kept (a planner's), or `None`.
    memo: Option<&'a Memo>,
    goal: Cell,
    options: &'a TimedOptions,
    programs: Vec<Program>,
    /// Ticks a column takes at least, platforms' carry included.
    ticks_per_col: f64,
    labels: Vec<Label>,
    items: Vec<Option<Item>>,
    queue: BinaryHeap<Reverse<(u64, usize)>>,
    closed: FastSet<Place>,
    stats: SearchStats,
}

impl<'a> Search<'a> {
    fn new(
        map: &'a NavMap,
        world: World<'a>,
        memo: Option<&'a Memo>,
        goal: Cell,
        options: &'a TimedOptions,
    ) -> Self {
        let p = world.physics;
        let carry = world
            .platforms
            .all()
            .iter()
            .map(|m| m.platform.speed)
            .fold(0.0, f64::max);
        // A carry and the speed a leaving body keeps, on top of its own.
        let fastest = (p.max_speed_x() + 2.0 * carry) * p.dt;
        Self {
            map,
            world,
            memo,
            goal,
            options,
            programs: menu(world.apex_ticks()),
            ticks_per_col: if fastest > 0.0 { 1.0 / fastest } else { 0.0 },
            labels: Vec::new(),
            items: Vec::new(),
            queue: BinaryHeap::new(),
            closed: FastSet::default(),
            stats: SearchStats::default(),
        }
    }

    /// The queue's key of arriving at `cell`-ish `place` on `tick`: the
    /// tick plus a lower bound on the ticks to the goal, in 1/16 ticks.
    fn key(&self, place: Place, tick: u64) -> u64 {
        let col = match place {
            Place::Cell(c) => f64::from(c.col),
            Place::Platform { .. } => return tick.saturating_mul(16),
        };
        let cols = ((f64::from(self.goal.col) - col).abs() - 1.0).max(0.0);
        ((tick as f64 + cols * self.ticks_per_col) * 16.0) as u64
    }

    fn push(&mut self, label: Label) {
        if self.closed.contains(&label.place) {
            return;
        }
        let key = self.key(label.place, label.tick);
        self.enqueue(key, Item::Reached(label));
    }

    fn enqueue(&mut self, key: u64, item: Item) {
        self.queue.push(Reverse((key, self.items.len())));
        self.items.push(Some(item));
    }

    /// Runs the search to the goal's label.
    fn run(&mut self) -> Result<usize, PathError> {
        while let Some(Reverse((_, i))) = self.queue.pop() {
            let label = match self.items[i].take() {
                Some(Item::Reached(label)) => label,
                Some(Item::Link { parent, link }) => match self.perform_link(parent, link) {
                    Some(label) => label,
                    None => continue,
                },
                None => continue,
            };
            if !self.closed.insert(label.place) {
                continue;
            }
            let at = self.labels.len();
            let done = label.place == Place::Cell(self.goal);
            self.labels.push(label);
            if done {
                return Ok(at);
            }
            self.stats.expanded += 1;
            if self.stats.expanded > self.options.max_expansions {
                return Err(PathError::BudgetExhausted {
                    limit: self.options.max_expansions,
                    stats: self.stats,
                });
            }
            self.expand(at);
        }
        let start = match self.labels.first().map(|l| (l.place, l.body)) {
            Some((Place::Cell(c), _)) => c,
            Some((_, body)) => Cell::new(body.x.floor() as i32, body.y.ceil() as i32 - 1),
            None => self.goal,
        };
        Err(PathError::Unreachable {
            start,
            goal: self.goal,
            stats: self.stats,
        })
    }

    /// Queues label `at`'s map links and performs its platform programs.
    fn expand(&mut self, at: usize) {
        let (place, tick) = (self.labels[at].place, self.labels[at].tick);
        let on = match place {
            Place::Cell(cell) => {
                let node = self.map.node(cell).expect("labels stand on nodes");
                for link in self.map.fastest_links_from(node).collect::<Vec<_>>() {
                    let to = Place::Cell(self.map.cell(self.map.target(link)));
                    if !self.closed.contains(&to) {
                        let arrive = tick + u64::from(self.map.ticks(link));
                        let key = self.key(to, arrive);
                        self.enqueue(key, Item::Link { parent: at, link });
                    }
                }
                None
            }
            Place::Platform { platform, .. } => Some(platform as usize),
        };
        self.try_programs(at, on);
    }

    /// Performs link `link` from label `parent`'s state (or takes where
    /// it went from the memo): the label it reaches, when it ends at rest
    /// within the settle tolerance of its cell's middle, as the link
    /// promises.
    fn perform_link(&mut self, parent: usize, link: LinkId) -> Option<Label> {
        let map = self.map;
        let to = map.cell(map.target(link));
        if self.closed.contains(&Place::Cell(to)) {
            return None;
        }
        let from = &self.labels[parent];
        let ended = match self.memo {
            None => Arc::new(perform_link(map, &self.world, link, from.body, from.tick)),
            Some(memo) => forecast_link(map, &self.world, memo, link, from.body, from.tick),
        };
        let Some((body, inputs)) = ended.as_ref() else {
            self.stats.pruned += 1;
            return None;
        };
        let (body, ticks) = (*body, inputs.len() as u64);
        Some(Label {
            place: Place::Cell(to),
            body,
            tick: from.tick + ticks,
            parent: Some(parent),
            kind: Some(TimedKind::Link(map.link(link).kind)),
            tape: Tape::Link(ended),
        })
    }

    /// The platform programs from label `at` (on platform `on`, or on a
    /// cell), after every wait of the stride up to the period of the
    /// platforms in reach.
    fn try_programs(&mut self, at: usize, on: Option<usize>) {
        let label = &self.labels[at];
        let origin = Origin {
            place: label.place,
            body: label.body,
            tick: label.tick,
            on,
        };
        let Some((_, horizon, stride)) = schedule(&self.world, &origin, self.options) else {
            return;
        };
        // Every outcome that may come first: from the memo's tables where
        // it has them, performed after each wait for the other programs.
        let mut tables = Vec::new();
        let mut rest: Vec<usize> = (0..self.programs.len()).collect();
        if let Some(memo) = self.memo {
            let mut tabled = |rest: &mut Vec<usize>| {
                let n = self.programs.len();
                let mut each =
                    memo.departures
                        .earliest((origin.place, on), n, origin.tick, stride, horizon);
                rest.retain(|&i| match each[i].take() {
                    Some(arrivals) => {
                        tables.push((i, arrivals));
                        false
                    }
                    None => true,
                });
            };
            tabled(&mut rest);
            if !rest.is_empty() {
                fill(
                    &self.world,
                    self.map,
                    &self.programs,
                    self.options,
                    &origin,
                    memo,
                );
                tabled(&mut rest);
            }
        }
        let departed = match rest.is_empty() {
            true => Vec::new(),
            false => program_ends(
                &self.world,
                self.map,
                &self.programs,
                &rest,
                self.options,
                &origin,
                self.memo,
            ),
        };
        let mut found: Vec<(u64, usize, &Arc<Outcome>)> = Vec::new();
        for (i, arrivals) in &tables {
            found.extend(arrivals.all().iter().map(|(wait, o)| (*wait, *i, o)));
        }
        for d in &departed {
            found.extend(d.outcomes.iter().map(|(i, o)| (d.waited, *i, o)));
        }
        // Only the first arrival at each place can be expanded: queue
        // that one, in the order of the waits and then of the menu.
        found.sort_by_key(|&(wait, i, _)| (wait, i));
        let here = origin.place;
        let mut first: FastMap<Place, usize> = FastMap::default();
        for (n, (wait, _, o)) in found.iter().enumerate() {
            let key = o.place;
            if key == here || self.closed.contains(&key) {
                continue;
            }
            let best = first.entry(key).or_insert(n);
            if wait + o.tick < found[*best].0 + found[*best].2.tick {
                *best = n;
            }
        }
        let mut chosen: Vec<usize> = first.into_values().collect();
        chosen.sort_unstable();
        let labels: Vec<Label> = chosen
            .into_iter()
            .map(|n| outcome_label(at, found[n].0, origin.tick + found[n].0, found[n].2))
            .collect();
        for label in labels {
            self.push(label);
        }
    }

    /// The path that ends at label `end`.
    fn path(&self, end: usize, start: Place, start_tick: u64, goal: Cell) -> TimedPath {
        let mut chain = vec![end];
        while let Some(parent) = self.labels[*chain.last().expect("not empty")].parent {
            chain.push(parent);
        }
        chain.reverse();
        let mut steps = Vec::new();
        let mut inputs = Vec::new();
        for pair in chain.windows(2) {
            let (from, to) = (&self.labels[pair[0]], &self.labels[pair[1]]);
            steps.push(TimedStep {
                kind: to.kind.expect("every label but the first has a step"),
                from: from.place,
                to: to.place,
                tick: from.tick,
                ticks: to.tape.len() as u32,
            });
            to.tape.append_to(&mut inputs);
        }
        TimedPath {
            start,
            start_tick,
            goal,
            steps,
            inputs,
            stats: self.stats,
        }
    }
}

/// The label of outcome `o` of the departure from label `at` after
/// `waited` ticks, on tick `tick`.
fn outcome_label(at: usize, waited: u64, tick: u64, o: &Arc<Outcome>) -> Label {
    let kind = match o.place {
        Place::Platform { .. } => TimedKind::Board,
        Place::Cell(_) => TimedKind::Leave,
    };
    Label {
        place: o.place,
        body: o.body,
        tick: tick + o.tick,
        parent: Some(at),
        kind: Some(kind),
        tape: Tape::Waited(waited, o.clone()),
    }
}
