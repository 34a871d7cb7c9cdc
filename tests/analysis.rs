//! Reachability, traps, regions and the level report, on a hand-made level
//! with a known trap and a known unreachable platform, on random levels
//! against brute-force oracles, and through `platnav check` / `sweep`.

mod common;

use platnav::{analysis, find_path};
use std::path::Path;

use platnav::{
    Cell, Level, NavMap, Physics, SearchOptions,
    analysis::{Endpoints, Param, ReportOptions},
};

fn trap_level() -> Level {
    Level::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/trap.txt")).unwrap()
}

#[test]
fn trap_level_reports_its_pit_as_a_trap_and_its_goal_platform_as_unreachable() {
    let level = trap_level();
    let map = NavMap::build(&level, &Physics::default()).unwrap();
    let report = analysis::report(&map, &Endpoints::default(), &ReportOptions::default()).unwrap();
    // The spawn marker stands on the floor.
    assert_eq!(report.start, Cell::new(2, 11));
    // The 5-wide, 6-deep pit: the 3.5-tile jump cannot climb out.
    let pit: Vec<Cell> = (7..=11).map(|c| Cell::new(c, 17)).collect();
    assert_eq!(report.traps, pit);
    // The goal platform (columns 22-27, standing row 5) rises 6 tiles.
    let platform: Vec<Cell> = (22..=27).map(|c| Cell::new(c, 5)).collect();
    for c in &platform {
        assert!(report.unreachable.contains(c), "{c} should be unreachable");
    }
    assert_eq!(report.unreachable.len(), platform.len());
    assert!(!report.completable);
    assert_eq!(report.goals.len(), 1);
    assert_eq!(report.goals[0].goal, Cell::new(24, 5));
    assert!(!report.goals[0].found);
    let d = report.goals[0].diagnosis.as_ref().unwrap();
    assert!(!d.graph_reachable);
    let needed = d.needed_jump_height.unwrap();
    let missing = d.missing_jump_height.unwrap();
    assert!((needed - missing - 3.5).abs() < 1e-9);
    // By construction the feet must rise 6 tiles.
    assert!((6.0..7.0).contains(&needed), "needed {needed}");
    // Independently: the least height, in steps of 0.1, at which a full map
    // has a replayed path to the goal.
    let scanned = (0..40)
        .map(|i| 3.5 + 0.1 * f64::from(i))
        .find(|&h| {
            let p = Param::JumpHeight.apply(&Physics::default(), h);
            let map = NavMap::build(&level, &p).unwrap();
            find_path(
                &map,
                report.start,
                Cell::new(24, 5),
                &SearchOptions::default(),
            )
            .is_ok()
        })
        .unwrap();
    assert!(
        (needed - scanned).abs() <= 0.25,
        "diagnosis {needed}, scan {scanned}"
    );
    // Running faster does not raise the jump.
    assert_eq!(d.needed_run_speed, None);
    assert!(d.run_speed_tried_up_to > 6.0);
    // The closest failed move leaves the floor for the platform.
    let link = d.missing_link.unwrap();
    assert_eq!(link.from.row, 11);
    assert_eq!(link.to.row, 5);
    assert_eq!(d.nearest.map(|c| c.row), Some(11));
}

/// `analysis::diagnose`, which `platnav path` prints when it finds nothing,
/// is the report's diagnosis of that one goal.
#[test]
fn a_single_goal_diagnosis_is_the_reports() {
    let level = trap_level();
    let map = NavMap::build(&level, &Physics::default()).unwrap();
    let options = ReportOptions::default();
    let report = analysis::report(&map, &Endpoints::default(), &options).unwrap();
    let one = analysis::diagnose(&map, report.start, Cell::new(24, 5), &options).unwrap();
    assert_eq!(Some(&one), report.goals[0].diagnosis.as_ref());
    assert!(one.needed_jump_height.is_some());
    // A start that is no standing cell is an error, not a diagnosis.
    assert!(analysis::diagnose(&map, Cell::new(0, 0), Cell::new(24, 5), &options).is_err());
}

#[test]
fn regions_are_the_sets_of_mutually_reachable_cells() {
    for level in common::random_levels(6) {
        let map = common::build(&level, &Physics::agile());
        let regions = analysis::regions(&map);
        let reach: Vec<_> = map
            .nodes()
            .iter()
            .map(|&c| analysis::reachable_from(&map, c).unwrap())
            .collect();
        let mut sizes = vec![0usize; regions.count()];
        for (i, &a) in map.nodes().iter().enumerate() {
            let na = map.node(a).unwrap();
            sizes[regions.of(na)] += 1;
            for (j, &b) in map.nodes().iter().enumerate() {
                let nb = map.node(b).unwrap();
                let mutual = reach[i].contains(nb) && reach[j].contains(na);
                assert_eq!(regions.of(na) == regions.of(nb), mutual, "{a} {b}");
            }
        }
        assert_eq!(sizes, regions.sizes());
    }
}

#[test]
fn traps_are_reachable_cells_from_which_the_start_cannot_be_reached() {
    for level in common::random_levels(6) {
        let map = common::build(&level, &Physics::default());
        let Some(start) = analysis::default_start(&map) else {
            continue;
        };
        let reach = analysis::reachable_from(&map, start).unwrap();
        let s = map.node(start).unwrap();
        let traps = reach.traps(&map);
        for &c in map.nodes() {
            let n = map.node(c).unwrap();
            let back = analysis::reachable_from(&map, c).unwrap().contains(s);
            assert_eq!(traps.contains(&c), reach.contains(n) && !back, "{c}");
        }
        assert!((reach.fraction() - reach.len() as f64 / map.node_count() as f64).abs() < 1e-12);
    }
}

