//! Links between standing cells, found by driving the reference [`Body`]
//! with input programs. One file per link kind.
//!
//! Every link starts from the canonical standing state of its `from` cell
//! (`PHYSICS.md`: `x = col + 0.5`, at rest) and has two phases:
//!
//! 1. the *action*: an open-loop input program (run-up, jump, steering,
//!    wall jumps, drop) that ends on the tick the body lands;
//! 2. the *settle*: a closed-loop controller that brakes and centres the body
//!    on the `to` cell to within half a *nudge* (the displacement of one tick
//!    of ground acceleration from rest), then [`SETTLE_SLACK`] idle ticks.
//!
//! The stored tape is the canonical performance from the exact centre. When
//! links are chained, the body starts a link off-centre by at most half a
//! nudge. Motion is translation-invariant away from collisions, so
//! [`crate::Path`] replays the tape verbatim up to the slack, which leaves
//! the body off-centre by at most one nudge, and spends the slack ticks on
//! one corrective nudge (push, release) when it is more than half a nudge
//! off. Every link of a chain therefore starts within half a nudge of its
//! cell's centre, errors never accumulate, and the path's tape has exactly
//! the ticks the search counted. That performance, checked at every link's
//! end, is the replay that proves the path.

mod cache;
mod drop;
mod fall;
mod jump;
mod landing;
mod run;
mod template;

pub(crate) use crate::reads::{ReadBox, Reads};
pub use cache::BuildCache;
pub(crate) use cache::WorkerGuard;
mod wall_jump;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use crate::build::BuildProgress;

use crate::classify::Classification;
use crate::level::{Cell, Level};
use crate::physics::{Body, Frame, Input, Physics, Tiles};

/// Ticks at the end of every link reserved for one corrective nudge (push,
/// release) when links are chained; idle in the stored tape.
pub const SETTLE_SLACK: u32 = 2;

/// The kinds of link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum LinkKind {
    /// Running along the ground.
    Run,
    /// Walking off an edge, with air control.
    Fall,
    /// A ground jump.
    Jump,
    /// A ground jump followed by an air jump.
    DoubleJump,
    /// A jump with one or more wall jumps.
    WallJump,
    /// Dropping through a one-way platform.
    Drop,
}

impl LinkKind {
    /// Every kind, in order.
    pub const ALL: [LinkKind; 6] = [
        LinkKind::Run,
        LinkKind::Fall,
        LinkKind::Jump,
        LinkKind::DoubleJump,
        LinkKind::WallJump,
        LinkKind::Drop,
    ];

    /// The snake-case name used in JSON.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            LinkKind::Run => "run",
            LinkKind::Fall => "fall",
            LinkKind::Jump => "jump",
            LinkKind::DoubleJump => "double_jump",
            LinkKind::WallJump => "wall_jump",
            LinkKind::Drop => "drop",
        }
    }

    /// Parses a name as written by [`LinkKind::name`].
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl std::fmt::Display for LinkKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A performable move from one standing cell to another, as generation
/// produces it (a map stores it compactly: [`crate::NavMap`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Link {
    /// What kind of move it is.
    pub kind: LinkKind,
    /// The standing cell it starts from.
    pub from: Cell,
    /// The standing cell it ends on.
    pub to: Cell,
    /// Duration in ticks (the length of `inputs`).
    pub ticks: u32,
    /// Ticks of the open-loop action phase; the rest is the settle phase.
    pub action_ticks: u32,
    /// Jump presses that took effect (ground, air and wall jumps).
    pub jumps: u8,
    /// The per-tick inputs, performed from standing on `from`.
    pub inputs: Vec<Input>,
}

pub(crate) use crate::physics::settle_tolerance;

/// Distance covered while braking from `v` with `move = 0` on the ground,
/// or infinity when coming to rest takes more than `limit` ticks (a settle
/// cannot last that long, see [`settle_limit`]).
fn braking_distance(v: f64, adt: f64, dt: f64, limit: usize) -> f64 {
    let mut v = v.abs();
    let mut s = 0.0;
    // Each tick: v shrinks by at most adt, then x moves by v*dt.
    for _ in 0..limit {
        v = (v - adt).max(0.0);
        if v == 0.0 {
            return s;
        }
        s += v * dt;
    }
    if v == 0.0 { s } else { f64::INFINITY }
}

