//! `platnav fit`: a CSV recorded from the reference body, in a game's
//! pixels, gives back its profile as a physics file in pixels.

mod common;

use common::at_root;
use platnav::{Body, Cell, Input, Level, Physics};
use serde_json::Value;
use std::process::Command;

fn platnav(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_platnav"))
        .args(args)
        .output()
        .unwrap()
}

/// A floor, then a pit; runs, a held jump, a cut jump, then the pit.
fn recording(p: &Physics, tile: f64) -> String {
    let mut rows = vec![".".repeat(80); 62];
    rows[20] = "#".repeat(60) + &".".repeat(20);
    let level: Level = rows.join("\n").parse().unwrap();
    let mut body = Body::standing(Cell::new(5, 19), p);
    let mut script = Vec::new();
    for (n, m, jump) in [
        (10, 0, false),
        (50, 1, false),
        (20, 0, false),
        (30, -1, false),
        (60, 1, true),
        (20, 0, false),
        (5, -1, true),
        (60, -1, false),
        (700, 1, false),
    ] {
        script.extend(std::iter::repeat_n(Input::new(m, jump, false), n));
    }
    let mut csv = String::from("tick,left,right,jump,x,y\n");
    for (t, input) in script.into_iter().enumerate() {
        body.step(&level, p, input);
        if body.dead {
            break;
        }
        let (l, r) = (u8::from(input.move_x < 0), u8::from(input.move_x > 0));
        let j = if input.jump { "true" } else { "false" };
        csv += &format!("{t},{l},{r},{j},{},{}\n", body.x * tile, body.y * tile);
    }
    csv
}

#[test]
fn fit_prints_the_recorded_profile_in_pixels() {
    at_root();
    let hidden = Physics {
        run_speed: 7.3,
        ground_accel: 41.0,
        air_accel: 23.0,
        gravity: 47.0,
        jump_speed: 13.1,
        jump_cut_speed: 5.2,
        max_fall_speed: 14.0,
        ..Physics::default()
    };
    let dir = std::env::temp_dir().join(format!("platnav-fit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("run.csv");
    std::fs::write(&csv, recording(&hidden, 16.0)).unwrap();
    let out = platnav(&["fit", csv.to_str().unwrap(), "--tile", "16"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("fitted run_speed") && err.contains("largest"),
        "{err}"
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["units"], "px");
    for (name, want) in [
        ("run_speed", hidden.run_speed),
        ("ground_accel", hidden.ground_accel),
        ("air_accel", hidden.air_accel),
        ("gravity", hidden.gravity),
        ("jump_speed", hidden.jump_speed),
        ("jump_cut_speed", hidden.jump_cut_speed),
        ("max_fall_speed", hidden.max_fall_speed),
    ] {
        let got = doc[name].as_f64().unwrap() / 16.0;
        assert!(
            ((got - want) / want).abs() < 0.01,
            "{name}: {got} for {want}"
        );
    }
    // The printed file is a physics file platnav reads back.
    let file = dir.join("fitted.json");
    std::fs::write(&file, &out.stdout).unwrap();
    let back = Physics::from_json_over(
        &std::fs::read_to_string(&file).unwrap(),
        &Physics::default(),
    )
    .unwrap();
    assert!((back.gravity - hidden.gravity).abs() / hidden.gravity < 0.01);

    // Bad recordings are one-line errors naming the file and line.
    let bad = dir.join("bad.csv");
    for (text, says) in [
        ("tick,move,x,y\n0,1,2,3\n", "no \"jump\" column"),
        (
            "move,jump,x,y\n1,0,2,3\n1,maybe,2,3\n",
            "line 3: jump \"maybe\"",
        ),
        (
            "tick,move,jump,x,y\n0,1,0,2,3\n2,1,0,2,3\n",
            "line 3: tick 2 does not follow 0",
        ),
        ("move,jump,x,y\n1,0,2,3\n", "at least 8 ticks"),
    ] {
        std::fs::write(&bad, text).unwrap();
        let out = platnav(&["fit", bad.to_str().unwrap(), "--tile", "16"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{text}: {err}");
        assert!(
            err.contains(says) && err.contains("bad.csv"),
            "{says}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
