//! A naive reference link builder: the peer `platnav bench` and the
//! criterion benches measure the real builder against, and the oracle
//! `tests/naive_reference.rs` checks it with.
//!
//! It generates the same program families as `NavMap::build` (the module
//! docs of `src/links/{run,fall,jump,wall_jump,drop}.rs` list them) with the
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
//! Only the `platnav` crate's public API is used. The CLI's bench, the
//! criterion benches and the library's tests depend on this crate, so they
//! share one copy.

use std::collections::HashMap;

use platnav::{
    Body, Cell, Classification, Input, JumpVariety, Level, LinkKind, NavMap, Physics, Tile,
    links::SETTLE_SLACK, physics::Frame,
};

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

/// The most ticks an action phase may take (`PHYSICS.md`, "Link
/// generation bounds"): 8 s of ticks, rounded to nearest.
fn action_limit(p: &Physics) -> usize {
    (8.0 / p.dt + 0.5).floor() as usize
}

/// The most ticks a settle phase may take: 10 s of ticks, rounded to
/// nearest.
fn settle_limit(p: &Physics) -> usize {
    (10.0 / p.dt + 0.5).floor() as usize
}

/// Whether `level` holds a slope tile (its links are then defined in level
/// coordinates, and its ground may step a row up or down).
fn has_slopes(level: &Level) -> bool {
    level.holds(Tile::SlopeRight) || level.holds(Tile::SlopeLeft)
}

/// Where the body is simulated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coords {
    /// In the from-cell's [`Frame`], the body starting on its `(0, 0)`: how
    /// links are defined (on a level with slopes, in level coordinates
    /// whichever is asked for).
    Frame,
    /// In level coordinates, the body starting on the from-cell itself (as
    /// the real builder did before it moved to the frame). Positions then
    /// carry the cell's offset, so float rounding differs at knife edges.
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
    // Links on levels with slopes are performed in level coordinates, where
    // they are replayed (`src/links/sim.rs`, `origin`).
    let coords = if has_slopes(level) {
        Coords::Level
    } else {
        coords
    };
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
    run_links(&ctx, from, &mut best);
    fall_links(&ctx, &mut best);
    forgiving_links(&ctx, &mut best);
    jump_links(&ctx, &mut best);
    if p.wall_jump.is_some() {
        wall_jump_links(&ctx, &mut best);
    }
    if level.get(Cell::new(from.col, from.row + 1)) == Some(Tile::OneWay) {
        drop_links(&ctx, &mut best);
    }
    if level.holds(Tile::Ladder) {
        let up = level.get(from) == Some(Tile::Ladder);
        let down = level.get(Cell::new(from.col, from.row + 1)) == Some(Tile::Ladder);
        // A ladder within 3 columns, from 4 rows above to 1 below.
        let near = (-4..=1).any(|dr| {
            (-3..=3)
                .any(|dc| level.get(Cell::new(from.col + dc, from.row + dr)) == Some(Tile::Ladder))
        });
        climb_links(&ctx, up, down, near, &mut best);
    }
    let mut v: Vec<NaiveLink> = best.0.into_values().collect();
    v.sort_by_key(|l| (l.to, l.kind));
    v
}

/// What every simulation of one cell shares.
struct Ctx<'a> {
    /// The tiles the body moves through.
    frame: Frame<'a>,
    /// The from-cell in `frame`'s coordinates.
    start: Cell,
    p: &'a Physics,
    classes: &'a Classification,
    /// The jump programs to try.
    jumps: JumpVariety,
}

impl Ctx<'_> {
    fn standable(&self, frame_cell: Cell) -> bool {
        self.classes.is_standable(self.frame.to_level(frame_cell))
    }
}

/// Best link per `(to, kind)`: fewest ticks, then fewest jumps; ties keep
/// the first offered.
#[derive(Default)]
struct Best(HashMap<(Cell, LinkKind), NaiveLink>);

