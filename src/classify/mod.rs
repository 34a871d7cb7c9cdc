//! Node types per cell for one agent size, in the classic Bosonauts palette.

mod boxes;

use crate::level::{Cell, Level, Tile, Wrap};
pub use crate::mechanics::NodeType;
use crate::mechanics::{self, Active};
use crate::physics::geometry::span;
use crate::physics::{Body, Physics};
use boxes::Boxes;

/// The node type of every cell, plus which cells are standable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classification {
    width: usize,
    height: usize,
    /// The level's wrap: a cell across an edge that wraps is the one on
    /// the map it is.
    wrap: Wrap,
    types: Vec<NodeType>,
    standable: Vec<bool>,
}

/// How a body placed on one cell relates to the level.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fit {
    Blocked,
    /// The box overlaps a tile that acts on overlap (a hazard, a jump
    /// pad): the cell has that tile's node type.
    Touch(NodeType),
    Standable {
        on_one_way: bool,
    },
    Free,
}

fn fit(level: &Level, p: &Physics, cell: Cell) -> Fit {
    if !Active::of(level).plain() {
        return fit_extended(level, p, &Body::start(level, cell, p));
    }
    let body = Body::standing(cell, p);
    plain_fit(level, p, cell, |kind| body.overlaps_kind(level, p, kind))
}

/// [`fit`] on a level with no ladder or slope, given whether the box of a
/// body standing on `cell` overlaps a tile of a kind.
fn plain_fit(level: &Level, p: &Physics, cell: Cell, overlaps: impl Fn(Tile) -> bool) -> Fit {
    decide(overlaps, overlap_tiles(level), || ground(level, p, cell))
}

/// A plain fit from whether the standing box overlaps a tile of a kind,
/// the tiles acting on overlap (in order, with their node types) and what
/// is under the feet (`(solid, one_way)`, asked only when needed).
fn decide(
    overlaps: impl Fn(Tile) -> bool,
    acting: impl IntoIterator<Item = (Tile, NodeType)>,
    ground: impl FnOnce() -> (bool, bool),
) -> Fit {
    if overlaps(Tile::SOLID) {
        return Fit::Blocked;
    }
    if let Some((_, node)) = acting.into_iter().find(|&(t, _)| overlaps(t)) {
        return Fit::Touch(node);
    }
    match ground() {
        (false, false) => Fit::Free,
        (solid, _) => Fit::Standable { on_one_way: !solid },
    }
}

/// Whether a solid and a one-way tile are under the feet of a body
/// standing on `cell`: in row `row + 1`, under the box's columns (as
/// [`Body::overlaps_kind`] spans them).
fn ground(level: &Level, p: &Physics, cell: Cell) -> (bool, bool) {
    let row = i64::from(cell.row) + 1;
    let x = f64::from(cell.col) + 0.5;
    let (x0, x1) = (x - p.half_w(), x + p.half_w());
    let mut solid = false;
    let mut one_way = false;
    for c in span(x0, x1) {
        match level.tile_at(c, row) {
            Tile::SOLID => solid = true,
            Tile::ONE_WAY => one_way = true,
            _ => {}
        }
    }
    (solid, one_way)
}

/// [`fit`] on a level with ladders or slopes, by the body's own tests: a
/// slope stops the box unless it is a ghost, a ladder top holds the feet
/// like a one-way tile, and a cell over a slope's surface is not stood on
/// (the body stands on the surface, below the cell's floor).
fn fit_extended(level: &Level, p: &Physics, body: &Body) -> Fit {
    if body.blocked(level, p) {
        return Fit::Blocked;
    }
    if let Some(node) = touched(level, p, body) {
        return Fit::Touch(node);
    }
    match body.support(level, p) {
        (false, false) => Fit::Free,
        (solid, _) => Fit::Standable { on_one_way: !solid },
    }
}

