//! `platnav conform`: how far another physics profile (a game's own
//! tuning), or a body model with movement of its own, is from the one a
//! map is built with: which links its body does not perform.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use platnav::analysis::{self, Conformance};
use platnav::model::{dash::DashBody, nes::NesMario};

use super::model::ModelName;
use super::{CliError, MapArgs, build, source};

#[derive(Args)]
pub(crate) struct ConformArgs {
    #[command(flatten)]
    map: MapArgs,
    /// The profile to perform the links on: a preset name (default, agile,
    /// smb, sq2)...
    #[arg(long = "on-preset", value_name = "PRESET")]
    on_preset: Option<String>,
    /// ... with a physics file's values over it (the same format as
    /// --physics), or a physics file alone (over `default`).
    #[arg(long = "on-physics", value_name = "FILE")]
    on_physics: Option<PathBuf>,
    /// Or a body model with movement of its own: Super Mario Bros.'s
    /// Mario as the NES moves him, small or big, or the dash body.
    #[arg(long = "on-model", value_enum, conflicts_with_all = ["on_preset", "on_physics"])]
    on_model: Option<ModelName>,
    /// Failures to list (0 for none).
    #[arg(long, default_value_t = 10)]
    show: usize,
    /// Print the report as JSON, every failure included.
    #[arg(long)]
    json: bool,
}

/// Exit code 0 when the other profile performs every link, 1 when it does
/// not.
pub(crate) fn run(args: &ConformArgs) -> Result<ExitCode, CliError> {
    if let Some(model) = args.on_model {
        let (map, _) = build(&args.map)?;
        let report = match model {
            ModelName::NesSmall => analysis::conformance_on(&map, &NesMario::small()),
            ModelName::NesBig => analysis::conformance_on(&map, &NesMario::big()),
            ModelName::Dash => analysis::conformance_on(&map, &DashBody),
        };
        return finish(args, &report);
    }
    if args.on_preset.is_none() && args.on_physics.is_none() {
        return Err(CliError(
            "conform needs the body to perform the links on: --on-preset, --on-physics (or both), or --on-model"
                .into(),
        ));
    }
    let other = source::over_preset(args.on_preset.as_deref(), args.on_physics.as_deref())?;
    // A bad profile is named before the map is built, not after.
    other.validate().map_err(|e| {
        let what = args
            .on_physics
            .as_ref()
            .map_or("--on-preset".to_owned(), |p| p.display().to_string());
        CliError(format!("{what}: {e}"))
    })?;
    let (map, _) = build(&args.map)?;
    let report = analysis::conformance(&map, &other)?;
    finish(args, &report)
}

/// Prints the report; its exit code.
fn finish(args: &ConformArgs, report: &Conformance) -> Result<ExitCode, CliError> {
    if args.json {
        outln!("{}", serde_json::to_value(report)?);
    } else {
        print_report(report, args.show);
    }
    Ok(if report.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print_report(r: &Conformance, show: usize) {
    outln!(
        "{} of {} links performed ({:.1} %)",
        r.performed,
        r.links,
        100.0 * r.fraction()
    );
    for k in &r.by_kind {
        outln!(
            "  {:<12} {:>7} of {:>7}",
            k.kind.to_string(),
            k.performed,
            k.links
        );
    }
    if show == 0 || r.failures.is_empty() {
        return;
    }
    outln!("not performed (first {}):", show.min(r.failures.len()));
    for f in r.failures.iter().take(show) {
        let outcome = match (f.died_at, f.ends_on) {
            (Some(t), _) => format!("dies on tick {t}"),
            (None, Some(c)) => format!("ends on {c}"),
            (None, None) => format!(
                "ends with its feet at {:.2}, {:.2}, standing on no cell",
                f.feet[0], f.feet[1]
            ),
        };
        outln!(
            "  {:<12} {} -> {}: {outcome}",
            f.kind.to_string(),
            f.from,
            f.to
        );
    }
}
