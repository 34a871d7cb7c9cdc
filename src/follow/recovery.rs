//! Recovery from a knock: input programs tried on the reference body from
//! its actual state, the best one that lands alive held until it lands.
//!
//! The families and the ranking are documented on [`RecoveryProgram`].

use crate::graph::{NavMap, NodeId};
use crate::level::{Cell, Level, Tile};
use crate::links::settle_input;
use crate::physics::{Body, Input, Physics};
use crate::search;

/// The longest flight a recovery program is followed for (20 s at 60
/// ticks a second); a program still in the air by then is *open*.
pub const MAX_RECOVERY_TICKS: u32 = 1_200;

/// The ticks after which a *switch* program changes its input.
pub const RECOVERY_SWITCH_TICKS: [u32; 14] = [1, 2, 3, 4, 6, 8, 11, 15, 20, 27, 36, 48, 64, 85];

/// The longest settle after a landing a recovery simulates (4 s).
const MAX_SETTLE_TICKS: u32 = 240;

/// The six moves programs are made of, idle first.
const MOVES: [Input; 6] = [
    Input::new(0, false, false),
    Input::new(-1, false, false),
    Input::new(1, false, false),
    Input::new(0, true, false),
    Input::new(-1, true, false),
    Input::new(1, true, false),
];

/// The constant programs' inputs: the six moves, then the same with
/// `down` held.
const CONSTANTS: usize = 12;

/// The index of a constant program's input in [`constant_input`] order.
fn input_index(i: Input) -> usize {
    let m = match i.move_x {
        0 => 0,
        -1 => 1,
        _ => 2,
    };
    m + 3 * usize::from(i.jump) + 6 * usize::from(i.down)
}

fn constant_input(k: usize) -> Input {
    let m = MOVES[k % 6];
    Input::new(m.move_x, m.jump, k >= 6)
}

/// When a [`RecoveryProgram`] switches to its second input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecoverySwitch {
    /// After this many ticks of the first input.
    After(u32),
    /// At the first tick the body starts in the air touching a wall.
    WallContact,
}

/// An input program a [`crate::PathFollower`] tries on the reference body
/// from a knocked body's state: one input held, optionally switching once
/// to another.
///
/// # The families
///
/// Every program is built from six *moves*: steer left, none or right, each
/// with the jump released or held (`down` released). Holding the jump from
/// a tick where it was released is a press: a ground jump, a wall jump when
/// the box touches a wall (and the physics has wall jumps), else an air
/// jump while the body has one left; holding it through a rise keeps the
/// rise high (no jump cut).
///
/// - **constant**: one move held from the start, and the same six moves
///   with `down` held (falling through one-way platforms): 12 programs;
/// - **wall contact** (when the physics has wall jumps): steer left or
///   right with the jump released until the first tick the body starts in
///   the air touching a wall, then press the jump steering away from it,
///   not at all, or back toward it: 6 programs;
/// - **switch**: one move for [`RECOVERY_SWITCH_TICKS`] ticks (1, 2, 3,
///   4, 6, 8, 11, 15, 20, 27, 36, 48, 64 or 85), then any other move: a
///   change of steering, a jump released early (a low arc) or held late,
///   an air jump or wall jump pressed after that many ticks: 14 x 30 = 420
///   programs.
///
/// [`RecoveryProgram::family`] lists them in the order the follower tries
/// them. A program *lands* ([`RecoveryProgram::fly`]) at the first tick
/// the body ends alive and grounded, having been in the air since it
/// started (or, for a body that started on the ground, having come to
/// rest); it *dies* when the body dies first. A program that does neither
/// within [`MAX_RECOVERY_TICKS`] ticks is *open*.
///
/// After a landing, the follower brakes and centres the body on the
/// standing cell it landed on (or, when that cell is not on the map, as on
/// the overhang past a ledge, on the nearest standing cell of its row
/// within two columns) and plans from there. A landing is *clean* when
/// that settle comes to rest on the map without leaving the ground.
///
/// The follower holds, first, a clean landing on a cell from which the goal
/// may be reached, then a clean landing on a cell the map's landmark table
/// proves cannot reach the goal, then a landing whose settle leaves the
/// ground (it recovers again from there), then an open program; among
/// clean landings, the one with the fewest ticks to land and settle plus
/// [`lower_bound_ticks`](crate::search::lower_bound_ticks) from the landing cell to the goal.
/// When every program dies, the body is falling to death
/// ([`crate::follow::FollowState::FallingToDeath`]) and the follower holds the
/// program that dies last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RecoveryProgram {
    /// The input held from the first tick.
    pub first: Input,
    /// When to switch, and the input held from then on.
    pub then: Option<(RecoverySwitch, Input)>,
}

