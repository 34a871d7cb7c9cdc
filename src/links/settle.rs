//! Settling and landing: where a landed body comes to rest, and the
//! closed-loop controller that brings it to rest on a cell's centre.

use super::options::SETTLE_SLACK;
use super::options::settle_limit;
use crate::level::Cell;
use crate::mechanics::Active;
use crate::physics::{Body, Input, Physics, Tiles};

pub(crate) use crate::physics::settle_tolerance;

/// Distance covered while braking from `v` with `move = 0` on the ground,
/// or infinity when coming to rest takes more than `limit` ticks (a settle
/// cannot last that long, see [`settle_limit`]).
pub(super) fn braking_distance(v: f64, adt: f64, dt: f64, limit: usize) -> f64 {
    let mut v = v.abs();
    let mut s = 0.0;
    // Each tick: v shrinks by at most adt, then x moves by v*dt.
    for _ in 0..limit {
        v = (v - adt).max(0.0);
        if v == 0.0 {
            return s;
        }
        s += v * dt;
    }
    if v == 0.0 { s } else { f64::INFINITY }
}

/// The closed-loop settle controller: the next input that brings a grounded
/// body to rest within [`settle_tolerance`] of `target_x`, or `None` when it
/// is there.
#[must_use]
pub(crate) fn settle_input(body: &Body, target_x: f64, p: &Physics) -> Option<Input> {
    let tol = settle_tolerance(p);
    let err = target_x - body.x;
    if body.vx == 0.0 && err.abs() <= tol {
        return None;
    }
    let adt = p.ground_accel * p.dt;
    let dir: i8 = if err > 0.0 { 1 } else { -1 };
    let df = f64::from(dir);
    if body.vx * df < 0.0 {
        // Moving away: push toward the target (brakes as hard as idling).
        return Some(Input::new(dir, false, false));
    }
    let target_v = df * p.run_speed;
    let v1 = body.vx + (target_v - body.vx).clamp(-adt, adt);
    let travel = v1.abs() * p.dt + braking_distance(v1, adt, p.dt, settle_limit(p));
    if travel <= err.abs() + tol {
        Some(Input::new(dir, false, false))
    } else {
        Some(Input::IDLE)
    }
}

/// Whether a settle with `checks` checks left (of its [`settle_limit`])
/// has failed already: the body must be at rest at one of them, at most
/// `checks - 1` ticks away, and a tick of ground acceleration changes the
/// speed by at most `ground_accel * dt`. (Only a wall could stop it
/// sooner; the rule stands regardless, as `PHYSICS.md` documents.)
pub(super) fn too_fast_to_stop(body: &Body, p: &Physics, checks: usize) -> bool {
    body.vx.abs() > checks.saturating_sub(1) as f64 * (p.ground_accel * p.dt)
}

/// Where a body that just landed will settle, in its frame: the standable
/// cell braking alone brings it to rest on (or the landing cell, or a
/// neighbour of the rest cell), and the ticks that braking takes.
pub(crate) fn land_target<T: Tiles + ?Sized>(
    tiles: &T,
    p: &Physics,
    body: &Body,
    standable: impl Fn(Cell) -> bool,
) -> Option<(Cell, u32)> {
    let mut low = f64::NEG_INFINITY;
    land_target_low(tiles, p, body, standable, &mut low)
}

/// [`land_target`], raising `low` to the largest `y - h` a step reaches.
pub(super) fn land_target_low<T: Tiles + ?Sized>(
    tiles: &T,
    p: &Physics,
    body: &Body,
    standable: impl Fn(Cell) -> bool,
    low: &mut f64,
) -> Option<(Cell, u32)> {
    let landed = body.standing_cell()?;
    let limit = settle_limit(p);
    // The settle from here would fail at its first tick.
    if too_fast_to_stop(body, p, limit) {
        return None;
    }
    let mut probe = *body;
    let mut braking = 0u32;
    for _ in 0..limit {
        if probe.vx == 0.0 {
            break;
        }
        probe.step(tiles, p, Input::IDLE);
        *low = low.max(probe.y - p.box_h());
        braking += 1;
        if !probe.grounded || probe.dead {
            break;
        }
    }
    // Where braking ends: its column on the landing's row, or on a level
    // with slopes (where braking may change rows) the cell it stands on.
    let mut rest = Cell::new(probe.x.floor() as i32, landed.row);
    if !Active::of(tiles).flat_ground()
        && let Some(c) = probe.standing_cell()
    {
        rest = c;
    }
    let side = |dc: i32| Cell::new(rest.col + dc, rest.row);
    let target = [rest, landed, side(-1), side(1)]
        .into_iter()
        .find(|&c| standable(c))?;
    Some((target, braking))
}

/// The settle phase in a frame: drives the grounded `body` to rest on
/// `target`'s centre, then [`SETTLE_SLACK`] idle ticks, appending the
/// inputs to `tape`. False when it cannot.
pub(crate) fn settle<T: Tiles + ?Sized>(
    tiles: &T,
    p: &Physics,
    body: &mut Body,
    target: Cell,
    tape: &mut Vec<Input>,
) -> bool {
    let mut low = f64::NEG_INFINITY;
    settle_low(tiles, p, body, target, tape, &mut low)
}

/// [`settle`], raising `low` to the largest `y - h` a step reaches.
pub(super) fn settle_low<T: Tiles + ?Sized>(
    tiles: &T,
    p: &Physics,
    body: &mut Body,
    target: Cell,
    tape: &mut Vec<Input>,
    low: &mut f64,
) -> bool {
    let target_x = f64::from(target.col) + 0.5;
    let mut done = false;
    let limit = settle_limit(p);
    for i in 0..limit {
        if too_fast_to_stop(body, p, limit - i) {
            return false;
        }
        match settle_input(body, target_x, p) {
            None => {
                done = true;
                break;
            }
            Some(input) => {
                body.step(tiles, p, input);
                *low = low.max(body.y - p.box_h());
                tape.push(input);
                if body.dead || !body.grounded {
                    return false;
                }
            }
        }
    }
    if !done {
        return false;
    }
    for _ in 0..SETTLE_SLACK {
        body.step(tiles, p, Input::IDLE);
        *low = low.max(body.y - p.box_h());
        tape.push(Input::IDLE);
    }
    body.stands_on(target)
}
