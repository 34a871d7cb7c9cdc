//! `platnav bench`'s moving platform rows: a 200 x 15 level with six
//! platforms, built against the same level with them frozen into one-way
//! tiles where they start, paths in time across its chasms (with a
//! planner kept across the queries, and each afresh), and the timed
//! follower's cost per tick.

use std::time::Instant;

use platnav::follow::{TimedFollowState, TimedFollower};
use platnav::level::{Platform, Platforms};
use platnav::search::timed::{TimedOptions, TimedPlanner, find_path_timed};
use platnav::{Body, Cell, Level, NavMap, Physics, Tile};

use super::{CliError, Row, best_of, p50_p99, row};

/// Target of the build with platforms against the frozen build.
const BUILD_RATIO_TARGET: f64 = 3.0;
/// Target of a path's p50, microseconds.
const QUERY_TARGET_US: f64 = 200.0;

/// The rows.
pub(crate) fn rows(rows: &mut Vec<Row>, quick: bool) -> Result<(), CliError> {
    let p = Physics::default();
    let (level, lifts) = Level::generate_with_platforms(200, 15, 6, 1).map_err(CliError::from)?;
    let frozen = frozen(&level, &lifts);
    let runs = if quick { 3 } else { 10 };
    let mut built = None;
    let with = best_of(runs, || {
        let map = NavMap::build(&level, &p).map_err(CliError::from)?;
        let platforms = Platforms::new(lifts.clone(), p.dt).map_err(|e| CliError(e.to_string()))?;
        built = Some((map, platforms));
        Ok(())
    })?;
    let without = best_of(runs, || {
        NavMap::build(&frozen, &p)
            .map(|_| ())
            .map_err(CliError::from)
    })?;
    let (map, platforms) = built.expect("built at least once");
    let ratio = with / without;
    rows.push(
        row(
            "build, 200 x 15, 6 moving platforms, against them frozen",
            format!(
                "{ratio:.2}x ({:.1} ms / {:.1} ms)",
                with * 1e3,
                without * 1e3
            ),
            "< 3x",
            Some(ratio < BUILD_RATIO_TARGET),
        )
        .because("the platforms' links are performed when a search reaches them, not built"),
    );
    let crossings: Vec<(Cell, Cell)> = lifts.iter().map(|m| ledges(&level, m)).collect();
    rows.extend(query_rows(&map, &platforms, &crossings, 8));
    rows.push(follower_row(&map, &platforms, &crossings));
    Ok(())
}

/// `level` with each platform a row of one-way tiles where it is on tick 0.
fn frozen(level: &Level, lifts: &[Platform]) -> Level {
    let mut l = level.clone();
    for m in lifts {
        let [x, y] = m.points[0];
        for c in 0..m.width as i32 {
            l.set(
                Cell::new(x.floor() as i32 + c, y.floor() as i32),
                Tile::ONE_WAY,
            );
        }
    }
    l
}

/// The cells on either side of a generated chasm.
fn ledges(level: &Level, lift: &Platform) -> (Cell, Cell) {
    let xs = lift.points.iter().map(|p| p[0]);
    let left = xs.clone().fold(f64::INFINITY, f64::min) as i32;
    let right = xs.fold(f64::NEG_INFINITY, f64::max) as i32 + lift.width as i32;
    let row = level.height() as i32 - 3;
    (Cell::new(left - 2, row), Cell::new(right + 1, row))
}

/// Paths across each chasm, from `starts` start ticks each: each query
/// afresh (`find_path_timed`), and with one planner kept across them all,
/// as a game keeps one per level.
fn query_rows(
    map: &NavMap,
    platforms: &Platforms,
    crossings: &[(Cell, Cell)],
    starts: u64,
) -> [Row; 2] {
    let opts = TimedOptions::default();
    let planner = TimedPlanner::new(map, platforms, opts);
    let (mut afresh, mut kept, mut first) = (Vec::new(), Vec::new(), Vec::new());
    let (mut found, mut found_kept) = (0, 0);
    // Afresh first, then the planner's: each run keeps the caches warm
    // with its own data, as a game's queries would.
    for &(a, b) in crossings {
        for k in 0..starts {
            let t = Instant::now();
            found += usize::from(find_path_timed(map, platforms, a, k * 97, b, &opts).is_ok());
            afresh.push(t.elapsed().as_secs_f64() * 1e6);
        }
    }
    for &(a, b) in crossings {
        for k in 0..starts {
            let t = Instant::now();
            found_kept += usize::from(planner.find_path(a, k * 97, b).is_ok());
            let us = t.elapsed().as_secs_f64() * 1e6;
            kept.push(us);
            if k == 0 {
                first.push(us);
            }
        }
    }
    let n = afresh.len();
    let p50 = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let first_p50 = p50(&mut first);
    let kept_p50 = p50(&mut kept);
    p50(&mut afresh);
    [
        row(
            format!(
                "path in time p50 / p99, across a chasm on its platform, one planner kept \
                 ({found_kept} of {n} found; the first across each chasm, which fills it: \
                 p50 {:.1} ms)",
                first_p50 / 1e3
            ),
            p50_p99(&kept),
            "p50 < 200 us",
            Some(kept_p50 < QUERY_TARGET_US),
        )
        .because(
            "the first query across a chasm fills the planner for a whole cycle of its \
             platform, and the queries after it are too few to outweigh those",
        ),
        row(
            format!("path in time p50 / p99, each query afresh ({found} of {n} found)"),
            p50_p99(&afresh),
            "",
            None,
        ),
    ]
}

/// The timed follower across each chasm: its cost per tick.
fn follower_row(map: &NavMap, platforms: &Platforms, crossings: &[(Cell, Cell)]) -> Row {
    let (level, p) = (map.level(), map.physics());
    let mut times = Vec::new();
    for &(a, b) in crossings {
        let mut body = Body::start(level, a, p);
        let mut follower = TimedFollower::new(TimedOptions::default());
        for tick in 0..3_000 {
            let t = Instant::now();
            let input = follower.next_input(map, platforms, &body, tick, b);
            times.push(t.elapsed().as_secs_f64() * 1e6);
            body.step_moving(level, platforms, tick, p, input);
            if body.stands_on(b) && follower.state() == TimedFollowState::Idle {
                break;
            }
        }
    }
    let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
    times.sort_by(f64::total_cmp);
    let plans = times.iter().filter(|&&t| t > 100.0).count();
    row(
        format!(
            "timed follower tick, mean / max ({} ticks, {plans} over 100 us: its plans)",
            times.len()
        ),
        format!("{mean:.1} / {:.0} us", times.last().copied().unwrap_or(0.0)),
        "",
        None,
    )
}
