//! The platform programs: what the search tries where a platform is in
//! reach, and where each ends. A program moves one way (or not at all),
//! holds jump for some ticks (none: a walk), and keeps moving until the
//! body lands; then a settle brings it to rest on the middle of a cell or
//! of a tile of a platform's width, as links end.

use super::Place;
use super::world::World;
use crate::level::Cell;
use crate::links::{settle_input, settle_limit};
use crate::physics::{Body, Input};

/// The most ticks a program drives the body before it lands.
const FLIGHT_LIMIT: u32 = 300;
/// The farthest a walk may go on the ground it started on, in tiles,
/// before it is given up (a run the map's links already hold).
const WALK_LIMIT: f64 = 3.0;

/// A platform program: move `dir`, holding jump for the first `hold`
/// ticks (0: a walk).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Program {
    dir: i8,
    hold: u32,
}

/// The programs, for a body whose held jump reaches its apex in `apex`
/// ticks: every direction with a walk (sideways only), a short hop, half
/// and full jumps.
pub(super) fn menu(apex: u32) -> Vec<Program> {
    let mut holds = vec![0, 4, apex.div_ceil(2), apex];
    holds.dedup();
    let mut programs = Vec::new();
    for dir in [-1, 0, 1] {
        for &hold in &holds {
            if dir != 0 || hold > 0 {
                programs.push(Program { dir, hold });
            }
        }
    }
    programs
}

impl Program {
    /// The program's input on its tick `i`.
    fn input(self, i: u32) -> Input {
        Input::new(self.dir, i < self.hold, false)
    }
}

/// Where a program ended: at rest on `place` on tick `tick`, in `body`'s
/// state, after its first `flight` ticks and then the settle's inputs
/// (kept so, not as one tape: a planner keeps many).
#[derive(Debug, Clone)]
pub(super) struct Outcome {
    pub place: Place,
    pub body: Body,
    pub tick: u64,
    pub program: Program,
    pub flight: u32,
    pub settle: Vec<Input>,
}

impl Outcome {
    /// Its inputs.
    pub(super) fn inputs(&self) -> impl Iterator<Item = Input> + '_ {
        (0..self.flight)
            .map(|i| self.program.input(i))
            .chain(self.settle.iter().copied())
    }

    /// How many inputs it has.
    pub(super) fn len(&self) -> usize {
        self.flight as usize + self.settle.len()
    }
}

/// Performs `program` from `body` on tick `tick`, `on` the platform the
/// body rests on (`None`: on a cell), and settles where it lands. An
/// outcome when the body ends at rest on a platform (from a cell, or from
/// a platform after being in the air or on another one), or leaves a
/// platform for a cell the map has (`node`); `None` when it dies, lands
/// nowhere in time, or ends where the map's links go anyway.
pub(super) fn perform(
    world: &World<'_>,
    body: Body,
    tick: u64,
    program: Program,
    on: Option<usize>,
    node: impl Fn(Cell) -> bool,
) -> Option<Outcome> {
    let resume = Resume {
        body,
        done: 0,
        x0: body.x,
        airborne: false,
    };
    perform_from(world, resume, tick, program, on, node)
}

/// A program performed up to some tick: the body's state after its
/// first `done` ticks, where it started, and whether it has been in the
/// air.
#[derive(Debug, Clone, Copy)]
pub(super) struct Resume {
    body: Body,
    done: u32,
    x0: f64,
    airborne: bool,
}

impl Resume {
    /// A program from a cell, resumed after its first `done` ticks of its
    /// way with no platform about (`states`, from [`track`]): the same as
    /// it would be with the platforms, while none came near.
    pub(super) fn along(states: &[Body], done: usize) -> Self {
        Self {
            body: states[done],
            done: done as u32,
            x0: states[0].x,
            airborne: states[1..=done].iter().any(|b| !b.grounded),
        }
    }
}

/// [`perform`], resumed: `tick` is the tick the program's tick
/// `resume.done` starts on, and the inputs returned include the first
/// `done`.
pub(super) fn perform_from(
    world: &World<'_>,
    resume: Resume,
    mut tick: u64,
    program: Program,
    on: Option<usize>,
    node: impl Fn(Cell) -> bool,
) -> Option<Outcome> {
    let Resume {
        mut body,
        done,
        x0,
        mut airborne,
    } = resume;
    for i in done..FLIGHT_LIMIT {
        world.step(&mut body, tick, program.input(i));
        tick += 1;
        let flown = Flown {
            program,
            flight: i + 1,
        };
        if body.dead {
            return None;
        }
        if !body.grounded {
            airborne = true;
            continue;
        }
        match world.riding(&body, tick) {
            Some(k) if airborne || on != Some(k) => {
                return settle_on_platform(world, body, tick, k, flown);
            }
            Some(_) => {}
            None if on.is_some() => return settle_on_cell(world, body, tick, flown, node),
            // Back on the ground it started on, or walking along it.
            None if airborne || (body.x - x0).abs() > WALK_LIMIT => return None,
            None => {}
        }
    }
    None
}

/// A program performed for its first `flight` ticks.
#[derive(Clone, Copy)]
struct Flown {
    program: Program,
    flight: u32,
}

impl Flown {
    fn ended(self, place: Place, body: Body, tick: u64, settle: Vec<Input>) -> Outcome {
        Outcome {
            place,
            body,
            tick,
            program: self.program,
            flight: self.flight,
            settle,
        }
    }
}

