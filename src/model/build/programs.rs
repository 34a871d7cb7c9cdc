//! The input programs a model's links are generated from, and the
//! measurements of the model they are scaled by.
//!
//! For every standing cell, with `A` the ticks a held jump takes to its
//! apex and `F` the ticks a run takes to its top speed (both measured on
//! the model, [`Probe`]):
//! - run: move `d` (left or right) until the body stands on the next
//!   column, then settle;
//! - walk off: move `d` until the body leaves the ground, then steer `s`
//!   (`d`, none or `-d`) until it lands;
//! - drop: hold down until the body leaves the ground (through a one-way
//!   top), then no input until it lands;
//! - jump: `r` ticks of `move = d` on the ground (`r` in 0, `F / 2`, `F`;
//!   only 0 for `d = 0`), then jump held for `h` ticks (2, 4, 7, 11, 16
//!   and `A`, those up to `A`) with `move = d`; at flight tick `k` (3, 8,
//!   `A / 2`, `A`, `1.5 A`, those up to `4 A`) or never, the steering
//!   switches to one of the model's other air inputs (move left, none or
//!   right, with down held or not).
//!
//! - double jump, when the probe finds that a second press in the air
//!   jumps again: the jump above with a run-up of none or all, held to
//!   `min(A, t2 - 1)`, pressed again at flight tick `t2` (`A / 2`, `A`,
//!   `1.5 A`) for `h2` ticks (4 or `A`), its steering switched at
//!   `t2 + A / 2` to each other air input, or never;
//! - hop: each jump above without a switch and with `d` not 0, then at
//!   once, from the tick after it lands, a jump with `d`, no run-up, held
//!   `h` ticks as above and no switch: a landing on a ledge too narrow
//!   (or a run too fast) to stop on, jumped on from.
//!
//! - edge take-offs (`edge.rs`): for `d` left and right, the same jump
//!   pressed in the last two ticks of a run `d` before the body would
//!   leave the ground, from where it stands or after backing up to the
//!   far edge first, each hold moving `d` or switching at each switch tick
//!   to moving `-d` or not moving;
//! - wall jumps (`wall.rs`), when the probe finds that a press of the jump
//!   against a wall lifts the body.
//!
//! On a level with ladders, a model that climbs them also gets the climb
//! programs of `climb.rs`, from the cells near a ladder.
//!
//! A program ends when the body stands again after leaving the ground
//! (for a hop, after its second jump); the settle (`perform.rs`) then
//! brings it to rest on a cell's middle.

use super::climb::Climb;
use super::edge::Edge;
use super::perform::GROUND_LIMIT;
use super::wall::{WallJump, wall_jumps};
use crate::level::{Cell, Level, Tile};
use crate::mechanics::LinkKind;
use crate::model::BodyModel;
use crate::physics::Input;

/// The longest a probe runs, in ticks.
const PROBE_TICKS: usize = 600;

/// What a model's programs are scaled by: measured on the model on open
/// ground.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Probe {
    /// Ticks from a held jump's press to its apex (0: the model does not
    /// jump).
    pub apex: usize,
    /// Ticks a run takes from rest to its top speed.
    pub full: usize,
    /// A second press in the air jumps again.
    pub air_jump: bool,
    /// A press against a wall lifts the body (`wall.rs`).
    pub wall_jump: bool,
    /// The ticks an edge take-off's walk may take (`edge.rs`): `full`,
    /// plus the ticks a tile takes at top speed, plus 1, at most the
    /// ground limit; 0 when the run never moves.
    pub walk: usize,
}

