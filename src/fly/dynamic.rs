//! Obstacles added and removed at runtime: only the triangles an obstacle
//! touches are cut again.
//!
//! Adding an obstacle takes the free triangles it meets, triangulates their
//! union again with the grown obstacle's outline as a constraint (a small
//! constrained Delaunay triangulation that keeps every edge shared with the
//! rest of the mesh), keeps the triangles outside the obstacle and links
//! them to their neighbours. The change is recorded so that removing the
//! obstacle can undo it: obstacles placed after it are undone too, then
//! placed again.

use std::collections::HashMap;

use spade::handles::{FixedFaceHandle, InnerTag};
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};

use super::agent::disc_polygon;
use super::geom::{Point, convex_hull, cross, minkowski};
use super::mesh::{EPS, Mesh, NONE};

/// An obstacle placed at runtime (a door, a crate, another character).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Obstacle {
    /// The axis-aligned rectangle `min`-`max`.
    Rect {
        /// Top-left corner.
        min: Point,
        /// Bottom-right corner.
        max: Point,
    },
    /// A circle (planned as its circumscribed
    /// [`DISC_SIDES`](super::DISC_SIDES)-gon).
    Circle {
        /// Centre.
        center: Point,
        /// Radius.
        radius: f64,
    },
    /// A convex polygon; a non-convex one stands for its convex hull.
    Polygon(Vec<Point>),
}

impl Obstacle {
    /// The outline as a convex polygon with positive orientation, or `None`
    /// when it is degenerate or not finite.
    pub(crate) fn outline(&self) -> Option<Vec<Point>> {
        let pts = match self {
            Obstacle::Rect { min, max } => super::Area::rect(*min, *max),
            Obstacle::Circle { center, radius } => {
                if !(radius.is_finite() && *radius > 0.0) {
                    return None;
                }
                disc_polygon(*center, *radius)
            }
            Obstacle::Polygon(p) => p.clone(),
        };
        if pts.len() > 4096
            || pts.iter().any(|p| {
                !p.is_finite() || p.x.abs() > super::MAX_COORD || p.y.abs() > super::MAX_COORD
            })
        {
            return None;
        }
        let hull = convex_hull(pts);
        (hull.len() >= 3).then_some(hull)
    }
}

/// What placing one obstacle changed, to undo it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Change {
    killed: Vec<u32>,
    created: Vec<u32>,
    /// (triangle, edge, previous neighbour) of triangles outside the cut.
    patched: Vec<(u32, u8, u32)>,
    /// Grid cells that got new entries.
    cells: Vec<usize>,
}

/// True when convex polygons `a` and `b` (positive orientation) overlap or
/// touch, to `EPS` (separating-axis test).
pub(crate) fn convex_meet(a: &[Point], b: &[Point]) -> bool {
    let separated = |p: &[Point], q: &[Point]| {
        let n = p.len();
        (0..n).any(|i| {
            let (u, w) = (p[i], p[(i + 1) % n]);
            if u == w {
                return false;
            }
            let l = u.dist(w);
            q.iter().all(|&x| cross(u, w, x) < -EPS * l)
        })
    };
    let seg_sep = |s: &[Point], q: &[Point]| {
        // For a segment, its line is an axis too (either side).
        if s.len() != 2 || s[0] == s[1] {
            return false;
        }
        let l = s[0].dist(s[1]);
        q.iter().all(|&x| cross(s[0], s[1], x) < -EPS * l)
            || q.iter().all(|&x| cross(s[0], s[1], x) > EPS * l)
    };
    !(separated(a, b) || separated(b, a) || seg_sep(a, b) || seg_sep(b, a))
}

/// The grown outline of an obstacle for an agent shape.
pub(crate) fn grow(outline: &[Point], shape: &[Point]) -> Vec<Point> {
    minkowski(outline, shape)
}

/// A point's exact bits, as a hash key.
type Key = (u64, u64);

fn key(p: Point) -> Key {
    (p.x.to_bits(), p.y.to_bits())
}

