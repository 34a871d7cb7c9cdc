//! A second implementation of the *platform programs* of a timed search
//! (`docs/PHYSICS.md`, "Link generation bounds", the bullet "Paths in
//! time (moving platforms)"), written from the text alone: where a
//! platform is in reach of a cell, the waits, the menu of programs, how
//! each ends, the settle on a platform or a cell, and the static-track
//! prefilter.
//!
//! `tests/naive_platforms.rs` asks `platnav::search::timed::
//! platform_programs` for the same list, in the same order, to the last
//! input.
//!
//! The obvious way: every wait is idled from the start state, and every
//! program is performed from the waited state with this crate's own twin
//! of the platform tick ([`crate::platforms::step`]), one after the other,
//! with no cache and no shared prefix. The settle controller is the one
//! the naive link builder re-implements (`settle_input` of `sim.rs`).
//!
//! Where the text leaves a choice open, this module reads it as follows:
//!
//! - the waits are `0, k, 2k, ...` up to and including `min(P, max_wait)`;
//! - the menu runs move by move (`-1`, `0`, `+1`), each through its holds;
//! - a body riding a platform as the search starts is *on the platform*
//!   (even when it also stands on a cell);
//! - the wait ends early on the first idle tick after which the body is
//!   not at rest on its cell (riding its platform): that wait and the
//!   later ones are not tried;
//! - "walked more than 3 tiles" is `|x - x_start| > 3`;
//! - "within a tile" (the prefilter) is a gap of at most one tile between
//!   the body's box and the platform's box on both axes;
//! - a settle makes at most `S` checks, with the "Too fast to stop" rule
//!   before each, as the links' settle does; it adds no idle ticks after.

use platnav::{Body, Cell, Input, Level, Physics, level::Platform, search::timed::Place};

use crate::platforms::{Lift, lay_out, rides, step};
use crate::sim::{settle_input, settle_limit};

/// Where a platform program ended: `(waited, place, end tick, inputs)`,
/// the ticks waited first, the place it ends at rest on, the tick it ends
/// on, and every input from the start tick on (the wait's included).
pub type NaiveEnd = (u64, Place, u64, Vec<Input>);

/// The most ticks a program drives the body before it ends.
pub const PROGRAM_TICKS: usize = 300;

/// How far a walk from a cell may go along the ground, in tiles, before it
/// is given up.
pub const WALK_TILES: f64 = 3.0;

/// How far above a platform's highest top a cell's feet may be, in tiles,
/// for the platform to be in reach.
pub const FALL_REACH: f64 = 24.0;

/// The level, the physics and the platforms laid out by the twin.
struct World<'a> {
    level: &'a Level,
    p: &'a Physics,
    lifts: Vec<Lift>,
}

/// Where the search starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum From {
    /// At rest on a cell of the map.
    Cell(Cell),
    /// Riding platform `k`.
    Platform(usize),
}

/// The box a platform covers over its whole cycle, `[left, top, right,
/// bottom]`: its box on every tick of one period, one by one.
fn swept(lift: &Lift) -> [f64; 4] {
    let mut s = [
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    ];
    for t in 0..lift.period() {
        let [px, py] = lift.corner(t);
        s[0] = s[0].min(px);
        s[1] = s[1].min(py);
        s[2] = s[2].max(px + lift.width);
        s[3] = s[3].max(py + lift.height);
    }
    s
}

/// The apex time of the text's "Where": `jump_speed / gravity` seconds, 1
/// with no gravity.
fn apex_seconds(p: &Physics) -> f64 {
    if p.gravity > 0.0 {
        p.jump_speed / p.gravity
    } else {
        1.0
    }
}

