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

impl super::MapArgs {
    /// The level and the options that choose its map, as they would be
    /// typed again: for a hint that names another command on the same map.
    pub(crate) fn typed(&self) -> String {
        let s = &self.source;
        let path = |p: &Option<std::path::PathBuf>| p.as_ref().map(|p| p.display().to_string());
        let options = [
            ("--preset", s.preset.clone()),
            ("--physics", path(&s.physics)),
            ("--legend", path(&s.legend)),
            ("--layer", s.layer.clone()),
            ("--rules", path(&s.rules)),
            ("--level", s.level_name.clone()),
            (
                "--pixels-per-tile",
                s.pixels_per_tile.map(|n| n.to_string()),
            ),
            ("--wrap", s.wrap.map(|w| w.to_string())),
            ("--map", path(&self.map)),
        ];
        let mut words = vec![shell_word(&self.level.display().to_string())];
        for (flag, value) in options {
            if let Some(v) = value {
                words.extend([flag.to_string(), shell_word(&v)]);
            }
        }
        for (param, v) in &self.params {
            words.extend([
                "--param".to_string(),
                shell_word(&format!("{}={v}", param.name())),
            ]);
        }
        if self.verify {
            words.push("--verify".into());
        }
        if self.jumps != platnav::JumpVariety::Full {
            words.extend(["--jumps".to_string(), self.jumps.name().to_string()]);
        }
        words.join(" ")
    }
}

/// `s` as one word of a POSIX shell command: as it is when it holds only
/// characters no shell treats specially, else in single quotes.
fn shell_word(s: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./,=:+@%".contains(c);
    if !s.is_empty() && s.chars().all(plain) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::shell_word;

    #[test]
    fn words_a_shell_would_split_or_expand_are_quoted() {
        assert_eq!(
            shell_word("levels/sq2/level_01.tmx"),
            "levels/sq2/level_01.tmx"
        );
        assert_eq!(shell_word("run_speed=4.5"), "run_speed=4.5");
        assert_eq!(shell_word("my level.txt"), "'my level.txt'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word("$HOME"), "'$HOME'");
        assert_eq!(shell_word(""), "''");
    }
}
