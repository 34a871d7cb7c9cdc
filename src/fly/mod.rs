//! Flying and top-down agents: exact any-angle shortest paths through open
//! space.
//!
//! A [`FreeSpace`] is built for one [`Agent`] (a box or a disc) from a
//! [`Level`]'s open cells ([`FreeSpace::from_level`]), a PNG
//! walk mask at pixel resolution ([`FreeSpace::from_mask_png`]) or polygon
//! walk areas ([`FreeSpace::from_area`]). It holds the *free space*: every
//! position of the agent's centre at which the agent touches no obstacle
//! (the obstacles grown by the agent's shape), cut into triangles.
//! [`FreeSpace::find_path`] returns the exact Euclidean shortest path
//! between two arbitrary points through it, searched with Polyanya over the
//! triangles: the start and goal need no preprocessing, and the path bends
//! only at obstacle corners. Obstacles can be added and removed at runtime
//! ([`FreeSpace::add_obstacle`]); only the triangles they touch are cut
//! again. [`FlyFollower`] turns a path into a velocity per tick.
//!
//! # What "exact" means
//!
//! The path is the shortest among all paths of the agent's centre that
//! keep the agent off every obstacle, for the agent grown by a clearance of
//! 2^-28 of the map's extent (4e-6 tiles on a 1024-tile map; it absorbs the
//! rounding of the polygon booleans, so the agent itself never touches an
//! obstacle). A box agent is exact as given; a disc is planned as the
//! regular [`DISC_SIDES`]-gon circumscribing it (see there). The tests
//! check every path's length against a brute-force visibility graph built
//! from the same definition (relative error 1e-6).
//!
//! # Endpoints off the free space
//!
//! A start or goal where the agent does not fit (inside a wall, too close
//! to one, off the map) moves to the nearest point of the free space
//! (Euclidean distance from the requested point; the first found on a
//! tie). [`FlyPath::points`] starts and ends at the points used. When the
//! agent fits nowhere there is no free space and building fails
//! ([`FlyError::NoFreeSpace`]). When start and goal lie in separate pockets
//! of free space (the agent is enclosed, or the goal is),
//! [`FreeSpace::find_path`] returns [`FlyError::Unreachable`] with both
//! snapped points; it never moves an endpoint into another pocket.

mod agent;
mod area;
mod build;
#[cfg(feature = "render")]
mod draw;
mod dynamic;
mod follow;
mod geom;
mod mesh;
mod search;

pub use agent::{Agent, DISC_SIDES};
pub use area::{Area, MAX_AREA_POINTS, Walk};
#[cfg(feature = "render")]
pub use draw::{FLY_PATH_COLOR, FREE_COLOR, MESH_COLOR, draw_fly_path, draw_free_space};
pub use dynamic::Obstacle;
pub use follow::{FlyFollower, FollowStep};
pub use geom::Point;

use crate::level::{Level, LevelError};
use mesh::Mesh;

/// The largest coordinate (in absolute value) a polygon, obstacle or agent
/// size may have.
pub const MAX_COORD: f64 = 1e6;

/// The most search nodes one query may generate before it gives up
/// ([`FlyError::SearchLimit`]): 2^22.
pub const MAX_SEARCH_NODES: usize = 1 << 22;

/// Why free space could not be built or a path not found.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FlyError {
    /// An agent size that is not finite and positive.
    #[error("bad agent {0}: sizes must be finite, positive and at most 1e6")]
    BadAgent(String),
    /// Bad options.
    #[error("bad options: {0}")]
    BadOptions(String),
    /// A walk area that cannot be used.
    #[error("bad walk area: {0}")]
    BadArea(String),
    /// An endpoint that is not a finite point.
    #[error("{what} ({x}, {y}) is not a finite point")]
    BadPoint {
        /// `start` or `goal`.
        what: &'static str,
        /// Its x.
        x: f64,
        /// Its y.
        y: f64,
    },
    /// The agent fits nowhere.
    #[error("the agent fits nowhere: there is no free space")]
    NoFreeSpace,
    /// Start and goal lie in separate pockets of free space.
    #[error("no path from ({}, {}) to ({}, {}): they lie in separate pockets of free space", from.x, from.y, to.x, to.y)]
    Unreachable {
        /// The start used (after snapping).
        from: Point,
        /// The goal used (after snapping).
        to: Point,
    },
    /// The search generated [`MAX_SEARCH_NODES`] nodes without an answer.
    #[error("the search gave up after {MAX_SEARCH_NODES} nodes")]
    SearchLimit,
    /// An obstacle that is degenerate (no area) or not finite.
    #[error("bad obstacle: {0}")]
    BadObstacle(String),
    /// The free space could not be triangulated.
    #[error("triangulation: {0}")]
    Mesh(String),
    /// A level or mask that could not be read.
    #[error(transparent)]
    Level(#[from] LevelError),
}

