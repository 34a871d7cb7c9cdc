//! Trajectory templates for the jump families, grown into a decision tree
//! over tile classes.
//!
//! Links are computed in the frame of their start cell, so performing a
//! program from two cells is the same computation, bit for bit, as long as
//! every tile the body looks up has the same class (empty, solid, one-way,
//! hazard) in both frames, and every cell the landing asks about is
//! standable in both or in neither. A *template* is that computation done
//! once in an assumed world, with each first lookup of a cell along the way
//! recorded as a *check* (cell, the class assumed, the tick).
//!
//! The assumed world starts as the floor under the start and nothing else.
//! For a real cell, the builder walks each family's tree of programs (the
//! base, branching into its steering options at each switch tick) comparing
//! the checks against the level; while they hold, the real performance *is*
//! the template, landing and settle included, and nothing is simulated.
//! At the first check that fails, the branch is simulated on from the state
//! just before that tick in the cell's real terrain (every lookup still
//! recorded as a check), and kept for the next cell that meets the same
//! terrain. The tree therefore grows toward the terrain a level actually
//! has, and a cell pays for simulation only where its surroundings differ
//! from every cell walked before.
//!
//! The death test against the level's bottom (PHYSICS.md step 8) is
//! repeated per cell from each node's deepest point, so falls into pits stay
//! in the tree. A landing's settle is simulated only when a cell first
//! needs that link: most landings are beaten by a link already kept, which
//! the braking lower bound shows before any settle tick. The result is
//! identical to simulating every program from scratch.

use std::cell::RefCell;
use std::sync::Arc;

use super::programs::{Steered, families, fly_branch, kind_of, run_family};
use crate::classify::Classification;
use crate::level::{Cell, Level, Tile};
use crate::links::best::{Best, FastMap};
use crate::links::families::flat_runs::{FlatRun, flat_tapes};
use crate::links::families::start::Start;
use crate::links::landing::MemoSlot;
use crate::links::options::action_limit;
use crate::links::options::{JumpVariety, SETTLE_SLACK};
use crate::links::settle::{land_target, settle};
use crate::links::sim::{Sim, jump_took_effect, same_flight};
use crate::mechanics::Active;
use crate::mechanics::LinkKind;
use crate::physics::reads::Reads;
use crate::physics::{Body, Input, Physics, Tiles};

/// Rows below its start a template follows a fall before it hands over to
/// exact simulation (and rows above it, a rise).
const DEPTH: f64 = 12.0;
/// Ticks a base template follows one program before it hands over to
/// exact simulation. Flights in the assumed world end sooner (they fall
/// past [`DEPTH`]) unless the physics lets the body hover, and then this
/// bounds the base trees' memory whatever the tick rate.
const BASE_TICKS: usize = 1024;
/// Floor columns on each side of the start in the first assumed world (the
/// run-up needs them).
const FLOOR: i32 = 3;
/// The step index of the checks made by the landing procedure.
const LAND: u32 = u32::MAX - 1;
/// The step index of the checks made by the settle.
const SETTLE: u32 = u32::MAX;

/// The class of a tile as the body tells them apart: its kind, with the
/// tiles it passes freely (the goal and spawn markers) as empty. Empty is
/// 0 and solid 1.
#[inline]
fn class(t: Tile) -> u8 {
    if t.is_free() { 0 } else { t.index() as u8 }
}

fn tile_of(class: u8) -> Tile {
    Tile::ALL
        .get(usize::from(class))
        .copied()
        .unwrap_or(Tile::EMPTY)
}

/// Which mechanics' rules a level's body takes ([`Active`]): the body
/// looks tiles up differently under each, so templates are grown apart
/// for each.
pub(crate) type Rules = Active;

/// The rules of `level`'s body.
pub(crate) fn rules_of(level: &Level) -> Rules {
    Active::of(level)
}

/// The state after a tick of a template.
#[derive(Clone, Copy)]
struct Snap {
    body: Body,
    jumps: u8,
    airborne: bool,
}

/// What a template assumed about one cell: its tile class, or (for the
/// landing's questions) whether it is standable.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Fact {
    dc: i32,
    dr: i32,
    standable: bool,
    class: u8,
}

