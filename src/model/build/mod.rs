//! Navigation maps for any [`BodyModel`]: the links its own step function
//! performs, and paths planned and performed on it.
//!
//! [`ModelMap::build`] drives the model with the input programs of
//! `programs.rs` from every cell it stands at rest on, and keeps, per
//! target cell and kind, the link with the fewest ticks (ties: the first
//! tape in input order; `generate.rs`). Each link's tape is its program's
//! flight and a settle that brings the body to rest near the target's
//! middle (`perform.rs`). [`ModelMap::edit`] updates the map in place
//! (`edit.rs`). [`ModelMap::find_path`] searches the links in the
//! body's real states: a link's program and settle are performed from the
//! state the path so far left the body in (a link starts from its cell's
//! middle, a chained one only near it), so every path is performed as it
//! is found (`plan.rs`).
//!
//! For the reference body ([`BodyModel::reference`]) the map is its own
//! [`NavMap`], built and searched with every family and fast path it has;
//! the programs here are for the movement of a game's own.

mod climb;
mod edge;
mod edit;
mod generate;
mod perform;
mod plan;
mod programs;
#[cfg(feature = "serde")]
mod saved;
mod wall;

pub use plan::{ModelPath, ModelStep};

use crate::graph::{BuildError, NavMap};
use crate::level::{Cell, Level, Tile};
use crate::mechanics::LinkKind;
use crate::model::BodyModel;
use crate::physics::Input;
use edit::Extent;
use generate::Menu;
use programs::Program;
use std::collections::HashMap;

/// A link of a [`ModelMap`]: a tape the model performs from standing at
/// rest on `from` to standing at rest on `to`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ModelLink {
    /// What the program did.
    pub kind: LinkKind,
    /// Where it starts.
    pub from: Cell,
    /// Where it ends.
    pub to: Cell,
    /// Its inputs: the flight, then the settle.
    pub tape: Vec<Input>,
    /// How many of them are the flight: the program, until the body
    /// stands again.
    pub flight: usize,
    /// The program, performed again from where the body really is when
    /// a path chains the link (none for the reference body's, whose paths
    /// its [`NavMap`] plans).
    program: Option<Program>,
}

impl ModelLink {
    /// Ticks from start to rest.
    #[must_use]
    pub fn ticks(&self) -> usize {
        self.tape.len()
    }
}

/// Why a [`ModelMap`] was not built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ModelMapError {
    /// No cell of the level holds the model at rest.
    #[error("the {model} model stands at rest on no cell of this {width} x {height} level")]
    NoStandingCell {
        /// The model's name.
        model: String,
        /// The level's size.
        width: usize,
        /// The level's size.
        height: usize,
    },
    /// The level wraps, which model maps do not follow yet.
    #[error("the level wraps at its edges, which maps for a body model do not follow")]
    Wraps,
    /// The reference body's map was not built.
    #[error(transparent)]
    Reference(#[from] BuildError),
}

/// The navigation map of a level for a [`BodyModel`] (see the module
/// docs).
///
/// ```
/// use platnav::model::{ModelMap, nes::NesMario};
/// use platnav::{Cell, Level, SearchOptions};
///
/// let level: Level = "..........\n..........\n.....#....\n##########".parse()?;
/// let map = ModelMap::build(&level, NesMario::small())?;
/// let path = map.find_path(Cell::new(1, 2), Cell::new(8, 2), &SearchOptions::default())?;
/// // The tape was performed on the model; perform it again.
/// assert_eq!(map.perform(Cell::new(1, 2), path.inputs()), Some(Cell::new(8, 2)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct ModelMap<M: BodyModel> {
    level: Level,
    model: M,
    nodes: Vec<Cell>,
    node_at: HashMap<Cell, u32>,
    /// `offsets[n]..offsets[n + 1]` are the links leaving node `n`.
    offsets: Vec<usize>,
    links: Vec<ModelLink>,
    /// The reference body's own map, when the model is the reference body.
    native: Option<NavMap>,
    /// Each node's extent (`edit.rs`), when the model promises how far it
    /// reads and the links were generated here.
    extents: Option<Vec<Extent>>,
    /// Edits that changed a tile since the map was built or loaded.
    generation: u64,
}

impl<M> ModelMap<M>
where
    M: BodyModel + Sync,
    M::State: Send,
{
    /// Builds the map of `level` for `model`, on every core with the
    /// `parallel` feature.
    ///
    /// # Errors
    /// [`ModelMapError`] when the model stands on no cell, or the level
    /// wraps.
    pub fn build(level: &Level, model: M) -> Result<Self, ModelMapError> {
        if let Some(physics) = model.reference() {
            let native = NavMap::build(level, physics)?;
            return Ok(Self::of_native(level, model, native));
        }
        if level.wrap().any() {
            return Err(ModelMapError::Wraps);
        }
        let nodes = standing_cells(level, &model);
        if nodes.is_empty() {
            return Err(ModelMapError::NoStandingCell {
                model: model.name(),
                width: level.width(),
                height: level.height(),
            });
        }
        let node_at = index_of(&nodes);
        let menu = Menu::of(level, &model);
        let (links, extents) = menu.generate(level, &model, &node_at, &nodes);
        Ok(Self::assemble(level, model, nodes, links, None).with_extents(extents))
    }

    /// The map of the reference body's own `native` map: its nodes and
    /// links as they are.
    fn of_native(level: &Level, model: M, native: NavMap) -> Self {
        let (nodes, links) = native_parts(&native);
        Self::assemble(level, model, nodes, links, Some(native))
    }
}