/// Whether `lift` is in reach of a body at rest on `cell`: its feet
/// `(c + 0.5, r + 1)` within `across` of the swept box sideways, and
/// `s1 - 24 < y < s3 + up`.
fn in_reach(p: &Physics, lift: &Lift, cell: Cell) -> bool {
    let apex = apex_seconds(p);
    let across = (p.max_speed_x() * (2.0 * apex + 0.5)).ceil() + 2.0;
    // Reading: `h` against a position is the box height on the grid.
    let up = (p.jump_speed * apex / 2.0).ceil() + 2.0 + p.box_h();
    let x = f64::from(cell.col) + 0.5;
    let y = f64::from(cell.row) + 1.0;
    let [s0, s1, s2, s3] = swept(lift);
    s0 - across < x && x < s2 + across && s1 - FALL_REACH < y && y < s3 + up
}

/// The menu, in order: `(move, hold)` for `move` in `-1, 0, +1` and each
/// hold of `0, 4, ceil(a / 2), a` (equal ones once), but not `move = 0`
/// with hold 0.
fn menu(p: &Physics) -> Vec<(i8, usize)> {
    let a = if p.gravity > 0.0 {
        (p.jump_speed / p.gravity / p.dt).ceil().clamp(1.0, 120.0) as usize
    } else {
        30
    };
    let mut holds: Vec<usize> = Vec::new();
    for h in [0, 4, a.div_ceil(2), a] {
        if !holds.contains(&h) {
            holds.push(h);
        }
    }
    let mut programs = Vec::new();
    for dir in [-1i8, 0, 1] {
        for &hold in &holds {
            if dir == 0 && hold == 0 {
                continue;
            }
            programs.push((dir, hold));
        }
    }
    programs
}

/// The input of a program's tick `i` (from 0): `move` held, `jump` held on
/// the first `hold` ticks.
fn program_input(dir: i8, hold: usize, i: usize) -> Input {
    Input::new(dir, i < hold, false)
}

/// Whether the body's box comes within a tile of `lift`'s box on tick
/// `tick`: a gap of at most one tile both ways.
fn within_a_tile(p: &Physics, body: &Body, lift: &Lift, tick: u64) -> bool {
    let (hw, hh) = (p.half_w(), p.box_h());
    let [px, py] = lift.corner(tick);
    let gap_x = (px - (body.x + hw)).max((body.x - hw) - (px + lift.width));
    let gap_y = (py - body.y).max((body.y - hh) - (py + lift.height));
    gap_x <= 1.0 && gap_y <= 1.0
}

/// The static-track prefilter: performs `(dir, hold)` from `body` on the
/// tiles alone ([`Body::step`]) until a program from a cell would be given
/// up (dead, back on the ground, walked more than [`WALK_TILES`], or
/// [`PROGRAM_TICKS`] ticks), and says whether some state on the way (the
/// first included) is within a tile of a platform of `near` on the tick
/// it is at or the next.
fn static_way_meets(
    w: &World,
    near: &[usize],
    body: &Body,
    tick: u64,
    (dir, hold): (i8, usize),
) -> bool {
    let meets = |b: &Body, t: u64| {
        near.iter().any(|&k| {
            within_a_tile(w.p, b, &w.lifts[k], t) || within_a_tile(w.p, b, &w.lifts[k], t + 1)
        })
    };
    let mut b = *body;
    let x0 = b.x;
    let mut airborne = false;
    for i in 0..PROGRAM_TICKS {
        if meets(&b, tick + i as u64) {
            return true;
        }
        b.step(w.level, w.p, program_input(dir, hold, i));
        if b.dead {
            return meets(&b, tick + i as u64 + 1);
        }
        if !b.grounded {
            airborne = true;
        } else if airborne || (b.x - x0).abs() > WALK_TILES {
            return meets(&b, tick + i as u64 + 1);
        }
    }
    meets(&b, tick + PROGRAM_TICKS as u64)
}

/// One step of the twin, recording the input.
fn advance(w: &World, body: &mut Body, tick: &mut u64, tape: &mut Vec<Input>, input: Input) {
    step(body, w.level, &w.lifts, *tick, w.p, input);
    *tick += 1;
    tape.push(input);
}

