//! `platnav bench`'s generated-level rows: how builds scale with the
//! level's size, memory, query latency and throughput, and edits.

use std::sync::Arc;
use std::time::Instant;

use platnav::{
    BuildCache, Cell, Level, LinkOptions, NavMap, Physics, SearchOptions, find_path, search,
};

use super::{
    CliError, EDIT_WHY, Row, edit_row, latencies, ms, p50_p99, percentile, reachable_pairs, row,
};

/// Queries in each timed throughput pass.
const QPS_PASS: usize = 400;

/// The generated-level rows: the first build with a physics profile, then
/// per size (64 x 64 to 256 x 256; 1024 x 1024 and 4096 x 256 unless
/// `quick`) its build, memory, links, queries on `samples` pairs and
/// edits, and how flat the build time per standing cell stays.
pub(crate) fn rows(rows: &mut Vec<Row>, samples: usize, quick: bool) -> Result<(), CliError> {
    let mut sizes = vec![(64, 64), (128, 128), (256, 256)];
    if !quick {
        sizes.extend([(1024, 1024), (4096, 256)]);
    }
    let default = Physics::default();
    // A physics profile's first build also grows its shared template
    // trees: a one-time cost, timed on its own here so that the per-cell
    // figures below measure how builds scale.
    let warm = Level::generate(16, 16, 42)?;
    let t = Instant::now();
    NavMap::build(&warm, &default)?;
    rows.push(row(
        "first build with a physics profile (its template trees), 16 x 16",
        ms(t.elapsed().as_secs_f64()),
        "",
        None,
    ));
    let mut per_cell = Vec::new();
    // The smallest level's build once its caches are grown (see below).
    let mut grown = None;
    for &(w, h) in &sizes {
        let level = Level::generate(w, h, 42)?;
        // Levels up to 256 x 256 take the best of three builds, as the
        // other builds here do; the larger ones run long enough to
        // average the machine's noise out.
        let (mut map, mut b) = cold_build(&level, &warm, &default)?;
        if w * h <= 256 * 256 {
            for _ in 0..2 {
                b = b.min(cold_build(&level, &warm, &default)?.1);
            }
        }
        if grown.is_none() {
            grown = Some(grown_build(&level, &warm, &default)? / map.node_count() as f64);
        }
        per_cell.push(size_rows(rows, (w, h), &map, b, &default));
        query_rows(rows, (w, h), &map, samples);
        if (w, h) == (1024, 1024) {
            rows.push(super::saved::row_for(&map, "1024 x 1024")?);
        }
        // Edits last: they change the map.
        edit_rows(rows, (w, h), &mut map)?;
    }
    let spread = per_cell.iter().copied().fold(0.0, f64::max)
        / per_cell.iter().copied().fold(f64::INFINITY, f64::min);
    let (first, last) = (sizes[0], sizes[sizes.len() - 1]);
    let listed: Vec<String> = per_cell.iter().map(|u| format!("{u:.1}")).collect();
    let grown = grown.unwrap_or(f64::NAN) * 1e6;
    rows.push(
        row(
            format!(
                "build time per standing cell, largest / smallest, {} x {} to {} x {}",
                first.0, first.1, last.0, last.1
            ),
            format!("{spread:.2} ({} us)", listed.join(", ")),
            "< 1.3",
            Some(spread < 1.3),
        )
        .because(format!(
            "each first build grows its caches' branches for the level's terrain, a cost \
             the smallest level spreads over the fewest cells: built again with them \
             grown, {} x {} takes {grown:.1} us a cell",
            first.0, first.1
        )),
    );
    Ok(())
}

/// [`cold_build`]'s build of `level` done again with the same caches (its
/// branches grown): the best of three, in seconds.
fn grown_build(level: &Level, warm: &Level, physics: &Physics) -> Result<f64, CliError> {
    let cache = Arc::new(BuildCache::new());
    let options = LinkOptions::default();
    NavMap::build_cached(warm, physics, &options, &cache)?;
    NavMap::build_cached(level, physics, &options, &cache)?;
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let t = Instant::now();
        NavMap::build_cached(level, physics, &options, &cache)?;
        best = best.min(t.elapsed().as_secs_f64());
    }
    Ok(best)
}

/// Builds `level` and times it, from the caches every timed build starts
/// from: the profile's shared templates grown (by a build of `warm`), no
/// branches grown for an earlier level.
fn cold_build(level: &Level, warm: &Level, physics: &Physics) -> Result<(NavMap, f64), CliError> {
    let cache = Arc::new(BuildCache::new());
    let options = LinkOptions::default();
    NavMap::build_cached(warm, physics, &options, &cache)?;
    let t = Instant::now();
    let map = NavMap::build_cached(level, physics, &options, &cache)?;
    Ok((map, t.elapsed().as_secs_f64()))
}

/// The rows of one size's map, built in `build` seconds: its build time,
/// memory and links per standing cell. Returns the build's microseconds
/// per standing cell.
fn size_rows(
    rows: &mut Vec<Row>,
    (w, h): (usize, usize),
    map: &NavMap,
    build: f64,
    physics: &Physics,
) -> f64 {
    let largest = (w, h) == (1024, 1024);
    let us_per_cell = build * 1e6 / map.node_count().max(1) as f64;
    rows.push(
        row(
            format!("build, {w} x {h} ({} standing cells)", map.node_count()),
            format!("{} ({us_per_cell:.1} us per standing cell)", ms(build)),
            if largest { "< 8 s" } else { "" },
            largest.then_some(build < 8.0),
        )
        .because(format!(
            "every program ({}) is simulated from every standing cell: the body's steps alone (about 1,700 a cell) take about twice the CPU 8 s allows",
            LinkOptions::default().programs_per_cell(physics)
        )),
    );
    let mb = map.memory_bytes() as f64 / (1 << 20) as f64;
    rows.push(row(
        format!("nav-map memory, {w} x {h}"),
        format!("{mb:.1} MB"),
        if largest { "< 256 MB" } else { "" },
        largest.then_some(mb < 256.0),
    ));
    rows.push(row(
        format!("links per standing cell, {w} x {h}"),
        format!(
            "{:.1}",
            map.link_count() as f64 / map.node_count().max(1) as f64
        ),
        "",
        None,
    ));
    us_per_cell
}

