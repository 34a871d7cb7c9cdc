//! `platnav sweep`: evaluate levels over a grid of physics parameters, or
//! find per level the least value of one parameter that finishes it.

use std::io::IsTerminal;
use std::path::{Path as FsPath, PathBuf};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use platnav::{
    Level, Physics,
    analysis::{Endpoints, Evaluation, Least, Param, evaluate, least_value},
};
use rayon::prelude::*;

use super::{CliError, SourceArgs, load_level, load_physics};

#[derive(Args)]
pub(crate) struct SweepArgs {
    /// Level files in any format platnav reads (by extension).
    #[arg(required = true)]
    levels: Vec<PathBuf>,
    /// A parameter range NAME=LO:HI:STEP (or NAME=VALUE); repeatable, the
    /// grid is their product. Names: jump_height (time to apex kept) and
    /// every field of a physics profile (see `path --help`).
    #[arg(long = "param", value_parser = parse_range)]
    params: Vec<Range>,
    /// Instead of a grid: per level, the least value of this parameter
    /// that makes it completable, by bisection (a --param range for it sets
    /// the bracket and STEP the precision).
    #[arg(long, value_parser = parse_param)]
    min: Option<Param>,
    /// How to read the levels, and the base physics.
    #[command(flatten)]
    source: SourceArgs,
    /// Write the CSV here instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Draw a PNG chart: completable levels and mean reachable fraction
    /// against one parameter, or a heat map of completable levels for two.
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Run part K of N only (K from 0): a contiguous block of the (level,
    /// grid point) evaluations, or of the levels with --min. For job arrays
    /// (Slurm, Ray, ...): the parts' CSV rows, in order of K under one
    /// header, are the whole sweep's.
    #[arg(long, value_parser = parse_shard)]
    shard: Option<Shard>,
}

/// One part of a sweep split into `n` (`--shard K/N`).
#[derive(Clone, Copy)]
pub(crate) struct Shard {
    k: usize,
    n: usize,
}

impl Shard {
    /// Part `k` of `n` of `items`: a contiguous block, the blocks' sizes
    /// differing by at most one, in order.
    fn block<T>(self, items: Vec<T>) -> Vec<T> {
        let len = items.len();
        let (from, to) = (len * self.k / self.n, len * (self.k + 1) / self.n);
        items.into_iter().skip(from).take(to - from).collect()
    }
}

fn parse_shard(s: &str) -> Result<Shard, String> {
    let bad = || format!("--shard {s:?}: expected K/N with 0 <= K < N <= {MAX_POINTS}");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || k >= n || n > MAX_POINTS {
        return Err(bad());
    }
    Ok(Shard { k, n })
}

/// One `--param`: a name and its values.
#[derive(Clone)]
pub(crate) struct Range {
    param: Param,
    lo: f64,
    hi: f64,
    step: Option<f64>,
}

/// The most (level, grid point) evaluations one sweep runs.
const MAX_POINTS: usize = 1_000_000;

impl Range {
    /// How many values [`Range::values`] gives, without making them.
    fn values_len(&self) -> usize {
        match self.step {
            None => 1,
            Some(step) => ((self.hi - self.lo) / step + 1e-9).floor() as usize + 1,
        }
    }

    fn values(&self) -> Vec<f64> {
        match self.step {
            None => vec![self.lo],
            Some(step) => {
                let n = ((self.hi - self.lo) / step + 1e-9).floor() as usize;
                (0..=n).map(|i| self.lo + i as f64 * step).collect()
            }
        }
    }
}

fn parse_param(s: &str) -> Result<Param, String> {
    s.parse::<Param>().map_err(|e| e.to_string())
}

fn parse_range(s: &str) -> Result<Range, String> {
    let (name, spec) = s
        .split_once('=')
        .ok_or_else(|| format!("{s:?} is not NAME=LO:HI:STEP"))?;
    let param = parse_param(name.trim())?;
    let num = |v: &str| -> Result<f64, String> {
        v.trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("{v:?} in {s:?} is not a number"))
    };
    let parts: Vec<&str> = spec.split(':').collect();
    match parts[..] {
        [v] => {
            let v = num(v)?;
            Ok(Range {
                param,
                lo: v,
                hi: v,
                step: None,
            })
        }
        [lo, hi, step] => {
            let (lo, hi, step) = (num(lo)?, num(hi)?, num(step)?);
            if step <= 0.0 || hi < lo {
                return Err(format!("{s:?}: needs LO <= HI and STEP > 0"));
            }
            if (hi - lo) / step > 10_000.0 {
                return Err(format!("{s:?}: more than 10000 values"));
            }
            Ok(Range {
                param,
                lo,
                hi,
                step: Some(step),
            })
        }
        _ => Err(format!("{s:?} is not NAME=LO:HI:STEP")),
    }
}