/// How a level's tiles become obstacles.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct FlyOptions {
    /// Hazard tiles are obstacles grown by this margin (tiles) on every
    /// side before the agent's size is added: flying enemies keep this far
    /// from spikes. Solid tiles are obstacles; every other tile (empty,
    /// one-way platforms, goal and spawn markers) is open. Default 0.25.
    pub hazard_margin: f64,
}

setters!(FlyOptions {
    with_hazard_margin => hazard_margin: f64,
});

impl Default for FlyOptions {
    fn default() -> Self {
        Self {
            hazard_margin: 0.25,
        }
    }
}

/// A handle to an obstacle placed with [`FreeSpace::add_obstacle`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObstacleId(pub u64);

/// A shortest path.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FlyPath {
    /// The start used, each corner the path bends at, and the goal used.
    pub points: Vec<Point>,
    /// The path's length.
    pub length: f64,
    /// The start as asked for (it differs from `points[0]` when it was
    /// moved onto the free space).
    pub asked_start: Point,
    /// The goal as asked for.
    pub asked_goal: Point,
    /// Search nodes expanded.
    pub expanded: u32,
}

impl FlyPath {
    /// The start used.
    #[must_use]
    pub fn start(&self) -> Point {
        self.points[0]
    }

    /// The goal used.
    #[must_use]
    pub fn goal(&self) -> Point {
        self.points[self.points.len() - 1]
    }
}

struct Placed {
    id: ObstacleId,
    piece: Vec<Point>,
    change: dynamic::Change,
}

/// The free space of one agent, cut into triangles, with runtime obstacles.
///
/// ```
/// use platnav::Level;
/// use platnav::fly::{Agent, FlyOptions, FreeSpace, Obstacle, Point};
///
/// let level: Level = "..........\n....##....\n....##....\n..........".parse()?;
/// let mut space = FreeSpace::from_level(&level, Agent::disc(0.3), &FlyOptions::default())?;
/// let (a, b) = (Point::new(1.0, 1.5), Point::new(9.0, 1.5));
/// let path = space.find_path(a, b)?;
/// // Around the block, bending only at its grown corners.
/// assert!(path.length > 8.0 && path.points.len() > 2);
/// // A runtime obstacle cuts only the triangles it touches.
/// space.add_obstacle(&Obstacle::Rect { min: Point::new(2.0, 0.0), max: Point::new(3.0, 4.0) })?;
/// assert!(space.find_path(a, b).is_err(), "the wall closes the way");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct FreeSpace {
    agent: Agent,
    pad: f64,
    min: Point,
    max: Point,
    contours: Vec<Vec<Point>>,
    mesh: Mesh,
    static_tris: usize,
    static_pts: usize,
    placed: Vec<Placed>,
    next_id: u64,
    generation: u64,
    dirty_cells: Vec<usize>,
    /// The search's scratch, kept between queries.
    scratch: search::ScratchPool,
}

impl std::fmt::Debug for FreeSpace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FreeSpace")
            .field("agent", &self.agent)
            .field("triangles", &self.mesh.live_count())
            .field("obstacles", &self.placed.len())
            .finish_non_exhaustive()
    }
}

impl FreeSpace {
    /// Free space among a level's solid tiles (and hazards, grown by
    /// [`FlyOptions::hazard_margin`]), inside the level's rectangle, in tile
    /// units: cell `(col, row)` spans `col..col+1` and `row..row+1`.
    ///
    /// # Errors
    /// [`FlyError::BadAgent`], [`FlyError::BadOptions`],
    /// [`FlyError::NoFreeSpace`] when the agent fits nowhere.
    pub fn from_level(level: &Level, agent: Agent, options: &FlyOptions) -> Result<Self, FlyError> {
        let pieces = build::level_pieces(level, agent, options)?;
        let pad = build::CLEARANCE * (level.width().max(level.height()) as f64);
        Self::from_pieces(&pieces, agent, pad)
    }