/// How a [`RecoveryProgram`] flown from a state ends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RecoveryEnd {
    /// Landed alive after `ticks` ticks, in state `body`.
    Landed {
        /// Ticks from the start.
        ticks: u32,
        /// The state on landing.
        body: Body,
    },
    /// The body died after `ticks` ticks.
    Died {
        /// Ticks from the start.
        ticks: u32,
    },
    /// Still in the air after [`MAX_RECOVERY_TICKS`].
    Open,
}

impl RecoveryProgram {
    /// The `i`-th program of the families for a physics with or without
    /// wall jumps, in the order the follower tries them: constants, wall
    /// contacts, switches by switch tick.
    fn nth(i: usize, wall_jumps: bool) -> Option<Self> {
        if i < CONSTANTS {
            return Some(Self {
                first: constant_input(i),
                then: None,
            });
        }
        let mut i = i - CONSTANTS;
        if wall_jumps {
            if i < 6 {
                return Some(Self {
                    first: MOVES[1 + i / 3],
                    then: Some((RecoverySwitch::WallContact, MOVES[3 + i % 3])),
                });
            }
            i -= 6;
        }
        let s = *RECOVERY_SWITCH_TICKS.get(i / 30)?;
        let (a, b) = (i % 30 / 5, i % 5);
        let b = if b >= a { b + 1 } else { b };
        Some(Self {
            first: MOVES[a],
            then: Some((RecoverySwitch::After(s), MOVES[b])),
        })
    }

    /// Every program of the families for `physics`, in the order the
    /// follower tries them (438 with wall jumps, else 432).
    #[must_use]
    pub fn family(physics: &Physics) -> Vec<Self> {
        let wall = physics.wall_jump.is_some();
        (0..).map_while(|i| Self::nth(i, wall)).collect()
    }

    /// Flies the program on the reference body from `body`'s state, tick by
    /// tick, until it lands, dies or runs out of ticks.
    #[must_use]
    pub fn fly(&self, level: &Level, physics: &Physics, body: &Body) -> RecoveryEnd {
        let mut b = *body;
        if b.dead {
            return RecoveryEnd::Died { ticks: 0 };
        }
        let mut airborne = !b.grounded;
        let mut switched = false;
        for t in 0..MAX_RECOVERY_TICKS {
            let input = match self.then {
                None => self.first,
                Some((when, then)) => {
                    switched = switched
                        || match when {
                            RecoverySwitch::After(s) => t >= s,
                            RecoverySwitch::WallContact => {
                                !b.grounded
                                    && (b.touches_wall_left(level, physics)
                                        || b.touches_wall_right(level, physics))
                            }
                        };
                    if switched { then } else { self.first }
                }
            };
            b.step(level, physics, input);
            if b.dead {
                return RecoveryEnd::Died { ticks: t + 1 };
            }
            if b.grounded && (airborne || b.vx == 0.0) {
                return RecoveryEnd::Landed {
                    ticks: t + 1,
                    body: b,
                };
            }
            airborne |= !b.grounded;
        }
        RecoveryEnd::Open
    }
}

/// What the ground policy does with a grounded body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ground {
    /// At rest, centred on this standing cell: plan from it.
    Rest(Cell),
    /// Braking or centring with this input.
    Push(Input),
    /// Not grounded, or no standing cell near.
    Lost,
}

/// The ground policy: brake and centre on the standing cell, or, standing
/// where no path starts (the overhang past a ledge), on the nearest
/// standing cell of the row within two columns.
pub(crate) fn ground_input(map: &NavMap, body: &Body) -> Ground {
    let Some(cell) = body.standing_cell() else {
        return Ground::Lost;
    };
    let target = if map.node(cell).is_some() {
        cell
    } else {
        let mut best: Option<(f64, Cell)> = None;
        for dc in [-2, -1, 1, 2] {
            let c = Cell::new(cell.col + dc, cell.row);
            let d = (f64::from(c.col) + 0.5 - body.x).abs();
            if map.node(c).is_some() && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, c));
            }
        }
        match best {
            Some((_, c)) => c,
            None => return Ground::Lost,
        }
    };
    match settle_input(body, f64::from(target.col) + 0.5, map.physics()) {
        None => Ground::Rest(target),
        Some(input) => Ground::Push(input),
    }
}

/// How a settle from a landing ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Settled {
    /// At rest on this cell after this many ticks.
    Rest(u32, Cell),
    /// Left the ground, got lost or timed out (`false`), or died (`true`).
    Failed(bool),
}