impl Probe {
    /// Measures `model` on a wide floor.
    pub fn of<M: BodyModel>(model: &M) -> Self {
        let level = open_ground();
        let cell = Cell::new(48, level.height() as i32 - 2);
        let mut s = model.start(&level, cell);
        let mut apex = 0;
        let mut left = false;
        for t in 1..=PROBE_TICKS {
            model.step(&level, &mut s, Input::new(0, true, false));
            let vy = model.velocity(&s)[1];
            left |= vy < 0.0;
            if left && vy >= 0.0 {
                apex = t;
                break;
            }
        }
        // The first tick the run reaches the fastest it goes.
        let mut s = model.start(&level, cell);
        let (mut full, mut top) = (0, 0.0);
        for t in 1..=PROBE_TICKS / 2 {
            model.step(&level, &mut s, Input::new(1, false, false));
            let vx = model.velocity(&s)[0];
            if vx > top {
                (full, top) = (t, vx);
            }
        }
        let air_jump = apex > 0 && jumps_again(model, &level, cell, apex);
        let walk = if top > 0.0 {
            let tile = (1.0 / (top * model.dt())).ceil();
            let w = full as f64 + tile + 1.0;
            if w >= GROUND_LIMIT as f64 {
                GROUND_LIMIT
            } else {
                w as usize
            }
        } else {
            0
        };
        Self {
            apex,
            full,
            air_jump,
            wall_jump: wall_jumps(model, apex),
            walk,
        }
    }
}

/// Whether jump held to the apex, released a tick and pressed again has
/// the body rising again within two ticks.
fn jumps_again<M: BodyModel>(model: &M, level: &Level, cell: Cell, apex: usize) -> bool {
    let mut s = model.start(level, cell);
    for t in 0..apex + 3 {
        // Released on the apex tick only.
        model.step(level, &mut s, Input::new(0, t != apex, false));
        if t > apex && model.velocity(&s)[1] < 0.0 {
            return true;
        }
    }
    false
}

/// A floor 96 columns wide under 64 rows of air.
fn open_ground() -> Level {
    let (w, h) = (96, 66);
    let mut tiles = vec![Tile::EMPTY; w * h];
    tiles[w * (h - 1)..].fill(Tile::SOLID);
    Level::new(w, h, tiles).expect("a fixed, valid size")
}

/// One program (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Program {
    /// Move `dir` to the next column.
    Run { dir: i8 },
    /// Move `dir` off the ground, then `steer`.
    WalkOff { dir: i8, steer: i8 },
    /// Hold down through the floor.
    Drop,
    /// A jump.
    Jump(Jump),
    /// A jump, then at once on landing another (`run_up` 0) in the same
    /// direction: over a ledge too narrow to stop on.
    Hop(Jump, Jump),
    /// A climb (`climb.rs`), tried only from cells near a ladder.
    Climb(Climb),
    /// A jump with wall jumps (`wall.rs`).
    Wall(WallJump),
    /// A jump pressed late in a run to a ledge (`edge.rs`).
    Edge(Edge),
}

/// A jump program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Jump {
    pub dir: i8,
    pub run_up: usize,
    pub hold: usize,
    /// At this flight tick, switch to this air input.
    pub switch: Option<(usize, Input)>,
    /// A second press: its first flight tick and how long it is held.
    pub again: Option<(usize, usize)>,
}

impl Jump {
    /// The input of tick `t`, or `None` when the run-up left the ground.
    pub fn input(&self, t: usize, standing: bool) -> Option<Input> {
        if t < self.run_up {
            return standing.then(|| Input::new(self.dir, false, false));
        }
        let ft = t - self.run_up;
        let mut input = match self.switch {
            Some((k, air)) if ft >= k => air,
            _ => Input::new(self.dir, false, false),
        };
        let again = self.again.is_some_and(|(t2, h2)| ft >= t2 && ft < t2 + h2);
        input.jump = ft < self.hold || again;
        Some(input)
    }
}

impl Program {
    /// The kind of the links it makes.
    pub fn kind(&self) -> LinkKind {
        match self {
            Program::Run { .. } => LinkKind::RUN,
            Program::WalkOff { .. } => LinkKind::FALL,
            Program::Drop => LinkKind::DROP,
            Program::Jump(j) if j.again.is_some() => LinkKind::DOUBLE_JUMP,
            Program::Jump(_) | Program::Hop(..) | Program::Edge(_) => LinkKind::JUMP,
            Program::Climb(_) => LinkKind::CLIMB,
            Program::Wall(_) => LinkKind::WALL_JUMP,
        }
    }
}