/// The node type of the first tile acting on overlap (a hazard before a
/// jump pad) that the box of `body` overlaps.
fn touched(level: &Level, p: &Physics, body: &Body) -> Option<NodeType> {
    overlap_tiles(level)
        .find(|&(t, _)| body.overlaps_kind(level, p, t))
        .map(|(_, node)| node)
}

/// The tiles acting on overlap that `level` holds, in the mechanics'
/// order, with the node type of a cell whose box overlaps one.
fn overlap_tiles(level: &Level) -> impl Iterator<Item = (Tile, NodeType)> + '_ {
    mechanics::tiles()
        .filter_map(|s| Some((s.tile, s.overlap?)))
        .filter(|&(t, _)| level.holds(t))
}

/// Whether the box of a body standing on `cell`, raised a row, overlaps a
/// solid tile (a free cell under a roof).
fn roofed(level: &Level, p: &Physics, cell: Cell) -> bool {
    let mut raised = Body::standing(cell, p);
    raised.y -= 1.0;
    raised.overlaps_kind(level, p, Tile::SOLID)
}

/// How a neighbour looks to a standable cell's type: a wall (off the map
/// or blocked), ground to go on ('o'), or an edge.
fn side(n: Option<Fit>) -> char {
    match n {
        None | Some(Fit::Blocked) => 'w',
        Some(Fit::Standable { .. }) => 'o',
        _ => 'e',
    }
}

/// The node type of cell `(c, r)` given its fit and its neighbours', and
/// (asked for a free cell) whether the box of a body standing on it, raised
/// a row, overlaps a solid tile.
fn type_of(
    level: &Level,
    (c, r): (i64, i64),
    fit_here: Fit,
    (left, right): (Option<Fit>, Option<Fit>),
    roofed: impl FnOnce() -> bool,
) -> NodeType {
    let tile = mechanics::tile(level.tile_at(c, r));
    match fit_here {
        Fit::Blocked => NodeType::BLOCKED,
        Fit::Touch(node) => node,
        Fit::Standable { on_one_way } => {
            if let Some(node) = tile.standing {
                node
            } else if on_one_way {
                NodeType::ONE_WAY
            } else {
                // Off-map neighbours are borders: walls.
                match (side(left), side(right)) {
                    ('o', 'o') => NodeType::PLATFORM,
                    ('e', 'o') => NodeType::LEFT_EDGE,
                    ('o', 'e') => NodeType::RIGHT_EDGE,
                    ('w', 'o') => NodeType::LEFT_WALL,
                    ('o', 'w') => NodeType::RIGHT_WALL,
                    ('w', 'e') => NodeType::LEFT_WALL_EDGE,
                    ('e', 'w') => NodeType::RIGHT_WALL_EDGE,
                    _ => NodeType::SOLO,
                }
            }
        }
        Fit::Free => {
            if let Some(node) = tile.free {
                node
            } else if roofed() {
                NodeType::ROOF
            } else {
                NodeType::AIR
            }
        }
    }
}

/// A row-major table `w` wide and `h` tall, each row filled in by
/// `f(row, cells)` from `fill`, on every core the build uses (a 4,200 x
/// 1,200 level has five million cells).
fn per_row<T: Send + Sync + Clone>(
    (w, h): (usize, usize),
    fill: T,
    f: impl Fn(usize, &mut [T]) + Sync + Send,
) -> Vec<T> {
    let mut table = vec![fill; w * h];
    if w == 0 {
        return table;
    }
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        table
            .par_chunks_mut(w)
            .enumerate()
            .for_each(|(r, row)| f(r, row));
    }
    #[cfg(not(feature = "parallel"))]
    {
        table
            .chunks_mut(w)
            .enumerate()
            .for_each(|(r, row)| f(r, row));
    }
    table
}

impl Classification {
    /// Classifies every cell of `level` for the agent of `physics`.
    #[must_use]
    pub fn new(level: &Level, physics: &Physics) -> Self {
        Self::classify(level, physics, true)
    }

