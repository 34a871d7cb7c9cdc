//! The climb programs of a model that climbs ladders, on levels with
//! `Ladder` tiles: measured on the model ([`Rungs`]), tried from the cells
//! near a ladder, and performed on the model's own step function.
//!
//! From a standing cell `(c, r)`:
//! - **up**, when `(c, r)` is a ladder: hold `up` until the body stands
//!   again (on the ladder's top, or wherever the climb ends);
//! - **down**, when `(c, r + 1)` is a ladder: hold `down` until it stands
//!   again;
//! - **off**, as up (or down): hold `up` (`down`) for the ticks the model
//!   takes to climb `n` rows (`n` = 1 to the ladder's height above the
//!   feet, or below them, at most [`RUNGS`]), then, still climbing, hold
//!   the jump moving `d` (left, right) until the body stands again;
//! - **catch**, when a ladder tile is within 3 columns and from 4 rows
//!   above to 1 below: move `d` (left, right) holding `up`, walking or with
//!   the jump held, until the body climbs; then hold `up` alone until it
//!   stands again, or hold `up` alone one tick and then the jump moving
//!   `e` (left, right) until it stands again. A catch that stands again
//!   without having climbed gives no link.
//!
//! Every climb program is a link of kind `climb`, settled on the cell
//! braking brings it to as the other programs are. A model reports its
//! climbing with [`BodyModel::climbing`]: one that never does in the
//! probe gets no climb programs.

use super::perform::{GROUND_LIMIT, Run, landed, tick};
use crate::level::{Cell, Level, Tile};
use crate::model::BodyModel;
use crate::physics::Input;

/// The most rows an off program climbs first.
pub(crate) const RUNGS: usize = 64;
/// The most ticks a climb program may take before it stands again: a
/// climb is not cut short where a flight would be.
pub(crate) const CLIMB_LIMIT: usize = 4_000;
/// Columns each side of a cell within which a ladder is caught.
pub(crate) const CATCH_COLS: i32 = 3;
/// Rows above a cell within which a ladder is caught (and one below).
const CATCH_ROWS: i32 = 4;

/// A climb program (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Climb {
    /// Hold `up` (or `down`) until standing again.
    Whole { up: bool },
    /// Hold `up` (or `down`) for `ticks`, then jump moving `dir`.
    Off { up: bool, ticks: usize, dir: i8 },
    /// Move `dir` holding `up` (and the jump when `jump`) until climbing;
    /// then `up` until standing again, or with `off` one tick of `up` and
    /// then the jump moving `off`.
    Catch {
        dir: i8,
        jump: bool,
        off: Option<i8>,
    },
}

/// How the model climbs: `up[n - 1]` (`down[n - 1]`) is the ticks of
/// holding `up` (`down`) until the feet are `n` rows higher (lower),
/// measured on a ladder [`RUNGS`] rows high.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rungs {
    pub up: Vec<usize>,
    pub down: Vec<usize>,
}

impl Rungs {
    /// Measures `model` on a tall ladder over a floor: `None` when it
    /// never climbs it.
    pub fn of<M: BodyModel>(model: &M) -> Option<Self> {
        let level = ladder_level();
        let h = level.height() as i32;
        let up = measure(model, &level, Cell::new(4, h - 2), climb_input(true), -1.0);
        let down = measure(model, &level, Cell::new(4, 0), climb_input(false), 1.0);
        (!up.is_empty()).then_some(Self { up, down })
    }

    /// The climb programs from `from` on `level`, in a fixed order.
    pub fn programs(&self, level: &Level, from: Cell) -> Vec<Climb> {
        let ladder = |c: i32, r: i32| level.get(Cell::new(c, r)) == Some(Tile::LADDER);
        let (c, r) = (from.col, from.row);
        let mut out = Vec::new();
        for (up, table, first, step) in [(true, &self.up, r, -1), (false, &self.down, r + 1, 1)] {
            if !ladder(c, first) {
                continue;
            }
            out.push(Climb::Whole { up });
            let height = (0..).take_while(|&k| ladder(c, first + k * step)).count();
            for &ticks in table.iter().take(height.min(RUNGS)) {
                for dir in [-1, 1] {
                    out.push(Climb::Off { up, ticks, dir });
                }
            }
        }
        let near =
            (-CATCH_ROWS..=1).any(|dr| (-CATCH_COLS..=CATCH_COLS).any(|dc| ladder(c + dc, r + dr)));
        if near {
            for dir in [-1, 1] {
                for jump in [false, true] {
                    for off in [None, Some(-1), Some(1)] {
                        out.push(Climb::Catch { dir, jump, off });
                    }
                }
            }
        }
        out
    }
}

