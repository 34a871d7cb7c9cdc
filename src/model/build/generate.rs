//! Generating a node's links: every program of the menu performed from
//! the node, landed, settled, and the best per target and kind kept; a
//! jump's flight shared with its steering branches and hops, an edge
//! take-off's walks with its holds. With a model that promises how far it
//! reads, each node's extent is noted as it is generated (`edit.rs`).

use std::collections::HashMap;

use super::climb::Rungs;
use super::edge;
use super::edit::{self, Extent, Noting};
use super::perform::{Flight, Run, fly, jump_until, rest_cell, settle};
use super::programs::{self, Probe, Program, programs};
use super::{ModelLink, input_code};
use crate::level::{Cell, Level, Tile};
use crate::mechanics::LinkKind;
use crate::model::BodyModel;
use crate::physics::Input;

/// What every node's links are generated from: the programs, the climb
/// table on a level with ladders, and how far the model reads.
pub(crate) struct Menu {
    programs: Vec<Program>,
    rungs: Option<Rungs>,
    reach: Option<f64>,
}

impl Menu {
    pub fn of<M: BodyModel>(level: &Level, model: &M) -> Self {
        let rungs = level
            .tiles()
            .contains(&Tile::LADDER)
            .then(|| Rungs::of(model))
            .flatten();
        Self {
            programs: programs(model, Probe::of(model)),
            rungs,
            reach: edit::reach(model.bounds()),
        }
    }

    /// The links of the nodes `cells` (in node order, on every core with
    /// the `parallel` feature), and their extents when the model promises
    /// how far it reads.
    pub fn generate<M>(
        &self,
        level: &Level,
        model: &M,
        node_at: &HashMap<Cell, u32>,
        cells: &[Cell],
    ) -> (Vec<ModelLink>, Option<Vec<Extent>>)
    where
        M: BodyModel + Sync,
        M::State: Send,
    {
        let menu = (&self.programs[..], self.rungs.as_ref());
        let one = |&from: &Cell| match self.reach {
            Some(reach) => {
                let noting = Noting::new(model);
                let links = links_from(level, &noting, menu, node_at, from);
                (links, Some(edit::extent_of(&noting, reach, level, from)))
            }
            None => (links_from(level, model, menu, node_at, from), None),
        };
        #[cfg(feature = "parallel")]
        let per_node: Vec<(Vec<ModelLink>, Option<Extent>)> = {
            use rayon::prelude::*;
            cells.par_iter().map(one).collect()
        };
        #[cfg(not(feature = "parallel"))]
        let per_node: Vec<(Vec<ModelLink>, Option<Extent>)> = cells.iter().map(one).collect();
        let extents = per_node.iter().map(|(_, e)| *e).collect();
        (per_node.into_iter().flat_map(|(l, _)| l).collect(), extents)
    }
}

/// The best link found so far per target and kind.
#[derive(Default)]
struct Best(HashMap<(Cell, LinkKind), ModelLink>);

impl Best {
    /// Whether a link of at least `ticks` ticks could still be kept.
    fn could_keep(&self, key: (Cell, LinkKind), ticks: usize) -> bool {
        self.0.get(&key).is_none_or(|b| ticks <= b.ticks())
    }

    /// Keeps `link` if it has fewer ticks than the kept one, or as many
    /// and a tape first in input order.
    fn offer(&mut self, link: ModelLink) {
        let key = (link.to, link.kind);
        let better = self
            .0
            .get(&key)
            .is_none_or(|b| (link.ticks(), tape_key(&link.tape)) < (b.ticks(), tape_key(&b.tape)));
        if better {
            self.0.insert(key, link);
        }
    }

    /// The links, by target row, column and kind.
    fn into_sorted(self) -> Vec<ModelLink> {
        let mut v: Vec<ModelLink> = self.0.into_values().collect();
        v.sort_by_key(|l| (l.to.row, l.to.col, l.kind.index()));
        v
    }
}

/// A tape's inputs as numbers, to order tapes.
fn tape_key(tape: &[Input]) -> Vec<u8> {
    tape.iter().map(|&i| input_code(i)).collect()
}