/// A fact first relied on at step `step` of a node ([`LAND`] for the
/// landing procedure).
#[derive(Clone, Copy)]
struct Check {
    step: u32,
    fact: Fact,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum End {
    /// Landed after being airborne; `outcome` holds the settle.
    Landed,
    /// The assumed world's template stops here (a deep fall, a high or wide
    /// flight, or [`BASE_TICKS`]); simulate on in the real terrain.
    Open,
    /// The program gave up (the run-up left the ground) or died.
    Failed,
    /// A switch tick: the children go on.
    Branch,
    /// A steering branch whose body, at its first tick, is bit for bit
    /// that of the earlier branch `of` (same family and direction) after
    /// `upto` of its steps. Both go on with the same inputs, so this one
    /// lands where `of` does on the same tick, and offers a link that ties
    /// `of`'s, which [`Best`] keeps: nothing is simulated. It holds in a
    /// real cell when `of`'s checks and death tests before step `upto`
    /// do; otherwise the branch is simulated there.
    Twin { of: u32, upto: u32 },
}

/// The link a landed node makes, in its start's frame.
struct Outcome {
    to: Cell,
    kind: LinkKind,
    jumps: u8,
    /// Ticks of braking alone to rest (a lower bound on the settle's).
    braking: u32,
    /// The body as it landed.
    landing: Body,
    settle: Settle,
}

/// A landing's settle phase: simulated when a cell first needs the link
/// (most landings are beaten by a link already kept, and never need it).
enum Settle {
    Unknown,
    Failed,
    Done(Vec<Input>),
}

/// A stretch of one program between branch points.
///
/// Laid out for the walk, which visits many nodes per cell: what it reads
/// of every node (the checks, where the settle's begin, the bottom test,
/// the end) shares the node's first cache line.
#[repr(C, align(64))]
struct Node {
    checks: Vec<Check>,
    /// The deepest the box's top went (`y - h`) over the node's steps,
    /// leaving out a last step that died below the level's bottom.
    deepest: f64,
    /// `y - h` of that last step, when the node died below the bottom.
    fell_out: Option<f64>,
    /// The checks before the settle's: `checks[..settle_from]` have steps
    /// below [`SETTLE`] (the settle's are only ever appended after them).
    settle_from: u32,
    /// Tape index of the node's first step.
    start: u32,
    end: End,
    children: Vec<u32>,
    inputs: Vec<Input>,
    outcome: Option<Outcome>,
    family: u32,
    /// The steering of a branch (`None` on the base).
    steer: Option<(usize, i8)>,
    /// The node this one continues, after that many of its steps.
    parent: Option<(u32, u32)>,
    /// Facts known before the first step beyond those of the prefix.
    seed: Vec<Fact>,
    snaps: Vec<Snap>,
}

impl Node {
    /// The node of `family`/`steer` continuing `parent` from tape index
    /// `start`, knowing the facts `seed`, before its first step.
    #[inline]
    fn new(
        family: u32,
        steer: Option<(usize, i8)>,
        parent: Option<(u32, u32)>,
        start: usize,
        seed: Vec<Fact>,
    ) -> Self {
        Node {
            family,
            steer,
            parent,
            start: start as u32,
            seed,
            // Room for a typical node's steps, so that pushing them does
            // not reallocate; the snapshots are trimmed when it is done.
            inputs: Vec::with_capacity(32),
            snaps: Vec::with_capacity(32),
            checks: Vec::new(),
            settle_from: 0,
            end: End::Landed,
            children: Vec::new(),
            outcome: None,
            deepest: f64::NEG_INFINITY,
            fell_out: None,
        }
    }

    /// The [`End::Twin`] node of steering `steer` off `parent` at tape
    /// index `start`.
    fn twin(
        family: u32,
        steer: Option<(usize, i8)>,
        parent: (u32, u32),
        start: usize,
        of: u32,
        upto: u32,
    ) -> Self {
        Node {
            checks: Vec::new(),
            deepest: f64::NEG_INFINITY,
            fell_out: None,
            settle_from: 0,
            start: start as u32,
            end: End::Twin { of, upto },
            children: Vec::new(),
            inputs: Vec::new(),
            outcome: None,
            family,
            steer,
            parent: Some(parent),
            seed: Vec::new(),
            snaps: Vec::new(),
        }
    }

    /// Notes the node's bottom tests against a bottom `rows` down (`h`
    /// the body's height): the deepest the box's top went, and where its
    /// last step died below the bottom, if it did.
    #[inline]
    fn note_bottom_tests(&mut self, rows: f64, h: f64) {
        for (i, snap) in self.snaps.iter().enumerate() {
            let top = snap.body.y - h;
            if top > rows && i + 1 == self.snaps.len() {
                self.fell_out = Some(top);
            } else {
                self.deepest = self.deepest.max(top);
            }
        }
    }

    fn bytes(&self) -> usize {
        size_of::<Node>()
            + self.seed.len() * size_of::<Fact>()
            + self.inputs.len() * size_of::<Input>()
            + self.snaps.len() * size_of::<Snap>()
            + self.checks.len() * size_of::<Check>()
            + self.children.len() * 4
            + self.outcome.as_ref().map_or(0, |o| match &o.settle {
                Settle::Done(t) => t.len() * size_of::<Input>(),
                _ => 0,
            })
    }
}

/// Facts known about the cells around a start: a dense window (most
/// lookups), the rest in a map.
#[derive(Clone)]
struct Known {
    window: Vec<u8>,
    rest: FastMap<(i32, i32, bool), u8>,
}

/// The window's half-width and half-height in cells.
const WX: i32 = 16;
const WY: i32 = 12;
const UNKNOWN: u8 = u8::MAX;

impl Known {
    fn new() -> Self {
        Self {
            window: vec![UNKNOWN; (4 * WX * WY) as usize * 2],
            rest: FastMap::default(),
        }
    }