fn progress(len: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} {msg}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

fn level_name(path: &FsPath) -> String {
    path.file_stem().map_or_else(
        || path.display().to_string(),
        |s| s.to_string_lossy().into(),
    )
}

/// A level to sweep: its name, grid and the loader's markers.
type Item = (String, Level, Endpoints);

fn load(args: &SweepArgs) -> Result<(Physics, Vec<Item>), CliError> {
    let base = load_physics(&args.source)?;
    let levels = args
        .levels
        .iter()
        .map(|p| {
            let loaded = load_level(p, &args.source)?;
            let endpoints = Endpoints {
                start: loaded.spawn,
                goals: loaded.goals,
            };
            Ok((level_name(p), loaded.level, endpoints))
        })
        .collect::<Result<Vec<_>, CliError>>()?;
    Ok((base, levels))
}

fn write_output(args: &SweepArgs, csv: &str) -> Result<(), CliError> {
    match &args.out {
        Some(path) => platnav::io::files::write_atomically(path, csv.as_bytes())
            .map_err(|e| CliError(format!("{}: {e}", path.display())))?,
        None => out!("{csv}"),
    }
    Ok(())
}

/// `platnav sweep`: a CSV row per level and grid point (or, with `--min`,
/// the least value per level), and the chart when asked for.
pub(crate) fn run(args: &SweepArgs) -> Result<(), CliError> {
    if let Some(param) = args.min {
        return run_min(args, param);
    }
    if args.params.is_empty() {
        return Err(CliError(
            "sweep needs --param NAME=LO:HI:STEP (or --min NAME)".into(),
        ));
    }
    if args.params.len() > 2 && args.plot.is_some() {
        return Err(CliError("--plot draws one or two parameters".into()));
    }
    if args.shard.is_some() && args.plot.is_some() {
        return Err(CliError(
            "--plot draws the whole sweep: merge the parts' CSV, or run without --shard".into(),
        ));
    }
    let (base, levels) = load(args)?;
    let grid = grid_points(&args.params, levels.len())?;
    let physics_at = |point: &[f64]| {
        args.params
            .iter()
            .zip(point)
            .fold(base.clone(), |p, (r, &v)| r.param.apply(&p, v))
    };
    let mut jobs: Vec<(usize, usize)> = (0..levels.len())
        .flat_map(|l| (0..grid.len()).map(move |g| (l, g)))
        .collect();
    if let Some(shard) = args.shard {
        let all = jobs.len();
        jobs = shard.block(jobs);
        if jobs.is_empty() {
            eprintln!(
                "platnav: part {} of {} holds none of the {all} evaluations: the CSV is its header",
                shard.k, shard.n
            );
        }
    }
    let bar = progress(jobs.len());
    // A point that fails (invalid physics, or anything else) is reported in
    // its row and the sweep goes on: one bad corner of a grid must not
    // lose hours of other points.
    let results: Vec<Result<Evaluation, String>> = jobs
        .par_iter()
        .map(|&(l, g)| {
            let r = evaluate_point(&levels[l].1, &physics_at(&grid[g]), &levels[l].2);
            bar.inc(1);
            r
        })
        .collect();
    bar.finish_and_clear();
    // Nothing useful came out: an error, and nothing written.
    if let Some(Err(first)) = results.first()
        && results.iter().all(Result::is_err)
    {
        return Err(CliError(format!(
            "every point failed, the first ({} at {}): {first}",
            levels[jobs[0].0].0,
            describe(&args.params, &grid[jobs[0].1])
        )));
    }
    let swept = Swept {
        params: &args.params,
        levels: &levels,
        grid: &grid,
        jobs: &jobs,
        results: &results,
    };
    write_output(args, &grid_csv(&swept))?;
    report_failed_points(&swept);
    if let Some(path) = &args.plot {
        plot(path, &swept, &base)?;
    }
    Ok(())
}

/// A grid sweep's points and results, for its CSV, its failures and its
/// chart.
struct Swept<'a> {
    params: &'a [Range],
    levels: &'a [Item],
    /// Every combination of the parameters' values.
    grid: &'a [Vec<f64>],
    /// (level, grid point) per evaluation, level by level.
    jobs: &'a [(usize, usize)],
    /// Each job's evaluation, or why it failed.
    results: &'a [Result<Evaluation, String>],
}