/// Brings a body that ended a program riding platform `k` on tick `tick`
/// to rest on the middle of the tile of the platform's width under its
/// feet: the settle controller aimed at `px(t) + slot + 0.5` each tick,
/// riding `k` after each, at most `S` checks.
fn settle_on_platform(
    w: &World,
    mut body: Body,
    mut tick: u64,
    mut tape: Vec<Input>,
    k: usize,
) -> Option<(Place, u64, Vec<Input>)> {
    let lift = &w.lifts[k];
    let px = lift.corner(tick)[0];
    let slot = (body.x - px).floor().clamp(0.0, lift.width - 1.0);
    let limit = settle_limit(w.p);
    let adt = w.p.ground_accel * w.p.dt;
    for i in 0..limit {
        if body.vx.abs() > (limit - i - 1) as f64 * adt {
            return None;
        }
        let target = lift.corner(tick)[0] + slot + 0.5;
        match settle_input(&body, target, w.p) {
            None => {
                let place = Place::Platform {
                    platform: k as u32,
                    slot: slot as u32,
                };
                return Some((place, tick, tape));
            }
            Some(input) => {
                advance(w, &mut body, &mut tick, &mut tape, input);
                if rides(&body, &w.lifts, tick, w.p) != Some(k) {
                    return None;
                }
            }
        }
    }
    None
}

/// Brings a body that ended a program on a cell (no platform ridden) to
/// rest on the middle of the cell its feet stand on, which must be a node
/// of the map: the settle controller, grounded after each tick, at most
/// `S` checks.
fn settle_on_cell(
    w: &World,
    node: &impl Fn(Cell) -> bool,
    mut body: Body,
    mut tick: u64,
    mut tape: Vec<Input>,
) -> Option<(Place, u64, Vec<Input>)> {
    let cell = body.standing_cell()?;
    if !node(cell) {
        return None;
    }
    let target = f64::from(cell.col) + 0.5;
    let limit = settle_limit(w.p);
    let adt = w.p.ground_accel * w.p.dt;
    for i in 0..limit {
        if body.vx.abs() > (limit - i - 1) as f64 * adt {
            return None;
        }
        match settle_input(&body, target, w.p) {
            None => return Some((Place::Cell(cell), tick, tape)),
            Some(input) => {
                advance(w, &mut body, &mut tick, &mut tape, input);
                if body.dead || !body.grounded {
                    return None;
                }
            }
        }
    }
    None
}

/// Performs `(dir, hold)` from `body` (waited already, `tape` its inputs
/// so far) on tick `tick`, from `from`, with the platforms, then settles
/// where it ends; `None` when it is given up.
fn perform(
    w: &World,
    node: &impl Fn(Cell) -> bool,
    from: From,
    body: &Body,
    tick: u64,
    tape: &[Input],
    (dir, hold): (i8, usize),
) -> Option<(Place, u64, Vec<Input>)> {
    let mut b = *body;
    let mut t = tick;
    let mut tape = tape.to_vec();
    let x0 = b.x;
    let mut airborne = false;
    for i in 0..PROGRAM_TICKS {
        advance(w, &mut b, &mut t, &mut tape, program_input(dir, hold, i));
        if b.dead {
            return None;
        }
        if !b.grounded {
            airborne = true;
            continue;
        }
        match (from, rides(&b, &w.lifts, t, w.p)) {
            (From::Cell(_), Some(k)) => return settle_on_platform(w, b, t, tape, k),
            (From::Cell(_), None) => {
                if airborne || (b.x - x0).abs() > WALK_TILES {
                    return None;
                }
            }
            (From::Platform(left), Some(k)) => {
                if k != left || airborne {
                    return settle_on_platform(w, b, t, tape, k);
                }
            }
            (From::Platform(_), None) => return settle_on_cell(w, node, b, t, tape),
        }
    }
    None
}

