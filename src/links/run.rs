//! Run links: along the ground to cells 1, 2, 3, 4, 6, 8, ... columns away.
//!
//! The whole link is the settle controller aimed at the target's centre, so
//! the body accelerates, cruises and brakes to a stop there. Distances grow
//! geometrically, which keeps the link count at O(n log n) per surface while
//! letting long runs be done in one go instead of stop-and-go steps.

use super::{Best, Link, LinkKind, settle};
use crate::classify::Classification;
use crate::level::{Cell, Tile};
use crate::physics::{Body, Input, Physics, Tiles};

/// Column distances tried in each direction.
const DISTANCES: [i32; 14] = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128];

/// A floor under row 0 and nothing else.
struct Flat;

impl Tiles for Flat {
    fn tile_at(&self, _col: i64, row: i64) -> Tile {
        if row == 1 { Tile::Solid } else { Tile::Empty }
    }
    fn rows(&self) -> f64 {
        f64::INFINITY
    }
}

/// The run tapes on flat ground, per distance of [`DISTANCES`]: for
/// leftward and rightward runs.
///
/// A run over standable cells is this same computation: the box only ever
/// overlaps the standable cells' clearance (free of solids and hazards)
/// and their floors (solid or one-way, which a grounded body not holding
/// `down` treats alike), so every lookup gives what the flat world gives.
pub(super) fn flat_tapes(p: &Physics) -> Vec<[Option<Vec<Input>>; 2]> {
    DISTANCES
        .iter()
        .map(|&k| {
            [-1, 1].map(|dir| {
                let mut body = Body::standing(Cell::new(0, 0), p);
                let mut tape = Vec::new();
                settle(&Flat, p, &mut body, Cell::new(dir * k, 0), &mut tape).then_some(tape)
            })
        })
        .collect()
}

pub(super) fn generate(
    tapes: &[[Option<Vec<Input>>; 2]],
    classes: &Classification,
    from: Cell,
    best: &mut Best,
) {
    for (side, dir) in [-1, 1].into_iter().enumerate() {
        // Length of the contiguous standable run on this row.
        let mut reach = 0;
        while reach < DISTANCES[DISTANCES.len() - 1]
            && classes.is_standable(Cell::new(from.col + dir * (reach + 1), from.row))
        {
            reach += 1;
        }
        for (i, &k) in DISTANCES
            .iter()
            .enumerate()
            .take_while(|&(_, &k)| k <= reach)
        {
            let Some(tape) = &tapes[i][side] else {
                continue;
            };
            let to = Cell::new(from.col + dir * k, from.row);
            if best.could_improve(to, LinkKind::Run, tape.len() as u32, 0) {
                best.offer(Some(Link {
                    kind: LinkKind::Run,
                    from,
                    to,
                    ticks: tape.len() as u32,
                    action_ticks: 0,
                    jumps: 0,
                    inputs: tape.clone(),
                }));
            }
        }
    }
}
