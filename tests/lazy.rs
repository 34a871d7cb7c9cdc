//! Lazy maps: paths before the map is built, of the cost a full build's
//! exact search finds, with the links a full build gives.

mod common;

use platnav::io::navfile;
use platnav::level::SplitMix64;
use platnav::{
    Cell, LazyMap, Level, LinkKind, NavMap, NodeId, PathError, Physics, SearchOptions, Wrap,
    find_path,
};

/// Random pairs of standing cells of `map`.
fn pairs(map: &NavMap, n: usize, seed: u64) -> Vec<(Cell, Cell)> {
    let mut rng = SplitMix64::new(seed);
    let count = map.node_count() as u64;
    (0..n)
        .map(|_| {
            let a = map.cell(NodeId::new(rng.below(count) as u32));
            let b = map.cell(NodeId::new(rng.below(count) as u32));
            (a, b)
        })
        .collect()
}

/// Every query on the lazy map costs what it costs on the full map (or
/// fails alike), and every lazy path replays; then every node the lazy map
/// built has the full map's links. Returns the paths found.
fn compare(level: &Level, physics: &Physics, opts: &SearchOptions, seed: u64) -> usize {
    let full = NavMap::build(level, physics).unwrap();
    let mut lazy = LazyMap::new(level, physics).unwrap();
    compare_maps(&mut lazy, &full, opts, seed)
}

/// [`compare`] on a lazy map and the full map of its level.
fn compare_maps(lazy: &mut LazyMap, full: &NavMap, opts: &SearchOptions, seed: u64) -> usize {
    let (level, physics) = (full.level(), full.physics());
    assert_eq!(lazy.node_count(), full.node_count());
    let mut found = 0;
    for (s, g) in pairs(full, 24, seed) {
        match (lazy.find_path(s, g, opts), find_path(full, s, g, opts)) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.ticks(), b.ticks(), "{s} -> {g}");
                assert!(a.replay(level, physics).stands_on(a.goal()), "{s} -> {g}");
                assert_eq!(a.inputs().len() as u32, a.ticks());
                found += 1;
            }
            (Err(PathError::Unreachable { .. }), Err(PathError::Unreachable { .. })) => {}
            (a, b) => panic!(
                "{s} -> {g}: lazy {:?}, full {:?}",
                a.map(|p| p.ticks()),
                b.map(|p| p.ticks())
            ),
        }
    }
    assert_same_links(lazy, full);
    found
}

/// The lazy map's built nodes hold exactly the full map's links.
fn assert_same_links(lazy: &LazyMap, full: &NavMap) {
    let mut built = 0;
    for (i, &cell) in full.nodes().iter().enumerate() {
        let node = NodeId::new(i as u32);
        assert_eq!(lazy.node(cell), Some(node));
        if !lazy.is_built(node) {
            continue;
        }
        built += 1;
        let theirs: Vec<_> = full.links_from(node).collect();
        let ours: Vec<_> = lazy.link_ids_from(node).collect();
        assert_eq!(ours.len(), theirs.len(), "{cell}");
        for (&id, l) in ours.iter().zip(&theirs) {
            assert_eq!(lazy.kind(id), l.kind, "{cell}");
            assert_eq!(lazy.cell(lazy.target(id)), l.to, "{cell}");
            assert_eq!(lazy.ticks(id), l.ticks, "{cell}");
            assert!(lazy.inputs(id).eq(full.inputs(l.id)), "{cell}");
        }
    }
    assert!(built > 0, "the searches built nothing");
}

#[test]
fn lazy_paths_cost_what_full_maps_find_on_generated_levels() {
    let presets = [
        ("default", Physics::default()),
        ("smb", Physics::smb()),
        ("agile", Physics::agile()),
    ];
    let mut found = 0;
    for seed in 0..common::runs("PLATNAV_LAZY_LEVELS", 3, 12) {
        let level = Level::generate(40, 32, seed).unwrap();
        let (_, physics) = &presets[seed as usize % presets.len()];
        found += compare(&level, physics, &SearchOptions::default(), seed);
    }
    assert!(found > 10, "only {found} paths found");
}

#[test]
fn lazy_paths_honour_jump_caps_forbidden_kinds_and_wrap() {
    let level = Level::generate(40, 32, 7).unwrap();
    let capped = SearchOptions::default().with_max_jumps(Some(1));
    let no_jumps = SearchOptions::default().with_forbid(vec![LinkKind::JUMP]);
    assert!(compare(&level, &Physics::default(), &capped, 1) > 0);
    assert!(compare(&level, &Physics::default(), &no_jumps, 2) > 0);
    let wrapped = Level::generate(40, 32, 9)
        .unwrap()
        .with_wrap(Wrap { x: true, y: false });
    assert!(compare(&wrapped, &Physics::default(), &SearchOptions::default(), 3) > 0);
}

