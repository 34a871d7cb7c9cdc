//! Exact any-angle search on the mesh: Polyanya (Cui, Harabor and Grastien,
//! "Compromise-free Pathfinding on a Navigation Mesh", IJCAI 2017).
//!
//! A search node is a *root* (the start or an obstacle corner the path
//! bends at) and an *interval* of a triangle edge that every point of is
//! visible from the root, together with the triangle beyond the interval.
//! Expanding a node projects the interval across that triangle: the part of
//! the far edges seen from the root keeps the root (observable
//! successors), and the parts hidden behind an interval end that is an
//! obstacle corner get that corner as their new root (non-observable
//! successors). The f-value is the root's path length plus the exact
//! shortest distance from the root through the interval to the goal, so the
//! first time the goal is popped its path is a shortest one.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashSet};

use super::geom::{Point, cross, line_param};
use super::mesh::{EPS, Mesh, NONE};

/// One search node.
#[derive(Debug, Clone, Copy)]
struct Node {
    /// The root: where the path last bent (or the start).
    root: Point,
    /// The root's vertex id, [`NONE`] for the start.
    root_v: u32,
    /// Interval end on the side of the edge's first vertex (the cone is to
    /// the right of the ray root -> `a`).
    a: Point,
    /// Interval end on the side of the edge's second vertex.
    b: Point,
    /// The triangle beyond the interval, and the index of the edge the
    /// interval lies on in it.
    tri: u32,
    edge: u8,
    /// Length of the path from the start to the root.
    g: f64,
    /// Node this one came from (for the path).
    parent: u32,
    /// A goal node: popped means done.
    goal: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Open {
    f: f64,
    g: f64,
    node: u32,
}

impl Eq for Open {}

impl Ord for Open {
    fn cmp(&self, o: &Self) -> Ordering {
        // Min-heap on f; ties prefer the larger g (deeper node).
        o.f.total_cmp(&self.f).then(self.g.total_cmp(&o.g))
    }
}

impl PartialOrd for Open {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// Per-thread search memory, reused across queries.
#[derive(Default)]
struct Scratch {
    nodes: Vec<Node>,
    open: BinaryHeap<Open>,
    /// Best g per root vertex, valid where `stamp` equals `epoch`.
    best: Vec<f64>,
    stamp: Vec<u32>,
    epoch: u32,
    /// Successors of the node being expanded, not yet in the open list.
    pending: Vec<Node>,
    /// (root vertex, triangle) pairs already fully expanded from a root on
    /// their entry edge.
    seen_full: HashSet<(u32, u32)>,
}

impl Scratch {
    /// Clears the scratch for a new query on a mesh of `points` vertices:
    /// a new epoch makes every best g stale (the stamps are cleared when
    /// the epoch wraps).
    fn reset(&mut self, points: usize) {
        self.nodes.clear();
        self.open.clear();
        self.seen_full.clear();
        self.pending.clear();
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.iter_mut().for_each(|x| *x = 0);
            self.epoch = 1;
        }
        if self.best.len() < points {
            self.best.resize(points, 0.0);
            self.stamp.resize(points, 0);
        }
    }
}

/// Search scratch kept by a [`super::FreeSpace`] between its queries (one
/// set per query running at once, at most [`ScratchPool::MAX_KEPT`]), so
/// that a query allocates nothing once warm.
#[derive(Default)]
pub(crate) struct ScratchPool(std::sync::Mutex<Vec<Scratch>>);

impl ScratchPool {
    /// Sets kept at most.
    const MAX_KEPT: usize = 8;
}

impl std::fmt::Debug for ScratchPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ScratchPool")
    }
}

/// Runs `f` on a set of `pool`'s scratch (a new one when all are in use),
/// and keeps it after.
fn with_scratch<R>(pool: &ScratchPool, f: impl FnOnce(&mut Scratch) -> R) -> R {
    let taken = pool.0.lock().unwrap_or_else(|e| e.into_inner()).pop();
    let mut s = taken.unwrap_or_default();
    let out = f(&mut s);
    let mut kept = pool.0.lock().unwrap_or_else(|e| e.into_inner());
    if kept.len() < ScratchPool::MAX_KEPT {
        kept.push(s);
    }
    out
}

