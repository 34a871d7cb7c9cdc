//! `platnav render`: a PNG of a level's tiles, node types, links and a path;
//! on a level with moving platforms, the platforms on a tick and a path in
//! time that rides them.

use platnav::find_path;
use std::path::PathBuf;

use clap::Args;
use platnav::fly::{Agent, FlyOptions, FreeSpace, Point, draw_fly_path, draw_free_space};
use platnav::render::{
    Canvas, Crop, Layers, PATH_WIDTH, RenderOptions, draw_tiles, render_map, render_timed,
};
use platnav::{Cell, SearchOptions};

use super::{CliError, MapArgs, build, parse_cell};

#[derive(Args)]
pub(crate) struct RenderArgs {
    #[command(flatten)]
    map: MapArgs,
    /// The PNG file to write (written whole or not at all).
    #[arg(short, long)]
    output: PathBuf,
    /// Find and draw a path: FROM and TO cells, each COL,ROW. On a level
    /// with moving platforms, a path in time from --tick, performed with
    /// the platforms moving.
    #[arg(long, num_args = 2, value_names = ["FROM", "TO"], value_parser = parse_cell, allow_hyphen_values = true)]
    path: Vec<Cell>,
    /// On a level with moving platforms, the tick to draw them on and
    /// the --path to start on (each platform's way over its cycle is
    /// drawn too).
    #[arg(long, default_value_t = 0)]
    tick: u64,
    /// Layers to draw, comma-separated: tiles, nodes, links, path (or all).
    #[arg(long, default_value = "all")]
    layers: String,
    /// Pixels per tile.
    #[arg(long, default_value_t = 16)]
    scale: u32,
    /// Draw only cells C0..=C1, R0..=R1, as C0,R0,C1,R1.
    #[arg(long, value_parser = parse_crop, allow_hyphen_values = true)]
    crop: Option<Crop>,
    /// Draw a flying agent's free space instead of the nav map: `box:W,H`
    /// or `disc:R` (tiles).
    #[arg(long, value_name = "AGENT", value_parser = parse_agent)]
    fly: Option<Agent>,
    /// With --fly: find and draw a flying path from X,Y to X,Y (tiles).
    #[arg(long, num_args = 2, value_names = ["FROM", "TO"], value_parser = parse_point, allow_hyphen_values = true)]
    fly_path: Vec<Point>,
}

fn parse_agent(s: &str) -> Result<Agent, String> {
    let nums = |v: &str| -> Result<Vec<f64>, String> {
        v.split(',')
            .map(|x| {
                x.trim()
                    .parse::<f64>()
                    .map_err(|_| format!("{x:?} in {s:?} is not a number"))
            })
            .collect()
    };
    match s.split_once(':') {
        Some(("box", v)) => match nums(v)?[..] {
            [w, h] => Ok(Agent::boxed(w, h)),
            _ => Err(format!("{s:?} is not box:W,H")),
        },
        Some(("disc", v)) => match nums(v)?[..] {
            [r] => Ok(Agent::disc(r)),
            _ => Err(format!("{s:?} is not disc:R")),
        },
        _ => Err(format!("{s:?} is not box:W,H or disc:R")),
    }
}

fn parse_point(s: &str) -> Result<Point, String> {
    let (x, y) = super::parse_pair(s, "X,Y", "a number")?;
    Ok(Point::new(x, y))
}

/// `render --fly`: the level's tiles, the agent's free space and its mesh,
/// and a flying path.
fn run_fly(args: &RenderArgs, agent: Agent) -> Result<(), CliError> {
    let loaded = super::load_level(&args.map.level, &args.map.source)?;
    let level = &loaded.level;
    let space = FreeSpace::from_level(level, agent, &FlyOptions::default())?;
    let path = match args.fly_path[..] {
        [from, to] => Some(
            space
                .find_path(from, to)
                .map_err(|e| CliError(format!("--fly-path: {e}")))?,
        ),
        _ => None,
    };
    let (w, h) = (level.width() as u32, level.height() as u32);
    let mut canvas = Canvas::new(w, h, args.scale, Cell::new(0, 0))?;
    draw_tiles(&mut canvas, level);
    draw_free_space(&mut canvas, &space, true);
    if let Some(p) = &path {
        draw_fly_path(&mut canvas, p, PATH_WIDTH);
    }
    canvas.save_png(&args.output)?;
    println!(
        "{}: {} x {} px, {} triangles{}",
        args.output.display(),
        canvas.width(),
        canvas.height(),
        space.triangle_count(),
        path.map_or(String::new(), |p| format!(
            ", flying path of length {:.3} with {} corners",
            p.length,
            p.points.len().saturating_sub(2)
        ))
    );
    Ok(())
}

