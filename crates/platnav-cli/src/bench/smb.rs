//! `platnav bench`'s SMB rows: the SMB levels built in turn with one
//! cache and queried against the `pathfinding` crate, SMB 1-1 loaded from
//! its saved map and edited, and the coarse jump set against the full one.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use platnav::{
    BuildCache, Cell, Level, LinkOptions, NavMap, NodeId, Physics, SearchOptions, find_path,
    formats::VglcLegend, io::navfile, search,
};

use super::{
    CliError, EDIT_WHY, Row, edit_row, latencies, ms, p50_p99, percentile, reachable_pairs, row,
};

/// What the SMB section leaves to the sections after it.
pub(crate) struct SmbRun {
    /// The SMB physics preset the levels were built with.
    pub(crate) physics: Physics,
    /// SMB 1-1, when the folder has it (the knock chases and the naive
    /// reference run on it).
    pub(crate) level_1_1: Option<Level>,
    /// The full and the coarse jump set's build caches. Held until the
    /// bench ends, as they were when it was one function, so that the
    /// sections after this one run with the same memory in use.
    _caches: [Arc<BuildCache>; 2],
}

/// The SMB levels built with the full jump set, in file order, and what
/// was measured on them.
struct FullBuilds {
    /// How many levels the folder holds.
    levels: usize,
    /// Build seconds per level, sorted.
    builds: Vec<f64>,
    /// Exact query latencies over every level (microseconds, sorted).
    exact: Vec<f64>,
    /// Beam-8 query latencies over every level (microseconds, sorted).
    beam: Vec<f64>,
    /// Links and standing cells over every level.
    links: usize,
    nodes: usize,
    /// Seconds over every level: ours, `pathfinding`'s astar, its dijkstra.
    peer: (f64, f64, f64),
    /// SMB 1-1's build seconds (the first of the run: cold) and its map's
    /// memory in MB; NaN when the folder has no SMB 1-1.
    smb11: f64,
    smb11_mb: f64,
    smb11_level: Option<Level>,
    /// The one cache the levels were built with.
    cache: Arc<BuildCache>,
}

/// The coarse jump set on the SMB levels, against the full set.
struct CoarseSet {
    /// Seconds to build every level.
    time: f64,
    /// Route ticks over the pairs both sets route: full, coarse.
    full_ticks: u64,
    coarse_ticks: u64,
    /// Pairs one of the sets did not route, of those asked.
    lost: usize,
    asked: usize,
    /// The cache the coarse maps were built with.
    cache: Arc<BuildCache>,
}

/// The SMB rows (build times, links per standing cell, query latency
/// against `pathfinding`, saved maps, edits, the coarse jump set), from the
/// levels in `folder` with their legend.json.
pub(crate) fn rows(rows: &mut Vec<Row>, folder: &Path, samples: usize) -> Result<SmbRun, CliError> {
    let physics = Physics::smb();
    let full = LinkOptions::default();
    let (built, maps) = build_levels(folder, &physics, &full, samples)?;
    cold_and_warm_rows(rows, &built, &physics, &full)?;
    if let Some(level) = &built.smb11_level {
        edit_rows(rows, level, &physics, &full, &built.cache)?;
    }
    let coarse = coarse_set(&maps, &physics, samples)?;
    drop(maps);
    build_rows(rows, &built, &coarse);
    query_rows(rows, &built);
    Ok(SmbRun {
        physics,
        level_1_1: built.smb11_level,
        _caches: [built.cache, coarse.cache],
    })
}

