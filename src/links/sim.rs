//! Simulating programs: [`Sim`] steps the reference body in a link's
//! frame, counting jump presses with the one rule of what a jump press is
//! ([`jump_took_effect`]), and the bounds on how long a program may run.

use super::best::Best;
use super::landing;
use super::options::{Link, SETTLE_SLACK, action_limit, climb_limit};
use crate::classify::Classification;
use crate::level::{Cell, Level};
use crate::mechanics::LinkKind;
use crate::physics::reads::Reads;
use crate::physics::{Body, EPS, Frame, Input, Physics, Tiles};

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
/// moves in the frame of `from` ([`Frame`]), where it starts standing on
/// `(0, 0)` ([`Body::start`]). Positions live on the grid of `PHYSICS.md`
/// ("Space and units"), so motion in the frame is motion in the level, to
/// the last bit.
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
    /// The climbing ticks that moved the body so far: they do not count
    /// toward `limit`.
    pub climbed: usize,
    /// [`climb_limit`] of `p` and the level.
    pub climb_limit: usize,
    /// The worker's landing memo (none in unit tests: always computed).
    pub memo: Option<&'a landing::MemoSlot>,
}

/// A branch of a program: the tape is copied with room for the flight
/// ahead ([`TAPE_ROOM`]), where a plain clone's exact fit would be grown
/// again on the first step.
impl Clone for Sim<'_> {
    fn clone(&self) -> Self {
        let mut tape = Vec::with_capacity(self.tape.len() + TAPE_ROOM);
        tape.extend_from_slice(&self.tape);
        Self {
            frame: self.frame,
            p: self.p,
            classes: self.classes,
            from: self.from,
            body: self.body,
            tape,
            jumps: self.jumps,
            airborne: self.airborne,
            limit: self.limit,
            climbed: self.climbed,
            climb_limit: self.climb_limit,
            memo: self.memo,
        }
    }
}

/// Ticks of room a new or branched tape gets beyond what it holds:
/// enough for most flights and their settles.
const TAPE_ROOM: usize = 96;

impl<'a> Sim<'a> {
    #[cfg(test)]
    pub fn new(level: &'a Level, p: &'a Physics, classes: &'a Classification, from: Cell) -> Self {
        Self::recording(level, p, classes, from, None, None)
    }

    /// As `Sim::new` (tests), noting every cell looked up in `reads`.
    pub fn recording(
        level: &'a Level,
        p: &'a Physics,
        classes: &'a Classification,
        from: Cell,
        reads: Option<&'a Reads>,
        memo: Option<&'a landing::MemoSlot>,
    ) -> Self {
        let frame = Frame::recording(level, from, reads);
        Self {
            memo,
            body: Body::start(&frame, frame.to_frame(from), p),
            frame,
            p,
            classes,
            from,
            tape: Vec::with_capacity(TAPE_ROOM),
            jumps: 0,
            airborne: false,
            limit: action_limit(p),
            climbed: 0,
            climb_limit: climb_limit(p, level.height()),
        }
    }

    /// Whether the action phase has run out of ticks: `limit` of them,
    /// not counting climbing ticks that moved the body.
    #[inline]
    pub fn timed_out(&self) -> bool {
        self.tape.len() - self.climbed >= self.limit
    }