/// `wait` idle ticks from `body` on tick `tick`: the body and the tape, or
/// `None` when after one of them the body is no longer at rest on its cell
/// (standing on it with `vx == 0`) or no longer rides its platform.
fn idle(w: &World, from: From, body: &Body, tick: u64, wait: u64) -> Option<(Body, Vec<Input>)> {
    let mut b = *body;
    let mut t = tick;
    let mut tape = Vec::new();
    for _ in 0..wait {
        advance(w, &mut b, &mut t, &mut tape, Input::IDLE);
        let at_rest = match from {
            From::Cell(cell) => b.stands_on(cell) && b.vx == 0.0,
            From::Platform(k) => rides(&b, &w.lifts, t, w.p) == Some(k),
        };
        if !at_rest {
            return None;
        }
    }
    Some((b, tape))
}

/// The platform programs a timed search tries from `body` on tick `tick`
/// (`PHYSICS.md`, "Paths in time (moving platforms)"), and where each
/// ends: `(waited, place, end tick, inputs)`, in order of waits, then of
/// the menu.
///
/// `platforms` is the level's list (in its order, which is what
/// [`Place::Platform`] indexes), `node` says which cells are nodes of the
/// map, `stride` is the wait stride (at least 1) and `max_wait` the
/// longest wait.
///
/// The body is on a platform when it rides one on `tick` (step 0,
/// "Ride"); else on its standing cell, which must be a node. From a cell,
/// only the platforms in reach count (for the waits and the prefilter),
/// and with none in reach there is nothing to try. Empty too when the body
/// is on neither.
///
/// # Panics
/// When a platform breaks a limit of the text ([`lay_out`]).
#[must_use]
#[allow(clippy::too_many_arguments)]
pub fn naive_platform_programs(
    level: &Level,
    physics: &Physics,
    platforms: &[Platform],
    node: impl Fn(Cell) -> bool,
    body: &Body,
    tick: u64,
    stride: u32,
    max_wait: u32,
) -> Vec<NaiveEnd> {
    let lifts = lay_out(platforms, physics.dt)
        .unwrap_or_else(|(i, e)| panic!("platform {i} is malformed: {e}"));
    let w = World {
        level,
        p: physics,
        lifts,
    };
    // Reading: a body riding a platform starts from the platform.
    let from = match rides(body, &w.lifts, tick, physics) {
        Some(k) => From::Platform(k),
        None => match body.standing_cell() {
            Some(cell) if node(cell) => From::Cell(cell),
            _ => return Vec::new(),
        },
    };
    // Where: the platforms in reach (from a cell), and the longest wait.
    let near: Vec<usize> = match from {
        From::Cell(cell) => (0..w.lifts.len())
            .filter(|&k| in_reach(physics, &w.lifts[k], cell))
            .collect(),
        From::Platform(k) => vec![k],
    };
    let Some(period) = near.iter().map(|&k| w.lifts[k].period()).max() else {
        return Vec::new();
    };
    let longest = period.min(u64::from(max_wait));
    let stride = u64::from(stride.max(1));
    let programs = menu(physics);
    let mut out = Vec::new();
    // When: each wait idled from the start state, tick by tick; the first
    // that does not stay at rest ends the waits.
    let mut wait = 0u64;
    while wait <= longest {
        let Some((waited_body, wait_tape)) = idle(&w, from, body, tick, wait) else {
            break;
        };
        let t0 = tick + wait;
        for &program in &programs {
            if let From::Cell(_) = from
                && !static_way_meets(&w, &near, &waited_body, t0, program)
            {
                continue;
            }
            if let Some((place, end, inputs)) =
                perform(&w, &node, from, &waited_body, t0, &wait_tape, program)
            {
                out.push((wait, place, end, inputs));
            }
        }
        wait += stride;
    }
    out
}
