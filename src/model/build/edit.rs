//! Edits to a model's map: the tiles a node's links read, and the nodes an
//! edit generates again.
//!
//! A model that promises to read only the tiles near its feet
//! ([`Bounds::reads_within`](crate::model::Bounds::reads_within) `r`) has
//! each node's *extent* noted as its links are generated: the box of
//! every position of the feet the node's programs simulate (all of them,
//! failed ones too), grown by `r` (at least 1, so that it holds every
//! cell a program comes to rest on), and on a level with ladders, the
//! tiles the climb programs look at to pick their programs. An edit then
//! generates again the nodes whose extent holds an edited tile or a cell
//! whose standing changed, and the cells the model newly stands on; every
//! other node read none of what changed, so its links are as a fresh
//! build's. A model with no such promise, an edit that adds the level's
//! first ladder or takes its last, and a map loaded from a file (whose
//! extents were not noted) build the whole map again.

use std::cell::Cell as Slot;

use super::climb::{CATCH_COLS, RUNGS};
use super::{
    Menu, ModelLink, ModelMap, index_of, native_parts, offsets_of, standing_cells, stands,
};
use crate::graph::{EditError, EditReport};
use crate::level::{Cell, Level, Tile};
use crate::model::{BodyModel, Bounds};
use crate::physics::Input;

/// The cells a node's links read: columns `cols.0 ..= cols.1`, rows
/// `rows.0 ..= rows.1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Extent {
    cols: (i32, i32),
    rows: (i32, i32),
}

impl Extent {
    /// Whether it holds `cell`.
    pub fn holds(&self, cell: Cell) -> bool {
        (self.cols.0..=self.cols.1).contains(&cell.col)
            && (self.rows.0..=self.rows.1).contains(&cell.row)
    }

    /// The smallest extent holding both.
    fn join(self, o: Self) -> Self {
        Self {
            cols: (self.cols.0.min(o.cols.0), self.cols.1.max(o.cols.1)),
            rows: (self.rows.0.min(o.rows.0), self.rows.1.max(o.rows.1)),
        }
    }

    /// The tiles the climb programs from `from` look at (`climb.rs`): its
    /// column up and down to [`RUNGS`] rows and one more, and the box a
    /// catch looks for a ladder in.
    fn climbs(from: Cell) -> Self {
        let reach = RUNGS as i32 + 2;
        Self {
            cols: (from.col - CATCH_COLS, from.col + CATCH_COLS),
            rows: (from.row - reach, from.row + reach),
        }
    }
}

/// How far past its feet a model reads, as its bounds promise (at least
/// a tile); `None` when it promises nothing.
pub(crate) fn reach(bounds: Bounds) -> Option<f64> {
    bounds
        .reads_within
        .filter(|r| r.is_finite() && *r >= 0.0 && *r < 1e6)
        .map(|r| r.max(1.0))
}

/// A model that notes the box of every position of its feet. Every state
/// a program reaches is a start or the end of a tick, so noting those
/// notes the feet before and after every tick.
pub(crate) struct Noting<'a, M> {
    model: &'a M,
    /// `[x0, x1, y0, y1]`; NaN where a position was not finite.
    feet: Slot<Option<[f64; 4]>>,
}

impl<'a, M: BodyModel> Noting<'a, M> {
    pub fn new(model: &'a M) -> Self {
        Self {
            model,
            feet: Slot::new(None),
        }
    }

    fn note(&self, s: &M::State) {
        let [x, y] = self.model.feet(s);
        // `min` and `max` drop a NaN; keep it, so the extent is every cell.
        let keep = |a: f64, b: f64, f: fn(f64, f64) -> f64| {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else {
                f(a, b)
            }
        };
        let b = match self.feet.get() {
            Some([x0, x1, y0, y1]) => [
                keep(x0, x, f64::min),
                keep(x1, x, f64::max),
                keep(y0, y, f64::min),
                keep(y1, y, f64::max),
            ],
            None => [x, x, y, y],
        };
        self.feet.set(Some(b));
    }

    /// The cells within `reach` of the noted box (every cell when a
    /// position was not finite).
    fn extent(&self, reach: f64) -> Option<Extent> {
        let [x0, x1, y0, y1] = self.feet.get()?;
        let lo = |v: f64| {
            if v.is_finite() {
                (v - reach).floor().max(f64::from(i32::MIN)) as i32
            } else {
                i32::MIN
            }
        };
        let hi = |v: f64| {
            if v.is_finite() {
                (v + reach).floor().min(f64::from(i32::MAX)) as i32
            } else {
                i32::MAX
            }
        };
        Some(Extent {
            cols: (lo(x0), hi(x1)),
            rows: (lo(y0), hi(y1)),
        })
    }
}

