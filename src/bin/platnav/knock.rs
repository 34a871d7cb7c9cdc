//! `platnav bench`'s knock chases: followers chasing goals while their
//! bodies are knocked every two seconds, counted, and the follower's
//! per-tick cost on and off plan.

use platnav::{KnockOptions, KnockReport, Level, NavMap, Physics, knock_chases};

use super::{CliError, Row, percentile, row};

/// The off-plan p99 target of a follower tick on SMB 1-1 (microseconds).
const OFF_PLAN_P99_US: f64 = 200.0;

/// Knock chases on SMB 1-1 (when given), the demo level and a generated
/// 64 x 64 level, with every physics preset; a row of counts per pair
/// and the follower's tick times on SMB 1-1 with the `smb` preset.
pub(crate) fn rows(smb11: Option<&Level>) -> Result<Vec<Row>, CliError> {
    let demo: Level = include_str!("../../../levels/demo.txt")
        .parse()
        .map_err(|e| CliError(format!("the demo level: {e}")))?;
    let generated = Level::generate(64, 64, 42)?;
    let mut levels = Vec::new();
    levels.extend(smb11.map(|l| ("SMB 1-1", l)));
    levels.push(("demo", &demo));
    levels.push(("64 x 64", &generated));
    let options = KnockOptions {
        timings: true,
        ..KnockOptions::default()
    };
    let mut rows = vec![row(
        format!(
            "knock chases: {} per level and preset, a knock every {} ticks",
            options.chases, options.interval
        ),
        "",
        "",
        None,
    )];
    let mut timed: Option<KnockReport> = None;
    for (name, level) in levels {
        for preset in Physics::PRESETS {
            let map = NavMap::build(level, &Physics::preset(preset)?)?;
            let r = knock_chases(&map, &options);
            let warned = r.death_list.iter().map(|d| d.warned).min();
            rows.push(row(
                format!("knock chases, {name}, {preset}"),
                format!(
                    "{} arrived, {} died ({} avoidable, {} unannounced{}), {} timed out",
                    r.arrivals,
                    r.deaths,
                    r.avoidable,
                    r.unannounced,
                    warned.map_or(String::new(), |w| format!(", told {w}+ ticks before")),
                    r.timeouts
                ),
                "0 avoidable",
                Some(r.avoidable == 0 && r.unannounced == 0),
            ));
            if name == "SMB 1-1" && *preset == "smb" {
                timed = Some(r);
            }
        }
    }
    if let Some(mut r) = timed {
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
            row(
                format!("follower tick p50 / p99, {what}, SMB 1-1 knock chases"),
                format!(
                    "{:.2} / {:.2} us ({} ticks)",
                    percentile(v, 0.5),
                    percentile(v, 0.99),
                    v.len()
                ),
                target,
                pass,
            )
        };
        rows.push(ticks("on plan", &r.on_plan_us, "", None));
        let p99 = percentile(&off, 0.99);
        rows.push(ticks(
            "off plan",
            &off,
            "p99 < 200 us",
            Some(p99 < OFF_PLAN_P99_US),
        ));
        rows.push(ticks(
            "off plan, recovering or settling",
            &r.off_plan_us,
            "",
            None,
        ));
        rows.push(ticks("off plan, planning a path", &r.planning_us, "", None));
    }
    Ok(rows)
}