    #[inline]
    fn slot(dc: i32, dr: i32, standable: bool) -> Option<usize> {
        // One unsigned comparison per axis (a negative offset wraps high).
        let (x, y) = (dc.wrapping_add(WX) as u32, dr.wrapping_add(WY) as u32);
        (x < 2 * WX as u32 && y < 2 * WY as u32)
            .then(|| (((y * 2 * WX as u32 + x) as usize) << 1) | usize::from(standable))
    }

    #[inline]
    fn get(&self, dc: i32, dr: i32, standable: bool) -> Option<u8> {
        match Self::slot(dc, dr, standable) {
            Some(i) => Some(self.window[i]).filter(|&c| c != UNKNOWN),
            None => self.rest.get(&(dc, dr, standable)).copied(),
        }
    }

    fn insert(&mut self, f: &Fact) {
        match Self::slot(f.dc, f.dr, f.standable) {
            Some(i) => self.window[i] = f.class,
            None => {
                self.rest.insert((f.dc, f.dr, f.standable), f.class);
            }
        }
    }
}

/// The world a node is simulated in: known facts, else a real cell's
/// terrain (grown branches) or the floor under the start and nothing (the
/// base trees); every first use of a cell becomes a check.
struct World<'r> {
    known: RefCell<Known>,
    checks: RefCell<Vec<Check>>,
    step: std::cell::Cell<u32>,
    /// The real terrain around a start cell, when a branch is grown for
    /// it; `None` for the assumed world of the base trees.
    real: Option<&'r Walker<'r>>,
    /// The rules the body takes here (those of the templates).
    rules: Rules,
}

impl<'r> World<'r> {
    fn new(known: Known, real: Option<&'r Walker<'r>>, rules: Rules) -> Self {
        Self {
            known: RefCell::new(known),
            checks: RefCell::new(Vec::with_capacity(16)),
            step: std::cell::Cell::new(0),
            real,
            rules,
        }
    }

    /// The class of a cell: known already (most lookups), or learned now.
    #[inline]
    fn fact(&self, dc: i32, dr: i32, standable: bool) -> u8 {
        if let Some(c) = self.known.borrow().get(dc, dr, standable) {
            return c;
        }
        self.learn(dc, dr, standable)
    }

    /// [`World::fact`] for a cell not known yet.
    #[inline(never)]
    fn learn(&self, dc: i32, dr: i32, standable: bool) -> u8 {
        let mut known = self.known.borrow_mut();
        let cell = Fact {
            dc,
            dr,
            standable,
            class: 0,
        };
        let class = match self.real {
            Some(w) => w.real(&cell),
            // Assume standable, and the floor under the start.
            None => u8::from(standable || (dr == 1 && dc.abs() <= FLOOR)),
        };
        let fact = Fact { class, ..cell };
        known.insert(&fact);
        self.checks.borrow_mut().push(Check {
            step: self.step.get(),
            fact,
        });
        class
    }
}

impl Tiles for World<'_> {
    #[inline]
    fn tile_at(&self, col: i64, row: i64) -> Tile {
        let (Ok(c), Ok(r)) = (i32::try_from(col), i32::try_from(row)) else {
            return Tile::SOLID;
        };
        tile_of(self.fact(c, r, false))
    }
    fn rows(&self) -> f64 {
        self.real.map_or(f64::INFINITY, Walker::rows)
    }
    fn holds(&self, tile: Tile) -> bool {
        self.rules.may_hold(tile)
    }
}

/// The settle of a landing in `world`, its lookups checked at [`SETTLE`].
fn settle_in(world: &World<'_>, p: &Physics, o: &Outcome) -> Settle {
    let mut body = o.landing;
    let mut tape = Vec::with_capacity(32);
    if settle(world, p, &mut body, o.to, &mut tape) {
        Settle::Done(tape)
    } else {
        Settle::Failed
    }
}

/// The earlier branch of `flown` (nodes of `out`, numbered from `offset`)
/// steering toward `b` whose state at tape index `t` is bit for bit `s`,
/// and how many of its steps lead there. From `t` on, a branch steering
/// toward `b` off the base has the same inputs as it (`move = b`, the
/// base's jump presses).
fn twin_of(
    out: &[Node],
    offset: u32,
    flown: &[(u32, i8)],
    b: i8,
    t: usize,
    s: &Snap,
) -> Option<(u32, u32)> {
    flown.iter().find_map(|&(id, dir)| {
        let n = &out[(id - offset) as usize];
        let upto = t.checked_sub(n.start as usize)?;
        let at = n.snaps.get(upto.checked_sub(1)?)?;
        let same = same_flight(
            (&at.body, at.jumps, at.airborne),
            (&s.body, s.jumps, s.airborne),
        );
        (dir == b && same).then_some((id, upto as u32))
    })
}