impl<M: BodyModel> BodyModel for Noting<'_, M> {
    type State = M::State;

    fn name(&self) -> String {
        self.model.name()
    }

    fn dt(&self) -> f64 {
        self.model.dt()
    }

    fn start(&self, level: &Level, cell: Cell) -> Self::State {
        let s = self.model.start(level, cell);
        self.note(&s);
        s
    }

    fn step(&self, level: &Level, state: &mut Self::State, input: Input) {
        self.model.step(level, state, input);
        self.note(state);
    }

    fn feet(&self, state: &Self::State) -> [f64; 2] {
        self.model.feet(state)
    }

    fn velocity(&self, state: &Self::State) -> [f64; 2] {
        self.model.velocity(state)
    }

    fn standing_cell(&self, state: &Self::State) -> Option<Cell> {
        self.model.standing_cell(state)
    }

    fn at_rest(&self, state: &Self::State) -> bool {
        self.model.at_rest(state)
    }

    fn dead(&self, state: &Self::State) -> bool {
        self.model.dead(state)
    }

    fn climbing(&self, state: &Self::State) -> bool {
        self.model.climbing(state)
    }

    fn inputs(&self) -> Vec<Input> {
        self.model.inputs()
    }

    fn bounds(&self) -> Bounds {
        self.model.bounds()
    }

    fn parameters(&self) -> String {
        self.model.parameters()
    }
}

/// The extent of a node whose programs `noting` performed, with the climb
/// programs' looks on a level with ladders.
pub(crate) fn extent_of<M: BodyModel>(
    noting: &Noting<'_, M>,
    reach: f64,
    level: &Level,
    from: Cell,
) -> Extent {
    let own = noting.extent(reach).unwrap_or(Extent {
        cols: (from.col, from.col),
        rows: (from.row, from.row),
    });
    if level.tiles().contains(&Tile::LADDER) {
        own.join(Extent::climbs(from))
    } else {
        own
    }
}

/// The cells whose standing an edit of `cell` may change, for a model
/// that reads within `reach`: a start and its two idle ticks read near
/// the feet, a tile below the cell.
pub(crate) fn near(cell: Cell, reach: f64) -> impl Iterator<Item = Cell> {
    let k = reach.ceil() as i32 + 2;
    (cell.row - k..=cell.row + k)
        .flat_map(move |row| (cell.col - k..=cell.col + k).map(move |col| Cell::new(col, row)))
}

