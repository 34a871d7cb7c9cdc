//! `platnav bench`: build and query figures against their targets, and the
//! search against the `pathfinding` crate on the same graphs, in one run.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use platnav::{Cell, Level, NavMap, NodeId, Physics, SearchOptions, SplitMix64, VglcLegend};

use super::CliError;

#[derive(Args)]
pub(crate) struct BenchArgs {
    /// Skip the 1024 x 1024 and 4096 x 256 levels and take fewer samples.
    #[arg(long)]
    quick: bool,
    /// The folder of the SMB levels (with their legend.json).
    #[arg(long, default_value = "levels/smb")]
    smb: PathBuf,
}

/// One row of the report.
struct Row {
    what: String,
    value: String,
    target: String,
    pass: Option<bool>,
}

fn row(what: impl Into<String>, value: impl Into<String>, target: &str, pass: Option<bool>) -> Row {
    Row {
        what: what.into(),
        value: value.into(),
        target: target.into(),
        pass,
    }
}

fn ms(s: f64) -> String {
    format!("{:.1} ms", s * 1e3)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Random pairs of nodes where the second is reachable from the first.
fn reachable_pairs(map: &NavMap, n: usize, seed: u64) -> Vec<(Cell, Cell)> {
    let mut rng = SplitMix64::new(seed);
    let count = map.node_count() as u64;
    let mut pairs = Vec::with_capacity(n);
    let mut tries = 0;
    while pairs.len() < n && tries < n * 50 && count > 1 {
        tries += 1;
        let s = NodeId(rng.below(count) as u32);
        let dist = map.dijkstra(s);
        for _ in 0..8 {
            let g = rng.below(count) as usize;
            if g != s.0 as usize && dist[g].is_some() {
                pairs.push((map.cell(s), map.nodes()[g]));
            }
        }
    }
    pairs.truncate(n);
    pairs
}

/// Query latencies in microseconds (sorted), over `pairs`.
fn latencies(map: &NavMap, pairs: &[(Cell, Cell)], opts: &SearchOptions) -> Vec<f64> {
    let mut v: Vec<f64> = pairs
        .iter()
        .filter_map(|&(s, g)| {
            let t = Instant::now();
            map.find_path(s, g, opts).ok()?;
            Some(t.elapsed().as_secs_f64() * 1e6)
        })
        .collect();
    v.sort_by(f64::total_cmp);
    v
}

/// The same heuristic as platnav's exact search, in whole ticks.
fn heuristic(map: &NavMap) -> impl Fn(Cell, Cell) -> u32 + '_ {
    let p = map.physics();
    let nudge = (p.ground_accel * p.dt).min(p.run_speed) * p.dt;
    let per_col = (1.0 - 0.5 * nudge - 1e-12).max(0.0) / (p.max_speed_x() * p.dt).max(1e-12);
    move |a: Cell, b: Cell| (f64::from((a.col - b.col).abs()) * per_col).floor() as u32
}

/// Ours against `pathfinding`'s astar and dijkstra on the same graph and
/// pairs; returns (ours, astar, dijkstra) total seconds, after checking that
/// every cost agrees.
fn against_pathfinding(map: &NavMap, pairs: &[(Cell, Cell)]) -> Result<(f64, f64, f64), CliError> {
    let h = heuristic(map);
    let succ = |n: &u32| -> Vec<(u32, u32)> {
        map.link_ids_from(NodeId(*n))
            .map(|id| {
                (
                    map.target(platnav::LinkId(id)).0,
                    map.ticks(platnav::LinkId(id)),
                )
            })
            .collect()
    };
    let opts = SearchOptions::default();
    let mut ours = Vec::new();
    let t = Instant::now();
    for &(s, g) in pairs {
        ours.push(
            map.route_ticks(s, g, &opts)
                .map_err(|e| CliError(e.to_string()))?,
        );
    }
    let t_ours = t.elapsed().as_secs_f64();
    let node = |c: Cell| map.node(c).map_or(0, |n| n.0);
    let t = Instant::now();
    let mut astar = Vec::new();
    for &(s, g) in pairs {
        let goal = node(g);
        let goal_cell = g;
        astar.push(
            pathfinding::directed::astar::astar(
                &node(s),
                succ,
                |n| h(map.cell(NodeId(*n)), goal_cell),
                |n| *n == goal,
            )
            .map(|(_, c)| c),
        );
    }
    let t_astar = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut dijk = Vec::new();
    for &(s, g) in pairs {
        let goal = node(g);
        dijk.push(
            pathfinding::directed::dijkstra::dijkstra(&node(s), succ, |n| *n == goal)
                .map(|(_, c)| c),
        );
    }
    let t_dijk = t.elapsed().as_secs_f64();
    if ours != astar || ours != dijk {
        return Err(CliError(
            "bench: platnav and pathfinding disagree on a route's cost".into(),
        ));
    }
    Ok((t_ours, t_astar, t_dijk))
}