/// The links from `from`: every program performed, landed and settled
/// (the menu's, then the climbs near a ladder when the model climbs).
fn links_from<M: BodyModel>(
    level: &Level,
    m: &M,
    (menu, rungs): (&[Program], Option<&Rungs>),
    nodes: &HashMap<Cell, u32>,
    from: Cell,
) -> Vec<ModelLink> {
    let mut best = Best::default();
    let start = Run::new(m.start(level, from));
    for c in rungs.map(|k| k.programs(level, from)).unwrap_or_default() {
        let p = Program::Climb(c);
        let mut r = start.clone();
        if fly(m, level, &mut r, &p) {
            land(level, m, nodes, from, p, r, &mut best);
        }
    }
    // Where each edge take-off's walks leave the body, by direction,
    // back-up and earliness: shared by its holds and switches.
    let mut walked = edge::Walked::new();
    let mut i = 0;
    while i < menu.len() {
        let p = menu[i];
        if jump_of(&p).is_none() {
            let mut r = start.clone();
            if fly(m, level, &mut r, &p) {
                land(level, m, nodes, from, p, r, &mut best);
            }
            i += 1;
            continue;
        }
        // A jump, its hops and the branches of its steering switches,
        // which follow it in the menu: the base's flight is shared up to
        // each switch, and to its landing by the hops.
        let end = menu[i + 1..]
            .iter()
            .position(|q| !branches_of(&p, q))
            .map_or(menu.len(), |n| i + 1 + n);
        let from_here = match p {
            Program::Edge(e) => walked.from(m, level, &start, &e),
            _ => Some(start.clone()),
        };
        if let Some(r) = from_here {
            jump_family(level, m, nodes, from, &r, p, &menu[i + 1..end], &mut best);
        }
        i = end;
    }
    best.into_sorted()
}

/// The jump a program performs from its start (an edge take-off's, after
/// its walks), if it is a jump.
fn jump_of(p: &Program) -> Option<programs::Jump> {
    match *p {
        Program::Jump(j) => Some(j),
        Program::Edge(e) => Some(e.jump),
        _ => None,
    }
}

/// Whether `q` is a branch of the jump `base` in the menu: its steering
/// switched (an edge take-off's, with the same walks), or a hop on.
fn branches_of(base: &Program, q: &Program) -> bool {
    match (base, q) {
        (Program::Jump(_), Program::Jump(j)) => j.switch.is_some(),
        (Program::Jump(_), Program::Hop(..)) => true,
        (Program::Edge(a), Program::Edge(b)) => {
            let walks = |e: &edge::Edge| (e.jump.dir, e.walk, e.back, e.early);
            b.jump.switch.is_some() && walks(a) == walks(b)
        }
        _ => false,
    }
}

/// A jump program `base` and its `branches` (the same jump switching its
/// steering, or hopping on from its landing), sharing the base's flight
/// from `start` (where its run-up, or an edge take-off's walks, begin
/// the jump's ticks).
#[allow(clippy::too_many_arguments)]
fn jump_family<M: BodyModel>(
    level: &Level,
    m: &M,
    nodes: &HashMap<Cell, u32>,
    from: Cell,
    start: &Run<M::State>,
    base_program: Program,
    branches: &[Program],
    best: &mut Best,
) {
    let Some(base) = jump_of(&base_program) else {
        return;
    };
    let mut r = start.clone();
    let mut now = Flight::Paused;
    for b in branches {
        let Some(j) = jump_of(b) else { continue };
        let Some((k, _)) = j.switch else { continue };
        // Ticks from the jump's tick 0, as `jump_until` counts them.
        let pause = base.run_up + k;
        if r.tape.len() - r.origin < pause {
            now = jump_until(m, level, &mut r, &base, pause);
        }
        if now != Flight::Paused {
            // Landed or failed before the switch: every later branch
            // performs as the base.
            break;
        }
        let mut branch = r.clone();
        if jump_until(m, level, &mut branch, &j, usize::MAX) == Flight::Landed {
            land(level, m, nodes, from, *b, branch, best);
        }
    }
    if now == Flight::Paused {
        now = jump_until(m, level, &mut r, &base, usize::MAX);
    }
    if now != Flight::Landed {
        return;
    }
    for b in branches {
        let Program::Hop(_, again) = *b else { continue };
        let mut hop = r.clone();
        hop.again();
        if jump_until(m, level, &mut hop, &again, usize::MAX) == Flight::Landed {
            land(level, m, nodes, from, *b, hop, best);
        }
    }
    land(level, m, nodes, from, base_program, r, best);
}

/// Settles a landed program on the cell braking brings it to, and offers
/// the link.
fn land<M: BodyModel>(
    level: &Level,
    m: &M,
    nodes: &HashMap<Cell, u32>,
    from: Cell,
    p: Program,
    mut r: Run<M::State>,
    best: &mut Best,
) {
    let Some(to) = rest_cell(m, level, &r.state) else {
        return;
    };
    let key = (to, p.kind());
    if to == from || !nodes.contains_key(&to) || !best.could_keep(key, r.tape.len()) {
        return;
    }
    let flight = r.tape.len();
    if settle(m, level, &mut r, to) {
        best.offer(ModelLink {
            kind: p.kind(),
            from,
            to,
            tape: r.tape,
            flight,
            program: Some(p),
        });
    }
}
