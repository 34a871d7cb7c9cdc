//! `platnav bench`'s naive reference rows: the naive reference builder
//! (crates/platnav-naive, one thread) against ours as it builds by default
//! (every core) and on one thread.

use std::sync::Arc;
use std::time::Instant;

use platnav::{BuildCache, Level, LinkOptions, NavMap, Physics};

use super::{CliError, Row, ms, row};

/// The naive reference builder, shared with the criterion benches and
/// `tests/naive_reference.rs`.
use platnav_naive as naive;

/// One level's naive-against-ours measurement.
struct NaiveRun {
    /// Seconds for the naive reference builder (best of the runs).
    naive: f64,
    /// Seconds for ours on every core, as it builds by default (best of the
    /// runs).
    ours: f64,
    /// Seconds for ours on one thread (best of the runs).
    ours_one: f64,
    /// Links of ours.
    links: usize,
    /// Links that differ from the naive builder's (frame) links.
    differ: usize,
}

/// The naive reference rows, on the 64 x 64 generated level and on SMB 1-1
/// (`smb11`, with the `smb` physics) when given: a row per level, then the
/// builders' ratios over both and the links that differ.
pub(crate) fn rows(
    rows: &mut Vec<Row>,
    smb11: Option<Level>,
    smb: &Physics,
    quick: bool,
) -> Result<(), CliError> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut peer_levels = vec![("64 x 64", Level::generate(64, 64, 42)?, Physics::default())];
    peer_levels.extend(smb11.map(|l| ("SMB 1-1", l, smb.clone())));
    // Best of two even in quick runs: one build of each moves by 1.5x.
    let reps = if quick { 2 } else { 3 };
    let (mut t_naive, mut t_ours, mut t_one, mut links, mut differ) = (0.0, 0.0, 0.0, 0, 0);
    for (name, level, physics) in &peer_levels {
        let r = against_naive(level, physics, reps, threads)?;
        rows.push(naive_row(name, &r, threads));
        t_naive += r.naive;
        t_ours += r.ours;
        t_one += r.ours_one;
        links += r.links;
        differ += r.differ;
    }
    // A level with slopes and ladders builds cell by cell (no templates),
    // so it has its own row and stays out of the totals' target.
    let mechanics: Level = include_str!("../../../../levels/mechanics.txt")
        .parse()
        .map_err(|e| CliError(format!("levels/mechanics.txt: {e}")))?;
    let r = against_naive(&mechanics, &Physics::default(), reps, threads)?;
    let name = "levels/mechanics.txt (slopes and ladders, simulated cell by cell)";
    rows.push(naive_row(name, &r, threads));
    links += r.links;
    differ += r.differ;
    let naive_ratio = t_naive / t_ours.max(1e-12);
    let names: Vec<&str> = peer_levels.iter().map(|(n, _, _)| *n).collect();
    rows.push(
        row(
            format!(
                "builder ({threads} threads, its default) vs naive reference builder ({})",
                names.join(" + ")
            ),
            format!("{naive_ratio:.2}x faster"),
            ">= 5x",
            Some(naive_ratio >= 5.0),
        )
        .because(
            "the edge take-offs are simulated from every cell near a ledge, where the other jump \
         programs are served from their templates; the naive reference pays for them as a few \
         more of its programs",
        ),
    );
    rows.push(row(
        "builder vs naive reference builder, both on one thread",
        format!("{:.2}x faster", t_naive / t_one.max(1e-12)),
        "",
        None,
    ));
    rows.push(row(
        "links differing from the naive reference's (frame)",
        format!("{differ} of {links}"),
        "",
        None,
    ));
    Ok(())
}

/// The row of one level's naive-against-ours measurement `r`.
fn naive_row(name: &str, r: &NaiveRun, threads: usize) -> Row {
    row(
        format!("naive reference (one thread) / our build ({threads} threads, one), {name}"),
        format!(
            "{} / {}, {} ({:.2}x, {:.2}x)",
            ms(r.naive),
            ms(r.ours),
            ms(r.ours_one),
            r.naive / r.ours.max(1e-12),
            r.naive / r.ours_one.max(1e-12)
        ),
        "",
        None,
    )
}

/// `f` on a new pool of `threads` threads: nothing a thread of an earlier
/// build kept (grown template branches, landing memos) is there to reuse.
fn fresh_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> Result<T, CliError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError(format!("bench: thread pool: {e}")))?;
    Ok(pool.install(f))
}

/// The naive reference builder (one thread) against ours on `threads`
/// threads and on one, on one level (best of `reps` runs each). Each of our
/// builds runs on a new pool, so it starts as cold as the reference.
fn against_naive(
    level: &Level,
    physics: &Physics,
    reps: usize,
    threads: usize,
) -> Result<NaiveRun, CliError> {
    let (mut naive_s, mut ours_s, mut one_s) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
    let (mut reference, mut ours) = (Vec::new(), Vec::new());
    // Each of our builds takes a new cache holding only the physics
    // profile's templates (built before the clock starts): nothing grown
    // by earlier builds is reused.
    let options = LinkOptions::default();
    let prepared = || {
        let cache = Arc::new(BuildCache::new());
        cache.prepare(level, physics, &options);
        cache
    };
    for _ in 0..reps.max(1) {
        let t = Instant::now();
        reference = naive::build(level, physics);
        naive_s = naive_s.min(t.elapsed().as_secs_f64());
        let cache = prepared();
        let t = Instant::now();
        let map = fresh_pool(threads, || {
            NavMap::build_cached(level, physics, &options, &cache)
        })??;
        ours_s = ours_s.min(t.elapsed().as_secs_f64());
        ours = naive::links_of(&map);
        let cache = prepared();
        let t = Instant::now();
        let one = fresh_pool(1, || NavMap::build_cached(level, physics, &options, &cache))??;
        one_s = one_s.min(t.elapsed().as_secs_f64());
        if naive::links_of(&one) != ours {
            return Err(CliError(
                "bench: the one-thread build differs from the parallel one".into(),
            ));
        }
    }
    Ok(NaiveRun {
        naive: naive_s,
        ours: ours_s,
        ours_one: one_s,
        links: ours.len(),
        differ: naive::differences(&reference, &ours).len(),
    })
}
