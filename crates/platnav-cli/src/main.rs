//! The `platnav` command line: a client of the library's public API.

mod render;

use platnav::{analysis, find_path, io::navfile, search};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};
use platnav::io::json::{map_to_json, path_error_to_json, path_to_json};
use platnav::{
    Body, Cell, JumpVariety, Level, LinkOptions, NavMap, Path, Physics, SearchOptions, Tile,
    analysis::Endpoints, level::LoadedLevel,
};

/// `print!` that ignores a closed stdout (`platnav ... | head`) instead of
/// panicking.
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout().lock(), $($t)*);
    }};
}

/// `println!` that ignores a closed stdout.
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($t)*);
    }};
}

mod bench;
mod check;
mod conform;
mod fit;
mod model;
mod platforms;
mod plot;
mod progress;
mod source;
mod sweep;

/// The embedded default level.
const DEMO_LEVEL: &str = include_str!("../../../levels/demo.txt");
/// The physics preset the default run uses.
const DEMO_PRESET: &str = "agile";

#[derive(Parser)]
#[command(
    name = "platnav",
    version,
    about = "Navigation maps and performable paths for 2D tile platformers"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Find a path and print it (or its JSON, as in PHYSICS.md).
    Path(PathArgs),
    /// Export the nav map: node types and links with their input tapes.
    Links(LinksArgs),
    /// Draw the level, node types, links and a path to a PNG.
    Render(render::RenderArgs),
    /// Report reachability, regions, traps and each goal (with what is
    /// missing to reach it); exit code 1 when no goal is reachable.
    Check(check::CheckArgs),
    /// Evaluate levels over a grid of physics parameters (CSV, --plot PNG),
    /// or find each level's least value of one parameter (--min).
    Sweep(sweep::SweepArgs),
    /// Measure builds and queries against their targets, and the search
    /// against the `pathfinding` crate on the same graphs.
    Bench(bench::BenchArgs),
    /// Fit a physics profile to a player's recorded trajectory (a CSV of
    /// positions and inputs per tick); print it as a physics file in pixels.
    Fit(fit::FitArgs),
    /// Perform a map's links on another physics profile (a game's own
    /// tuning against a preset); list those it does not perform; exit code
    /// 1 when any.
    Conform(conform::ConformArgs),
}

/// How to read levels and which physics to use: shared by every subcommand.
#[derive(Args, Clone)]
struct SourceArgs {
    /// A physics preset: default, agile, smb or sq2 (a --physics file's
    /// values go over it).
    #[arg(long)]
    preset: Option<String>,
    /// A physics JSON file: the `physics` object of PHYSICS.md, whole or
    /// partial (over --preset), in tiles or with "units": "px".
    #[arg(long)]
    physics: Option<PathBuf>,
    /// A VGLC legend JSON (marks a text level as VGLC), or a PNG mask's
    /// colour legend.
    #[arg(long)]
    legend: Option<PathBuf>,
    /// Tiled and LDtk maps: the collision layer's name (default: by the
    /// rules and conventions).
    #[arg(long)]
    layer: Option<String>,
    /// Tiled and LDtk maps: a rules file saying which layers, properties,
    /// shapes and objects collide (default: the conventions alone).
    #[arg(long, visible_alias = "mapping")]
    rules: Option<PathBuf>,
    /// LDtk projects: the level to load, by identifier (default: the first).
    #[arg(long = "level", id = "ldtk_level", value_name = "NAME")]
    level_name: Option<String>,
    /// PNG masks: the side of one tile in pixels.
    #[arg(long)]
    pixels_per_tile: Option<u32>,
    /// Which edges of the level meet: none, x (left and right), y (top and
    /// bottom) or xy (over what the level file says).
    #[arg(long, value_name = "EDGES")]
    wrap: Option<platnav::Wrap>,
}