impl Best {
    fn offer(&mut self, link: Option<NaiveLink>) {
        let Some(link) = link else { return };
        let key = (link.to, link.kind);
        if self
            .0
            .get(&key)
            .is_none_or(|old| (old.ticks, old.jumps) > (link.ticks, link.jumps))
        {
            self.0.insert(key, link);
        }
    }
}

// ---------------------------------------------------------------------------
// The settle controller (src/links/mod.rs).

fn settle_tolerance(p: &Physics) -> f64 {
    0.5 * (p.ground_accel * p.dt).min(p.run_speed) * p.dt + 1e-12
}

/// Braking distance from `v`, or infinity when braking takes more than
/// `limit` ticks.
fn braking_distance(v: f64, adt: f64, dt: f64, limit: usize) -> f64 {
    let mut v = v.abs();
    let mut s = 0.0;
    for _ in 0..limit {
        v = (v - adt).max(0.0);
        if v == 0.0 {
            return s;
        }
        s += v * dt;
    }
    if v == 0.0 { s } else { f64::INFINITY }
}

/// The next input that brings a grounded body to rest within
/// [`settle_tolerance`] of `target_x`, or `None` when it is there.
fn settle_input(body: &Body, target_x: f64, p: &Physics) -> Option<Input> {
    let tol = settle_tolerance(p);
    let err = target_x - body.x;
    if body.vx == 0.0 && err.abs() <= tol {
        return None;
    }
    let adt = p.ground_accel * p.dt;
    let dir: i8 = if err > 0.0 { 1 } else { -1 };
    let df = f64::from(dir);
    if body.vx * df < 0.0 {
        return Some(Input::new(dir, false, false));
    }
    let v1 = body.vx + (df * p.run_speed - body.vx).clamp(-adt, adt);
    let travel = v1.abs() * p.dt + braking_distance(v1, adt, p.dt, settle_limit(p));
    if travel <= err.abs() + tol {
        Some(Input::new(dir, false, false))
    } else {
        Some(Input::IDLE)
    }
}

// ---------------------------------------------------------------------------
// One performance from the start, recording its tape.

struct Sim<'c, 'a> {
    ctx: &'c Ctx<'a>,
    body: Body,
    tape: Vec<Input>,
    jumps: u8,
    airborne: bool,
}

impl<'c, 'a> Sim<'c, 'a> {
    /// Standing on the from-cell.
    fn new(ctx: &'c Ctx<'a>) -> Self {
        Self {
            ctx,
            body: Body::start(&ctx.frame, ctx.start, ctx.p),
            tape: Vec::new(),
            jumps: 0,
            airborne: false,
        }
    }

    /// Steps once, counting the jumps that start (`PHYSICS.md` step 1: a
    /// press on the ground, in coyote time, on a ladder, against a wall
    /// or with an air jump left, or a buffered press on the ground); false
    /// if the body died.
    fn step(&mut self, input: Input) -> bool {
        let (f, p) = (&self.ctx.frame, self.ctx.p);
        let b = self.body;
        let pressed = input.jump && !b.jump_held_last_tick;
        let takes = if pressed {
            b.grounded
                || b.coyote_left > 0
                || b.climbing
                || (p.wall_jump.is_some()
                    && (b.touches_wall_left(f, p) || b.touches_wall_right(f, p)))
                || b.air_jumps_left > 0
        } else {
            b.buffer_left > 0 && b.grounded
        };
        self.body.step(f, p, input);
        if takes {
            self.jumps = self.jumps.saturating_add(1);
        }
        self.tape.push(input);
        !self.body.dead
    }

    /// Drives `policy` until the body lands after leaving the ground; false
    /// on death, timeout, or the policy giving up.
    fn fly(&mut self, mut policy: impl FnMut(usize, &Body) -> Option<Input>) -> bool {
        while self.tape.len() < action_limit(self.ctx.p) {
            let Some(input) = policy(self.tape.len(), &self.body) else {
                return false;
            };
            if !self.step(input) {
                return false;
            }
            if !self.body.grounded {
                self.airborne = true;
            } else if self.airborne {
                return true;
            }
        }
        false
    }

