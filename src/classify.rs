//! Node types per cell for one agent size, in the classic Bosonauts palette.

use crate::level::{Cell, Level, Tile};
use crate::physics::{Body, Physics};

/// What a cell is to an agent of a given size.
///
/// A cell is *standable* when a body standing on it (feet on top of the row
/// below, centred in the column) overlaps no solid or hazard tile and is
/// grounded. Standable cells are sorted by their sides: a side is a *wall*
/// when the neighbouring cell is [`NodeType::Blocked`], an *edge* when the
/// neighbour is not standable (a drop), and *open* otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum NodeType {
    /// Free space the agent fits in, nothing to stand on.
    Air,
    /// The agent's box would overlap a solid tile.
    Blocked,
    /// Standable, both sides open.
    Platform,
    /// Standable, a drop on the left, open on the right.
    LeftEdge,
    /// Standable, open on the left, a drop on the right.
    RightEdge,
    /// Standable with drops (or walls) on both sides.
    Solo,
    /// Standable, a wall on the left, open on the right.
    LeftWall,
    /// Standable, open on the left, a wall on the right.
    RightWall,
    /// Standable, a wall on the left and a drop on the right.
    LeftWallEdge,
    /// Standable, a drop on the left and a wall on the right.
    RightWallEdge,
    /// Free space with a solid ceiling within one tile above the agent's head.
    Roof,
    /// The agent's box would overlap a hazard.
    Death,
    /// Standable on a one-way platform.
    OneWay,
    /// A goal marker the agent fits in (standable or not).
    Goal,
}

impl NodeType {
    /// Every node type, in palette order.
    pub const ALL: [NodeType; 14] = [
        NodeType::Air,
        NodeType::Blocked,
        NodeType::Platform,
        NodeType::LeftEdge,
        NodeType::RightEdge,
        NodeType::Solo,
        NodeType::LeftWall,
        NodeType::RightWall,
        NodeType::LeftWallEdge,
        NodeType::RightWallEdge,
        NodeType::Roof,
        NodeType::Death,
        NodeType::OneWay,
        NodeType::Goal,
    ];

    /// A one-character symbol for text maps.
    #[must_use]
    pub const fn symbol(self) -> char {
        match self {
            NodeType::Air => ' ',
            NodeType::Blocked => '#',
            NodeType::Platform => '_',
            NodeType::LeftEdge => '<',
            NodeType::RightEdge => '>',
            NodeType::Solo => 'o',
            NodeType::LeftWall => '[',
            NodeType::RightWall => ']',
            NodeType::LeftWallEdge => '{',
            NodeType::RightWallEdge => '}',
            NodeType::Roof => '-',
            NodeType::Death => '^',
            NodeType::OneWay => '=',
            NodeType::Goal => 'G',
        }
    }

    /// The snake-case name used in JSON (`"left_edge"`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            NodeType::Air => "air",
            NodeType::Blocked => "blocked",
            NodeType::Platform => "platform",
            NodeType::LeftEdge => "left_edge",
            NodeType::RightEdge => "right_edge",
            NodeType::Solo => "solo",
            NodeType::LeftWall => "left_wall",
            NodeType::RightWall => "right_wall",
            NodeType::LeftWallEdge => "left_wall_edge",
            NodeType::RightWallEdge => "right_wall_edge",
            NodeType::Roof => "roof",
            NodeType::Death => "death",
            NodeType::OneWay => "one_way",
            NodeType::Goal => "goal",
        }
    }
}

/// The node type of every cell, plus which cells are standable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classification {
    width: usize,
    height: usize,
    types: Vec<NodeType>,
    standable: Vec<bool>,
}

/// How a body placed on one cell relates to the level.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fit {
    Blocked,
    Death,
    Standable { on_one_way: bool },
    Free,
}