/// What a search found.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    /// Start, bends, goal.
    pub points: Vec<Point>,
    /// Length of the path.
    pub length: f64,
    /// Nodes expanded.
    pub expanded: u32,
}

/// The shortest distance from `r` through segment `a`-`b` to `g` (the
/// f-value's heuristic part), mirroring `g` across the segment's line when
/// it lies on the root's side.
fn h_value(r: Point, a: Point, b: Point, g: Point) -> f64 {
    let side_r = cross(a, b, r);
    let side_g = cross(a, b, g);
    let g = if side_r * side_g > 0.0 {
        // Mirror g across the line a-b.
        let d = b.sub(a);
        let l2 = d.dot(d);
        if l2 == 0.0 {
            g
        } else {
            let t = g.sub(a).dot(d) / l2;
            let foot = a.add(d.scale(t));
            foot.scale(2.0).sub(g)
        }
    } else {
        g
    };
    if a == b {
        return r.dist(a) + a.dist(g);
    }
    if cross(r, a, g) <= 0.0 && cross(r, b, g) >= 0.0 {
        r.dist(g)
    } else {
        (r.dist(a) + a.dist(g)).min(r.dist(b) + b.dist(g))
    }
}

struct Ctx<'a> {
    mesh: &'a Mesh,
    goal: Point,
    goal_tris: &'a [u32],
    s: &'a mut Scratch,
    generated: u32,
}