/// The constrained triangulation a cut triangulates its region with.
type Cdt = ConstrainedDelaunayTriangulation<Point2<f64>>;

/// An edge's key: its ends' keys, the smaller first, so that both
/// triangles on the edge name it alike.
#[inline]
fn edge_key(pu: Point, pw: Point) -> (Key, Key) {
    if key(pu) < key(pw) {
        (key(pu), key(pw))
    } else {
        (key(pw), key(pu))
    }
}

/// The outline of the region a cut triangulates again.
struct Outline {
    /// Per edge to the outside (by [`edge_key`]): the outside triangle and
    /// its edge across.
    portals: HashMap<(Key, Key), (u32, u8)>,
    /// The mesh vertex of each outline point, by its key.
    ids: HashMap<Key, u32>,
    /// The edges to the outside (portals) and the obstacle edges.
    edges: Vec<(Point, Point)>,
}

/// Cuts the grown obstacle `piece` out of the mesh.
pub(crate) fn cut(mesh: &mut Mesh, piece: &[Point]) -> Change {
    let mut change = Change::default();
    let (region, in_r) = region_met(mesh, piece);
    if region.is_empty() {
        return change;
    }
    let Outline {
        portals,
        mut ids,
        edges: outline,
    } = outline_of(mesh, &region, &in_r);
    let Some(cdt) = triangulate(&outline, piece) else {
        return change;
    };
    let (new_id, kept) = kept_faces(mesh, &cdt, &region, piece);
    for &t in &region {
        mesh.alive[t as usize] = false;
    }
    change.killed = region;
    change.created = push_faces(mesh, &cdt, kept, &new_id, &mut ids);
    link_portals(mesh, &change.created, &portals, &mut change.patched);
    change.cells = touched_cells(mesh, &change.created);
    change
}

/// The smallest axis-aligned box holding `piece`: its lowest and highest
/// corners.
fn bounding_box(piece: &[Point]) -> (Point, Point) {
    piece.iter().fold(
        (
            Point::new(f64::MAX, f64::MAX),
            Point::new(f64::MIN, f64::MIN),
        ),
        |(lo, hi), p| {
            (
                Point::new(lo.x.min(p.x), lo.y.min(p.y)),
                Point::new(hi.x.max(p.x), hi.y.max(p.y)),
            )
        },
    )
}

/// The live triangles `piece` meets, grown across their edges until no
/// edge to the outside meets it, in the order found, and the same as a
/// set (empty when the piece meets no triangle).
fn region_met(mesh: &Mesh, piece: &[Point]) -> (Vec<u32>, HashMap<u32, ()>) {
    // Triangles the piece meets.
    let (lo, hi) = bounding_box(piece);
    let g = &mesh.grid;
    let (c0, r0) = g.cell_of(Point::new(lo.x - EPS, lo.y - EPS));
    let (c1, r1) = g.cell_of(Point::new(hi.x + EPS, hi.y + EPS));
    let mut in_r: HashMap<u32, ()> = HashMap::new();
    let mut region = Vec::new();
    for r in r0..=r1 {
        for c in c0..=c1 {
            for &t in &g.cells[r * g.cols + c] {
                if mesh.alive[t as usize]
                    && !in_r.contains_key(&t)
                    && convex_meet(&mesh.corners(t), piece)
                {
                    in_r.insert(t, ());
                    region.push(t);
                }
            }
        }
    }
    if region.is_empty() {
        return (region, in_r);
    }
    // Grow until no edge to the outside meets the piece.
    let mut i = 0;
    while i < region.len() {
        let t = region[i];
        let c = mesh.corners(t);
        for e in 0..3 {
            let q = mesh.nbr[t as usize][e];
            if q != NONE && !in_r.contains_key(&q) && convex_meet(&[c[e], c[(e + 1) % 3]], piece) {
                in_r.insert(q, ());
                region.push(q);
            }
        }
        i += 1;
    }
    (region, in_r)
}