    /// After a landing: the cell braking alone would stop on (or the landing
    /// cell, or a neighbour of the rest cell), settled on.
    fn land(self, kind: LinkKind) -> Option<NaiveLink> {
        let (f, p) = (&self.ctx.frame, self.ctx.p);
        let landed = self.body.standing_cell()?;
        // Braking to rest takes more ticks than a settle may: no link.
        let adt = p.ground_accel * p.dt;
        if self.body.vx.abs() > (settle_limit(p) - 1) as f64 * adt {
            return None;
        }
        let mut probe = self.body;
        for _ in 0..settle_limit(p) {
            if probe.vx == 0.0 {
                break;
            }
            probe.step(f, p, Input::IDLE);
            if !probe.grounded || probe.dead {
                break;
            }
        }
        // On a slope braking may end on another row: the cell it stands on.
        let rest = match probe.standing_cell() {
            Some(c) if has_slopes(f.level()) => c,
            _ => Cell::new(probe.x.floor() as i32, landed.row),
        };
        let target = [
            rest,
            landed,
            Cell::new(rest.col - 1, rest.row),
            Cell::new(rest.col + 1, rest.row),
        ]
        .into_iter()
        .find(|&c| self.ctx.standable(c))?;
        self.settle_to(target, kind)
    }

    /// Brings the body to rest on `target` (in the simulation's
    /// coordinates), then idles
    /// [`SETTLE_SLACK`] ticks.
    fn settle_to(mut self, target: Cell, kind: LinkKind) -> Option<NaiveLink> {
        if target == self.ctx.start {
            return None;
        }
        let action_ticks = self.tape.len() as u32;
        let target_x = f64::from(target.col) + 0.5;
        let mut done = false;
        let (limit, adt) = (
            settle_limit(self.ctx.p),
            self.ctx.p.ground_accel * self.ctx.p.dt,
        );
        for i in 0..limit {
            // The body must be at rest at a check at most `limit - i - 1`
            // ticks away; each tick changes its speed by at most `adt`.
            if self.body.vx.abs() > (limit - i - 1) as f64 * adt {
                return None;
            }
            match settle_input(&self.body, target_x, self.ctx.p) {
                None => {
                    done = true;
                    break;
                }
                Some(input) => {
                    if !self.step(input) || !self.body.grounded {
                        return None;
                    }
                }
            }
        }
        if !done {
            return None;
        }
        for _ in 0..SETTLE_SLACK {
            self.step(Input::IDLE);
        }
        if !self.body.stands_on(target) {
            return None;
        }
        let frame = &self.ctx.frame;
        Some(NaiveLink {
            from: frame.to_level(self.ctx.start),
            to: frame.to_level(target),
            kind,
            ticks: self.tape.len() as u32,
            jumps: self.jumps,
            action_ticks,
            inputs: self.tape,
        })
    }
}

// ---------------------------------------------------------------------------
// Timing helpers (src/links/mod.rs).

fn apex_ticks(p: &Physics) -> usize {
    let per_tick = p.gravity * p.dt;
    if per_tick <= 0.0 {
        return action_limit(p);
    }
    ((p.jump_speed / per_tick).ceil() as usize).clamp(1, action_limit(p))
}

fn full_speed_ticks(p: &Physics) -> usize {
    let per_tick = p.ground_accel * p.dt;
    if per_tick <= 0.0 {
        return 0;
    }
    ((p.run_speed / per_tick).ceil() as usize).min(action_limit(p) / 4)
}

