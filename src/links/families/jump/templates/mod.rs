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

mod grow;
mod grown;
mod node;
mod walk;
mod world;

use grow::Grower;
pub(crate) use grown::Grown;
use node::{End, Node};
use world::{Known, World};

use super::programs::{Steered, families};
use crate::level::{Cell, Level};
use crate::links::families::flat_runs::{FlatRun, flat_tapes};
use crate::links::options::JumpVariety;
use crate::mechanics::Active;
use crate::physics::{Body, Input, Physics};

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