/// The region's outline: edges to the outside (portals) and obstacle
/// edges, with the mesh vertices at their ends.
fn outline_of(mesh: &Mesh, region: &[u32], in_r: &HashMap<u32, ()>) -> Outline {
    let mut portals: HashMap<(Key, Key), (u32, u8)> = HashMap::new();
    let mut ids: HashMap<Key, u32> = HashMap::new();
    let mut outline = Vec::new();
    for &t in region {
        let tv = mesh.tris[t as usize];
        for e in 0..3 {
            let q = mesh.nbr[t as usize][e];
            if q != NONE && in_r.contains_key(&q) {
                continue;
            }
            let (u, w) = (tv[e], tv[(e + 1) % 3]);
            let (pu, pw) = (mesh.pts[u as usize], mesh.pts[w as usize]);
            ids.insert(key(pu), u);
            ids.insert(key(pw), w);
            outline.push((pu, pw));
            if q != NONE {
                let qe = mesh.nbr[q as usize]
                    .iter()
                    .position(|&x| x == t)
                    .unwrap_or(0) as u8;
                portals.insert(edge_key(pu, pw), (q, qe));
            }
        }
    }
    Outline {
        portals,
        ids,
        edges: outline,
    }
}

/// The constrained triangulation of the region's `outline` with the
/// `piece`'s outline as constraints, or `None` when spade refuses a point.
fn triangulate(outline: &[(Point, Point)], piece: &[Point]) -> Option<Cdt> {
    let mut cdt: Cdt = ConstrainedDelaunayTriangulation::new();
    let mut handle = HashMap::new();
    // Points are finite and within MAX_COORD (checked when the obstacle
    // was made), so spade takes them; should it refuse one, nothing has
    // been changed yet and the obstacle cuts nothing.
    let mut vh = |cdt: &mut Cdt, p: Point| {
        if let Some(&h) = handle.get(&key(p)) {
            return Some(h);
        }
        let h = cdt.insert(Point2::new(p.x, p.y)).ok()?;
        handle.insert(key(p), h);
        Some(h)
    };
    for &(a, b) in outline {
        let (Some(ha), Some(hb)) = (vh(&mut cdt, a), vh(&mut cdt, b)) else {
            return None;
        };
        if ha != hb && cdt.can_add_constraint(ha, hb) {
            cdt.add_constraint(ha, hb);
        } else if ha != hb {
            cdt.add_constraint_and_split(ha, hb, |p| p);
        }
    }
    let n = piece.len();
    let hs = piece
        .iter()
        .map(|&p| vh(&mut cdt, p))
        .collect::<Option<Vec<_>>>()?;
    for k in 0..n {
        if hs[k] != hs[(k + 1) % n] {
            cdt.add_constraint_and_split(hs[k], hs[(k + 1) % n], |p| p);
        }
    }
    Some(cdt)
}