/// The closed-loop settle controller: the next input that brings a grounded
/// body to rest within [`settle_tolerance`] of `target_x`, or `None` when it
/// is there.
#[must_use]
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
        // Moving away: push toward the target (brakes as hard as idling).
        return Some(Input::new(dir, false, false));
    }
    let target_v = df * p.run_speed;
    let v1 = body.vx + (target_v - body.vx).clamp(-adt, adt);
    let travel = v1.abs() * p.dt + braking_distance(v1, adt, p.dt, settle_limit(p));
    if travel <= err.abs() + tol {
        Some(Input::new(dir, false, false))
    } else {
        Some(Input::IDLE)
    }
}

/// How a [`Sim::run`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flight {
    /// Landed after being airborne.
    Landed,
    /// Died, timed out, or the policy gave up.
    Failed,
    /// Reached the requested pause tick.
    Paused,
}

/// A body being driven from a standing cell, recording its tape. The body
/// moves in the frame of `from` ([`Frame`]): it starts standing on the
/// frame's `(0, 0)`.
#[derive(Clone)]
pub(crate) struct Sim<'a> {
    pub frame: Frame<'a>,
    pub p: &'a Physics,
    pub classes: &'a Classification,
    pub from: Cell,
    pub body: Body,
    pub tape: Vec<Input>,
    pub jumps: u8,
    /// The body has left the ground since the start.
    pub airborne: bool,
    /// [`action_limit`] of `p`.
    pub limit: usize,
    /// The worker's landing memo (none in unit tests: always computed).
    pub memo: Option<&'a landing::MemoSlot>,
}

/// `seconds` in whole ticks of `dt`, rounded to nearest: `floor(seconds /
/// dt + 0.5)`.
fn ticks_in(seconds: f64, dt: f64) -> usize {
    // `dt` is validated to at least `Physics::MIN_DT`, so this is at most
    // a few tens of thousands.
    (seconds / dt + 0.5).floor() as usize
}

/// The most ticks an action phase may take:
/// [`LinkOptions::MAX_ACTION_SECONDS`] in ticks (480 at 60 Hz).
#[must_use]
pub(crate) fn action_limit(p: &Physics) -> usize {
    ticks_in(LinkOptions::MAX_ACTION_SECONDS, p.dt)
}

/// The most ticks a settle phase may take:
/// [`LinkOptions::MAX_SETTLE_SECONDS`] in ticks (600 at 60 Hz).
#[must_use]
pub(crate) fn settle_limit(p: &Physics) -> usize {
    ticks_in(LinkOptions::MAX_SETTLE_SECONDS, p.dt)
}

impl<'a> Sim<'a> {
    #[cfg(test)]
    pub fn new(level: &'a Level, p: &'a Physics, classes: &'a Classification, from: Cell) -> Self {
        Self::recording(level, p, classes, from, None, None)
    }

    /// As [`Sim::new`], noting every cell looked up in `reads`.
    pub fn recording(
        level: &'a Level,
        p: &'a Physics,
        classes: &'a Classification,
        from: Cell,
        reads: Option<&'a Reads>,
        memo: Option<&'a landing::MemoSlot>,
    ) -> Self {
        Self {
            memo,
            frame: Frame::recording(level, from, reads),
            p,
            classes,
            from,
            body: Body::standing(Cell::new(0, 0), p),
            tape: Vec::with_capacity(96),
            jumps: 0,
            airborne: false,
            limit: action_limit(p),
        }
    }

    /// Steps once; counts jump presses that changed the body's vertical speed
    /// upward. Returns false if the body died.
    pub fn step(&mut self, input: Input) -> bool {
        let before = self.body;
        self.body.step(&self.frame, self.p, input);
        if jump_took_effect(&before, &self.frame, self.p, input) {
            self.jumps = self.jumps.saturating_add(1);
        }
        self.tape.push(input);
        !self.body.dead
    }

    /// Runs an air program until the body lands after leaving the ground.
    /// Returns false on death, on timeout, when the policy gives up (`None`),
    /// or if the body never left the ground.
    pub fn fly(&mut self, policy: impl FnMut(usize, &Body) -> Option<Input>) -> bool {
        self.run(policy, None) == Flight::Landed
    }

