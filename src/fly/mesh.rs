//! The navigation mesh: the free space cut into triangles, each knowing its
//! neighbours across its three edges, and a bucket grid to find the
//! triangle under a point.

use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};

use super::geom::{Point, closest_on_segment, cross};

/// "No triangle": an obstacle edge, or a free vertex id not in use.
pub(crate) const NONE: u32 = u32::MAX;

/// Distance tolerance of the point-in-triangle test (units).
pub(crate) const EPS: f64 = 1e-9;

/// Triangles of the free space.
#[derive(Debug, Clone, Default)]
pub(crate) struct Mesh {
    /// Vertices.
    pub pts: Vec<Point>,
    /// Vertices on an obstacle's boundary: the only places a shortest path
    /// may bend.
    pub corner: Vec<bool>,
    /// Triangles, vertex ids with positive orientation.
    pub tris: Vec<[u32; 3]>,
    /// Each triangle's corners (`pts` of its `tris` entry), kept beside it
    /// so the search reads one triangle in one place.
    pub cpts: Vec<[Point; 3]>,
    /// `nbr[t][i]`: the triangle across edge `(v[i], v[i+1])`, or [`NONE`].
    pub nbr: Vec<[u32; 3]>,
    /// Triangles in use (dynamic obstacles retire and revive them).
    pub alive: Vec<bool>,
    /// The bucket grid over triangles.
    pub grid: Grid,
}

/// A uniform grid of buckets holding the triangles whose bounding box meets
/// each cell (retired triangles stay listed and are skipped).
#[derive(Debug, Clone, Default)]
pub(crate) struct Grid {
    pub origin: Point,
    pub cell: f64,
    pub cols: usize,
    pub rows: usize,
    pub cells: Vec<Vec<u32>>,
}

impl Grid {
    fn new(min: Point, max: Point, tris: usize) -> Self {
        let (w, h) = ((max.x - min.x).max(1e-9), (max.y - min.y).max(1e-9));
        // About two triangles' worth of area per cell.
        let cell = (w * h / tris.max(1) as f64 * 2.0)
            .sqrt()
            .max(w.max(h) / 4096.0);
        let cols = ((w / cell).ceil() as usize).max(1);
        let rows = ((h / cell).ceil() as usize).max(1);
        Self {
            origin: min,
            cell,
            cols,
            rows,
            cells: vec![Vec::new(); cols * rows],
        }
    }

    /// The cell column and row holding `p`, clamped to the grid.
    pub fn cell_of(&self, p: Point) -> (usize, usize) {
        let c = ((p.x - self.origin.x) / self.cell).floor();
        let r = ((p.y - self.origin.y) / self.cell).floor();
        (
            (c.max(0.0) as usize).min(self.cols - 1),
            (r.max(0.0) as usize).min(self.rows - 1),
        )
    }

    /// The cells a triangle's bounding box (grown by [`EPS`]) meets.
    pub fn cells_under(&self, pts: [Point; 3]) -> impl Iterator<Item = usize> + '_ {
        let lo = Point::new(
            pts[0].x.min(pts[1].x).min(pts[2].x) - EPS,
            pts[0].y.min(pts[1].y).min(pts[2].y) - EPS,
        );
        let hi = Point::new(
            pts[0].x.max(pts[1].x).max(pts[2].x) + EPS,
            pts[0].y.max(pts[1].y).max(pts[2].y) + EPS,
        );
        let (c0, r0) = self.cell_of(lo);
        let (c1, r1) = self.cell_of(hi);
        (r0..=r1).flat_map(move |r| (c0..=c1).map(move |c| r * self.cols + c))
    }

    fn insert(&mut self, t: u32, pts: [Point; 3]) {
        let cells: Vec<usize> = self.cells_under(pts).collect();
        for c in cells {
            self.cells[c].push(t);
        }
    }
}

/// Why a mesh could not be made.
#[derive(Debug)]
pub(crate) struct MeshError(pub String);

impl Mesh {
    /// Triangulates the region bounded by `contours` (even-odd: every
    /// contour edge separates free space from obstacles), inside the box
    /// `min`-`max` that holds them all.
    pub fn from_contours(
        contours: &[Vec<Point>],
        min: Point,
        max: Point,
    ) -> Result<Self, MeshError> {
        let mut verts = Vec::new();
        let mut edges = Vec::new();
        for c in contours {
            let base = verts.len();
            let n = c.len();
            if n < 3 {
                continue;
            }
            verts.extend(c.iter().map(|p| Point2::new(p.x, p.y)));
            for i in 0..n {
                edges.push([base + i, base + (i + 1) % n]);
            }
        }
        let mut conflicts = 0usize;
        let cdt: ConstrainedDelaunayTriangulation<Point2<f64>> =
            ConstrainedDelaunayTriangulation::try_bulk_load_cdt(verts, edges, |_| conflicts += 1)
                .map_err(|e| MeshError(format!("triangulation failed: {e:?}")))?;
        if conflicts > 0 {
            return Err(MeshError(format!(
                "{conflicts} boundary edges of the free space overlap"
            )));
        }
        Ok(Self::from_cdt(&cdt, None, min, max))
    }

