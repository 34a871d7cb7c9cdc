//! `platnav::fly`: exact shortest paths against a brute-force visibility
//! graph, paths that keep the agent off every obstacle, snapping, runtime
//! obstacles, the follower.

use platnav::fly::{
    Agent, Area, DISC_SIDES, FlyError, FlyFollower, FlyOptions, FreeSpace, Obstacle, Point,
};
use platnav::{Cell, Level, SplitMix64, Tile};

// ---------------------------------------------------------------------
// The oracle: a brute-force visibility graph over grown convex pieces.
// ---------------------------------------------------------------------

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

fn cross(o: Point, a: Point, b: Point) -> f64 {
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
}

/// Convex hull (positive orientation).
fn hull(mut pts: Vec<Point>) -> Vec<Point> {
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup();
    let mut h: Vec<Point> = Vec::new();
    for pass in 0..2 {
        let start = h.len();
        let seq: Vec<Point> = if pass == 0 {
            pts.clone()
        } else {
            pts.iter().rev().copied().collect()
        };
        for q in seq {
            while h.len() >= start + 2 && cross(h[h.len() - 2], h[h.len() - 1], q) <= 0.0 {
                h.pop();
            }
            h.push(q);
        }
        h.pop();
    }
    h
}

/// The agent's planning shape (as documented): a box, or the circumscribed
/// 16-gon of a disc, grown by `pad`.
fn shape(agent: Agent, pad: f64) -> Vec<Point> {
    match agent {
        Agent::Box { w, h } => {
            let (x, y) = (w / 2.0 + pad, h / 2.0 + pad);
            vec![p(-x, -y), p(x, -y), p(x, y), p(-x, y)]
        }
        Agent::Disc { radius } => {
            let n = DISC_SIDES;
            let rv = (radius + pad) / (std::f64::consts::PI / n as f64).cos();
            (0..n)
                .map(|i| {
                    let a = std::f64::consts::PI * (2 * i + 1) as f64 / n as f64;
                    p(rv * a.cos(), rv * a.sin())
                })
                .collect()
        }
    }
}

fn minkowski(poly: &[Point], s: &[Point]) -> Vec<Point> {
    hull(
        poly.iter()
            .flat_map(|a| s.iter().map(move |b| p(a.x + b.x, a.y + b.y)))
            .collect(),
    )
}

/// Strictly inside a convex polygon.
fn strictly_inside(poly: &[Point], q: Point) -> bool {
    let n = poly.len();
    (0..n).all(|i| cross(poly[i], poly[(i + 1) % n], q) > 1e-9)
}

/// Does segment a-b pass through the interior of convex `poly`?
/// (Cyrus-Beck clipping against the open half-planes.)
fn enters(poly: &[Point], a: Point, b: Point) -> bool {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    let n = poly.len();
    for i in 0..n {
        let (u, w) = (poly[i], poly[(i + 1) % n]);
        let len = ((w.x - u.x).powi(2) + (w.y - u.y).powi(2)).sqrt();
        // Signed distance inward at a and at b (minus a tolerance).
        let da = cross(u, w, a) / len - 1e-9;
        let db = cross(u, w, b) / len - 1e-9;
        if da <= 0.0 && db <= 0.0 {
            return false;
        }
        if da < 0.0 {
            t0 = t0.max(da / (da - db));
        } else if db < 0.0 {
            t1 = t1.min(da / (da - db));
        }
        if t1 - t0 <= 1e-12 {
            return false;
        }
    }
    t1 - t0 > 1e-12
}

struct Oracle {
    pieces: Vec<Vec<Point>>,
    valid: Box<dyn Fn(Point) -> bool>,
}

impl Oracle {
    fn free(&self, q: Point) -> bool {
        (self.valid)(q) && !self.pieces.iter().any(|pc| strictly_inside(pc, q))
    }

    fn sees(&self, a: Point, b: Point) -> bool {
        !self.pieces.iter().any(|pc| enters(pc, a, b))
    }

