//! Map builds and path queries, with criterion.
//!
//! `cargo bench --bench build_query`; `platnav bench` prints the same
//! figures against their targets and a peer in one run.

use std::path::Path;

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use platnav::{Cell, Level, NavMap, Physics, SearchOptions, VglcLegend};

fn smb_1_1() -> Level {
    let legend = VglcLegend::load(Path::new("levels/smb/legend.json")).unwrap();
    Level::load_vglc(Path::new("levels/smb/mario-1-1.txt"), &legend).unwrap()
}

fn build(c: &mut Criterion) {
    let mut g = c.benchmark_group("build");
    g.sample_size(10);
    let smb = smb_1_1();
    g.bench_function("smb-1-1", |b| {
        b.iter(|| NavMap::build(black_box(&smb), &Physics::smb()).unwrap())
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
}

fn query(c: &mut Criterion) {
    let map = NavMap::build(&smb_1_1(), &Physics::smb()).unwrap();
    let (s, g) = (Cell::new(2, 12), Cell::new(199, 12));
    let mut grp = c.benchmark_group("query/smb-1-1 start to end");
    grp.bench_function("exact", |b| {
        b.iter(|| {
            map.find_path(black_box(s), g, &SearchOptions::default())
                .unwrap()
        })
    });
    grp.bench_function("beam 8", |b| {
        b.iter(|| {
            map.find_path(black_box(s), g, &SearchOptions::beam(8))
                .unwrap()
        })
    });
    grp.bench_function("graph search only", |b| {
        b.iter(|| {
            map.route_ticks(black_box(s), g, &SearchOptions::default())
                .unwrap()
        })
    });
    grp.finish();
}

criterion_group!(benches, build, query);
criterion_main!(benches);