    /// Like [`Sim::fly`], but pauses before the tick numbered `until` (the
    /// tape length), so that several continuations can branch from there.
    pub fn run(
        &mut self,
        mut policy: impl FnMut(usize, &Body) -> Option<Input>,
        until: Option<usize>,
    ) -> Flight {
        while self.tape.len() < self.limit {
            let t = self.tape.len();
            if until == Some(t) {
                return Flight::Paused;
            }
            let Some(input) = policy(t, &self.body) else {
                return Flight::Failed;
            };
            if !self.step(input) {
                return Flight::Failed;
            }
            if !self.body.grounded {
                self.airborne = true;
            } else if self.airborne {
                return Flight::Landed;
            }
        }
        Flight::Failed
    }

    /// The landed flights of a steering family from here, in program
    /// order: the one that keeps `program(None)`, then at each of
    /// `switches` (tape indices, ascending) one branch per entry of
    /// `targets`, performing `program(Some((switch, target)))`.
    ///
    /// The kept flight is simulated once and each branch leaves it at its
    /// switch, exactly as simulating each program from scratch would.
    /// Flights that die or time out are left out, and so is a branch whose
    /// switch comes after the kept flight ended: it is that flight, and
    /// offering the same link twice changes nothing.
    pub fn steered<P>(
        mut self,
        switches: impl IntoIterator<Item = usize>,
        targets: [i8; 2],
        program: impl Fn(Option<(usize, i8)>) -> P,
    ) -> Vec<Self>
    where
        P: FnMut(usize, &Body) -> Option<Input>,
    {
        let mut branches = Vec::new();
        let mut ended = None;
        for k in switches {
            match self.run(program(None), Some(k)) {
                Flight::Paused => {
                    for b in targets {
                        let mut s = self.clone();
                        if s.fly(program(Some((k, b)))) {
                            branches.push(s);
                        }
                    }
                }
                end => {
                    ended = Some(end);
                    break;
                }
            }
        }
        let landed = match ended {
            Some(end) => end == Flight::Landed,
            None => self.fly(program(None)),
        };
        let mut out = Vec::with_capacity(1 + branches.len());
        if landed {
            out.push(self);
        }
        out.extend(branches);
        out
    }

    /// After a landing: picks the standable cell the body comes to rest on
    /// and settles there, producing the link.
    ///
    /// Skips the settle when `best` already holds a link to that cell of
    /// that kind that this one cannot beat: coming to rest takes at least
    /// one tick per `ground_accel * dt` of speed, plus the slack.
    pub fn land(self, kind: LinkKind, best: &Best) -> Option<Link> {
        let terrain = landing::InFrame::new(&self.frame, self.classes, self.memo);
        let (target, braking) = landing::land_target(&terrain, self.p, &self.body)?;
        let target = self.frame.to_level(target);
        let lower_bound = self.tape.len() as u32 + braking + SETTLE_SLACK;
        if !best.could_improve(target, kind, lower_bound, self.jumps) {
            return None;
        }
        self.settle_to(target, kind)
    }

    /// Drives the grounded body to rest at `target`'s centre, then pads with
    /// [`SETTLE_SLACK`] idle ticks.
    pub fn settle_to(mut self, target: Cell, kind: LinkKind) -> Option<Link> {
        let action_ticks = self.tape.len() as u32;
        let t = self.frame.to_frame(target);
        let terrain = landing::InFrame::new(&self.frame, self.classes, self.memo);
        if !landing::settle(&terrain, self.p, &self.body, t, &mut self.tape) {
            return None;
        }
        Some(Link {
            kind,
            from: self.from,
            to: target,
            ticks: self.tape.len() as u32,
            action_ticks,
            jumps: self.jumps,
            inputs: self.tape,
        })
    }
}

/// Whether a settle with `checks` checks left (of its [`settle_limit`])
/// has failed already: the body must be at rest at one of them, at most
/// `checks - 1` ticks away, and a tick of ground acceleration changes the
/// speed by at most `ground_accel * dt`. (Only a wall could stop it
/// sooner; the rule stands regardless, as `PHYSICS.md` documents.)
fn too_fast_to_stop(body: &Body, p: &Physics, checks: usize) -> bool {
    body.vx.abs() > checks.saturating_sub(1) as f64 * (p.ground_accel * p.dt)
}

/// Where a body that just landed will settle, in its frame: the standable
/// cell braking alone brings it to rest on (or a neighbour), and the ticks
/// that braking takes.
pub(crate) fn land_target<T: Tiles + ?Sized>(
    tiles: &T,
    p: &Physics,
    body: &Body,
    standable: impl Fn(Cell) -> bool,
) -> Option<(Cell, u32)> {
    let mut low = f64::NEG_INFINITY;
    land_target_low(tiles, p, body, standable, &mut low)
}