/// Brings a body that landed on platform `k` to rest on the middle of
/// the tile of the platform's width under it.
fn settle_on_platform(
    world: &World<'_>,
    mut body: Body,
    mut tick: u64,
    k: usize,
    flown: Flown,
) -> Option<Outcome> {
    let mut inputs = Vec::new();
    let p = world.physics;
    let width = world.platforms.all()[k].platform.width;
    let left = world.corner(k, tick)[0];
    let slot = ((body.x - left).floor().max(0.0) as u32).min(width - 1);
    for _ in 0..settle_limit(p) {
        let target = world.corner(k, tick)[0] + f64::from(slot) + 0.5;
        let Some(input) = settle_input(&body, target, p) else {
            let place = Place::Platform {
                platform: k as u32,
                slot,
            };
            return Some(flown.ended(place, body, tick, inputs));
        };
        world.step(&mut body, tick, input);
        tick += 1;
        inputs.push(input);
        if world.riding(&body, tick) != Some(k) {
            return None;
        }
    }
    None
}

/// Brings a body that landed on a cell to rest on its middle.
fn settle_on_cell(
    world: &World<'_>,
    mut body: Body,
    mut tick: u64,
    flown: Flown,
    node: impl Fn(Cell) -> bool,
) -> Option<Outcome> {
    let mut inputs = Vec::new();
    let p = world.physics;
    let cell = body.standing_cell().filter(|&c| node(c))?;
    let target = f64::from(cell.col) + 0.5;
    for _ in 0..settle_limit(p) {
        let Some(input) = settle_input(&body, target, p) else {
            if !body.stands_on(cell) {
                return None;
            }
            return Some(flown.ended(Place::Cell(cell), body, tick, inputs));
        };
        world.step(&mut body, tick, input);
        tick += 1;
        inputs.push(input);
        if body.dead || !body.grounded {
            return None;
        }
    }
    None
}

/// Where a program takes the body with no platform about: the body's
/// state before its first tick and after each, to where [`perform`]
/// would stop it. Flown again with the platforms, it goes the same way
/// up to the first tick a platform comes near.
pub(super) fn track(world: &World<'_>, mut body: Body, program: Program) -> Vec<Body> {
    let p = world.physics;
    let (x0, mut airborne) = (body.x, false);
    let mut states = vec![body];
    for i in 0..FLIGHT_LIMIT {
        body.step(
            world.level,
            p,
            Input::new(program.dir, i < program.hold, false),
        );
        states.push(body);
        if body.dead {
            break;
        }
        if !body.grounded {
            airborne = true;
        } else if airborne || (body.x - x0).abs() > WALK_LIMIT {
            break;
        }
    }
    states
}

/// The first of `states` (a body going through them from tick `tick`)
/// within a tile of one of the platforms `near`, as its tick starts or
/// ends: only from then on can they change its way (a platform acts on a
/// box it overlaps or stands on). `None` when it never comes so near.
pub(super) fn first_meeting(
    world: &World<'_>,
    states: &[Body],
    tick: u64,
    near: &[usize],
) -> Option<usize> {
    near.iter()
        .filter_map(|&k| {
            let m = &world.platforms.all()[k];
            let (close, on_cycle) = (close_to(world, k), close_to_cycle(world, k));
            // The platform as each state starts its tick, and as it ends
            // it; looked up only for states near its whole cycle's box.
            states.iter().enumerate().position(|(i, b)| {
                on_cycle(b) && {
                    world.note(k);
                    let t = tick + i as u64;
                    let (a, c) = (m.at(t), m.at(t + 1));
                    close(b, a, a) || close(b, c, c)
                }
            })
        })
        .min()
}

/// Whether any of `states` comes within a tile of platform `k` anywhere
/// on its cycle: only then can [`first_meeting`] find a meeting.
pub(super) fn near_cycle(world: &World<'_>, states: &[Body], k: usize) -> bool {
    states.iter().any(close_to_cycle(world, k))
}

/// Whether a body's box comes within a tile of platform `k`'s box over
/// its whole cycle.
fn close_to_cycle<'a>(world: &World<'a>, k: usize) -> impl Fn(&Body) -> bool + 'a {
    let close = close_to(world, k);
    let m = &world.platforms.all()[k];
    let s = m.swept();
    let (w, h) = (f64::from(m.platform.width), f64::from(m.platform.height));
    move |b: &Body| close(b, [s[0], s[1]], [s[2] - w, s[3] - h])
}

/// Whether a body's box comes within a tile of platform `k` with its
/// corner anywhere from `p` to `q` (the same corner: where it is).
fn close_to<'a>(world: &World<'a>, k: usize) -> impl Fn(&Body, [f64; 2], [f64; 2]) -> bool + 'a {
    let p = world.physics;
    let (hw, hh) = (p.half_w() + 1.0, p.box_h() + 1.0);
    let m = &world.platforms.all()[k];
    let (w, h) = (f64::from(m.platform.width), f64::from(m.platform.height));
    move |b: &Body, [px, py]: [f64; 2], [qx, qy]: [f64; 2]| {
        b.x + hw > px && b.x - hw < qx + w && b.y + 1.0 > py && b.y - hh < qy + h
    }
}