fn tick_set(candidates: impl IntoIterator<Item = usize>, max: usize) -> Vec<usize> {
    let mut v: Vec<usize> = candidates
        .into_iter()
        .filter(|&t| t >= 1 && t <= max)
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

// ---------------------------------------------------------------------------
// The program families.

/// Run: the settle controller aimed at cells 1, 2, 3, 4, 6, ... columns away
/// along the contiguous standable ground (a row up or down from one column
/// to the next where the level has slopes).
fn run_links(ctx: &Ctx<'_>, from: Cell, best: &mut Best) {
    const DISTANCES: [i32; 14] = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128];
    // With slopes, the ground of the next column may be a row up or down.
    let rows: &[i32] = if has_slopes(ctx.frame.level()) {
        &[0, -1, 1]
    } else {
        &[0]
    };
    for dir in [-1, 1] {
        let mut ground = vec![from];
        while ground.len() <= DISTANCES[DISTANCES.len() - 1] as usize {
            let at = ground[ground.len() - 1];
            let next = rows
                .iter()
                .map(|&dr| Cell::new(at.col + dir, at.row + dr))
                .find(|&c| ctx.classes.is_standable(c));
            match next {
                Some(c) => ground.push(c),
                None => break,
            }
        }
        for &k in DISTANCES.iter().take_while(|&&k| k < ground.len() as i32) {
            let to = ground[k as usize];
            let target = Cell::new(
                ctx.start.col + to.col - from.col,
                ctx.start.row + to.row - from.row,
            );
            best.offer(Sim::new(ctx).settle_to(target, LinkKind::Run));
        }
    }
}

/// Fall: walk off an edge toward `d`, then keep `d` or, after `k` air ticks,
/// switch to idle or `-d`.
fn fall_links(ctx: &Ctx<'_>, best: &mut Best) {
    const SWITCH_TICKS: [usize; 7] = [0, 3, 6, 10, 15, 22, 32];
    let p = ctx.p;
    let walk_limit =
        full_speed_ticks(p) + (1.5 / (p.run_speed * p.dt).max(1e-6)).ceil() as usize + 2;
    for d in [-1i8, 1] {
        let mut schedules: Vec<Option<(usize, i8)>> = vec![None];
        for &k in &SWITCH_TICKS {
            schedules.push(Some((k, 0)));
            schedules.push(Some((k, -d)));
        }
        for sched in schedules {
            let mut s = Sim::new(ctx);
            let mut air_start: Option<usize> = None;
            let ok = s.fly(|t, body| {
                if air_start.is_none() && !body.grounded {
                    air_start = Some(t);
                }
                let mv = match (air_start, sched) {
                    (None, _) => {
                        if t > walk_limit {
                            return None;
                        }
                        d
                    }
                    (Some(a), Some((k, b))) if t - a >= k => b,
                    _ => d,
                };
                Some(Input::new(mv, false, false))
            });
            if ok {
                best.offer(s.land(LinkKind::Fall));
            } else if air_start.is_none() {
                break;
            }
        }
    }
}

/// Coyote jumps and buffered bounces (`src/links/fall.rs`): walk off an
/// edge toward `d`; press on air tick `a` (0 and `coyote_ticks - 1`) and
/// hold `H` ticks (4 and the apex ticks), moving `d` or idle from `apex`
/// ticks after the press; or press `jump_buffer_ticks` before the tick `L`
/// the kept fall lands on and hold to `L + H`, bouncing on landing.
fn forgiving_links(ctx: &Ctx<'_>, best: &mut Best) {
    let p = ctx.p;
    let apex = apex_ticks(p);
    let holds = if p.jump_cut_speed >= p.jump_speed {
        vec![apex]
    } else {
        tick_set([4, apex], apex)
    };
    let mut delays = Vec::new();
    if p.coyote_ticks > 0 {
        delays = vec![0, p.coyote_ticks as usize - 1];
        delays.dedup();
    }
    let walk_limit =
        full_speed_ticks(p) + (1.5 / (p.run_speed * p.dt).max(1e-6)).ceil() as usize + 2;
    // The kept fall toward `d`: its first air tick and its landing tick.
    let fall = |d: i8| {
        let mut s = Sim::new(ctx);
        let mut air_start = None;
        let ok = s.fly(|t, body| {
            if air_start.is_none() && !body.grounded {
                air_start = Some(t);
            }
            (air_start.is_some() || t <= walk_limit).then(|| Input::new(d, false, false))
        });
        ok.then(|| (air_start.unwrap_or(0), s.tape.len()))
    };
    for d in [-1i8, 1] {
        for &a in &delays {
            for &hold in &holds {
                for idle in [false, true] {
                    let mut s = Sim::new(ctx);
                    let mut air_start: Option<usize> = None;
                    let ok = s.fly(|t, body| {
                        if air_start.is_none() && !body.grounded {
                            air_start = Some(t);
                        }
                        let Some(a0) = air_start else {
                            return (t <= walk_limit).then(|| Input::new(d, false, false));
                        };
                        let press = a0 + a;
                        let mv = if idle && t >= press + apex { 0 } else { d };
                        Some(Input::new(mv, t >= press && t < press + hold, false))
                    });
                    if ok {
                        let kind = jump_kind(s.jumps);
                        best.offer(s.land(kind));
                    }
                }
            }
        }
        if p.jump_buffer_ticks == 0 {
            continue;
        }
        let Some((a0, land)) = fall(d) else {
            continue;
        };
        let Some(press) = land.checked_sub(p.jump_buffer_ticks as usize) else {
            continue;
        };
        if press < a0 + p.coyote_ticks as usize {
            continue;
        }
        for &hold in &holds {
            let input = |t: usize| Input::new(d, t >= press && t < land + hold, false);
            let mut s = Sim::new(ctx);
            let alive = (0..=land).all(|t| t < action_limit(p) && s.step(input(t)));
            if !alive || s.body.grounded {
                continue;
            }
            s.airborne = true;
            if s.fly(|t, _| Some(input(t))) {
                let kind = jump_kind(s.jumps);
                best.offer(s.land(kind));
            }
        }
    }
}