/// The family trees of one physics profile and jump set, shared by every
/// build with them.
pub(crate) struct JumpTemplates {
    p: Physics,
    variety: JumpVariety,
    rules: Rules,
    families: Vec<Steered>,
    /// The base trees: node `roots[i]` starts family `i`.
    nodes: Vec<Node>,
    roots: Vec<u32>,
    /// Run tapes on flat ground (see [`flat_tapes`]).
    pub(crate) runs: Vec<[Option<FlatRun>; 2]>,
}

/// Whether the cell grown for could keep a link (its target, kind, a lower
/// bound on its ticks, its jumps): a landing's settle is simulated only
/// when it could.
type Want<'a> = &'a dyn Fn(Cell, LinkKind, u32, u8) -> bool;

/// Simulates node programs and grows trees.
struct Grower<'a> {
    p: &'a Physics,
    families: &'a [Steered],
}

impl Grower<'_> {
    /// Builds the node of `family`/`steer` that starts from `from` at tape
    /// index `t0` in `world`, and (at a branch) its children, appending them
    /// to `out` whose first index is `offset`; returns the node's index.
    /// `flown` lists the steering branches (node, direction) this call
    /// built off the base before `t0`: a branch that would repeat one is
    /// an [`End::Twin`].
    #[allow(clippy::too_many_arguments)]
    fn build(
        &self,
        out: &mut Vec<Node>,
        offset: u32,
        family: u32,
        steer: Option<(usize, i8)>,
        parent: Option<(u32, u32)>,
        seed: Vec<Fact>,
        from: Snap,
        t0: usize,
        world: World,
        land_only: bool,
        want: Want<'_>,
        flown: &[(u32, i8)],
    ) -> u32 {
        let p = self.p;
        let fam = &self.families[family as usize];
        let mut s = from;
        let mut n = Node::new(family, steer, parent, t0, seed);
        let run_up = fam.base.run_up;
        let until = if steer.is_none() {
            fam.switches.iter().map(|&k| run_up + k).find(|&at| at > t0)
        } else {
            None
        };
        let mut t = t0;
        let limit = action_limit(p);
        if !land_only {
            (n.end, t) = self.fly(fam, (steer, until, limit), &world, &mut n, &mut s, t);
        }
        if n.end == End::Landed {
            let action = (t0 + n.inputs.len()) as u32;
            if let Some(o) = self.land(&world, &s, action, want) {
                n.outcome = Some(o);
            }
        }
        n.checks = world.checks.take();
        n.settle_from = n.checks.partition_point(|c| c.step < SETTLE) as u32;
        n.snaps.shrink_to_fit();
        // PHYSICS.md step 8 compares `y - h` with the bottom each step; the
        // walker repeats those comparisons against a real cell's bottom.
        n.note_bottom_tests(world.rows(), p.h);
        let id = offset + out.len() as u32;
        let end = n.end;
        let len = n.inputs.len() as u32;
        out.push(n);
        if end == End::Branch {
            let k = until.expect("a branch has a switch") - run_up;
            let children = self.branch(
                out,
                offset,
                (family, k),
                (id, len),
                (t, s),
                world,
                want,
                flown,
            );
            out[(id - offset) as usize].children = children;
        }
        id
    }

    /// Simulates node `n`'s program from state `s` at tape index `t` in
    /// `world`, pushing each step's input and state, until it ends (`until`
    /// a switch tick, `limit` the action limit); returns how it ended, and
    /// the tape index it ended at.
    #[inline]
    fn fly(
        &self,
        fam: &Steered,
        (steer, until, limit): (Option<(usize, i8)>, Option<usize>, usize),
        world: &World<'_>,
        n: &mut Node,
        s: &mut Snap,
        mut t: usize,
    ) -> (End, usize) {
        let p = self.p;
        let end = loop {
            // Past the action limit the program is no link, in any world.
            if t >= limit {
                break End::Failed;
            }
            // The assumed world hands long, deep, high or wide flights
            // over to the real terrain (exact simulation goes on there).
            if world.real.is_none()
                && (t >= BASE_TICKS
                    || s.body.y > 1.0 + DEPTH
                    || s.body.y < -DEPTH
                    || s.body.x.abs() > f64::from(2 * WX))
            {
                break End::Open;
            }
            if until == Some(t) {
                break End::Branch;
            }
            let Some(input) = fam.base.input(t, &s.body, steer) else {
                break End::Failed;
            };
            world.step.set(n.inputs.len() as u32);
            let before = s.body;
            s.body.step(world, p, input);
            if jump_took_effect(&before, world, p, input) {
                s.jumps = s.jumps.saturating_add(1);
            }
            n.inputs.push(input);
            let was_airborne = s.airborne;
            if !s.body.grounded {
                s.airborne = true;
            }
            n.snaps.push(*s);
            t += 1;
            if s.body.dead {
                break End::Failed;
            }
            if s.body.grounded && was_airborne {
                break End::Landed;
            }
        };
        (end, t)
    }

    /// The link a node that landed in state `s` makes, its action
    /// `action` ticks long, if the landing procedure finds one; its settle
    /// is simulated now only when `want` could keep the link.
    #[inline]
    fn land(&self, world: &World<'_>, s: &Snap, action: u32, want: Want<'_>) -> Option<Outcome> {
        let p = self.p;
        world.step.set(LAND);
        let stand = |c: Cell| world.fact(c.col, c.row, true) == 1;
        let (to, braking) = land_target(world, p, &s.body, stand)?;
        let mut o = Outcome {
            to,
            kind: kind_of(s.jumps),
            jumps: s.jumps,
            braking,
            landing: s.body,
            settle: Settle::Unknown,
        };
        if want(to, o.kind, action + braking + SETTLE_SLACK, o.jumps) {
            world.step.set(SETTLE);
            o.settle = settle_in(world, p, &o);
        }
        Some(o)
    }

    /// Builds the children of branch node `id` (of `family`, `len` steps
    /// long), which switches steering (switch `k`) in state `s` at tape
    /// index `t`: one per steering target, a twin of an earlier branch
    /// where one flies the same, then the base going on. Returns them.
    #[allow(clippy::too_many_arguments)]
    fn branch(
        &self,
        out: &mut Vec<Node>,
        offset: u32,
        (family, k): (u32, usize),
        (id, len): (u32, u32),
        (t, s): (usize, Snap),
        world: World,
        want: Want<'_>,
        flown: &[(u32, i8)],
    ) -> Vec<u32> {
        let fam = &self.families[family as usize];
        let real = world.real;
        let known = world.known.into_inner();
        let mut children = Vec::new();
        let mut flown = flown.to_vec();
        for &b in &fam.targets {
            let steer = Some((k, b));
            let tw = twin_of(out, offset, &flown, b, t, &s);
            let child = if let Some((of, upto)) = tw {
                let n = Node::twin(family, steer, (id, len), t, of, upto);
                out.push(n);
                offset + out.len() as u32 - 1
            } else {
                let w = World::new(known.clone(), real, world.rules);
                let child = self.build(
                    out,
                    offset,
                    family,
                    steer,
                    Some((id, len)),
                    Vec::new(),
                    s,
                    t,
                    w,
                    false,
                    want,
                    &[],
                );
                flown.push((child, b));
                child
            };
            children.push(child);
        }
        let w = World::new(known, real, world.rules);
        children.push(self.build(
            out,
            offset,
            family,
            None,
            Some((id, len)),
            Vec::new(),
            s,
            t,
            w,
            false,
            want,
            &flown,
        ));
        children
    }
}

