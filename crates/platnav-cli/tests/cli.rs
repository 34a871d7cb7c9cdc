//! The `platnav` command line, run as a user would.

mod common;

use common::at_root;
use std::process::Command;

use platnav::io::json::tape_from_json;
use platnav::{Body, Cell, Level, Physics, formats::VglcLegend};
use serde_json::Value;

fn platnav(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_platnav"))
        .args(args)
        .output()
        .unwrap()
}

fn cell(v: &Value) -> Cell {
    Cell::new(v[0].as_i64().unwrap() as i32, v[1].as_i64().unwrap() as i32)
}

#[test]
fn the_default_run_shows_the_map_link_counts_a_replayed_path_and_timings() {
    at_root();
    let out = platnav(&[]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for kind in [
        "run ",
        "fall ",
        "jump ",
        "double_jump ",
        "wall_jump ",
        "drop ",
    ] {
        let n: usize = text
            .split(kind)
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|d| d.parse().ok())
            .unwrap_or_else(|| panic!("no count for {kind}in\n{text}"));
        assert!(n > 0, "{kind}count is zero");
    }
    assert!(text.contains("ends standing on the goal"), "{text}");
    assert!(text.contains("build: ") && text.contains("query: "));
    assert!(text.contains('@') && text.contains('$'));
}

