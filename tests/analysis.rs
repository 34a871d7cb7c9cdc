//! Reachability, traps, regions and the level report, on a hand-made level
//! with a known trap and a known unreachable platform, on random levels
//! against brute-force oracles, and through `platnav check` / `sweep`.

mod common;

use std::path::Path;
use std::process::Command;

use platnav::{Cell, Endpoints, Level, NavMap, Param, Physics, ReportOptions, SearchOptions};
use serde_json::Value;

fn trap_level() -> Level {
    Level::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/trap.txt")).unwrap()
}

#[test]
fn trap_level_reports_its_pit_as_a_trap_and_its_goal_platform_as_unreachable() {
    let level = trap_level();
    let map = NavMap::build(&level, &Physics::default()).unwrap();
    let report = map
        .report(&Endpoints::default(), &ReportOptions::default())
        .unwrap();
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
            NavMap::build(&level, &p)
                .unwrap()
                .find_path(report.start, Cell::new(24, 5), &SearchOptions::default())
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

#[test]
fn regions_are_the_sets_of_mutually_reachable_cells() {
    for level in common::random_levels(6) {
        let map = common::build(&level, &Physics::agile());
        let regions = map.regions();
        let reach: Vec<_> = map
            .nodes()
            .iter()
            .map(|&c| map.reachable_from(c).unwrap())
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
        let Some(start) = map.default_start() else {
            continue;
        };
        let reach = map.reachable_from(start).unwrap();
        let s = map.node(start).unwrap();
        let traps = reach.traps(&map);
        for &c in map.nodes() {
            let n = map.node(c).unwrap();
            let back = map.reachable_from(c).unwrap().contains(s);
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
        let Some(start) = full.default_start() else {
            continue;
        };
        let part = NavMap::build_from(&level, &physics, Some(start)).unwrap();
        let (rf, rp) = (
            full.reachable_from(start).unwrap(),
            part.reachable_from(start).unwrap(),
        );
        assert_eq!(rf.cells(&full), rp.cells(&part));
        assert_eq!(rf.traps(&full), rp.traps(&part));
        assert!(part.link_count() <= full.link_count());
        for goal in rf.cells(&full).into_iter().step_by(7) {
            let opts = SearchOptions::default();
            let a = full.find_path(start, goal, &opts).map(|p| p.ticks()).ok();
            let b = part.find_path(start, goal, &opts).map(|p| p.ticks()).ok();
            assert_eq!(a, b, "{start} -> {goal}");
        }
    }
}

fn platnav(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_platnav"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap()
}

const SMB: [&str; 4] = ["--legend", "levels/smb/legend.json", "--preset", "smb"];

#[test]
fn check_json_on_smb_1_1_is_a_parseable_report_of_a_completable_level() {
    let mut args = vec!["check", "levels/smb/mario-1-1.txt", "--json"];
    args.extend(SMB);
    let out = platnav(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["completable"], true);
    assert_eq!(doc["level"], "levels/smb/mario-1-1.txt");
    let f = doc["reachable_fraction"].as_f64().unwrap();
    assert!(f > 0.0 && f <= 1.0);
    assert!(doc["regions"].as_u64().unwrap() >= 1);
    assert!(doc["traps"].is_array());
    let goals = doc["goals"].as_array().unwrap();
    assert!(
        goals
            .iter()
            .any(|g| g["found"] == true && g["cost"].as_f64().unwrap() > 0.0)
    );
}

#[test]
fn check_on_the_trap_level_draws_the_trap_and_exits_1() {
    let out = platnav(&["check", "levels/trap.txt"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("TTTTT"), "{text}");
    assert!(
        text.contains("NOT found") && text.contains("needs a "),
        "{text}"
    );
    assert!(text.contains('@') && text.contains('!'));
}

#[test]
fn sweep_writes_one_csv_row_per_level_and_value_and_a_png_chart() {
    let dir = std::env::temp_dir().join(format!("platnav-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (csv, png) = (dir.join("r.csv"), dir.join("c.png"));
    let mut args = vec![
        "sweep",
        "levels/smb/mario-1-1.txt",
        "--param",
        "jump_height=2:5:1.5",
        "--out",
        csv.to_str().unwrap(),
        "--plot",
        png.to_str().unwrap(),
    ];
    args.extend(SMB);
    let out = platnav(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows[0],
        [
            "level",
            "jump_height",
            "completable",
            "reachable_fraction",
            "traps",
            "error"
        ]
    );
    assert_eq!(rows.len(), 1 + 3);
    for (row, h) in rows[1..].iter().zip([2.0, 3.5, 5.0]) {
        assert_eq!(row[0], "mario-1-1");
        assert_eq!(row[1].parse::<f64>().unwrap(), h);
        assert!(row[2] == "true" || row[2] == "false");
        let f: f64 = row[3].parse().unwrap();
        assert!((0.0..=1.0).contains(&f));
        row[4].parse::<usize>().unwrap();
        assert_eq!(row[5], "", "no point failed");
    }
    // The preset's jump finishes 1-1.
    assert_eq!(rows[3][2], "true");
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sweep_min_prints_a_table_of_least_jump_heights() {
    let mut args = vec![
        "sweep",
        "--min",
        "jump_height",
        "levels/smb/mario-1-1.txt",
        "--param",
        "jump_height=1:5.2:0.1",
    ];
    args.extend(SMB);
    let out = platnav(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let row = text
        .lines()
        .find(|l| l.starts_with("| mario-1-1 |"))
        .unwrap_or_else(|| panic!("{text}"));
    let v: f64 = row.split('|').nth(2).unwrap().trim().parse().unwrap();
    assert!(v > 1.0 && v <= 5.2, "{row}");
}

#[test]
fn bad_sweep_parameters_are_one_line_errors_with_exit_code_2() {
    for bad in [
        "jump_hieght=1:2:0.5",
        "jump_height=3:1:0.5",
        "jump_height=1:2:0",
        // The only point is invalid: nothing useful, so an error.
        "jump_height=40",
    ] {
        let out = platnav(&["sweep", "levels/trap.txt", "--param", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_sweep_goes_on_past_points_that_fail_and_reports_them_in_their_rows() {
    // Gravity 0 once aborted the process; every point now gives a row.
    let out = platnav(&["sweep", "levels/demo.txt", "--param", "gravity=0:100:10"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1 + 11, "{text}");
    assert!(text.lines().skip(1).all(|l| l.ends_with(',')), "{text}");
    // 300 air jumps fail validation: that row carries the error, the others
    // are evaluated, and the sweep exits 0 with a warning.
    let dir = std::env::temp_dir().join(format!("platnav-sweep-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("c.png");
    let out = platnav(&[
        "sweep",
        "levels/demo.txt",
        "--param",
        "air_jumps=0:300:150",
        "--plot",
        png.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 4, "{text}");
    assert!(rows[1].starts_with("demo,0,") && rows[1].ends_with(','));
    assert!(rows[2].starts_with("demo,150,") && rows[2].ends_with(','));
    assert!(
        rows[3].starts_with("demo,300,,,,") && rows[3].contains("air_jumps"),
        "{}",
        rows[3]
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("1 of 3 points failed"), "{err}");
    assert_eq!(&std::fs::read(&png).unwrap()[..4], b"\x89PNG");
    std::fs::remove_dir_all(&dir).unwrap();
}
