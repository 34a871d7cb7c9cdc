//! All 18 Super Mario Bros levels are completable with the `smb` preset,
//! proven by replaying the found input tape on the reference body.

mod common;

use platnav::{Cell, Level, NavMap, Physics, SearchOptions};
use platnav::{find_path, search};

/// The standing cell nearest column 2 (lowest first on ties).
fn start_cell(map: &NavMap) -> Cell {
    *map.nodes()
        .iter()
        .min_by_key(|c| ((c.col - 2).abs(), -c.row))
        .unwrap()
}

fn completes(name: &str, level: &Level) -> Result<(), String> {
    let physics = Physics::smb();
    let map = NavMap::build(level, &physics).unwrap();
    let start = start_cell(&map);
    let w = level.width() as i32;
    let goals: Vec<Cell> = map
        .nodes()
        .iter()
        .copied()
        .filter(|c| c.col >= w - 3)
        .collect();
    if goals.is_empty() {
        return Err(format!("{name}: no standing cell in the last 3 columns"));
    }
    let dist = search::dijkstra(&map, map.node(start).unwrap());
    let mut tried = 0;
    for g in goals {
        if dist[map.node(g).unwrap().index()].is_none() {
            continue;
        }
        tried += 1;
        if let Ok(path) = find_path(&map, start, g, &SearchOptions::default()) {
            let end = path.replay(level, &physics);
            assert!(
                end.stands_on(g) && !end.dead,
                "{name}: replay ends at {end:?}"
            );
            return Ok(());
        }
    }
    Err(format!(
        "{name}: no path from {start} to the last 3 columns ({tried} goals reachable in the graph)"
    ))
}

#[test]
fn all_18_smb_levels_are_completable_by_replayed_tapes() {
    let levels = common::smb_levels();
    assert_eq!(levels.len(), 18);
    let failures: Vec<String> = std::thread::scope(|s| {
        let (a, b) = levels.split_at(levels.len() / 2);
        let h1 = s.spawn(|| {
            a.iter()
                .filter_map(|(n, l)| completes(n, l).err())
                .collect::<Vec<_>>()
        });
        let h2 = s.spawn(|| {
            b.iter()
                .filter_map(|(n, l)| completes(n, l).err())
                .collect::<Vec<_>>()
        });
        let mut f = h1.join().unwrap();
        f.extend(h2.join().unwrap());
        f
    });
    assert!(failures.is_empty(), "{failures:#?}");
}