#[test]
fn nothing_is_built_up_front_and_a_bad_endpoint_builds_nothing() {
    let level = common::demo();
    let mut lazy = LazyMap::new(&level, &Physics::default()).unwrap();
    assert_eq!((lazy.built_count(), lazy.link_count()), (0, 0));
    let opts = SearchOptions::default().with_snap_radius(0);
    let err = lazy.find_path(Cell::new(-5, -5), Cell::new(1, 1), &opts);
    assert!(
        matches!(err, Err(PathError::InvalidEndpoint { .. })),
        "{err:?}"
    );
    assert_eq!(lazy.built_count(), 0);
    // A budget of one expansion builds one node and stops.
    let full = NavMap::build(&level, &Physics::default()).unwrap();
    let (s, g) = (full.nodes()[0], full.nodes()[full.node_count() - 1]);
    let tight = SearchOptions::default().with_max_expansions(1);
    let err = lazy.find_path(s, g, &tight);
    assert!(
        matches!(err, Err(PathError::BudgetExhausted { .. })),
        "{err:?}"
    );
    assert_eq!(lazy.built_count(), 1);
}

/// `a` and `b` hold the same nodes and links, tapes included.
fn assert_same_maps(a: &NavMap, b: &NavMap) {
    assert_eq!(a.nodes(), b.nodes());
    assert_eq!(a.link_count(), b.link_count());
    for (la, lb) in a.links().zip(b.links()) {
        assert_eq!(la, lb);
        assert!(a.inputs(la.id).eq(b.inputs(lb.id)), "{la:?}");
    }
}

#[test]
fn a_lazy_map_completed_is_the_full_build_and_edits_alike() {
    let level = Level::generate(48, 32, 5).unwrap();
    let physics = Physics::default();
    let full = NavMap::build(&level, &physics).unwrap();
    // Some nodes built by queries, the rest by the completion.
    let mut lazy = LazyMap::new(&level, &physics).unwrap();
    for (s, g) in pairs(&full, 6, 11) {
        let _ = lazy.find_path(s, g, &SearchOptions::default());
    }
    assert!(lazy.built_count() > 0 && !lazy.is_complete());
    let mut done = lazy.into_map().unwrap();
    assert_same_maps(&done, &full);
    // What each node read came along: an edit rebuilds what it touches,
    // as on the full build, and gives the same map.
    let mut edited = full.clone();
    let cell = full.nodes()[full.node_count() / 2];
    let change = [(Cell::new(cell.col, cell.row + 1), platnav::Tile::EMPTY)];
    let (a, b) = (done.edit(&change).unwrap(), edited.edit(&change).unwrap());
    assert_eq!(a.nodes_rebuilt, b.nodes_rebuilt);
    assert!(a.nodes_rebuilt < full.node_count() / 2, "{a:?}");
    assert_same_maps(&done, &edited);
}

#[test]
fn the_background_build_fills_the_map_in_while_queries_go_on() {
    let level = Level::generate(64, 48, 8).unwrap();
    let physics = Physics::smb();
    let full = NavMap::build(&level, &physics).unwrap();
    let progress = std::sync::Arc::new(platnav::BuildProgress::new());
    let opts = platnav::LinkOptions::default().with_progress(Some(progress.clone()));
    let mut lazy = LazyMap::with_options(&level, &physics, &opts).unwrap();
    lazy.build_in_background();
    for (s, g) in pairs(&full, 8, 4) {
        match (
            lazy.find_path(s, g, &SearchOptions::default()),
            find_path(&full, s, g, &SearchOptions::default()),
        ) {
            (Ok(a), Ok(b)) => assert_eq!(a.ticks(), b.ticks()),
            (Err(_), Err(_)) => {}
            (a, b) => panic!(
                "{s} -> {g}: {:?} vs {:?}",
                a.map(|p| p.ticks()),
                b.map(|p| p.ticks())
            ),
        }
    }
    // Every chunk handed over and taken in: the map is complete.
    lazy.wait_for_background();
    assert!(lazy.is_complete(), "{lazy:?}");
    assert_eq!(progress.total(), full.node_count());
    assert_same_maps(&lazy.into_map().unwrap(), &full);
}

