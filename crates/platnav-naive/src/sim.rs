//! What every naive program shares: one simulation of a cell
//! ([`Sim`]), from standing on it to a settled link, with the settle
//! controller, the best link per target and kind, and the timing helpers.
//! The obvious way: every program is performed from tick 0 on a fresh body.

use std::collections::HashMap;

use platnav::{
    Body, Cell, Classification, Input, JumpVariety, Level, LinkKind, Physics, Tile,
    links::SETTLE_SLACK, physics::Frame,
};

use crate::NaiveLink;

/// The most ticks an action phase may take (`PHYSICS.md`, "Link
/// generation bounds"): 8 s of ticks, rounded to nearest.
pub(crate) fn action_limit(p: &Physics) -> usize {
    (8.0 / p.dt + 0.5).floor() as usize
}

/// The climb limit (`PHYSICS.md`, "Link generation bounds"): the ticks of
/// climbing the level's height and two rows more, at most what a saved
/// map stores of a link's ticks beyond its action and settle limits.
pub(crate) fn climb_limit(p: &Physics, rows: usize) -> usize {
    let cap = 65535 - action_limit(p) - 2 * settle_limit(p) - 2;
    let ticks = ((rows as f64 + 2.0) / (p.climb_speed * p.dt)).ceil();
    if p.climb_speed > 0.0 && ticks < cap as f64 {
        ticks as usize
    } else {
        cap
    }
}

/// The most ticks a settle phase may take: 10 s of ticks, rounded to
/// nearest.
pub(crate) fn settle_limit(p: &Physics) -> usize {
    (10.0 / p.dt + 0.5).floor() as usize
}

/// Whether `level` holds a slope tile (its links are then defined in level
/// coordinates, and its ground may step a row up or down).
pub(crate) fn has_slopes(level: &Level) -> bool {
    level.holds(Tile::SLOPE_RIGHT) || level.holds(Tile::SLOPE_LEFT)
}

/// What every simulation of one cell shares.
pub(crate) struct Ctx<'a> {
    /// The tiles the body moves through.
    pub(crate) frame: Frame<'a>,
    /// The from-cell in `frame`'s coordinates.
    pub(crate) start: Cell,
    pub(crate) p: &'a Physics,
    pub(crate) classes: &'a Classification,
    /// The jump programs to try.
    pub(crate) jumps: JumpVariety,
}

impl Ctx<'_> {
    pub(crate) fn standable(&self, frame_cell: Cell) -> bool {
        self.classes.is_standable(self.frame.to_level(frame_cell))
    }
}

/// Best link per `(to, kind)`: fewest ticks, then fewest jumps; ties keep
/// the first offered.
#[derive(Default)]
pub(crate) struct Best(pub(crate) HashMap<(Cell, LinkKind), NaiveLink>);

impl Best {
    pub(crate) fn offer(&mut self, link: Option<NaiveLink>) {
        let Some(link) = link else { return };
        // On a level that wraps, a way around back to the start is no link.
        if link.to == link.from {
            return;
        }
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

pub(crate) fn settle_tolerance(p: &Physics) -> f64 {
    0.5 * (p.ground_accel * p.dt).min(p.run_speed) * p.dt + 1e-12
}

/// Braking distance from `v`, or infinity when braking takes more than
/// `limit` ticks.
pub(crate) fn braking_distance(v: f64, adt: f64, dt: f64, limit: usize) -> f64 {
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
pub(crate) fn settle_input(body: &Body, target_x: f64, p: &Physics) -> Option<Input> {
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

pub(crate) struct Sim<'c, 'a> {
    pub(crate) ctx: &'c Ctx<'a>,
    pub(crate) body: Body,
    pub(crate) tape: Vec<Input>,
    pub(crate) jumps: u8,
    pub(crate) airborne: bool,
    /// Moving climb ticks so far (`PHYSICS.md`): they do not count toward
    /// the action limit.
    pub(crate) climbed: usize,
}

impl<'c, 'a> Sim<'c, 'a> {
    /// Standing on the from-cell.
    pub(crate) fn new(ctx: &'c Ctx<'a>) -> Self {
        Self {
            ctx,
            body: Body::start(&ctx.frame, ctx.start, ctx.p),
            tape: Vec::new(),
            jumps: 0,
            airborne: false,
            climbed: 0,
        }
    }

    /// Whether the action phase is out of ticks: its ticks other than
    /// moving climb ticks have reached the action limit.
    pub(crate) fn out_of_time(&self) -> bool {
        self.tape.len() - self.climbed >= action_limit(self.ctx.p)
    }

    /// Steps once, counting the jumps that start (`PHYSICS.md` step 1: a
    /// press on the ground, in coyote time, on a ladder, against a wall
    /// or with an air jump left, or a buffered press on the ground); false
    /// if the body died or climbed past the climb limit.
    pub(crate) fn step(&mut self, input: Input) -> bool {
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
        if self.body.climbing && self.body.y != b.y {
            self.climbed += 1;
            if self.climbed > climb_limit(p, f.level().height()) {
                return false;
            }
        }
        !self.body.dead
    }

    /// Drives `policy` until the body lands after leaving the ground; false
    /// on death, timeout, or the policy giving up.
    pub(crate) fn fly(&mut self, mut policy: impl FnMut(usize, &Body) -> Option<Input>) -> bool {
        while !self.out_of_time() {
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
    pub(crate) fn land(self, kind: LinkKind) -> Option<NaiveLink> {
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
    pub(crate) fn settle_to(mut self, target: Cell, kind: LinkKind) -> Option<NaiveLink> {
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

pub(crate) fn apex_ticks(p: &Physics) -> usize {
    let per_tick = p.gravity * p.dt;
    if per_tick <= 0.0 {
        return action_limit(p);
    }
    let rise = (p.jump_speed / per_tick).ceil() as usize;
    let boost = if p.boosts() {
        p.jump_boost_ticks as usize
    } else {
        0
    };
    rise.max(boost).clamp(1, action_limit(p))
}

pub(crate) fn full_speed_ticks(p: &Physics) -> usize {
    let per_tick = p.ground_accel * p.dt;
    if per_tick <= 0.0 {
        return 0;
    }
    ((p.run_speed / per_tick).ceil() as usize).min(action_limit(p) / 4)
}

pub(crate) fn tick_set(candidates: impl IntoIterator<Item = usize>, max: usize) -> Vec<usize> {
    let mut v: Vec<usize> = candidates
        .into_iter()
        .filter(|&t| t >= 1 && t <= max)
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}
