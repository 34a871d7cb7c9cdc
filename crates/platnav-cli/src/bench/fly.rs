//! `platnav bench` rows for `platnav::fly`: builds, queries against the
//! `polyanya` crate on the same free space and queries, runtime obstacles.

use std::time::Instant;

use platnav::fly::{Agent, Area, FlyOptions, FreeSpace, Obstacle, Point};
use platnav::{Level, level::SplitMix64};

use super::{CliError, Row, percentile, row};

/// The same free space as a `polyanya` mesh: our triangles, merged into
/// convex polygons and baked as the crate recommends.
fn peer_mesh(space: &FreeSpace) -> Result<polyanya::Mesh, CliError> {
    let mut vertices = Vec::new();
    let mut index = std::collections::HashMap::new();
    let mut triangles = Vec::new();
    for t in space.triangles() {
        let ids = t.map(|p| {
            *index
                .entry((p.x.to_bits(), p.y.to_bits()))
                .or_insert_with(|| {
                    vertices.push(glam::Vec2::new(p.x as f32, p.y as f32));
                    vertices.len() - 1
                })
        });
        triangles.push(ids);
    }
    let mut mesh: polyanya::Mesh = polyanya::Trimesh {
        vertices,
        triangles,
    }
    .try_into()
    .map_err(|e| CliError(format!("bench: polyanya mesh: {e:?}")))?;
    mesh.merge_polygons();
    mesh.bake();
    Ok(mesh)
}

/// Random pairs of free points that `space` routes between.
fn pairs(space: &FreeSpace, n: usize, seed: u64) -> Vec<(Point, Point)> {
    let (lo, hi) = space.bounds();
    let mut rng = SplitMix64::new(seed);
    let pick = |rng: &mut SplitMix64| loop {
        let q = Point::new(
            lo.x + (hi.x - lo.x) * rng.below(1 << 20) as f64 / (1u64 << 20) as f64,
            lo.y + (hi.y - lo.y) * rng.below(1 << 20) as f64 / (1u64 << 20) as f64,
        );
        if space.is_free(q) {
            return q;
        }
    };
    let mut out = Vec::with_capacity(n);
    let mut tries = 0;
    while out.len() < n && tries < n * 20 {
        tries += 1;
        let (a, b) = (pick(&mut rng), pick(&mut rng));
        if space.find_path(a, b).is_ok() {
            out.push((a, b));
        }
    }
    out
}

/// Query latencies of ours and the peer's (microseconds, sorted) on the
/// pairs whose lengths agree, and how many agree.
fn against_polyanya(
    space: &FreeSpace,
    peer: &polyanya::Mesh,
    pairs: &[(Point, Point)],
) -> (Vec<f64>, Vec<f64>, usize) {
    let (mut ours, mut theirs, mut agree) = (Vec::new(), Vec::new(), 0);
    for &(a, b) in pairs {
        // Best of two runs each, interleaved, so neither side gets the cache
        // the other warmed.
        let (mut t_ours, mut t_peer) = (f64::INFINITY, f64::INFINITY);
        let (mut len_ours, mut len_peer) = (f64::NAN, f64::NAN);
        for _ in 0..2 {
            let t = Instant::now();
            let p = space.find_path(a, b);
            t_ours = t_ours.min(t.elapsed().as_secs_f64() * 1e6);
            len_ours = p.map_or(f64::NAN, |p| p.length);
            let t = Instant::now();
            let q = peer.path(
                glam::Vec2::new(a.x as f32, a.y as f32),
                glam::Vec2::new(b.x as f32, b.y as f32),
            );
            t_peer = t_peer.min(t.elapsed().as_secs_f64() * 1e6);
            len_peer = q.map_or(f64::NAN, |q| f64::from(q.length));
        }
        // The peer works in f32: equal to its precision.
        if (len_ours - len_peer).abs() <= 1e-4 * len_ours.max(1.0) {
            agree += 1;
            ours.push(t_ours);
            theirs.push(t_peer);
        }
    }
    ours.sort_by(f64::total_cmp);
    theirs.sort_by(f64::total_cmp);
    (ours, theirs, agree)
}

/// A room of `w` x `h` units with `n` random convex pillars barred in it.
fn pillar_area(w: f64, h: f64, n: usize, seed: u64) -> Area {
    let mut rng = SplitMix64::new(seed);
    let mut area = Area::new();
    area.allow(Area::rect(Point::new(0.0, 0.0), Point::new(w, h)));
    let f = |rng: &mut SplitMix64| rng.below(1 << 20) as f64 / (1u64 << 20) as f64;
    for _ in 0..n {
        let (cx, cy) = (f(&mut rng) * w, f(&mut rng) * h);
        let k = 3 + rng.below(5) as usize;
        let r = 0.5 + 2.0 * f(&mut rng);
        let ring: Vec<Point> = (0..k)
            .map(|i| {
                let a = (i as f64 + 0.5 * f(&mut rng)) / k as f64 * std::f64::consts::TAU;
                Point::new(cx + r * a.cos(), cy + r * a.sin())
            })
            .collect();
        area.bar(ring);
    }
    area
}