    /// The free triangles of a CDT: faces reached from the outside by
    /// crossing an odd number of constraint edges, or, with `keep`, the
    /// faces `keep` accepts (by centroid).
    pub fn from_cdt(
        cdt: &ConstrainedDelaunayTriangulation<Point2<f64>>,
        keep: Option<&dyn Fn(Point) -> bool>,
        min: Point,
        max: Point,
    ) -> Self {
        let nf = cdt.num_all_faces();
        let free = match keep {
            Some(f) => {
                let mut free = vec![false; nf];
                for face in cdt.inner_faces() {
                    let [a, b, c] = face.positions();
                    let centre = Point::new((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0);
                    free[face.fix().index()] = f(centre);
                }
                free
            }
            None => parity_fill(cdt),
        };
        let mut mesh = Mesh {
            pts: cdt
                .vertices()
                .map(|v| Point::new(v.position().x, v.position().y))
                .collect(),
            ..Mesh::default()
        };
        mesh.corner = vec![false; mesh.pts.len()];
        for e in cdt.undirected_edges() {
            if cdt.is_constraint_edge(e.fix()) {
                for v in e.vertices() {
                    mesh.corner[v.fix().index()] = true;
                }
            }
        }
        let mut id = vec![NONE; nf];
        let mut count = 0u32;
        for face in cdt.inner_faces() {
            if free[face.fix().index()] {
                id[face.fix().index()] = count;
                count += 1;
            }
        }
        for face in cdt.inner_faces() {
            if !free[face.fix().index()] {
                continue;
            }
            let es = face.adjacent_edges();
            let v = es.map(|e| e.from().fix().index() as u32);
            let n = es.map(|e| {
                e.rev()
                    .face()
                    .as_inner()
                    .map_or(NONE, |f| id[f.fix().index()])
            });
            mesh.push_raw(v, n);
        }
        mesh.rebuild_grid(min, max);
        mesh
    }

    /// Appends a triangle (reordered to positive orientation if needed).
    pub fn push_raw(&mut self, mut v: [u32; 3], mut n: [u32; 3]) -> u32 {
        let p = v.map(|i| self.pts[i as usize]);
        if cross(p[0], p[1], p[2]) < 0.0 {
            // Reverse: edges (0,1),(1,2),(2,0) become (0,2),(2,1),(1,0).
            v = [v[0], v[2], v[1]];
            n = [n[2], n[1], n[0]];
        }
        self.tris.push(v);
        self.cpts.push(v.map(|i| self.pts[i as usize]));
        self.nbr.push(n);
        self.alive.push(true);
        (self.tris.len() - 1) as u32
    }

    /// Rebuilds the bucket grid over the live triangles.
    pub fn rebuild_grid(&mut self, min: Point, max: Point) {
        self.grid = Grid::new(min, max, self.tris.len());
        for t in 0..self.tris.len() {
            if self.alive[t] {
                let p = self.corners(t as u32);
                self.grid.insert(t as u32, p);
            }
        }
    }

    /// Puts a new triangle in the grid.
    pub fn index(&mut self, t: u32) {
        let p = self.corners(t);
        self.grid.insert(t, p);
    }

    /// The three corners of triangle `t`.
    #[inline]
    pub fn corners(&self, t: u32) -> [Point; 3] {
        self.cpts[t as usize]
    }

    /// True when `p` lies in triangle `t` (boundary included, to [`EPS`]).
    pub fn contains(&self, t: u32, p: Point) -> bool {
        let [a, b, c] = self.corners(t);
        let inside = |u: Point, w: Point| cross(u, w, p) >= -EPS * u.dist(w).max(1.0);
        inside(a, b) && inside(b, c) && inside(c, a)
    }

    /// A live triangle holding `p`.
    pub fn locate(&self, p: Point) -> Option<u32> {
        let g = &self.grid;
        let (lo, hi) = (
            g.origin,
            Point::new(
                g.origin.x + g.cell * g.cols as f64,
                g.origin.y + g.cell * g.rows as f64,
            ),
        );
        if p.x < lo.x - EPS || p.y < lo.y - EPS || p.x > hi.x + EPS || p.y > hi.y + EPS {
            return None;
        }
        let (c, r) = g.cell_of(p);
        g.cells[r * g.cols + c]
            .iter()
            .copied()
            .find(|&t| self.alive[t as usize] && self.contains(t, p))
    }

    /// Every live triangle holding `p` (more than one on shared edges and
    /// vertices).
    pub fn locate_all(&self, p: Point) -> Vec<u32> {
        if self.locate(p).is_none() {
            return Vec::new();
        }
        let g = &self.grid;
        let (c, r) = g.cell_of(p);
        let mut v: Vec<u32> = g.cells[r * g.cols + c]
            .iter()
            .copied()
            .filter(|&t| self.alive[t as usize] && self.contains(t, p))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The point of the free space nearest to `p` (itself when free), or
    /// `None` when there is no free space.
    pub fn nearest_free(&self, p: Point) -> Option<Point> {
        if self.locate(p).is_some() {
            return Some(p);
        }
        let g = &self.grid;
        let mut best: Option<(f64, Point)> = None;
        let consider = |t: u32, best: &mut Option<(f64, Point)>| {
            let c = self.corners(t);
            for i in 0..3 {
                if self.nbr[t as usize][i] == NONE {
                    let q = closest_on_segment(p, c[i], c[(i + 1) % 3]);
                    let d = q.dist(p);
                    if best.is_none_or(|(bd, _)| d < bd) {
                        *best = Some((d, q));
                    }
                }
            }
        };
        let (c0, r0) = g.cell_of(p);
        let inside_grid = p.x >= g.origin.x
            && p.y >= g.origin.y
            && p.x <= g.origin.x + g.cell * g.cols as f64
            && p.y <= g.origin.y + g.cell * g.rows as f64;
        let max_ring = g.cols.max(g.rows);
        for ring in 0..=max_ring {
            let (rlo, rhi) = (r0.saturating_sub(ring), (r0 + ring).min(g.rows - 1));
            let (clo, chi) = (c0.saturating_sub(ring), (c0 + ring).min(g.cols - 1));
            for r in rlo..=rhi {
                for c in clo..=chi {
                    let on_ring = r.abs_diff(r0) == ring || c.abs_diff(c0) == ring;
                    if !on_ring {
                        continue;
                    }
                    for &t in &g.cells[r * g.cols + c] {
                        if self.alive[t as usize] {
                            consider(t, &mut best);
                        }
                    }
                }
            }
            // Points in later rings lie at least `ring` cells away (only
            // when `p` is inside the grid is its own cell that close).
            if inside_grid
                && let Some((d, _)) = best
                && d <= ring as f64 * g.cell
            {
                break;
            }
        }
        best.map(|(_, q)| q)
    }

    /// True when the straight segment `a`-`b` stays in the free space: a
    /// walk through the triangles it crosses. Conservative where it passes
    /// exactly through a vertex (it may then answer false).
    pub fn segment_clear(&self, a: Point, b: Point) -> bool {
        let Some(mut t) = self.locate(a) else {
            return false;
        };
        let mut prev = NONE;
        for _ in 0..self.tris.len() + 1 {
            if self.contains(t, b) {
                return true;
            }
            let c = self.corners(t);
            // Edges b lies beyond that the segment crosses; through a
            // vertex two qualify, and one leading on is enough.
            let mut next = None;
            for i in 0..3 {
                let (u, w) = (c[i], c[(i + 1) % 3]);
                let q = self.nbr[t as usize][i];
                if q == prev && q != NONE {
                    continue;
                }
                let tol = EPS * u.dist(w).max(1.0);
                if cross(u, w, b) < -tol
                    && cross(a, b, u) * cross(a, b, w) <= 0.0
                    && (next.is_none() || q != NONE)
                {
                    next = Some(q);
                }
            }
            match next {
                Some(q) if q != NONE => {
                    prev = t;
                    t = q;
                }
                _ => return false,
            }
        }
        false
    }

    /// How many live triangles there are.
    pub fn live_count(&self) -> usize {
        self.alive.iter().filter(|&&a| a).count()
    }
}

/// Free faces by parity: the outer face is outside, and every constraint
/// edge crossed flips inside and outside.
fn parity_fill(cdt: &ConstrainedDelaunayTriangulation<Point2<f64>>) -> Vec<bool> {
    let nf = cdt.num_all_faces();
    let mut state = vec![u8::MAX; nf];
    let mut stack = Vec::new();
    for e in cdt.convex_hull() {
        // `convex_hull` edges have the outer face on their left; the inner
        // face lies across.
        if let Some(f) = e.rev().face().as_inner() {
            let s = u8::from(cdt.is_constraint_edge(e.as_undirected().fix()));
            let i = f.fix().index();
            if state[i] == u8::MAX {
                state[i] = s;
                stack.push(f.fix());
            }
        }
    }
    while let Some(f) = stack.pop() {
        let s = state[f.index()];
        for e in cdt.face(f).adjacent_edges() {
            if let Some(g) = e.rev().face().as_inner() {
                let i = g.fix().index();
                if state[i] == u8::MAX {
                    state[i] = s ^ u8::from(cdt.is_constraint_edge(e.as_undirected().fix()));
                    stack.push(g.fix());
                }
            }
        }
    }
    state.into_iter().map(|s| s == 1).collect()
}