    /// The shortest path length from s to g (both free), or None.
    fn shortest(&self, s: Point, g: Point) -> Option<f64> {
        let mut nodes = vec![s, g];
        for pc in &self.pieces {
            for &v in pc {
                if self.free(v) {
                    nodes.push(v);
                }
            }
        }
        let n = nodes.len();
        let mut dist = vec![f64::INFINITY; n];
        let mut done = vec![false; n];
        dist[0] = 0.0;
        for _ in 0..n {
            let Some(u) = (0..n)
                .filter(|&i| !done[i] && dist[i].is_finite())
                .min_by(|&a, &b| dist[a].total_cmp(&dist[b]))
            else {
                break;
            };
            if u == 1 {
                return Some(dist[1]);
            }
            done[u] = true;
            for v in 0..n {
                if !done[v] {
                    let d = dist[u] + nodes[u].dist(nodes[v]);
                    if d < dist[v] && self.sees(nodes[u], nodes[v]) {
                        dist[v] = d;
                    }
                }
            }
        }
        None
    }
}

/// The oracle for a level: every solid cell (hazards grown by the margin)
/// grown by the agent, inside the level's rectangle shrunk by the agent.
fn level_oracle(level: &Level, agent: Agent, margin: f64, pad: f64) -> Oracle {
    let s = shape(agent, pad);
    let mut pieces = Vec::new();
    for r in 0..level.height() {
        for c in 0..level.width() {
            let m = match level.get(Cell::new(c as i32, r as i32)) {
                Some(Tile::Solid) => 0.0,
                Some(Tile::Hazard) => margin,
                _ => continue,
            };
            let (x0, y0, x1, y1) = (
                c as f64 - m,
                r as f64 - m,
                c as f64 + 1.0 + m,
                r as f64 + 1.0 + m,
            );
            pieces.push(minkowski(&[p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)], &s));
        }
    }
    let ext = s.iter().map(|q| q.x).fold(f64::MIN, f64::max);
    let (w, h) = (level.width() as f64, level.height() as f64);
    Oracle {
        pieces,
        valid: Box::new(move |q| {
            q.x >= ext - 1e-9 && q.y >= ext - 1e-9 && q.x <= w - ext + 1e-9 && q.y <= h - ext + 1e-9
        }),
    }
}

fn random_level(w: usize, h: usize, seed: u64, density: f64) -> Level {
    let mut rng = SplitMix64::new(seed);
    let mut level = Level::empty(w, h).unwrap();
    // Blobs: short horizontal and vertical bars, some hazards.
    let blobs = ((w * h) as f64 * density / 3.0) as usize;
    for _ in 0..blobs {
        let (c, r) = (rng.below(w as u64) as i32, rng.below(h as u64) as i32);
        let len = 1 + rng.below(4) as i32;
        let vertical = rng.chance(0.5);
        let tile = if rng.chance(0.15) {
            Tile::Hazard
        } else {
            Tile::Solid
        };
        for k in 0..len {
            let cell = if vertical {
                Cell::new(c, r + k)
            } else {
                Cell::new(c + k, r)
            };
            level.set(cell, tile);
        }
    }
    level
}

fn random_free_point(o: &Oracle, rng: &mut SplitMix64, w: f64, h: f64) -> Point {
    loop {
        let q = p(
            rng.below(10_000) as f64 / 10_000.0 * w,
            rng.below(10_000) as f64 / 10_000.0 * h,
        );
        if o.free(q) {
            return q;
        }
    }
}

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs().max(1.0)
}

// ---------------------------------------------------------------------
// Geometric checks with the raw obstacles at the agent's true size.
// ---------------------------------------------------------------------