/// [`land_target`], raising `low` to the largest `y - h` a step reaches.
fn land_target_low<T: Tiles + ?Sized>(
    tiles: &T,
    p: &Physics,
    body: &Body,
    standable: impl Fn(Cell) -> bool,
    low: &mut f64,
) -> Option<(Cell, u32)> {
    let landed = body.standing_cell()?;
    let limit = settle_limit(p);
    // The settle from here would fail at its first tick.
    if too_fast_to_stop(body, p, limit) {
        return None;
    }
    let mut probe = *body;
    let mut braking = 0u32;
    for _ in 0..limit {
        if probe.vx == 0.0 {
            break;
        }
        probe.step(tiles, p, Input::IDLE);
        *low = low.max(probe.y - p.h);
        braking += 1;
        if !probe.grounded || probe.dead {
            break;
        }
    }
    let rest_col = probe.x.floor() as i32;
    let row = landed.row;
    let target = [rest_col, landed.col, rest_col - 1, rest_col + 1]
        .into_iter()
        .map(|c| Cell::new(c, row))
        .find(|&c| standable(c))?;
    Some((target, braking))
}

/// The settle phase in a frame: drives the grounded `body` to rest on
/// `target`'s centre, then [`SETTLE_SLACK`] idle ticks, appending the
/// inputs to `tape`. False when it cannot (or `target` is the start).
pub(crate) fn settle<T: Tiles + ?Sized>(
    tiles: &T,
    p: &Physics,
    body: &mut Body,
    target: Cell,
    tape: &mut Vec<Input>,
) -> bool {
    let mut low = f64::NEG_INFINITY;
    settle_low(tiles, p, body, target, tape, &mut low)
}

/// [`settle`], raising `low` to the largest `y - h` a step reaches.
fn settle_low<T: Tiles + ?Sized>(
    tiles: &T,
    p: &Physics,
    body: &mut Body,
    target: Cell,
    tape: &mut Vec<Input>,
    low: &mut f64,
) -> bool {
    if target == Cell::new(0, 0) {
        return false;
    }
    let target_x = f64::from(target.col) + 0.5;
    let mut done = false;
    let limit = settle_limit(p);
    for i in 0..limit {
        if too_fast_to_stop(body, p, limit - i) {
            return false;
        }
        match settle_input(body, target_x, p) {
            None => {
                done = true;
                break;
            }
            Some(input) => {
                body.step(tiles, p, input);
                *low = low.max(body.y - p.h);
                tape.push(input);
                if body.dead || !body.grounded {
                    return false;
                }
            }
        }
    }
    if !done {
        return false;
    }
    for _ in 0..SETTLE_SLACK {
        body.step(tiles, p, Input::IDLE);
        *low = low.max(body.y - p.h);
        tape.push(Input::IDLE);
    }
    body.stands_on(target)
}

/// Whether `input` in this state starts a jump (PHYSICS.md step 1, with
/// coyote time, the jump buffer and ladders): the jumps a link counts.
fn jump_took_effect<T: Tiles + ?Sized>(
    before: &Body,
    level: &T,
    p: &Physics,
    input: Input,
) -> bool {
    before.jump_starts(level, p, input)
}

/// A body of a link's frame in level coordinates (exact for whole-tile
/// shifts of a landed body, to within rounding in the air).
#[cfg(feature = "serde")]
pub(crate) fn in_level(from: Cell, b: &Body) -> Body {
    Body {
        x: b.x + f64::from(from.col),
        y: b.y + f64::from(from.row),
        ..*b
    }
}

/// A link performed in its start cell's frame, from standing there:
/// `visit` sees the body (in the frame) before the first tick and after
/// each one. Returns the final body, in the frame, and the jump presses
/// that took effect.
pub(crate) fn perform(
    level: &Level,
    p: &Physics,
    from: Cell,
    tape: impl IntoIterator<Item = Input>,
    mut visit: impl FnMut(&Body),
) -> (Body, u32) {
    let frame = Frame::new(level, from);
    let mut body = Body::standing(Cell::new(0, 0), p);
    let mut jumps = 0u32;
    visit(&body);
    for input in tape {
        if jump_took_effect(&body, &frame, p, input) {
            jumps += 1;
        }
        body.step(&frame, p, input);
        visit(&body);
    }
    (body, jumps)
}