#[test]
fn a_map_built_from_the_start_reaches_and_paths_like_the_full_map() {
    let mut levels = common::random_levels(4);
    levels.push(common::demo());
    levels.push(trap_level());
    for level in levels {
        let physics = Physics::agile();
        let full = common::build(&level, &physics);
        let Some(start) = analysis::default_start(&full) else {
            continue;
        };
        let part = analysis::build_from(&level, &physics, Some(start)).unwrap();
        let (rf, rp) = (
            analysis::reachable_from(&full, start).unwrap(),
            analysis::reachable_from(&part, start).unwrap(),
        );
        assert_eq!(rf.cells(&full), rp.cells(&part));
        assert_eq!(rf.traps(&full), rp.traps(&part));
        assert!(part.link_count() <= full.link_count());
        for goal in rf.cells(&full).into_iter().step_by(7) {
            let opts = SearchOptions::default();
            let a = find_path(&full, start, goal, &opts).map(|p| p.ticks()).ok();
            let b = find_path(&part, start, goal, &opts).map(|p| p.ticks()).ok();
            assert_eq!(a, b, "{start} -> {goal}");
        }
    }
}

/// `--param` knows every field of a physics profile: each key of a saved
/// profile (the wall jump's as `wall_jump.speed_x`) names a parameter that
/// reads the saved value, and setting a parameter sets only that field
/// (and the jump height derived from it).
#[test]
fn every_field_of_a_physics_profile_is_a_parameter() {
    let base = Physics {
        climb_speed: 2.5,
        coyote_ticks: 3,
        jump_buffer_ticks: 4,
        pad_speed: Some(20.0),
        spring_speed: Some(12.0),
        spring_jump_speed: Some(30.0),
        ..Physics::agile()
    };
    let json = serde_json::to_value(&base).unwrap();
    let mut fields = Vec::new();
    for (key, value) in json.as_object().unwrap() {
        match value.as_object() {
            Some(inner) => {
                for (k, v) in inner {
                    fields.push((format!("{key}.{k}"), v.as_f64().unwrap()));
                }
            }
            None => fields.push((key.clone(), value.as_f64().unwrap())),
        }
    }
    assert!(fields.len() >= 20, "{fields:?}");
    for (name, saved) in fields {
        let param: Param = name.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(param.get(&base), saved, "{name}");
        let set = param.apply(&base, saved + 1.0);
        assert_eq!(param.get(&set), saved + 1.0, "{name}");
        let changed = Param::ALL
            .into_iter()
            .filter(|&p| p != Param::JumpHeight && p.get(&set) != p.get(&base))
            .collect::<Vec<_>>();
        assert_eq!(changed, [param], "{name}");
    }
    let off = Param::WallSlideSpeed.apply(&Physics::default(), 2.0);
    let wall = off
        .wall_jump
        .expect("a wall-jump parameter turns wall jumps on");
    assert_eq!(wall.slide_speed, 2.0);
    let err = "jump_hieght".parse::<Param>().unwrap_err().to_string();
    assert!(
        err.contains("coyote_ticks") && err.contains("jump_hieght"),
        "{err}"
    );
}

/// Conformance: a map's links all perform on the profile that built them,
/// and another profile's body falls short where it moves differently:
/// without air or wall jumps the `agile` map's double and wall jumps fail,
/// while its runs (on the ground, where neither matters) still perform.
#[test]
fn conformance_finds_the_links_another_profile_does_not_perform() {
    use platnav::LinkKind;
    use platnav::analysis::conformance;
    let level = common::demo();
    let map = NavMap::build(&level, &Physics::agile()).unwrap();
    let same = conformance(&map, &Physics::agile()).unwrap();
    assert_eq!(
        (same.performed, same.links),
        (map.link_count(), map.link_count())
    );
    assert!(same.failures.is_empty() && (same.fraction() - 1.0).abs() < 1e-12);

    let other = conformance(&map, &Physics::default()).unwrap();
    assert_eq!(other.links, map.link_count());
    assert_eq!(other.performed + other.failures.len(), other.links);
    let kind = |k: LinkKind| other.by_kind.iter().find(|c| c.kind == k).copied().unwrap();
    for k in [LinkKind::DOUBLE_JUMP, LinkKind::WALL_JUMP] {
        let c = kind(k);
        assert!(c.performed < c.links, "{k}: {c:?}");
    }
    let runs = kind(LinkKind::RUN);
    assert_eq!(runs.performed, runs.links);
    // Each failure is a link of the map whose tape, on the other body,
    // does not end standing on its cell.
    for f in other.failures.iter().take(50) {
        let id = map
            .links()
            .find(|l| l.from == f.from && l.to == f.to && l.kind == f.kind)
            .unwrap()
            .id;
        let mut body = platnav::Body::start(map.level(), f.from, &Physics::default());
        for input in map.inputs(id) {
            body.step(map.level(), &Physics::default(), input);
        }
        assert!(body.dead || !body.stands_on(f.to), "{f:?}");
        assert_eq!(f.ends_on, body.standing_cell().filter(|_| !body.dead));
    }
    let bad = Physics {
        run_speed: -1.0,
        ..Physics::default()
    };
    assert!(conformance(&map, &bad).is_err());
}