/// The candidate ticks up to `max`, at least 1, sorted and distinct.
fn ticks(candidates: impl IntoIterator<Item = usize>, max: usize) -> Vec<usize> {
    let mut v: Vec<usize> = candidates
        .into_iter()
        .filter(|&t| (1..=max).contains(&t))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The air inputs a jump's steering may switch to: move left, none or
/// right, with down held or not, as far as the model tells them apart.
fn air_inputs<M: BodyModel>(model: &M) -> Vec<Input> {
    let mut v = Vec::new();
    for i in model.inputs() {
        let air = Input::new(i.move_x, false, i.down);
        if !v.contains(&air) {
            v.push(air);
        }
    }
    v
}

/// Every program of `model`, measured by `probe`, in a fixed order.
pub(crate) fn programs<M: BodyModel>(model: &M, probe: Probe) -> Vec<Program> {
    let mut out = vec![Program::Drop];
    for dir in [-1i8, 1] {
        out.push(Program::Run { dir });
        for steer in [dir, 0, -dir] {
            out.push(Program::WalkOff { dir, steer });
        }
    }
    if probe.apex == 0 {
        return out;
    }
    let (apex, full) = (probe.apex, probe.full);
    let holds = ticks([2, 4, 7, 11, 16, apex], apex);
    let switches = ticks([3, 8, apex / 2, apex, apex + apex / 2], 4 * apex);
    let air = air_inputs(model);
    for dir in [-1i8, 0, 1] {
        let run_ups = if dir == 0 {
            vec![0]
        } else {
            let mut v = vec![0, full / 2, full];
            v.dedup();
            v
        };
        let own = Input::new(dir, false, false);
        for &run_up in &run_ups {
            for &hold in &holds {
                let base = Jump {
                    dir,
                    run_up,
                    hold,
                    switch: None,
                    again: None,
                };
                out.push(Program::Jump(base));
                if dir != 0 {
                    for &hold in &holds {
                        let next = Jump {
                            dir,
                            run_up: 0,
                            hold,
                            switch: None,
                            again: None,
                        };
                        out.push(Program::Hop(base, next));
                    }
                }
                for &k in &switches {
                    for &a in air.iter().filter(|&&a| a != own) {
                        out.push(Program::Jump(Jump {
                            switch: Some((k, a)),
                            ..base
                        }));
                    }
                }
            }
            if probe.air_jump {
                double_jumps(&mut out, (dir, run_up), probe, &air);
            }
        }
    }
    edge_take_offs(&mut out, probe, &holds, &switches);
    if probe.wall_jump {
        out.extend(super::wall::programs(probe).into_iter().map(Program::Wall));
    }
    out
}

/// The edge take-offs (see the module docs), grouped by direction,
/// back-up and earliness, each hold followed by its switches.
fn edge_take_offs(out: &mut Vec<Program>, probe: Probe, holds: &[usize], switches: &[usize]) {
    if probe.walk == 0 {
        return;
    }
    for dir in [-1i8, 1] {
        for back in [false, true] {
            for early in [0, 1] {
                let edge = |jump| {
                    Program::Edge(Edge {
                        walk: probe.walk,
                        back,
                        early,
                        jump,
                    })
                };
                for &hold in holds {
                    let jump = Jump {
                        dir,
                        run_up: 0,
                        hold,
                        switch: None,
                        again: None,
                    };
                    out.push(edge(jump));
                    for &k in switches {
                        for air in [Input::IDLE, Input::new(-dir, false, false)] {
                            out.push(edge(Jump {
                                switch: Some((k, air)),
                                ..jump
                            }));
                        }
                    }
                }
            }
        }
    }
}

/// The double jumps of `dir` after `run_up` (see the module docs).
fn double_jumps(out: &mut Vec<Program>, (dir, run_up): (i8, usize), probe: Probe, air: &[Input]) {
    let apex = probe.apex;
    if run_up == probe.full / 2 && dir != 0 && probe.full / 2 != 0 {
        return;
    }
    let own = Input::new(dir, false, false);
    for t2 in ticks([apex / 2, apex, apex + apex / 2], 3 * apex) {
        for h2 in ticks([4, apex], apex) {
            let base = Jump {
                dir,
                run_up,
                hold: apex.min(t2.saturating_sub(1)).max(1),
                switch: None,
                again: Some((t2, h2)),
            };
            out.push(Program::Jump(base));
            for &a in air.iter().filter(|&&a| a != own) {
                out.push(Program::Jump(Jump {
                    switch: Some((t2 + apex / 2, a)),
                    ..base
                }));
            }
        }
    }
}
