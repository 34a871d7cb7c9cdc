//! Body models on the command line: `--on-model` of `conform`, and
//! `check --model` and `path --model`, which build the level's map for
//! the model's own movement and find a path from the start to a goal.

use std::process::ExitCode;
use std::time::Instant;

use platnav::level::LoadedLevel;
use platnav::model::{BodyModel, ModelMap, ModelPath, dash::DashBody, nes::NesMario};
use platnav::{Cell, SearchOptions};

use super::CliError;

/// The body models the command line names.
#[derive(Clone, Copy, clap::ValueEnum)]
pub(crate) enum ModelName {
    /// Small Mario (`platnav::model::nes`).
    NesSmall,
    /// Super Mario, 32 pixels tall.
    NesBig,
    /// The dash body (`platnav::model::dash`).
    Dash,
}

/// How far (cells) a start or goal the model does not stand on is moved
/// to one it does.
const SNAP: u32 = 8;

/// What `check --model` prints, or `path --model`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Report {
    /// The map, and whether a goal is reached.
    Check,
    /// The path, link by link (with `--json`, its inputs).
    Path,
}

/// `check --model` and `path --model`: exit code 0 when the model gets
/// from the start to a goal, 1 when not.
pub(crate) fn run(
    name: ModelName,
    loaded: &LoadedLevel,
    (from, to): (Option<Cell>, &[Cell]),
    report: Report,
    json: bool,
) -> Result<ExitCode, CliError> {
    let ask = (from, to, report, json);
    match name {
        ModelName::NesSmall => run_on(NesMario::small(), loaded, ask),
        ModelName::NesBig => run_on(NesMario::big(), loaded, ask),
        ModelName::Dash => run_on(DashBody, loaded, ask),
    }
}

/// A model's map, the start, what it reaches, and the path to the first
/// goal it finds one to.
struct Solved<M: BodyModel> {
    map: ModelMap<M>,
    built_ms: f64,
    start: Cell,
    reach: Vec<Cell>,
    found: Option<(Cell, ModelPath)>,
}