#[derive(Args)]
struct MapArgs {
    /// The level file: platnav ASCII (.txt), VGLC text (with --legend),
    /// Tiled (.tmx, .tmj/.json), LDtk (.ldtk) or a PNG mask (.png).
    level: PathBuf,
    #[command(flatten)]
    source: SourceArgs,
    /// Set a physics parameter, NAME=VALUE (after --preset and --physics);
    /// repeatable. Every field of a physics profile (as in `sweep`):
    /// jump_height, run_speed, gravity, jump_speed, air_jumps, w, h,
    /// ground_accel, air_accel, jump_cut_speed, max_fall_speed, dt,
    /// climb_speed, coyote_ticks, jump_buffer_ticks, wall_jump.speed_x,
    /// wall_jump.speed_y, wall_jump.slide_speed, pad_speed, spring_speed,
    /// spring_jump_speed, jump_boost, jump_boost_ticks (tiles and seconds).
    #[arg(long = "param", value_parser = source::parse_set, value_name = "NAME=VALUE")]
    params: Vec<(platnav::analysis::Param, f64)>,
    /// Load the nav map from this file (saved by `links --save`) instead of
    /// building it; refused if it was built for another level or physics.
    #[arg(long)]
    map: Option<PathBuf>,
    /// With --map: replay every link's tape when loading, refusing a file
    /// with any link the body does not perform (by default a tape is first
    /// performed when a path uses it, and every path is replayed).
    #[arg(long, requires = "map")]
    verify: bool,
    /// The jump programs to try from each cell: full, or coarse (about a
    /// quarter of them: faster builds, routes a few percent slower).
    #[arg(long, default_value = "full", value_parser = parse_jumps)]
    jumps: JumpVariety,
}

#[derive(Args)]
struct PathArgs {
    #[command(flatten)]
    map: MapArgs,
    /// Start cell, as COL,ROW (default: the level's spawn marker).
    #[arg(long, value_parser = parse_cell, allow_hyphen_values = true)]
    from: Option<Cell>,
    /// Goal cell, as COL,ROW (default: the nearest reachable goal marker).
    #[arg(long, value_parser = parse_cell, allow_hyphen_values = true)]
    to: Option<Cell>,
    /// Beam width (default: exact search).
    #[arg(long)]
    beam: Option<usize>,
    /// Print the PHYSICS.md JSON document.
    #[arg(long)]
    json: bool,
    /// When no path is found, skip the diagnosis (which rebuilds the map
    /// at higher jumps and faster runs to find what would reach the goal).
    #[arg(long)]
    no_diagnosis: bool,
    /// Answer without building the whole map: each cell's links are
    /// generated when the search first needs them (for huge levels), or
    /// with --map FILE.pnav read from the saved map a block at a time. The
    /// start and goal are --from and --to, else the level's markers; the
    /// search is exact, and no diagnosis is made.
    #[arg(long, conflicts_with_all = ["beam", "verify"])]
    lazy: bool,
    /// Find the path with a body model's own movement (the NES Mario,
    /// small or big, or the dash body): its map is built by driving the
    /// model, and the path is performed on it (--json prints its inputs).
    #[arg(long, value_enum, conflicts_with_all = ["beam", "lazy", "map", "no_diagnosis"])]
    model: Option<model::ModelName>,
    /// On a level with moving platforms, the tick the path starts on (the
    /// platforms' places depend on it): the path is planned in time and
    /// performed with the platforms moving.
    #[arg(long, default_value_t = 0)]
    tick: u64,
}

#[derive(Args)]
struct LinksArgs {
    #[command(flatten)]
    map: MapArgs,
    /// Print JSON (default: a summary).
    #[arg(long)]
    json: bool,
    /// Save the map to FILE: binary for `.pnav`, JSON otherwise.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
}

fn parse_jumps(s: &str) -> Result<JumpVariety, String> {
    JumpVariety::from_name(s).ok_or_else(|| format!("unknown jump set {s:?} (full or coarse)"))
}

/// Two numbers `A,B`; `form` names them in errors (`COL,ROW`), `kind` the
/// number (`an integer`).
fn parse_pair<T: std::str::FromStr>(s: &str, form: &str, kind: &str) -> Result<(T, T), String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| format!("{s:?} is not {form}"))?;
    let num = |v: &str| {
        v.trim()
            .parse::<T>()
            .map_err(|_| format!("{v:?} in {s:?} is not {kind}"))
    };
    Ok((num(a)?, num(b)?))
}

fn parse_cell(s: &str) -> Result<Cell, String> {
    let (c, r) = parse_pair(s, "COL,ROW", "an integer")?;
    Ok(Cell::new(c, r))
}

/// A one-line error for the user; the process exits with code 2.
struct CliError(String);

impl<E: std::fmt::Display> From<E> for CliError {
    fn from(e: E) -> Self {
        CliError(e.to_string())
    }
}

fn load_physics(args: &SourceArgs) -> Result<Physics, CliError> {
    source::load_physics(args, &[])
}