impl JumpTemplates {
    /// Bytes the base trees hold (an estimate of their heap).
    pub(crate) fn bytes(&self) -> usize {
        self.nodes.iter().map(Node::bytes).sum::<usize>()
            + self
                .runs
                .iter()
                .flatten()
                .flatten()
                .map(|r| r.tape.len() * size_of::<Input>())
                .sum::<usize>()
    }

    /// The base trees for `p`, `variety` and `rules`.
    pub(crate) fn build(p: &Physics, variety: JumpVariety, rules: Rules) -> Self {
        let families = families(p, variety);
        let g = Grower {
            p,
            families: &families,
        };
        let start = Snap {
            body: Body::standing(Cell::new(0, 0), p),
            jumps: 0,
            airborne: false,
        };
        let one = |f: usize| {
            let mut out = Vec::new();
            g.build(
                &mut out,
                0,
                f as u32,
                None,
                None,
                Vec::new(),
                start,
                0,
                World::new(Known::new(), None, rules),
                false,
                &|_, _, _, _| true,
                &[],
            );
            out
        };
        #[cfg(feature = "parallel")]
        let trees: Vec<Vec<Node>> = {
            use rayon::prelude::*;
            (0..families.len()).into_par_iter().map(one).collect()
        };
        #[cfg(not(feature = "parallel"))]
        let trees: Vec<Vec<Node>> = (0..families.len()).map(one).collect();
        // Concatenate, shifting node indices.
        let mut nodes = Vec::new();
        let mut roots = Vec::new();
        for tree in trees {
            let shift = nodes.len() as u32;
            roots.push(shift);
            for mut n in tree {
                n.parent = n.parent.map(|(id, len)| (id + shift, len));
                for c in &mut n.children {
                    *c += shift;
                }
                if let End::Twin { of, .. } = &mut n.end {
                    *of += shift;
                }
                nodes.push(n);
            }
        }
        Self {
            p: p.clone(),
            variety,
            rules,
            families,
            nodes,
            roots,
            runs: flat_tapes(p),
        }
    }

    /// Whether these are the templates for `p`, `variety` and `rules`.
    pub(crate) fn serve(&self, p: &Physics, variety: JumpVariety, rules: Rules) -> bool {
        self.p == *p && self.variety == variety && self.rules == rules
    }
}

/// Where a real cell first departs from a node.
#[derive(Clone, Copy)]
enum Miss {
    /// Check `j` fails: the cell's real class is `real`.
    Check { j: usize, real: u8 },
    /// The node must be simulated on from this step in the real terrain:
    /// the death test against the level's bottom comes out otherwise there,
    /// or (at the node's end) the template stopped following a deep fall.
    Resume { step: u32 },
}