/// The grid: every combination of the parameters' values, the last
/// parameter varying fastest; an error when it and the `levels` make more
/// than [`MAX_POINTS`] evaluations.
fn grid_points(params: &[Range], levels: usize) -> Result<Vec<Vec<f64>>, CliError> {
    let points: f64 = params
        .iter()
        .map(|r| r.values_len() as f64)
        .product::<f64>()
        * levels as f64;
    if points > MAX_POINTS as f64 {
        return Err(CliError(format!(
            "the grid has {points} level points, over the {MAX_POINTS} a sweep takes"
        )));
    }
    let mut grid: Vec<Vec<f64>> = vec![Vec::new()];
    for r in params {
        grid = grid
            .into_iter()
            .flat_map(|point| {
                r.values().into_iter().map(move |v| {
                    let mut p = point.clone();
                    p.push(v);
                    p
                })
            })
            .collect();
    }
    Ok(grid)
}

/// The sweep's CSV: a header, then a row per level and grid point with its
/// figures or its error.
fn grid_csv(swept: &Swept<'_>) -> String {
    let mut csv = String::from("level");
    for r in swept.params {
        csv += &format!(",{}", r.param);
    }
    csv += ",completable,reachable_fraction,traps,error\n";
    for (&(l, g), e) in swept.jobs.iter().zip(swept.results) {
        csv += &csv_field(&swept.levels[l].0);
        for v in &swept.grid[g] {
            csv += &format!(",{v}");
        }
        match e {
            Ok(e) => {
                csv += &format!(
                    ",{},{:.4},{},\n",
                    e.completable, e.reachable_fraction, e.traps
                );
            }
            Err(msg) => csv += &format!(",,,,{}\n", csv_field(msg)),
        }
    }
    csv
}

/// Tells on standard error how many points failed, and the first.
fn report_failed_points(swept: &Swept<'_>) {
    let failed_points: Vec<String> = swept
        .jobs
        .iter()
        .zip(swept.results)
        .filter(|(_, r)| r.is_err())
        .map(|(&(l, g), _)| {
            format!(
                "{} at {}",
                swept.levels[l].0,
                describe(swept.params, &swept.grid[g])
            )
        })
        .collect();
    if let Some(first) = failed_points.first() {
        eprintln!(
            "platnav: {} of {} points failed (their rows have an error), the first: {first}",
            failed_points.len(),
            swept.jobs.len()
        );
    }
}

/// Draws the sweep's chart to `path` (see [`super::plot::draw`]).
fn plot(path: &FsPath, swept: &Swept<'_>, base: &Physics) -> Result<(), CliError> {
    // Per grid point: completable levels, mean reachable fraction of
    // the levels evaluated, and levels that failed.
    let n = swept.levels.len();
    let points = swept.grid.len();
    let mut done = vec![0usize; points];
    let mut reach = vec![0.0f64; points];
    let mut failed = vec![0usize; points];
    for (&(_, g), e) in swept.jobs.iter().zip(swept.results) {
        match e {
            Ok(e) => {
                done[g] += usize::from(e.completable);
                reach[g] += e.reachable_fraction;
            }
            Err(_) => failed[g] += 1,
        }
    }
    for (r, &f) in reach.iter_mut().zip(&failed) {
        *r /= n.saturating_sub(f).max(1) as f64;
    }
    let names: Vec<Param> = swept.params.iter().map(|r| r.param).collect();
    super::plot::draw(
        path,
        &names,
        swept.grid,
        &super::plot::Tally {
            done: &done,
            reach: &reach,
            failed: &failed,
        },
        n,
        base,
    )
}

/// One grid point of one level: its evaluation, or why there is none (the
/// physics fails validation, or, defensively, the evaluation panicked).
fn evaluate_point(
    level: &Level,
    physics: &Physics,
    endpoints: &Endpoints,
) -> Result<Evaluation, String> {
    physics.validate().map_err(|e| e.to_string())?;
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        evaluate(level, physics, endpoints)
    })) {
        Ok(r) => r.map_err(|e| e.to_string()),
        Err(_) => Err("internal error: the evaluation panicked".into()),
    }
}

/// A CSV field, quoted when it holds a comma, quote or line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\"").replace(['\n', '\r'], " "))
    } else {
        s.to_string()
    }
}

