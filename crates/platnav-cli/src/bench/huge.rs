//! `platnav bench`'s huge-world rows: a generated 4,200 x 1,200 world (the
//! size of Terraria's small world) as a lazy map, queried before it is
//! built, and with `--huge` built whole in the background, and its
//! saved map opened lazily.

use std::time::Instant;

use platnav::level::SplitMix64;
use platnav::{Cell, LazyMap, Level, Path, Physics, SearchOptions};

use super::{CliError, Row, ms, p50_p99, percentile, row};

const WIDTH: usize = 4200;
const HEIGHT: usize = 1200;
/// How far apart the first query's cells are, in columns.
const APART: i32 = 200;
/// The queries after the first.
const NEXT: usize = 100;

/// The huge-world rows; `whole` adds the background build of the rest and
/// the full map's memory (minutes on two cores).
pub(crate) fn rows(rows: &mut Vec<Row>, whole: bool) -> Result<(), CliError> {
    let level = Level::generate(WIDTH, HEIGHT, 42)?;
    let physics = Physics::default();
    let opts = SearchOptions::default();
    let t = Instant::now();
    let mut lazy = LazyMap::new(&level, &physics)?;
    let classified = t.elapsed().as_secs_f64();
    let (start, goal) = far_pair(&lazy)?;
    let path = lazy.find_path(start, goal, &opts)?;
    let first = t.elapsed().as_secs_f64();
    let built = lazy.built_count();
    let per_node = (first - classified) / built.max(1) as f64;
    rows.push(
        row(
            format!(
                "huge world {WIDTH} x {HEIGHT}, lazy map: level to the first path, \
                 {start} to {goal} ({built} nodes built)"
            ),
            ms(first),
            "< 100 ms",
            Some(first < 0.1),
        )
        .because(format!(
            "classifying the whole level takes {}, and the search expands {} nodes, \
             generating each one's links ({:.0} us a node): with no landmark measured its \
             bound is the column bound, which every link's start and end at rest leaves \
             loose",
            ms(classified),
            path.stats().expanded,
            per_node * 1e6
        )),
    );
    let next = next_queries(&mut lazy, &path, &opts);
    rows.push(
        row(
            format!(
                "huge world: p50 / p99 of the next {NEXT} queries, between cells of that \
                 route ({} nodes built after them)",
                lazy.built_count()
            ),
            p50_p99(&next),
            "p50 < 1000 us",
            Some(percentile(&next, 0.5) < 1000.0),
        )
        .because(
            "each search expands what the column bound cannot rule out, generating the \
             nodes no query built before",
        ),
    );
    if whole {
        whole_rows(rows, lazy)?;
    }
    Ok(())
}

/// Two standing cells about [`APART`] columns apart near the middle of the
/// level.
fn far_pair(lazy: &LazyMap) -> Result<(Cell, Cell), CliError> {
    let row = (HEIGHT / 2) as i32;
    let standing = |col: i32| {
        (row - 40..row + 40)
            .map(|r| Cell::new(col, r))
            .find(|&c| lazy.node(c).is_some())
    };
    let mid = (WIDTH / 2) as i32;
    let a = (mid..mid + 40).find_map(standing);
    let b = (mid + APART..mid + APART + 40).find_map(standing);
    a.zip(b)
        .ok_or_else(|| CliError("no standing cells in the middle of the huge world".into()))
}

/// Latencies in microseconds (sorted) of [`NEXT`] queries between cells of
/// `path`, each from a cell to a later one (so each has a route).
fn next_queries(lazy: &mut LazyMap, path: &Path, opts: &SearchOptions) -> Vec<f64> {
    let cells: Vec<Cell> = std::iter::once(path.start())
        .chain(path.steps().iter().map(|s| s.to))
        .collect();
    let mut rng = SplitMix64::new(5);
    let n = cells.len() as u64;
    let mut times: Vec<f64> = (0..NEXT)
        .filter_map(|_| {
            let (i, j) = (rng.below(n) as usize, rng.below(n) as usize);
            let (a, b) = (cells[i.min(j)], cells[i.max(j)]);
            let t = Instant::now();
            lazy.find_path(a, b, opts).ok()?;
            Some(t.elapsed().as_secs_f64() * 1e6)
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times
}

/// The rest of the world built in the background (all cores but one, as a
/// game runs it) and assembled, and the full map's memory.
fn whole_rows(rows: &mut Vec<Row>, mut lazy: LazyMap) -> Result<(), CliError> {
    let nodes = lazy.node_count();
    let t = Instant::now();
    lazy.build_in_background();
    lazy.wait_for_background();
    let background = t.elapsed().as_secs_f64();
    let cores = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .saturating_sub(1)
        .max(1);
    rows.push(row(
        format!(
            "huge world: background build of every node ({nodes} standing cells, {cores} \
             core{})",
            if cores == 1 { "" } else { "s" }
        ),
        format!(
            "{:.1} s ({:.1} us per standing cell)",
            background,
            background * 1e6 / nodes as f64
        ),
        "",
        None,
    ));
    let t = Instant::now();
    let map = lazy.into_map()?;
    rows.push(row(
        "huge world: the full map assembled from it (landmarks measured)",
        ms(t.elapsed().as_secs_f64()),
        "",
        None,
    ));
    let mb = map.memory_bytes() as f64 / 1e6;
    rows.push(row(
        "huge world: nav-map memory, fully built",
        format!("{mb:.1} MB"),
        "< 1000 MB",
        Some(mb < 1000.0),
    ));
    rows.push(super::saved::row_for(&map, "huge world")?);
    Ok(())
}