fn load_level(level: &std::path::Path, args: &SourceArgs) -> Result<LoadedLevel, CliError> {
    source::load_level(level, args)
}

/// Loads the level and physics and builds the map; also returns the
/// level's spawn and goal markers.
fn build(args: &MapArgs) -> Result<(NavMap, LoadedLevel), CliError> {
    let physics = source::load_physics(&args.source, &args.params)?;
    let loaded = load_level(&args.level, &args.source)?;
    let map = match &args.map {
        Some(file) => {
            let map = navfile::load(file, &loaded.level, &physics)?;
            if args.verify {
                navfile::verify(&map).map_err(|e| CliError(format!("{}: {e}", file.display())))?;
            }
            map
        }
        None => {
            let options = LinkOptions::default().with_jumps(args.jumps);
            progress::build_watched(&loaded.level, &physics, &options)?
        }
    };
    Ok((map, loaded))
}

/// The explicit goal, or the goal marker the start reaches soonest (the
/// first marker when none is reachable, so the search reports why).
fn pick_goal(map: &NavMap, start: Cell, goals: &[Cell], radius: u32) -> Option<Cell> {
    let first = goals.first().copied()?;
    let Some(s) = search::snap(map, start, radius).and_then(|c| map.node(c)) else {
        return Some(first);
    };
    let dist = search::dijkstra(map, s);
    goals
        .iter()
        .filter_map(|&g| {
            let n = map.node(search::snap(map, g, radius)?)?;
            dist[n.index()].map(|d| (d, g))
        })
        .min()
        .map(|(_, g)| g)
        .or(Some(first))
}

fn link_summary(map: &NavMap) -> String {
    let counts: Vec<String> = map
        .link_counts()
        .iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect();
    format!("{} links: {}", map.link_count(), counts.join(", "))
}

/// The level's ASCII picture as a grid of characters to mark up.
fn level_grid(level: &Level) -> Vec<Vec<char>> {
    level
        .to_string()
        .lines()
        .map(|l| l.chars().collect())
        .collect()
}

/// Puts `ch` at `c` in a grid from [`level_grid`]; cells off the map are skipped.
fn mark(grid: &mut [Vec<char>], c: Cell, ch: char) {
    let (Ok(row), Ok(col)) = (usize::try_from(c.row), usize::try_from(c.col)) else {
        return;
    };
    if let Some(cell) = grid.get_mut(row).and_then(|r| r.get_mut(col)) {
        *cell = ch;
    }
}

/// A marked-up grid back to text, a line per row.
fn grid_text(grid: Vec<Vec<char>>) -> String {
    grid.into_iter()
        .map(|r| r.into_iter().collect::<String>() + "\n")
        .collect()
}

/// The level with the path's trajectory (`*`), link ends (their kind's
/// letter), start `@` and goal `$`.
fn draw_path(level: &Level, physics: &Physics, path: &Path) -> String {
    let mut grid = level_grid(level);
    let mut put = |c: Cell, ch: char| mark(&mut grid, c, ch);
    let mut body = Body::start(level, path.start(), physics);
    for &i in path.inputs() {
        body.step(level, physics, i);
        let mid = Cell::new(
            body.x.floor() as i32,
            (body.y - physics.h / 2.0).floor() as i32,
        );
        put(mid, '*');
    }
    for s in path.steps() {
        put(s.to, s.kind.letter());
    }
    put(path.start(), '@');
    put(path.goal(), '$');
    grid_text(grid)
}

