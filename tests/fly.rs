//! `platnav::fly`: exact shortest paths against a brute-force visibility
//! graph, paths that keep the agent off every obstacle, snapping, runtime
//! obstacles, the follower.

use platnav::fly::{
    Agent, Area, DISC_SIDES, FlyError, FlyFollower, FlyOptions, FreeSpace, Obstacle, Point,
};
use platnav::{Cell, Level, Tile, level::SplitMix64};

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

/// Every obstacle cell as a rectangle: solid cells, and hazard cells grown
/// by `margin`.
fn obstacle_rects(level: &Level, margin: f64) -> Vec<(i32, i32, [f64; 4])> {
    let mut out = Vec::new();
    for r in 0..level.height() as i32 {
        for c in 0..level.width() as i32 {
            let m = match level.get(Cell::new(c, r)) {
                Some(Tile::SOLID) => 0.0,
                Some(Tile::HAZARD) => margin,
                _ => continue,
            };
            let (x, y) = (f64::from(c), f64::from(r));
            out.push((c, r, [x - m, y - m, x + 1.0 + m, y + 1.0 + m]));
        }
    }
    out
}

/// The oracle for a level: every solid cell (hazards grown by the margin)
/// grown by the agent, inside the level's rectangle shrunk by the agent.
fn level_oracle(level: &Level, agent: Agent, margin: f64, pad: f64) -> Oracle {
    let s = shape(agent, pad);
    let pieces = obstacle_rects(level, margin)
        .into_iter()
        .map(|(_, _, [x0, y0, x1, y1])| {
            minkowski(&[p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)], &s)
        })
        .collect();
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
            Tile::HAZARD
        } else {
            Tile::SOLID
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
    let rects = obstacle_rects(level, margin);
    for w in pts.windows(2) {
        for &(c, r, [x0, y0, x1, y1]) in &rects {
            assert!(
                !hits_rect(agent, w[0], w[1], x0, y0, x1, y1),
                "segment {:?} -> {:?} hits cell {c},{r}\n{level}",
                w[0],
                w[1]
            );
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
    let text = rows.join("\n");
    let mut level: Level = text.parse().unwrap();
    for r in 0..4 {
        level.set(Cell::new(5, r), Tile::SOLID);
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

/// The route from `s` to `g` when the oracle and `space` agree on its
/// length (to 1e-6), `None` when both say there is none; panics otherwise.
fn agreed(
    oracle: &Oracle,
    space: &FreeSpace,
    s: Point,
    g: Point,
    what: &str,
) -> Option<platnav::fly::FlyPath> {
    match (oracle.shortest(s, g), space.find_path(s, g)) {
        (Some(l), Ok(path)) => {
            assert!(
                rel(path.length, l) < 1e-6,
                "{what}: {s:?} -> {g:?}: {} vs oracle {l}: {:?}",
                path.length,
                path.points
            );
            Some(path)
        }
        (None, Err(FlyError::Unreachable { .. })) => None,
        (want, got) => panic!("{what}: {s:?} -> {g:?}: oracle {want:?}, fly {got:?}"),
    }
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
        if let Some(path) = agreed(&oracle, &space, s, g, &format!("seed {seed}\n{level}")) {
            assert_eq!(path.start(), s);
            assert_eq!(path.goal(), g);
            assert_clear_of_level(level, agent, opts.hazard_margin, &path.points);
            found += 1;
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

/// A random polygon area: a room, convex pillars barred in it (apart from
/// each other), and an allowed island inside a barred lake.
fn random_area(seed: u64) -> (Area, Vec<Vec<Point>>) {
    let mut rng = SplitMix64::new(seed);
    let mut area = Area::new();
    let mut rings = Vec::new();
    let room = Area::rect(p(0.0, 0.0), p(30.0, 20.0));
    area.allow(room.clone());
    rings.push(room);
    // Pillars: a random convex polygon in each cell of a 5 x 3 grid, some skipped.
    for gy in 0..3 {
        for gx in 0..5 {
            if rng.chance(0.25) || (gx == 3 && gy == 1) {
                continue;
            }
            let (cx, cy) = (3.0 + gx as f64 * 6.0, 3.5 + gy as f64 * 6.5);
            let n = 3 + rng.below(5) as usize;
            let mut pts: Vec<Point> = (0..n)
                .map(|k| {
                    let a = (k as f64 + rng.below(100) as f64 / 200.0) / n as f64
                        * std::f64::consts::TAU;
                    let r = 1.0 + rng.below(100) as f64 / 80.0;
                    p(cx + r * a.cos(), cy + r * a.sin())
                })
                .collect();
            pts = hull(pts);
            area.bar(pts.clone());
            rings.push(pts);
        }
    }
    // A lake with an island in it.
    let lake = vec![p(19.0, 8.0), p(25.0, 8.0), p(25.0, 13.0), p(19.0, 13.0)];
    let island = vec![p(21.0, 9.8), p(23.0, 9.8), p(23.0, 11.2), p(21.0, 11.2)];
    area.bar(lake.clone());
    area.allow(island.clone());
    rings.push(lake);
    rings.push(island);
    (area, rings)
}

/// Even-odd inside test over the rings.
fn inside_rings(rings: &[Vec<Point>], q: Point) -> bool {
    let mut inside = false;
    for r in rings {
        let n = r.len();
        for i in 0..n {
            let (a, b) = (r[i], r[(i + 1) % n]);
            if (a.y > q.y) != (b.y > q.y) && q.x < a.x + (q.y - a.y) / (b.y - a.y) * (b.x - a.x) {
                inside = !inside;
            }
        }
    }
    inside
}

fn area_oracle(rings: Vec<Vec<Point>>, agent: Agent, pad: f64) -> Oracle {
    let s = shape(agent, pad);
    let mut pieces = Vec::new();
    for r in &rings {
        for i in 0..r.len() {
            pieces.push(minkowski(&[r[i], r[(i + 1) % r.len()]], &s));
        }
    }
    Oracle {
        pieces,
        valid: Box::new(move |q| inside_rings(&rings, q)),
    }
}

#[test]
fn polygon_areas_with_nested_holes_match_the_brute_force_oracle() {
    let mut found = 0;
    for (seed, agent) in [
        (1, Agent::disc(0.3)),
        (2, Agent::boxed(0.6, 0.4)),
        (3, Agent::disc(0.5)),
        (4, Agent::boxed(0.5, 0.5)),
    ] {
        let (area, rings) = random_area(seed);
        let space = FreeSpace::from_area(&area, agent).unwrap();
        let oracle = area_oracle(rings.clone(), agent, space.clearance());
        let mut rng = SplitMix64::new(seed * 7);
        for _ in 0..12 {
            let s = random_free_point(&oracle, &mut rng, 30.0, 20.0);
            let g = random_free_point(&oracle, &mut rng, 30.0, 20.0);
            if let Some(path) = agreed(&oracle, &space, s, g, &format!("area seed {seed}")) {
                // The agent keeps its size off every outline edge.
                for w in path.points.windows(2) {
                    for r in &rings {
                        for i in 0..r.len() {
                            let (a, b) = (r[i], r[(i + 1) % r.len()]);
                            match agent {
                                Agent::Disc { radius } => assert!(
                                    seg_seg_dist(w[0], w[1], a, b) >= radius,
                                    "{w:?} too close to edge {a:?}-{b:?}"
                                ),
                                Agent::Box { .. } => {
                                    // Exact: the box along w misses edge a-b iff w misses a-b grown by the box.
                                    let grown = minkowski(&[a, b], &shape(agent, 0.0));
                                    assert!(
                                        !enters(&grown, w[0], w[1]),
                                        "{w:?} box crosses edge {a:?}-{b:?}"
                                    );
                                }
                            }
                        }
                    }
                    assert!(inside_rings(&rings, w[0]) && inside_rings(&rings, w[1]));
                }
                found += 1;
            }
        }
    }
    assert!(found > 30, "only {found} routes found");
}

#[test]
fn the_island_in_the_lake_is_walkable_but_unreachable() {
    let (area, _) = random_area(5);
    let space = FreeSpace::from_area(&area, Agent::disc(0.2)).unwrap();
    let island = p(22.0, 10.5);
    assert!(space.is_free(island));
    assert!(!space.is_free(p(19.8, 8.8)), "the lake is barred");
    match space.find_path(p(1.0, 1.0), island) {
        Err(FlyError::Unreachable { from, to }) => {
            assert_eq!(from, p(1.0, 1.0));
            assert_eq!(
                to, island,
                "an enclosed goal is not moved to another pocket"
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn endpoints_off_the_free_space_snap_to_the_nearest_free_point() {
    // A solid block at columns 4..6, rows 4..6 of a 10 x 10 level.
    let mut level = Level::empty(10, 10).unwrap();
    for c in 4..6 {
        for r in 4..6 {
            level.set(Cell::new(c, r), Tile::SOLID);
        }
    }
    let agent = Agent::boxed(1.0, 1.0);
    let space = FreeSpace::from_level(&level, agent, &FlyOptions::default()).unwrap();
    let pad = space.clearance();
    // Inside the block, nearer its left side: moves left to x = 4 - 0.5 - pad.
    let inside = p(4.3, 5.0);
    let snapped = space.nearest_free(inside).unwrap();
    assert!(
        (snapped.x - (3.5 - pad)).abs() < 1e-6 && (snapped.y - 5.0).abs() < 1e-6,
        "{snapped:?}"
    );
    // Off the map: onto the free space's border (0.5 + pad from the edge).
    let off = space.nearest_free(p(-3.0, 8.0)).unwrap();
    assert!(
        (off.x - (0.5 + pad)).abs() < 1e-6 && (off.y - 8.0).abs() < 1e-6,
        "{off:?}"
    );
    // A path from inside the wall starts at the snapped point.
    let path = space.find_path(inside, p(9.8, 5.0)).unwrap();
    assert_eq!(path.asked_start, inside);
    assert!(path.start().dist(snapped) < 1e-9);
    assert!(space.is_free(path.start()) && space.is_free(path.goal()));
    assert!(
        (path.goal().x - (9.5 - pad)).abs() < 1e-6,
        "goal pulled in from the border: {:?}",
        path.goal()
    );
    // A free point stays where it is.
    assert_eq!(space.nearest_free(p(2.0, 2.0)), Some(p(2.0, 2.0)));
    // Non-finite endpoints are errors, not panics.
    assert!(matches!(
        space.find_path(p(f64::NAN, 1.0), p(2.0, 2.0)),
        Err(FlyError::BadPoint { .. })
    ));
}

#[test]
fn an_agent_too_big_for_the_level_is_an_error() {
    let level = Level::empty(4, 4).unwrap();
    assert!(matches!(
        FreeSpace::from_level(&level, Agent::boxed(5.0, 1.0), &FlyOptions::default()),
        Err(FlyError::NoFreeSpace)
    ));
    assert!(matches!(
        FreeSpace::from_level(&level, Agent::disc(f64::NAN), &FlyOptions::default()),
        Err(FlyError::BadAgent(_))
    ));
    assert!(matches!(
        FreeSpace::from_level(&level, Agent::disc(-1.0), &FlyOptions::default()),
        Err(FlyError::BadAgent(_))
    ));
    let mut bad = Area::new();
    bad.allow([p(0.0, 0.0), p(1.0, 1.0)]);
    assert!(matches!(
        FreeSpace::from_area(&bad, Agent::disc(0.1)),
        Err(FlyError::BadArea(_))
    ));
}

#[test]
fn paths_stay_valid_and_optimal_across_runtime_obstacles() {
    let mut rng = SplitMix64::new(99);
    for seed in 0..4 {
        let level = random_level(20, 14, 100 + seed, 0.12);
        let agent = Agent::boxed(0.6, 0.6);
        let opts = FlyOptions::default();
        let mut space = FreeSpace::from_level(&level, agent, &opts).unwrap();
        let before: Vec<[Point; 3]> = space.triangles().collect();
        let mut placed = Vec::new();
        let mut rects = Vec::new();
        for round in 0..6 {
            // Add a rectangle or a circle, or remove an earlier one.
            if round % 3 == 2 && !placed.is_empty() {
                let k = rng.below(placed.len() as u64) as usize;
                assert!(space.remove_obstacle(placed.remove(k)));
                rects.remove(k);
            } else {
                let (x, y) = (
                    1.0 + rng.below(170) as f64 / 10.0,
                    1.0 + rng.below(110) as f64 / 10.0,
                );
                let (w, h) = (
                    0.5 + rng.below(30) as f64 / 10.0,
                    0.5 + rng.below(30) as f64 / 10.0,
                );
                let o = Obstacle::Rect {
                    min: p(x, y),
                    max: p(x + w, y + h),
                };
                placed.push(space.add_obstacle(&o).unwrap());
                rects.push((x, y, x + w, y + h));
            }
            // The oracle: the level's pieces plus each rectangle grown.
            let mut oracle = level_oracle(&level, agent, opts.hazard_margin, space.clearance());
            let s = shape(agent, space.clearance());
            for &(x0, y0, x1, y1) in &rects {
                oracle
                    .pieces
                    .push(minkowski(&[p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)], &s));
            }
            for _ in 0..5 {
                let a = random_free_point(&oracle, &mut rng, 20.0, 14.0);
                let b = random_free_point(&oracle, &mut rng, 20.0, 14.0);
                if let Some(path) =
                    agreed(&oracle, &space, a, b, &format!("seed {seed} round {round}"))
                {
                    assert_clear_of_level(&level, agent, opts.hazard_margin, &path.points);
                    for w in path.points.windows(2) {
                        for &(x0, y0, x1, y1) in &rects {
                            assert!(
                                !hits_rect(agent, w[0], w[1], x0, y0, x1, y1),
                                "crosses a runtime obstacle"
                            );
                        }
                    }
                }
            }
        }
        for id in placed {
            assert!(space.remove_obstacle(id));
        }
        assert!(!space.remove_obstacle(platnav::fly::ObstacleId(12345)));
        let after: Vec<[Point; 3]> = space.triangles().collect();
        assert_eq!(before, after, "removing every obstacle restores the mesh");
    }
}

#[test]
fn follower_flies_to_the_goal_and_replans_around_a_new_obstacle() {
    let level = random_level(24, 16, 7, 0.1);
    let agent = Agent::disc(0.3);
    let mut space = FreeSpace::from_level(&level, agent, &FlyOptions::default()).unwrap();
    let mut pos = space.nearest_free(p(1.0, 1.0)).unwrap();
    let goal = space.nearest_free(p(22.0, 14.0)).unwrap();
    let mut follower = FlyFollower::new(8.0);
    let dt = 1.0 / 60.0;
    let mut replans = 0;
    let mut arrived = false;
    for tick in 0..2000 {
        if tick == 30 {
            // Block the way ahead of the agent.
            // Block the path a little ahead of the agent.
            let path = follower.path().unwrap().clone();
            let (a, b) = (pos, path.points[1]);
            let d = a.dist(b);
            let q = p(a.x + (b.x - a.x) * 2.0 / d, a.y + (b.y - a.y) * 2.0 / d);
            assert!(d > 3.0 && q.dist(goal) > 3.0, "the test's level has room");
            space
                .add_obstacle(&Obstacle::Circle {
                    center: q,
                    radius: 0.6,
                })
                .unwrap();
            assert!(!space.is_free(q));
        }
        let step = follower.step(&space, pos, goal, dt).unwrap();
        replans += usize::from(step.replanned);
        if step.arrived {
            arrived = true;
            break;
        }
        let next = p(pos.x + step.velocity.x * dt, pos.y + step.velocity.y * dt);
        assert!(
            space.is_free(next),
            "tick {tick}: flies into an obstacle at {next:?} from {pos:?}, {:?}, nearest {:?}, path {:?}",
            step,
            space.nearest_free(next),
            follower.path()
        );
        pos = next;
        assert!(step.velocity.x.hypot(step.velocity.y) <= 8.0 + 1e-9);
    }
    assert!(arrived, "never arrived; at {pos:?}");
    assert!(pos.dist(goal) < 1e-6, "{pos:?} vs {goal:?}");
    assert!(replans >= 1);
}

/// A random walk mask as PNG bytes: white open, black solid, red hazard.
fn random_mask_png(w: u32, h: u32, seed: u64) -> (Vec<u8>, Level) {
    let level = random_level(w as usize, h as usize, seed, 0.16);
    let mut rgba = Vec::new();
    for t in level.tiles() {
        rgba.extend_from_slice(match *t {
            Tile::SOLID => &[0, 0, 0, 255],
            Tile::HAZARD => &[255, 0, 0, 255],
            _ => &[255, 255, 255, 255],
        });
    }
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut bytes, w, h);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header().unwrap();
        writer.write_image_data(&rgba).unwrap();
    }
    (bytes, level)
}

#[test]
fn mask_paths_at_pixel_resolution_match_the_brute_force_oracle() {
    let mut found = 0;
    for seed in 20..24 {
        let (bytes, level) = random_mask_png(22, 16, seed);
        let agent = if seed % 2 == 0 {
            Agent::disc(0.45)
        } else {
            Agent::boxed(1.5, 0.9)
        };
        let opts = FlyOptions::default().with_hazard_margin(0.5);
        let space = FreeSpace::from_mask_png(
            &bytes,
            &platnav::formats::ColorLegend::default(),
            agent,
            &opts,
        )
        .unwrap();
        let oracle = level_oracle(&level, agent, opts.hazard_margin, space.clearance());
        let mut rng = SplitMix64::new(seed);
        for _ in 0..10 {
            let s = random_free_point(&oracle, &mut rng, 22.0, 16.0);
            let g = random_free_point(&oracle, &mut rng, 22.0, 16.0);
            if let Some(path) = agreed(&oracle, &space, s, g, &format!("mask seed {seed}")) {
                assert_clear_of_level(&level, agent, opts.hazard_margin, &path.points);
                found += 1;
            }
        }
    }
    assert!(found > 20, "only {found} routes found");
}
