//! The command line on Tiled and LDtk maps: loader options shared by every
//! tool, the load summary, physics files over presets and `--param`, and
//! the fallbacks and hints around `path`, `check` and `render`.

mod common;

use common::at_root;
use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn platnav(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_platnav"))
        .args(args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Runs a command that must fail with exit code 2 and an error holding
/// every one of `needles`; returns the error.
fn fails(args: &[&str], needles: &[&str]) -> String {
    let out = platnav(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: {n:?} not in {err}");
    }
    err
}

/// A file in a per-test temporary directory.
fn temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("platnav-cli-maps-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn every_tool_reads_tiled_and_ldtk_maps_and_says_how_on_one_line() {
    at_root();
    let png = temp("small.png", "");
    let png = png.to_str().unwrap();
    for level in [
        "levels/ldtk/small.ldtk",
        "levels/small/small.tmx",
        "levels/real/bevy_ecs_ldtk/Typical_2D_platformer_example.ldtk",
    ] {
        // The LDtk sample marks no goal and has walls in its last columns:
        // `path` needs --to there.
        let to = if level.contains("bevy") { "14,12" } else { "" };
        let path: Vec<&str> = ["path", level, "--to", to]
            .into_iter()
            .take(if to.is_empty() { 2 } else { 4 })
            .collect();
        for args in [
            vec!["links", level],
            path,
            vec!["check", level, "--no-diagnosis"],
            vec!["render", level, "-o", png, "--layers", "tiles"],
        ] {
            let out = platnav(&args);
            let err = stderr(&out);
            assert!(out.status.code().is_some_and(|c| c < 2), "{args:?}: {err}");
            let line = err
                .lines()
                .find(|l| l.contains("zero config"))
                .unwrap_or_else(|| panic!("{args:?}: no summary in {err}"));
            assert!(
                line.contains("solid, ") && line.contains("hazard cells"),
                "{line}"
            );
        }
    }
    let out = platnav(&["links", "levels/ldtk/small.ldtk"]);
    assert!(
        stderr(&out).contains("spawn a \"Player\" at 1,2"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn rules_layer_and_level_options() {
    at_root();
    let out = platnav(&[
        "path",
        "levels/ldtk/small.ldtk",
        "--level",
        "Flat",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["start"], serde_json::json!([2, 3]));
    // --mapping is the older name of --rules.
    for flag in ["--rules", "--mapping"] {
        let out = platnav(&[
            "links",
            "levels/sq2/Maps/level_01.tmx",
            flag,
            "levels/sq2/mapping.json",
        ]);
        assert!(out.status.success());
        assert!(
            stderr(&out).contains("rules levels/sq2/mapping.json"),
            "{}",
            stderr(&out)
        );
    }
    fails(
        &["links", "levels/small/small.tmx", "--layer", "Nope"],
        &["no tile layer named \"Nope\""],
    );
    fails(
        &[
            "links",
            "levels/small/small.txt",
            "--rules",
            "levels/small/mapping.json",
        ],
        &["Tiled and LDtk maps only"],
    );
}

#[test]
fn a_map_that_marks_nothing_fails_loudly_in_two_lines() {
    at_root();
    let err = fails(
        &["links", "tests/hostile/nothing.tmj"],
        &[
            "tile layers: \"A\", \"B\"",
            "object names: lamp",
            r#"{"layers": {"A": "solid"}}"#,
        ],
    );
    assert_eq!(err.lines().count(), 2, "{err}");
}

#[test]
fn physics_files_layer_on_presets_in_pixels_and_params_set_values() {
    at_root();
    let over = temp(
        "over.json",
        r#"{"units": "px", "tile": 16, "run_speed": 80}"#,
    );
    let out = platnav(&[
        "path",
        "levels/small/small.txt",
        "--preset",
        "smb",
        "--physics",
        over.to_str().unwrap(),
        "--param",
        "air_jumps=1",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let p = &doc["physics"];
    let smb = platnav::Physics::smb();
    assert_eq!(p["run_speed"], 5.0);
    assert_eq!(p["air_jumps"], 1);
    assert_eq!(p["gravity"].as_f64().unwrap(), smb.gravity);
    assert_eq!(p["w"].as_f64().unwrap(), smb.w);
    // A value that breaks validation names --param.
    fails(
        &[
            "links",
            "levels/small/small.txt",
            "--param",
            "jump_speed=100",
        ],
        &["with --param", "jump_speed"],
    );
    fails(
        &["links", "levels/small/small.txt", "--param", "warp=3"],
        &["warp"],
    );
    // The real games' players, in their pixels.
    let out = platnav(&[
        "links",
        "levels/real/flixel-demos/level.tmx",
        "--physics",
        "levels/real/flixel-demos/physics.json",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["physics"]["jump_speed"], 6.25);
}

#[test]
fn path_without_markers_uses_checks_start_and_goals_and_no_path_gives_hints() {
    at_root();
    let level = temp(
        "plain.txt",
        "##########\n#........#\n#........#\n##########\n",
    );
    let level = level.to_str().unwrap();
    let check = platnav(&["check", level, "--json", "--no-diagnosis"]);
    let report: Value = serde_json::from_str(&stdout(&check)).unwrap();
    let path = platnav(&["path", level, "--json"]);
    assert!(path.status.success(), "{}", stderr(&path));
    let doc: Value = serde_json::from_str(&stdout(&path)).unwrap();
    assert_eq!(doc["start"], report["start"]);
    let goals: Vec<&Value> = report["goals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| &g["goal"])
        .collect();
    assert!(goals.contains(&&doc["goal"]), "{doc} not in {goals:?}");
    // A wall up to the ceiling: no jump or run gets over it, and the
    // diagnosis says so, having tried.
    let walled = temp("walled.txt", "#######\n#..#..#\n#S.#.G#\n#######\n");
    let out = platnav(&["path", walled.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains("no path")
            && text.contains("platnav check")
            && text.contains("nearest the goal at 2,2")
            && text.contains("not reachable even with a"),
        "{text}"
    );
    // The hint names `check` with the options that chose the map, so that
    // it reports on the same map.
    let w = walled.to_str().unwrap();
    let out = platnav(&[
        "path",
        w,
        "--preset",
        "agile",
        "--param",
        "run_speed=4",
        "--wrap",
        "x",
    ]);
    let want = format!("platnav check {w} --preset agile --wrap x --param run_speed=4`");
    assert!(stdout(&out).contains(&want), "{}", stdout(&out));
    // A ledge a little too high: the diagnosis names the jump that reaches it.
    let ledge = "..............\n..............\n.........#####\n.........#####\n\
                 .........#####\n..............\n..............\n##############\n";
    let ledge = temp("ledge.txt", ledge);
    let out = platnav(&[
        "path",
        ledge.to_str().unwrap(),
        "--from",
        "1,6",
        "--to",
        "10,1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains("needs a 5.2") && text.contains("-tile jump"),
        "{text}"
    );
}

#[test]
fn check_reports_a_goal_area_on_one_line() {
    at_root();
    // A goal rectangle over four floor cells.
    let map = serde_json::json!({
        "type": "map", "orientation": "orthogonal", "width": 8, "height": 4, "tilewidth": 16, "tileheight": 16,
        "tilesets": [{"firstgid": 1, "name": "t", "tilecount": 1, "tiles": []}],
        "layers": [
            {"type": "tilelayer", "name": "Ground", "width": 8, "height": 4,
             "data": [0,0,0,0,0,0,0,0, 0,0,0,0,0,0,0,0, 0,0,0,0,0,0,0,0, 1,1,1,1,1,1,1,1]},
            {"type": "objectgroup", "name": "O", "objects": [
                {"id": 1, "name": "start", "type": "PlayerStart", "x": 16, "y": 32, "width": 16, "height": 16},
                {"id": 2, "name": "goal", "x": 64, "y": 32, "width": 64, "height": 16}]}
        ]
    });
    let level = temp("area.tmj", &map.to_string());
    let out = platnav(&["check", level.to_str().unwrap(), "--no-diagnosis"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let goals: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "goals:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    assert_eq!(goals.len(), 1, "{text}");
    assert!(
        goals[0].contains("area 4,2..7,2 (4 goal cells) found: 4 reached"),
        "{}",
        goals[0]
    );
}

#[test]
fn render_writes_png_only_and_unsupported_files_list_the_formats() {
    at_root();
    let jpg = temp("out.jpg", "");
    fails(
        &[
            "render",
            "levels/small/small.txt",
            "-o",
            jpg.to_str().unwrap(),
        ],
        &["PNG images only"],
    );
    let notes = temp("notes.md", "# My level\nis not drawn here.\n");
    fails(
        &["links", notes.to_str().unwrap()],
        &["unsupported file", "LDtk projects (.ldtk"],
    );
}

/// `check` names the mechanics a map places but platnav does not model
/// when they sit beside the unreachable area: sq2's level_02 cannot be
/// finished, and its moving platforms (`MovingPlatform` objects) are listed
/// with their cells, in the text and in the JSON.
#[test]
fn check_reads_level_02s_platforms_as_moving_and_plans_over_them_in_time() {
    at_root();
    let args = [
        "check",
        "levels/sq2/Maps/level_02.tmx",
        "--preset",
        "sq2",
        "--param",
        "run_speed=8",
        "--no-diagnosis",
        "--json",
    ];
    let out = platnav(&args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    // The platforms move now: they are no longer listed as unmodelled.
    assert_eq!(doc["moving_platforms"], 77);
    let listed = doc["unmodelled"].as_array().unwrap();
    assert!(
        listed.iter().all(|m| m["kind"] != "moving platform"),
        "{listed:?}"
    );
    assert!(doc.get("path_in_time").is_none());
    // A level its platforms make completable.
    let out = platnav(&["check", "levels/lifts.txt", "--no-diagnosis"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("with its 2 moving platforms, the level is completable"),
        "{}",
        stdout(&out)
    );
    // The demo places no such mechanic: nothing is listed.
    let demo = platnav(&["check", "levels/demo.txt", "--no-diagnosis", "--json"]);
    let doc: Value = serde_json::from_str(&stdout(&demo)).unwrap();
    assert_eq!(doc["unmodelled"], serde_json::json!([]));
}

/// `path` on a level with moving platforms plans in time from `--tick`,
/// and its JSON carries the platforms and the tape, which performed from
/// that tick with the platforms moving ends on the goal.
#[test]
fn path_over_moving_platforms_prints_a_tape_that_performs_from_its_tick() {
    use platnav::level::{Platform, Platforms};
    at_root();
    for tick in ["0", "211"] {
        let out = platnav(&["path", "levels/lifts.txt", "--tick", tick, "--json"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(doc["start_tick"].as_u64(), Some(tick.parse().unwrap()));
        let kinds: Vec<&str> = doc["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["kind"].as_str().unwrap())
            .collect();
        assert!(
            kinds.contains(&"board") && kinds.contains(&"leave"),
            "{kinds:?}"
        );
        let lifts: Vec<Platform> = serde_json::from_value(doc["platforms"].clone()).unwrap();
        let p: platnav::Physics = serde_json::from_value(doc["physics"].clone()).unwrap();
        let platforms = Platforms::new(lifts, p.dt).unwrap();
        let level = platnav::formats::load_level(
            std::path::Path::new("levels/lifts.txt"),
            &platnav::formats::LoadOptions::default(),
        )
        .unwrap()
        .level;
        let inputs = platnav::io::json::tape_from_json(&doc["inputs"]).unwrap();
        let start = platnav::Cell::new(1, 10);
        assert_eq!(doc["start"]["cell"], serde_json::json!([1, 10]));
        let mut body = platnav::Body::start(&level, start, &p);
        let t0: u64 = tick.parse().unwrap();
        for (i, &input) in inputs.iter().enumerate() {
            body.step_moving(&level, &platforms, t0 + i as u64, &p, input);
        }
        let goal = platnav::Cell::new(27, 4);
        assert_eq!(doc["goal"], serde_json::json!([27, 4]));
        assert!(body.stands_on(goal), "{body:?}");
    }
}

/// `check` on a level its map completes still plans in time to the goals
/// the map misses: the Phaser Super Mario Land remake's upper exit, which
/// only its two lifts reach.
#[test]
fn check_plans_in_time_to_the_goals_the_map_misses() {
    at_root();
    let dir = "levels/real2/phaser3-super-mario-land";
    let (level, rules, physics) = (
        format!("{dir}/maps/level1.json"),
        format!("{dir}/rules.json"),
        format!("{dir}/physics.json"),
    );
    let args = [
        "check",
        level.as_str(),
        "--rules",
        rules.as_str(),
        "--physics",
        physics.as_str(),
        "--no-diagnosis",
    ];
    let out = platnav(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "with its 2 moving platforms, 298,3 is reached too (the map alone misses it)"
        ),
        "{text}"
    );
    let mut json = args.to_vec();
    json.push("--json");
    let doc: Value = serde_json::from_str(&stdout(&platnav(&json))).unwrap();
    assert_eq!(doc["completable"], true);
    assert!(doc.get("completable_in_time").is_none());
    assert!(
        doc["path_in_time"]["steps"]
            .as_array()
            .is_some_and(|s| !s.is_empty())
    );
}