fn run_on<M: BodyModel + Sync>(
    model: M,
    loaded: &LoadedLevel,
    (from, to, report, json): (Option<Cell>, &[Cell], Report, bool),
) -> Result<ExitCode, CliError>
where
    M::State: Send,
{
    let solved = solve(model, loaded, from, to)?;
    match (report, json) {
        (Report::Check, true) => outln!("{}", check_json(&solved)),
        (Report::Check, false) => print_check(&solved),
        (Report::Path, true) => outln!("{}", path_json(&solved)),
        (Report::Path, false) => print_path(&solved),
    }
    Ok(if solved.found.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn solve<M: BodyModel + Sync>(
    model: M,
    loaded: &LoadedLevel,
    from: Option<Cell>,
    to: &[Cell],
) -> Result<Solved<M>, CliError>
where
    M::State: Send,
{
    let name = model.name();
    let t = Instant::now();
    let map = ModelMap::build(&loaded.level, model).map_err(|e| CliError(e.to_string()))?;
    let built_ms = t.elapsed().as_secs_f64() * 1e3;
    let nodes = map.nodes();
    let start = match from.or(loaded.spawn) {
        Some(c) => map.snap(c, SNAP).ok_or_else(|| {
            CliError(format!(
                "{name} stands on no cell within {SNAP} cells of the start {c}"
            ))
        })?,
        None => *nodes
            .iter()
            .min_by_key(|c| ((c.col - 2).abs(), -c.row, c.col))
            .expect("a built map has a node"),
    };
    let goals = goals(&map, loaded, to);
    if goals.is_empty() {
        return Err(CliError(format!("{name} stands on no cell near the goals")));
    }
    let reach = map.reachable(start);
    let opts = SearchOptions::default();
    let found = goals
        .iter()
        .filter(|g| reach.contains(g))
        .find_map(|&g| map.find_path(start, g, &opts).ok().map(|p| (g, p)));
    if let Some((g, p)) = &found {
        // The path was performed on the model; perform it once more.
        if map.perform(start, p.inputs()) != Some(*g) {
            return Err(CliError(format!("the path to {g} did not perform again")));
        }
    }
    Ok(Solved {
        map,
        built_ms,
        start,
        reach,
        found,
    })
}

fn farthest(reach: &[Cell]) -> Option<Cell> {
    reach.iter().copied().max_by_key(|c| (c.col, -c.row))
}

fn check_json<M: BodyModel>(s: &Solved<M>) -> serde_json::Value {
    let found = s.found.as_ref();
    serde_json::json!({
        "model": s.map.model().name(),
        "nodes": s.map.nodes().len(),
        "links": s.map.links().len(),
        "build_ms": s.built_ms,
        "start": [s.start.col, s.start.row],
        "reached": s.reach.len(),
        "farthest": farthest(&s.reach).map(|c| [c.col, c.row]),
        "goal": found.map(|(g, _)| [g.col, g.row]),
        "links_on_path": found.map(|(_, p)| p.steps().len()),
        "ticks": found.map(|(_, p)| p.inputs().len()),
    })
}

fn print_check<M: BodyModel>(s: &Solved<M>) {
    outln!(
        "{}: {} standing cells, {} links (built in {:.0} ms)",
        s.map.model().name(),
        s.map.nodes().len(),
        s.map.links().len(),
        s.built_ms
    );
    match &s.found {
        Some((g, p)) => outln!(
            "from {} to {g}: finished in {} links, {} ticks ({:.1} s), performed on the model",
            s.start,
            p.steps().len(),
            p.inputs().len(),
            p.inputs().len() as f64 * s.map.model().dt()
        ),
        None => print_unreached(s),
    }
}

fn print_unreached<M: BodyModel>(s: &Solved<M>) {
    outln!(
        "from {}: no goal reached; the start reaches {} cells, the farthest right {}",
        s.start,
        s.reach.len(),
        farthest(&s.reach).map_or("none".into(), |c| c.to_string())
    );
}

/// The path as JSON: its steps, and its inputs as `[move, jump, down]`.
fn path_json<M: BodyModel>(s: &Solved<M>) -> serde_json::Value {
    let Some((g, p)) = &s.found else {
        return serde_json::json!({
            "found": false,
            "model": s.map.model().name(),
            "start": [s.start.col, s.start.row],
            "farthest": farthest(&s.reach).map(|c| [c.col, c.row]),
        });
    };
    let steps: Vec<serde_json::Value> = p
        .steps()
        .iter()
        .map(|st| {
            serde_json::json!({
                "kind": st.kind.name(),
                "from": [st.from.col, st.from.row],
                "to": [st.to.col, st.to.row],
                "ticks": st.ticks,
            })
        })
        .collect();
    let inputs: Vec<serde_json::Value> = p
        .inputs()
        .iter()
        .map(|i| serde_json::json!([i.move_x, u8::from(i.jump), u8::from(i.down)]))
        .collect();
    serde_json::json!({
        "found": true,
        "model": s.map.model().name(),
        "dt": s.map.model().dt(),
        "start": [s.start.col, s.start.row],
        "goal": [g.col, g.row],
        "ticks": p.inputs().len(),
        "steps": steps,
        "inputs": inputs,
    })
}

fn print_path<M: BodyModel>(s: &Solved<M>) {
    let Some((g, p)) = &s.found else {
        outln!("no path on the {} model", s.map.model().name());
        print_unreached(s);
        return;
    };
    outln!(
        "path {} -> {g}: {:.3} s, {} ticks, {} links, performed on the {} model",
        s.start,
        p.inputs().len() as f64 * s.map.model().dt(),
        p.inputs().len(),
        p.steps().len(),
        s.map.model().name()
    );
    for st in p.steps() {
        outln!("{}", super::step_line(st.kind, (st.from, st.to), st.ticks));
    }
}

/// The goals: `to`, else the level's goal markers, snapped; else the
/// cells of the last 3 columns.
fn goals<M: BodyModel>(map: &ModelMap<M>, loaded: &LoadedLevel, to: &[Cell]) -> Vec<Cell> {
    let marked = if to.is_empty() { &loaded.goals } else { to };
    let mut goals: Vec<Cell> = marked.iter().filter_map(|&g| map.snap(g, SNAP)).collect();
    if marked.is_empty() {
        goals = platnav::analysis::last_columns(map.nodes(), map.level().width());
    }
    goals.sort_unstable();
    goals.dedup();
    goals
}