fn parse_crop(s: &str) -> Result<Crop, String> {
    let v: Vec<i32> = s
        .split(',')
        .map(|x| {
            x.trim()
                .parse::<i32>()
                .map_err(|_| format!("{x:?} in {s:?} is not an integer"))
        })
        .collect::<Result<_, _>>()?;
    match v[..] {
        [c0, r0, c1, r1] => Ok(Crop {
            min: Cell::new(c0, r0),
            max: Cell::new(c1, r1),
        }),
        _ => Err(format!("{s:?} is not C0,R0,C1,R1")),
    }
}

/// Builds the map, finds the path if asked, draws and writes the PNG.
pub(crate) fn run(args: &RenderArgs) -> Result<(), CliError> {
    if !args
        .output
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"))
    {
        return Err(CliError(format!(
            "{}: render writes PNG images only: give the output file a .png name",
            args.output.display()
        )));
    }
    if let Some(agent) = args.fly {
        return run_fly(args, agent);
    }
    if !args.fly_path.is_empty() {
        return Err(CliError("--fly-path needs --fly AGENT".into()));
    }
    let layers = Layers::parse(&args.layers).map_err(|e| CliError(format!("--layers: {e}")))?;
    let (map, loaded) = build(&args.map)?;
    let options = RenderOptions::default()
        .with_layers(layers)
        .with_scale(args.scale)
        .with_crop(args.crop);
    if !loaded.platforms.is_empty() {
        return run_timed(args, &map, &loaded, &options);
    }
    let path = match args.path[..] {
        [from, to] => Some(
            find_path(&map, from, to, &SearchOptions::default())
                .map_err(|e| CliError(format!("--path: {e}")))?,
        ),
        _ => None,
    };
    let canvas = render_map(&map, path.as_ref(), &options)?;
    canvas.save_png(&args.output)?;
    println!(
        "{}: {} x {} px, {} nodes, {} links{}",
        args.output.display(),
        canvas.width(),
        canvas.height(),
        map.node_count(),
        map.link_count(),
        path.map_or(String::new(), |p| format!(
            ", path {} -> {} in {} ticks",
            p.start(),
            p.goal(),
            p.ticks()
        ))
    );
    Ok(())
}

/// `render` on a level with moving platforms: the platforms on `--tick`,
/// and the `--path` planned in time from that tick.
fn run_timed(
    args: &RenderArgs,
    map: &platnav::NavMap,
    loaded: &platnav::level::LoadedLevel,
    options: &RenderOptions,
) -> Result<(), CliError> {
    let moving = super::platforms::platforms(map, loaded)?;
    let path = match args.path[..] {
        [from, to] => Some(
            super::platforms::find(map, &moving, (from, to), args.tick)
                .map_err(|e| CliError(format!("--path: {e}")))?,
        ),
        _ => None,
    };
    let canvas = render_timed(map, &moving, args.tick, path.as_ref(), options)?;
    canvas.save_png(&args.output)?;
    println!(
        "{}: {} x {} px, {} nodes, {} links, {} moving platforms on tick {}{}",
        args.output.display(),
        canvas.width(),
        canvas.height(),
        map.node_count(),
        map.link_count(),
        moving.len(),
        args.tick,
        path.map_or(String::new(), |p| {
            let boards = p.boardings();
            format!(
                ", path in time {} -> {} in {} ticks, boarding {boards} times",
                super::platforms::place(p.start),
                p.goal,
                p.ticks()
            )
        })
    );
    Ok(())
}
