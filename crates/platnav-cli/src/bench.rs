//! `platnav bench`: build and query figures against their targets, and the
//! search against the `pathfinding` crate on the same graphs, in one run.

use platnav::{find_path, search};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use clap::Args;
use platnav::{
    BuildCache, Cell, Level, LinkOptions, NavMap, NodeId, Physics, SearchOptions, level::SplitMix64,
};

use super::CliError;

mod knock;

/// The naive reference rows (the naive reference builder against ours).
mod reference;

/// The `fly` rows (free space, any-angle paths, the `polyanya` peer).
mod fly;

/// The SMB rows (builds, queries against `pathfinding`, saved maps, edits,
/// the coarse jump set).
mod smb;

#[derive(Args)]
pub(crate) struct BenchArgs {
    /// Skip the 1024 x 1024 and 4096 x 256 levels and take fewer samples.
    #[arg(long)]
    quick: bool,
    /// Only the `fly` rows (flying and top-down agents).
    #[arg(long)]
    fly: bool,
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
    /// Why a target is missed, printed beside its FAIL.
    why: String,
}

impl Row {
    /// The one-line reason printed when the row's target is missed.
    fn because(mut self, why: impl Into<String>) -> Self {
        self.why = why.into();
        self
    }
}

fn row(what: impl Into<String>, value: impl Into<String>, target: &str, pass: Option<bool>) -> Row {
    Row {
        what: what.into(),
        value: value.into(),
        target: target.into(),
        pass,
        why: String::new(),
    }
}

fn ms(s: f64) -> String {
    format!("{:.1} ms", s * 1e3)
}

