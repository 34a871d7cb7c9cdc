//! The timed search: best-first on the tick a place is reached, over the
//! map's cells and the places on platforms, with labels that carry the
//! body's real state and tick.
//!
//! Reaching a place sooner is never worse: a body at rest can wait there
//! for any later tick (on a platform too: it rides), so each place is
//! expanded once, from its first arrival; each platform too, from the
//! first tile of it reached. A link of the map is queued at
//! its ticks and performed when it is popped (its ticks do not change; a
//! platform in its way makes it miss, and it is dropped). Boarding and
//! leaving platforms are performed when their place is expanded, after
//! each wait of the stride.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

use super::menu::{Outcome, Program, meets, menu, perform, track};
use super::world::World;
use super::{Place, TimedKind, TimedOptions, TimedPath, TimedStep};
use crate::graph::{LinkId, NavMap};
use crate::level::{Cell, Platforms};
use crate::links::{SETTLE_SLACK, settle_tolerance};
use crate::physics::{Body, Input};
use crate::search::path::{nudge_toward, slack_input};
use crate::search::{Endpoint, PathError, SearchStats, snap};

/// How far the search looks for a standable cell near a given end.
const SNAP_RADIUS: u32 = 3;

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
    let world = World {
        level: map.level(),
        physics: map.physics(),
        platforms,
    };
    let start = start_place(map, &world, body, tick)?;
    let mut search = Search::new(map, world, goal, options);
    search.push(Label {
        place: start,
        body: *body,
        tick,
        parent: None,
        kind: None,
        inputs: Vec::new(),
    });
    let found = search.run()?;
    let path = search.path(found, start, tick, goal);
    // The proof: the whole tape performed from the start.
    let mut end = *body;
    world.perform(&mut end, tick, &path.inputs);
    if end.dead || !end.stands_on(goal) {
        return Err(PathError::Unreachable {
            start: body.standing_cell().unwrap_or(goal),
            goal,
            stats: search.stats,
        });
    }
    Ok(path)
}