#[test]
fn a_cancelled_lazy_map_is_not_completed() {
    let level = Level::generate(48, 32, 6).unwrap();
    let progress = std::sync::Arc::new(platnav::BuildProgress::new());
    let opts = platnav::LinkOptions::default().with_progress(Some(progress.clone()));
    let mut lazy = LazyMap::with_options(&level, &Physics::default(), &opts).unwrap();
    lazy.build_in_background();
    progress.cancel();
    assert!(matches!(
        lazy.into_map(),
        Err(platnav::BuildError::Cancelled)
    ));
}

#[test]
fn a_level_with_nowhere_to_stand_gives_an_empty_lazy_map() {
    let level = common::level(&["....", "....", "...."]);
    let mut lazy = LazyMap::new(&level, &Physics::default()).unwrap();
    assert_eq!(lazy.node_count(), 0);
    lazy.build_in_background();
    let err = lazy.find_path(Cell::new(0, 0), Cell::new(3, 2), &SearchOptions::default());
    assert!(
        matches!(err, Err(PathError::InvalidEndpoint { .. })),
        "{err:?}"
    );
    assert!(lazy.is_complete());
    let map = lazy.into_map().unwrap();
    assert_eq!((map.node_count(), map.link_count()), (0, 0));
}

#[test]
fn after_edits_a_lazy_map_answers_as_a_fresh_build_and_drops_only_what_they_touch() {
    let mut rng = SplitMix64::new(21);
    for (seed, physics) in [(3, Physics::default()), (4, Physics::smb())] {
        let mut level = Level::generate(48, 32, seed).unwrap();
        let mut lazy = LazyMap::new(&level, &physics).unwrap();
        let mut partial = false;
        for round in 0..6 {
            let fresh = NavMap::build(&level, &physics).unwrap();
            compare_queries(&mut lazy, &fresh, seed * 10 + round);
            // A 2 x 2 brush: solid where its corner is empty, else empty.
            let at = Cell::new(rng.below(46) as i32, rng.below(30) as i32);
            let tile = if level.get(at) == Some(platnav::Tile::EMPTY) {
                platnav::Tile::SOLID
            } else {
                platnav::Tile::EMPTY
            };
            let brush: Vec<(Cell, platnav::Tile)> = (0..2)
                .flat_map(|dc| (0..2).map(move |dr| (Cell::new(at.col + dc, at.row + dr), tile)))
                .collect();
            let built = lazy.built_count();
            let report = lazy.edit(&brush).unwrap();
            for &(c, t) in &brush {
                level.set(c, t);
            }
            assert_eq!(lazy.level(), &level);
            assert!(report.nodes_rebuilt <= built);
            partial |= report.tiles_changed > 0 && report.nodes_rebuilt < built;
        }
        let fresh = NavMap::build(&level, &physics).unwrap();
        compare_queries(&mut lazy, &fresh, seed);
        assert_same_maps(&lazy.into_map().unwrap(), &fresh);
        assert!(partial, "every edit dropped every built node");
    }
}

/// Queries on `lazy` cost what they cost on `full` (or fail alike).
fn compare_queries(lazy: &mut LazyMap, full: &NavMap, seed: u64) {
    let opts = SearchOptions::default();
    for (s, g) in pairs(full, 10, seed) {
        match (lazy.find_path(s, g, &opts), find_path(full, s, g, &opts)) {
            (Ok(a), Ok(b)) => assert_eq!(a.ticks(), b.ticks(), "{s} -> {g}"),
            (Err(a), Err(b)) => assert_eq!(
                a.to_string().split(" (").next(),
                b.to_string().split(" (").next()
            ),
            (a, b) => panic!(
                "{s} -> {g}: {:?} vs {:?}",
                a.map(|p| p.ticks()),
                b.map(|p| p.ticks())
            ),
        }
    }
}

/// A level with several blocks of nodes, its map, and the map saved.
fn saved(seed: u64) -> (NavMap, Vec<u8>) {
    let level = Level::generate(64, 40, seed).unwrap();
    let map = NavMap::build(&level, &Physics::default()).unwrap();
    assert!(map.node_count() > 4 * 64, "{} nodes", map.node_count());
    let bytes = navfile::to_bytes(&map);
    (map, bytes)
}

/// `bytes` written to a file of its own.
fn file_of(bytes: &[u8], name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("platnav-lazy-saved-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{name}.pnav"));
    std::fs::write(&file, bytes).unwrap();
    file
}