    /// Free space of a walk area (see [`Area`]) in its own units.
    ///
    /// # Errors
    /// [`FlyError::BadAgent`], [`FlyError::BadArea`],
    /// [`FlyError::NoFreeSpace`].
    pub fn from_area(area: &Area, agent: Agent) -> Result<Self, FlyError> {
        let pieces = build::area_pieces(area, agent)?;
        let pad = build::CLEARANCE
            * (pieces.max.x - pieces.min.x)
                .max(pieces.max.y - pieces.min.y)
                .max(1.0);
        Self::from_pieces(&pieces, agent, pad)
    }

    /// Free space of a PNG walk mask at pixel resolution (one pixel is one
    /// unit), with the mask loader's colour legend (see
    /// [`ColorLegend`](crate::formats::ColorLegend)): solid pixels are obstacles,
    /// hazard pixels obstacles with a margin, every other colour open.
    ///
    /// # Errors
    /// [`FlyError::Level`] for an unreadable mask, then as
    /// [`FreeSpace::from_level`].
    #[cfg(feature = "png")]
    pub fn from_mask_png(
        bytes: &[u8],
        legend: &crate::formats::ColorLegend,
        agent: Agent,
        options: &FlyOptions,
    ) -> Result<Self, FlyError> {
        let loaded = crate::level::LoadedLevel::from_png_bytes(bytes, legend, 1)?;
        Self::from_level(&loaded.level, agent, options)
    }

    fn from_pieces(pieces: &build::Pieces, agent: Agent, pad: f64) -> Result<Self, FlyError> {
        let contours = build::free_contours(pieces);
        if contours.is_empty() {
            return Err(FlyError::NoFreeSpace);
        }
        let mesh = Mesh::from_contours(&contours, pieces.min, pieces.max)
            .map_err(|e| FlyError::Mesh(e.0))?;
        if mesh.tris.is_empty() {
            return Err(FlyError::NoFreeSpace);
        }
        Ok(Self {
            agent,
            pad,
            min: pieces.min,
            max: pieces.max,
            contours,
            static_tris: mesh.tris.len(),
            static_pts: mesh.pts.len(),
            mesh,
            placed: Vec::new(),
            next_id: 0,
            generation: 0,
            dirty_cells: Vec::new(),
            scratch: search::ScratchPool::default(),
        })
    }

    /// The agent this free space is for.
    #[must_use]
    pub fn agent(&self) -> Agent {
        self.agent
    }

    /// The clearance added to the agent on every side (see the module
    /// docs).
    #[must_use]
    pub fn clearance(&self) -> f64 {
        self.pad
    }

    /// A box holding all the free space.
    #[must_use]
    pub fn bounds(&self) -> (Point, Point) {
        (self.min, self.max)
    }

    /// The outline of the free space without runtime obstacles: contours
    /// whose inside (even-odd) is free.
    #[must_use]
    pub fn contours(&self) -> &[Vec<Point>] {
        &self.contours
    }