/// Does the agent, moving along a-b, overlap the open axis-aligned
/// rectangle (x0, y0)-(x1, y1)? Exact for boxes; for discs the true disc.
fn hits_rect(agent: Agent, a: Point, b: Point, x0: f64, y0: f64, x1: f64, y1: f64) -> bool {
    match agent {
        Agent::Box { w, h } => {
            // Slabs: |x(t) - cx| < hw + rw and |y(t) - cy| < hh + rh.
            let (cx, cy, ex, ey) = (
                (x0 + x1) / 2.0,
                (y0 + y1) / 2.0,
                (x1 - x0) / 2.0 + w / 2.0,
                (y1 - y0) / 2.0 + h / 2.0,
            );
            let (mut t0, mut t1) = (0.0f64, 1.0f64);
            for (pa, pb, c, e) in [(a.x, b.x, cx, ex), (a.y, b.y, cy, ey)] {
                let d = pb - pa;
                if d.abs() < 1e-15 {
                    if (pa - c).abs() >= e {
                        return false;
                    }
                } else {
                    let (ta, tb) = ((c - e - pa) / d, (c + e - pa) / d);
                    t0 = t0.max(ta.min(tb));
                    t1 = t1.min(ta.max(tb));
                }
            }
            t1 > t0
        }
        Agent::Disc { radius } => seg_rect_dist(a, b, x0, y0, x1, y1) < radius,
    }
}

fn seg_point_dist(a: Point, b: Point, q: Point) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let l2 = dx * dx + dy * dy;
    let t = if l2 == 0.0 {
        0.0
    } else {
        (((q.x - a.x) * dx + (q.y - a.y) * dy) / l2).clamp(0.0, 1.0)
    };
    q.dist(p(a.x + t * dx, a.y + t * dy))
}

fn seg_seg_dist(a: Point, b: Point, c: Point, d: Point) -> f64 {
    let crosses = cross(a, b, c) * cross(a, b, d) < 0.0 && cross(c, d, a) * cross(c, d, b) < 0.0;
    if crosses {
        return 0.0;
    }
    seg_point_dist(a, b, c)
        .min(seg_point_dist(a, b, d))
        .min(seg_point_dist(c, d, a))
        .min(seg_point_dist(c, d, b))
}

fn seg_rect_dist(a: Point, b: Point, x0: f64, y0: f64, x1: f64, y1: f64) -> f64 {
    let inside = |q: Point| q.x > x0 && q.x < x1 && q.y > y0 && q.y < y1;
    if inside(a) || inside(b) {
        return 0.0;
    }
    let c = [p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)];
    (0..4)
        .map(|i| seg_seg_dist(a, b, c[i], c[(i + 1) % 4]))
        .fold(f64::INFINITY, f64::min)
}

/// Every segment of the path keeps the agent off every solid cell (and
/// hazards by their margin) and inside the level.
fn assert_clear_of_level(level: &Level, agent: Agent, margin: f64, pts: &[Point]) {
    let (hx, hy) = agent.half_extent();
    for q in pts {
        assert!(
            q.x >= hx
                && q.y >= hy
                && q.x <= level.width() as f64 - hx
                && q.y <= level.height() as f64 - hy,
            "{q:?} leaves the level"
        );
    }
    for w in pts.windows(2) {
        for r in 0..level.height() {
            for c in 0..level.width() {
                let m = match level.get(Cell::new(c as i32, r as i32)) {
                    Some(Tile::Solid) => 0.0,
                    Some(Tile::Hazard) => margin,
                    _ => continue,
                };
                let (x0, y0, x1, y1) = (
                    c as f64 - m,
                    r as f64 - m,
                    c as f64 + 1.0 + m,
                    r as f64 + 1.0 + m,
                );
                assert!(
                    !hits_rect(agent, w[0], w[1], x0, y0, x1, y1),
                    "segment {:?} -> {:?} hits cell {c},{r}\n{level}",
                    w[0],
                    w[1]
                );
            }
        }
    }
}

// ---------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------