/// "p50 / p99 us" of sorted latencies in microseconds.
fn p50_p99(sorted: &[f64]) -> String {
    format!(
        "{:.1} / {:.1} us",
        percentile(sorted, 0.5),
        percentile(sorted, 0.99)
    )
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Times `n` random edits of `map` (each a `side` x `side` brush at a
/// random place: solid where the corner cell is empty, empty otherwise),
/// in seconds, sorted; also returns the nodes each rebuilt.
fn edit_times(
    map: &mut NavMap,
    n: usize,
    side: i32,
    seed: u64,
) -> Result<(Vec<f64>, Vec<f64>), CliError> {
    let mut rng = SplitMix64::new(seed);
    let (w, h) = (map.level().width() as u64, map.level().height() as u64);
    let (mut times, mut rebuilt) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for _ in 0..n {
        let at = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
        let tile = if map.level().get(at) == Some(platnav::Tile::Empty) {
            platnav::Tile::Solid
        } else {
            platnav::Tile::Empty
        };
        let cells: Vec<(Cell, platnav::Tile)> = (0..side)
            .flat_map(|dc| (0..side).map(move |dr| Cell::new(at.col + dc, at.row + dr)))
            .filter(|&c| map.level().contains(c))
            .map(|c| (c, tile))
            .collect();
        let t = Instant::now();
        let report = map.edit(&cells)?;
        times.push(t.elapsed().as_secs_f64());
        rebuilt.push(report.nodes_rebuilt as f64);
    }
    times.sort_by(f64::total_cmp);
    rebuilt.sort_by(f64::total_cmp);
    Ok((times, rebuilt))
}

/// Why the edit rows miss their targets: generating a touched cell's links
/// again is most of an edit, and most of that is simulating programs.
const EDIT_WHY: &str = "each cell that read the edit is generated again, 0.3 to 1 ms of CPU a cell, most of it simulating anew the programs that meet the edited terrain or whose branches the template trees do not hold";

/// The rows of one edit figure: the median time against `target_ms`, and
/// `why` a miss.
fn edit_row(
    what: &str,
    map: &mut NavMap,
    (side, seed): (i32, u64),
    target_ms: f64,
    why: &str,
) -> Result<Row, CliError> {
    let (times, rebuilt) = edit_times(map, 30, side, seed)?;
    let p50 = percentile(&times, 0.5);
    Ok(row(
        format!(
            "{what} (median of 30; p90 {}; {:.0} nodes rebuilt at the median)",
            ms(percentile(&times, 0.9)),
            percentile(&rebuilt, 0.5)
        ),
        ms(p50),
        &format!("< {target_ms} ms"),
        Some(p50 * 1e3 < target_ms),
    )
    .because(why))
}

/// Random pairs of nodes where the second is reachable from the first.
fn reachable_pairs(map: &NavMap, n: usize, seed: u64) -> Vec<(Cell, Cell)> {
    let mut rng = SplitMix64::new(seed);
    let count = map.node_count() as u64;
    let mut pairs = Vec::with_capacity(n);
    let mut tries = 0;
    while pairs.len() < n && tries < n * 50 && count > 1 {
        tries += 1;
        let s = NodeId::new(rng.below(count) as u32);
        let dist = search::dijkstra(map, s);
        for _ in 0..8 {
            let g = rng.below(count) as usize;
            if g != s.index() && dist[g].is_some() {
                pairs.push((map.cell(s), map.nodes()[g]));
            }
        }
    }
    pairs.truncate(n);
    pairs
}

/// Exact queries per second on one core: the best of a pass per seed,
/// each on pairs not queried before (the replay memo is warm from other
/// queries on the map, as in a game, but no route repeats).
fn best_qps(map: &NavMap, seeds: [u64; 3]) -> f64 {
    let mut qps: f64 = 0.0;
    for seed in seeds {
        let fresh = reachable_pairs(map, QPS_PASS, seed);
        let t = Instant::now();
        let done = fresh
            .iter()
            .filter(|&&(s, g)| find_path(map, s, g, &SearchOptions::default()).is_ok())
            .count();
        qps = qps.max(done as f64 / t.elapsed().as_secs_f64().max(1e-12));
    }
    qps
}

/// Query latencies in microseconds (sorted), over `pairs`.
fn latencies(map: &NavMap, pairs: &[(Cell, Cell)], opts: &SearchOptions) -> Vec<f64> {
    let mut v: Vec<f64> = pairs
        .iter()
        .filter_map(|&(s, g)| {
            let t = Instant::now();
            find_path(map, s, g, opts).ok()?;
            Some(t.elapsed().as_secs_f64() * 1e6)
        })
        .collect();
    v.sort_by(f64::total_cmp);
    v
}

/// The CPU model as `/proc/cpuinfo` names it, when there is one.
fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| matches!(k.trim(), "model name" | "Model" | "cpu model" | "Hardware"))
        .map(|(_, v)| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// Queries in each timed throughput pass.
const QPS_PASS: usize = 400;

pub(crate) fn run(args: &BenchArgs) -> Result<(), CliError> {
    let t_all = Instant::now();
    let mut rows = Vec::new();
    let samples = if args.quick { 100 } else { 400 };
    outln!(
        "platnav bench{}: {}, {} cores; release build expected (cargo run --release -p platnav-cli -- bench)\n",
        if args.quick { " --quick" } else { "" },
        cpu_model().unwrap_or_else(|| "unknown CPU".into()),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );

    if args.fly {
        fly::rows(&mut rows, args.quick)?;
        return print(&rows, t_all);
    }

    // SMB: build times, links per standing cell, query latency.
    let mut smb_run = smb::rows(&mut rows, &args.smb, samples)?;
    let smb11_level = smb_run.level_1_1.take();
    let smb = &smb_run.physics;

    // Followers knocked about while they chase goals.
    rows.extend(knock::rows(smb11_level.as_ref())?);

    // The naive reference builder (crates/platnav-naive, one thread) on SMB 1-1
    // and the 64 x 64 generated level, against ours as it builds by default
    // (every core) and on one thread.
    reference::rows(&mut rows, smb11_level, smb, args.quick)?;

    // Generated levels: scaling, memory, throughput.
    let mut sizes = vec![(64, 64), (128, 128), (256, 256)];
    if !args.quick {
        sizes.extend([(1024, 1024), (4096, 256)]);
    }
    let default = Physics::default();
    // A physics profile's first build also grows its shared template
    // trees: a one-time cost, timed on its own here so that the per-cell
    // figures below measure how builds scale.
    let warm = Level::generate(16, 16, 42)?;
    let t = Instant::now();
    NavMap::build(&warm, &default)?;
    rows.push(row(
        "first build with a physics profile (its template trees), 16 x 16",
        ms(t.elapsed().as_secs_f64()),
        "",
        None,
    ));
    // Every timed build starts from the same caches: the profile's shared
    // templates grown (by the 16 x 16 build), no branches grown for an
    // earlier level. Levels up to 256 x 256 take the best of three builds,
    // as the other builds here do; the larger ones run long enough to
    // average the machine's noise out.
    let cold_build = |level: &Level| -> Result<(NavMap, f64), CliError> {
        let cache = Arc::new(BuildCache::new());
        let options = LinkOptions::default();
        NavMap::build_cached(&warm, &default, &options, &cache)?;
        let t = Instant::now();
        let map = NavMap::build_cached(level, &default, &options, &cache)?;
        Ok((map, t.elapsed().as_secs_f64()))
    };
    let mut per_cell = Vec::new();
    for &(w, h) in &sizes {
        let level = Level::generate(w, h, 42)?;
        let (mut map, mut b) = cold_build(&level)?;
        if w * h <= 256 * 256 {
            for _ in 0..2 {
                b = b.min(cold_build(&level)?.1);
            }
        }
        let us_per_cell = b * 1e6 / map.node_count().max(1) as f64;
        per_cell.push(us_per_cell);
        rows.push(row(
            format!("build, {w} x {h} ({} standing cells)", map.node_count()),
            format!("{} ({us_per_cell:.1} us per standing cell)", ms(b)),
            if (w, h) == (1024, 1024) { "< 8 s" } else { "" },
            ((w, h) == (1024, 1024)).then_some(b < 8.0),
        )
        .because(format!(
            "every program ({}) is simulated from every standing cell: the body's steps alone (about 1,700 a cell) take about twice the CPU 8 s allows",
            LinkOptions::default().programs_per_cell(&default)
        )));
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
        rows.push(row(
            format!("links per standing cell, {w} x {h}"),
            format!(
                "{:.1}",
                map.link_count() as f64 / map.node_count().max(1) as f64
            ),
            "",
            None,
        ));
        let pairs = reachable_pairs(&map, samples, 11);
        let exact = latencies(&map, &pairs, &SearchOptions::default());
        let beam = latencies(&map, &pairs, &SearchOptions::beam(8));
        rows.push(row(
            format!("query p50 / p99, {w} x {h}, exact"),
            p50_p99(&exact),
            "",
            None,
        ));
        rows.push(row(
            format!("query p50 / p99, {w} x {h}, beam 8"),
            p50_p99(&beam),
            "",
            None,
        ));
        if (w, h) == (256, 256) {
            // Pairs not queried before: the replay memo is warm from other
            // queries on this map, as in a game, but no route repeats. The
            // best of three passes, each on new pairs, as the builds take
            // the best of their runs. Passes are as long in quick runs as
            // in full ones: a pass of 100 queries lasts about 10 ms, short
            // enough for the machine's hiccups to decide it.
            let qps = best_qps(&map, [13, 17, 19]);
            rows.push(row(
                "queries per second, one core, 256 x 256 (unseen pairs, best of 3 passes)",
                format!("{qps:.0}"),
                ">= 10000",
                Some(qps >= 10_000.0),
            ));
        }
        // Edits last: they change the map.
        match (w, h) {
            (256, 256) => {
                rows.push(edit_row(
                    "single-tile edit, 256 x 256",
                    &mut map,
                    (1, 23),
                    4.0,
                    EDIT_WHY,
                )?);
                rows.push(edit_row(
                    "8 x 8 brush edit, 256 x 256",
                    &mut map,
                    (8, 29),
                    16.0,
                    EDIT_WHY,
                )?);
                let (live, measured) = map.landmark_bounds();
                rows.push(row(
                    format!(
                        "queries per second after those edits, landmark bounds repaired ({live} of {measured} live)"
                    ),
                    format!("{:.0}", best_qps(&map, [37, 41, 43])),
                    "",
                    None,
                ));
                let t = Instant::now();
                map.refresh_bounds();
                rows.push(row(
                    "landmark bounds measured again after edits (refresh_bounds), 256 x 256",
                    ms(t.elapsed().as_secs_f64()),
                    "",
                    None,
                ));
                rows.push(row(
                    "queries per second after refresh_bounds",
                    format!("{:.0}", best_qps(&map, [37, 41, 43])),
                    "",
                    None,
                ));
            }
            (1024, 1024) => {
                rows.push(edit_row(
                    "single-tile edit, 1024 x 1024",
                    &mut map,
                    (1, 31),
                    16.0,
                    "as at 256 x 256, plus moving the arrays and the landmark table after the edited window (about 110 MB, renumbered as they move, on two threads): about 7 ms at the median",
                )?);
            }
            _ => {}
        }
    }
    let spread = per_cell.iter().copied().fold(0.0, f64::max)
        / per_cell.iter().copied().fold(f64::INFINITY, f64::min);
    let (first, last) = (sizes[0], sizes[sizes.len() - 1]);
    let listed: Vec<String> = per_cell.iter().map(|u| format!("{u:.1}")).collect();
    rows.push(row(
        format!(
            "build time per standing cell, largest / smallest, {} x {} to {} x {}",
            first.0, first.1, last.0, last.1
        ),
        format!("{spread:.2} ({} us)", listed.join(", ")),
        "flat (< 2)",
        Some(spread < 2.0),
    ));

    fly::rows(&mut rows, args.quick)?;
    print(&rows, t_all)
}

/// Prints the table and the count of targets met.
fn print(rows: &[Row], t_all: Instant) -> Result<(), CliError> {
    let w0 = rows.iter().map(|r| r.what.len()).max().unwrap_or(0);
    let w1 = rows.iter().map(|r| r.value.len()).max().unwrap_or(0);
    for r in rows {
        let verdict = match r.pass {
            Some(true) => "PASS".to_string(),
            Some(false) if !r.why.is_empty() => format!("FAIL  ({})", r.why),
            Some(false) => "FAIL".to_string(),
            None => String::new(),
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
