//! A naive reference link builder: the peer `platnav bench` and the
//! criterion benches measure the real builder against, and the oracle
//! `tests/naive_reference.rs` checks it with.
//!
//! It generates the same program families as `NavMap::build` (the module
//! docs of `src/links/families/` and of the mechanics' families, such as
//! `src/mechanics/ladder/climb.rs`, list them): the engine's families in
//! `families/`, each mechanic's twin in `mechanics/`; with the
//! same leaf programs, settle controller, landing-cell choice,
//! [`SETTLE_SLACK`] idle ticks, jump-count rule and dominance (best link per
//! `(to, kind)`: fewest ticks, then fewest jumps, the first offered winning
//! a tie), but the obvious way:
//!
//! - every leaf program is simulated from tick 0 on a fresh body, so
//!   programs that share a prefix (a run-up, a held jump, the flight before a
//!   steering switch) simulate it once each;
//! - every landing is settled, with no lower bound to skip settles that
//!   cannot beat the link already kept.
//!
//! The one shortcut kept is the fall family's: when walking one way never
//! leaves the ground, the other steering schedules of that direction (which
//! only differ in the air) are not tried.
//!
//! Like the real builder, a link is computed in the frame of the cell it
//! starts from ([`Frame`]): the body starts standing on the frame's `(0, 0)`
//! and frame cells are mapped back with [`Frame::to_level`].
//!
//! `model.rs` is the same for maps of any body model (`ModelMap`): its
//! programs performed one by one from scratch.
//!
//! `platforms.rs` is a second implementation of the body among moving
//! platforms (`PHYSICS.md`, "Moving platforms"), written from the text:
//! the oracle `tests/platform_twin.rs` steps beside `Body::step_moving`.
//!
//! `platform_programs.rs` is, on top of that twin, the platform programs
//! a timed search tries from a place (`PHYSICS.md`, "Paths in time
//! (moving platforms)"), written from the text: the oracle
//! `tests/naive_platforms.rs` compares them with
//! `platnav::search::timed::platform_programs`.
//!
//! Only the `platnav` crate's public API is used. The CLI's bench, the
//! criterion benches and the library's tests depend on this crate, so they
//! share one copy.

pub mod exhaustive;
mod families;
mod mechanics;
pub mod model;
pub mod platform_programs;
pub mod platforms;
mod sim;

use std::collections::HashMap;

use platnav::{
    Cell, Classification, Input, JumpVariety, Level, LinkKind, NavMap, Physics, physics::Frame,
};

use sim::{Best, Ctx};

/// A link found by the naive builder, in level coordinates.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NaiveLink {
    /// The standing cell it starts from.
    pub from: Cell,
    /// The standing cell it ends on.
    pub to: Cell,
    /// What kind of move it is.
    pub kind: LinkKind,
    /// Duration in ticks (the length of `inputs`).
    pub ticks: u32,
    /// Jump presses that took effect.
    pub jumps: u8,
    /// Ticks of the open-loop action phase.
    pub action_ticks: u32,
    /// The per-tick inputs, performed from standing on `from`.
    pub inputs: Vec<Input>,
}

/// The links of a real [`NavMap`], in the same form, for comparison. The
/// one place the benches, the CLI and the test read a map's links.
#[must_use]
pub fn links_of(map: &NavMap) -> Vec<NaiveLink> {
    map.links()
        .map(|l| NaiveLink {
            from: l.from,
            to: l.to,
            kind: l.kind,
            ticks: l.ticks,
            jumps: l.jumps,
            action_ticks: l.action_ticks,
            inputs: map.inputs(l.id).collect(),
        })
        .collect()
}