impl Ctx<'_> {
    fn best_ok(&mut self, v: u32, g: f64) -> bool {
        let s = &mut *self.s;
        let i = v as usize;
        if s.stamp[i] == s.epoch && g > s.best[i] + 1e-9 {
            return false;
        }
        if s.stamp[i] != s.epoch || g < s.best[i] {
            s.stamp[i] = s.epoch;
            s.best[i] = g;
        }
        true
    }

    fn push(&mut self, n: Node) {
        self.s.pending.push(n);
        self.generated += 1;
    }

    /// Whether `n`'s root was reached more cheaply since `n` was made.
    #[inline]
    fn stale(&self, n: &Node) -> bool {
        if n.root_v != NONE {
            let i = n.root_v as usize;
            if self.s.stamp[i] == self.s.epoch && n.g > self.s.best[i] + 1e-9 {
                return true;
            }
        }
        false
    }

    /// Initial nodes: every edge of every triangle holding the start,
    /// except edges the start lies on (their far side holds it too).
    fn push_starts(&mut self, start_tris: &[u32], start: Point) {
        for &t in start_tris {
            let p = self.mesh.corners(t);
            for i in 0..3 {
                let (u, w) = (p[i], p[(i + 1) % 3]);
                if cross(u, w, start).abs() <= EPS * u.dist(w).max(1.0) {
                    continue;
                }
                self.succ(t, i, u, w, start, NONE, 0.0, NONE);
            }
        }
    }

    /// Moves the pending successors to the open list.
    fn flush(&mut self) {
        while let Some(n) = self.s.pending.pop() {
            self.open(n);
        }
    }

    fn open(&mut self, n: Node) {
        let f = if n.goal {
            n.g + n.root.dist(self.goal)
        } else {
            n.g + h_value(n.root, n.a, n.b, self.goal)
        };
        let id = self.s.nodes.len() as u32;
        self.s.nodes.push(n);
        self.s.open.push(Open {
            f,
            g: n.g,
            node: id,
        });
    }

    /// A successor through edge `j` of triangle `t` (from `u` to `w` along
    /// the edge's own direction), with root `root`.
    #[allow(clippy::too_many_arguments)]
    fn succ(
        &mut self,
        t: u32,
        j: usize,
        u: Point,
        w: Point,
        root: Point,
        root_v: u32,
        g: f64,
        parent: u32,
    ) {
        let m = self.mesh;
        let q = m.nbr[t as usize][j];
        if q == NONE {
            return;
        }
        // A dead end (one way in) that does not hold the goal leads nowhere.
        let qn = m.nbr[q as usize];
        let ways = qn.iter().filter(|&&x| x != NONE).count();
        if ways == 1 && !self.goal_tris.contains(&q) {
            return;
        }
        let Some(k) = qn.iter().position(|&x| x == t) else {
            return;
        };
        // In q the edge runs the other way: its first vertex is our `w` end.
        self.push(Node {
            root,
            root_v,
            a: w,
            b: u,
            tri: q,
            edge: k as u8,
            g,
            parent,
            goal: false,
        });
    }

    /// Expands `n`; successors record `id` as their parent (the stored
    /// node `n` came from, which has the same root when `n` itself was
    /// never stored).
    fn expand(&mut self, n: Node, id: u32) {
        let m = self.mesh;
        let t = n.tri;
        let k = n.edge as usize;
        let (k1, k2) = (NEXT[k], NEXT[NEXT[k]]);
        let tv = m.tris[t as usize];
        let p = m.cpts[t as usize];
        let (pk, pk1, o) = (p[k], p[k1], p[k2]);
        let (vk, vk1) = (tv[k], tv[k1]);
        let tri = Entered {
            t,
            k1,
            k2,
            pk,
            pk1,
            o,
            vk,
            vk1,
        };
        let r = n.root;
        // The root on the entry edge's line (to rounding).
        let on_entry_line = near_line(pk, pk1, r);

        // The goal in this triangle: reach it straight or around an end.
        if self.goal_tris.contains(&t) {
            self.push_goal(n, id, &tri, on_entry_line);
        }

        // The chain of far edges: edge k+1 (pk1 -> o) and edge k+2 (o -> pk).
        // A root on the entry edge's line sees the whole triangle.
        if on_entry_line {
            if n.root_v != NONE && !self.s.seen_full.insert((n.root_v, t)) {
                return;
            }
            self.succ(t, k1, pk1, o, r, n.root_v, n.g, id);
            self.succ(t, k2, o, pk, r, n.root_v, n.g, id);
            return;
        }
        self.project(n, id, &tri);
    }

    /// Pushes the goal node of `n`, which lies in the goal's triangle
    /// `tri`: the goal seen from the root (or from a root on the entry
    /// edge's line), else around the interval end it lies behind, when
    /// that end is a corner.
    #[inline]
    fn push_goal(&mut self, n: Node, id: u32, tri: &Entered, on_entry_line: bool) {
        let m = self.mesh;
        let Entered {
            pk, pk1, vk, vk1, ..
        } = *tri;
        let r = n.root;
        let gl = self.goal;
        let seen = n.a == n.b && cross(r, n.a, gl).abs() <= EPS * r.dist(gl).max(1.0)
            || cross(r, n.a, gl) <= EPS && cross(r, n.b, gl) >= -EPS;
        if seen || on_entry_line {
            self.push(Node {
                goal: true,
                parent: id,
                ..n
            });
        } else if cross(r, n.a, gl) > 0.0 {
            if n.a == pk && m.corner[vk as usize] && self.best_ok(vk, n.g + r.dist(pk)) {
                self.push(Node {
                    goal: true,
                    parent: id,
                    root: pk,
                    root_v: vk,
                    g: n.g + r.dist(pk),
                    ..n
                });
            }
        } else if n.b == pk1 && m.corner[vk1 as usize] && self.best_ok(vk1, n.g + r.dist(pk1)) {
            self.push(Node {
                goal: true,
                parent: id,
                root: pk1,
                root_v: vk1,
                g: n.g + r.dist(pk1),
                ..n
            });
        }
    }

    /// Projects `n`'s interval across `tri` (the root off the entry edge's
    /// line): the stretch of the far edges seen from the root keeps it, and
    /// the stretches hidden behind an interval end that is a corner get
    /// that corner as their root.
    #[inline]
    fn project(&mut self, n: Node, id: u32, tri: &Entered) {
        let m = self.mesh;
        let Entered {
            pk, pk1, vk, vk1, ..
        } = *tri;
        let r = n.root;
        // Where the rays root->b and root->a leave the triangle, as a
        // position along the chain: 0..1 on edge 1, 1..2 on edge 2.
        let mut xb = tri.along(r, n.b);
        let mut xa = tri.along(r, n.a);
        if xa < xb {
            // Numerical trouble on a sliver interval: treat it as a ray.
            let mid = (xa + xb) / 2.0;
            xa = mid;
            xb = mid;
        }
        self.emit(tri, id, (xb, xa), r, n.root_v, n.g);
        // Behind b (when b is a corner vertex): from pk1 to xb.
        if n.b == pk1 && m.corner[vk1 as usize] && xb > 0.0 {
            let g = n.g + r.dist(pk1);
            if self.best_ok(vk1, g) {
                self.emit(tri, id, (0.0, xb), pk1, vk1, g);
            }
        }
        // Behind a (when a is a corner vertex): from xa to pk.
        if n.a == pk && m.corner[vk as usize] && xa < 2.0 {
            let g = n.g + r.dist(pk);
            if self.best_ok(vk, g) {
                self.emit(tri, id, (xa, 2.0), pk, vk, g);
            }
        }
    }

    /// Emits the stretch `[x0, x1]` of `tri`'s chain of far edges (see
    /// [`Entered::along`]) as successors with root `root`.
    #[inline]
    fn emit(
        &mut self,
        tri: &Entered,
        id: u32,
        (x0, x1): (f64, f64),
        root: Point,
        root_v: u32,
        g: f64,
    ) {
        let Entered { t, k1, k2, .. } = *tri;
        if x0 < 1.0 {
            let hi = x1.min(1.0);
            if hi > x0 || (hi == x0 && x1 < 1.0) {
                self.succ(
                    t,
                    k1,
                    tri.point_at(x0),
                    tri.point_at(hi),
                    root,
                    root_v,
                    g,
                    id,
                );
            }
        }
        if x1 > 1.0 {
            let lo = x0.max(1.0);
            if x1 > lo || (x1 == lo && x0 > 1.0) {
                self.succ(
                    t,
                    k2,
                    tri.point_at(lo),
                    tri.point_at(x1),
                    root,
                    root_v,
                    g,
                    id,
                );
            }
        }
    }
}