fn run_default() -> Result<(), CliError> {
    let level: Level = DEMO_LEVEL.parse()?;
    let physics = Physics::preset(DEMO_PRESET)?;
    outln!(
        "platnav {}: the default level (levels/demo.txt, {} x {}) with the {DEMO_PRESET:?} physics preset\n",
        env!("CARGO_PKG_VERSION"),
        level.width(),
        level.height()
    );
    out!("{level}");
    let t = Instant::now();
    let map = NavMap::build(&level, &physics)?;
    let build_time = t.elapsed();
    outln!(
        "\nNode types (_ platform, < > edges, o solo, [ ] walls, {{ }} wall edges, - roof, = one-way, ^ death, G goal, # blocked, H ladder, / \\ steep):\n"
    );
    out!("{}", map.classification());
    outln!("\n{} nodes, {}", map.node_count(), link_summary(&map));
    let start = level
        .cells_of(Tile::SPAWN)
        .next()
        .unwrap_or(Cell::new(1, 1));
    let goal = level.cells_of(Tile::GOAL).next().unwrap_or(Cell::new(1, 1));
    let t = Instant::now();
    let result = find_path(&map, start, goal, &SearchOptions::default());
    let query_time = t.elapsed();
    match &result {
        Ok(path) => {
            let kinds: Vec<&str> = path.steps().iter().map(|s| s.kind.name()).collect();
            let end = path.replay(&level, &physics);
            outln!(
                "\nDemo path {} -> {}: {:.3} s, {} ticks, {} links ({})",
                path.start(),
                path.goal(),
                path.cost(),
                path.ticks(),
                path.steps().len(),
                kinds.join(", ")
            );
            outln!(
                "Replayed on the reference body: {}",
                if end.stands_on(path.goal()) {
                    "ends standing on the goal"
                } else {
                    "MISSED"
                }
            );
            outln!(
                "(@ start, $ goal, * body, link ends: r run, f fall, j jump, d double jump, w wall jump, v drop)\n"
            );
            out!("{}", draw_path(&level, &physics, path));
        }
        Err(e) => outln!("\nDemo path: {e}"),
    }
    outln!(
        "\nbuild: {:.1} ms, query: {:.1} us ({} expanded, {} pruned)",
        build_time.as_secs_f64() * 1e3,
        query_time.as_secs_f64() * 1e6,
        result.as_ref().map_or(0, |p| p.stats().expanded),
        result.as_ref().map_or(0, |p| p.stats().pruned),
    );
    Ok(())
}

fn run_path(args: &PathArgs) -> Result<ExitCode, CliError> {
    if let Some(name) = args.model {
        let loaded = load_level(&args.map.level, &args.map.source)?;
        let to: Vec<Cell> = args.to.into_iter().collect();
        let ends = (args.from, to.as_slice());
        return model::run(name, &loaded, ends, model::Report::Path, args.json);
    }
    if args.lazy {
        return run_path_lazy(args);
    }
    if args.beam == Some(0) {
        return Err(CliError("--beam: the width must be at least 1".into()));
    }
    let (map, loaded) = build(&args.map)?;
    let opts = SearchOptions::default().with_beam_width(args.beam);
    // The same start and goals as `check`: the markers, else the level's
    // defaults (the bottom-most standing cell nearest column 2; the
    // standing cells of the last 3 columns).
    let endpoints = Endpoints {
        start: args.from.or(loaded.spawn),
        goals: args.to.map_or_else(|| loaded.goals.clone(), |t| vec![t]),
    };
    let (from, goals) = analysis::resolve(&map, &endpoints)
        .map_err(|e| CliError(format!("{}: {e}", args.map.level.display())))?;
    let from = args.from.unwrap_or(from);
    let to = match args.to {
        Some(c) => c,
        None => pick_goal(&map, from, &goals, opts.snap_radius).ok_or_else(|| {
            CliError(format!(
                "{}: the level marks no goal and has no standing cell in its last 3 columns: \
                 give one with --to COL,ROW",
                args.map.level.display()
            ))
        })?,
    };
    if !loaded.platforms.is_empty() {
        let moving = platforms::platforms(&map, &loaded)?;
        let result = platforms::find(&map, &moving, (from, to), args.tick);
        return Ok(platforms::print(&map, &loaded, &result, args.json));
    }
    let result = find_path(&map, from, to, &opts);
    let diagnosis = match &result {
        Err(search::PathError::Unreachable { start, goal, .. }) if !args.no_diagnosis => {
            let options = analysis::ReportOptions::default().with_search(opts.clone());
            analysis::diagnose(&map, *start, *goal, &options).ok()
        }
        _ => None,
    };
    print_path(
        args,
        (map.level(), map.physics()),
        &result,
        diagnosis.as_ref(),
    )
}