/// Runs the ground policy from a grounded body until it rests on the map.
pub(crate) fn settle(map: &NavMap, body: &Body, steps: &mut u64) -> Settled {
    let mut b = *body;
    for t in 0..MAX_SETTLE_TICKS {
        if b.dead {
            return Settled::Failed(true);
        }
        if !b.grounded {
            return Settled::Failed(false);
        }
        match ground_input(map, &b) {
            Ground::Rest(cell) => return Settled::Rest(t, cell),
            Ground::Lost => return Settled::Failed(false),
            Ground::Push(input) => {
                b.step(map.level(), map.physics(), input);
                *steps += 1;
            }
        }
    }
    Settled::Failed(b.dead)
}

/// Whether a grounded body has a one-way tile under its box (a superset of
/// the tiles step 7 reads).
fn on_one_way(level: &Level, p: &Physics, b: &Body) -> bool {
    if !b.grounded {
        return false;
    }
    let row = b.y.round() as i64;
    let (c0, c1) = (
        (b.x - p.half_w()).floor() as i64,
        (b.x + p.half_w()).floor() as i64,
    );
    (c0..=c1).any(|c| level.tile_at(c, row) == Tile::ONE_WAY)
}

/// How a held input ends, in [`Search`]'s simulations.
#[derive(Debug, Clone, Copy, PartialEq)]
enum End {
    Landed(u32, Body),
    Died(u32),
    Open,
    /// Cut: it cannot beat the best program found.
    Pruned,
}

/// One constant input flown from the root, every state kept (the first
/// inputs of the switch and wall-contact programs).
#[derive(Debug, Clone, Default)]
struct Trunk {
    /// `states[t]`: the body before tick `t`, through the end.
    states: Vec<Body>,
    end: Option<End>,
    /// The first tick it starts airborne touching a wall.
    contact: Option<u32>,
    /// The first tick it starts airborne.
    first_air: Option<u32>,
    /// Some state stands on a one-way tile (the `down` twin differs).
    one_way: bool,
}

/// A program's place in the ranking.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Candidate {
    program: RecoveryProgram,
    /// The tick its second input starts (`u32::MAX`: never).
    switch: u32,
    /// 0: clean landing, goal may be reached; 1: clean landing, goal
    /// unreachable; 2: the settle fails; 3: open.
    class: u8,
    cost: u32,
    /// Ticks to landing (or death).
    ticks: u32,
    landing: Option<Cell>,
}

impl Candidate {
    fn key(&self) -> (u8, u32) {
        (self.class, self.cost)
    }
}

/// What the held recovery program says about the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outlook {
    /// It lands on `landing` (if it settles cleanly) in `ticks` ticks.
    Lands { landing: Option<Cell>, ticks: u32 },
    /// Every program tried dies; this one in `ticks` ticks.
    Dies { ticks: u32 },
    /// No program lands or dies within the horizon.
    Open,
}

/// The recovery search from one root state, and the program it holds.
/// Kept in the follower between ticks (its vectors reused), so a search
/// can spread over ticks: programs whose inputs so far match those the
/// held program gave are still valid from the root.
#[derive(Debug, Clone, Default)]
pub(crate) struct Search {
    root: Option<Body>,
    goal: Option<NodeId>,
    wall_jumps: bool,
    trunks: Vec<Trunk>,
    /// The next program index to try.
    cursor: usize,
    best: Option<Candidate>,
    /// The program that dies last, while none survives.
    last_death: Option<Candidate>,
    /// The held program's states from the root through its end.
    held: Vec<Body>,
    /// Body steps spent on this search.
    pub spent: u64,
    /// The constant programs are flown.
    trunks_flown: bool,
    /// Every program tried.
    done: bool,
}

impl Search {
    /// Starts a search from `root` toward `goal` (none: land anywhere).
    pub fn start(&mut self, map: &NavMap, root: &Body, goal: Option<Cell>) {
        self.root = Some(*root);
        self.goal = goal.and_then(|g| map.node(g));
        self.wall_jumps = map.physics().wall_jump.is_some();
        self.trunks.resize_with(CONSTANTS, Trunk::default);
        for t in &mut self.trunks {
            t.states.clear();
            t.end = None;
            t.contact = None;
            t.first_air = None;
            t.one_way = false;
        }
        self.cursor = 0;
        self.best = None;
        self.last_death = None;
        self.held.clear();
        self.spent = 0;
        self.trunks_flown = false;
        self.done = false;
    }

    /// Whether the body is where the held program put it after `elapsed`
    /// ticks, and the program has not ended.
    pub fn follows(&self, body: &Body, elapsed: u32, tol: f64) -> bool {
        let k = elapsed as usize;
        k + 1 < self.held.len() && super::same_state(&self.held[k], body, tol)
    }