/// One worker's grown branches on top of the shared base trees
/// (`BuildCache`).
pub(crate) struct Grown {
    base: Arc<JumpTemplates>,
    /// Bytes of grown branches kept before the worker stops growing the
    /// tree and simulates unseen terrain directly; past half of it, only
    /// departures met before are grown.
    budget: usize,
    /// Nodes numbered from `base.nodes.len()`.
    nodes: Vec<Node>,
    bytes: usize,
    /// (node, check index, real class) to the node rebuilt for it.
    rebuilt: FastMap<(u32, u32, u8), u32>,
    /// Departures met once and not grown (see [`Grown::rebuilt`]).
    seen_once: FastMap<(u32, u32, u8), ()>,
}

impl Grown {
    /// Bytes grown so far.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    fn node(&self, id: u32) -> &Node {
        let b = self.base.nodes.len() as u32;
        if id < b {
            &self.base.nodes[id as usize]
        } else {
            &self.nodes[(id - b) as usize]
        }
    }

    /// The facts known before check `j` of node `id`, plus `extra`.
    fn known_before(&self, id: u32, j: usize) -> Known {
        let mut known = Known::new();
        let mut add = |f: &Fact| known.insert(f);
        let n = self.node(id);
        n.seed.iter().for_each(&mut add);
        n.checks[..j].iter().for_each(|c| add(&c.fact));
        let mut at = n.parent;
        while let Some((pid, len)) = at {
            let pn = self.node(pid);
            pn.seed.iter().for_each(&mut add);
            pn.checks
                .iter()
                .filter(|c| c.step < len)
                .for_each(|c| add(&c.fact));
            at = pn.parent;
        }
        known
    }

    /// The state before step `i` of node `id`.
    fn snap_before(&self, mut id: u32, mut i: u32) -> Snap {
        loop {
            let n = self.node(id);
            if i > 0 {
                return n.snaps[i as usize - 1];
            }
            match n.parent {
                Some((pid, len)) => (id, i) = (pid, len),
                None => {
                    return Snap {
                        body: Body::standing(Cell::new(0, 0), &self.base.p),
                        jumps: 0,
                        airborne: false,
                    };
                }
            }
        }
    }

    /// The node replacing `id` from where a real cell first departs from
    /// it (`miss`), grown in that cell's real terrain `w`: from the memo, or
    /// built now. `None` when the memory budget is spent, or half spent and
    /// this departure is new.
    fn rebuilt(&mut self, id: u32, miss: Miss, w: &Walker<'_>, best: &Best) -> Option<u32> {
        let key = match miss {
            Miss::Check { j, real } => (id, j as u32, real),
            Miss::Resume { step } => (id, u32::MAX - step, u8::MAX),
        };
        if let Some(&r) = self.rebuilt.get(&key) {
            return Some(r);
        }
        if self.bytes > self.budget {
            return None;
        }
        // Past half the budget, a departure is grown only when it recurs:
        // most first departures are never met again, and growing them
        // spent the budget that recurring terrain needed.
        if self.bytes > self.budget / 2 && self.seen_once.insert(key, ()).is_none() {
            self.bytes += 32;
            return None;
        }
        let n = self.node(id);
        let (known, seed, step) = match miss {
            Miss::Check { j, real } => {
                let check = n.checks[j];
                let mut known = self.known_before(id, j);
                let fact = Fact {
                    class: real,
                    ..check.fact
                };
                known.insert(&fact);
                let mut seed: Vec<Fact> = n.checks[..j]
                    .iter()
                    .filter(|c| c.step == check.step)
                    .map(|c| c.fact)
                    .collect();
                seed.push(fact);
                (known, seed, check.step)
            }
            Miss::Resume { step } => {
                let j = n.checks.partition_point(|c| c.step < step);
                (self.known_before(id, j), Vec::new(), step)
            }
        };
        let (family, steer) = (n.family, n.steer);
        let land_only = step >= LAND;
        let step = if land_only {
            n.inputs.len() as u32
        } else {
            step
        };
        let from = self.snap_before(id, step);
        let t0 = n.start as usize + step as usize;
        let base = Arc::clone(&self.base);
        let g = Grower {
            p: &base.p,
            families: &base.families,
        };
        let offset = (base.nodes.len() + self.nodes.len()) as u32;
        let mut out = Vec::new();
        let r = g.build(
            &mut out,
            offset,
            family,
            steer,
            Some((id, step)),
            seed,
            from,
            t0,
            World::new(known, Some(w), base.rules),
            land_only,
            &|to, kind, ticks, jumps| best.could_improve(w.at(to), kind, ticks, jumps),
            &[],
        );
        self.bytes += out.iter().map(Node::bytes).sum::<usize>() + 64;
        self.nodes.extend(out);
        self.rebuilt.insert(key, r);
        Some(r)
    }

    /// Simulates the settle of grown node `id`'s landing in `w`'s terrain
    /// and keeps it, with its checks, for the cells after.
    fn settle_for(&mut self, id: u32, w: &Walker<'_>) {
        let b = self.base.nodes.len() as u32;
        if id < b {
            return;
        }
        let n = self.node(id);
        let Some(o) = &n.outcome else { return };
        let world = World::new(
            self.known_before(id, n.checks.len()),
            Some(w),
            self.base.rules,
        );
        world.step.set(SETTLE);
        let settle = settle_in(&world, &self.base.p, o);
        let checks = world.checks.take();
        let n = &mut self.nodes[(id - b) as usize];
        self.bytes += checks.len() * size_of::<Check>();
        if let Settle::Done(t) = &settle {
            self.bytes += t.len() * size_of::<Input>();
        }
        n.checks.extend(checks);
        if let Some(o) = &mut n.outcome {
            o.settle = settle;
        }
    }

    /// Appends the tape of node `id` up to its step `i` (all of it for
    /// `None`).
    fn tape(&self, id: u32, i: Option<u32>, out: &mut Vec<Input>) {
        // Each node's steps sit at its tape index `start`: the tape is
        // sized once, then filled from the node up its ancestors (as many
        // as the flight's departures, so not walked by recursion).
        let base = out.len();
        let n = self.node(id);
        let take = i.map_or(n.inputs.len(), |i| i as usize);
        out.resize(base + n.start as usize + take, Input::default());
        let mut at = Some((id, take));
        while let Some((id, take)) = at {
            let n = self.node(id);
            let from = base + n.start as usize;
            out[from..from + take].copy_from_slice(&n.inputs[..take]);
            at = n.parent.map(|(pid, len)| (pid, len as usize));
        }
    }
}

