//! Run tapes on flat ground, computed once per physics profile: a run in a
//! real level is the same computation wherever the terrain it looks at is
//! flat ground's (the run family checks that and simulates the run in the
//! terrain where it is not).

use crate::level::{Cell, Tile};
use crate::links::settle::settle;
use crate::mechanics::Active;
use crate::physics::{Body, EPS, Input, Physics, Tiles};

/// Column distances tried in each direction.
pub(super) const DISTANCES: [i32; 14] = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128];

/// A floor under row 0 and nothing else.
struct Flat;

impl Tiles for Flat {
    fn tile_at(&self, _col: i64, row: i64) -> Tile {
        if row == 1 { Tile::SOLID } else { Tile::EMPTY }
    }
    fn rows(&self) -> f64 {
        f64::INFINITY
    }
    fn holds(&self, tile: Tile) -> bool {
        Active::default().may_hold(tile)
    }
}

/// A run tape performed on flat ground, and the span of columns, relative
/// to its start, that the body's box overlapped along the way.
pub(crate) struct FlatRun {
    pub(crate) tape: Vec<Input>,
    /// The first and last column (in the start's frame) the box overlaps
    /// at any tick.
    pub(super) cols: (i32, i32),
}

/// The run tapes on flat ground, per distance of [`DISTANCES`]: for
/// leftward and rightward runs.
///
/// A run in a real level is this same computation when every tile its
/// box can look up is of the same class: the floor row under every column
/// the box overlapped is solid or one-way (which a grounded body not
/// holding `down` treats alike), and the rows the box spans hold no solid
/// or hazard tile there (a one-way tile above the feet never stops a body
/// whose feet are below its top). Standable cells alone do not promise
/// that: a body wider than a tile stands on a cell over a one-tile gap,
/// and a settle may pass the target's centre. The run family (`run.rs`) checks the
/// span and simulates the run in the real terrain where it differs.
pub(crate) fn flat_tapes(p: &Physics) -> Vec<[Option<FlatRun>; 2]> {
    DISTANCES
        .iter()
        .map(|&k| {
            [-1, 1].map(|dir| {
                let mut body = Body::standing(Cell::new(0, 0), p);
                let mut tape = Vec::new();
                if !settle(&Flat, p, &mut body, Cell::new(dir * k, 0), &mut tape) {
                    return None;
                }
                // Performed again to see every position the box takes.
                let mut body = Body::standing(Cell::new(0, 0), p);
                let (mut lo, mut hi) = (body.x, body.x);
                for &input in &tape {
                    body.step(&Flat, p, input);
                    (lo, hi) = (lo.min(body.x), hi.max(body.x));
                }
                let cols = (
                    (lo - p.half_w() + EPS).floor() as i32,
                    (hi + p.half_w() - EPS).floor() as i32,
                );
                Some(FlatRun { tape, cols })
            })
        })
        .collect()
}