    /// The held program's input for tick `elapsed`.
    pub fn input(&self, elapsed: u32) -> Input {
        match self.held_candidate() {
            Some(c) => {
                if elapsed >= c.switch {
                    c.program.then.map_or(c.program.first, |(_, i)| i)
                } else {
                    c.program.first
                }
            }
            None => Input::IDLE,
        }
    }

    fn held_candidate(&self) -> Option<&Candidate> {
        self.best.as_ref().or(self.last_death.as_ref())
    }

    /// What the held program says, `elapsed` ticks after the root.
    pub fn outlook(&self, elapsed: u32) -> Outlook {
        match (&self.best, &self.last_death) {
            (Some(c), _) if c.class == 3 => Outlook::Open,
            (Some(c), _) => Outlook::Lands {
                landing: c.landing,
                ticks: c.ticks.saturating_sub(elapsed),
            },
            (None, Some(d)) => Outlook::Dies {
                ticks: d.ticks.saturating_sub(elapsed),
            },
            (None, None) => Outlook::Open,
        }
    }

    /// Tries programs, `elapsed` ticks after the root, until `budget` body
    /// steps are spent (the program under way is finished) or every
    /// program is tried. The constant programs are always flown, and while
    /// no program lands (or stays open) the search goes on past the budget.
    pub fn work(&mut self, map: &NavMap, elapsed: u32, budget: u64) {
        let Some(root) = self.root else {
            return;
        };
        let start = self.spent;
        if !self.trunks_flown {
            self.trunks_flown = true;
            self.fly_trunks(map, &root);
        }
        while !self.done {
            let found = self.best.is_some();
            if found && self.spent - start >= budget {
                break;
            }
            let Some(program) = RecoveryProgram::nth(self.cursor, self.wall_jumps) else {
                self.done = true;
                break;
            };
            self.cursor += 1;
            if let Some((when, then)) = program.then {
                self.try_switch(map, program, when, then, elapsed);
            }
        }
    }

    /// Flies the constant programs (the trunks) and ranks them.
    fn fly_trunks(&mut self, map: &NavMap, root: &Body) {
        let (level, p) = (map.level(), map.physics());
        for k in 0..CONSTANTS {
            if k >= 6 && !self.trunks[k - 6].one_way {
                // Without a one-way tile under it, `down` changes nothing:
                // the twin flies the same and ranks no better.
                continue;
            }
            let input = constant_input(k);
            let mut trunk = std::mem::take(&mut self.trunks[k]);
            trunk.states.push(*root);
            let end = hold(
                map,
                *root,
                0,
                !root.grounded,
                input,
                Some(&mut trunk.states),
                &mut self.spent,
                |_, _| false,
            );
            let states = &trunk.states;
            trunk.first_air = states.iter().position(|b| !b.grounded).map(|t| t as u32);
            trunk.one_way = states.iter().any(|b| on_one_way(level, p, b));
            if self.wall_jumps {
                trunk.contact = states
                    .iter()
                    .position(|b| {
                        !b.grounded
                            && (b.touches_wall_left(level, p) || b.touches_wall_right(level, p))
                    })
                    .map(|t| t as u32);
            }
            trunk.end = Some(end);
            let program = RecoveryProgram {
                first: input,
                then: None,
            };
            self.trunks[k] = trunk;
            self.offer(map, program, u32::MAX, end);
        }
    }

    /// Tries one switch or wall-contact program, if still valid.
    fn try_switch(
        &mut self,
        map: &NavMap,
        program: RecoveryProgram,
        when: RecoverySwitch,
        then: Input,
        elapsed: u32,
    ) {
        let trunk = &self.trunks[input_index(program.first)];
        if trunk.end.is_none() {
            return;
        }
        let s = match when {
            RecoverySwitch::After(s) => s,
            RecoverySwitch::WallContact => match trunk.contact {
                Some(c) => c,
                None => return,
            },
        };
        // The trunk ends at tick `states.len() - 1`: no switch after that.
        if s as usize + 1 >= trunk.states.len() {
            return;
        }
        // Still valid: its inputs so far are the held program's.
        if elapsed > 0 {
            let Some(h) = self.held_candidate() else {
                return;
            };
            let same_switch = h.switch == s && h.program.then.map(|t| t.1) == Some(then);
            if h.program.first != program.first || (elapsed > s.min(h.switch) && !same_switch) {
                return;
            }
        }
        let from = trunk.states[s as usize];
        let airborne = trunk.first_air.is_some_and(|f| f <= s);
        let bound = self.prune_bound();
        let goal_x = self.goal.map(|g| f64::from(map.cell(g).col) + 0.5);
        let tpc = map.ticks_per_col();
        let wrap = f64::from(crate::search::wrap_cols(map));
        let end = hold(
            map,
            from,
            s,
            airborne,
            then,
            None,
            &mut self.spent,
            |t, b| {
                bound.is_some_and(|c| {
                    let lb = goal_x.map_or(0.0, |gx| {
                        let d = (gx - b.x).abs();
                        let d = if wrap > 0.0 { d.min(wrap - d) } else { d };
                        (d - 2.0).max(0.0) * tpc
                    });
                    f64::from(t) + lb.floor() >= f64::from(c)
                })
            },
        );
        self.offer(map, program, s, end);
    }