    /// [`Classification::new`], with the box tests made in passes over the
    /// level's rows (`by_rows`) or cell by cell.
    fn classify(level: &Level, physics: &Physics, by_rows: bool) -> Self {
        let (w, h) = (level.width(), level.height());
        let boxes = by_rows.then(|| Boxes::new(level, physics)).flatten();
        let fits = per_row((w, h), Fit::Free, |r, row| {
            for (c, f) in row.iter_mut().enumerate() {
                let cell = Cell::new(c as i32, r as i32);
                *f = match &boxes {
                    Some(b) => b.fit(level, physics, r * w + c, cell),
                    None => fit(level, physics, cell),
                };
            }
        });
        let wrap = level.wrap();
        let at = |c: i64, r: i64| -> Option<Fit> {
            let (c, r) = wrap.fold(c, r, w, h);
            (c >= 0 && c < w as i64 && r >= 0 && r < h as i64)
                .then(|| fits[r as usize * w + c as usize])
        };
        let types = per_row((w, h), NodeType::BLOCKED, |r, row| {
            for (c, t) in row.iter_mut().enumerate() {
                let i = r * w + c;
                let (c, r) = (c as i64, r as i64);
                let sides = (at(c - 1, r), at(c + 1, r));
                *t = type_of(level, (c, r), fits[i], sides, || match &boxes {
                    Some(b) => b.roofed(i),
                    None => roofed(level, physics, Cell::new(c as i32, r as i32)),
                });
            }
        });
        let standable = fits
            .iter()
            .map(|f| matches!(f, Fit::Standable { .. }))
            .collect();
        Self {
            width: w,
            height: h,
            wrap,
            types,
            standable,
        }
    }

    /// A classification of no cells, to hold a map's place while an edit
    /// updates the real one in place.
    pub(crate) fn empty() -> Self {
        Self {
            width: 0,
            height: 0,
            wrap: Wrap::NONE,
            types: Vec::new(),
            standable: Vec::new(),
        }
    }

    /// Classifies again the cells an edit of the tiles in the rectangle
    /// `lo..=hi` of `level` (which this classification was made for before
    /// the edit) can change, and returns the cells whose standability
    /// changed. The same as [`Classification::new`] on the edited level:
    /// a cell's fit reads the tiles its body box and the row under it
    /// overlap, and its type its own and its row neighbours' fits, so
    /// cells farther than the body's size from every edited tile keep
    /// their class.
    pub(crate) fn update(
        &mut self,
        level: &Level,
        physics: &Physics,
        lo: Cell,
        hi: Cell,
    ) -> Vec<Cell> {
        if self.wrap.any() {
            return self.replace(Self::new(level, physics));
        }
        let (w, h) = (self.width as i64, self.height as i64);
        // Fits that may change: the body box reaches `ceil(w / 2) + 1`
        // columns to each side of its cell and `ceil(h) + 1` rows above its
        // feet (the raised test of a roof one more), the ground test one row
        // below; a margin of two more on each side. Types: one column more.
        let mc = physics.half_w().ceil() as i64 + 3;
        let up = physics.box_h().ceil() as i64 + 4;
        let (c0, c1) = (
            (i64::from(lo.col) - mc - 1).max(0),
            (i64::from(hi.col) + mc + 1).min(w - 1),
        );
        let (r0, r1) = (
            (i64::from(lo.row) - 3).max(0),
            (i64::from(hi.row) + up).min(h - 1),
        );
        if c0 > c1 || r0 > r1 {
            return Vec::new();
        }
        let ww = (c1 - c0 + 1) as usize;
        let fits: Vec<Fit> = (r0..=r1)
            .flat_map(|r| (c0..=c1).map(move |c| (c, r)))
            .map(|(c, r)| fit(level, physics, Cell::new(c as i32, r as i32)))
            .collect();
        // A neighbour's fit: fresh inside the window; outside it, unchanged,
        // and read back from the stored class (all `side` needs).
        let at = |c: i64, r: i64| -> Option<Fit> {
            if c < 0 || c >= w || r < 0 || r >= h {
                None
            } else if (c0..=c1).contains(&c) {
                Some(fits[(r - r0) as usize * ww + (c - c0) as usize])
            } else {
                let i = r as usize * self.width + c as usize;
                Some(if self.standable[i] {
                    Fit::Standable { on_one_way: false }
                } else if self.types[i] == NodeType::BLOCKED {
                    Fit::Blocked
                } else {
                    Fit::Free
                })
            }
        };
        let mut types = Vec::with_capacity(fits.len());
        for r in r0..=r1 {
            for c in c0..=c1 {
                let f = fits[(r - r0) as usize * ww + (c - c0) as usize];
                types.push(type_of(
                    level,
                    (c, r),
                    f,
                    (at(c - 1, r), at(c + 1, r)),
                    || roofed(level, physics, Cell::new(c as i32, r as i32)),
                ));
            }
        }
        let mut changed = Vec::new();
        for r in r0..=r1 {
            for c in c0..=c1 {
                let k = (r - r0) as usize * ww + (c - c0) as usize;
                let i = r as usize * self.width + c as usize;
                let now = matches!(fits[k], Fit::Standable { .. });
                if now != self.standable[i] {
                    changed.push(Cell::new(c as i32, r as i32));
                }
                self.standable[i] = now;
                self.types[i] = types[k];
            }
        }
        changed
    }

