//! One worker's grown branches on the shared base trees: finding what a
//! node knew and its state, rebuilding a branch where a real cell departs
//! from it, simulating a landing's settle when first needed, and a node's
//! tape.

use std::sync::Arc;

use super::grow::Grower;
#[cfg(test)]
use super::node::End;
use super::node::{Node, Settle};
use super::world::{Known, Walker, World, settle_in};
use super::{Check, Fact, JumpTemplates, LAND, Rules, SETTLE, Snap};
use crate::level::Cell;
use crate::links::best::{Best, FastMap};
use crate::links::options::JumpVariety;
use crate::physics::{Body, Input, Physics};

/// Where a real cell first departs from a node.
#[derive(Clone, Copy)]
pub(super) enum Miss {
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
    pub(super) base: Arc<JumpTemplates>,
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

    pub(super) fn node(&self, id: u32) -> &Node {
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
    pub(super) fn snap_before(&self, mut id: u32, mut i: u32) -> Snap {
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
    pub(super) fn rebuilt(
        &mut self,
        id: u32,
        miss: Miss,
        w: &Walker<'_>,
        best: &Best,
    ) -> Option<u32> {
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
    pub(super) fn settle_for(&mut self, id: u32, w: &Walker<'_>) {
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
    pub(super) fn tape(&self, id: u32, i: Option<u32>, out: &mut Vec<Input>) {
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
