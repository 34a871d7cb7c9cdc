//! The `platnav` command line: a client of the library's public API.

#[path = "platnav/render.rs"]
mod render;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};
use platnav::json::{map_to_json, path_error_to_json, path_to_json};
use platnav::{
    Body, Cell, Level, LinkKind, NavMap, Path, Physics, SearchOptions, Tile, VglcLegend,
};

/// The embedded default level.
const DEMO_LEVEL: &str = include_str!("../../levels/demo.txt");
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
}

#[derive(Args)]
struct MapArgs {
    /// The level file (platnav ASCII, or VGLC text with --legend).
    level: PathBuf,
    /// A physics preset: default, agile or smb.
    #[arg(long, conflicts_with = "physics")]
    preset: Option<String>,
    /// A physics JSON file (the `physics` object of PHYSICS.md).
    #[arg(long)]
    physics: Option<PathBuf>,
    /// A VGLC legend JSON: marks LEVEL as VGLC text.
    #[arg(long)]
    legend: Option<PathBuf>,
}

#[derive(Args)]
struct PathArgs {
    #[command(flatten)]
    map: MapArgs,
    /// Start cell, as COL,ROW.
    #[arg(long, value_parser = parse_cell, allow_hyphen_values = true)]
    from: Cell,
    /// Goal cell, as COL,ROW.
    #[arg(long, value_parser = parse_cell, allow_hyphen_values = true)]
    to: Cell,
    /// Beam width (default: exact search).
    #[arg(long)]
    beam: Option<usize>,
    /// Print the PHYSICS.md JSON document.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct LinksArgs {
    #[command(flatten)]
    map: MapArgs,
    /// Print JSON (default: a summary).
    #[arg(long)]
    json: bool,
}

fn parse_cell(s: &str) -> Result<Cell, String> {
    let (c, r) = s
        .split_once(',')
        .ok_or_else(|| format!("{s:?} is not COL,ROW"))?;
    let num = |v: &str| {
        v.trim()
            .parse::<i32>()
            .map_err(|_| format!("{v:?} in {s:?} is not an integer"))
    };
    Ok(Cell::new(num(c)?, num(r)?))
}

/// A one-line error for the user; the process exits with code 2.
struct CliError(String);

impl<E: std::fmt::Display> From<E> for CliError {
    fn from(e: E) -> Self {
        CliError(e.to_string())
    }
}

fn load_physics(args: &MapArgs) -> Result<Physics, CliError> {
    let physics = if let Some(path) = &args.physics {
        let text = platnav::read_text(path)?;
        let p: Physics = serde_json::from_str(&text)
            .map_err(|e| CliError(format!("{}: {e}", path.display())))?;
        p.validate()
            .map_err(|e| CliError(format!("{}: {e}", path.display())))?;
        p
    } else {
        Physics::preset(args.preset.as_deref().unwrap_or("default"))?
    };
    Ok(physics)
}

fn load_level(args: &MapArgs) -> Result<Level, CliError> {
    Ok(match &args.legend {
        Some(legend) => Level::load_vglc(&args.level, &VglcLegend::load(legend)?)?,
        None => Level::load(&args.level)?,
    })
}

fn build(args: &MapArgs) -> Result<NavMap, CliError> {
    let physics = load_physics(args)?;
    let level = load_level(args)?;
    Ok(NavMap::build(&level, &physics)?)
}

fn link_summary(map: &NavMap) -> String {
    let counts: Vec<String> = map
        .link_counts()
        .iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect();
    format!("{} links: {}", map.link_count(), counts.join(", "))
}

fn kind_letter(k: LinkKind) -> char {
    match k {
        LinkKind::Run => 'r',
        LinkKind::Fall => 'f',
        LinkKind::Jump => 'j',
        LinkKind::DoubleJump => 'd',
        LinkKind::WallJump => 'w',
        LinkKind::Drop => 'v',
    }
}

/// The level with the path's trajectory (`*`), link ends (their kind's
/// letter), start `@` and goal `$`.
fn draw_path(level: &Level, physics: &Physics, path: &Path) -> String {
    let (w, h) = (level.width(), level.height());
    let mut grid: Vec<Vec<char>> = level
        .to_string()
        .lines()
        .map(|l| l.chars().collect())
        .collect();
    let mut put = |c: Cell, ch: char| {
        if level.contains(c) {
            grid[c.row as usize][c.col as usize] = ch;
        }
    };
    let mut body = Body::standing(path.start(), physics);
    for &i in path.inputs() {
        body.step(level, physics, i);
        let mid = Cell::new(
            body.x.floor() as i32,
            (body.y - physics.h / 2.0).floor() as i32,
        );
        put(mid, '*');
    }
    for s in path.steps() {
        put(s.to, kind_letter(s.kind));
    }
    put(path.start(), '@');
    put(path.goal(), '$');
    let _ = (w, h);
    grid.into_iter()
        .map(|r| r.into_iter().collect::<String>() + "\n")
        .collect()
}

