//! Walking the trees for a real start cell: comparing each node's checks
//! and bottom tests with the cell's terrain, going down the branches grown
//! for it or simulating exactly where it departs, and filling the tapes of
//! the links kept.

use std::sync::Arc;

use super::LAND;
use super::grown::{Grown, Miss};
use super::node::{End, Node, Outcome, Settle};
use super::world::Walker;
use crate::links::best::Best;
use crate::links::families::jump::programs::{fly_branch, kind_of, run_family};
use crate::links::families::start::Start;
use crate::links::landing::MemoSlot;
use crate::links::options::SETTLE_SLACK;
use crate::links::sim::Sim;

impl Grown {
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
}

impl Walker<'_> {
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
            ((s.body.y - self.p.box_h() > rows) != fell).then_some(i as u32)
        })
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