impl<M> ModelMap<M>
where
    M: BodyModel + Sync,
    M::State: Send,
{
    /// Sets tiles (a later entry for the same cell wins) and updates the
    /// map in place: for a model that promises how far it reads
    /// ([`Bounds::reads_within`]), only the nodes whose links read a
    /// changed tile are generated again; else the whole map is. Either
    /// way the result equals a fresh [`ModelMap::build`] of the edited
    /// level, link for link and tape for tape.
    ///
    /// ```
    /// use platnav::model::{ModelMap, dash::DashBody};
    /// use platnav::{Cell, Level, Tile};
    ///
    /// let level: Level = format!("{}\n{}\n{}", ".".repeat(40), ".".repeat(40), "#".repeat(40)).parse()?;
    /// let mut map = ModelMap::build(&level, DashBody)?;
    /// // A block goes up at the right end.
    /// let report = map.edit(&[(Cell::new(36, 1), Tile::SOLID)])?;
    /// assert!(!report.full_rebuild && report.nodes_rebuilt < map.nodes().len());
    /// assert_eq!(map.links(), ModelMap::build(map.level(), DashBody)?.links());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`EditError::OffMap`] for a cell outside the level; nothing is
    /// changed then. [`EditError::Build`] cannot happen for a map built or
    /// loaded here.
    pub fn edit(&mut self, changes: &[(Cell, Tile)]) -> Result<EditReport, EditError> {
        EditError::off_map(&self.level, changes)?;
        if let Some(native) = self.native.as_mut() {
            let report = native.edit(changes)?;
            self.take_native();
            self.generation = report.generation;
            return Ok(report);
        }
        let mut level = self.level.clone();
        for &(c, t) in changes {
            level.set(c, t);
        }
        let mut changed: Vec<Cell> = changes
            .iter()
            .map(|&(c, _)| c)
            .filter(|&c| level.get(c) != self.level.get(c))
            .collect();
        changed.sort_unstable_by_key(|c| (c.row, c.col));
        changed.dedup();
        if changed.is_empty() {
            return Ok(EditReport::unchanged(self.generation));
        }
        let ladders = |l: &Level| l.tiles().contains(&Tile::LADDER);
        let reach = reach(self.model.bounds()).filter(|_| ladders(&level) == ladders(&self.level));
        let report = match (reach, self.extents.is_some()) {
            (Some(reach), true) => self.relink(level, &changed, reach),
            _ => self.rebuild(level),
        };
        self.generation += 1;
        Ok(EditReport {
            tiles_changed: changed.len(),
            generation: self.generation,
            ..report
        })
    }

    /// Generates every node of the edited `level` again.
    fn rebuild(&mut self, level: Level) -> EditReport {
        let nodes = standing_cells(&level, &self.model);
        let node_at = index_of(&nodes);
        let menu = Menu::of(&level, &self.model);
        let (links, extents) = menu.generate(&level, &self.model, &node_at, &nodes);
        let flipped = nodes
            .iter()
            .filter(|c| !self.node_at.contains_key(c))
            .count()
            + self
                .nodes
                .iter()
                .filter(|c| !node_at.contains_key(c))
                .count();
        self.replace(level, nodes, links, extents);
        EditReport {
            standability_changed: flipped,
            nodes_rebuilt: self.nodes.len(),
            full_rebuild: true,
            ..EditReport::unchanged(0)
        }
    }

    /// Generates again the nodes of the edited `level` whose extent holds
    /// a `changed` cell or a cell whose standing changed, and the new ones.
    fn relink(&mut self, level: Level, changed: &[Cell], reach: f64) -> EditReport {
        let mut looked: Vec<Cell> = changed
            .iter()
            .flat_map(|&c| near(c, reach))
            .filter(|&c| level.contains(c))
            .collect();
        looked.sort_unstable_by_key(|c| (c.row, c.col));
        looked.dedup();
        let flipped: Vec<Cell> = looked
            .into_iter()
            .filter(|&c| stands(&level, &self.model, c) != self.node_at.contains_key(&c))
            .collect();
        let mut nodes: Vec<Cell> = self
            .nodes
            .iter()
            .copied()
            .filter(|c| !flipped.contains(c))
            .chain(
                flipped
                    .iter()
                    .copied()
                    .filter(|c| !self.node_at.contains_key(c)),
            )
            .collect();
        nodes.sort_unstable_by_key(|c| (c.row, c.col));
        let extents = self.extents.as_deref().unwrap_or_default();
        let touched = |c: &Cell| match self.node_at.get(c) {
            Some(&n) => extents
                .get(n as usize)
                .is_none_or(|e| changed.iter().chain(&flipped).any(|&x| e.holds(x))),
            None => true,
        };
        let dirty: Vec<Cell> = nodes.iter().copied().filter(touched).collect();
        let node_at = index_of(&nodes);
        let menu = Menu::of(&level, &self.model);
        let (fresh, fresh_extents) = menu.generate(&level, &self.model, &node_at, &dirty);
        let (links, extents) = self.splice(&nodes, &dirty, fresh, fresh_extents);
        let report = EditReport {
            standability_changed: flipped.len(),
            nodes_rebuilt: dirty.len(),
            full_rebuild: false,
            ..EditReport::unchanged(0)
        };
        self.replace(level, nodes, links, extents);
        report
    }

    /// The links and extents of `nodes`: the `dirty` ones' `fresh` (in
    /// node order), the others' kept.
    fn splice(
        &self,
        nodes: &[Cell],
        dirty: &[Cell],
        fresh: Vec<ModelLink>,
        fresh_extents: Option<Vec<Extent>>,
    ) -> (Vec<ModelLink>, Option<Vec<Extent>>) {
        let fresh_extents = fresh_extents.unwrap_or_default();
        let old_extents = self.extents.as_deref().unwrap_or_default();
        let mut fresh = fresh.into_iter().peekable();
        let (mut links, mut extents) = (Vec::new(), Vec::new());
        let mut d = 0;
        for &cell in nodes {
            if dirty.get(d) == Some(&cell) {
                while let Some(l) = fresh.next_if(|l| l.from == cell) {
                    links.push(l);
                }
                extents.extend(fresh_extents.get(d).copied());
                d += 1;
            } else {
                links.extend_from_slice(self.links_from(cell));
                let n = self.node_at[&cell] as usize;
                extents.extend(old_extents.get(n).copied());
            }
        }
        let complete = extents.len() == nodes.len();
        (links, complete.then_some(extents))
    }

    /// Puts the edited level's nodes, links and extents in place.
    fn replace(
        &mut self,
        level: Level,
        nodes: Vec<Cell>,
        links: Vec<ModelLink>,
        extents: Option<Vec<Extent>>,
    ) {
        self.node_at = index_of(&nodes);
        self.offsets = offsets_of(&self.node_at, &links);
        self.level = level;
        self.nodes = nodes;
        self.links = links;
        self.extents = extents;
    }

    /// Takes the nodes and links of the reference body's own map, edited.
    fn take_native(&mut self) {
        if let Some(native) = self.native.as_ref() {
            let (level, (nodes, links)) = (native.level().clone(), native_parts(native));
            self.replace(level, nodes, links, None);
        }
    }
}