    /// Becomes `fresh` (a classification of the same level after an edit)
    /// and returns the cells whose standability changed: the update of a
    /// level that wraps, whose edits reach across its edges.
    fn replace(&mut self, fresh: Self) -> Vec<Cell> {
        let changed = (0..fresh.standable.len())
            .filter(|&i| self.standable.get(i) != Some(&fresh.standable[i]))
            .map(|i| Cell::new((i % fresh.width) as i32, (i / fresh.width) as i32))
            .collect();
        *self = fresh;
        changed
    }

    /// Width in cells.
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height in cells.
    #[must_use]
    pub fn height(&self) -> usize {
        self.height
    }

    fn index(&self, cell: Cell) -> Option<usize> {
        // (A wrapping classification is never the empty placeholder.)
        let cell = self.wrap.on_map(cell, self.width, self.height);
        (cell.col >= 0
            && cell.row >= 0
            && (cell.col as usize) < self.width
            && (cell.row as usize) < self.height)
            .then(|| cell.row as usize * self.width + cell.col as usize)
    }

    /// The node type of `cell`; off the map is [`NodeType::BLOCKED`]
    /// (across an edge that wraps, the cell on the other side).
    #[must_use]
    pub fn get(&self, cell: Cell) -> NodeType {
        self.index(cell)
            .map_or(NodeType::BLOCKED, |i| self.types[i])
    }

    /// True when the agent can stand on `cell`.
    #[must_use]
    pub fn is_standable(&self, cell: Cell) -> bool {
        self.index(cell).is_some_and(|i| self.standable[i])
    }

    /// Every standable cell, row-major.
    pub fn standable_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.standable
            .iter()
            .enumerate()
            .filter(|(_, s)| **s)
            .map(|(i, _)| Cell::new((i % self.width) as i32, (i / self.width) as i32))
    }

    /// Node types row-major, top row first.
    #[must_use]
    pub fn types(&self) -> &[NodeType] {
        &self.types
    }
}

impl std::fmt::Display for Classification {
    /// One [`NodeType::symbol`] per cell, a line per row.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for row in self.types.chunks(self.width) {
            let line: String = row.iter().map(|t| t.symbol()).collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::SplitMix64;