/// The rows of one size's queries on `samples` pairs, exact and beam 8,
/// and at 256 x 256 the queries per second.
fn query_rows(rows: &mut Vec<Row>, (w, h): (usize, usize), map: &NavMap, samples: usize) {
    let pairs = reachable_pairs(map, samples, 11);
    let exact = latencies(map, &pairs, &SearchOptions::default());
    let beam = latencies(map, &pairs, &SearchOptions::beam(8));
    let largest = (w, h) == (1024, 1024);
    let p99 = percentile(&exact, 0.99);
    let mut exact_row = row(
        format!("query p50 / p99, {w} x {h}, exact"),
        p50_p99(&exact),
        if largest { "p99 < 1000 us" } else { "" },
        largest.then_some(p99 < 1000.0),
    );
    if largest {
        exact_row = exact_row.because(search_share(map, &pairs));
    }
    rows.push(exact_row);
    rows.push(row(
        format!("query p50 / p99, {w} x {h}, beam 8"),
        p50_p99(&beam),
        "",
        None,
    ));
    if (w, h) == (256, 256) {
        // Pairs not queried before: the replay memo is warm from other
        // queries on this map, as in a game, but no route repeats. The
        // best of three passes, each on new pairs, as the builds take
        // the best of their runs. Passes are as long in quick runs as
        // in full ones: a pass of 100 queries lasts about 10 ms, short
        // enough for the machine's hiccups to decide it.
        let qps = best_qps(map, [13, 17, 19]);
        rows.push(row(
            "queries per second, one core, 256 x 256 (unseen pairs, best of 3 passes)",
            format!("{qps:.0}"),
            ">= 10000",
            Some(qps >= 10_000.0),
        ));
    }
}

/// Why a query takes what it does: the exact search alone on `pairs`
/// (its p50 and p99), and the longest route's ticks, each of which the
/// query performs on the body before it returns the path.
fn search_share(map: &NavMap, pairs: &[(Cell, Cell)]) -> String {
    let opts = SearchOptions::default();
    let mut longest = 0;
    let mut alone: Vec<f64> = pairs
        .iter()
        .filter_map(|&(s, g)| {
            let t = Instant::now();
            let ticks = search::route_ticks(map, s, g, &opts).ok()??;
            longest = longest.max(ticks);
            Some(t.elapsed().as_secs_f64() * 1e6)
        })
        .collect();
    alone.sort_by(f64::total_cmp);
    format!(
        "the search alone takes {}; the rest of a query is performing the path's tape on \
         the body to prove it (up to {longest} ticks a path here), which a faster search \
         does not shorten",
        p50_p99(&alone)
    )
}

/// The rows of one size's edits, at 256 x 256 and 1024 x 1024 (none at
/// other sizes): edit times, and at 256 x 256 the throughput after the
/// edits with the landmark bounds repaired and measured again.
fn edit_rows(
    rows: &mut Vec<Row>,
    (w, h): (usize, usize),
    map: &mut NavMap,
) -> Result<(), CliError> {
    match (w, h) {
        (256, 256) => {
            rows.push(edit_row(
                "single-tile edit, 256 x 256",
                map,
                (1, 23),
                4.0,
                EDIT_WHY,
            )?);
            rows.push(edit_row(
                "8 x 8 brush edit, 256 x 256",
                map,
                (8, 29),
                16.0,
                EDIT_WHY,
            )?);
            let (live, measured) = map.landmark_bounds();
            rows.push(row(
                format!(
                    "queries per second after those edits, landmark bounds repaired ({live} of {measured} live)"
                ),
                format!("{:.0}", best_qps(map, [37, 41, 43])),
                "",
                None,
            ));
            let t = Instant::now();
            map.refresh_bounds();
            rows.push(row(
                "landmark bounds measured again after edits (refresh_bounds), 256 x 256",
                ms(t.elapsed().as_secs_f64()),
                "",
                None,
            ));
            rows.push(row(
                "queries per second after refresh_bounds",
                format!("{:.0}", best_qps(map, [37, 41, 43])),
                "",
                None,
            ));
        }
        (1024, 1024) => {
            rows.push(edit_row(
                "single-tile edit, 1024 x 1024",
                map,
                (1, 31),
                16.0,
                "as at 256 x 256, plus moving the arrays and the landmark table after the edited window (about 110 MB, renumbered as they move, on two threads): about 7 ms at the median",
            )?);
        }
        _ => {}
    }
    Ok(())
}

/// Exact queries per second on one core: the best of a pass per seed,
/// each on pairs not queried before (the replay memo is warm from other
/// queries on the map, as in a game, but no route repeats).
fn best_qps(map: &NavMap, seeds: [u64; 3]) -> f64 {
    let mut qps: f64 = 0.0;
    for seed in seeds {
        let fresh = reachable_pairs(map, QPS_PASS, seed);
        let t = Instant::now();
        let done = fresh
            .iter()
            .filter(|&&(s, g)| find_path(map, s, g, &SearchOptions::default()).is_ok())
            .count();
        qps = qps.max(done as f64 / t.elapsed().as_secs_f64().max(1e-12));
    }
    qps
}
