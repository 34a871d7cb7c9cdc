//! Reading levels and physics the same way in every subcommand: the loader
//! options, the one-line load summary, physics files over presets and
//! `--param NAME=VALUE`.

use std::path::Path;

use platnav::{Physics, analysis::Param, formats::LoadOptions, level::LoadedLevel};

use super::{CliError, SourceArgs};

/// The library's loader options from the command line.
pub(crate) fn load_options(args: &SourceArgs) -> LoadOptions {
    LoadOptions::default()
        .with_layer(args.layer.clone())
        .with_rules(args.rules.clone())
        .with_mapping(None)
        .with_legend(args.legend.clone())
        .with_pixels_per_tile(args.pixels_per_tile)
        .with_level(args.level_name.clone())
        .with_wrap(args.wrap)
}

/// Loads a level and, for Tiled and LDtk maps, prints on stderr what marked
/// it: the rules or conventions used and the cell counts.
pub(crate) fn load_level(level: &Path, args: &SourceArgs) -> Result<LoadedLevel, CliError> {
    let opts = load_options(args);
    let loaded = platnav::formats::load_level(level, &opts)?;
    if !loaded.rules_used.is_empty() {
        let how = match opts.rules_file() {
            Some(r) => format!("rules {}", r.display()),
            None => "zero config".to_owned(),
        };
        eprintln!("platnav: {}: {how}: {}", level.display(), loaded.summary());
    }
    Ok(loaded)
}

/// The physics: the preset (default `default`), with a physics file's
/// values over it (a partial file keeps the rest), then each `--param`.
pub(crate) fn load_physics(
    args: &SourceArgs,
    params: &[(Param, f64)],
) -> Result<Physics, CliError> {
    let mut physics = over_preset(args.preset.as_deref(), args.physics.as_deref())?;
    for &(param, value) in params {
        physics = param.apply(&physics, value);
    }
    physics.validate().map_err(|e| {
        if params.is_empty() {
            CliError(e.to_string())
        } else {
            CliError(format!("with --param: {e}"))
        }
    })?;
    Ok(physics)
}

/// The preset (default `default`) with a physics file's values over it, not
/// yet validated.
pub(crate) fn over_preset(preset: Option<&str>, file: Option<&Path>) -> Result<Physics, CliError> {
    let base = Physics::preset(preset.unwrap_or("default"))?;
    match file {
        Some(path) => {
            let text = platnav::io::files::read_text(path)?;
            Physics::from_json_over(&text, &base)
                .map_err(|e| CliError(format!("{}: {e}", path.display())))
        }
        None => Ok(base),
    }
}

/// `--param NAME=VALUE`: one physics parameter (as `sweep` names them).
pub(crate) fn parse_set(s: &str) -> Result<(Param, f64), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("{s:?} is not NAME=VALUE"))?;
    let param = name.trim().parse::<Param>().map_err(|e| e.to_string())?;
    let v = value
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("{value:?} in {s:?} is not a number"))?;
    Ok((param, v))
}
