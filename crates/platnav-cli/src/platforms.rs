//! `path` and `check` on a level whose file places moving platforms: a
//! path in time from the start tick, performed with the platforms where
//! they are on each tick.

use std::process::ExitCode;

use platnav::io::json::{path_error_to_json, timed_path_to_json};
use platnav::level::{LoadedLevel, Platforms};
use platnav::search::timed::{Place, TimedKind, TimedOptions, TimedPath, find_path_timed};
use platnav::search::{self, PathError};
use platnav::{Cell, NavMap};

use crate::CliError;

/// The level's platforms, checked for the map's tick.
pub(crate) fn platforms(map: &NavMap, loaded: &LoadedLevel) -> Result<Platforms, CliError> {
    Platforms::new(loaded.platforms.clone(), map.physics().dt)
        .map_err(|e| CliError(format!("the level's {e}")))
}

/// A path in time from `from` on tick `tick` to `to`.
pub(crate) fn find(
    map: &NavMap,
    platforms: &Platforms,
    (from, to): (Cell, Cell),
    tick: u64,
) -> Result<TimedPath, PathError> {
    find_path_timed(map, platforms, from, tick, to, &TimedOptions::default())
}

/// Prints `path`'s answer on a level with platforms, and its exit code.
pub(crate) fn print(
    map: &NavMap,
    loaded: &LoadedLevel,
    result: &Result<TimedPath, PathError>,
    json: bool,
) -> ExitCode {
    if json {
        let doc = match result {
            Ok(p) => timed_path_to_json(p, map.physics(), &loaded.platforms),
            Err(e) => path_error_to_json(e),
        };
        outln!("{doc}");
    } else {
        match result {
            Ok(p) => {
                outln!(
                    "path {} -> {} from tick {}: {:.3} s, {} ticks, {} steps, {} expanded \
                     ({} moving platforms)",
                    place(p.start),
                    p.goal,
                    p.start_tick,
                    p.ticks() as f64 * map.physics().dt,
                    p.ticks(),
                    p.steps.len(),
                    p.stats.expanded,
                    loaded.platforms.len()
                );
                for s in &p.steps {
                    out!("{}\n", step_line(s.kind, s.from, s.to, s.tick, s.ticks));
                }
            }
            Err(e) => outln!("no path: {e}"),
        }
    }
    if result.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// One step of a path in time, as `path` lists it.
fn step_line(kind: TimedKind, from: Place, to: Place, tick: u64, ticks: u32) -> String {
    let name = match kind {
        TimedKind::Link(k) => k.name(),
        TimedKind::Board => "board",
        TimedKind::Leave => "leave",
    };
    format!(
        "  {name:<11} {} -> {} (tick {tick}, {ticks} ticks)",
        place(from),
        place(to)
    )
}

/// A place as `path` and `check` name it.
pub(crate) fn place(p: Place) -> String {
    match p {
        Place::Cell(c) => c.to_string(),
        Place::Platform { platform, slot } => format!("platform {platform} (tile {slot})"),
    }
}

/// The most goals `check` plans to in time, nearest the start first.
const GOALS_TRIED: usize = 3;

/// `check` on a level with platforms, for the goals the map alone does
/// not reach: a path in time from tick 0 to one of those nearest the
/// start, if one is found.
pub(crate) fn reach(
    map: &NavMap,
    platforms: &Platforms,
    start: Cell,
    goals: &[Cell],
) -> Option<TimedPath> {
    let mut near: Vec<Cell> = goals
        .iter()
        .filter_map(|&g| search::snap(map, g, 2))
        .collect();
    let d =
        |c: &Cell| (i64::from(c.col - start.col)).pow(2) + (i64::from(c.row - start.row)).pow(2);
    near.sort_by_key(d);
    near.dedup();
    near.into_iter()
        .take(GOALS_TRIED)
        .find_map(|g| find(map, platforms, (start, g), 0).ok())
}
