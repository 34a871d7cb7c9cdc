//! `platnav bench`: build and query figures against their targets, and the
//! search against the `pathfinding` crate on the same graphs, in one run.

use platnav::{find_path, search};
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use platnav::{Cell, Level, NavMap, NodeId, SearchOptions, level::SplitMix64};

use super::CliError;

// The sections of rows, in the order they run.

/// The SMB rows (builds, queries against `pathfinding`, saved maps, edits,
/// the coarse jump set).
mod smb;

/// The knock chases (followers knocked about while they chase goals).
mod knock;

/// The body model rows (SMB 1-1's map for the NES Mario and the dash
/// body, against the reference body's).
mod models;
mod platforms;

/// The naive reference rows (the naive reference builder against ours).
mod reference;

/// The generated-level rows (how builds scale, memory, throughput, edits).
mod scaling;

/// The `fly` rows (free space, any-angle paths, the `polyanya` peer).
mod fly;

/// The huge-world rows (a lazy map of a 4,200 x 1,200 world).
mod huge;

/// A big level's saved map, opened lazily against loaded whole.
mod saved;

#[derive(Args)]
pub(crate) struct BenchArgs {
    /// Skip the 1024 x 1024 and 4096 x 256 levels and take fewer samples.
    #[arg(long)]
    quick: bool,
    /// Only the `fly` rows (flying and top-down agents).
    #[arg(long)]
    fly: bool,
    /// Also build the 4,200 x 1,200 world whole in the background and
    /// measure its memory (minutes on two cores).
    #[arg(long)]
    huge: bool,
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
/// The fastest of `runs` calls of `f`, in seconds.
fn best_of(runs: usize, mut f: impl FnMut() -> Result<(), CliError>) -> Result<f64, CliError> {
    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let t = Instant::now();
        f()?;
        best = best.min(t.elapsed().as_secs_f64());
    }
    Ok(best)
}

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

/// A map that takes tile edits: a `NavMap`, or a body model's map.
trait Editable {
    fn level(&self) -> &Level;
    fn edit(&mut self, cells: &[(Cell, platnav::Tile)]) -> Result<platnav::EditReport, CliError>;
}

impl Editable for NavMap {
    fn level(&self) -> &Level {
        NavMap::level(self)
    }
    fn edit(&mut self, cells: &[(Cell, platnav::Tile)]) -> Result<platnav::EditReport, CliError> {
        Ok(NavMap::edit(self, cells)?)
    }
}

impl<M> Editable for platnav::model::ModelMap<M>
where
    M: platnav::model::BodyModel + Sync,
    M::State: Send,
{
    fn level(&self) -> &Level {
        platnav::model::ModelMap::level(self)
    }
    fn edit(&mut self, cells: &[(Cell, platnav::Tile)]) -> Result<platnav::EditReport, CliError> {
        platnav::model::ModelMap::edit(self, cells).map_err(|e| CliError(e.to_string()))
    }
}

/// Times `n` random edits of `map` (each a `side` x `side` brush at a
/// random place: solid where the corner cell is empty, empty otherwise),
/// in seconds, sorted; also returns the nodes each rebuilt.
fn edit_times(
    map: &mut impl Editable,
    n: usize,
    side: i32,
    seed: u64,
) -> Result<(Vec<f64>, Vec<f64>), CliError> {
    let mut rng = SplitMix64::new(seed);
    let (w, h) = (map.level().width() as u64, map.level().height() as u64);
    let (mut times, mut rebuilt) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for _ in 0..n {
        let at = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
        let tile = if map.level().get(at) == Some(platnav::Tile::EMPTY) {
            platnav::Tile::SOLID
        } else {
            platnav::Tile::EMPTY
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

/// Runs the sections in turn (SMB levels, knock chases, the naive
/// reference, generated levels, the huge world, `fly`), or only `fly`,
/// and prints the table.
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

    // SMB: build times, links per standing cell, query latency. Its build
    // caches stay alive in `smb_run` until the bench ends.
    let mut smb_run = smb::rows(&mut rows, &args.smb, samples)?;
    let smb11_level = smb_run.level_1_1.take();
    // Followers knocked about while they chase goals.
    rows.extend(knock::rows(smb11_level.as_ref())?);
    models::rows(
        &mut rows,
        smb11_level.as_ref(),
        &smb_run.physics,
        args.quick,
    )?;
    reference::rows(&mut rows, smb11_level, &smb_run.physics, args.quick)?;
    platforms::rows(&mut rows, args.quick)?;
    scaling::rows(&mut rows, samples, args.quick)?;
    if !args.quick || args.huge {
        huge::rows(&mut rows, args.huge)?;
    }
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
