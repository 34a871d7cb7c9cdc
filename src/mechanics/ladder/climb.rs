//! The climb family (levels with ladders, `PHYSICS.md` "Ladders"): from a
//! standing cell whose feet tile is a `Ladder` (standing at a ladder's
//! foot, or on the ground inside a ladder's column) or that stands on a
//! ladder top:
//! - **up** (feet tile a `Ladder`): hold `up` until the body stands again
//!   (on the ladder's top, or wherever it ends);
//! - **down** (the tile under the feet a `Ladder`): hold `down` until it
//!   stands again (off the ladder's bottom onto the ground, or falling
//!   from its end);
//! - **off sideways** (as up): hold `up` for the ticks of `n` rows
//!   (`ceil(n / (climb_speed*dt))`, `n` = 1 to the ladder's height above
//!   the feet, at most [`RUNGS`]), then, still climbing, press and hold the
//!   jump moving `d` (left, right) until the body lands;
//! - **off sideways going down** (as down): the same, holding `down` for
//!   the ticks of `n` rows, `n` = 1 to the ladder's height below the feet
//!   (at most [`RUNGS`]).
//!
//! - **catch** (a ladder tile within 3 columns, 4 rows above to 1 below):
//!   move left or right holding `up`, walking (for at most the ticks of 3
//!   columns at run speed before leaving the ground) or with the jump held,
//!   and once climbing hold `up` alone until the body stands again; a
//!   program that lands without having climbed gives no link;
//! - **catch and jump off**: the same catches, but on the tick the body is
//!   first seen climbing hold `up` alone (releasing the jump), then press
//!   and hold the jump moving `e` (left, right) until the body lands.
//!
//! Each is performed on the body and ends like every link: the landing's
//! rest cell, settled on. A program ends without a link when the body
//! stands after a tick (other than the one it lands on: it never grabbed
//! the ladder), or stops climbing before its jump.

use crate::level::{Cell, Tile};
use crate::mechanics::LinkKind;
use crate::mechanics::seam::Driver;
use crate::physics::{Body, Input, Physics};

/// The most rows a sideways jump-off climbs (up or down) first: a body can
/// leave a ladder at any rung, up to this many from where it got on.
const RUNGS: usize = 64;

/// Programs tried from a cell where climbing can start or a ladder is near.
pub(super) fn programs(_: &Physics) -> usize {
    2 + 2 * 2 * RUNGS + 4 + 8
}

/// Columns each side of a cell within which a ladder is caught.
const CATCH_COLS: i32 = 3;
/// Rows above a cell within which a ladder is caught (and one below).
const CATCH_ROWS: i32 = 4;

/// The cells (relative to a standing cell) whose ladders the catching
/// programs try for.
fn catch_box() -> impl Iterator<Item = (i32, i32)> {
    (-CATCH_ROWS..=1).flat_map(|dr| (-CATCH_COLS..=CATCH_COLS).map(move |dc| (dc, dr)))
}

/// Ticks of climbing `rows` rows at `climb_speed` (at least one).
fn row_ticks(rows: usize, climb_speed: f64, dt: f64) -> usize {
    ((rows as f64 / (climb_speed * dt).max(1e-9)).ceil() as usize).max(1)
}

const UP: Input = Input::IDLE.with_up(true);
const DOWN: Input = Input::new(0, false, true);

pub(super) fn generate(drive: &mut dyn Driver) {
    let from = drive.from();
    let p = drive.physics().clone();
    let ladder = |c: Cell| drive.tile(c) == Some(Tile::LADDER);
    // Climbing up starts where the feet tile is a ladder, down where the
    // tile under it is.
    let (up, down) = (ladder(from), ladder(Cell::new(from.col, from.row + 1)));
    // The rungs to jump off at: the ladder's tiles from the feet up (going
    // up), or from under the feet down (going down).
    let height = |row: i32, step: i32| {
        (0..RUNGS as i32)
            .take_while(|&i| ladder(Cell::new(from.col, row + step * i)))
            .count()
    };
    let rungs = (height(from.row, -1), height(from.row + 1, 1));
    // Catching a ladder nearby: a ladder tile within CATCH_COLS columns and
    // CATCH_ROWS rows above to one row below (every cell of the box read).
    let mut near = false;
    for (dc, dr) in catch_box() {
        near |= ladder(Cell::new(from.col + dc, from.row + dr));
    }
    if near {
        catches(drive, &p);
    }
    // A program goes on while the body is off the ground: a tick that
    // leaves it standing where it started did not grab the ladder.
    let off = |t: usize, b: &Body| t == 0 || !b.grounded;
    for (start, input) in [(up, UP), (down, DOWN)] {
        if start && drive.fly(&mut |t, b| off(t, b).then_some(input)) {
            drive.offer(LinkKind::CLIMB);
        }
    }
    jump_offs(drive, &p, UP, rungs.0);
    jump_offs(drive, &p, DOWN, rungs.1);
}

/// The catches of a nearby ladder: moving `d` holding `up`, walking or
/// jumping; once climbing, up it (`off` `None`) or off it with a jump
/// moving `e` (`off` `Some(e)`).
fn catches(drive: &mut dyn Driver, p: &Physics) {
    let walk_limit = (f64::from(CATCH_COLS) / (p.run_speed * p.dt).max(1e-6)).ceil() as usize + 2;
    for d in [-1i8, 1] {
        for jump in [false, true] {
            for off in [None, Some(-1i8), Some(1)] {
                // The tick the body was first seen climbing.
                let mut caught: Option<usize> = None;
                let mut program = |t: usize, b: &Body| {
                    if let (Some(c), Some(e)) = (caught, off)
                        && t > c
                    {
                        // Off the ladder: press (the tick after the catch
                        // released it) and hold the jump.
                        return Some(Input::new(e, true, false));
                    }
                    if b.climbing {
                        caught.get_or_insert(t);
                        Some(UP)
                    } else if t > 0 && b.grounded && (jump || t > walk_limit) {
                        None
                    } else {
                        Some(Input::new(d, jump, false).with_up(true))
                    }
                };
                if drive.fly(&mut program) && caught.is_some() {
                    drive.offer(LinkKind::CLIMB);
                }
            }
        }
    }
}

/// The sideways jump-offs after climbing 1 to `rows` rows holding `climb`.
fn jump_offs(drive: &mut dyn Driver, p: &Physics, climb: Input, rows: usize) {
    let off = |t: usize, b: &Body| t == 0 || !b.grounded;
    for rows in 1..=rows {
        let k = row_ticks(rows, p.climb_speed, p.dt);
        for d in [-1i8, 1] {
            let mut program = |t: usize, b: &Body| match t.cmp(&k) {
                _ if !off(t, b) => None,
                std::cmp::Ordering::Less => Some(climb),
                std::cmp::Ordering::Equal if !b.climbing => None,
                _ => Some(Input::new(d, true, false)),
            };
            if drive.fly(&mut program) {
                drive.offer(LinkKind::CLIMB);
            }
        }
    }
}