/// The faces of `cdt` the cut keeps (inside the old `region`, outside the
/// `piece`), in order, and per face of `cdt` the id a kept one gets in the
/// mesh ([`NONE`] for the others).
fn kept_faces(
    mesh: &Mesh,
    cdt: &Cdt,
    region: &[u32],
    piece: &[Point],
) -> (Vec<u32>, Vec<FixedFaceHandle<InnerTag>>) {
    let n = piece.len();
    // Faces kept: inside the old region, outside the piece.
    let old: Vec<[Point; 3]> = region.iter().map(|&t| mesh.corners(t)).collect();
    let inside_piece = |p: Point| (0..n).all(|k| cross(piece[k], piece[(k + 1) % n], p) > 0.0);
    let in_old = |p: Point| {
        old.iter().any(|c| {
            (0..3).all(|k| {
                cross(c[k], c[(k + 1) % 3], p) >= -EPS * c[k].dist(c[(k + 1) % 3]).max(1.0)
            })
        })
    };
    let nf = cdt.num_all_faces();
    let mut new_id = vec![NONE; nf];
    let mut kept = Vec::new();
    for f in cdt.inner_faces() {
        let [a, b, c] = f.positions();
        let centre = Point::new((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0);
        let area2 = cross(
            Point::new(a.x, a.y),
            Point::new(b.x, b.y),
            Point::new(c.x, c.y),
        );
        if area2.abs() > 0.0 && in_old(centre) && !inside_piece(centre) {
            new_id[f.fix().index()] = (mesh.tris.len() + kept.len()) as u32;
            kept.push(f.fix());
        }
    }
    (new_id, kept)
}

/// Adds the `kept` faces of `cdt` to the mesh as triangles linked to each
/// other (by `new_id`), adding the vertices not in `ids` yet; returns the
/// new triangles.
fn push_faces(
    mesh: &mut Mesh,
    cdt: &Cdt,
    kept: Vec<FixedFaceHandle<InnerTag>>,
    new_id: &[u32],
    ids: &mut HashMap<Key, u32>,
) -> Vec<u32> {
    let mut created = Vec::new();
    for f in kept {
        let face = cdt.face(f);
        let es = face.adjacent_edges();
        let v = es.map(|e| {
            let p = e.from().position();
            let p = Point::new(p.x, p.y);
            *ids.entry(key(p)).or_insert_with(|| {
                mesh.pts.push(p);
                mesh.corner.push(true);
                (mesh.pts.len() - 1) as u32
            })
        });
        let nb = es.map(|e| {
            e.rev()
                .face()
                .as_inner()
                .map_or(NONE, |g| new_id[g.fix().index()])
        });
        let t = mesh.push_raw(v, nb);
        created.push(t);
    }
    created
}

/// Links the `created` triangles to the outside across the `portals`,
/// recording each outside link it replaces in `patched`, and indexes them
/// in the grid.
fn link_portals(
    mesh: &mut Mesh,
    created: &[u32],
    portals: &HashMap<(Key, Key), (u32, u8)>,
    patched: &mut Vec<(u32, u8, u32)>,
) {
    // Link the new triangles to the outside across the portals.
    for &t in created {
        let tv = mesh.tris[t as usize];
        for e in 0..3 {
            if mesh.nbr[t as usize][e] != NONE {
                continue;
            }
            let (pu, pw) = (mesh.pts[tv[e] as usize], mesh.pts[tv[(e + 1) % 3] as usize]);
            if let Some(&(q, qe)) = portals.get(&edge_key(pu, pw)) {
                mesh.nbr[t as usize][e] = q;
                patched.push((q, qe, mesh.nbr[q as usize][qe as usize]));
                mesh.nbr[q as usize][qe as usize] = t;
            }
        }
        mesh.index(t);
    }
}

fn touched_cells(mesh: &Mesh, tris: &[u32]) -> Vec<usize> {
    let mut cells: Vec<usize> = tris
        .iter()
        .flat_map(|&t| mesh.grid.cells_under(mesh.corners(t)))
        .collect();
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// Undoes a change (the last one not yet undone).
pub(crate) fn undo(mesh: &mut Mesh, change: &Change) {
    for &t in &change.created {
        mesh.alive[t as usize] = false;
    }
    for &t in &change.killed {
        mesh.alive[t as usize] = true;
    }
    for &(q, e, old) in change.patched.iter().rev() {
        mesh.nbr[q as usize][e as usize] = old;
    }
}

/// Drops every triangle and vertex past the static mesh, once no change is
/// left to undo.
pub(crate) fn reset(mesh: &mut Mesh, tris: usize, pts: usize, cells: &[usize]) {
    mesh.tris.truncate(tris);
    mesh.cpts.truncate(tris);
    mesh.nbr.truncate(tris);
    mesh.alive.truncate(tris);
    mesh.pts.truncate(pts);
    mesh.corner.truncate(pts);
    for &c in cells {
        mesh.grid.cells[c].retain(|&t| (t as usize) < tris);
    }
}

impl Change {
    /// Grid cells that got entries.
    pub(crate) fn cells(&self) -> &[usize] {
        &self.cells
    }
}