/// A jump link's kind by the presses that took effect.
fn jump_kind(jumps: u8) -> LinkKind {
    if jumps >= 2 {
        LinkKind::DoubleJump
    } else {
        LinkKind::Jump
    }
}

/// A jump program: run-up, one or two held presses, and an optional
/// steering switch `(flight tick, move)`.
#[derive(Clone, Copy)]
struct JumpProgram {
    dir: i8,
    run_up: usize,
    presses: [(usize, usize); 2],
    n_presses: usize,
    steer: Option<(usize, i8)>,
}

impl JumpProgram {
    fn input(&self, t: usize, body: &Body) -> Option<Input> {
        if t < self.run_up {
            if !body.grounded {
                return None;
            }
            return Some(Input::new(self.dir, false, false));
        }
        let ft = t - self.run_up;
        let jump = self.presses[..self.n_presses]
            .iter()
            .any(|&(start, hold)| ft >= start && ft < start + hold);
        let mv = match self.steer {
            Some((k, b)) if ft >= k => b,
            _ => self.dir,
        };
        Some(Input::new(mv, jump, false))
    }

    /// Performs the whole program from standing on the from-cell.
    fn perform(&self, ctx: &Ctx<'_>) -> Option<NaiveLink> {
        let mut s = Sim::new(ctx);
        if !s.fly(|t, b| self.input(t, b)) {
            return None;
        }
        let kind = jump_kind(s.jumps);
        s.land(kind)
    }
}

/// Every steering variant of one jump program, each from scratch: a switch
/// at each of `switches` to each of `targets`, then no switch.
fn jump_family(
    ctx: &Ctx<'_>,
    base: JumpProgram,
    switches: &[usize],
    targets: &[i8],
    best: &mut Best,
) {
    for &k in switches {
        for &b in targets {
            let prog = JumpProgram {
                steer: Some((k, b)),
                ..base
            };
            best.offer(prog.perform(ctx));
        }
    }
    best.offer(base.perform(ctx));
}