    /// The triangles of the free space now (runtime obstacles cut out).
    pub fn triangles(&self) -> impl Iterator<Item = [Point; 3]> + '_ {
        (0..self.mesh.tris.len() as u32)
            .filter(|&t| self.mesh.alive[t as usize])
            .map(|t| self.mesh.corners(t))
    }

    /// How many triangles the free space has now.
    #[must_use]
    pub fn triangle_count(&self) -> usize {
        self.mesh.live_count()
    }

    /// The edges where free space meets an obstacle now.
    pub fn boundary_edges(&self) -> impl Iterator<Item = (Point, Point)> + '_ {
        self.triangles_with_ids().flat_map(move |(t, c)| {
            (0..3).filter_map(move |i| {
                (self.mesh.nbr[t as usize][i] == mesh::NONE).then_some((c[i], c[(i + 1) % 3]))
            })
        })
    }

    fn triangles_with_ids(&self) -> impl Iterator<Item = (u32, [Point; 3])> + '_ {
        (0..self.mesh.tris.len() as u32)
            .filter(|&t| self.mesh.alive[t as usize])
            .map(|t| (t, self.mesh.corners(t)))
    }

    /// Counts that change when the free space does: bumped by every
    /// obstacle added or removed.
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// True when the agent fits at `p`.
    #[must_use]
    pub fn is_free(&self, p: Point) -> bool {
        p.is_finite() && self.mesh.locate(p).is_some()
    }

    /// The point of the free space nearest to `p`: `p` itself when the
    /// agent fits there. `None` only for a non-finite `p`, or when runtime
    /// obstacles cover all the free space.
    #[must_use]
    pub fn nearest_free(&self, p: Point) -> Option<Point> {
        if !p.is_finite() {
            return None;
        }
        self.mesh.nearest_free(p)
    }

    /// True when the agent can fly straight from `a` to `b`.
    #[must_use]
    pub fn segment_clear(&self, a: Point, b: Point) -> bool {
        a.is_finite() && b.is_finite() && self.mesh.segment_clear(a, b)
    }

    /// The shortest path from `start` to `goal` (see the module docs for
    /// endpoints off the free space).
    ///
    /// # Errors
    /// [`FlyError::BadPoint`] for a non-finite endpoint,
    /// [`FlyError::Unreachable`] when no path exists,
    /// [`FlyError::NoFreeSpace`] when obstacles cover all free space,
    /// [`FlyError::SearchLimit`].
    pub fn find_path(&self, start: Point, goal: Point) -> Result<FlyPath, FlyError> {
        for (what, p) in [("start", start), ("goal", goal)] {
            if !p.is_finite() {
                return Err(FlyError::BadPoint {
                    what,
                    x: p.x,
                    y: p.y,
                });
            }
        }
        let s = self.mesh.nearest_free(start).ok_or(FlyError::NoFreeSpace)?;
        let g = self.mesh.nearest_free(goal).ok_or(FlyError::NoFreeSpace)?;
        match search::shortest_path(&self.mesh, &self.scratch, s, g, MAX_SEARCH_NODES) {
            Some(found) => Ok(FlyPath {
                points: found.points,
                length: found.length,
                asked_start: start,
                asked_goal: goal,
                expanded: found.expanded,
            }),
            None => Err(FlyError::Unreachable { from: s, to: g }),
        }
    }

    /// Places an obstacle; the agent keeps clear of it like of any other.
    /// Only the triangles it touches are cut again.
    ///
    /// # Errors
    /// [`FlyError::BadObstacle`] for a degenerate or non-finite shape.
    pub fn add_obstacle(&mut self, obstacle: &Obstacle) -> Result<ObstacleId, FlyError> {
        let outline = obstacle
            .outline()
            .ok_or_else(|| FlyError::BadObstacle(format!("{obstacle:?}")))?;
        let piece = dynamic::grow(&outline, &self.agent.shape(self.pad));
        let change = dynamic::cut(&mut self.mesh, &piece);
        self.dirty_cells.extend_from_slice(change.cells());
        if self.dirty_cells.len() > 4 * self.mesh.grid.cells.len().max(1024) {
            self.dirty_cells.sort_unstable();
            self.dirty_cells.dedup();
        }
        let id = ObstacleId(self.next_id);
        self.next_id += 1;
        self.placed.push(Placed { id, piece, change });
        self.generation += 1;
        Ok(id)
    }

    /// Removes an obstacle placed before; false when `id` is not placed.
    /// Obstacles placed after it are taken out and placed again, so the
    /// cost grows with how many there are.
    pub fn remove_obstacle(&mut self, id: ObstacleId) -> bool {
        let Some(k) = self.placed.iter().position(|p| p.id == id) else {
            return false;
        };
        for p in self.placed[k..].iter().rev() {
            dynamic::undo(&mut self.mesh, &p.change);
        }
        self.placed.remove(k);
        if self.placed.is_empty() {
            dynamic::reset(
                &mut self.mesh,
                self.static_tris,
                self.static_pts,
                &self.dirty_cells,
            );
            self.dirty_cells.clear();
        } else {
            for i in k..self.placed.len() {
                let change = dynamic::cut(&mut self.mesh, &self.placed[i].piece);
                self.dirty_cells.extend_from_slice(change.cells());
                self.placed[i].change = change;
            }
        }
        self.generation += 1;
        true
    }

    /// The obstacles placed now, oldest first.
    pub fn obstacles(&self) -> impl Iterator<Item = ObstacleId> + '_ {
        self.placed.iter().map(|p| p.id)
    }
}