/// Every cell the body's box overlaps while performing a link, sorted.
pub(crate) fn sweep_cells(
    level: &Level,
    p: &Physics,
    from: Cell,
    tape: impl IntoIterator<Item = Input>,
) -> Vec<Cell> {
    let frame = Frame::new(level, from);
    let mut cells = Vec::new();
    perform(level, p, from, tape, |b| {
        let (x, y) = (b.x, b.y);
        let c0 = (x - p.w / 2.0 + 1e-9).floor() as i32;
        let c1 = (x + p.w / 2.0 - 1e-9).floor() as i32;
        let r0 = (y - p.h + 1e-9).floor() as i32;
        let r1 = (y - 1e-9).floor() as i32;
        for r in r0..=r1 {
            for c in c0..=c1 {
                cells.push(frame.to_level(Cell::new(c, r)));
            }
        }
    });
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// A `HashMap` for the builders' small integer and float-bit keys, hashed
/// with FxHash's multiply-rotate per word instead of SipHash, which took
/// about 6% of an SMB build. The keys (cells near one start, template node
/// numbers, exact body states) follow from the level and physics rather
/// than being chosen freely, and every such map is bounded: by one cell's
/// links, or by a memory budget.
pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;

/// The hasher of [`FastMap`].
#[derive(Default)]
pub(crate) struct WordHasher(u64);

impl Hasher for WordHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

/// Keeps the best link per `(to, kind)` (fewest ticks, then fewest jumps).
pub(crate) struct Best {
    from: Cell,
    map: FastMap<(Cell, LinkKind), Link>,
    /// Kept links whose tapes are still in the templates, by template node.
    pending: FastMap<(Cell, LinkKind), u32>,
}

impl Best {
    pub fn new(from: Cell) -> Self {
        Self {
            from,
            map: FastMap::default(),
            pending: FastMap::default(),
        }
    }

    /// Whether a link to `to` of `kind` taking at least `ticks` ticks with
    /// `jumps` jumps could replace the one kept.
    pub fn could_improve(&self, to: Cell, kind: LinkKind, ticks: u32, jumps: u8) -> bool {
        self.map
            .get(&(to, kind))
            .is_none_or(|old| (old.ticks, old.jumps) > (ticks, jumps))
    }

    pub fn offer(&mut self, link: Option<Link>) {
        let Some(link) = link else { return };
        let key = (link.to, link.kind);
        if self.could_improve(link.to, link.kind, link.ticks, link.jumps) {
            self.pending.remove(&key);
            self.map.insert(key, link);
        }
    }

    /// Offers a link whose tape [`Best::fill_templates`] will fetch from
    /// template node `node`.
    pub fn offer_template(
        &mut self,
        to: Cell,
        kind: LinkKind,
        action_ticks: u32,
        ticks: u32,
        jumps: u8,
        node: u32,
    ) {
        if to == self.from || !self.could_improve(to, kind, ticks, jumps) {
            return;
        }
        let link = Link {
            kind,
            from: self.from,
            to,
            ticks,
            action_ticks,
            jumps,
            inputs: Vec::new(),
        };
        self.pending.insert((to, kind), node);
        self.map.insert((to, kind), link);
    }

    /// Writes the tapes of the kept template links.
    pub fn fill_templates(&mut self, mut tape: impl FnMut(u32, &mut Vec<Input>)) {
        for (key, node) in self.pending.drain() {
            if let Some(link) = self.map.get_mut(&key) {
                link.inputs.clear();
                tape(node, &mut link.inputs);
            }
        }
    }

    /// The kept links, sorted.
    pub fn into_sorted(self) -> Vec<Link> {
        let mut v: Vec<Link> = self
            .map
            .into_values()
            .map(|mut l| {
                l.inputs.shrink_to_fit();
                l
            })
            .collect();
        v.sort_by_key(|l| (l.to, l.kind, l.ticks));
        v
    }
}

/// How many jump programs the builder tries from each standing cell.
///
/// Every program is performed exactly, so either set gives links the body
/// performs; the coarse set tries a subset of the full one's programs, so
/// it finds no link the full set would not (a link of the full set to the
/// same cell, of the same kind, is never slower) and builds in less time.
/// The programs of each are listed in the docs of `src/links/jump.rs`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum JumpVariety {
    /// Six hold times, three run-ups and five steering switch ticks: the
    /// most links, and the fastest routes.
    #[default]
    Full,
    /// Three hold times, two run-ups and three switch ticks (about a
    /// quarter of the programs): for levels rebuilt often, such as
    /// generated levels. It costs route time, and the jumps that need a
    /// hold time or run-up it leaves out: on the bundled SMB levels it
    /// builds about 3x faster, its routes take about 5% longer, and it
    /// cannot route about 2% of the pairs the full set routes (`platnav
    /// bench` measures all three).
    Coarse,
}

