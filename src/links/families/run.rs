//! Run links: along the ground to cells 1, 2, 3, 4, 6, 8, ... columns away.
//! On a level with slopes the ground may step a row up or down from one
//! column to the next ([`surface`]): runs go up and down slopes.
//!
//! The whole link is the settle controller aimed at the target's centre, so
//! the body accelerates, cruises and brakes to a stop there. Distances grow
//! geometrically, which keeps the link count at O(n log n) per surface while
//! letting long runs be done in one go instead of stop-and-go steps.

use super::family::Engine;
use super::flat_runs::{DISTANCES, FlatRun};
use super::jump::templates::rules_of;
use super::start::Start;
use crate::classify::Classification;
use crate::level::{Cell, Level, Tile};
use crate::links::best::Best;
use crate::links::cache::WorkerGuard;
use crate::links::options::Link;
use crate::links::sim::Sim;
use crate::mechanics::Active;
use crate::mechanics::LinkKind;
use crate::mechanics::seam::KindSpec;
use crate::physics::{EPS, Frame, Physics};

/// Runs along the ground. Their tapes are computed once per physics
/// profile, on flat ground, and not counted as programs.
pub(super) const RUN: Engine = Engine {
    kinds: &[KindSpec {
        kind: LinkKind::RUN,
        name: "run",
        letter: 'r',
        colour: [200, 200, 200],
    }],
    applies: |_, _| true,
    programs: |_, _| 0,
    generate,
};

impl LinkKind {
    /// Running along the ground.
    pub const RUN: LinkKind = LinkKind::with_id(0);
}

/// Whether every tile a flat run over `cols` (in the frame of a cell on
/// `row`) looks up in `level` is of the class the flat world gives it:
/// floor under each column, and no solid or hazard tile in the rows of
/// the box. On a level with ladders or slopes, where the body also looks
/// at the feet's column from the row above the box to the row under the
/// floor, none of those rows may hold a ladder or a slope either.
fn flat_here(level: &Level, p: &Physics, from: Cell, cols: (i32, i32), frame: &Frame<'_>) -> bool {
    let top = (1.0 - p.box_h() + EPS).floor() as i32;
    let active = Active::of(level);
    let special = |t: Tile| active.special(t);
    // The box of every lookup below, noted before any of them is made.
    frame.note(Cell::new(from.col + cols.0, from.row + top - 1));
    frame.note(Cell::new(from.col + cols.1, from.row + 2));
    (cols.0..=cols.1).all(|dc| {
        let c = i64::from(from.col + dc);
        let at = |dr: i32| level.tile_at(c, i64::from(from.row + dr));
        matches!(at(1), Tile::SOLID | Tile::ONE_WAY)
            && (top..=0).all(|dr| !matches!(at(dr), Tile::SOLID | Tile::HAZARD))
            && (active.plain() || (top - 1..=2).all(|dr| !special(at(dr))))
    })
}

/// The standable cells along the ground from `from` toward `dir`, one per
/// column, up to the farthest run distance: the next column's cell on the
/// same row when it is standable, else (on a level with slopes) the one a
/// row up, else the one a row down; the walk ends at the first column with
/// none of them.
fn surface(
    slopes: bool,
    from: Cell,
    dir: i32,
    mut standable: impl FnMut(Cell) -> bool,
) -> Vec<Cell> {
    let rows: &[i32] = if slopes { &[0, -1, 1] } else { &[0] };
    let mut out = Vec::new();
    let mut at = from;
    while out.len() < DISTANCES[DISTANCES.len() - 1] as usize {
        let Some(next) = rows
            .iter()
            .map(|&dr| Cell::new(at.col + dir, at.row + dr))
            .find(|&c| standable(c))
        else {
            break;
        };
        out.push(next);
        at = next;
    }
    out
}

fn generate(s: &Start<'_>, worker: &mut WorkerGuard<'_>, best: &mut Best) {
    let runs = &worker.cache.templates(s.p, s.jumps, rules_of(s.level)).runs;
    let memo = Some(&worker.get().memo);
    let sim = || s.sim(memo);
    perform(runs, &sim, s.classes, s.from, best);
}

fn perform<'a>(
    runs: &[[Option<FlatRun>; 2]],
    sim: &impl Fn() -> Sim<'a>,
    classes: &Classification,
    from: Cell,
    best: &mut Best,
) {
    let (level, p, frame) = {
        let s = sim();
        (s.frame.level(), s.p, s.frame)
    };
    let active = Active::of(level);
    for (side, dir) in [-1, 1].into_iter().enumerate() {
        let ground = surface(!active.flat_ground(), from, dir, |c| {
            frame.note(c);
            classes.is_standable(c)
        });
        for (i, &k) in DISTANCES
            .iter()
            .enumerate()
            .take_while(|&(_, &k)| k as usize <= ground.len())
        {
            let to = ground[k as usize - 1];
            match &runs[i][side] {
                // (Not on a level with slopes, whose ground is not flat.)
                Some(run)
                    if active.flat_ground() && flat_here(level, p, from, run.cols, &frame) =>
                {
                    if best.could_improve(to, LinkKind::RUN, run.tape.len() as u32, 0) {
                        best.offer(Some(Link {
                            kind: LinkKind::RUN,
                            from,
                            to,
                            ticks: run.tape.len() as u32,
                            action_ticks: 0,
                            jumps: 0,
                            inputs: run.tape.clone(),
                        }));
                    }
                }
                // The real terrain differs from flat ground where this run
                // goes, or the run does not settle on flat ground (where a
                // wall might yet stop the body): performed in the terrain.
                _ => best.offer(sim().settle_to(to, LinkKind::RUN)),
            }
        }
    }
}