/// A triangle entered through one of its edges, as [`Ctx::expand`] reads
/// it.
#[derive(Clone, Copy)]
struct Entered {
    /// The triangle, and the indices of its far edges: `k1` from `pk1` to
    /// `o`, `k2` from `o` to `pk`.
    t: u32,
    k1: usize,
    k2: usize,
    /// The entry edge's first and second ends, and the far corner.
    pk: Point,
    pk1: Point,
    o: Point,
    /// The vertices at `pk` and `pk1`.
    vk: u32,
    vk1: u32,
}

impl Entered {
    /// Where the ray from `r` through `end` leaves the triangle, as a
    /// position along the chain of far edges: 0..1 on edge `k1`, 1..2 on
    /// edge `k2`.
    #[inline]
    fn along(&self, r: Point, end: Point) -> f64 {
        let Entered { pk, pk1, o, .. } = *self;
        let side = cross(r, end, o);
        if near_zero(side, r, o) {
            return 1.0;
        }
        // o left of the ray (side > 0): the ray leaves through edge 1.
        if side > 0.0 {
            let t = line_param(r, end, pk1, o).unwrap_or(1.0).clamp(0.0, 1.0);
            snap01(t)
        } else {
            let t = line_param(r, end, o, pk).unwrap_or(0.0).clamp(0.0, 1.0);
            1.0 + snap01(t)
        }
    }

    /// The point at position `x` along the chain of far edges (see
    /// [`Entered::along`]).
    #[inline]
    fn point_at(&self, x: f64) -> Point {
        let Entered { pk, pk1, o, .. } = *self;
        if x <= 0.0 {
            pk1
        } else if x < 1.0 {
            pk1.add(o.sub(pk1).scale(x))
        } else if x == 1.0 {
            o
        } else if x < 2.0 {
            o.add(pk.sub(o).scale(x - 1.0))
        } else {
            pk
        }
    }
}