/// The `fly` rows: free-space builds, queries against `polyanya`, runtime
/// obstacles and the build from a PNG mask.
pub(crate) fn rows(rows: &mut Vec<Row>, quick: bool) -> Result<(), CliError> {
    let samples = if quick { 200 } else { 1000 };
    let level = Level::generate(256, 256, 42)?;
    let mut space = level_build_row(rows, &level)?;
    let area = pillar_area(400.0, 300.0, 600, 5);
    let pillars = pillar_build_row(rows, &area)?;
    for (name, map, seed) in [
        ("256 x 256 level", &space, 3u64),
        ("pillar room", &pillars, 4),
    ] {
        query_rows(rows, name, map, samples, seed)?;
    }
    // Runtime obstacles on the 256 x 256 level, from one random sequence.
    let mut rng = SplitMix64::new(9);
    obstacle_rows(rows, &mut space, &mut rng, samples)?;
    oldest_obstacle_row(rows, &mut space, &mut rng, if quick { 20 } else { 100 })?;
    mask_rows(rows)?;
    Ok(())
}

/// The free space of the 256 x 256 generated `level` for a 0.8 box, and
/// the row of its build time (best of 3).
fn level_build_row(rows: &mut Vec<Row>, level: &Level) -> Result<FreeSpace, CliError> {
    let agent = Agent::boxed(0.8, 0.8);
    let opts = FlyOptions::default();
    let mut best = f64::INFINITY;
    let mut space = None;
    for _ in 0..3 {
        let t = Instant::now();
        let s = FreeSpace::from_level(level, agent, &opts)?;
        best = best.min(t.elapsed().as_secs_f64());
        space = Some(s);
    }
    let Some(space) = space else {
        return Err(CliError("bench: no free space".into()));
    };
    rows.push(row(
        format!(
            "fly: build, 256 x 256 generated level, 0.8 box ({} triangles)",
            space.triangle_count()
        ),
        format!("{:.1} ms", best * 1e3),
        "",
        None,
    ));
    Ok(space)
}

/// The free space of the room `area` (600 convex pillars) for a 0.4 disc,
/// and the row of its build time.
fn pillar_build_row(rows: &mut Vec<Row>, area: &Area) -> Result<FreeSpace, CliError> {
    let t = Instant::now();
    let pillars = FreeSpace::from_area(area, Agent::disc(0.4))?;
    rows.push(row(
        format!(
            "fly: build, 400 x 300 room with 600 convex pillars, 0.4 disc ({} triangles)",
            pillars.triangle_count()
        ),
        format!("{:.1} ms", t.elapsed().as_secs_f64() * 1e3),
        "",
        None,
    ));
    Ok(pillars)
}

/// The query rows of the free space `map` (called `name`) against
/// `polyanya` on the same `samples` pairs: latencies, and the speed-up
/// with how many lengths agree.
fn query_rows(
    rows: &mut Vec<Row>,
    name: &str,
    map: &FreeSpace,
    samples: usize,
    seed: u64,
) -> Result<(), CliError> {
    let peer = peer_mesh(map)?;
    let qs = pairs(map, samples, seed);
    let (ours, theirs, agree) = against_polyanya(map, &peer, &qs);
    let (p50, q50) = (percentile(&ours, 0.5), percentile(&theirs, 0.5));
    rows.push(row(
        format!("fly: query p50 / p99, {name} (ours; polyanya)"),
        format!(
            "{p50:.1} / {:.1} us; {q50:.1} / {:.1} us",
            percentile(&ours, 0.99),
            percentile(&theirs, 0.99)
        ),
        "",
        None,
    ));
    let ratio = q50 / p50.max(1e-12);
    rows.push(row(
        format!(
            "fly: query p50 vs polyanya, {name} ({agree} of {} lengths equal)",
            qs.len()
        ),
        format!("{ratio:.2}x faster"),
        ">= 1.5x",
        Some(ratio >= 1.5 && agree == qs.len()),
    ));
    Ok(())
}

