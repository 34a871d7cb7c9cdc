//! `platnav fit`: a physics profile fitted to a player's recorded
//! trajectory (a CSV of positions and inputs, one row per tick), printed
//! as a physics file in the game's pixels.

use std::path::{Path as FsPath, PathBuf};

use clap::Args;
use platnav::analysis::{Sample, fit};
use platnav::{Input, Physics};

use super::CliError;
use super::source::over_preset;

#[derive(Args)]
pub(crate) struct FitArgs {
    /// The recording: a CSV whose header names `x` and `y` (pixels, y
    /// down), `jump` (1/0 or true/false) and `move` (-1, 0, 1) or `left` and
    /// `right` (1/0); optionally `down` and `tick` (which must count up by
    /// one); one row per tick, in order.
    track: PathBuf,
    /// Pixels per tile.
    #[arg(long)]
    tile: f64,
    /// Ticks per second of the recording.
    #[arg(long, default_value_t = 60.0)]
    fps: f64,
    /// The recording's y axis points up (as Unity's does).
    #[arg(long)]
    y_up: bool,
    /// The preset whose values the parameters the recording does not show
    /// keep (and the body's size): default, agile, smb or sq2.
    #[arg(long)]
    preset: Option<String>,
    /// A physics file over the preset (the body's size in the game's
    /// pixels, say).
    #[arg(long)]
    physics: Option<PathBuf>,
}

/// `platnav fit`: the profile on stdout as JSON in pixels, what was fitted
/// and how well it predicts the recording on stderr.
pub(crate) fn run(args: &FitArgs) -> Result<(), CliError> {
    let ok = |v: f64| v.is_finite() && v > 0.0;
    if !ok(args.tile) || !ok(args.fps) || args.fps < 1.0 {
        return Err(CliError(format!(
            "--tile {} and --fps {} must be positive numbers (--fps at least 1)",
            args.tile, args.fps
        )));
    }
    let base = over_preset(args.preset.as_deref(), args.physics.as_deref())?;
    let samples = read_track(&args.track, args.tile, args.y_up)?;
    let f = fit(&samples, 1.0 / args.fps, &base)
        .map_err(|e| CliError(format!("{}: {e}", args.track.display())))?;
    outln!("{}", to_px_json(&f.physics, args.tile));
    let kept: Vec<&str> = FITTED
        .iter()
        .copied()
        .filter(|n| !f.fitted.contains(n))
        .collect();
    let px = |tiles: f64| tiles * args.tile;
    eprintln!(
        "platnav: {}: fitted {}; kept from the base: {}; {} ticks of free motion predicted: \
         typical deviation {:.3} px, largest {:.3} px on line {}",
        args.track.display(),
        f.fitted.join(", "),
        if kept.is_empty() {
            "none".into()
        } else {
            kept.join(", ")
        },
        f.predicted,
        px(f.typical),
        px(f.worst.0),
        f.worst.1 + 2
    );
    Ok(())
}

/// The parameters `fit` can fit, in its order.
const FITTED: [&str; 8] = [
    "run_speed",
    "ground_accel",
    "air_accel",
    "gravity",
    "jump_speed",
    "jump_cut_speed",
    "max_fall_speed",
    "air_jumps",
];

/// The profile as a physics file in pixels (`"units": "px"`).
fn to_px_json(p: &Physics, tile: f64) -> String {
    let px = |v: f64| serde_json::json!(v * tile);
    serde_json::json!({
        "units": "px",
        "tile": tile,
        "w": px(p.w),
        "h": px(p.h),
        "run_speed": px(p.run_speed),
        "ground_accel": px(p.ground_accel),
        "air_accel": px(p.air_accel),
        "gravity": px(p.gravity),
        "jump_speed": px(p.jump_speed),
        "jump_cut_speed": px(p.jump_cut_speed),
        "max_fall_speed": px(p.max_fall_speed),
        "air_jumps": p.air_jumps,
        "dt": p.dt,
    })
    .to_string()
}

/// The columns of a recording.
struct Columns {
    x: usize,
    y: usize,
    jump: usize,
    /// `move`, or `left` and `right`.
    moves: Result<usize, (usize, usize)>,
    down: Option<usize>,
    tick: Option<usize>,
}

impl Columns {
    fn of(header: &csv::StringRecord) -> Result<Self, String> {
        let find = |name: &str| {
            header
                .iter()
                .position(|h| h.trim().eq_ignore_ascii_case(name))
        };
        let need = |name: &str| find(name).ok_or(format!("the header has no {name:?} column"));
        let moves = match (find("move"), find("left"), find("right")) {
            (Some(m), _, _) => Ok(m),
            (None, Some(l), Some(r)) => Err((l, r)),
            _ => {
                return Err(
                    "the header has no \"move\" column (nor \"left\" and \"right\")".into(),
                );
            }
        };
        Ok(Columns {
            x: need("x")?,
            y: need("y")?,
            jump: need("jump")?,
            moves,
            down: find("down"),
            tick: find("tick"),
        })
    }
}

/// Reads a recording into samples in tiles, y down.
fn read_track(path: &FsPath, tile: f64, y_up: bool) -> Result<Vec<Sample>, CliError> {
    let text = platnav::io::files::read_text(path)?;
    let err = |line: u64, m: String| CliError(format!("{} line {line}: {m}", path.display()));
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let header = reader.headers().map_err(|e| err(1, e.to_string()))?.clone();
    let cols = Columns::of(&header).map_err(|m| err(1, m))?;
    let mut samples = Vec::new();
    let mut last_tick: Option<i64> = None;
    for (i, row) in reader.records().enumerate() {
        let line = i as u64 + 2;
        let row = row.map_err(|e| err(line, e.to_string()))?;
        let (tick, mut sample) = cols.sample(&row, tile).map_err(|m| err(line, m))?;
        if let (Some(t), Some(last)) = (tick, last_tick)
            && t != last + 1
        {
            return Err(err(line, format!("tick {t} does not follow {last}")));
        }
        last_tick = tick.or(last_tick);
        if y_up {
            sample.y = -sample.y;
        }
        samples.push(sample);
    }
    Ok(samples)
}

impl Columns {
    /// One row: its tick (if the recording has them) and its sample.
    fn sample(&self, row: &csv::StringRecord, tile: f64) -> Result<(Option<i64>, Sample), String> {
        let field = |c: usize| row.get(c).unwrap_or("");
        let num = |c: usize, name: &str| {
            field(c)
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("{name} {:?} is not a finite number", field(c)))
        };
        let flag = |c: usize, name: &str| match field(c).to_ascii_lowercase().as_str() {
            "1" | "true" | "yes" => Ok(true),
            "0" | "false" | "no" | "" => Ok(false),
            other => Err(format!("{name} {other:?} is not 1/0 or true/false")),
        };
        let tick = self
            .tick
            .map(|c| num(c, "tick"))
            .transpose()?
            .map(|t| t as i64);
        let move_x = match self.moves {
            Ok(c) => match field(c) {
                "-1" => -1,
                "0" | "" => 0,
                "1" | "+1" => 1,
                other => return Err(format!("move {other:?} is not -1, 0 or 1")),
            },
            Err((l, r)) => i8::from(flag(r, "right")?) - i8::from(flag(l, "left")?),
        };
        let down = self
            .down
            .map(|c| flag(c, "down"))
            .transpose()?
            .unwrap_or(false);
        let input = Input::new(move_x, flag(self.jump, "jump")?, down);
        let (x, y) = (num(self.x, "x")? / tile, num(self.y, "y")? / tile);
        Ok((tick, Sample { input, x, y }))
    }
}