/// The byte offset of block `b`'s first link, from the index that ends
/// the file (see `io::navfile`).
fn block_offset(bytes: &[u8], b: usize) -> usize {
    let word = |at: usize, n: usize| {
        let mut v = [0u8; 8];
        v[..n].copy_from_slice(&bytes[at..at + n]);
        u64::from_le_bytes(v) as usize
    };
    let start = word(bytes.len() - 8, 8);
    word(start + 16 + 12 * b + 4, 8)
}

#[test]
fn a_saved_map_opened_lazily_reads_blocks_on_demand_and_answers_alike() {
    let (full, bytes) = saved(21);
    let (level, physics) = (full.level(), full.physics());
    let file = file_of(&bytes, "whole");
    let mut lazy = navfile::open_lazy(&file, level, physics).unwrap();
    assert_eq!(lazy.built_count(), 0, "nothing read up front");
    // A node's links come with its block's: read, not generated.
    lazy.build_node(NodeId::new(1));
    assert_eq!(lazy.built_count(), 64);
    let opts = SearchOptions::default();
    let (s, g) = (full.nodes()[0], full.nodes()[1]);
    lazy.find_path(s, g, &opts).unwrap();
    assert!(
        lazy.built_count() < full.node_count() / 2,
        "one query read {} of {} nodes",
        lazy.built_count(),
        full.node_count()
    );
    assert!(compare_maps(&mut lazy, &full, &opts, 5) > 5);
    assert!(lazy.refused_blocks().is_empty());
    assert_same_maps(&lazy.into_map().unwrap(), &full);
    // The background build reads the blocks too.
    let mut lazy = navfile::open_lazy(&file, level, physics).unwrap();
    lazy.build_in_background();
    lazy.wait_for_background();
    assert!(lazy.is_complete());
    assert_same_maps(&lazy.into_map().unwrap(), &full);
}

#[test]
fn a_damaged_block_is_generated_instead_and_reported() {
    let (full, bytes) = saved(22);
    let (level, physics) = (full.level(), full.physics());
    let mut bad = bytes.clone();
    bad[block_offset(&bytes, 2)] = 0xFF; // an unknown link kind
    assert!(navfile::from_bytes(&bad, level, physics).is_err());
    let file = file_of(&bad, "damaged");
    let mut lazy = navfile::open_lazy(&file, level, physics).unwrap();
    lazy.build_node(NodeId::new(2 * 64 + 1));
    let refused = lazy.refused_blocks();
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(refused[0].starts_with("block 2: "), "{refused:?}");
    assert!(refused[0].contains("unknown kind"), "{refused:?}");
    assert!(compare_maps(&mut lazy, &full, &SearchOptions::default(), 6) > 5);
    assert_same_maps(&lazy.into_map().unwrap(), &full);
    // A link moved to another block's node is refused the same way.
    let mut moved = bytes.clone();
    let at = block_offset(&bytes, 3) + 1;
    moved[at..at + 8].copy_from_slice(&bytes[block_offset(&bytes, 0) + 1..][..8]);
    let file = file_of(&moved, "moved");
    let mut lazy = navfile::open_lazy(&file, level, physics).unwrap();
    lazy.build_node(NodeId::new(3 * 64));
    assert!(lazy.refused_blocks()[0].contains("not the next node"));
    assert_same_maps(&lazy.into_map().unwrap(), &full);
}

#[test]
fn opening_lazily_refuses_what_it_cannot_trust_up_front() {
    let (full, bytes) = saved(23);
    let (level, physics) = (full.level(), full.physics());
    let open = |bytes: &[u8], name: &str| {
        navfile::open_lazy(&file_of(bytes, name), level, physics)
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    // Another physics, a truncated file, an index out of order.
    let other = navfile::open_lazy(&file_of(&bytes, "other"), level, &Physics::agile());
    assert!(other.unwrap_err().to_string().contains("other physics"));
    assert!(open(&bytes[..bytes.len() - 3], "cut").contains("block index"));
    let mut swapped = bytes.clone();
    let entries = bytes.len() - 8 - 12 * full.node_count().div_ceil(64);
    swapped[entries + 4..entries + 12].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(open(&swapped, "order").contains("block index"));
    // A version 2 file (no index) loads whole, and says how to open it
    // lazily.
    let mut v2 = bytes[..block_offset(&bytes, 0)].to_vec();
    v2[8..12].copy_from_slice(&2u32.to_le_bytes());
    let index = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().unwrap()) as usize;
    let links_end = u64::from_le_bytes(bytes[index + 8..index + 16].try_into().unwrap()) as usize;
    v2.extend_from_slice(&bytes[block_offset(&bytes, 0)..links_end]);
    assert_same_maps(&navfile::from_bytes(&v2, level, physics).unwrap(), &full);
    assert!(open(&v2, "v2").contains("save it again"));
}

