//! What a template's body looks tiles up in: the assumed world a node is
//! grown in ([`World`], over the [`Known`] facts), and the real terrain
//! around a start cell ([`Walker`]) that grown branches learn from and the
//! walk checks against.

use std::cell::RefCell;

use super::node::{Outcome, Settle};
use super::{Check, FLOOR, Fact, Rules};
use crate::classify::Classification;
use crate::level::{Cell, Level, Tile};
use crate::links::best::FastMap;
use crate::links::landing::MemoSlot;
use crate::links::settle::settle;
use crate::physics::reads::Reads;
use crate::physics::{Physics, Tiles};

/// The class of a tile as the body tells them apart: its kind, with the
/// tiles it passes freely (the goal and spawn markers) as empty. Empty is
/// 0 and solid 1.
#[inline]
fn class(t: Tile) -> u8 {
    if t.is_free() { 0 } else { t.index() as u8 }
}

fn tile_of(class: u8) -> Tile {
    Tile::ALL
        .get(usize::from(class))
        .copied()
        .unwrap_or(Tile::EMPTY)
}

/// Facts known about the cells around a start: a dense window (most
/// lookups), the rest in a map.
#[derive(Clone)]
pub(super) struct Known {
    window: Vec<u8>,
    rest: FastMap<(i32, i32, bool), u8>,
}

/// The window's half-width and half-height in cells.
pub(super) const WX: i32 = 16;
const WY: i32 = 12;
const UNKNOWN: u8 = u8::MAX;

impl Known {
    pub(super) fn new() -> Self {
        Self {
            window: vec![UNKNOWN; (4 * WX * WY) as usize * 2],
            rest: FastMap::default(),
        }
    }

    #[inline]
    fn slot(dc: i32, dr: i32, standable: bool) -> Option<usize> {
        // One unsigned comparison per axis (a negative offset wraps high).
        let (x, y) = (dc.wrapping_add(WX) as u32, dr.wrapping_add(WY) as u32);
        (x < 2 * WX as u32 && y < 2 * WY as u32)
            .then(|| (((y * 2 * WX as u32 + x) as usize) << 1) | usize::from(standable))
    }

    #[inline]
    fn get(&self, dc: i32, dr: i32, standable: bool) -> Option<u8> {
        match Self::slot(dc, dr, standable) {
            Some(i) => Some(self.window[i]).filter(|&c| c != UNKNOWN),
            None => self.rest.get(&(dc, dr, standable)).copied(),
        }
    }

    pub(super) fn insert(&mut self, f: &Fact) {
        match Self::slot(f.dc, f.dr, f.standable) {
            Some(i) => self.window[i] = f.class,
            None => {
                self.rest.insert((f.dc, f.dr, f.standable), f.class);
            }
        }
    }
}

/// The world a node is simulated in: known facts, else a real cell's
/// terrain (grown branches) or the floor under the start and nothing (the
/// base trees); every first use of a cell becomes a check.
pub(super) struct World<'r> {
    pub(super) known: RefCell<Known>,
    pub(super) checks: RefCell<Vec<Check>>,
    pub(super) step: std::cell::Cell<u32>,
    /// The real terrain around a start cell, when a branch is grown for
    /// it; `None` for the assumed world of the base trees.
    pub(super) real: Option<&'r Walker<'r>>,
    /// The rules the body takes here (those of the templates).
    pub(super) rules: Rules,
}

impl<'r> World<'r> {
    pub(super) fn new(known: Known, real: Option<&'r Walker<'r>>, rules: Rules) -> Self {
        Self {
            known: RefCell::new(known),
            checks: RefCell::new(Vec::with_capacity(16)),
            step: std::cell::Cell::new(0),
            real,
            rules,
        }
    }

    /// The class of a cell: known already (most lookups), or learned now.
    #[inline]
    pub(super) fn fact(&self, dc: i32, dr: i32, standable: bool) -> u8 {
        if let Some(c) = self.known.borrow().get(dc, dr, standable) {
            return c;
        }
        self.learn(dc, dr, standable)
    }

    /// [`World::fact`] for a cell not known yet.
    #[inline(never)]
    fn learn(&self, dc: i32, dr: i32, standable: bool) -> u8 {
        let mut known = self.known.borrow_mut();
        let cell = Fact {
            dc,
            dr,
            standable,
            class: 0,
        };
        let class = match self.real {
            Some(w) => w.real(&cell),
            // Assume standable, and the floor under the start.
            None => u8::from(standable || (dr == 1 && dc.abs() <= FLOOR)),
        };
        let fact = Fact { class, ..cell };
        known.insert(&fact);
        self.checks.borrow_mut().push(Check {
            step: self.step.get(),
            fact,
        });
        class
    }
}

impl Tiles for World<'_> {
    #[inline]
    fn tile_at(&self, col: i64, row: i64) -> Tile {
        let (Ok(c), Ok(r)) = (i32::try_from(col), i32::try_from(row)) else {
            return Tile::SOLID;
        };
        tile_of(self.fact(c, r, false))
    }
    fn rows(&self) -> f64 {
        self.real.map_or(f64::INFINITY, Walker::rows)
    }
    fn holds(&self, tile: Tile) -> bool {
        self.rules.may_hold(tile)
    }
}

/// The settle of a landing in `world`, its lookups checked at
/// [`SETTLE`](super::SETTLE).
pub(super) fn settle_in(world: &World<'_>, p: &Physics, o: &Outcome) -> Settle {
    let mut body = o.landing;
    let mut tape = Vec::with_capacity(32);
    if settle(world, p, &mut body, o.to, &mut tape) {
        Settle::Done(tape)
    } else {
        Settle::Failed
    }
}

/// A real start cell the trees are walked for: its terrain, looked up
/// here, and the walk itself (`walk.rs`).
pub(super) struct Walker<'a> {
    pub(super) level: &'a Level,
    pub(super) p: &'a Physics,
    pub(super) classes: &'a Classification,
    pub(super) from: Cell,
    /// Where the build records the cells the walk looks up.
    pub(super) reads: Option<&'a Reads>,
    /// The worker's landing memo, for the links simulated exactly.
    pub(super) memo: &'a MemoSlot,
    /// The first frame row below the level.
    pub(super) below: i64,
}

impl Walker<'_> {
    #[inline]
    pub(super) fn real(&self, f: &Fact) -> u8 {
        let (c, r) = (self.from.col + f.dc, self.from.row + f.dr);
        if let Some(reads) = self.reads {
            reads.note(i64::from(c), i64::from(r));
        }
        if f.standable {
            return u8::from(self.classes.is_standable(Cell::new(c, r)));
        }
        class(self.level.tile_at(i64::from(c), i64::from(r)))
    }

    /// The level's bottom in the frame, as [`crate::physics::Frame`] has it.
    pub(super) fn rows(&self) -> f64 {
        if self.level.wrap().y {
            f64::INFINITY
        } else {
            self.below as f64
        }
    }

    /// A cell of the level from a cell of the frame.
    pub(super) fn at(&self, c: Cell) -> Cell {
        Cell::new(self.from.col + c.col, self.from.row + c.row)
    }
}