/// Builds the SMB levels in file order with one cache, as a game loading
/// its levels in turn would keep it (the first build is cold, later ones
/// reuse the templates and branches earlier ones grew), and queries each
/// map (ours and `pathfinding`'s) on `samples` pairs. Also returns each
/// level and its map, for the coarse jump set.
fn build_levels(
    folder: &Path,
    physics: &Physics,
    full: &LinkOptions,
    samples: usize,
) -> Result<(FullBuilds, Vec<(Level, NavMap)>), CliError> {
    let legend = VglcLegend::load(&folder.join("legend.json"))?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .map_err(|e| CliError(format!("{}: {e}", folder.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let (mut builds, mut exact, mut beam) = (Vec::new(), Vec::new(), Vec::new());
    let (mut links, mut nodes) = (0usize, 0usize);
    let mut peer = (0.0, 0.0, 0.0);
    let (mut smb11, mut smb11_mb) = (f64::NAN, f64::NAN);
    let mut smb11_level = None;
    let mut maps = Vec::new();
    let cache = Arc::new(BuildCache::new());
    for f in &files {
        let level = Level::load_vglc(f, &legend)?;
        let t = Instant::now();
        let map = NavMap::build_cached(&level, physics, full, &cache)?;
        let b = t.elapsed().as_secs_f64();
        if f.file_name().is_some_and(|n| n == "mario-1-1.txt") {
            smb11 = b;
            smb11_mb = map.memory_bytes() as f64 / (1 << 20) as f64;
            smb11_level = Some(level.clone());
        }
        builds.push(b);
        links += map.link_count();
        nodes += map.node_count();
        let pairs = reachable_pairs(&map, samples, 7);
        exact.extend(latencies(&map, &pairs, &SearchOptions::default()));
        beam.extend(latencies(&map, &pairs, &SearchOptions::beam(8)));
        let (o, a, d) = against_pathfinding(&map, &pairs)?;
        peer = (peer.0 + o, peer.1 + a, peer.2 + d);
        maps.push((level, map));
    }
    exact.sort_by(f64::total_cmp);
    beam.sort_by(f64::total_cmp);
    builds.sort_by(f64::total_cmp);
    let built = FullBuilds {
        levels: files.len(),
        builds,
        exact,
        beam,
        links,
        nodes,
        peer,
        smb11,
        smb11_mb,
        smb11_level,
        cache,
    };
    Ok((built, maps))
}

/// The rows of SMB 1-1's builds: cold (the first of the run), from its
/// saved map, and again with the cache the other levels warmed; then the
/// size of that cache.
fn cold_and_warm_rows(
    rows: &mut Vec<Row>,
    built: &FullBuilds,
    physics: &Physics,
    full: &LinkOptions,
) -> Result<(), CliError> {
    let smb11 = built.smb11;
    // SMB 1-1 again, as a game's later level loads run: the templates the
    // builds above grew are still there. Best of 3: one build is short
    // enough for a scheduler's hiccup to double it.
    let again = match &built.smb11_level {
        Some(level) => {
            let mut best = f64::INFINITY;
            for _ in 0..3 {
                let t = Instant::now();
                NavMap::build_cached(level, physics, full, &built.cache)?;
                best = best.min(t.elapsed().as_secs_f64());
            }
            best
        }
        None => f64::NAN,
    };
    rows.push(
        row(
            "build, SMB 1-1 (cold: the first build of the run)",
            ms(smb11),
            "< 25 ms",
            Some(smb11 < 0.025),
        )
        .because(format!(
            "every program ({}) is walked in the template trees or simulated from every standing cell; with the trees grown, the same level still builds in {}",
            LinkOptions::default().programs_per_cell(physics),
            ms(again)
        )),
    );
    if let Some(level) = &built.smb11_level {
        rows.push(saved_map_row(level, physics, smb11)?);
    }
    rows.push(row(
        "build, SMB 1-1, again after the other levels (the same cache, warm; best of 3)",
        ms(again),
        "",
        None,
    ));
    let cache = &built.cache;
    rows.push(row(
        format!(
            "build cache after the SMB levels ({} workers; budgets {} + {} MB each)",
            cache.workers(),
            cache.grown_budget() >> 20,
            cache.memo_budget() >> 20
        ),
        format!("{:.1} MB", cache.memory_bytes() as f64 / (1 << 20) as f64),
        "",
        None,
    ));
    Ok(())
}

/// Loading SMB 1-1's saved map (binary form, from memory), best of 5,
/// against building it in `build` seconds: the structure is checked, tapes
/// are replayed when a path first uses them.
fn saved_map_row(level: &Level, physics: &Physics, build: f64) -> Result<Row, CliError> {
    let bytes = navfile::to_bytes(&NavMap::build(level, physics)?);
    let mut load = f64::INFINITY;
    for _ in 0..5 {
        let t = Instant::now();
        navfile::from_bytes(&bytes, level, physics)?;
        load = load.min(t.elapsed().as_secs_f64());
    }
    let ratio = build / load.max(1e-12);
    Ok(row(
        format!(
            "load a saved map, SMB 1-1 ({} KB; {}), vs building it",
            bytes.len() / 1024,
            ms(load)
        ),
        format!("{ratio:.1}x faster"),
        ">= 10x",
        Some(ratio >= 10.0),
    ))
}

/// SMB 1-1 built again with the warm cache: the share of its memory the
/// edit index takes, and single-tile edits.
fn edit_rows(
    rows: &mut Vec<Row>,
    level: &Level,
    physics: &Physics,
    full: &LinkOptions,
    cache: &Arc<BuildCache>,
) -> Result<(), CliError> {
    let mut map = NavMap::build_cached(level, physics, full, cache)?;
    let whole = map.memory_bytes() as f64;
    let index = map.edit_index_bytes() as f64;
    rows.push(row(
        "memory for the edit index, SMB 1-1 (share of the map's)",
        format!("{:.1}%", 100.0 * index / whole.max(1.0)),
        "< 25%",
        Some(index < whole * 0.25),
    ));
    rows.push(edit_row(
        "single-tile edit to updated map, SMB 1-1",
        &mut map,
        (1, 5),
        2.0,
        EDIT_WHY,
    )?);
    Ok(())
}

/// The coarse jump set (LinkOptions::coarse) on the same levels, built in
/// the same order (so its template branches carry over the same way), and
/// its fastest routes against the full set's maps on the same pairs.
fn coarse_set(
    maps: &[(Level, NavMap)],
    physics: &Physics,
    samples: usize,
) -> Result<CoarseSet, CliError> {
    let cache = Arc::new(BuildCache::new());
    let mut time = 0.0;
    let (mut full_ticks, mut coarse_ticks, mut lost, mut asked) = (0u64, 0u64, 0usize, 0usize);
    let opts = SearchOptions::default();
    for (level, full) in maps {
        let t = Instant::now();
        let coarse = NavMap::build_cached(level, physics, &LinkOptions::coarse(), &cache)?;
        time += t.elapsed().as_secs_f64();
        for (a, g) in reachable_pairs(full, samples, 7) {
            asked += 1;
            match (
                find_path(full, a, g, &opts),
                find_path(&coarse, a, g, &opts),
            ) {
                (Ok(f), Ok(c)) => {
                    full_ticks += u64::from(f.ticks());
                    coarse_ticks += u64::from(c.ticks());
                }
                _ => lost += 1,
            }
        }
    }
    Ok(CoarseSet {
        time,
        full_ticks,
        coarse_ticks,
        lost,
        asked,
        cache,
    })
}

/// The rows of the SMB levels' builds: the median, the coarse jump set's
/// against the full one's, SMB 1-1's memory and the links per standing
/// cell.
fn build_rows(rows: &mut Vec<Row>, built: &FullBuilds, coarse: &CoarseSet) {
    let full_time: f64 = built.builds.iter().sum();
    rows.push(row(
        format!("build, {} SMB levels (median)", built.levels),
        ms(percentile(&built.builds, 0.5)),
        "",
        None,
    ));
    rows.push(row(
        format!(
            "build, {} SMB levels, coarse jump set, in all",
            built.levels
        ),
        format!(
            "{} ({:.2}x faster than the full set)",
            ms(coarse.time),
            full_time / coarse.time.max(1e-12)
        ),
        "",
        None,
    ));
    rows.push(row(
        "route time, coarse / full jump set, SMB (pairs both route)",
        format!(
            "{:.3} ({} of {} pairs not routed)",
            coarse.coarse_ticks as f64 / coarse.full_ticks.max(1) as f64,
            coarse.lost,
            coarse.asked
        ),
        "",
        None,
    ));
    rows.push(row(
        "nav-map memory, SMB 1-1",
        format!("{:.2} MB", built.smb11_mb),
        "",
        None,
    ));
    rows.push(row(
        "links per standing cell, SMB",
        format!("{:.1}", built.links as f64 / built.nodes.max(1) as f64),
        "",
        None,
    ));
}

/// The rows of the SMB queries: latencies, and ours against
/// `pathfinding`'s searches.
fn query_rows(rows: &mut Vec<Row>, built: &FullBuilds) {
    let p50 = percentile(&built.exact, 0.5);
    rows.push(row(
        "query p50, SMB, exact",
        format!("{p50:.1} us"),
        "< 50 us",
        Some(p50 < 50.0),
    ));
    rows.push(row(
        "query p99, SMB, exact",
        format!("{:.1} us", percentile(&built.exact, 0.99)),
        "",
        None,
    ));
    rows.push(row(
        "query p50 / p99, SMB, beam 8",
        p50_p99(&built.beam),
        "",
        None,
    ));
    let peer = built.peer;
    let astar_ratio = peer.1 / peer.0.max(1e-12);
    rows.push(row(
        "graph search vs pathfinding::astar (equal costs)",
        format!("{astar_ratio:.2}x faster"),
        ">= 1.5x",
        Some(astar_ratio >= 1.5),
    ));
    rows.push(row(
        "graph search vs pathfinding::dijkstra (equal costs)",
        format!("{:.2}x faster", peer.2 / peer.0.max(1e-12)),
        "",
        None,
    ));
}

/// Ours against `pathfinding`'s astar and dijkstra on the same graph and
/// pairs; returns (ours, astar, dijkstra) total seconds, after checking that
/// every cost agrees. The peers get the graph our search relaxes: per node
/// and target, the fastest link ([`NavMap::fastest_links_from`]), and astar
/// the same lower bound.
fn against_pathfinding(map: &NavMap, pairs: &[(Cell, Cell)]) -> Result<(f64, f64, f64), CliError> {
    let succ = |n: &NodeId| -> Vec<(NodeId, u32)> {
        map.fastest_links_from(*n)
            .map(|id| (map.target(id), map.ticks(id)))
            .collect()
    };
    let opts = SearchOptions::default();
    let mut ours = Vec::new();
    let t = Instant::now();
    for &(s, g) in pairs {
        ours.push(search::route_ticks(map, s, g, &opts).map_err(|e| CliError(e.to_string()))?);
    }
    let t_ours = t.elapsed().as_secs_f64();
    let node = |c: Cell| map.node(c).unwrap_or(NodeId::new(0));
    let t = Instant::now();
    let mut astar = Vec::new();
    for &(s, g) in pairs {
        let goal = node(g);
        astar.push(
            pathfinding::directed::astar::astar(
                &node(s),
                succ,
                |n| search::lower_bound_ticks(map, *n, goal),
                |n| *n == goal,
            )
            .map(|(_, c)| c),
        );
    }
    let t_astar = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut dijk = Vec::new();
    for &(s, g) in pairs {
        let goal = node(g);
        dijk.push(
            pathfinding::directed::dijkstra::dijkstra(&node(s), succ, |n| *n == goal)
                .map(|(_, c)| c),
        );
    }
    let t_dijk = t.elapsed().as_secs_f64();
    if ours != astar || ours != dijk {
        return Err(CliError(
            "bench: platnav and pathfinding disagree on a route's cost".into(),
        ));
    }
    Ok((t_ours, t_astar, t_dijk))
}
