//! Departures from a place: the body's state after each wait of the
//! stride, and where every platform program ends from each
//! ([`platform_programs`] gives them to the naive reference).

use super::menu::{Outcome, Program, Resume, first_meeting, menu, perform, perform_from, track};
use super::plan::start_place;
use super::profile::{MAX_CYCLE, lcm};
use std::sync::{Arc, OnceLock};

use super::memo::{Memo, Touched};
use super::world::World;
use super::{Place, TimedOptions};
use crate::graph::NavMap;
use crate::physics::{Body, Input};
use crate::search::PathError;

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
    platforms: &crate::level::Platforms,
    body: &Body,
    tick: u64,
    options: &TimedOptions,
) -> Result<Vec<ProgramEnd>, PathError> {
    let world = World::new(map.level(), map.physics(), platforms);
    let place = start_place(map, &world, body, tick)?;
    let on = match place {
        Place::Platform { platform, .. } => Some(platform as usize),
        Place::Cell(_) => None,
    };
    let origin = Origin {
        place,
        body: *body,
        tick,
        on,
    };
    let programs = menu(world.apex_ticks());
    let every: Vec<usize> = (0..programs.len()).collect();
    let departed = program_ends(&world, map, &programs, &every, options, &origin, None);
    Ok(departed
        .iter()
        .flat_map(|d| {
            d.outcomes.iter().map(|(_, o)| {
                let mut inputs = vec![Input::IDLE; d.waited as usize];
                inputs.extend(o.inputs());
                ProgramEnd {
                    waited: d.waited,
                    place: o.place,
                    tick: d.tick + o.tick,
                    inputs,
                }
            })
        })
        .collect())
}

/// Where departures leave from: the place, the body at rest there, the
/// tick, and the platform it rides (`None`: a cell).
pub(super) struct Origin {
    pub place: Place,
    pub body: Body,
    pub tick: u64,
    pub on: Option<usize>,
}

/// The outcomes of one departure: the ticks waited, the tick it leaves
/// on, and where each program that has an outcome went (its index in the
/// menu; ticks counted from the departure), in the menu's order.
pub(super) struct Departed {
    pub waited: u64,
    pub tick: u64,
    pub outcomes: Vec<(usize, Arc<Outcome>)>,
}

/// The platform programs' outcomes from `origin`, after every wait of the
/// stride up to the period of the platforms in reach, in the order of the
/// waits: of the programs `which` (indices in the menu). Those `memo`
/// holds for the place on their tick are taken from it; the others are
/// performed (and kept there).
pub(super) fn program_ends(
    world: &World<'_>,
    map: &NavMap,
    programs: &[Program],
    which: &[usize],
    options: &TimedOptions,
    origin: &Origin,
    memo: Option<&Memo>,
) -> Vec<Departed> {
    let Some((near, horizon, stride)) = schedule(world, origin, options) else {
        return Vec::new();
    };
    let waits = waits(world, origin, horizon, stride);
    let departure = Departure {
        map,
        programs,
        on: origin.on,
        near: &near,
    };
    departure.depart(world, origin, which, &waits, memo)
}

/// Keeps in `memo` the departures from `origin` on every tick of a cycle
/// of each platform in reach (and the one ridden), and tabulates each
/// program's first arrivals from each phase where it has them all. On a
/// platform, every other tile of its width is filled too, from the same
/// state moved there (a later query may board on any). Nothing when such
/// a cycle is longer than [`MAX_CYCLE`].
pub(super) fn fill(
    world: &World<'_>,
    map: &NavMap,
    programs: &[Program],
    options: &TimedOptions,
    origin: &Origin,
    memo: &Memo,
) {
    fill_one(world, map, programs, options, origin, memo);
    let (Some(k), Place::Platform { platform, slot }) = (origin.on, origin.place) else {
        return;
    };
    for other in (0..world.platforms.all()[k].platform.width).filter(|&s| s != slot) {
        let mut body = origin.body;
        body.x += f64::from(other) - f64::from(slot);
        let place = Place::Platform {
            platform,
            slot: other,
        };
        let kept = memo.departures.get(&(place, origin.on, 0), origin.tick);
        if kept.is_none() && world.riding(&body, origin.tick) == Some(k) {
            let moved = Origin {
                place,
                body,
                ..*origin
            };
            fill_one(world, map, programs, options, &moved, memo);
        }
    }
}

/// [`fill`] for `origin` alone.
fn fill_one(
    world: &World<'_>,
    map: &NavMap,
    programs: &[Program],
    options: &TimedOptions,
    origin: &Origin,
    memo: &Memo,
) {
    let Some((near, horizon, stride)) = schedule(world, origin, options) else {
        return;
    };
    let all = world.platforms.all();
    let cycle = near
        .iter()
        .chain(origin.on.iter())
        .map(|&k| lcm(stride, all[k].period().max(1)))
        .max()
        .unwrap_or(stride);
    if cycle > MAX_CYCLE {
        return;
    }
    let waits = waits(world, origin, cycle - 1, 1);
    let departure = Departure {
        map,
        programs,
        on: origin.on,
        near: &near,
    };
    let every: Vec<usize> = (0..programs.len()).collect();
    departure.depart(world, origin, &every, &waits, Some(memo));
    for program in every {
        let from = (origin.place, origin.on, program);
        for class in 0..stride {
            memo.departures
                .tabulate(&from, origin.tick + class, stride, horizon);
        }
    }
}