/// Where a body starts a search: the platform it rides, or its cell.
fn start_place(
    map: &NavMap,
    world: &World<'_>,
    body: &Body,
    tick: u64,
) -> Result<Place, PathError> {
    if let Some(k) = body.riding(world.platforms, tick, world.physics) {
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

/// Where a platform program ends, as a timed search tries it from a
/// place ([`platform_programs`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ProgramEnd {
    /// The ticks waited before the program.
    pub waited: u64,
    /// Where it ends at rest.
    pub place: Place,
    /// The tick it ends on.
    pub tick: u64,
    /// Its inputs, the wait's included.
    pub inputs: Vec<Input>,
}

/// The platform programs a timed search tries from `body` on tick `tick`
/// (at rest on a cell of the map, or riding a platform), and where each
/// ends (`PHYSICS.md`, "Link generation bounds", paths in time): what
/// the naive reference checks.
///
/// # Errors
/// [`PathError::InvalidEndpoint`] when the body stands on no cell of the
/// map and rides no platform.
pub fn platform_programs(
    map: &NavMap,
    platforms: &Platforms,
    body: &Body,
    tick: u64,
    options: &TimedOptions,
) -> Result<Vec<ProgramEnd>, PathError> {
    let world = World {
        level: map.level(),
        physics: map.physics(),
        platforms,
    };
    let place = start_place(map, &world, body, tick)?;
    let mut search = Search::new(map, world, Cell::new(0, 0), options);
    search.labels.push(Label {
        place,
        body: *body,
        tick,
        parent: None,
        kind: None,
        inputs: Vec::new(),
    });
    let on = match place {
        Place::Platform { platform, .. } => Some(platform as usize),
        Place::Cell(_) => None,
    };
    Ok(search
        .program_ends(0, on)
        .into_iter()
        .map(|(waited, o)| {
            let mut inputs = vec![Input::IDLE; waited as usize];
            inputs.extend(o.inputs);
            ProgramEnd {
                waited,
                place: o.place,
                tick: o.tick,
                inputs,
            }
        })
        .collect())
}

/// A place reached: the body's state there at rest, the tick, and the
/// step that got there.
struct Label {
    place: Place,
    body: Body,
    tick: u64,
    parent: Option<usize>,
    kind: Option<TimedKind>,
    inputs: Vec<Input>,
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
    goal: Cell,
    options: &'a TimedOptions,
    programs: Vec<Program>,
    /// Ticks a column takes at least, platforms' carry included.
    ticks_per_col: f64,
    labels: Vec<Label>,
    items: Vec<Option<Item>>,
    queue: BinaryHeap<Reverse<(u64, usize)>>,
    closed: HashSet<Place>,
    stats: SearchStats,
}

impl<'a> Search<'a> {
    fn new(map: &'a NavMap, world: World<'a>, goal: Cell, options: &'a TimedOptions) -> Self {
        let p = world.physics;
        let apex = if p.gravity > 0.0 {
            (p.jump_speed / p.gravity / p.dt).ceil().clamp(1.0, 120.0) as u32
        } else {
            30
        };
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
            goal,
            options,
            programs: menu(apex),
            ticks_per_col: if fastest > 0.0 { 1.0 / fastest } else { 0.0 },
            labels: Vec::new(),
            items: Vec::new(),
            queue: BinaryHeap::new(),
            closed: HashSet::new(),
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
        if self.closed.contains(&key_of(label.place)) {
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
            if !self.closed.insert(key_of(label.place)) {
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

    /// Performs link `link` from label `parent`'s state: the label it
    /// reaches, when it ends at rest within the settle tolerance of its
    /// cell's middle, as the link promises.
    fn perform_link(&mut self, parent: usize, link: LinkId) -> Option<Label> {
        let (map, world) = (self.map, self.world);
        let to = map.cell(map.target(link));
        if self.closed.contains(&Place::Cell(to)) {
            return None;
        }
        let from = &self.labels[parent];
        let (mut body, mut tick) = (from.body, from.tick);
        let verbatim = map.ticks(link).saturating_sub(SETTLE_SLACK) as usize;
        let mut inputs: Vec<Input> = map.inputs(link).take(verbatim).collect();
        tick = world.perform(&mut body, tick, &inputs);
        let tol = settle_tolerance(world.physics) + 1e-9;
        let target = f64::from(to.col) + 0.5;
        let nudge = nudge_toward(&body, target, tol);
        let slack: Vec<Input> = (0..SETTLE_SLACK).map(|k| slack_input(k, nudge)).collect();
        tick = world.perform(&mut body, tick, &slack);
        inputs.extend(slack);
        if !body.stands_on(to) || body.vx != 0.0 || (body.x - target).abs() > tol {
            self.stats.pruned += 1;
            return None;
        }
        Some(Label {
            place: Place::Cell(to),
            body,
            tick,
            parent: Some(parent),
            kind: Some(TimedKind::Link(map.link(link).kind)),
            inputs,
        })
    }

    /// The platform programs from label `at` (on platform `on`, or on a
    /// cell), after every wait of the stride up to the period of the
    /// platforms in reach.
    fn try_programs(&mut self, at: usize, on: Option<usize>) {
        for (waited, o) in self.program_ends(at, on) {
            self.push_outcome(at, waited, o);
        }
    }

    /// [`Search::try_programs`]'s outcomes, each with its wait, in the
    /// order of the waits and then of the menu.
    fn program_ends(&self, at: usize, on: Option<usize>) -> Vec<(u64, Outcome)> {
        let world = self.world;
        let label = &self.labels[at];
        let (place, mut body, mut tick) = (label.place, label.body, label.tick);
        // From a cell, the platforms in reach; on one, none is needed.
        let near: Vec<usize> = match (place, on) {
            (Place::Cell(cell), None) => world.in_reach(cell).collect(),
            _ => Vec::new(),
        };
        let all = world.platforms.all();
        let period = match on {
            Some(k) => all[k].period(),
            None => near.iter().map(|&k| all[k].period()).max().unwrap_or(0),
        };
        if period == 0 {
            return Vec::new();
        }
        let horizon = period.min(u64::from(self.options.max_wait));
        let stride = u64::from(self.options.wait_stride.max(1));
        // The departures: the body's state after each wait of the stride.
        let mut departures = Vec::new();
        let mut waited = 0u64;
        loop {
            if waited.is_multiple_of(stride) {
                departures.push((waited, body, tick));
            }
            if waited >= horizon {
                break;
            }
            world.step(&mut body, tick, Input::IDLE);
            tick += 1;
            waited += 1;
            if !at_rest(&world, &body, tick, place) {
                break;
            }
        }
        // From a cell, each program's way with no platform about, from
        // the state the body rests in (the same after each wait, unless
        // a platform came by).
        let first = departures[0].1;
        let ways = if on.is_none() {
            self.programs
                .iter()
                .map(|&pr| track(&world, first, pr))
                .collect()
        } else {
            Vec::new()
        };
        let departure = Departure {
            world,
            map: self.map,
            programs: &self.programs,
            on,
            near: &near,
            rest: (first, ways),
        };
        let run =
            |&(waited, body, tick): &(u64, Body, u64)| (waited, departure.outcomes(&body, tick));
        #[cfg(feature = "parallel")]
        let found: Vec<(u64, Vec<Outcome>)> = {
            use rayon::prelude::*;
            departures.par_iter().map(run).collect()
        };
        #[cfg(not(feature = "parallel"))]
        let found: Vec<(u64, Vec<Outcome>)> = departures.iter().map(run).collect();
        found
            .into_iter()
            .flat_map(|(waited, outcomes)| outcomes.into_iter().map(move |o| (waited, o)))
            .collect()
    }

    /// Queues a program's outcome from label `at` after `waited` ticks.
    fn push_outcome(&mut self, at: usize, waited: u64, o: Outcome) {
        let key = key_of(o.place);
        if self.closed.contains(&key) || key == key_of(self.labels[at].place) {
            return;
        }
        let kind = match o.place {
            Place::Platform { .. } => TimedKind::Board,
            Place::Cell(_) => TimedKind::Leave,
        };
        let mut inputs = vec![Input::IDLE; waited as usize];
        inputs.extend(o.inputs);
        self.push(Label {
            place: o.place,
            body: o.body,
            tick: o.tick,
            parent: Some(at),
            kind: Some(kind),
            inputs,
        });
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
                ticks: to.inputs.len() as u32,
            });
            inputs.extend_from_slice(&to.inputs);
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

/// The place a label closes: its cell, or its platform (a body on a
/// platform walks to any tile of its width, so the first arrival on a
/// platform is the one expanded, and a program that lands back on the
/// platform it left is not kept).
fn key_of(place: Place) -> Place {
    match place {
        Place::Cell(_) => place,
        Place::Platform { platform, .. } => Place::Platform { platform, slot: 0 },
    }
}

/// What every departure from one label shares.
struct Departure<'a> {
    world: World<'a>,
    map: &'a NavMap,
    programs: &'a [Program],
    on: Option<usize>,
    near: &'a [usize],
    /// The programs' ways with no platform about from this state.
    rest: (Body, Vec<Vec<Body>>),
}

impl Departure<'_> {
    /// The outcomes of every program from `body` on tick `tick`. From a
    /// cell, only the programs whose way with no platform about comes
    /// near one of the platforms in reach are performed: the others go
    /// where the map's links go.
    fn outcomes(&self, body: &Body, tick: u64) -> Vec<Outcome> {
        let (world, map) = (&self.world, self.map);
        self.programs
            .iter()
            .enumerate()
            .filter(|&(i, &program)| {
                self.on.is_some()
                    || if self.rest.0 == *body {
                        meets(world, &self.rest.1[i], tick, self.near)
                    } else {
                        meets(world, &track(world, *body, program), tick, self.near)
                    }
            })
            .map(|(_, program)| program)
            .filter_map(|&program| {
                perform(world, *body, tick, program, self.on, |c| {
                    map.node(c).is_some()
                })
            })
            .collect()
    }
}

/// Whether a waiting body is still at rest on `place` on tick `tick`.
fn at_rest(world: &World<'_>, body: &Body, tick: u64, place: Place) -> bool {
    match place {
        Place::Cell(c) => body.stands_on(c) && body.vx == 0.0,
        Place::Platform { platform, .. } => {
            body.riding(world.platforms, tick, world.physics) == Some(platform as usize)
        }
    }
}