/// The next corner of a triangle.
const NEXT: [usize; 3] = [1, 2, 0];

/// True when `p` lies on the line through `u` and `w` to rounding:
/// `|cross| <= EPS * max(|u w|, 1)`, compared squared.
#[inline]
fn near_line(u: Point, w: Point, p: Point) -> bool {
    near_zero(cross(u, w, p), u, w)
}

/// True when `c`, a cross product with the vector `u` to `w`, is zero to
/// rounding (see [`near_line`]).
#[inline]
fn near_zero(c: f64, u: Point, w: Point) -> bool {
    let d = w.sub(u);
    c * c <= EPS * EPS * d.dot(d).max(1.0)
}

/// Snaps a parameter within rounding of 0 or 1 to it.
fn snap01(t: f64) -> f64 {
    if t < 1e-12 {
        0.0
    } else if t > 1.0 - 1e-12 {
        1.0
    } else {
        t
    }
}

/// The shortest path from `start` to `goal`, both free points of `mesh`.
pub(crate) fn shortest_path(
    mesh: &Mesh,
    scratch: &ScratchPool,
    start: Point,
    goal: Point,
    max_nodes: usize,
) -> Option<Found> {
    let start_tris = mesh.locate_all(start);
    let goal_tris = mesh.locate_all(goal);
    if start_tris.is_empty() || goal_tris.is_empty() {
        return None;
    }
    if start_tris.iter().any(|t| goal_tris.contains(t)) {
        return Some(Found {
            points: vec![start, goal],
            length: start.dist(goal),
            expanded: 0,
        });
    }
    with_scratch(scratch, |s| {
        s.reset(mesh.pts.len());
        let mut ctx = Ctx {
            mesh,
            goal,
            goal_tris: &goal_tris,
            s,
            generated: 0,
        };
        ctx.push_starts(&start_tris, start);
        ctx.flush();
        let mut expanded = 0u32;
        while let Some(Open { node, .. }) = ctx.s.open.pop() {
            let n = ctx.s.nodes[node as usize];
            if n.goal {
                return path_to(&ctx.s.nodes, node, (start, goal), expanded);
            }
            // A node whose root was reached more cheaply since is stale.
            if ctx.stale(&n) {
                continue;
            }
            expanded += 1;
            if ctx.generated as usize > max_nodes {
                return None;
            }
            ctx.expand(n, node);
            // Intermediate pruning: a lone successor that keeps the root
            // is expanded at once, without a trip through the open list
            // (its f is no smaller, so nothing on the list comes first),
            // and without being stored: its successors name `node`, which
            // has the same root, as their parent.
            while ctx.s.pending.len() == 1
                && !ctx.s.pending[0].goal
                && ctx.s.pending[0].root == n.root
                && ctx.generated as usize <= max_nodes
            {
                let Some(next) = ctx.s.pending.pop() else {
                    break;
                };
                expanded += 1;
                ctx.expand(next, node);
            }
            ctx.flush();
        }
        None
    })
}

/// The path the search found, from `start` to `goal` through the roots
/// of goal node `node` and its ancestors in `nodes`.
fn path_to(
    nodes: &[Node],
    node: u32,
    (start, goal): (Point, Point),
    expanded: u32,
) -> Option<Found> {
    let n = nodes[node as usize];
    let mut points = vec![goal];
    let mut cur = node;
    let mut last = n.root;
    points.push(last);
    while cur != NONE {
        let c = nodes[cur as usize];
        if c.root != last {
            points.push(c.root);
            last = c.root;
        }
        cur = c.parent;
    }
    if *points.last()? != start {
        points.push(start);
    }
    points.reverse();
    points.dedup();
    let length = points.windows(2).map(|w| w[0].dist(w[1])).sum();
    Some(Found {
        points,
        length,
        expanded,
    })
}