impl Grown {
    /// No branches yet, on `base`, to grow to at most `budget` bytes.
    pub(crate) fn new(base: Arc<JumpTemplates>, budget: usize) -> Self {
        Self {
            base,
            budget,
            nodes: Vec::new(),
            bytes: 0,
            rebuilt: FastMap::default(),
            seen_once: FastMap::default(),
        }
    }

    /// Whether these branches grow on the templates for `p`, `variety` and
    /// `rules`.
    pub(crate) fn serves(&self, p: &Physics, variety: JumpVariety, rules: Rules) -> bool {
        self.base.serve(p, variety, rules)
    }

    /// Every jump link out of `s.from`, offered to `best`: the same links
    /// as simulating every family from scratch. The branches grown here
    /// stay for the cells after.
    pub(crate) fn walk(&mut self, s: &Start<'_>, memo: &MemoSlot, best: &mut Best) {
        let w = Walker {
            level: s.level,
            p: s.p,
            classes: s.classes,
            from: s.from,
            reads: s.reads,
            memo,
            below: s.level.height() as i64 - i64::from(s.from.row),
        };
        let base = Arc::clone(&self.base);
        for &root in &base.roots {
            w.walk(self, root, best);
        }
        materialize(self, best);
    }

    /// Whether the budget held some branch back (grown on its second
    /// sight only), and the branches' bytes and twins: what the tests
    /// check the budget's limits by.
    #[cfg(test)]
    pub(crate) fn budget_counts(&self) -> (bool, usize, usize) {
        let twins = self
            .nodes
            .iter()
            .filter(|n| matches!(n.end, End::Twin { .. }))
            .count();
        (!self.seen_once.is_empty(), self.bytes, twins)
    }
}

struct Walker<'a> {
    level: &'a Level,
    p: &'a Physics,
    classes: &'a Classification,
    from: Cell,
    /// Where the build records the cells the walk looks up.
    reads: Option<&'a Reads>,
    /// The worker's landing memo, for the links simulated exactly.
    memo: &'a MemoSlot,
    /// The first frame row below the level.
    below: i64,
}