/// Jump and double jump: direction, run-up, hold ticks, steering, and the
/// second press's tick and hold.
fn jump_links(ctx: &Ctx<'_>, best: &mut Best) {
    let p = ctx.p;
    let apex = apex_ticks(p);
    let full = full_speed_ticks(p);
    let coarse = ctx.jumps == JumpVariety::Coarse;
    let holds = if p.jump_cut_speed >= p.jump_speed {
        vec![apex]
    } else if coarse {
        tick_set([4, 11, apex], apex)
    } else {
        tick_set([2, 4, 7, 11, 16, apex], apex)
    };
    let switches = if coarse {
        tick_set([8, apex, apex + apex / 2], 4 * apex)
    } else {
        tick_set([3, 8, apex / 2, apex, apex + apex / 2], 4 * apex)
    };
    for dir in [-1i8, 0, 1] {
        let targets: Vec<i8> = if dir == 0 { vec![-1, 1] } else { vec![0, -dir] };
        let run_ups = if dir == 0 {
            vec![0]
        } else {
            let mut v = if coarse {
                vec![0, full]
            } else {
                vec![0, full / 2, full]
            };
            v.dedup();
            v
        };
        for &run_up in &run_ups {
            for &hold in &holds {
                let base = JumpProgram {
                    dir,
                    run_up,
                    presses: [(0, hold), (0, 0)],
                    n_presses: 1,
                    steer: None,
                };
                jump_family(ctx, base, &switches, &targets, best);
            }
            if p.air_jumps > 0 && (dir == 0 || run_up != full / 2) {
                for t2 in tick_set([apex / 2, apex, apex + apex / 2], 3 * apex) {
                    for h2 in tick_set([4, apex], apex) {
                        let base = JumpProgram {
                            dir,
                            run_up,
                            presses: [(0, apex.min(t2.saturating_sub(1)).max(1)), (t2, h2)],
                            n_presses: 2,
                            steer: None,
                        };
                        let switches = tick_set([t2, t2 + apex / 2, t2 + apex], 5 * apex);
                        jump_family(ctx, base, &switches, &targets, best);
                    }
                }
            }
        }
    }
}

/// A wall-jump program (see `src/links/wall_jump.rs`).
#[derive(Clone, Copy)]
struct WallProgram {
    dir: i8,
    run_up: usize,
    hold: usize,
    delay: usize,
    back_after: Option<usize>,
    hold2: usize,
    max_walls: u8,
}

fn touches(body: &Body, frame: &Frame<'_>, p: &Physics, side: i8) -> bool {
    match side {
        -1 => body.touches_wall_left(frame, p),
        1 => body.touches_wall_right(frame, p),
        _ => false,
    }
}

fn wall_program(ctx: &Ctx<'_>, prog: WallProgram) -> Option<NaiveLink> {
    let (frame, p) = (&ctx.frame, ctx.p);
    let mut s = Sim::new(ctx);
    let mut walls = 0u8;
    let mut contact = 0usize;
    let mut since: Option<(i8, usize)> = None;
    let ok = s.fly(|t, body| {
        if t < prog.run_up {
            if !body.grounded {
                return None;
            }
            return Some(Input::new(prog.dir, false, false));
        }
        let ft = t - prog.run_up;
        let (mv, mut jump) = match since {
            None => (prog.dir, ft < prog.hold),
            Some((away, n)) => {
                let mv = match prog.back_after {
                    Some(k) if n >= k => -away,
                    _ => away,
                };
                (mv, n < prog.hold2)
            }
        };
        if !body.grounded && walls < prog.max_walls && ft > 0 && touches(body, frame, p, mv) {
            contact += 1;
            if contact > prog.delay {
                if body.jump_held_last_tick {
                    return Some(Input::new(mv, false, false));
                }
                walls += 1;
                contact = 0;
                since = Some((-mv, 1));
                return Some(Input::new(-mv, true, false));
            }
            jump = false;
        } else {
            contact = 0;
        }
        if let Some((_, n)) = &mut since {
            *n += 1;
        }
        Some(Input::new(mv, jump, false))
    });
    if ok && walls > 0 {
        s.land(LinkKind::WallJump)
    } else {
        None
    }
}