fn fit(level: &Level, p: &Physics, cell: Cell) -> Fit {
    let body = Body::standing(cell, p);
    if level.has_ladders() || level.has_slopes() {
        return fit_extended(level, p, &body);
    }
    if body.overlaps_kind(level, p, Tile::Solid) {
        return Fit::Blocked;
    }
    if body.overlaps_kind(level, p, Tile::Hazard) {
        return Fit::Death;
    }
    // Ground under the feet: the tiles of row `row + 1` the box overlaps horizontally.
    let row = i64::from(cell.row) + 1;
    let (x0, x1) = (body.x - p.w / 2.0, body.x + p.w / 2.0);
    let mut solid = false;
    let mut one_way = false;
    let first = x0.floor() as i64;
    let last = x1.floor() as i64;
    for c in first..=last {
        let ov = x1.min(c as f64 + 1.0) - x0.max(c as f64);
        if ov <= crate::physics::EPS {
            continue;
        }
        match level.tile_at(c, row) {
            Tile::Solid => solid = true,
            Tile::OneWay => one_way = true,
            _ => {}
        }
    }
    if solid || one_way {
        Fit::Standable { on_one_way: !solid }
    } else {
        Fit::Free
    }
}

/// [`fit`] on a level with ladders or slopes, by the body's own tests: a
/// slope stops the box unless it is a ghost, a ladder top holds the feet
/// like a one-way tile, and a cell over a slope's surface is not stood on
/// (the body stands on the surface, below the cell's floor).
fn fit_extended(level: &Level, p: &Physics, body: &Body) -> Fit {
    if body.blocked(level, p) {
        return Fit::Blocked;
    }
    if body.overlaps_kind(level, p, Tile::Hazard) {
        return Fit::Death;
    }
    match body.support(level, p) {
        (false, false) => Fit::Free,
        (solid, _) => Fit::Standable { on_one_way: !solid },
    }
}

impl Classification {
    /// Classifies every cell of `level` for the agent of `physics`.
    #[must_use]
    pub fn new(level: &Level, physics: &Physics) -> Self {
        let (w, h) = (level.width(), level.height());
        let fits: Vec<Fit> = (0..w * h)
            .map(|i| fit(level, physics, Cell::new((i % w) as i32, (i / w) as i32)))
            .collect();
        let at = |c: i64, r: i64| -> Option<Fit> {
            (c >= 0 && c < w as i64 && r >= 0 && r < h as i64)
                .then(|| fits[r as usize * w + c as usize])
        };
        let mut types = Vec::with_capacity(w * h);
        let mut standable = Vec::with_capacity(w * h);
        for (i, &fit_here) in fits.iter().enumerate() {
            let (c, r) = ((i % w) as i64, (i / w) as i64);
            let goal = level.tiles()[i] == Tile::Goal;
            let t = match fit_here {
                Fit::Blocked => NodeType::Blocked,
                Fit::Death => NodeType::Death,
                Fit::Standable { on_one_way } => {
                    if goal {
                        NodeType::Goal
                    } else if on_one_way {
                        NodeType::OneWay
                    } else {
                        // Off-map neighbours are borders: walls.
                        let side = |n: Option<Fit>| match n {
                            None | Some(Fit::Blocked) => 'w',
                            Some(Fit::Standable { .. }) => 'o',
                            _ => 'e',
                        };
                        match (side(at(c - 1, r)), side(at(c + 1, r))) {
                            ('o', 'o') => NodeType::Platform,
                            ('e', 'o') => NodeType::LeftEdge,
                            ('o', 'e') => NodeType::RightEdge,
                            ('w', 'o') => NodeType::LeftWall,
                            ('o', 'w') => NodeType::RightWall,
                            ('w', 'e') => NodeType::LeftWallEdge,
                            ('e', 'w') => NodeType::RightWallEdge,
                            _ => NodeType::Solo,
                        }
                    }
                }
                Fit::Free => {
                    if goal {
                        NodeType::Goal
                    } else {
                        let mut raised = Body::standing(Cell::new(c as i32, r as i32), physics);
                        raised.y -= 1.0;
                        if raised.overlaps_kind(level, physics, Tile::Solid) {
                            NodeType::Roof
                        } else {
                            NodeType::Air
                        }
                    }
                }
            };
            types.push(t);
            standable.push(matches!(fit_here, Fit::Standable { .. }));
        }
        Self {
            width: w,
            height: h,
            types,
            standable,
        }
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
        (cell.col >= 0
            && cell.row >= 0
            && (cell.col as usize) < self.width
            && (cell.row as usize) < self.height)
            .then(|| cell.row as usize * self.width + cell.col as usize)
    }

    /// The node type of `cell`; off the map is [`NodeType::Blocked`].
    #[must_use]
    pub fn get(&self, cell: Cell) -> NodeType {
        self.index(cell)
            .map_or(NodeType::Blocked, |i| self.types[i])
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