    /// The cost a program must beat to matter, when the best lands cleanly
    /// where the goal may be reached.
    fn prune_bound(&self) -> Option<u32> {
        self.best.filter(|c| c.class == 0).map(|c| c.cost)
    }

    /// Ranks a flown program; a new best is re-flown to keep its states.
    fn offer(&mut self, map: &NavMap, program: RecoveryProgram, switch: u32, end: End) {
        let mut c = Candidate {
            program,
            switch,
            class: 3,
            cost: 0,
            ticks: 0,
            landing: None,
        };
        match end {
            End::Pruned => return,
            End::Died(t) => {
                c.ticks = t;
                if self.best.is_none() && self.last_death.is_none_or(|d| t > d.ticks) {
                    self.last_death = Some(c);
                    self.keep_states(map);
                }
                return;
            }
            End::Open => c.ticks = MAX_RECOVERY_TICKS,
            End::Landed(t, body) => {
                c.ticks = t;
                match settle(map, &body, &mut self.spent) {
                    Settled::Rest(ticks, cell) => {
                        c.landing = Some(cell);
                        let node = map.node(cell);
                        let unreachable = match (node, self.goal) {
                            (Some(n), Some(g)) => map.cannot_reach(n, g),
                            _ => false,
                        };
                        let lb = match (node, self.goal) {
                            (Some(n), Some(g)) => search::lower_bound_ticks(map, n, g),
                            _ => 0,
                        };
                        c.class = u8::from(unreachable);
                        c.cost = t + ticks + lb;
                    }
                    Settled::Failed(died) => {
                        c.class = 2;
                        c.cost = t + if died { 100_000 } else { 0 };
                    }
                }
            }
        }
        if self.best.is_none_or(|b| c.key() < b.key()) {
            self.best = Some(c);
            self.last_death = None;
            self.keep_states(map);
        }
    }

    /// Re-flies the held program recording its states.
    fn keep_states(&mut self, map: &NavMap) {
        let Some(c) = self.held_candidate().copied() else {
            return;
        };
        let trunk = &self.trunks[input_index(c.program.first)];
        self.held.clear();
        if c.switch == u32::MAX {
            self.held.extend_from_slice(&trunk.states);
            return;
        }
        let s = c.switch as usize;
        self.held.extend_from_slice(&trunk.states[..=s]);
        let airborne = trunk.first_air.is_some_and(|f| f <= c.switch);
        let then = c.program.then.map_or(c.program.first, |(_, i)| i);
        let from = trunk.states[s];
        let mut held = std::mem::take(&mut self.held);
        hold(
            map,
            from,
            c.switch,
            airborne,
            then,
            Some(&mut held),
            &mut self.spent,
            |_, _| false,
        );
        self.held = held;
    }
}

/// Holds `input` from `from` at tick `t0` until the body lands, dies, the
/// horizon passes or `prune(tick, body)` says stop; pushes each new state
/// onto `rec`.
#[allow(clippy::too_many_arguments)]
fn hold(
    map: &NavMap,
    from: Body,
    t0: u32,
    mut airborne: bool,
    input: Input,
    mut rec: Option<&mut Vec<Body>>,
    steps: &mut u64,
    mut prune: impl FnMut(u32, &Body) -> bool,
) -> End {
    let (level, p) = (map.level(), map.physics());
    let mut b = from;
    for t in t0..MAX_RECOVERY_TICKS {
        if prune(t, &b) {
            return End::Pruned;
        }
        b.step(level, p, input);
        *steps += 1;
        if let Some(r) = rec.as_deref_mut() {
            r.push(b);
        }
        if b.dead {
            return End::Died(t + 1);
        }
        if b.grounded && (airborne || b.vx == 0.0) {
            return End::Landed(t + 1, b);
        }
        airborne |= !b.grounded;
    }
    End::Open
}
