//! `platnav bench`'s knock chases: followers chasing goals while their
//! bodies are knocked every two seconds, counted, and the follower's
//! per-tick cost on and off plan.

use platnav::{
    Level, NavMap, Physics,
    follow::{KnockOptions, KnockReport, knock_chases},
};

use super::{CliError, Row, percentile, row};

/// The off-plan p99 target of a follower tick on SMB 1-1 (microseconds).
const OFF_PLAN_P99_US: f64 = 200.0;

/// Knock chases on SMB 1-1 (when given), the demo level and a generated
/// 64 x 64 level, with every physics preset; a row of counts per pair
/// and the follower's tick times on SMB 1-1 with the `smb` preset.
pub(crate) fn rows(smb11: Option<&Level>) -> Result<Vec<Row>, CliError> {
    let demo: Level = include_str!("../../../../levels/demo.txt")
        .parse()
        .map_err(|e| CliError(format!("the demo level: {e}")))?;
    let generated = Level::generate(64, 64, 42)?;
    let mut levels = Vec::new();
    levels.extend(smb11.map(|l| ("SMB 1-1", l)));
    levels.push(("demo", &demo));
    levels.push(("64 x 64", &generated));
    let options = KnockOptions::default().with_timings(true);
    let mut rows = vec![row(
        format!(
            "knock chases ({} per level and preset, a knock every {} ticks):",
            options.chases, options.interval
        ),
        "arrived / died / avoidable / unannounced / timed out",
        "",
        None,
    )];
    // The fewest ticks a death was told ahead of time, over every run.
    let mut warned: Option<u32> = None;
    let mut deaths = 0;
    let mut timed: Option<KnockReport> = None;
    for (name, level) in levels {
        for preset in Physics::PRESETS {
            let map = NavMap::build(level, &Physics::preset(preset)?)?;
            let r = knock_chases(&map, &options);
            for d in &r.death_list {
                warned = Some(warned.map_or(d.warned, |w| w.min(d.warned)));
            }
            deaths += r.deaths;
            rows.push(row(
                format!("  {name}, {preset}"),
                format!(
                    "{} / {} / {} / {} / {}",
                    r.arrivals, r.deaths, r.avoidable, r.unannounced, r.timeouts
                ),
                "0 avoidable",
                Some(r.avoidable == 0 && r.unannounced == 0),
            ));
            if name == "SMB 1-1" && *preset == "smb" {
                timed = Some(r);
            }
        }
    }
    rows.push(row(
        format!("knock deaths foretold (FallingToDeath), fewest ticks ahead, of {deaths}"),
        warned.map_or("-".into(), |w| w.to_string()),
        "",
        None,
    ));
    if let Some(r) = timed {
        tick_rows(&mut rows, r);
    }
    Ok(rows)
}

/// The follower's tick times in the knock chases `r` (SMB 1-1, the `smb`
/// preset): on plan, and off plan with its two parts, recovering or
/// settling and planning a path.
fn tick_rows(rows: &mut Vec<Row>, mut r: KnockReport) {
    let sort = |v: &mut Vec<f64>| v.sort_by(f64::total_cmp);
    sort(&mut r.on_plan_us);
    sort(&mut r.off_plan_us);
    let mut off: Vec<f64> = r
        .off_plan_us
        .iter()
        .chain(&r.planning_us)
        .copied()
        .collect();
    sort(&mut off);
    sort(&mut r.planning_us);
    let ticks = |what: &str, v: &[f64], target: &str, pass: Option<bool>| {
        let value = format!(
            "{:.2} / {:.2} us ({} ticks)",
            percentile(v, 0.5),
            percentile(v, 0.99),
            v.len()
        );
        row(what, value, target, pass)
    };
    rows.push(ticks(
        "follower tick p50 / p99 on plan, SMB 1-1 knock chases",
        &r.on_plan_us,
        "",
        None,
    ));
    let p99 = percentile(&off, 0.99);
    rows.push(ticks(
        "follower tick p50 / p99 off plan, SMB 1-1 knock chases",
        &off,
        "p99 < 200 us",
        Some(p99 < OFF_PLAN_P99_US),
    ));
    let of_which = "  of which";
    rows.push(ticks(
        &format!("{of_which} recovering or settling"),
        &r.off_plan_us,
        "",
        None,
    ));
    rows.push(ticks(
        &format!("{of_which} planning a path"),
        &r.planning_us,
        "",
        None,
    ));
}
