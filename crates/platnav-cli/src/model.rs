//! Body models on the command line: `--on-model` of `conform`, and
//! `check --model`, which builds the level's map for the model's own
//! movement and says whether it gets from the start to a goal.

use std::process::ExitCode;
use std::time::Instant;

use platnav::level::LoadedLevel;
use platnav::model::{BodyModel, ModelMap, dash::DashBody, nes::NesMario};
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
const SNAP: i32 = 8;

/// `check --model`: exit code 0 when the model gets from the start to a
/// goal, 1 when not.
pub(crate) fn check(
    name: ModelName,
    loaded: &LoadedLevel,
    from: Option<Cell>,
    to: &[Cell],
    json: bool,
) -> Result<ExitCode, CliError> {
    match name {
        ModelName::NesSmall => check_on(NesMario::small(), loaded, from, to, json),
        ModelName::NesBig => check_on(NesMario::big(), loaded, from, to, json),
        ModelName::Dash => check_on(DashBody, loaded, from, to, json),
    }
}

fn check_on<M: BodyModel + Sync>(
    model: M,
    loaded: &LoadedLevel,
    from: Option<Cell>,
    to: &[Cell],
    json: bool,
) -> Result<ExitCode, CliError>
where
    M::State: Send,
{
    let name = model.name();
    let t = Instant::now();
    let map = ModelMap::build(&loaded.level, model).map_err(|e| CliError(e.to_string()))?;
    let built = t.elapsed();
    let nodes = map.nodes();
    let start = match from.or(loaded.spawn) {
        Some(c) => snap(nodes, c).ok_or_else(|| {
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
    let farthest = reach.iter().copied().max_by_key(|c| (c.col, -c.row));
    let seconds = |ticks: usize| ticks as f64 * map.model().dt();
    if json {
        let doc = serde_json::json!({
            "model": name,
            "nodes": nodes.len(),
            "links": map.links().len(),
            "build_ms": built.as_secs_f64() * 1e3,
            "start": [start.col, start.row],
            "reached": reach.len(),
            "farthest": farthest.map(|c| [c.col, c.row]),
            "goal": found.as_ref().map(|(g, _)| [g.col, g.row]),
            "links_on_path": found.as_ref().map(|(_, p)| p.steps().len()),
            "ticks": found.as_ref().map(|(_, p)| p.inputs().len()),
        });
        outln!("{doc}");
    } else {
        outln!(
            "{name}: {} standing cells, {} links (built in {:.0} ms)",
            nodes.len(),
            map.links().len(),
            built.as_secs_f64() * 1e3
        );
        match &found {
            Some((g, p)) => outln!(
                "from {start} to {g}: finished in {} links, {} ticks ({:.1} s), performed on the model",
                p.steps().len(),
                p.inputs().len(),
                seconds(p.inputs().len())
            ),
            None => outln!(
                "from {start}: no goal reached; the start reaches {} cells, the farthest right {}",
                reach.len(),
                farthest.map_or("none".into(), |c| c.to_string())
            ),
        }
    }
    Ok(if found.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The cell of `nodes` nearest `c` within [`SNAP`] cells.
fn snap(nodes: &[Cell], c: Cell) -> Option<Cell> {
    nodes
        .iter()
        .copied()
        .filter(|n| (n.col - c.col).abs().max((n.row - c.row).abs()) <= SNAP)
        .min_by_key(|n| {
            (
                (n.col - c.col).pow(2) + (n.row - c.row).pow(2),
                n.row,
                n.col,
            )
        })
}

/// The goals: `to`, else the level's goal markers, snapped; else the
/// cells of the last 3 columns.
fn goals<M: BodyModel>(map: &ModelMap<M>, loaded: &LoadedLevel, to: &[Cell]) -> Vec<Cell> {
    let marked = if to.is_empty() { &loaded.goals } else { to };
    let mut goals: Vec<Cell> = marked
        .iter()
        .filter_map(|&g| snap(map.nodes(), g))
        .collect();
    if marked.is_empty() {
        let first = map.level().width() as i32 - 3;
        goals = map
            .nodes()
            .iter()
            .copied()
            .filter(|c| c.col >= first)
            .collect();
    }
    goals.sort_unstable();
    goals.dedup();
    goals
}