pub(crate) fn run(args: &BenchArgs) -> Result<(), CliError> {
    let t_all = Instant::now();
    let mut rows = Vec::new();
    let samples = if args.quick { 100 } else { 400 };
    outln!(
        "platnav bench{}: {} cores, release build expected (cargo run --release -- bench)\n",
        if args.quick { " --quick" } else { "" },
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );

    // SMB: build times, links per standing cell, query latency.
    let legend = VglcLegend::load(&args.smb.join("legend.json"))?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&args.smb)
        .map_err(|e| CliError(format!("{}: {e}", args.smb.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let smb = Physics::smb();
    let (mut builds, mut exact, mut beam) = (Vec::new(), Vec::new(), Vec::new());
    let (mut links, mut nodes) = (0usize, 0usize);
    let mut peer = (0.0, 0.0, 0.0);
    let mut smb11 = f64::NAN;
    for f in &files {
        let level = Level::load_vglc(f, &legend)?;
        let t = Instant::now();
        let map = NavMap::build(&level, &smb)?;
        let b = t.elapsed().as_secs_f64();
        if f.file_name().is_some_and(|n| n == "mario-1-1.txt") {
            smb11 = b;
        }
        builds.push(b);
        links += map.link_count();
        nodes += map.node_count();
        let pairs = reachable_pairs(&map, samples, 7);
        exact.extend(latencies(&map, &pairs, &SearchOptions::default()));
        beam.extend(latencies(&map, &pairs, &SearchOptions::beam(8)));
        let (o, a, d) = against_pathfinding(&map, &pairs)?;
        peer = (peer.0 + o, peer.1 + a, peer.2 + d);
    }
    exact.sort_by(f64::total_cmp);
    beam.sort_by(f64::total_cmp);
    builds.sort_by(f64::total_cmp);
    rows.push(row(
        "build, SMB 1-1",
        ms(smb11),
        "< 5 ms",
        Some(smb11 < 0.005),
    ));
    rows.push(row(
        format!("build, {} SMB levels (median)", files.len()),
        ms(percentile(&builds, 0.5)),
        "",
        None,
    ));
    rows.push(row(
        "links per standing cell, SMB",
        format!("{:.1}", links as f64 / nodes.max(1) as f64),
        "",
        None,
    ));
    let p50 = percentile(&exact, 0.5);
    rows.push(row(
        "query p50, SMB, exact",
        format!("{p50:.1} us"),
        "< 50 us",
        Some(p50 < 50.0),
    ));
    rows.push(row(
        "query p99, SMB, exact",
        format!("{:.1} us", percentile(&exact, 0.99)),
        "",
        None,
    ));
    rows.push(row(
        "query p50 / p99, SMB, beam 8",
        format!(
            "{:.1} / {:.1} us",
            percentile(&beam, 0.5),
            percentile(&beam, 0.99)
        ),
        "",
        None,
    ));
    let astar_ratio = peer.1 / peer.0.max(1e-12);
    rows.push(row(
        "graph search vs pathfinding::astar (equal costs)",
        format!("{astar_ratio:.2}x faster"),
        ">= 1.5x",
        Some(astar_ratio >= 1.5),
    ));
    rows.push(row(
        "graph search vs pathfinding::dijkstra (equal costs)",
        format!("{:.2}x faster", peer.2 / peer.0.max(1e-12)),
        "",
        None,
    ));
    rows.push(row(
        "builder vs naive reference builder",
        "not measured yet",
        ">= 5x",
        Some(false),
    ));

    // Generated levels: scaling, memory, throughput.
    let mut sizes = vec![(64, 64), (128, 128), (256, 256)];
    if !args.quick {
        sizes.extend([(1024, 1024), (4096, 256)]);
    }
    let default = Physics::default();
    let mut per_cell = Vec::new();
    for &(w, h) in &sizes {
        let level = Level::generate(w, h, 42)?;
        let t = Instant::now();
        let map = NavMap::build(&level, &default)?;
        let b = t.elapsed().as_secs_f64();
        let us_per_cell = b * 1e6 / map.node_count().max(1) as f64;
        per_cell.push(us_per_cell);
        rows.push(row(
            format!("build, {w} x {h} ({} standing cells)", map.node_count()),
            format!("{} ({us_per_cell:.0} us per standing cell)", ms(b)),
            if (w, h) == (1024, 1024) { "< 1 s" } else { "" },
            ((w, h) == (1024, 1024)).then_some(b < 1.0),
        ));
        let mb = map.memory_bytes() as f64 / (1 << 20) as f64;
        rows.push(row(
            format!("nav-map memory, {w} x {h}"),
            format!("{mb:.1} MB"),
            if (w, h) == (1024, 1024) {
                "< 256 MB"
            } else {
                ""
            },
            ((w, h) == (1024, 1024)).then_some(mb < 256.0),
        ));
        if (w, h) == (256, 256) {
            let pairs = reachable_pairs(&map, samples, 11);
            let t = Instant::now();
            let done = pairs
                .iter()
                .filter(|&&(s, g)| map.find_path(s, g, &SearchOptions::default()).is_ok())
                .count();
            let qps = done as f64 / t.elapsed().as_secs_f64().max(1e-12);
            rows.push(row(
                "queries per second, one core, 256 x 256",
                format!("{qps:.0}"),
                ">= 10000",
                Some(qps >= 10_000.0),
            ));
        }
    }
    let spread = per_cell.iter().copied().fold(0.0, f64::max)
        / per_cell.iter().copied().fold(f64::INFINITY, f64::min);
    rows.push(row(
        "build time per standing cell, largest / smallest",
        format!("{spread:.2}"),
        "flat (< 2)",
        Some(spread < 2.0),
    ));

    let w0 = rows.iter().map(|r| r.what.len()).max().unwrap_or(0);
    let w1 = rows.iter().map(|r| r.value.len()).max().unwrap_or(0);
    for r in &rows {
        let verdict = match r.pass {
            Some(true) => "PASS",
            Some(false) => "FAIL",
            None => "",
        };
        outln!(
            "{:<w0$}  {:>w1$}  {:<10} {}",
            r.what,
            r.value,
            r.target,
            verdict
        );
    }
    let failed = rows.iter().filter(|r| r.pass == Some(false)).count();
    outln!(
        "\n{} targets, {} failed; {:.0} s in all",
        rows.iter().filter(|r| r.pass.is_some()).count(),
        failed,
        t_all.elapsed().as_secs_f64()
    );
    Ok(())
}
