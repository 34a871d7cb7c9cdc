//! `platnav bench`'s body model rows: SMB 1-1's map built for the NES
//! Mario and for the dash body by driving their own step functions,
//! against the reference body's build, and paths on the NES Mario's map.

use std::time::Instant;

use platnav::model::{BodyModel, ModelMap, dash::DashBody, nes::NesMario};
use platnav::{Level, NavMap, Physics, SearchOptions};

use super::{CliError, Row, best_of, edit_times, ms, p50_p99, percentile, row};

/// Target of a model's SMB 1-1 build, seconds.
const BUILD_TARGET: f64 = 1.0;
/// Target of a single-tile edit to a model's map of SMB 1-1, seconds: a
/// frame or two of a game that edits its level while enemies plan.
const EDIT_TARGET: f64 = 0.030;

/// The rows, when the bench has SMB 1-1.
pub(crate) fn rows(
    rows: &mut Vec<Row>,
    level: Option<&Level>,
    physics: &Physics,
    quick: bool,
) -> Result<(), CliError> {
    let Some(level) = level else {
        return Ok(());
    };
    let runs = if quick { 1 } else { 3 };
    let reference = best_of(runs, || {
        NavMap::build(level, physics)
            .map(|_| ())
            .map_err(CliError::from)
    })?;
    let (nes, map) = model_build(level, NesMario::small(), runs)?;
    rows.push(build_row("NES Mario", &map, nes, reference));
    let (dash, dash_map) = model_build(level, DashBody, runs)?;
    rows.push(build_row("dash body", &dash_map, dash, reference));
    rows.push(query_row(&map, if quick { 20 } else { 60 }));
    let mut map = map;
    rows.push(edit_row(&mut map, nes)?);
    Ok(())
}

/// Single-tile edits to the NES Mario's map of SMB 1-1, against a build of
/// the whole map (`build` seconds).
fn edit_row<M>(map: &mut ModelMap<M>, build: f64) -> Result<Row, CliError>
where
    M: BodyModel + Sync,
    M::State: Send,
{
    let n = 30;
    let (times, rebuilt) = edit_times(map, n, 1, 5)?;
    let p50 = percentile(&times, 0.5);
    Ok(row(
        format!(
            "model map single-tile edit, SMB 1-1, NES Mario (median of {n}; p90 {}; {:.0} nodes rebuilt at the median)",
            ms(percentile(&times, 0.9)),
            percentile(&rebuilt, 0.5)
        ),
        format!("{} ({:.0}x faster than a build)", ms(p50), build / p50.max(1e-12)),
        &format!("< {} ms", EDIT_TARGET * 1e3),
        Some(p50 < EDIT_TARGET),
    )
    .because("a node is generated again when any program from it came within reach of the edit, and a jump's programs reach far"))
}

/// The model's map of `level`, built `runs` times: the fastest build's
/// seconds, and the map.
fn model_build<M: BodyModel + Sync + Clone>(
    level: &Level,
    model: M,
    runs: usize,
) -> Result<(f64, ModelMap<M>), CliError>
where
    M::State: Send,
{
    let mut map = None;
    let secs = best_of(runs, || {
        let built = ModelMap::build(level, model.clone()).map_err(|e| CliError(e.to_string()))?;
        map = Some(built);
        Ok(())
    })?;
    Ok((secs, map.expect("built at least once")))
}

fn build_row<M: BodyModel>(name: &str, map: &ModelMap<M>, secs: f64, reference: f64) -> Row {
    let pass = secs < BUILD_TARGET;
    row(
        format!(
            "model map build, SMB 1-1, {name} ({} standing cells, {} links)",
            map.nodes().len(),
            map.links().len()
        ),
        format!(
            "{} ({:.1}x the reference body's {})",
            ms(secs),
            secs / reference,
            ms(reference)
        ),
        "< 1 s",
        Some(pass),
    )
    .because("every program is performed from every standing cell on the model's own step, with no template or memo")
}

/// Paths between cells spread over the NES Mario's map of SMB 1-1, each
/// performed on the model as it is found.
fn query_row<M: BodyModel>(map: &ModelMap<M>, n: usize) -> Row {
    let nodes = map.nodes();
    let opts = SearchOptions::default();
    let mut times = Vec::new();
    let mut found = 0;
    for i in 0..n {
        let (a, b) = (
            nodes[i * 7 % nodes.len()],
            nodes[(i * 31 + 11) % nodes.len()],
        );
        let t = Instant::now();
        found += usize::from(map.find_path(a, b, &opts).is_ok());
        times.push(t.elapsed().as_secs_f64() * 1e6);
    }
    times.sort_by(f64::total_cmp);
    row(
        format!("model path p50 / p99, SMB 1-1, NES Mario ({found} of {n} pairs found)"),
        p50_p99(&times),
        "",
        None,
    )
}
