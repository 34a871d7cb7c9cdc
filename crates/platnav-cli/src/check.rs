//! `platnav check`: a level's playability report.

use platnav::analysis;
use std::collections::HashSet;
use std::process::ExitCode;

use clap::Args;
use platnav::{
    Cell, NavMap,
    analysis::{Diagnosis, Endpoints, GoalReport, Report, ReportOptions},
    level::Unmodelled,
};

use super::model::{self, ModelName};
use super::platforms;
use super::{CliError, MapArgs, build, grid_text, level_grid, load_level, mark, parse_cell};
use platnav::io::json::timed_path_to_json;

#[derive(Args)]
pub(crate) struct CheckArgs {
    #[command(flatten)]
    map: MapArgs,
    /// Start cell, as COL,ROW (default: the spawn marker, else the
    /// bottom-most standing cell nearest column 2).
    #[arg(long, value_parser = parse_cell, allow_hyphen_values = true)]
    from: Option<Cell>,
    /// A goal cell, as COL,ROW; repeatable (default: the goal markers, else
    /// the standing cells of the last 3 columns).
    #[arg(long, value_parser = parse_cell, allow_hyphen_values = true)]
    to: Vec<Cell>,
    /// Skip the missing-jump diagnosis of unreachable goals (faster).
    #[arg(long)]
    no_diagnosis: bool,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Check with a body model's own movement instead of the physics
    /// profile: the map is built by driving the model (the NES Mario,
    /// small or big, or the dash body), and a path to a goal is performed
    /// on it.
    #[arg(long, value_enum, conflicts_with = "no_diagnosis")]
    model: Option<ModelName>,
}

