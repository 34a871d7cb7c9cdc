//! Map builds and path queries, with criterion, and the builder against
//! the naive reference builder of `crates/platnav-naive`.
//!
//! `cargo bench --bench build_query`; `platnav bench` prints the same
//! figures against their targets and the peers in one run.

use platnav::{find_path, search};
use platnav_naive as naive;

use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, black_box, criterion_group, criterion_main};
use platnav::{Cell, Level, LinkOptions, NavMap, Physics, SearchOptions, formats::VglcLegend};

fn smb_1_1() -> Level {
    let legend = VglcLegend::load(Path::new("levels/smb/legend.json")).unwrap();
    Level::load_vglc(Path::new("levels/smb/mario-1-1.txt"), &legend).unwrap()
}

/// Our builder on one thread, as the naive one runs (all threads without
/// the `parallel` feature's rayon).
fn build_one_thread(level: &Level, physics: &Physics) -> NavMap {
    #[cfg(feature = "parallel")]
    {
        rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| NavMap::build(level, physics).unwrap())
    }
    #[cfg(not(feature = "parallel"))]
    NavMap::build(level, physics).unwrap()
}

fn build(c: &mut Criterion) {
    // Builds take up to a second today: ten samples of one build each
    // (flat sampling), instead of criterion's 1 + 2 + ... + 10 builds.
    let mut g = c.benchmark_group("build");
    g.sample_size(10);
    g.sampling_mode(SamplingMode::Flat);
    let smb = smb_1_1();
    g.bench_function("smb-1-1", |b| {
        b.iter(|| NavMap::build(black_box(&smb), &Physics::smb()).unwrap())
    });
    let coarse = LinkOptions::coarse();
    g.bench_function("smb-1-1 coarse jumps", |b| {
        b.iter(|| NavMap::build_with(black_box(&smb), &Physics::smb(), &coarse).unwrap())
    });
    let demo: Level = include_str!("../levels/demo.txt").parse().unwrap();
    g.bench_function("demo-agile", |b| {
        b.iter(|| NavMap::build(black_box(&demo), &Physics::agile()).unwrap())
    });
    let random = Level::generate(64, 64, 42).unwrap();
    g.bench_function("random-64x64", |b| {
        b.iter(|| NavMap::build(black_box(&random), &Physics::default()).unwrap())
    });
    g.finish();

    // 256 x 256 takes seconds per build: ten single-build samples, no
    // warm-up to speak of.
    let mut g = c.benchmark_group("build large");
    g.sample_size(10);
    g.sampling_mode(SamplingMode::Flat);
    g.warm_up_time(Duration::from_millis(1));
    g.measurement_time(Duration::from_secs(1));
    let random = Level::generate(256, 256, 42).unwrap();
    g.bench_function("random-256x256", |b| {
        b.iter(|| NavMap::build(black_box(&random), &Physics::default()).unwrap())
    });
    g.finish();
}

/// Ours against the naive reference builder on SMB 1-1, both on one thread.
fn against_naive(c: &mut Criterion) {
    let smb = smb_1_1();
    let physics = Physics::smb();
    let mut g = c.benchmark_group("builder vs naive/smb-1-1 one thread");
    g.sample_size(10);
    g.sampling_mode(SamplingMode::Flat);
    g.warm_up_time(Duration::from_millis(1));
    g.measurement_time(Duration::from_secs(5));
    g.bench_function("ours", |b| {
        b.iter(|| build_one_thread(black_box(&smb), &physics))
    });
    g.bench_function("naive", |b| {
        b.iter(|| naive::build(black_box(&smb), &physics))
    });
    g.finish();
}

fn query(c: &mut Criterion) {
    let map = NavMap::build(&smb_1_1(), &Physics::smb()).unwrap();
    let (s, g) = (Cell::new(2, 12), Cell::new(199, 12));
    let mut grp = c.benchmark_group("query/smb-1-1 start to end");
    grp.bench_function("exact", |b| {
        b.iter(|| find_path(&map, black_box(s), g, &SearchOptions::default()).unwrap())
    });
    grp.bench_function("beam 8", |b| {
        b.iter(|| find_path(&map, black_box(s), g, &SearchOptions::beam(8)).unwrap())
    });
    grp.bench_function("graph search only", |b| {
        b.iter(|| search::route_ticks(&map, black_box(s), g, &SearchOptions::default()).unwrap())
    });
    grp.finish();
}

criterion_group!(benches, build, against_naive, query);
criterion_main!(benches);