fn run_default() -> Result<(), CliError> {
    let level: Level = DEMO_LEVEL.parse()?;
    let physics = Physics::preset(DEMO_PRESET)?;
    println!(
        "platnav {}: the default level (levels/demo.txt, {} x {}) with the {DEMO_PRESET:?} physics preset\n",
        env!("CARGO_PKG_VERSION"),
        level.width(),
        level.height()
    );
    print!("{level}");
    let t = Instant::now();
    let map = NavMap::build(&level, &physics)?;
    let build_time = t.elapsed();
    println!(
        "\nNode types (_ platform, < > edges, o solo, [ ] walls, {{ }} wall edges, - roof, = one-way, ^ death, G goal, # blocked):\n"
    );
    print!("{}", map.classification());
    println!("\n{} nodes, {}", map.node_count(), link_summary(&map));
    let start = level
        .cells_of(Tile::Spawn)
        .next()
        .unwrap_or(Cell::new(1, 1));
    let goal = level.cells_of(Tile::Goal).next().unwrap_or(Cell::new(1, 1));
    let t = Instant::now();
    let result = map.find_path(start, goal, &SearchOptions::default());
    let query_time = t.elapsed();
    match &result {
        Ok(path) => {
            let kinds: Vec<&str> = path.steps().iter().map(|s| s.kind.name()).collect();
            let end = path.replay(&level, &physics);
            println!(
                "\nDemo path {} -> {}: {:.3} s, {} ticks, {} links ({})",
                path.start(),
                path.goal(),
                path.cost(),
                path.ticks(),
                path.steps().len(),
                kinds.join(", ")
            );
            println!(
                "Replayed on the reference body: {}",
                if end.stands_on(path.goal()) {
                    "ends standing on the goal"
                } else {
                    "MISSED"
                }
            );
            println!(
                "(@ start, $ goal, * body, link ends: r run, f fall, j jump, d double jump, w wall jump, v drop)\n"
            );
            print!("{}", draw_path(&level, &physics, path));
        }
        Err(e) => println!("\nDemo path: {e}"),
    }
    println!(
        "\nbuild: {:.1} ms, query: {:.1} us ({} expanded, {} pruned)",
        build_time.as_secs_f64() * 1e3,
        query_time.as_secs_f64() * 1e6,
        result.as_ref().map_or(0, |p| p.stats().expanded),
        result.as_ref().map_or(0, |p| p.stats().pruned),
    );
    Ok(())
}

fn run_path(args: &PathArgs) -> Result<ExitCode, CliError> {
    let map = build(&args.map)?;
    let opts = SearchOptions {
        beam_width: args.beam,
        ..SearchOptions::default()
    };
    if args.beam == Some(0) {
        return Err(CliError("--beam: the width must be at least 1".into()));
    }
    let result = map.find_path(args.from, args.to, &opts);
    if args.json {
        let doc = match &result {
            Ok(p) => path_to_json(p, map.physics()),
            Err(e) => path_error_to_json(e),
        };
        println!("{doc}");
    } else {
        match &result {
            Ok(p) => {
                println!(
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
                    println!(
                        "  {:<11} {} -> {} ({} ticks)",
                        s.kind.name(),
                        s.from,
                        s.to,
                        s.ticks
                    );
                }
                print!("{}", draw_path(map.level(), map.physics(), p));
            }
            Err(e) => println!("no path: {e}"),
        }
    }
    Ok(if result.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn run_links(args: &LinksArgs) -> Result<(), CliError> {
    let map = build(&args.map)?;
    if args.json {
        println!("{}", map_to_json(&map));
    } else {
        println!(
            "{}: {} x {}, {} nodes, {}",
            args.map.level.display(),
            map.level().width(),
            map.level().height(),
            map.node_count(),
            link_summary(&map)
        );
        print!("{}", map.classification());
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
    };
    match result {
        Ok(code) => code,
        Err(CliError(msg)) => {
            eprintln!("platnav: error: {msg}");
            ExitCode::from(2)
        }
    }
}