/// Exit code 0 when some goal is reachable, 1 when none is.
pub(crate) fn run(args: &CheckArgs) -> Result<ExitCode, CliError> {
    if let Some(name) = args.model {
        let loaded = load_level(&args.map.level, &args.map.source)?;
        let ends = (args.from, args.to.as_slice());
        return model::run(name, &loaded, ends, model::Report::Check, args.json);
    }
    let (map, loaded) = build(&args.map)?;
    // The loader's markers (spawn objects and goal tiles of any format)
    // come before the library's fallbacks.
    let endpoints = Endpoints {
        start: args.from.or(loaded.spawn),
        goals: if args.to.is_empty() {
            loaded.goals.clone()
        } else {
            args.to.clone()
        },
    };
    let options = ReportOptions::default().with_diagnose(!args.no_diagnosis);
    let report = analysis::report(&map, &endpoints, &options)?;
    let beside = unmodelled_beside(&loaded.unmodelled, &map, &report);
    // With moving platforms, a goal the map alone misses may be reached in
    // time.
    let missed: Vec<Cell> = report
        .goals
        .iter()
        .filter(|g| !g.found)
        .map(|g| g.goal)
        .collect();
    let timed = if missed.is_empty() || loaded.platforms.is_empty() {
        None
    } else {
        let moving = platforms::platforms(&map, &loaded)?;
        let start = analysis::resolve(&map, &endpoints).ok().map(|(s, _)| s);
        start.and_then(|s| platforms::reach(&map, &moving, s, &missed))
    };
    if args.json {
        let mut doc = serde_json::to_value(&report)?;
        if let Some(obj) = doc.as_object_mut() {
            obj.insert("level".into(), args.map.level.display().to_string().into());
            let unmodelled: Vec<serde_json::Value> = beside
                .iter()
                .map(|(m, reached)| {
                    let pairs =
                        |cells: &[Cell]| cells.iter().map(|c| [c.col, c.row]).collect::<Vec<_>>();
                    serde_json::json!({
                        "kind": m.kind,
                        "what": m.what,
                        "cells": pairs(&m.cells),
                        "reached": pairs(reached),
                    })
                })
                .collect();
            obj.insert("unmodelled".into(), unmodelled.into());
            obj.insert("moving_platforms".into(), loaded.platforms.len().into());
            if let Some(p) = &timed {
                let json = timed_path_to_json(p, map.physics(), &loaded.platforms);
                if !report.completable {
                    obj.insert("completable_in_time".into(), true.into());
                }
                obj.insert("path_in_time".into(), json);
            }
        }
        outln!("{doc}");
    } else {
        print_report(&args.map.level.display().to_string(), &map, &report);
        let n = loaded.platforms.len();
        if let Some(p) = &timed {
            let what = if report.completable {
                format!("{} is reached too (the map alone misses it)", p.goal)
            } else {
                "the level is completable".to_owned()
            };
            outln!(
                "\nwith its {n} moving platforms, {what}: a path in time from tick {} reaches {} \
                 in {} ticks, boarding a platform {} times",
                p.start_tick,
                p.goal,
                p.ticks(),
                p.boardings()
            );
        } else if !missed.is_empty() && n > 0 {
            let which = if report.completable {
                "the goals the map misses, nearest the start,"
            } else {
                "the goals nearest the start"
            };
            outln!(
                "\nno path in time from tick 0 over its {n} moving platforms reaches {which} either"
            );
        }
        if !beside.is_empty() {
            outln!(
                "\nmechanics the level places but the map does not model (routes through them are missing):"
            );
            for (m, reached) in &beside {
                let at = if reached.is_empty() {
                    "none beside the reachable area".to_owned()
                } else {
                    format!("beside the reachable area at {}", cell_list(reached, 8))
                };
                outln!(
                    "  {}, {}: {} cells ({}); {at}",
                    m.kind,
                    m.what,
                    m.cells.len(),
                    cell_list(&m.cells, 4)
                );
            }
        }
    }
    Ok(if report.completable || timed.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// When some standing cell is out of reach, each unmodelled mechanic with
/// the cells of it within two cells (in both directions) of a reachable
/// standing cell: where the body gets to it, and a route through it may
/// lead on.
fn unmodelled_beside<'m>(
    mechanics: &'m [Unmodelled],
    map: &NavMap,
    r: &Report,
) -> Vec<(&'m Unmodelled, Vec<Cell>)> {
    if r.unreachable.is_empty() {
        return Vec::new();
    }
    let unreachable: HashSet<Cell> = r.unreachable.iter().copied().collect();
    let reachable: HashSet<Cell> = map
        .nodes()
        .iter()
        .copied()
        .filter(|c| !unreachable.contains(c))
        .collect();
    let near = |c: Cell| {
        (-2..=2).any(|dr| (-2..=2).any(|dc| reachable.contains(&Cell::new(c.col + dc, c.row + dr))))
    };
    mechanics
        .iter()
        .map(|m| (m, m.cells.iter().copied().filter(|&c| near(c)).collect()))
        .collect()
}

fn cell_list(cells: &[Cell], max: usize) -> String {
    let mut s: Vec<String> = cells.iter().take(max).map(|c| c.to_string()).collect();
    if cells.len() > max {
        s.push(format!("... ({} more)", cells.len() - max));
    }
    s.join("  ")
}

/// The report as text: the level, reach, regions, traps, a line per goal
/// (or goal area), and the level drawn with the report's marks.
fn print_report(name: &str, map: &NavMap, r: &Report) {
    let level = map.level();
    outln!(
        "{name}: {} x {}, jump height {:.2} tiles, run speed {:.2} tiles/s",
        level.width(),
        level.height(),
        r.jump_height,
        map.physics().run_speed
    );
    outln!(
        "start {}: {} of {} standing cells reachable ({:.1} %)",
        r.start,
        r.reachable_cells,
        r.standing_cells,
        100.0 * r.reachable_fraction
    );
    let sizes: Vec<String> = r
        .region_sizes
        .iter()
        .take(8)
        .map(usize::to_string)
        .collect();
    outln!(
        "regions: {} (largest: {}{}); the start's has {} cells",
        r.regions,
        sizes.join(", "),
        if r.region_sizes.len() > 8 {
            ", ..."
        } else {
            ""
        },
        r.start_region_size
    );
    if r.traps.is_empty() {
        outln!("traps: none (the start can be reached back from every reachable cell)");
    } else {
        outln!(
            "traps: {} cells from which the start cannot be reached back: {}",
            r.traps.len(),
            cell_list(&r.traps, 12)
        );
    }
    outln!("goals:");
    if r.goals.is_empty() {
        outln!("  none (no goal marker and no standing cell in the last 3 columns)");
    }
    for area in goal_areas(&r.goals) {
        if area.len() > 1 {
            outln!("{}", area_line(&area));
        } else {
            outln!("{}", goal_line(area[0]));
        }
    }
    outln!("completable: {}", if r.completable { "yes" } else { "NO" });
    outln!("\n(@ start, $ goal found, ! goal not found, x unreachable standing cell, T trap)");
    out!("{}", draw(map, r));
}

/// One line for a goal on its own: its route when found, else the
/// diagnosis of what is missing (when diagnosed).
fn goal_line(g: &GoalReport) -> String {
    if g.found {
        return format!(
            "  {:<8} found: {:.3} s, {} links",
            g.goal.to_string(),
            g.cost.unwrap_or(0.0),
            g.links.unwrap_or(0)
        );
    }
    let mut line = format!("  {:<8} NOT found", g.goal.to_string());
    if let Some(d) = &g.diagnosis {
        if let Some(n) = d.nearest {
            line += &format!("; nearest reachable cell {n}");
        }
        if d.graph_reachable {
            line += "; linked but no path replayed (knife-edge)";
        } else {
            line += &missing(d);
        }
    }
    line
}

/// What stops a path, for `platnav path`: where the reachable region comes
/// nearest the goal and what would cross the gap, as the diagnosis found
/// by building the map at those values.
pub(crate) fn explain(d: &Diagnosis) -> String {
    let nearest = d
        .nearest
        .map_or_else(|| "nowhere".to_string(), |n| n.to_string());
    if d.graph_reachable {
        return format!(
            "the goal is linked to the start, but no chain of links replayed (a knife-edge \
             chain); nearest reachable cell {nearest}"
        );
    }
    format!(
        "the region the start reaches comes nearest the goal at {nearest}{} (each checked by \
         building the map with it)",
        missing(d)
    )
}

/// What a goal the graph does not reach would need: a higher jump (and
/// the closest move that failed) or a faster run, or that none tried is
/// enough.
fn missing(d: &Diagnosis) -> String {
    let mut text = String::new();
    match (d.needed_jump_height, d.missing_jump_height) {
        (Some(h), Some(m)) => {
            text += &format!("; needs a {h:.2}-tile jump ({m:+.2} tiles");
            if let Some(l) = d.missing_link {
                text += &format!("; closest failed move: {} {} -> {}", l.kind, l.from, l.to);
            }
            text += ")";
        }
        _ => {
            text += &format!("; not reachable even with a {:.2}-tile jump", d.tried_up_to);
        }
    }
    match (d.needed_run_speed, d.missing_run_speed) {
        (Some(v), Some(m)) => {
            text += &format!(", or a {v:.1} tiles/s run ({m:+.1})");
        }
        _ => {
            text += &format!(
                "; no run up to {:.1} tiles/s reaches it",
                d.run_speed_tried_up_to
            );
        }
    }
    if let Some(w) = d.reached_with_wrap {
        text += &format!("; reached if the level's edges meet (--wrap {w})");
    }
    text
}

/// The level with the report's marks.
fn draw(map: &NavMap, r: &Report) -> String {
    let mut grid = level_grid(map.level());
    let mut put = |c: Cell, ch: char| mark(&mut grid, c, ch);
    for &c in &r.unreachable {
        put(c, 'x');
    }
    for &c in &r.traps {
        put(c, 'T');
    }
    for g in &r.goals {
        put(g.goal, if g.found { '$' } else { '!' });
    }
    put(r.start, '@');
    grid_text(grid)
}

/// Goals in areas: goal cells at most 2 cells apart (a goal rectangle
/// snapped to the ground it covers) form one area, reported as one line.
fn goal_areas(goals: &[GoalReport]) -> Vec<Vec<&GoalReport>> {
    let mut area_of: Vec<usize> = (0..goals.len()).collect();
    fn root(a: &mut [usize], mut i: usize) -> usize {
        while a[i] != i {
            a[i] = a[a[i]];
            i = a[i];
        }
        i
    }
    for i in 0..goals.len() {
        for j in i + 1..goals.len() {
            let (a, b) = (goals[i].goal, goals[j].goal);
            if (a.col - b.col).abs() <= 2 && (a.row - b.row).abs() <= 2 {
                let (ri, rj) = (root(&mut area_of, i), root(&mut area_of, j));
                area_of[rj] = ri;
            }
        }
    }
    let mut areas: Vec<Vec<&GoalReport>> = Vec::new();
    let mut index: Vec<Option<usize>> = vec![None; goals.len()];
    for (i, g) in goals.iter().enumerate() {
        let r = root(&mut area_of, i);
        match index[r] {
            Some(k) => areas[k].push(g),
            None => {
                index[r] = Some(areas.len());
                areas.push(vec![g]);
            }
        }
    }
    areas
}

/// One line for a goal area: its extent, and its best reached cell or why
/// none is reached (the diagnosis of the cell needing the least).
fn area_line(area: &[&GoalReport]) -> String {
    let (mut c0, mut r0, mut c1, mut r1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    for g in area {
        c0 = c0.min(g.goal.col);
        r0 = r0.min(g.goal.row);
        c1 = c1.max(g.goal.col);
        r1 = r1.max(g.goal.row);
    }
    let head = format!("  area {c0},{r0}..{c1},{r1} ({} goal cells)", area.len());
    let best = area.iter().filter(|g| g.found).min_by(|a, b| {
        a.cost
            .unwrap_or(f64::MAX)
            .total_cmp(&b.cost.unwrap_or(f64::MAX))
    });
    if let Some(g) = best {
        let found = area.iter().filter(|g| g.found).count();
        return format!(
            "{head} found: {found} reached, nearest {} in {:.3} s, {} links",
            g.goal,
            g.cost.unwrap_or(0.0),
            g.links.unwrap_or(0)
        );
    }
    let least = area
        .iter()
        .filter_map(|g| Some((g, g.diagnosis.as_ref()?)))
        .min_by(|(_, a), (_, b)| {
            let key = |d: &platnav::analysis::Diagnosis| d.missing_jump_height.unwrap_or(f64::MAX);
            key(a).total_cmp(&key(b))
        });
    match least {
        Some((g, d)) => {
            let mut line = format!("{head} NOT found");
            if let Some(n) = d.nearest {
                line += &format!("; nearest reachable cell {n}");
            }
            match (d.needed_jump_height, d.missing_jump_height) {
                (Some(h), Some(m)) => {
                    line += &format!("; {} needs a {h:.2}-tile jump ({m:+.2} tiles)", g.goal);
                }
                _ => line += &format!("; not reachable even with a {:.2}-tile jump", d.tried_up_to),
            }
            line
        }
        None => format!("{head} NOT found"),
    }
}