impl Walker<'_> {
    #[inline]
    fn real(&self, f: &Fact) -> u8 {
        let (c, r) = (self.from.col + f.dc, self.from.row + f.dr);
        if let Some(reads) = self.reads {
            reads.note(i64::from(c), i64::from(r));
        }
        if f.standable {
            return u8::from(self.classes.is_standable(Cell::new(c, r)));
        }
        class(self.level.tile_at(i64::from(c), i64::from(r)))
    }

    /// The level's bottom in the frame, as [`crate::physics::Frame`] has it.
    fn rows(&self) -> f64 {
        self.below as f64
    }

    /// The first step of node `n` whose death test against this cell's
    /// bottom differs from the node's, if any.
    fn bottom_miss(&self, n: &Node) -> Option<u32> {
        let rows = self.rows();
        if n.deepest <= rows && n.fell_out.is_none_or(|top| top > rows) {
            return None;
        }
        let last = n.snaps.len().saturating_sub(1);
        n.snaps.iter().enumerate().find_map(|(i, s)| {
            let fell = i == last && n.fell_out.is_some();
            ((s.body.y - self.p.h > rows) != fell).then_some(i as u32)
        })
    }

    /// A cell of the level from a cell of the frame.
    fn at(&self, c: Cell) -> Cell {
        Cell::new(self.from.col + c.col, self.from.row + c.row)
    }

    /// The first of checks `range` of `n` that fails here, and its step.
    fn first_miss(&self, n: &Node, range: std::ops::Range<usize>) -> Option<(Miss, u32)> {
        n.checks[range.clone()]
            .iter()
            .zip(range)
            .find_map(|(c, j)| {
                let real = self.real(&c.fact);
                (real != c.fact.class).then_some((Miss::Check { j, real }, c.step))
            })
    }

    /// Goes on from where this cell departs from node `id`: down the branch
    /// grown for it (pushed on `todo`), or by exact simulation.
    fn missed(
        &self,
        g: &mut Grown,
        id: u32,
        (m, step): (Miss, u32),
        best: &mut Best,
        todo: &mut Vec<u32>,
    ) {
        let step = (step < LAND).then_some(step);
        match g.rebuilt(id, m, self, best) {
            Some(r) => todo.push(r),
            None => self.exact(g, id, step, best),
        }
    }

    /// Walks the tree from `root` depth first, in program order. A
    /// flight's departures chain grown nodes as deep as the flight is
    /// long, so the walk keeps its own stack instead of recursing.
    fn walk(&self, g: &mut Grown, root: u32, best: &mut Best) {
        let mut todo = vec![root];
        while let Some(id) = todo.pop() {
            self.visit(g, id, best, &mut todo);
        }
    }

    /// Offers node `id`'s link, or pushes on `todo` the nodes the walk
    /// goes on to, the first to visit on top.
    fn visit(&self, g: &mut Grown, id: u32, best: &mut Best, todo: &mut Vec<u32>) {
        let n = g.node(id);
        let settle_from = n.settle_from as usize;
        let mut miss = self.first_miss(n, 0..settle_from);
        // A step's lookups come before its death test.
        if let Some(step) = self.bottom_miss(n)
            && miss.is_none_or(|(_, at)| at > step)
        {
            miss = Some((Miss::Resume { step }, step));
        }
        if let Some(m) = miss {
            self.missed(g, id, m, best, todo);
            return;
        }
        match n.end {
            End::Landed => {
                let Some(o) = &n.outcome else { return };
                let to = self.at(o.to);
                let action = n.start + n.inputs.len() as u32;
                let lower_bound = action + o.braking + SETTLE_SLACK;
                if to == self.from || !best.could_improve(to, o.kind, lower_bound, o.jumps) {
                    return;
                }
                if matches!(o.settle, Settle::Unknown) {
                    g.settle_for(id, self);
                }
                let n = g.node(id);
                if let Some(m) = self.first_miss(n, settle_from..n.checks.len()) {
                    self.missed(g, id, m, best, todo);
                    return;
                }
                let Some(o) = &n.outcome else { return };
                if let Settle::Done(tape) = &o.settle {
                    best.offer_template(
                        to,
                        o.kind,
                        action,
                        action + tape.len() as u32,
                        o.jumps,
                        id,
                    );
                }
            }
            End::Open => {
                let step = n.inputs.len() as u32;
                self.missed(g, id, (Miss::Resume { step }, step), best, todo);
            }
            End::Failed => {}
            End::Branch => todo.extend(n.children.iter().rev()),
            End::Twin { of, upto } => {
                // The twin was walked before this node (it branched off
                // the base earlier); its link stands for this one's.
                let t = g.node(of);
                let before = t.checks.partition_point(|c| c.step < upto);
                let held = self.first_miss(t, 0..before).is_none()
                    && self.bottom_miss(t).is_none_or(|step| step >= upto);
                if !held {
                    self.missed(g, id, (Miss::Resume { step: 0 }, 0), best, todo);
                }
            }
        }
    }

    /// Simulates node `id`'s programs exactly from before its step `step`
    /// (`None`: from its landing).
    fn exact(&self, g: &Grown, id: u32, step: Option<u32>, best: &mut Best) {
        let n = g.node(id);
        let i = step.unwrap_or(n.inputs.len() as u32);
        let mut s = Sim::recording(
            self.level,
            self.p,
            self.classes,
            self.from,
            self.reads,
            Some(self.memo),
        );
        g.tape(id, Some(i), &mut s.tape);
        let st = g.snap_before(id, i);
        s.body = st.body;
        s.jumps = st.jumps;
        s.airborne = st.airborne;
        let fam = &g.base.families[n.family as usize];
        if step.is_none() {
            let kind = kind_of(s.jumps);
            let link = s.land(kind, best);
            best.offer(link);
            return;
        }
        match n.steer {
            Some(steer) => fly_branch(s, fam.base, steer, best),
            None => run_family(s, fam, best),
        }
    }
}

/// Fills the tapes of the template links `best` kept.
fn materialize(g: &Grown, best: &mut Best) {
    best.fill_templates(|id, tape| {
        g.tape(id, None, tape);
        if let Some(Outcome {
            settle: Settle::Done(settle),
            ..
        }) = &g.node(id).outcome
        {
            tape.extend_from_slice(settle);
        }
    });
}