/// Wall jump: direction, run-up, hold, slide delay, climbing back, and the
/// number of walls allowed.
fn wall_jump_links(ctx: &Ctx<'_>, best: &mut Best) {
    let p = ctx.p;
    let apex = apex_ticks(p);
    let full = full_speed_ticks(p);
    for dir in [-1i8, 1] {
        for run_up in [0, full] {
            for hold in [apex / 2, apex] {
                for delay in [0, 10] {
                    for back_after in [None, Some(4), Some(10)] {
                        for max_walls in [1, 8] {
                            let prog = WallProgram {
                                dir,
                                run_up,
                                hold: hold.max(1),
                                delay,
                                back_after,
                                hold2: apex,
                                max_walls,
                            };
                            best.offer(wall_program(ctx, prog));
                        }
                    }
                }
            }
        }
    }
}

/// Drop: hold `down` two ticks moving `d`, then keep `d` or, after `k`
/// ticks, switch (to idle or `-d`; for `d = 0` to -1 or +1).
fn drop_links(ctx: &Ctx<'_>, best: &mut Best) {
    const SWITCH_TICKS: [usize; 5] = [4, 8, 12, 18, 26];
    for d in [-1i8, 0, 1] {
        let mut schedules: Vec<Option<(usize, i8)>> = vec![None];
        for &k in &SWITCH_TICKS {
            if d == 0 {
                schedules.push(Some((k, -1)));
                schedules.push(Some((k, 1)));
            } else {
                schedules.push(Some((k, 0)));
                schedules.push(Some((k, -d)));
            }
        }
        for sched in schedules {
            let mut s = Sim::new(ctx);
            let ok = s.fly(|t, _| {
                let mv = match sched {
                    Some((k, b)) if t >= k => b,
                    _ => d,
                };
                Some(Input::new(mv, false, t < 2))
            });
            if ok {
                best.offer(s.land(LinkKind::Drop));
            }
        }
    }
}

/// Climb (levels with ladders): hold `up` (feet tile a ladder) or `down`
/// (a ladder under the feet) until the body stands again; and, when `up`
/// can start, hold `up` for the ticks of 1 to 8 rows, then (still
/// climbing) hold the jump moving left or right until it lands. Any
/// program whose body stands after a tick without having left the ground
/// gives up.
fn climb_links(ctx: &Ctx<'_>, up: bool, down: bool, near: bool, best: &mut Best) {
    let p = ctx.p;
    let up_input = Input {
        up: true,
        ..Input::IDLE
    };
    // Catching a nearby ladder: move left or right holding up, walking (at
    // most the ticks of 3 columns at run speed on the ground) or jumping;
    // once climbing, up alone. Only programs that climbed count.
    if near {
        let walk_limit = (3.0 / (p.run_speed * p.dt).max(1e-6)).ceil() as usize + 2;
        for d in [-1i8, 1] {
            for jump in [false, true] {
                let mut climbed = false;
                let mut s = Sim::new(ctx);
                let ok = s.fly(|t, b| {
                    if b.climbing {
                        climbed = true;
                        return Some(up_input);
                    }
                    if t > 0 && b.grounded && (jump || t > walk_limit) {
                        return None;
                    }
                    Some(Input {
                        up: true,
                        ..Input::new(d, jump, false)
                    })
                });
                if ok && climbed {
                    best.offer(s.land(LinkKind::Climb));
                }
            }
        }
    }
    let down_input = Input::new(0, false, true);
    let simple = [(up, up_input), (down, down_input)];
    for (start, input) in simple {
        if !start {
            continue;
        }
        let mut s = Sim::new(ctx);
        if s.fly(|t, b| (t == 0 || !b.grounded).then_some(input)) {
            best.offer(s.land(LinkKind::Climb));
        }
    }
    if !up {
        return;
    }
    for rows in 1..=8usize {
        let k = ((rows as f64 / (p.climb_speed * p.dt).max(1e-9)).ceil() as usize).max(1);
        for d in [-1i8, 1] {
            let mut s = Sim::new(ctx);
            let ok = s.fly(|t, b| {
                if t > 0 && b.grounded {
                    None
                } else if t < k {
                    Some(up_input)
                } else if t == k && !b.climbing {
                    None
                } else {
                    Some(Input::new(d, true, false))
                }
            });
            if ok {
                best.offer(s.land(LinkKind::Climb));
            }
        }
    }
}