/// `path --lazy`: the path on a lazy map of the level.
fn run_path_lazy(args: &PathArgs) -> Result<ExitCode, CliError> {
    let physics = source::load_physics(&args.map.source, &args.map.params)?;
    let loaded = load_level(&args.map.level, &args.map.source)?;
    let level = args.map.level.display();
    let from = args.from.or(loaded.spawn).ok_or_else(|| {
        CliError(format!(
            "{level}: --lazy needs a start: give --from COL,ROW"
        ))
    })?;
    let to = args
        .to
        .or_else(|| loaded.goals.first().copied())
        .ok_or_else(|| CliError(format!("{level}: --lazy needs a goal: give --to COL,ROW")))?;
    let options = LinkOptions::default().with_jumps(args.map.jumps);
    let mut lazy = match &args.map.map {
        Some(file) if file.extension().is_some_and(|e| e == "pnav") => {
            navfile::open_lazy_with(file, &loaded.level, &physics, &options)?
        }
        Some(file) => {
            return Err(CliError(format!(
                "{}: --lazy reads binary maps (.pnav) only",
                file.display()
            )));
        }
        None => platnav::LazyMap::with_options(&loaded.level, &physics, &options)?,
    };
    let result = lazy.find_path(from, to, &SearchOptions::default());
    if let Some(file) = &args.map.map {
        for why in lazy.refused_blocks() {
            eprintln!(
                "warning: {}: {why}; its links were generated instead",
                file.display()
            );
        }
    }
    print_path(args, (&loaded.level, &physics), &result, None)
}

/// A path's link as `path` lists it: its kind, ends and ticks.
fn step_line(kind: platnav::LinkKind, (from, to): (Cell, Cell), ticks: usize) -> String {
    format!("  {:<11} {from} -> {to} ({ticks} ticks)", kind.name())
}

/// Prints a path query's outcome as `path` does, and its exit code.
fn print_path(
    args: &PathArgs,
    (level, physics): (&Level, &Physics),
    result: &Result<Path, search::PathError>,
    diagnosis: Option<&analysis::Diagnosis>,
) -> Result<ExitCode, CliError> {
    if args.json {
        let doc = match result {
            Ok(p) => {
                let mut doc = path_to_json(p, physics);
                // The tape replays only with the level's seams (PHYSICS.md).
                if level.wrap().any() {
                    doc["wrap"] = level.wrap().to_string().into();
                }
                doc
            }
            Err(e) => {
                let mut doc = path_error_to_json(e);
                if let Some(d) = diagnosis {
                    doc["diagnosis"] = serde_json::to_value(d).unwrap_or_default();
                }
                doc
            }
        };
        outln!("{doc}");
    } else {
        match result {
            Ok(p) => {
                outln!(
                    "path {} -> {}: {:.3} s, {} ticks, {} links, {} expanded, {} pruned",
                    p.start(),
                    p.goal(),
                    p.cost(),
                    p.ticks(),
                    p.steps().len(),
                    p.stats().expanded,
                    p.stats().pruned
                );
                for s in p.steps() {
                    outln!("{}", step_line(s.kind, (s.from, s.to), s.ticks as usize));
                }
                out!("{}", draw_path(level, physics, p));
            }
            Err(e) => {
                outln!("no path: {e}");
                if let Some(d) = diagnosis {
                    outln!("{}", check::explain(d));
                }
                outln!(
                    "see `platnav check {}` for what the start reaches and what each goal needs",
                    args.map.typed()
                );
            }
        }
    }
    Ok(if result.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn run_links(args: &LinksArgs) -> Result<(), CliError> {
    let (map, _) = build(&args.map)?;
    if let Some(file) = &args.save {
        navfile::save(&map, file)?;
    }
    if args.json {
        outln!("{}", map_to_json(&map));
    } else {
        outln!(
            "{}: {} x {}, {} nodes, {}",
            args.map.level.display(),
            map.level().width(),
            map.level().height(),
            map.node_count(),
            link_summary(&map)
        );
        out!("{}", map.classification());
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.cmd {
        None => run_default().map(|()| ExitCode::SUCCESS),
        Some(Cmd::Path(a)) => run_path(a),
        Some(Cmd::Links(a)) => run_links(a).map(|()| ExitCode::SUCCESS),
        Some(Cmd::Render(a)) => render::run(a).map(|()| ExitCode::SUCCESS),
        Some(Cmd::Check(a)) => check::run(a),
        Some(Cmd::Sweep(a)) => sweep::run(a).map(|()| ExitCode::SUCCESS),
        Some(Cmd::Bench(a)) => bench::run(a).map(|()| ExitCode::SUCCESS),
        Some(Cmd::Fit(a)) => fit::run(a).map(|()| ExitCode::SUCCESS),
        Some(Cmd::Conform(a)) => conform::run(a),
    };
    match result {
        Ok(code) => code,
        Err(CliError(msg)) => {
            eprintln!("platnav: error: {msg}");
            ExitCode::from(2)
        }
    }
}
