//! The command line's analysis commands: `check` and `sweep`.

mod common;

use common::at_root;
use std::process::Command;

use serde_json::Value;

fn platnav(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_platnav"))
        .args(args)
        .output()
        .unwrap()
}

const SMB: [&str; 4] = ["--legend", "levels/smb/legend.json", "--preset", "smb"];

#[test]
fn check_json_on_smb_1_1_is_a_parseable_report_of_a_completable_level() {
    at_root();
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
    at_root();
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
    at_root();
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
    at_root();
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
    at_root();
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
    at_root();
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

/// A sweep split into parts, each run as its own process (as a job array's
/// tasks are), merges into the whole sweep: the header once, then each
/// part's rows in order.
#[test]
fn sweep_shards_run_as_independent_jobs_merge_into_the_whole_sweep() {
    at_root();
    let sweep = |extra: &[&str]| {
        let mut args = vec![
            "sweep",
            "levels/trap.txt",
            "levels/demo.txt",
            "--param",
            "jump_height=2:4:1",
            "--param",
            "run_speed=5:7:2",
        ];
        args.extend(extra);
        let out = platnav(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let whole = sweep(&[]);
    assert_eq!(whole.lines().count(), 1 + 2 * 3 * 2);
    // 5 parts of 12 evaluations: blocks of 2 or 3 rows.
    let parts: Vec<String> = (0..5)
        .map(|k| sweep(&["--shard", &format!("{k}/5")]))
        .collect();
    let mut merged = parts[0].lines().next().unwrap().to_owned() + "\n";
    for p in &parts {
        assert_eq!(
            p.lines().next(),
            whole.lines().next(),
            "every part has the header"
        );
        let rows = p.lines().count() - 1;
        assert!((2..=3).contains(&rows), "{rows} rows");
        for line in p.lines().skip(1) {
            merged += line;
            merged += "\n";
        }
    }
    assert_eq!(merged, whole);
    // More parts than evaluations: the spare parts are a header alone.
    let spare = sweep(&["--shard", "0/13"]);
    assert_eq!(spare.lines().count(), 1);
    for bad in ["5/5", "1", "a/b", "0/0"] {
        let out = platnav(&[
            "sweep",
            "levels/trap.txt",
            "--param",
            "jump_height=2",
            "--shard",
            bad,
        ]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
}

#[test]
fn check_with_a_body_model_builds_its_map_and_performs_a_path() {
    at_root();
    let run = |level: &str, model: &str| {
        let out = platnav(&[
            "check",
            level,
            "--legend",
            "levels/smb/legend.json",
            "--model",
            model,
            "--json",
        ]);
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        (out.status.code(), doc)
    };
    // The NES Mario finishes SMB 1-1 with his own movement.
    let (code, doc) = run("levels/smb/mario-1-1.txt", "nes-small");
    assert_eq!(code, Some(0), "{doc}");
    assert_eq!(doc["model"], "nes-small");
    assert!(doc["links_on_path"].as_u64().unwrap() > 5, "{doc}");
    assert!(doc["goal"][0].as_i64().unwrap() >= 199, "{doc}");
    // The dash body jumps two tiles: the first pipe stops it.
    let (code, doc) = run("levels/smb/mario-1-1.txt", "dash");
    assert_eq!(code, Some(1), "{doc}");
    assert!(doc["goal"].is_null());
    assert!(doc["farthest"][0].as_i64().unwrap() < 40, "{doc}");
    // A model with the diagnosis switch, which only the profile's check
    // has, is refused.
    let out = platnav(&[
        "check",
        "levels/demo.txt",
        "--model",
        "dash",
        "--no-diagnosis",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn path_with_a_body_model_prints_inputs_the_model_performs() {
    use platnav::model::{BodyModel, nes::NesMario};
    use platnav::{Cell, Input, Level, formats::VglcLegend};
    at_root();
    let out = platnav(&[
        "path",
        "levels/smb/mario-1-1.txt",
        "--legend",
        "levels/smb/legend.json",
        "--model",
        "nes-small",
        "--from",
        "2,12",
        "--to",
        "45,12",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["found"], true);
    let inputs: Vec<Input> = doc["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let i = i.as_array().unwrap();
            let flag = |v: &Value| v.as_u64() == Some(1);
            Input::new(i[0].as_i64().unwrap() as i8, flag(&i[1]), flag(&i[2]))
        })
        .collect();
    assert_eq!(inputs.len() as u64, doc["ticks"].as_u64().unwrap());
    // Performed on the NES Mario from the start, the inputs end at rest
    // on the goal.
    let legend = VglcLegend::load(std::path::Path::new("levels/smb/legend.json")).unwrap();
    let level =
        Level::load_vglc(std::path::Path::new("levels/smb/mario-1-1.txt"), &legend).unwrap();
    let mario = NesMario::small();
    let mut s = mario.start(&level, Cell::new(2, 12));
    for i in inputs {
        mario.step(&level, &mut s, i);
    }
    assert!(mario.at_rest(&s) && !mario.dead(&s));
    assert_eq!(mario.standing_cell(&s), Some(Cell::new(45, 12)));
}