/// Holding `up` or `down` on a ladder.
fn climb_input(up: bool) -> Input {
    if up {
        Input::IDLE.with_up(true)
    } else {
        Input::new(0, false, true)
    }
}

/// The ticks of holding `input` from standing on `cell` until the feet
/// have moved `n` rows (`sign` -1 up, 1 down), for `n` = 1 to [`RUNGS`]
/// while the body climbs; empty when it never climbs.
fn measure<M: BodyModel>(
    model: &M,
    level: &Level,
    cell: Cell,
    input: Input,
    sign: f64,
) -> Vec<usize> {
    let mut s = model.start(level, cell);
    let y0 = model.feet(&s)[1];
    let mut out = Vec::new();
    let mut climbed = false;
    for t in 1..=CLIMB_LIMIT {
        model.step(level, &mut s, input);
        if model.dead(&s) {
            break;
        }
        climbed |= model.climbing(&s);
        let moved = (model.feet(&s)[1] - y0) * sign;
        while out.len() < RUNGS && moved >= (out.len() + 1) as f64 - 1e-9 {
            out.push(t);
        }
        let stopped = if climbed {
            !model.climbing(&s)
        } else {
            t >= GROUND_LIMIT
        };
        if out.len() == RUNGS || stopped {
            break;
        }
    }
    if climbed { out } else { Vec::new() }
}

/// A floor 9 columns wide under a ladder in column 4 from row 1 to the
/// floor, [`RUNGS`] + 2 rows high.
fn ladder_level() -> Level {
    let (w, h) = (9, RUNGS + 4);
    let mut tiles = vec![Tile::EMPTY; w * h];
    tiles[w * (h - 1)..].fill(Tile::SOLID);
    for row in 1..h - 1 {
        tiles[row * w + 4] = Tile::LADDER;
    }
    Level::new(w, h, tiles).expect("a fixed, valid size")
}

/// Performs climb `c` from `r` until the body stands again: `false` when
/// it dies, never climbs (a catch), stops climbing before its jump, or
/// takes more than [`CLIMB_LIMIT`] ticks.
pub(crate) fn fly<M: BodyModel>(m: &M, level: &Level, r: &mut Run<M::State>, c: Climb) -> bool {
    match c {
        Climb::Whole { up } => hold(m, level, r, climb_input(up)),
        Climb::Off { up, ticks, dir } => {
            let input = climb_input(up);
            for _ in 0..ticks {
                if !tick(m, level, r, input) || landed(m, r) {
                    return false;
                }
            }
            m.climbing(&r.state) && hold(m, level, r, Input::new(dir, true, false))
        }
        Climb::Catch { dir, jump, off } => {
            catch(m, level, r, Input::new(dir, jump, false).with_up(true))
                && match off {
                    None => hold(m, level, r, climb_input(true)),
                    Some(e) => {
                        tick(m, level, r, climb_input(true))
                            && !landed(m, r)
                            && hold(m, level, r, Input::new(e, true, false))
                    }
                }
        }
    }
}

/// Holds `input` until the body first climbs: `false` when it stands
/// again first, dies, or walks [`GROUND_LIMIT`] ticks without leaving the
/// ground.
fn catch<M: BodyModel>(m: &M, level: &Level, r: &mut Run<M::State>, input: Input) -> bool {
    while r.tape.len() < CLIMB_LIMIT {
        if !tick(m, level, r, input) || landed(m, r) {
            return false;
        }
        if m.climbing(&r.state) {
            return true;
        }
        if !r.airborne && r.tape.len() >= GROUND_LIMIT {
            return false;
        }
    }
    false
}

/// Holds `input` until the body stands again after leaving the ground
/// (climbing counts as off it).
fn hold<M: BodyModel>(m: &M, level: &Level, r: &mut Run<M::State>, input: Input) -> bool {
    while r.tape.len() < CLIMB_LIMIT {
        if !tick(m, level, r, input) {
            return false;
        }
        if landed(m, r) {
            return true;
        }
        if !r.airborne && r.tape.len() >= GROUND_LIMIT {
            return false;
        }
    }
    false
}