/// Runtime obstacles in `space`: `samples` crates of 1 to 3 tiles at
/// random free spots, each added then removed; the rows of both times.
fn obstacle_rows(
    rows: &mut Vec<Row>,
    space: &mut FreeSpace,
    rng: &mut SplitMix64,
    samples: usize,
) -> Result<(), CliError> {
    let (mut add, mut remove) = (Vec::new(), Vec::new());
    for _ in 0..samples {
        let (x, y) = (2.0 + rng.below(250) as f64, 2.0 + rng.below(250) as f64);
        let (w, h) = (1.0 + rng.below(3) as f64, 1.0 + rng.below(3) as f64);
        let o = Obstacle::Rect {
            min: Point::new(x, y),
            max: Point::new(x + w, y + h),
        };
        let t = Instant::now();
        let id = space.add_obstacle(&o)?;
        add.push(t.elapsed().as_secs_f64() * 1e6);
        let t = Instant::now();
        space.remove_obstacle(id);
        remove.push(t.elapsed().as_secs_f64() * 1e6);
    }
    add.sort_by(f64::total_cmp);
    remove.sort_by(f64::total_cmp);
    for (what, v) in [("added", &add), ("removed", &remove)] {
        let p50 = percentile(v, 0.5);
        rows.push(row(
            format!("fly: obstacle {what}, 256 x 256 (p50 / max)"),
            format!("{p50:.1} / {:.1} us", percentile(v, 1.0)),
            "< 1 ms",
            Some(p50 < 1000.0),
        ));
    }
    Ok(())
}

/// Removing the oldest of 17 obstacles in `space`, `times` times: the 16
/// placed after it are undone and cut again. Each removed crate is placed
/// again as the newest.
fn oldest_obstacle_row(
    rows: &mut Vec<Row>,
    space: &mut FreeSpace,
    rng: &mut SplitMix64,
    times: usize,
) -> Result<(), CliError> {
    let mut ids = Vec::new();
    let mut crates = Vec::new();
    for _ in 0..17 {
        let (x, y) = (2.0 + rng.below(250) as f64, 2.0 + rng.below(250) as f64);
        let o = Obstacle::Rect {
            min: Point::new(x, y),
            max: Point::new(x + 2.0, y + 2.0),
        };
        ids.push(space.add_obstacle(&o)?);
        crates.push(o);
    }
    let mut oldest = Vec::new();
    for _ in 0..times {
        let t = Instant::now();
        space.remove_obstacle(ids.remove(0));
        oldest.push(t.elapsed().as_secs_f64() * 1e6);
        let o = crates.remove(0);
        ids.push(space.add_obstacle(&o)?);
        crates.push(o);
    }
    oldest.sort_by(f64::total_cmp);
    rows.push(row(
        "fly: oldest of 17 obstacles removed, 256 x 256 (p50 / max)",
        format!(
            "{:.1} / {:.1} us",
            percentile(&oldest, 0.5),
            percentile(&oldest, 1.0)
        ),
        "",
        None,
    ));
    Ok(())
}

/// Building from a 1024 x 1024 PNG mask: the 256 x 256 generated level at
/// 4 pixels a tile.
fn mask_rows(rows: &mut Vec<Row>) -> Result<(), CliError> {
    let level = Level::generate(256, 256, 42)?;
    let (w, h) = (1024u32, 1024u32);
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let t = level.tiles()[(y / 4) as usize * 256 + (x / 4) as usize];
            rgba.extend_from_slice(match t {
                platnav::Tile::SOLID => &[0, 0, 0, 255],
                platnav::Tile::HAZARD => &[255, 0, 0, 255],
                _ => &[255, 255, 255, 255],
            });
        }
    }
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut bytes, w, h);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header().map_err(|e| CliError(e.to_string()))?;
        writer
            .write_image_data(&rgba)
            .map_err(|e| CliError(e.to_string()))?;
    }
    let legend = platnav::formats::ColorLegend::default();
    let agent = Agent::disc(2.0);
    let opts = FlyOptions::default().with_hazard_margin(1.0);
    let (mut full, mut decode) = (f64::INFINITY, f64::INFINITY);
    let mut tris = 0;
    for _ in 0..3 {
        let t = Instant::now();
        let loaded = platnav::level::LoadedLevel::from_png_bytes(&bytes, &legend, 1)?;
        decode = decode.min(t.elapsed().as_secs_f64());
        drop(loaded);
        let t = Instant::now();
        let space = FreeSpace::from_mask_png(&bytes, &legend, agent, &opts)?;
        full = full.min(t.elapsed().as_secs_f64());
        tris = space.triangle_count();
    }
    rows.push(row(
        format!("fly: build from a 1024 x 1024 PNG mask, radius-2 disc ({tris} triangles; PNG decode {:.0} ms of it)", decode * 1e3),
        format!("{:.1} ms", full * 1e3),
        "< 200 ms",
        Some(full < 0.2),
    ));
    Ok(())
}
