//! Which data structures serve the search: dense `Vec` labels against an
//! `ahash` map, and `std`'s `BinaryHeap` with lazy deletion against the
//! `priority-queue` crate's decrease-key heap. Each variant runs a full
//! Dijkstra over a real nav map; the answers are checked equal first.
//!
//! `cargo bench --bench search_structures`

use platnav::search;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::Path;

use ahash::AHashMap;
use criterion::{Criterion, black_box, criterion_group, criterion_main};
use platnav::{Level, NavMap, NodeId, Physics, formats::VglcLegend};
use priority_queue::PriorityQueue;

fn vec_binary_heap(map: &NavMap, start: NodeId) -> Vec<Option<u32>> {
    let mut dist = vec![None; map.node_count()];
    let mut heap = BinaryHeap::new();
    dist[start.index()] = Some(0u32);
    heap.push(Reverse((0u32, start.index() as u32)));
    while let Some(Reverse((d, n))) = heap.pop() {
        if dist[n as usize].is_some_and(|b| d > b) {
            continue;
        }
        for id in map.link_ids_from(NodeId::new(n)) {
            let t = map.target(id).index() as u32;
            let nd = d + map.ticks(id);
            if dist[t as usize].is_none_or(|b| nd < b) {
                dist[t as usize] = Some(nd);
                heap.push(Reverse((nd, t)));
            }
        }
    }
    dist
}

fn ahash_binary_heap(map: &NavMap, start: NodeId) -> Vec<Option<u32>> {
    let mut dist: AHashMap<u32, u32> = AHashMap::new();
    let mut heap = BinaryHeap::new();
    dist.insert(start.index() as u32, 0);
    heap.push(Reverse((0u32, start.index() as u32)));
    while let Some(Reverse((d, n))) = heap.pop() {
        if dist.get(&n).is_some_and(|&b| d > b) {
            continue;
        }
        for id in map.link_ids_from(NodeId::new(n)) {
            let t = map.target(id).index() as u32;
            let nd = d + map.ticks(id);
            if dist.get(&t).is_none_or(|&b| nd < b) {
                dist.insert(t, nd);
                heap.push(Reverse((nd, t)));
            }
        }
    }
    (0..map.node_count() as u32)
        .map(|n| dist.get(&n).copied())
        .collect()
}

fn vec_priority_queue(map: &NavMap, start: NodeId) -> Vec<Option<u32>> {
    let mut dist = vec![None; map.node_count()];
    let mut done = vec![false; map.node_count()];
    let mut pq: PriorityQueue<u32, Reverse<u32>> = PriorityQueue::new();
    dist[start.index()] = Some(0u32);
    pq.push(start.index() as u32, Reverse(0));
    while let Some((n, Reverse(d))) = pq.pop() {
        done[n as usize] = true;
        for id in map.link_ids_from(NodeId::new(n)) {
            let t = map.target(id).index() as u32;
            if done[t as usize] {
                continue;
            }
            let nd = d + map.ticks(id);
            if dist[t as usize].is_none_or(|b| nd < b) {
                dist[t as usize] = Some(nd);
                pq.push_increase(t, Reverse(nd));
            }
        }
    }
    dist
}

fn maps() -> Vec<(&'static str, NavMap)> {
    let legend = VglcLegend::load(Path::new("levels/smb/legend.json")).unwrap();
    let smb = Level::load_vglc(Path::new("levels/smb/mario-1-1.txt"), &legend).unwrap();
    let random = Level::generate(256, 64, 7).unwrap();
    vec![
        ("smb-1-1", NavMap::build(&smb, &Physics::smb()).unwrap()),
        (
            "random-256x64",
            NavMap::build(&random, &Physics::default()).unwrap(),
        ),
    ]
}

fn bench(c: &mut Criterion) {
    for (name, map) in maps() {
        let start = NodeId::new(0);
        let want = search::dijkstra(&map, start);
        assert_eq!(vec_binary_heap(&map, start), want);
        assert_eq!(ahash_binary_heap(&map, start), want);
        assert_eq!(vec_priority_queue(&map, start), want);
        let mut g = c.benchmark_group(format!("dijkstra/{name}"));
        g.bench_function("vec+binary_heap", |b| {
            b.iter(|| vec_binary_heap(black_box(&map), start))
        });
        g.bench_function("ahash+binary_heap", |b| {
            b.iter(|| ahash_binary_heap(black_box(&map), start))
        });
        g.bench_function("vec+priority_queue", |b| {
            b.iter(|| vec_priority_queue(black_box(&map), start))
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