/// When departures from `origin` leave: the platforms in reach (from a
/// cell; on one, none is needed), the longest wait and the stride. `None`
/// when no platform is in reach.
pub(super) fn schedule(
    world: &World<'_>,
    origin: &Origin,
    options: &TimedOptions,
) -> Option<(Vec<usize>, u64, u64)> {
    let near: Vec<usize> = match (origin.place, origin.on) {
        (Place::Cell(cell), None) => world.in_reach(cell).collect(),
        _ => Vec::new(),
    };
    let all = world.platforms.all();
    let period = match origin.on {
        Some(k) => all[k].period(),
        None => near.iter().map(|&k| all[k].period()).max().unwrap_or(0),
    };
    let horizon = period.min(u64::from(options.max_wait));
    let stride = u64::from(options.wait_stride.max(1));
    (period > 0).then_some((near, horizon, stride))
}

/// The body's state and tick after each wait of `stride` ticks up to
/// `horizon`, while it stays at rest on its place.
fn waits(world: &World<'_>, origin: &Origin, horizon: u64, stride: u64) -> Vec<(u64, Body, u64)> {
    let (mut body, mut tick) = (origin.body, origin.tick);
    let mut found = Vec::new();
    let mut waited = 0u64;
    loop {
        if waited.is_multiple_of(stride) {
            found.push((waited, body, tick));
        }
        if waited >= horizon {
            return found;
        }
        world.step(&mut body, tick, Input::IDLE);
        tick += 1;
        waited += 1;
        if !at_rest(world, &body, tick, origin.place) {
            return found;
        }
    }
}

/// What every departure from one place shares.
struct Departure<'a> {
    map: &'a NavMap,
    programs: &'a [Program],
    on: Option<usize>,
    near: &'a [usize],
}

impl Departure<'_> {
    /// The departures after `waits` (each with the body's state and
    /// tick), of the programs `which`: those `memo` holds are taken from
    /// it, the others performed and kept there.
    fn depart(
        &self,
        world: &World<'_>,
        origin: &Origin,
        which: &[usize],
        waits: &[(u64, Body, u64)],
        memo: Option<&Memo>,
    ) -> Vec<Departed> {
        // From a cell, each program's way with no platform about, from
        // the state the body rests in (the same after each wait, unless a
        // platform came by): tracked the first time a departure that is
        // not kept needs it.
        let first = waits[0].1;
        let ways: Vec<OnceLock<Vec<Body>>> =
            self.programs.iter().map(|_| OnceLock::new()).collect();
        let run = |&(waited, body, tick): &(u64, Body, u64)| {
            let outcomes = which
                .iter()
                .filter_map(|&i| {
                    let key = (origin.place, origin.on, i);
                    let kept = memo.and_then(|m| m.departures.get(&key, tick));
                    let outcome = kept.unwrap_or_else(|| {
                        let way = (body == first && origin.on.is_none())
                            .then(|| ways[i].get_or_init(|| track(world, first, self.programs[i])));
                        let (modulus, outcome) = self.noted(world, &body, tick, i, way, memo);
                        if let (Some(memo), Some(m)) = (memo, modulus) {
                            memo.departures.put(key, tick, m, outcome.clone());
                        }
                        outcome
                    });
                    outcome.map(|o| (i, o))
                })
                .collect();
            Departed {
                waited,
                tick,
                outcomes,
            }
        };
        #[cfg(feature = "parallel")]
        let found: Vec<Departed> = {
            use rayon::prelude::*;
            waits.par_iter().map(run).collect()
        };
        #[cfg(not(feature = "parallel"))]
        let found: Vec<Departed> = waits.iter().map(run).collect();
        found
    }

    /// Program `i`'s outcome from `body` on tick `tick` (its tick counted
    /// from then), with the modulus of the platforms it looked at when it
    /// is to be kept (`memo`, and not beyond the longest modulus kept);
    /// `way` is its way with no platform about from `body`, when known.
    fn noted(
        &self,
        world: &World<'_>,
        body: &Body,
        tick: u64,
        i: usize,
        way: Option<&Vec<Body>>,
        memo: Option<&Memo>,
    ) -> (Option<u64>, Option<Arc<Outcome>>) {
        let touched = Touched::new(if memo.is_some() {
            world.platforms.len()
        } else {
            0
        });
        let noting = match memo {
            Some(_) => world.noting(&touched),
            None => *world,
        };
        let outcome = self.outcome(&noting, body, tick, i, way).map(|o| {
            Arc::new(Outcome {
                tick: o.tick - tick,
                ..o
            })
        });
        let modulus = memo.and_then(|_| touched.modulus(world.platforms));
        (modulus, outcome)
    }

    /// Program `i`'s outcome from `body` on tick `tick`. From a cell, it
    /// is performed only when its way with no platform about comes near
    /// one of the platforms in reach: otherwise it goes where the map's
    /// links go.
    fn outcome(
        &self,
        world: &World<'_>,
        body: &Body,
        tick: u64,
        i: usize,
        way: Option<&Vec<Body>>,
    ) -> Option<Outcome> {
        let map = self.map;
        let node = |c| map.node(c).is_some();
        let program = self.programs[i];
        if self.on.is_some() {
            return perform(world, *body, tick, program, self.on, node);
        }
        let fresh;
        let way = match way {
            Some(way) => way,
            None => {
                fresh = track(world, *body, program);
                &fresh
            }
        };
        // The way is the one with the platforms up to the state before
        // the first that comes near one: resume there.
        let first = first_meeting(world, way, tick, self.near)?;
        let done = first.saturating_sub(1);
        let resume = Resume::along(way, done);
        perform_from(world, resume, tick + done as u64, program, None, node)
    }
}

/// Whether a waiting body is still at rest on `place` on tick `tick`.
fn at_rest(world: &World<'_>, body: &Body, tick: u64, place: Place) -> bool {
    match place {
        Place::Cell(c) => body.stands_on(c) && body.vx == 0.0,
        Place::Platform { platform, .. } => world.riding(body, tick) == Some(platform as usize),
    }
}
