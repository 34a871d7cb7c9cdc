//! `platnav render`: a PNG of a level's tiles, node types, links and a path.

use std::path::PathBuf;

use clap::Args;
use platnav::render::{Crop, Layers, RenderOptions, render_map};
use platnav::{Cell, SearchOptions};

use super::{CliError, MapArgs, build, parse_cell};

#[derive(Args)]
pub(crate) struct RenderArgs {
    #[command(flatten)]
    map: MapArgs,
    /// The PNG file to write (written whole or not at all).
    #[arg(short, long)]
    output: PathBuf,
    /// Find and draw a path: FROM and TO cells, each COL,ROW.
    #[arg(long, num_args = 2, value_names = ["FROM", "TO"], value_parser = parse_cell, allow_hyphen_values = true)]
    path: Vec<Cell>,
    /// Layers to draw, comma-separated: tiles, nodes, links, path (or all).
    #[arg(long, default_value = "all")]
    layers: String,
    /// Pixels per tile.
    #[arg(long, default_value_t = 16)]
    scale: u32,
    /// Draw only cells C0..=C1, R0..=R1, as C0,R0,C1,R1.
    #[arg(long, value_parser = parse_crop, allow_hyphen_values = true)]
    crop: Option<Crop>,
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
    let layers = Layers::parse(&args.layers).map_err(|e| CliError(format!("--layers: {e}")))?;
    let (map, _) = build(&args.map)?;
    let path = match args.path[..] {
        [from, to] => Some(
            map.find_path(from, to, &SearchOptions::default())
                .map_err(|e| CliError(format!("--path: {e}")))?,
        ),
        _ => None,
    };
    let options = RenderOptions {
        layers,
        scale: args.scale,
        crop: args.crop,
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
