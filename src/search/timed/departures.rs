//! Departures from a place: the body's state after each wait of the
//! stride, and where every platform program ends from each
//! ([`platform_programs`] gives them to the naive reference).

use super::menu::{Outcome, Program, Resume, first_meeting, menu, perform, perform_from, track};
use super::plan::start_place;
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
    let world = World {
        level: map.level(),
        physics: map.physics(),
        platforms,
    };
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
    Ok(program_ends(&world, map, &programs, options, &origin)
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

/// Where departures leave from: the place, the body at rest there, the
/// tick, and the platform it rides (`None`: a cell).
pub(super) struct Origin {
    pub place: Place,
    pub body: Body,
    pub tick: u64,
    pub on: Option<usize>,
}

/// The platform programs' outcomes from `origin`, after every wait of the
/// stride up to the period of the platforms in reach, each with its wait,
/// in the order of the waits and then of the menu.
pub(super) fn program_ends(
    world: &World<'_>,
    map: &NavMap,
    programs: &[Program],
    options: &TimedOptions,
    origin: &Origin,
) -> Vec<(u64, Outcome)> {
    // From a cell, the platforms in reach; on one, none is needed.
    let near: Vec<usize> = match (origin.place, origin.on) {
        (Place::Cell(cell), None) => world.in_reach(cell).collect(),
        _ => Vec::new(),
    };
    let all = world.platforms.all();
    let period = match origin.on {
        Some(k) => all[k].period(),
        None => near.iter().map(|&k| all[k].period()).max().unwrap_or(0),
    };
    if period == 0 {
        return Vec::new();
    }
    let horizon = period.min(u64::from(options.max_wait));
    let waits = waits(
        world,
        origin,
        horizon,
        u64::from(options.wait_stride.max(1)),
    );
    // From a cell, each program's way with no platform about, from the
    // state the body rests in (the same after each wait, unless a
    // platform came by).
    let first = waits[0].1;
    let ways = match origin.on {
        None => programs.iter().map(|&pr| track(world, first, pr)).collect(),
        Some(_) => Vec::new(),
    };
    let departure = Departure {
        world: *world,
        map,
        programs,
        on: origin.on,
        near: &near,
        rest: (first, ways),
    };
    let run = |&(waited, body, tick): &(u64, Body, u64)| (waited, departure.outcomes(&body, tick));
    #[cfg(feature = "parallel")]
    let found: Vec<(u64, Vec<Outcome>)> = {
        use rayon::prelude::*;
        waits.par_iter().map(run).collect()
    };
    #[cfg(not(feature = "parallel"))]
    let found: Vec<(u64, Vec<Outcome>)> = waits.iter().map(run).collect();
    found
        .into_iter()
        .flat_map(|(waited, outcomes)| outcomes.into_iter().map(move |o| (waited, o)))
        .collect()
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
        let node = |c| map.node(c).is_some();
        if self.on.is_some() {
            return self
                .programs
                .iter()
                .filter_map(|&program| perform(world, *body, tick, program, self.on, node))
                .collect();
        }
        self.programs
            .iter()
            .enumerate()
            .filter_map(|(i, &program)| {
                let fresh;
                let way = if self.rest.0 == *body {
                    &self.rest.1[i]
                } else {
                    fresh = track(world, *body, program);
                    &fresh
                };
                // The way is the one with the platforms up to the state
                // before the first that comes near one: resume there.
                let first = first_meeting(world, way, tick, self.near)?;
                let done = first.saturating_sub(1);
                let resume = Resume::along(way, done);
                perform_from(world, resume, tick + done as u64, program, None, node)
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
