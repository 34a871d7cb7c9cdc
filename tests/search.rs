//! The search: exact equals Dijkstra, beam is never cheaper, every path
//! replays to its goal, and the options do what they say.

mod common;

use platnav::search::Endpoint;
use platnav::{Cell, Level, LinkKind, NavMap, PathError, Physics, SearchOptions};
use platnav::{find_path, search};

/// Checks every start/goal pair (or every `stride`-th start) of a map.
fn check_all_pairs(map: &NavMap, stride: usize) -> usize {
    let exact = SearchOptions::default();
    let beam = SearchOptions::beam(4);
    let nodes = map.nodes().to_vec();
    let mut found = 0;
    for (i, &s) in nodes.iter().enumerate() {
        if i % stride != 0 {
            continue;
        }
        let dist = search::dijkstra(map, map.node(s).unwrap());
        for &g in &nodes {
            let d = dist[map.node(g).unwrap().index()];
            let ex = search::route_ticks(map, s, g, &exact).unwrap();
            assert_eq!(ex, d, "exact vs Dijkstra {s} -> {g}");
            if let (Some(b), Some(e)) = (search::route_ticks(map, s, g, &beam).unwrap(), ex) {
                assert!(b >= e, "beam {b} cheaper than exact {e} for {s} -> {g}");
            }
            match (find_path(map, s, g, &exact), d) {
                (Ok(path), Some(_)) => {
                    let end = path.replay(map.level(), map.physics());
                    assert!(
                        end.stands_on(g) && !end.dead,
                        "{s} -> {g} replay ends at {end:?}"
                    );
                    assert_eq!(path.inputs().len(), path.ticks() as usize);
                    assert_eq!(path.start(), s);
                    assert_eq!(path.goal(), g);
                    assert!(path.ticks() >= d.unwrap());
                    if path.stats().replans == 0 {
                        assert_eq!(Some(path.ticks()), d);
                    }
                    found += 1;
                }
                (Err(PathError::Unreachable { .. }), None) => {}
                (r, d) => panic!(
                    "{s} -> {g}: {:?} but Dijkstra says {d:?}",
                    r.map(|p| p.ticks())
                ),
            }
        }
    }
    found
}

#[test]
fn every_path_replays_to_its_goal_on_the_demo_level() {
    let map = common::build(&common::demo(), &Physics::agile());
    assert!(check_all_pairs(&map, 3) > 1000);
}

#[test]
fn every_path_replays_to_its_goal_on_seeded_random_levels() {
    let mut found = 0;
    for level in common::random_levels(6) {
        for p in [Physics::default(), Physics::agile()] {
            found += check_all_pairs(&common::build(&level, &p), 1);
        }
    }
    assert!(found > 2000, "only {found} paths");
}

#[test]
fn a_path_is_a_chain_of_links_from_start_to_goal() {
    let map = common::build(&common::demo(), &Physics::agile());
    let path = find_path(
        &map,
        Cell::new(2, 3),
        Cell::new(43, 3),
        &SearchOptions::default(),
    )
    .unwrap();
    let steps = path.steps();
    assert!(steps.len() >= 2);
    assert_eq!(steps[0].from, path.start());
    assert_eq!(steps.last().unwrap().to, path.goal());
    for w in steps.windows(2) {
        assert_eq!(w[0].to, w[1].from);
    }
    assert_eq!(steps.iter().map(|s| s.ticks).sum::<u32>(), path.ticks());
    approx::assert_abs_diff_eq!(path.cost(), f64::from(path.ticks()) / 60.0, epsilon = 1e-12);
}

#[test]
fn forbidden_link_kinds_are_not_used() {
    let map = common::build(&common::demo(), &Physics::agile());
    let (s, g) = (Cell::new(2, 3), Cell::new(43, 3));
    let all = find_path(&map, s, g, &SearchOptions::default()).unwrap();
    assert!(
        all.steps()
            .iter()
            .any(|st| st.kind == LinkKind::DOUBLE_JUMP)
    );
    let opts = SearchOptions::default().with_forbid(vec![LinkKind::DOUBLE_JUMP]);
    let without = find_path(&map, s, g, &opts).unwrap();
    assert!(
        without
            .steps()
            .iter()
            .all(|st| st.kind != LinkKind::DOUBLE_JUMP)
    );
    assert!(without.ticks() >= all.ticks());
    assert!(without.replay(map.level(), map.physics()).stands_on(g));
}