impl<M: BodyModel> ModelMap<M> {
    /// The map of `nodes` and `links`, which leave them in node order.
    fn assemble(
        level: &Level,
        model: M,
        nodes: Vec<Cell>,
        links: Vec<ModelLink>,
        native: Option<NavMap>,
    ) -> Self {
        let node_at = index_of(&nodes);
        let offsets = offsets_of(&node_at, &links);
        Self {
            level: level.clone(),
            model,
            nodes,
            node_at,
            offsets,
            links,
            native,
            extents: None,
            generation: 0,
        }
    }

    /// The map with its nodes' extents noted (`edit.rs`).
    fn with_extents(self, extents: Option<Vec<Extent>>) -> Self {
        Self { extents, ..self }
    }

    /// How many edits have changed this map: 0 when built or loaded, one
    /// more after each [`ModelMap::edit`] that changed a tile.
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The level.
    #[must_use]
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// The model.
    #[must_use]
    pub fn model(&self) -> &M {
        &self.model
    }

    /// The cells the model stands at rest on, in row-major order.
    #[must_use]
    pub fn nodes(&self) -> &[Cell] {
        &self.nodes
    }

    /// Every link, grouped by start in node order.
    #[must_use]
    pub fn links(&self) -> &[ModelLink] {
        &self.links
    }

    /// The links from `cell` (none when the model does not stand on it).
    #[must_use]
    pub fn links_from(&self, cell: Cell) -> &[ModelLink] {
        match self.node_at.get(&cell) {
            Some(&n) => &self.links[self.offsets[n as usize]..self.offsets[n as usize + 1]],
            None => &[],
        }
    }

    /// The cell the model stands on nearest `cell` within `radius` cells
    /// (as [`crate::search::snap`] picks), `cell` itself when it does.
    #[must_use]
    pub fn snap(&self, cell: Cell, radius: u32) -> Option<Cell> {
        crate::search::snap_by(&self.level, |c| self.node_at.contains_key(&c), cell, radius)
    }

    /// The cells the links lead to from `from` (itself included), in
    /// the order a breadth-first walk meets them; empty when the model
    /// does not stand on `from`.
    #[must_use]
    pub fn reachable(&self, from: Cell) -> Vec<Cell> {
        let Some(&n) = self.node_at.get(&from) else {
            return Vec::new();
        };
        let mut seen = vec![false; self.nodes.len()];
        seen[n as usize] = true;
        let mut order = vec![from];
        let mut i = 0;
        while let Some(&cell) = order.get(i) {
            for l in self.links_from(cell) {
                let t = self.node_at[&l.to] as usize;
                if !seen[t] {
                    seen[t] = true;
                    order.push(l.to);
                }
            }
            i += 1;
        }
        order
    }

    /// Performs `inputs` on the model from standing on `from`: the cell
    /// it ends standing at rest on, alive, if it does.
    #[must_use]
    pub fn perform(&self, from: Cell, inputs: &[Input]) -> Option<Cell> {
        let m = &self.model;
        let mut s = m.start(&self.level, from);
        for &i in inputs {
            m.step(&self.level, &mut s, i);
        }
        (!m.dead(&s) && m.at_rest(&s))
            .then(|| m.standing_cell(&s))
            .flatten()
    }
}

/// The cells `model` stands at rest on (see [`stands`]), in row-major
/// order.
fn standing_cells<M: BodyModel>(level: &Level, model: &M) -> Vec<Cell> {
    let (w, h) = (level.width() as i32, level.height() as i32);
    (0..h)
        .flat_map(|row| (0..w).map(move |col| Cell::new(col, row)))
        .filter(|&cell| stands(level, model, cell))
        .collect()
}

/// Whether `model` stands at rest on `cell`, and still does after two
/// ticks of no input; never on a solid cell (a model may not push a body
/// out of a wall).
fn stands<M: BodyModel>(level: &Level, model: &M, cell: Cell) -> bool {
    if level.get(cell) == Some(Tile::SOLID) {
        return false;
    }
    let mut s = model.start(level, cell);
    let mut stands = model.at_rest(&s) && model.standing_cell(&s) == Some(cell);
    for _ in 0..2 {
        model.step(level, &mut s, Input::IDLE);
        stands &= !model.dead(&s) && model.at_rest(&s);
        stands &= model.standing_cell(&s) == Some(cell);
    }
    stands
}

/// The nodes and links of the reference body's own map.
fn native_parts(native: &NavMap) -> (Vec<Cell>, Vec<ModelLink>) {
    let links = native
        .links()
        .map(|l| ModelLink {
            kind: l.kind,
            from: l.from,
            to: l.to,
            tape: native.inputs(l.id).collect(),
            flight: l.action_ticks as usize,
            program: None,
        })
        .collect();
    (native.nodes().to_vec(), links)
}

/// Where each node's links start in `links` (grouped by start in node
/// order), and their end.
fn offsets_of(node_at: &HashMap<Cell, u32>, links: &[ModelLink]) -> Vec<usize> {
    let mut offsets = vec![0; node_at.len() + 1];
    for l in links {
        offsets[node_at[&l.from] as usize + 1] += 1;
    }
    for n in 0..node_at.len() {
        offsets[n + 1] += offsets[n];
    }
    offsets
}

/// Each node's index.
fn index_of(nodes: &[Cell]) -> HashMap<Cell, u32> {
    nodes
        .iter()
        .enumerate()
        .map(|(i, &c)| (c, i as u32))
        .collect()
}

/// An input as a number: `move + 1` times 8, plus 4, 2 and 1 for jump,
/// down and up (the order tapes are compared in, and saved maps' codes).
pub(crate) fn input_code(i: Input) -> u8 {
    (i.move_x + 1) as u8 * 8 + u8::from(i.jump) * 4 + u8::from(i.down) * 2 + u8::from(i.up)
}