    /// The box tests made in passes over the rows give the classes the
    /// body's own box test per cell gives: bodies of several sizes (box
    /// edges on and off tile edges), tiles acting on overlap, ladders and
    /// slopes (and levels with none), levels that wrap, and columns far
    /// from the origin.
    #[test]
    fn classes_by_rows_equal_classes_cell_by_cell() {
        let mut rng = SplitMix64::new(11);
        let bodies = [
            (0.8, 1.8),
            (1.0, 1.0),
            (0.3, 0.2),
            (2.0, 3.0),
            (1.6, 2.4),
            (3.0, 1.0),
        ];
        let wraps = [Wrap::NONE, Wrap::X, Wrap::Y, Wrap::XY];
        let rules: Vec<Tile> = Active::rule_tiles().collect();
        let extra = [
            Tile::HAZARD,
            Tile::PAD,
            Tile::SPRING,
            Tile::ONE_WAY,
            Tile::GOAL,
        ];
        let mut levels = Vec::new();
        for seed in 0..8 {
            let mut level = Level::generate(40 + 9 * seed, 24 + 5 * seed, seed as u64).unwrap();
            for k in 0..40 {
                let at = Cell::new(
                    rng.below(level.width() as u64) as i32,
                    rng.below(level.height() as u64) as i32,
                );
                let tile = if k % 2 == 0 {
                    extra[rng.below(extra.len() as u64) as usize]
                } else {
                    rules[rng.below(rules.len() as u64) as usize]
                };
                level.set(at, tile);
            }
            let mut plain = level.clone();
            for r in 0..plain.height() as i32 {
                for c in 0..plain.width() as i32 {
                    if plain
                        .get(Cell::new(c, r))
                        .is_some_and(|t| rules.contains(&t))
                    {
                        plain.set(Cell::new(c, r), Tile::EMPTY);
                    }
                }
            }
            assert!(Active::of(&plain).plain() && !Active::of(&level).plain());
            levels.push(level.with_wrap(wraps[seed % 4]));
            levels.push(plain.with_wrap(wraps[(seed + 1) % 4]));
        }
        levels.push(Level::generate(4200, 20, 3).unwrap());
        for level in &levels {
            for (w, h) in bodies {
                let physics = Physics {
                    w,
                    h,
                    ..Physics::default()
                };
                let by_rows = Classification::classify(level, &physics, true);
                let by_cells = Classification::classify(level, &physics, false);
                assert_eq!(
                    by_rows,
                    by_cells,
                    "body {w} x {h}, {} x {}",
                    level.width(),
                    level.height()
                );
            }
        }
    }

    /// Classifying again around edited tiles gives what classifying the
    /// edited level from scratch gives, for bodies of several sizes.
    #[test]
    fn an_update_around_edits_equals_a_fresh_classification() {
        let mut rng = SplitMix64::new(7);
        for (w, h) in [(0.8, 0.9), (1.6, 2.4), (0.3, 0.2), (3.0, 1.0)] {
            let physics = Physics {
                w,
                h,
                ..Physics::default()
            };
            let mut level = Level::generate(40, 24, 3).unwrap();
            let mut classes = Classification::new(&level, &physics);
            for _ in 0..60 {
                let at = Cell::new(rng.below(40) as i32, rng.below(24) as i32);
                let side = 1 + rng.below(3) as i32;
                let tile = [
                    Tile::EMPTY,
                    Tile::SOLID,
                    Tile::ONE_WAY,
                    Tile::HAZARD,
                    Tile::GOAL,
                ][rng.below(5) as usize];
                let mut hi = at;
                for dc in 0..side {
                    for dr in 0..side {
                        let c = Cell::new(at.col + dc, at.row + dr);
                        if level.set(c, tile) {
                            hi = Cell::new(hi.col.max(c.col), hi.row.max(c.row));
                        }
                    }
                }
                let before = classes.clone();
                let changed = classes.update(&level, &physics, at, hi);
                let fresh = Classification::new(&level, &physics);
                assert_eq!(classes, fresh, "body {w} x {h}, edit at {at}");
                let expect: Vec<Cell> = (0..24)
                    .flat_map(|r| (0..40).map(move |c| Cell::new(c, r)))
                    .filter(|&c| before.is_standable(c) != fresh.is_standable(c))
                    .collect();
                let mut got = changed;
                got.sort_by_key(|c| (c.row, c.col));
                assert_eq!(got, expect);
            }
        }
    }
}
