//! Growing a tree: simulating a node's program in a [`World`], its
//! landing, and branching into its steering options at a switch tick.

use super::node::{End, Node, Outcome, Settle};
use super::world::{WX, World, settle_in};
use super::{BASE_TICKS, DEPTH, Fact, LAND, SETTLE, Snap};
use crate::level::Cell;
use crate::links::families::jump::programs::{Steered, kind_of};
use crate::links::options::{SETTLE_SLACK, action_limit};
use crate::links::settle::land_target;
use crate::links::sim::{jump_took_effect, same_flight};
use crate::mechanics::LinkKind;
use crate::physics::{Physics, Tiles};

/// Whether the cell grown for could keep a link (its target, kind, a lower
/// bound on its ticks, its jumps): a landing's settle is simulated only
/// when it could.
type Want<'a> = &'a dyn Fn(Cell, LinkKind, u32, u8) -> bool;

/// Simulates node programs and grows trees.
pub(super) struct Grower<'a> {
    pub(super) p: &'a Physics,
    pub(super) families: &'a [Steered],
}

impl Grower<'_> {
    /// Builds the node of `family`/`steer` that starts from `from` at tape
    /// index `t0` in `world`, and (at a branch) its children, appending them
    /// to `out` whose first index is `offset`; returns the node's index.
    /// `flown` lists the steering branches (node, direction) this call
    /// built off the base before `t0`: a branch that would repeat one is
    /// an [`End::Twin`].
    #[allow(clippy::too_many_arguments)]
    pub(super) fn build(
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
        n.note_bottom_tests(world.rows(), p.box_h());
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