fn describe(params: &[Range], point: &[f64]) -> String {
    params
        .iter()
        .zip(point)
        .map(|(r, v)| format!("{}={v}", r.param))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The default bisection brackets for `param` around its base value `v`,
/// tried in order until one holds a completable value: first `(low, v)`,
/// then upward, because completability is only monotone near playable
/// values (a 12-tile jump that keeps its time to apex falls so fast that it
/// misses landings a 5-tile jump makes). Also the precision.
fn default_brackets(param: Param, base: &Physics) -> (Vec<(f64, f64)>, f64) {
    let v = param.get(base);
    match param {
        Param::JumpHeight => {
            let apex = if base.gravity > 0.0 && base.jump_speed > 0.0 {
                base.jump_speed / base.gravity
            } else {
                0.4
            };
            let cap = 0.999 * apex / (2.0 * base.dt);
            let lo = 1.0_f64.min(v);
            (
                vec![
                    (lo, v),
                    (v, (1.5 * v).min(cap)),
                    ((1.5 * v).min(cap), (2.0 * v + 2.0).min(cap)),
                ],
                0.05,
            )
        }
        Param::AirJumps => (vec![(0.0, v.max(1.0)), (v.max(1.0), 4.0)], 1.0),
        _ if param.is_count() => (
            vec![(0.0, v.max(1.0)), (v.max(1.0), (2.0 * v).max(8.0))],
            1.0,
        ),
        _ => (
            vec![(0.25 * v, v), (v, 1.5 * v), (1.5 * v, 2.0 * v)],
            (v / 100.0).max(1e-3),
        ),
    }
}

fn run_min(args: &SweepArgs, param: Param) -> Result<(), CliError> {
    let (base, mut levels) = load(args)?;
    if let Some(shard) = args.shard {
        levels = shard.block(levels);
    }
    let (brackets, tol) = match args.params.iter().find(|r| r.param == param) {
        Some(r) => (vec![(r.lo, r.hi)], r.step.unwrap_or(0.05)),
        None => default_brackets(param, &base),
    };
    for &(lo, hi) in &brackets {
        for v in [lo, hi] {
            param
                .apply(&base, v)
                .validate()
                .map_err(|e| CliError(format!("at {param}={v}: {e}")))?;
        }
    }
    let (lo, hi) = (brackets[0].0, brackets[brackets.len() - 1].1);
    let bar = progress(levels.len());
    // A level whose bisection fails is reported in its row; the others go
    // on.
    let results: Vec<Result<Least, String>> = levels
        .par_iter()
        .map(|(_, level, endpoints)| {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let mut r = Err("no bracket".to_string());
                for &b in &brackets {
                    r = least_value(level, &base, param, b, tol, endpoints)
                        .map_err(|e| e.to_string());
                    if !matches!(r, Ok(Least::Above(_))) {
                        break;
                    }
                }
                r
            }))
            .unwrap_or_else(|_| Err("internal error: the bisection panicked".into()));
            bar.inc(1);
            r
        })
        .collect();
    bar.finish_and_clear();
    let current = param.get(&base);
    let mut table = format!(
        "least {param} to finish each level (searched {lo}..{hi}, bisection to {tol}; base {current:.2})\n\n| level | least {param} | vs base |\n| --- | ---: | ---: |\n"
    );
    let mut csv = format!("level,least_{param},bound,error\n");
    let mut failed = 0;
    for ((name, ..), least) in levels.iter().zip(&results) {
        match least {
            Ok(least) => {
                let (v, bound, delta) = match *least {
                    Least::AtMost(v) => (v, "at_most", format!("<= {:+.2}", v - current)),
                    Least::Value(v) => (v, "value", format!("{:+.2}", v - current)),
                    Least::Above(v) => (v, "above", "n/a".to_string()),
                };
                table += &format!("| {name} | {least} | {delta} |\n");
                csv += &format!("{},{v},{bound},\n", csv_field(name));
            }
            Err(e) => {
                failed += 1;
                table += &format!("| {name} | error: {e} | n/a |\n");
                csv += &format!("{},,,{}\n", csv_field(name), csv_field(e));
            }
        }
    }
    if failed > 0 {
        eprintln!(
            "platnav: {failed} of {} levels failed (their rows have an error)",
            levels.len()
        );
    }
    match &args.out {
        Some(path) => {
            platnav::io::files::write_atomically(path, csv.as_bytes())
                .map_err(|e| CliError(format!("{}: {e}", path.display())))?;
            out!("{table}");
        }
        None => out!("{table}"),
    }
    Ok(())
}