#[test]
fn path_json_on_smb_1_1_is_the_physics_md_format_and_its_tape_replays() {
    at_root();
    let out = platnav(&[
        "path",
        "levels/smb/mario-1-1.txt",
        "--legend",
        "levels/smb/legend.json",
        "--preset",
        "smb",
        "--from",
        "2,12",
        "--to",
        "199,12",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["found"], true);
    for key in ["start", "goal", "cost", "physics", "links", "inputs"] {
        assert!(!doc[key].is_null(), "missing {key}");
    }
    // The document stands on its own: physics from the JSON, level from the file.
    let physics: Physics = serde_json::from_value(doc["physics"].clone()).unwrap();
    assert_eq!(physics, Physics::smb());
    let legend = VglcLegend::load(std::path::Path::new("levels/smb/legend.json")).unwrap();
    let level =
        Level::load_vglc(std::path::Path::new("levels/smb/mario-1-1.txt"), &legend).unwrap();
    let inputs = tape_from_json(&doc["inputs"]).unwrap();
    let (start, goal) = (cell(&doc["start"]), cell(&doc["goal"]));
    let mut body = Body::standing(start, &physics);
    for i in inputs.iter().copied() {
        body.step(&level, &physics, i);
    }
    assert!(body.stands_on(goal) && !body.dead, "{body:?}");
    let cost = doc["cost"].as_f64().unwrap();
    approx::assert_abs_diff_eq!(cost, inputs.len() as f64 * physics.dt, epsilon = 1e-9);
    let links = doc["links"].as_array().unwrap();
    assert_eq!(cell(&links[0]["from"]), start);
    assert_eq!(cell(&links[links.len() - 1]["to"]), goal);
}

#[test]
fn path_lazy_finds_the_same_cost_without_building_the_whole_map() {
    at_root();
    let path = |extra: &[&str]| {
        let mut args = vec![
            "path",
            "levels/smb/mario-1-1.txt",
            "--preset",
            "smb",
            "--from",
            "2,12",
            "--to",
            "60,12",
            "--json",
        ];
        args.extend_from_slice(extra);
        let out = platnav(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let (lazy, full) = (path(&["--lazy"]), path(&[]));
    assert_eq!(lazy["found"], true);
    assert_eq!(lazy["cost"], full["cost"]);
    assert_eq!(lazy["start"], full["start"]);
    assert_eq!(lazy["goal"], full["goal"]);
    // From a saved map, read a block at a time: the same again.
    let dir = std::env::temp_dir().join(format!("platnav-cli-lazy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("1-1.pnav");
    let file = file.to_str().unwrap();
    let save = [
        "links",
        "levels/smb/mario-1-1.txt",
        "--preset",
        "smb",
        "--save",
        file,
    ];
    assert!(platnav(&save).status.success());
    let saved = path(&["--lazy", "--map", file]);
    assert_eq!(saved["cost"], full["cost"]);
    // A beam makes no sense without a whole map, nor a JSON map read a
    // block at a time.
    let out = platnav(&["path", "levels/demo.txt", "--lazy", "--beam", "3"]);
    assert_eq!(out.status.code(), Some(2));
    let json = dir.join("1-1.json");
    let out = platnav(&[
        "path",
        "levels/demo.txt",
        "--lazy",
        "--map",
        json.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains(".pnav"));
}

#[test]
fn a_vglc_level_beside_its_legend_needs_no_legend_flag() {
    at_root();
    let args = [
        "path",
        "levels/smb/mario-1-1.txt",
        "--preset",
        "smb",
        "--from",
        "2,12",
        "--to",
        "199,12",
        "--json",
    ];
    let out = platnav(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut with_legend = args.to_vec();
    with_legend.extend(["--legend", "levels/smb/legend.json"]);
    assert_eq!(out.stdout, platnav(&with_legend).stdout);
}

#[test]
fn path_reports_the_snapped_cells() {
    at_root();
    let out = platnav(&[
        "path",
        "levels/demo.txt",
        "--preset",
        "agile",
        "--from",
        "2,1",
        "--to",
        "43,1",
        "--json",
    ]);
    assert!(out.status.success());
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(cell(&doc["start"]), Cell::new(2, 3));
    assert_eq!(cell(&doc["goal"]), Cell::new(43, 3));
}

#[test]
fn an_impossible_path_prints_found_false_and_exits_1() {
    at_root();
    let out = platnav(&[
        "path",
        "levels/demo.txt",
        "--from",
        "2,3",
        "--to",
        "43,3",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["found"], false);
    assert!(doc["error"].as_str().unwrap().contains("no path"));
    // What is missing, found by trying: the nearest reachable cell, and
    // the jumps and runs tried.
    let d = &doc["diagnosis"];
    assert!(d["nearest"].is_array(), "{doc}");
    assert!(d["tried_up_to"].as_f64().unwrap() > 0.0, "{doc}");
}

#[test]
fn links_json_tapes_replay_from_their_start_to_their_end() {
    at_root();
    let out = platnav(&["links", "levels/demo.txt", "--preset", "agile", "--json"]);
    assert!(out.status.success());
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let physics: Physics = serde_json::from_value(doc["physics"].clone()).unwrap();
    let level: Level = std::fs::read_to_string("levels/demo.txt")
        .unwrap()
        .parse()
        .unwrap();
    let nodes = doc["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), level.width() * level.height());
    assert!(nodes.iter().any(|n| n["type"] == "platform"));
    let links = doc["links"].as_array().unwrap();
    assert!(links.len() > 100);
    for l in links {
        let inputs = tape_from_json(&l["inputs"]).unwrap();
        let mut body = Body::standing(cell(&l["from"]), &physics);
        for i in inputs {
            body.step(&level, &physics, i);
        }
        assert!(body.stands_on(cell(&l["to"])), "{}", l["kind"]);
        assert!(l["cost"].as_f64().unwrap() > 0.0);
    }
}

#[test]
fn coarse_jumps_build_a_map_with_fewer_jump_links() {
    at_root();
    let jump_links = |jumps: &str| -> usize {
        let args = ["links", "levels/demo.txt", "--jumps", jumps];
        let out = platnav(&args);
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        text.split("jump ")
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|d| d.parse().ok())
            .unwrap_or_else(|| panic!("no jump count in\n{text}"))
    };
    let (full, coarse) = (jump_links("full"), jump_links("coarse"));
    assert!(0 < coarse && coarse < full, "coarse {coarse}, full {full}");
}

#[test]
fn bad_files_and_arguments_get_a_one_line_error_and_exit_2() {
    at_root();
    let dir = std::env::temp_dir().join(format!("platnav-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad_level = dir.join("bad.txt");
    std::fs::write(&bad_level, "...\n.x.\n###\n").unwrap();
    let bad_physics = dir.join("phys.json");
    // Partial files are fine (they go over the preset); unknown fields are not.
    std::fs::write(&bad_physics, r#"{"w": 0.8, "speed": 3}"#).unwrap();
    let fast = dir.join("fast.json");
    let mut p = serde_json::to_value(Physics::default()).unwrap();
    p["run_speed"] = serde_json::json!(100.0);
    std::fs::write(&fast, p.to_string()).unwrap();
    let bad_legend = dir.join("bad-legend.json");
    std::fs::write(&bad_legend, "{").unwrap();
    let lvl = bad_level.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["path", "missing.txt", "--from", "1,1", "--to", "2,2"],
            "missing.txt",
        ),
        (
            vec!["path", lvl, "--from", "1,1", "--to", "2,2"],
            "line 2, column 2",
        ),
        (
            vec!["path", "levels/demo.txt", "--from", "1;1", "--to", "2,2"],
            "COL,ROW",
        ),
        (
            vec![
                "path",
                "levels/demo.txt",
                "--from",
                "1,1",
                "--to",
                "2,2",
                "--preset",
                "moon",
            ],
            "moon",
        ),
        (
            vec![
                "path",
                "levels/demo.txt",
                "--from",
                "1,1",
                "--to",
                "2,2",
                "--physics",
                bad_physics.to_str().unwrap(),
            ],
            "phys.json",
        ),
        (
            vec![
                "links",
                "levels/demo.txt",
                "--physics",
                fast.to_str().unwrap(),
            ],
            "run_speed",
        ),
        (
            vec![
                "links",
                "levels/smb/mario-1-1.txt",
                "--legend",
                bad_legend.to_str().unwrap(),
            ],
            "legend.json",
        ),
        (
            vec![
                "path",
                "levels/demo.txt",
                "--from",
                "2,3",
                "--to",
                "43,3",
                "--beam",
                "0",
            ],
            "beam",
        ),
        (
            vec!["links", "levels/demo.txt", "--jumps", "bogus"],
            "bogus",
        ),
        (vec!["frobnicate"], "frobnicate"),
    ];
    for (args, needle) in cases {
        let out = platnav(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        // Argument errors from the parser add a usage hint line.
        if !["frobnicate", "1;1", "bogus"]
            .iter()
            .any(|a| args.contains(a))
        {
            assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        }
        assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    }
}

/// Every file of the hostile corpus (`tests/hostile/`) gets a one-line
/// error naming it and exit code 2 from the CLI.
#[test]
fn every_hostile_file_gets_a_one_line_error_and_exit_2() {
    at_root();
    let dir = std::path::Path::new("tests/hostile");
    let table = std::fs::read_to_string(dir.join("expected.txt")).unwrap();
    let mut count = 0;
    for line in table
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let mut parts = line.split('|').map(str::trim);
        let name = parts.next().unwrap();
        let file = dir.join(name);
        let mut args: Vec<String> = vec!["links".into(), file.to_string_lossy().into_owned()];
        for opt in parts.nth(1).unwrap_or("").split_whitespace() {
            let (k, v) = opt.split_once('=').unwrap();
            let flag = match k {
                "legend" => "--legend",
                "mapping" => "--mapping",
                "rules" => "--rules",
                "ppt" => "--pixels-per-tile",
                "layer" => "--layer",
                "level" => "--level",
                other => panic!("unknown option {other}"),
            };
            args.push(flag.into());
            args.push(if ["legend", "mapping", "rules"].contains(&k) {
                dir.join(v).to_string_lossy().into_owned()
            } else {
                v.into()
            });
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = platnav(&refs);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        // A map that marks nothing adds a second line: the rules to write.
        let lines = if err.contains("marks a solid cell") {
            2
        } else {
            1
        };
        assert_eq!(err.trim_end().lines().count(), lines, "{name}: {err}");
        assert!(err.contains(name), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
        assert!(out.stdout.is_empty(), "{name} printed to stdout");
        count += 1;
    }
    assert!(count >= 50, "only {count} corpus files");
}

#[test]
fn a_saved_map_is_reused_and_refused_for_other_physics() {
    at_root();
    let dir = std::env::temp_dir().join(format!("platnav-cli-map-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("demo.pnav");
    let f = file.to_str().unwrap();
    let out = platnav(&["links", "levels/demo.txt", "--preset", "agile", "--save", f]);
    assert!(out.status.success());
    let fresh = platnav(&["path", "levels/demo.txt", "--preset", "agile", "--json"]);
    let reused = platnav(&[
        "path",
        "levels/demo.txt",
        "--preset",
        "agile",
        "--map",
        f,
        "--json",
    ]);
    assert!(fresh.status.success() && reused.status.success());
    assert_eq!(
        fresh.stdout, reused.stdout,
        "the spawn-to-goal path must be identical"
    );
    let wrong = platnav(&["path", "levels/demo.txt", "--preset", "default", "--map", f]);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("other physics"));
}

#[test]
fn bench_quick_prints_every_figure_with_its_target() {
    at_root();
    let out = platnav(&["bench", "--quick"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for figure in [
        "build, SMB 1-1",
        "links per standing cell, SMB",
        "query p50, SMB, exact",
        "query p50 / p99, SMB, beam 8",
        "graph search vs pathfinding::astar (equal costs)",
        "graph search vs pathfinding::dijkstra (equal costs)",
        "builder vs naive reference builder",
        "nav-map memory, SMB 1-1",
        "build, 256 x 256",
        "nav-map memory, 256 x 256",
        "queries per second, one core, 256 x 256",
        "query p50 / p99, 256 x 256, exact",
        "query p50 / p99, 256 x 256, beam 8",
        "links per standing cell, 256 x 256",
        "build time per standing cell, largest / smallest",
    ] {
        assert!(text.contains(figure), "no {figure:?} in\n{text}");
    }
    assert!(text.contains("targets,") && (text.contains("PASS") || text.contains("FAIL")));
}

#[test]
fn every_edge_physics_profile_gives_a_map_or_a_one_line_error() {
    at_root();
    // Each of these once aborted the process with a stack overflow.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/physics-edges");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 9);
    let smb = [
        "levels/smb/mario-1-1.txt",
        "--legend",
        "levels/smb/legend.json",
    ];
    for file in &files {
        let physics = file.to_str().unwrap();
        for level in [&["levels/demo.txt"][..], &smb[..]] {
            let mut args = vec!["links"];
            args.extend(level);
            args.extend(["--physics", physics]);
            let out = platnav(&args);
            let err = String::from_utf8_lossy(&out.stderr);
            match out.status.code() {
                Some(0) => {
                    let text = String::from_utf8_lossy(&out.stdout);
                    assert!(text.contains(" links: run "), "{args:?}: {text}");
                }
                Some(2) => assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}"),
                code => panic!("{args:?}: exit {code:?}: {err}"),
            }
        }
    }
}

/// The tower of `levels/wrap.txt` is climbed through its side; the JSON
/// says the level wraps, and `--wrap none` closes the seam.
#[test]
fn a_level_that_wraps_is_crossed_and_wrap_none_closes_it() {
    at_root();
    let out = platnav(&["path", "levels/wrap.txt", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["wrap"], "x");
    let level = Level::load("levels/wrap.txt".as_ref()).unwrap();
    let p = Physics::default();
    let mut body = Body::start(&level, cell(&doc["start"]), &p);
    for input in tape_from_json(&doc["inputs"]).unwrap() {
        body.step(&level, &p, input);
    }
    assert!(body.stands_on(cell(&doc["goal"])));
    let out = platnav(&["path", "levels/wrap.txt", "--wrap", "none", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["diagnosis"]["reached_with_wrap"], "x", "{doc}");
    let out = platnav(&["path", "levels/wrap.txt", "--wrap", "none"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("reached if the level's edges meet (--wrap x)"),
        "{text}"
    );
    let out = platnav(&["path", "levels/wrap.txt", "--wrap", "sideways"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("sideways"));
}