#[test]
fn a_jump_cap_is_respected_and_can_make_a_goal_unreachable() {
    let map = common::build(&common::demo(), &Physics::agile());
    let (s, g) = (Cell::new(2, 3), Cell::new(43, 3));
    let free = find_path(&map, s, g, &SearchOptions::default()).unwrap();
    let used = free.jump_count(&map);
    assert!(used >= 2);
    for cap in [used + 2, used, used - 1] {
        let opts = SearchOptions::default().with_max_jumps(Some(cap));
        match find_path(&map, s, g, &opts) {
            Ok(p) => {
                assert!(p.jump_count(&map) <= cap);
                assert!(p.ticks() >= free.ticks());
            }
            Err(PathError::Unreachable { .. }) => assert!(cap < used),
            Err(e) => panic!("{e}"),
        }
    }
    let none = SearchOptions::default().with_max_jumps(Some(0));
    assert!(matches!(
        find_path(&map, s, g, &none),
        Err(PathError::Unreachable { .. })
    ));
}

#[test]
fn endpoints_off_the_map_in_walls_or_in_the_air_snap_to_the_nearest_standable_cell() {
    let level: Level = "........\n........\n........\n..####..\n........\n........\n########\n"
        .parse()
        .unwrap();
    let map = common::build(&level, &Physics::default());
    // In the air above the platform: snaps down onto it.
    assert_eq!(
        search::snap(&map, Cell::new(3, 0), 8),
        Some(Cell::new(3, 2))
    );
    // Inside the platform: the nearest standable cell.
    let in_wall = search::snap(&map, Cell::new(3, 3), 8).unwrap();
    assert!(map.node(in_wall).is_some());
    assert!((in_wall.row - 3).abs() <= 1);
    // Off the map to the left.
    assert_eq!(
        search::snap(&map, Cell::new(-2, 5), 8),
        Some(Cell::new(0, 5))
    );
    // Too far away.
    assert_eq!(search::snap(&map, Cell::new(-100, 5), 8), None);
    let path = find_path(
        &map,
        Cell::new(-2, 5),
        Cell::new(3, 0),
        &SearchOptions::default(),
    )
    .unwrap();
    assert_eq!(
        (path.start(), path.goal()),
        (Cell::new(0, 5), Cell::new(3, 2))
    );
    let err = find_path(
        &map,
        Cell::new(-100, 5),
        Cell::new(3, 2),
        &SearchOptions::default(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            PathError::InvalidEndpoint {
                which: Endpoint::Start,
                ..
            }
        ),
        "{err}"
    );
    let no_snap = SearchOptions::default().with_snap_radius(0);
    assert!(matches!(
        find_path(&map, Cell::new(3, 0), Cell::new(3, 2), &no_snap),
        Err(PathError::InvalidEndpoint { .. })
    ));
}