#[test]
fn straight_line_in_open_space() {
    let level = Level::empty(10, 10).unwrap();
    let space =
        FreeSpace::from_level(&level, Agent::boxed(0.8, 0.8), &FlyOptions::default()).unwrap();
    let path = space.find_path(p(1.0, 1.0), p(8.0, 9.0)).unwrap();
    assert_eq!(path.points.len(), 2);
    assert!(rel(path.length, p(1.0, 1.0).dist(p(8.0, 9.0))) < 1e-12);
}

#[test]
fn path_bends_around_a_wall_at_the_agents_corner() {
    // A wall from row 0 to row 6 at column 5: the box must pass below it,
    // its corner at (6 + 0.4, 7 + 0.4) and (5 - 0.4, 7 + 0.4).
    let rows = [
        "..........",
        "..........",
        "..........",
        "..........",
        ".....#....",
        ".....#....",
        ".....#....",
        "..........",
        "..........",
        "..........",
    ];
    let mut text = rows.join("\n");
    text = text.replacen(".....#....", ".....#....", 1);
    let mut level: Level = text.parse().unwrap();
    for r in 0..4 {
        level.set(Cell::new(5, r), Tile::Solid);
    }
    let agent = Agent::boxed(0.8, 0.8);
    let space = FreeSpace::from_level(&level, agent, &FlyOptions::default()).unwrap();
    let (s, g) = (p(2.0, 2.0), p(8.0, 2.0));
    let path = space.find_path(s, g).unwrap();
    let pad = space.clearance();
    let (c1, c2) = (
        p(5.0 - 0.4 - pad, 7.0 + 0.4 + pad),
        p(6.0 + 0.4 + pad, 7.0 + 0.4 + pad),
    );
    let expect = s.dist(c1) + c1.dist(c2) + c2.dist(g);
    assert!(
        rel(path.length, expect) < 1e-6,
        "{} vs {expect}: {:?}",
        path.length,
        path.points
    );
    assert_eq!(path.points.len(), 4);
    assert_clear_of_level(&level, agent, 0.25, &path.points);
}

fn check_level_against_oracle(level: &Level, agent: Agent, seed: u64, queries: usize) -> usize {
    let opts = FlyOptions::default();
    let space = FreeSpace::from_level(level, agent, &opts).unwrap();
    let oracle = level_oracle(level, agent, opts.hazard_margin, space.clearance());
    let mut rng = SplitMix64::new(seed);
    let (w, h) = (level.width() as f64, level.height() as f64);
    let mut found = 0;
    for _ in 0..queries {
        let s = random_free_point(&oracle, &mut rng, w, h);
        let g = random_free_point(&oracle, &mut rng, w, h);
        let want = oracle.shortest(s, g);
        let got = space.find_path(s, g);
        match (want, got) {
            (Some(l), Ok(path)) => {
                assert!(
                    rel(path.length, l) < 1e-6,
                    "seed {seed}: {s:?} -> {g:?}: {} vs oracle {l}\n{:?}\n{level}",
                    path.length,
                    path.points
                );
                assert_eq!(path.start(), s);
                assert_eq!(path.goal(), g);
                assert_clear_of_level(level, agent, opts.hazard_margin, &path.points);
                found += 1;
            }
            (None, Err(FlyError::Unreachable { .. })) => {}
            (want, got) => {
                panic!("seed {seed}: {s:?} -> {g:?}: oracle {want:?}, fly {got:?}\n{level}")
            }
        }
    }
    found
}

#[test]
fn box_paths_on_random_levels_match_the_brute_force_oracle() {
    let mut found = 0;
    for seed in 0..6 {
        let level = random_level(20, 14, seed, 0.18);
        found += check_level_against_oracle(&level, Agent::boxed(0.8, 0.6), seed, 12);
    }
    assert!(found > 40, "only {found} routes found");
}

#[test]
fn disc_paths_on_random_levels_match_the_brute_force_oracle() {
    let mut found = 0;
    for seed in 10..15 {
        let level = random_level(20, 14, seed, 0.15);
        found += check_level_against_oracle(&level, Agent::disc(0.35), seed, 10);
    }
    assert!(found > 30, "only {found} routes found");
}