impl JumpVariety {
    /// Both sets, full first.
    pub const ALL: [JumpVariety; 2] = [JumpVariety::Full, JumpVariety::Coarse];

    /// The lower-case name the CLI takes.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            JumpVariety::Full => "full",
            JumpVariety::Coarse => "coarse",
        }
    }

    /// Parses a name as written by [`JumpVariety::name`].
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.name() == name)
    }
}

/// Which link kinds to generate (all by default), how many jump programs
/// to try, and a handle to watch or stop the build.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LinkOptions {
    /// Generate run links.
    pub run: bool,
    /// Generate fall links.
    pub fall: bool,
    /// Generate jump and double-jump links.
    pub jump: bool,
    /// Generate wall-jump links (only when the physics enables wall jumps).
    pub wall_jump: bool,
    /// Generate drop links.
    pub drop: bool,
    /// The jump programs tried from each cell.
    pub jumps: JumpVariety,
    /// Progress counters and a cancel flag the build updates and obeys
    /// ([`BuildProgress`]); `None` builds unwatched.
    pub progress: Option<Arc<BuildProgress>>,
}

setters!(LinkOptions {
    with_run => run: bool,
    with_fall => fall: bool,
    with_jump => jump: bool,
    with_wall_jump => wall_jump: bool,
    with_drop => drop: bool,
    with_jumps => jumps: JumpVariety,
    with_progress => progress: Option<Arc<BuildProgress>>,
});

impl Default for LinkOptions {
    fn default() -> Self {
        Self {
            run: true,
            fall: true,
            jump: true,
            wall_jump: true,
            drop: true,
            jumps: JumpVariety::Full,
            progress: None,
        }
    }
}

impl LinkOptions {
    /// The longest an action phase may last, in seconds: a program that
    /// has not landed after this many seconds of ticks (rounded to
    /// nearest; 480 ticks at 60 Hz) is not a link (`PHYSICS.md`, "Link
    /// generation bounds"). Flights that cannot end (no gravity, no fall
    /// speed, a wall that holds the body) end here.
    pub const MAX_ACTION_SECONDS: f64 = 8.0;

    /// The longest a settle phase, and the braking that picks a landing's
    /// cell, may last, in seconds of ticks (600 at 60 Hz).
    pub const MAX_SETTLE_SECONDS: f64 = 10.0;

    /// Every link kind, with the [`JumpVariety::Coarse`] jump programs.
    #[must_use]
    pub fn coarse() -> Self {
        Self {
            jumps: JumpVariety::Coarse,
            ..Self::default()
        }
    }

    /// The input programs these options try from one standing cell with
    /// `physics`: falls, jumps (their steering branches each counted),
    /// wall jumps and drops. Run links are not counted: their tapes are
    /// computed once per physics profile, on flat ground.
    #[must_use]
    pub fn programs_per_cell(&self, physics: &Physics) -> usize {
        let mut n = 0;
        if self.fall {
            n += 2 * (fall::SWITCH_TICKS.len() * 2 + 1);
        }
        if self.jump {
            n += jump::families(physics, self.jumps)
                .iter()
                .map(|f| f.switches.len() * f.targets.len() + 1)
                .sum::<usize>();
        }
        if self.wall_jump && physics.wall_jump.is_some() {
            n += wall_jump::PROGRAMS;
        }
        if self.drop {
            n += 3 * (drop::SWITCH_TICKS.len() * 2 + 1);
        }
        n
    }