#[test]
fn an_exhausted_budget_is_an_error_with_counts() {
    let map = common::build(&common::demo(), &Physics::agile());
    let opts = SearchOptions::default().with_max_expansions(3);
    match find_path(&map, Cell::new(2, 3), Cell::new(43, 3), &opts) {
        Err(PathError::BudgetExhausted { limit: 3, stats }) => assert_eq!(stats.expanded, 3),
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_unreachable_goal_reports_the_cells_used_and_stats() {
    // A sealed room on the right.
    let level: Level = "....#...\n....#...\n....#...\n########\n".parse().unwrap();
    let map = common::build(&level, &Physics::default());
    match find_path(
        &map,
        Cell::new(1, 2),
        Cell::new(6, 2),
        &SearchOptions::default(),
    ) {
        Err(PathError::Unreachable { start, goal, stats }) => {
            assert_eq!((start, goal), (Cell::new(1, 2), Cell::new(6, 2)));
            assert!(stats.expanded >= 4);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn stats_count_expansions_and_pruning() {
    let map = common::build(&common::demo(), &Physics::agile());
    let (s, g) = (Cell::new(2, 3), Cell::new(43, 3));
    let exact = find_path(&map, s, g, &SearchOptions::default()).unwrap();
    assert!(exact.stats().expanded > 0 && exact.stats().pruned > 0);
    let narrow = find_path(&map, s, g, &SearchOptions::beam(1));
    if let Ok(p) = narrow {
        assert!(p.ticks() >= exact.ticks());
    }
}

#[test]
fn landmark_bounds_are_consistent_lower_bounds_and_not_trivial() {
    for (level, p) in [
        (common::demo(), Physics::agile()),
        (Level::generate(64, 48, 7).unwrap(), Physics::default()),
    ] {
        let map = NavMap::build(&level, &p).unwrap();
        let n = map.node_count() as u32;
        let mut tight = 0u64;
        let mut total = 0u64;
        for s in (0..n).step_by(3) {
            let dist = search::dijkstra(&map, platnav::NodeId::new(s));
            for t in 0..n {
                let b = search::lower_bound_ticks(
                    &map,
                    platnav::NodeId::new(s),
                    platnav::NodeId::new(t),
                );
                if let Some(d) = dist[t as usize] {
                    assert!(b <= d, "bound {b} over the route's {d} ticks, {s} -> {t}");
                    tight += u64::from(b);
                    total += u64::from(d);
                }
            }
        }
        // Consistency along every link: h(v) <= ticks + h(w).
        for t in (0..n).step_by(5) {
            for l in map.links() {
                let hv = search::lower_bound_ticks(&map, l.source, platnav::NodeId::new(t));
                let hw = search::lower_bound_ticks(&map, l.target, platnav::NodeId::new(t));
                assert!(hv <= l.ticks + hw, "inconsistent along {l:?} toward {t}");
            }
        }
        // On these maps the bound recovers a good share of the route.
        assert!(tight * 2 > total, "bound sums to {tight} of {total} ticks");
    }
}

/// SMB 1-1 with the `smb` preset, saved and loaded with one link of the
/// route from (22,4) to (169,8) tampered (its tape idle): the replay misses
/// that link from any start, so the path takes one re-plan.
fn smb_1_1_with_a_replan() -> (NavMap, Cell, Cell) {
    use platnav::io::navfile;
    let level = common::smb_1_1();
    let physics = Physics::smb();
    let map = common::build(&level, &physics);
    let (s, g) = (Cell::new(22, 4), Cell::new(169, 8));
    let path = find_path(&map, s, g, &SearchOptions::default()).unwrap();
    let bad = path.steps()[path.steps().len() / 2].link.index();
    let mut doc: serde_json::Value =
        serde_json::from_str(&navfile::to_json(&map).unwrap()).unwrap();
    let inputs = &mut doc["links"][bad]["inputs"];
    let idle = "e".repeat(inputs.as_str().unwrap().len());
    *inputs = serde_json::Value::String(idle);
    let map = navfile::from_json(&doc.to_string(), &level, &physics).unwrap();
    let path = find_path(&map, s, g, &SearchOptions::default()).unwrap();
    assert_eq!(path.stats().replans, 1, "the fixture lost its re-plan");
    assert!(path.replay(&level, &physics).stands_on(g));
    (map, s, g)
}

/// The route of [`smb_1_1_with_a_replan`] untampered has a link that misses
/// when chained from the off-centre start the link before leaves it at:
/// another nudge in that link's slack performs it, with no re-plan, in the
/// ticks the search counted.
#[test]
fn a_knife_edge_link_is_performed_after_another_nudge() {
    let level = common::smb_1_1();
    let map = common::build(&level, &Physics::smb());
    let (s, g) = (Cell::new(22, 4), Cell::new(169, 8));
    let path = find_path(&map, s, g, &SearchOptions::default()).unwrap();
    assert_eq!(path.stats().replans, 0);
    let ticks = search::route_ticks(&map, s, g, &SearchOptions::default()).unwrap();
    assert_eq!(Some(path.ticks()), ticks);
    assert!(path.replay(&level, &Physics::smb()).stands_on(g));
}

#[test]
fn running_out_of_replans_is_its_own_error_not_unreachable() {
    let (map, s, g) = smb_1_1_with_a_replan();
    let no_replans = SearchOptions::default().with_max_replans(0);
    match find_path(&map, s, g, &no_replans) {
        Err(PathError::ReplanLimit {
            start, goal, limit, ..
        }) => assert_eq!((start, goal, limit), (s, g, 0)),
        other => panic!("{:?}", other.map(|p| p.ticks())),
    }
    // The graph does have a route.
    assert!(
        search::route_ticks(&map, s, g, &no_replans)
            .unwrap()
            .is_some()
    );
}

#[test]
fn the_expansion_budget_is_per_call_replans_included() {
    let (map, s, g) = smb_1_1_with_a_replan();
    let total = find_path(&map, s, g, &SearchOptions::default())
        .unwrap()
        .stats()
        .expanded;
    let enough = SearchOptions::default().with_max_expansions(total);
    assert!(find_path(&map, s, g, &enough).is_ok());
    // Each of the two searches alone expands fewer than this, but the call
    // as a whole more.
    let short = SearchOptions::default().with_max_expansions(total - 1);
    match find_path(&map, s, g, &short) {
        Err(PathError::BudgetExhausted { limit, stats }) => {
            assert_eq!(limit, total - 1);
            assert_eq!(stats.expanded, total - 1);
        }
        other => panic!("{:?}", other.map(|p| p.stats())),
    }
}

#[test]
fn route_ticks_snaps_its_endpoints_like_find_path() {
    let map = common::build(&common::demo(), &Physics::agile());
    // (3, 1) is in the air above the spawn's standing cell (2, 3).
    let (s, g) = (Cell::new(3, 1), Cell::new(43, 3));
    let options = SearchOptions::default();
    let path = find_path(&map, s, g, &options).unwrap();
    let ticks = search::route_ticks(&map, s, g, &options).unwrap();
    assert_eq!(
        ticks,
        search::route_ticks(&map, path.start(), g, &options).unwrap()
    );
    assert!(ticks.is_some());
    let no_snap = SearchOptions::default().with_snap_radius(0);
    assert!(matches!(
        search::route_ticks(&map, s, g, &no_snap),
        Err(PathError::InvalidEndpoint { .. })
    ));
}
