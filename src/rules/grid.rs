//! The grid a level is built on: the kind of each cell, the level's extent
//! in map cells, and layers of another grid (LDtk layers of another size or
//! offset) laid over the map's cells.
use std::collections::{BTreeMap, HashMap};

use super::doc::Placed;
use super::kind::TileKind;
use super::raster::Budget;

/// A cell of a counted layer: its kind, column and row in map cells.
pub(super) type KindCell = (TileKind, i64, i64);

/// Per map cell, the fraction of it that cells of a layer of another grid
/// cover, per kind.
pub(super) type Coverage = HashMap<(i64, i64), BTreeMap<TileKind, f64>>;

/// The grid under construction: kinds per cell and its origin in map cells.
pub(super) struct Grid {
    pub(super) width: usize,
    pub(super) height: usize,
    /// The level's first cell, in map cells.
    pub(super) origin: (i64, i64),
    /// Row-major, `width * height`.
    pub(super) kinds: Vec<TileKind>,
}

impl Grid {
    /// An empty grid of `width x height` cells whose first cell is map cell
    /// `origin`.
    pub(super) fn new(origin: (i64, i64), width: usize, height: usize) -> Self {
        Grid {
            width,
            height,
            origin,
            kinds: vec![TileKind::EMPTY; width * height],
        }
    }

    /// Marks map cell `(col, row)` with `kind` where it is stronger than the
    /// cell's kind so far (cells off the grid are ignored).
    pub(super) fn merge(&mut self, col: i64, row: i64, kind: TileKind) {
        let (c, r) = (col - self.origin.0, row - self.origin.1);
        if c >= 0 && r >= 0 && (c as u64) < self.width as u64 && (r as u64) < self.height as u64 {
            let k = &mut self.kinds[r as usize * self.width + c as usize];
            *k = (*k).max(kind);
        }
    }
}

/// Adds the fraction of each map cell (`tw x th` pixels) that a cell of
/// another grid (`g`: its size and offset in pixels) covers, per kind.
pub(super) fn cover(
    coverage: &mut Coverage,
    (cw, ch, ox, oy): (f64, f64, f64, f64),
    (tw, th): (f64, f64),
    p: &Placed,
    kind: TileKind,
    budget: &mut Budget,
) -> Result<(), String> {
    let (x0, y0) = (ox + f64::from(p.col) * cw, oy + f64::from(p.row) * ch);
    let (x1, y1) = (x0 + cw, y0 + ch);
    let (c0, c1) = ((x0 / tw).floor() as i64, (x1 / tw).ceil() as i64);
    let (r0, r1) = ((y0 / th).floor() as i64, (y1 / th).ceil() as i64);
    budget.spend(((c1 - c0).max(0) as u64).saturating_mul((r1 - r0).max(0) as u64))?;
    for r in r0..r1 {
        for c in c0..c1 {
            let ix = (x1.min((c + 1) as f64 * tw) - x0.max(c as f64 * tw)).max(0.0);
            let iy = (y1.min((r + 1) as f64 * th) - y0.max(r as f64 * th)).max(0.0);
            if ix * iy > 0.0 {
                *coverage.entry((c, r)).or_default().entry(kind).or_default() +=
                    ix * iy / (tw * th);
            }
        }
    }
    Ok(())
}

/// The level's extent, `(origin, width, height)`: the map's own size
/// (`size`), else (an infinite map) the bounding box of the cells; `None`
/// when neither says.
pub(super) fn extent(
    size: Option<(usize, usize)>,
    cells: &[KindCell],
) -> Option<((i64, i64), usize, usize)> {
    match size {
        Some((w, h)) => Some(((0, 0), w, h)),
        None => {
            let &(_, c, r) = cells.first()?;
            let (mut c0, mut r0, mut c1, mut r1) = (c, r, c, r);
            for &(_, c, r) in cells {
                c0 = c0.min(c);
                r0 = r0.min(r);
                c1 = c1.max(c);
                r1 = r1.max(r);
            }
            let (w, h) = ((c1 - c0 + 1) as usize, (r1 - r0 + 1) as usize);
            Some(((c0, r0), w, h))
        }
    }
}

/// Moves a layer of another grid's coverage into `cells`, by map cell: a
/// map cell takes the strongest kind whose cells cover at least half of it.
pub(super) fn covered_cells(coverage: &mut Coverage, cells: &mut Vec<KindCell>) {
    let mut covered: Vec<_> = coverage.drain().collect();
    covered.sort_unstable_by_key(|(cell, _)| *cell);
    for ((c, r), kinds) in covered {
        if let Some((k, _)) = kinds.iter().rev().find(|(_, a)| **a >= 0.5 - 1e-9) {
            cells.push((*k, c, r));
        }
    }
}