    /// An upper bound on the steps of the body one standing cell costs:
    /// [`LinkOptions::programs_per_cell`] times the most steps a program
    /// takes: its action phase ([`LinkOptions::MAX_ACTION_SECONDS`] of
    /// ticks), the braking that picks its landing cell and its settle (each
    /// at most [`LinkOptions::MAX_SETTLE_SECONDS`] of ticks), and
    /// [`SETTLE_SLACK`] ticks.
    ///
    /// A build's work is this bound times the level's standing cells at
    /// most, whatever the physics; every step looks up at most the tiles
    /// the body's box overlaps. Real cells take far fewer steps, since
    /// most flights land within a second and programs share their
    /// prefixes: about 2,000 at 60 Hz with the default physics.
    #[must_use]
    pub fn max_steps_per_cell(&self, physics: &Physics) -> u64 {
        let per_program = action_limit(physics) + 2 * settle_limit(physics) + SETTLE_SLACK as usize;
        self.programs_per_cell(physics) as u64 * per_program as u64
    }
}

/// All links out of `from`, dominated ones removed, generated with
/// `worker`'s part of its cache.
pub(crate) fn links_from(
    level: &Level,
    p: &Physics,
    classes: &Classification,
    from: Cell,
    opts: &LinkOptions,
    worker: &mut WorkerGuard<'_>,
) -> Vec<Link> {
    links_recorded(level, p, classes, from, opts, None, worker)
}

/// As [`links_from`], noting in `reads` every level cell the generation
/// looks up ([`reads`]).
pub(crate) fn links_recorded(
    level: &Level,
    p: &Physics,
    classes: &Classification,
    from: Cell,
    opts: &LinkOptions,
    reads: Option<&Reads>,
    worker: &mut WorkerGuard<'_>,
) -> Vec<Link> {
    let cache = worker.cache;
    let w = worker.get();
    let mut best = Best::new(from);
    if opts.run {
        let runs = &cache
            .templates(p, opts.jumps, template::rules_of(level))
            .runs;
        let sim = || Sim::recording(level, p, classes, from, reads, Some(&w.memo));
        run::generate(runs, &sim, classes, from, &mut best);
    }
    let memo = Some(&w.memo);
    let sim = || Sim::recording(level, p, classes, from, reads, memo);
    if opts.fall {
        fall::generate(&sim, &mut best);
    }
    if opts.jump {
        template::generate(
            level, p, opts.jumps, classes, from, reads, &mut best, cache, w,
        );
    }
    let memo = Some(&w.memo);
    let sim = || Sim::recording(level, p, classes, from, reads, memo);
    if opts.wall_jump && p.wall_jump.is_some() {
        wall_jump::generate(&sim, p, &mut best);
    }
    if opts.drop {
        drop::generate(&sim, level, from, &mut best);
    }
    best.into_sorted()
}

/// The move at tick `t` of a program that moves `d`, or `b` from tick `k`
/// on when `sched` is `Some((k, b))`.
pub(crate) fn steering(d: i8, sched: Option<(usize, i8)>, t: usize) -> i8 {
    match sched {
        Some((k, b)) if t >= k => b,
        _ => d,
    }
}

/// The ticks to reach the apex of a full jump, `ceil(jump_speed / (gravity
/// dt))`, at least 1 and at most [`action_limit`] (which it is without
/// gravity).
pub(crate) fn apex_ticks(p: &Physics) -> usize {
    let limit = action_limit(p);
    let per_tick = p.gravity * p.dt;
    if per_tick <= 0.0 {
        return limit;
    }
    let ticks = (p.jump_speed / per_tick).ceil();
    if ticks >= limit as f64 {
        limit
    } else {
        (ticks as usize).max(1)
    }
}

/// The ticks to reach full run speed from rest on the ground, `ceil(run_speed
/// / (ground_accel dt))`, at most a quarter of [`action_limit`] (0 without
/// ground acceleration).
pub(crate) fn full_speed_ticks(p: &Physics) -> usize {
    let limit = action_limit(p) / 4;
    let per_tick = p.ground_accel * p.dt;
    if per_tick <= 0.0 {
        return 0;
    }
    let ticks = (p.run_speed / per_tick).ceil();
    if ticks >= limit as f64 {
        limit
    } else {
        ticks as usize
    }
}

/// A sorted, deduplicated list of tick counts from `candidates`, keeping
/// those in `1..=max`.
pub(crate) fn tick_set(candidates: impl IntoIterator<Item = usize>, max: usize) -> Vec<usize> {
    let mut v: Vec<usize> = candidates
        .into_iter()
        .filter(|&t| t >= 1 && t <= max)
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}