    /// Steps once; counts jump presses that changed the body's vertical speed
    /// upward, and climbing ticks that moved the body. Returns false if the
    /// body died or climbed past the climb limit.
    pub fn step(&mut self, input: Input) -> bool {
        let before = self.body;
        self.body.step(&self.frame, self.p, input);
        if jump_took_effect(&before, &self.frame, self.p, input) {
            self.jumps = self.jumps.saturating_add(1);
        }
        self.tape.push(input);
        if self.body.climbing && self.body.y != before.y {
            self.climbed += 1;
            if self.climbed > self.climb_limit {
                return false;
            }
        }
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
        while !self.timed_out() {
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
    ///
    /// From its switch on, a branch's inputs must depend on its target and
    /// the tick only (not on the switch): a branch leaving in the state an
    /// earlier branch toward the same target had on that tick is then that
    /// branch, and is not flown again ([`Twins`]).
    pub fn steered<P>(
        mut self,
        switches: impl IntoIterator<Item = usize>,
        targets: [i8; 2],
        program: impl Fn(Option<(usize, i8)>) -> P,
    ) -> Vec<Self>
    where
        P: FnMut(usize, &Body) -> Option<Input>,
    {
        let switches: Vec<usize> = switches.into_iter().collect();
        let mut branches = Vec::new();
        let mut twins = Twins::default();
        let mut ended = None;
        for (i, &k) in switches.iter().enumerate() {
            match self.run(program(None), Some(k)) {
                Flight::Paused => {
                    for b in targets {
                        if twins.repeats(&self, b) {
                            continue;
                        }
                        let mut s = self.clone();
                        if twins.fly(&mut s, b, &switches[i + 1..], program(Some((k, b)))) {
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
        let (at, braking) = landing::land_target(&terrain, self.p, &self.body)?;
        let target = self.frame.to_level(at);
        let lower_bound = self.tape.len() as u32 + braking + SETTLE_SLACK;
        if !best.could_improve(target, kind, lower_bound, self.jumps) {
            return None;
        }
        self.settle_at(at, target, kind)
    }

    /// Drives the grounded body to rest at `target`'s centre, then pads with
    /// [`SETTLE_SLACK`] idle ticks. `target` is a level cell, or on a level
    /// that wraps, a cell off the map across the edge the body crosses.
    pub fn settle_to(self, target: Cell, kind: LinkKind) -> Option<Link> {
        let at = self.frame.to_frame(target);
        let target = self.frame.to_level(at);
        self.settle_at(at, target, kind)
    }

    /// [`Sim::settle_to`] frame cell `t`, level cell `target`.
    fn settle_at(mut self, t: Cell, target: Cell, kind: LinkKind) -> Option<Link> {
        if target == self.from {
            return None;
        }
        let action_ticks = self.tape.len() as u32;
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

/// The states steering branches were in at the switch ticks after their
/// own, to leave out a branch that repeats an earlier one.
///
/// Branches off one base toward the same target have the same inputs from
/// the later one's switch on. When the later one leaves the base in the
/// state, bit for bit, that the earlier one had on that tick (a wall or a
/// ceiling took the difference away), it goes through the same states, and
/// lands on the same tick in the same state: its link, if any, ties the
/// earlier one's, and ties keep the link offered first ([`Best`]). Reads
/// are covered too: its lookups are the base's before its switch and the
/// earlier branch's after.
#[derive(Default)]
pub(super) struct Twins(Vec<(usize, i8, Body, u8, bool)>);

impl Twins {
    /// Flies branch `s` toward `target` to its landing with `program`,
    /// noting its state at each tape index of `marks` (ascending) it
    /// reaches in flight; returns whether it landed, as [`Sim::fly`].
    pub fn fly(
        &mut self,
        s: &mut Sim<'_>,
        target: i8,
        marks: &[usize],
        mut program: impl FnMut(usize, &Body) -> Option<Input>,
    ) -> bool {
        for &m in marks {
            if m <= s.tape.len() {
                continue;
            }
            match s.run(&mut program, Some(m)) {
                Flight::Paused => self.0.push((m, target, s.body, s.jumps, s.airborne)),
                end => return end == Flight::Landed,
            }
        }
        s.fly(program)
    }

    /// Whether a branch toward `target` leaving the base in state `s`
    /// repeats one flown before.
    pub fn repeats(&self, s: &Sim<'_>, target: i8) -> bool {
        let t = s.tape.len();
        self.0.iter().any(|&(m, b, body, jumps, airborne)| {
            m == t
                && b == target
                && same_flight((&body, jumps, airborne), (&s.body, s.jumps, s.airborne))
        })
    }
}

/// Whether two flights are in the same state: the body bit for bit, the
/// jumps counted and whether it has left the ground.
pub(super) fn same_flight(a: (&Body, u8, bool), b: (&Body, u8, bool)) -> bool {
    a.1 == b.1 && a.2 == b.2 && a.0.same_bits(b.0)
}

/// Whether `input` in this state starts a jump (PHYSICS.md step 1, with
/// coyote time, the jump buffer and ladders): the jumps a link counts.
pub(super) fn jump_took_effect<T: Tiles + ?Sized>(
    before: &Body,
    level: &T,
    p: &Physics,
    input: Input,
) -> bool {
    before.jump_starts(level, p, input)
}

/// A body of a link's frame in level coordinates (exact: positions are on
/// the grid).
#[cfg(feature = "serde")]
pub(crate) fn in_level(level: &Level, from: Cell, b: &Body) -> Body {
    use crate::physics::Tiles;
    let mut body = Body {
        x: b.x + f64::from(from.col),
        y: b.y + f64::from(from.row),
        ..*b
    };
    // Across an edge that wraps, the frame's body is whole widths off the map.
    level.wrap_feet(&mut body.x, &mut body.y);
    body
}

/// A link performed in its start cell's frame, from standing on `from`:
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
    let mut body = Body::start(&frame, frame.to_frame(from), p);
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
        let c0 = (x - p.half_w() + EPS).floor() as i32;
        let c1 = (x + p.half_w() - EPS).floor() as i32;
        let r0 = (y - p.box_h() + EPS).floor() as i32;
        let r1 = (y - EPS).floor() as i32;
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

/// The ticks to reach the apex of a full jump, `ceil(jump_speed / (gravity
/// dt))`, or with the jump boost on at least `jump_boost_ticks` (the whole
/// boost is held); at least 1 and at most [`action_limit`] (which it is
/// without gravity).
pub(crate) fn apex_ticks(p: &Physics) -> usize {
    let limit = action_limit(p);
    let per_tick = p.gravity * p.dt;
    if per_tick <= 0.0 {
        return limit;
    }
    let boost = if p.boosts() {
        f64::from(p.jump_boost_ticks)
    } else {
        0.0
    };
    let ticks = (p.jump_speed / per_tick).ceil().max(boost);
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