#[test]
fn an_edit_stops_reading_the_saved_map() {
    let (full, bytes) = saved(24);
    let (level, physics) = (full.level(), full.physics());
    let mut lazy = navfile::open_lazy(&file_of(&bytes, "edit"), level, physics).unwrap();
    let opts = SearchOptions::default();
    let (s, g) = (full.nodes()[0], full.nodes()[full.node_count() / 3]);
    let _ = lazy.find_path(s, g, &opts);
    let cell = full.nodes()[full.node_count() / 2];
    let change = [(Cell::new(cell.col, cell.row + 1), platnav::Tile::EMPTY)];
    lazy.edit(&change).unwrap();
    let mut edited = full.clone();
    edited.edit(&change).unwrap();
    assert!(compare_maps(&mut lazy, &edited, &opts, 7) > 5);
    assert_same_maps(&lazy.into_map().unwrap(), &edited);
}

/// Where the saved landmark table's rows start, and each row's bytes
/// (`graph/landmarks/saved.rs`: the form, two masks, then the rows).
fn table_rows(bytes: &[u8], nodes: usize) -> (usize, usize) {
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
    let index = word(bytes.len() - 8);
    let (start, end) = (word(index + 8), index);
    let row = (end - start - 9) / nodes;
    assert_eq!(bytes[start], 1, "a narrow table");
    (start + 9, row)
}

/// `bytes` with every other node's routes from the landmarks said 5,000
/// ticks longer: links into those nodes contradict the table.
fn overstated(bytes: &[u8], nodes: usize) -> Vec<u8> {
    let (rows, row) = table_rows(bytes, nodes);
    let mut out = bytes.to_vec();
    for v in (0..nodes).step_by(2) {
        for l in 0..32 {
            let at = rows + v * row + 2 * l;
            let d = u16::from_le_bytes([out[at], out[at + 1]]);
            if d != u16::MAX {
                out[at..at + 2].copy_from_slice(&d.saturating_add(5000).min(60_000).to_le_bytes());
            }
        }
    }
    out
}

#[test]
fn the_saved_landmark_table_bounds_lazy_searches_while_the_links_agree() {
    let (full, bytes) = saved(25);
    let (level, physics) = (full.level(), full.physics());
    let opts = SearchOptions::default();
    // Far apart: the column bound alone expands much of the level.
    let (s, g) = (full.nodes()[3], full.nodes()[full.node_count() - 3]);
    let want = find_path(&full, s, g, &opts).unwrap().ticks();
    let mut opened = navfile::open_lazy(&file_of(&bytes, "bounds"), level, physics).unwrap();
    let mut bare = LazyMap::new(level, physics).unwrap();
    let (a, b) = (
        opened.find_path(s, g, &opts).unwrap(),
        bare.find_path(s, g, &opts).unwrap(),
    );
    assert_eq!((a.ticks(), b.ticks()), (want, want));
    assert!(
        a.stats().expanded * 2 < b.stats().expanded,
        "{} with the table, {} without",
        a.stats().expanded,
        b.stats().expanded
    );
    assert!(opened.refused_blocks().is_empty());
    // A table that overstates is dropped at the first link that
    // contradicts it, and the search is made again without it.
    let tampered = overstated(&bytes, full.node_count());
    let mut opened = navfile::open_lazy(&file_of(&tampered, "overstated"), level, physics).unwrap();
    assert!(compare_maps(&mut opened, &full, &opts, 8) > 5);
    let refused = opened.refused_blocks();
    assert!(
        refused.iter().any(|r| r.starts_with("landmark table")),
        "{refused:?}"
    );
    // Loaded whole, the table is checked against every link: the honest
    // one is used as it is, the overstated one measured again.
    for file in [&bytes, &tampered] {
        let loaded = navfile::from_bytes(file, level, physics).unwrap();
        for (s, g) in pairs(&full, 40, 9) {
            let (s, g) = (full.node(s).unwrap(), full.node(g).unwrap());
            assert_eq!(
                platnav::search::lower_bound_ticks(&loaded, s, g),
                platnav::search::lower_bound_ticks(&full, s, g)
            );
        }
    }
}