/// Every difference between two link sets, one line each: links only one
/// side has, and links of the same `(from, to, kind)` whose ticks, jumps,
/// action ticks or input tapes differ. Empty when the sets are equal.
#[must_use]
pub fn differences(naive: &[NaiveLink], real: &[NaiveLink]) -> Vec<String> {
    type Key = (Cell, Cell, LinkKind);
    let index = |v: &[NaiveLink]| -> HashMap<Key, NaiveLink> {
        v.iter()
            .map(|l| ((l.from, l.to, l.kind), l.clone()))
            .collect()
    };
    let (n, r) = (index(naive), index(real));
    let mut keys: Vec<Key> = n.keys().chain(r.keys()).copied().collect();
    keys.sort_unstable();
    keys.dedup();
    let show = |l: &NaiveLink| {
        format!(
            "{} ({},{})->({},{}) {} ticks ({} action), {} jumps",
            l.kind, l.from.col, l.from.row, l.to.col, l.to.row, l.ticks, l.action_ticks, l.jumps
        )
    };
    let mut out = Vec::new();
    for k in keys {
        match (n.get(&k), r.get(&k)) {
            (Some(a), None) => out.push(format!("only naive: {}", show(a))),
            (None, Some(b)) => out.push(format!("only real:  {}", show(b))),
            (Some(a), Some(b)) if a != b => {
                let what = if (a.ticks, a.jumps) != (b.ticks, b.jumps) {
                    "cost differs".to_string()
                } else {
                    let tick = a.inputs.iter().zip(&b.inputs).position(|(x, y)| x != y);
                    let at = |l: &NaiveLink, t: Option<usize>| {
                        t.and_then(|t| l.inputs.get(t))
                            .map_or_else(|| "-".to_string(), |i| format!("{:?}", i.to_triple()))
                    };
                    format!(
                        "tape differs from tick {} (naive {}, real {})",
                        tick.map_or_else(|| "-".to_string(), |t| t.to_string()),
                        at(a, tick),
                        at(b, tick)
                    )
                };
                out.push(format!("{what}: naive {} / real {}", show(a), show(b)));
            }
            _ => {}
        }
    }
    out
}

/// Where the body is simulated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coords {
    /// In the from-cell's [`Frame`], the body starting on its `(0, 0)`: how
    /// links are computed.
    Frame,
    /// In level coordinates, the body starting on the from-cell itself.
    /// Positions live on the grid of `PHYSICS.md`, so this gives the same
    /// links as [`Coords::Frame`] to the last bit.
    Level,
}

/// Every link of `level` for `physics`, cell by cell on one thread, in the
/// from-cells' frames.
#[must_use]
pub fn build(level: &Level, physics: &Physics) -> Vec<NaiveLink> {
    build_in(level, physics, Coords::Frame)
}

/// [`build`], simulating in `coords`.
#[must_use]
pub fn build_in(level: &Level, physics: &Physics, coords: Coords) -> Vec<NaiveLink> {
    build_with(level, physics, coords, JumpVariety::Full)
}

/// [`build_in`], trying the `jumps` set of jump programs.
#[must_use]
pub fn build_with(
    level: &Level,
    physics: &Physics,
    coords: Coords,
    jumps: JumpVariety,
) -> Vec<NaiveLink> {
    let classes = Classification::new(level, physics);
    let cells: Vec<Cell> = classes.standable_cells().collect();
    cells
        .into_iter()
        .flat_map(|from| links_from(level, physics, &classes, from, coords, jumps))
        .collect()
}

/// The links out of one standing cell, sorted by `(to, kind)`.
#[must_use]
pub fn links_from(
    level: &Level,
    p: &Physics,
    classes: &Classification,
    from: Cell,
    coords: Coords,
    jumps: JumpVariety,
) -> Vec<NaiveLink> {
    let (frame, start) = match coords {
        Coords::Frame => (Frame::new(level, from), Cell::new(0, 0)),
        Coords::Level => (Frame::new(level, Cell::new(0, 0)), from),
    };
    let ctx = Ctx {
        frame,
        start,
        p,
        classes,
        jumps,
    };
    let mut best = Best::default();
    families::run::run_links(&ctx, from, &mut best);
    families::fall::fall_links(&ctx, &mut best);
    families::fall::forgiving_links(&ctx, &mut best);
    families::jump::jump_links(&ctx, &mut best);
    if p.wall_jump.is_some() {
        families::wall_jump::wall_jump_links(&ctx, &mut best);
    }
    for twin in mechanics::TWINS {
        twin(&ctx, level, from, &mut best);
    }
    let mut v: Vec<NaiveLink> = best.0.into_values().collect();
    v.sort_by_key(|l| (l.to, l.kind));
    v
}
