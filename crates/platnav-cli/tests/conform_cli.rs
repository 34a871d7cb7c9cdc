//! `platnav conform`: a map's links performed on another profile, with
//! the failures listed and the exit code saying whether there were any.

mod common;

use common::at_root;
use serde_json::Value;
use std::process::Command;

fn platnav(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_platnav"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn conform_counts_the_links_another_profile_performs() {
    at_root();
    // The same profile performs every link: exit 0.
    let same = platnav(&[
        "conform",
        "levels/demo.txt",
        "--preset",
        "agile",
        "--on-preset",
        "agile",
    ]);
    assert_eq!(same.status.code(), Some(0), "{}", stdout(&same));
    let text = stdout(&same);
    let first = text.lines().next().unwrap();
    assert!(first.ends_with("links performed (100.0 %)"), "{text}");
    // Without air jumps, the double jumps fail: exit 1, with the failures
    // listed as kind, cells and what the other body did.
    let args = [
        "conform",
        "levels/demo.txt",
        "--preset",
        "agile",
        "--on-preset",
        "default",
        "--show",
        "3",
    ];
    let other = platnav(&args);
    assert_eq!(other.status.code(), Some(1));
    let text = stdout(&other);
    assert!(text.contains("not performed (first 3):"), "{text}");
    let listed: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("not performed"))
        .skip(1)
        .collect();
    assert_eq!(listed.len(), 3, "{text}");
    assert!(
        listed
            .iter()
            .all(|l| l.contains(" -> ") && l.contains(": "))
    );
    // The JSON holds every failure, and the counts add up.
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let doc: Value = serde_json::from_str(&stdout(&platnav(&json_args))).unwrap();
    let (links, performed) = (
        doc["links"].as_u64().unwrap(),
        doc["performed"].as_u64().unwrap(),
    );
    let failures = doc["failures"].as_array().unwrap();
    assert_eq!(performed + failures.len() as u64, links);
    assert!(failures.len() > 3);
    let double = doc["by_kind"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kind"] == "double_jump")
        .unwrap();
    assert!(double["performed"].as_u64() < double["links"].as_u64());
}

#[test]
fn conform_performs_the_links_on_a_body_model() {
    at_root();
    let args = |model| {
        [
            "conform",
            "levels/demo.txt",
            "--preset",
            "smb",
            "--on-model",
            model,
            "--json",
        ]
    };
    let performed = |model| {
        let out = platnav(&args(model));
        assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
        let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
        let (links, performed) = (
            doc["links"].as_u64().unwrap(),
            doc["performed"].as_u64().unwrap(),
        );
        assert_eq!(
            performed + doc["failures"].as_array().unwrap().len() as u64,
            links
        );
        performed
    };
    // The NES Mario performs some of the float profile's links; the dash
    // body, which cannot steer in the air, fewer.
    let (nes, dash) = (performed("nes-small"), performed("dash"));
    assert!(nes > dash && nes > 0, "{nes} vs {dash}");
    // A model and a profile at once is refused.
    let both = platnav(&[
        "conform",
        "levels/demo.txt",
        "--on-model",
        "dash",
        "--on-preset",
        "smb",
    ]);
    assert_eq!(both.status.code(), Some(2));
}

#[test]
fn conform_needs_a_valid_other_profile() {
    at_root();
    let none = platnav(&["conform", "levels/demo.txt"]);
    assert_eq!(none.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&none.stderr).contains("--on-preset"));
    let dir = std::env::temp_dir().join(format!("platnav-conform-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"run_speed": -3}"#).unwrap();
    let out = platnav(&[
        "conform",
        "levels/demo.txt",
        "--on-physics",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.json") && err.contains("run_speed"),
        "{err}"
    );
    let unknown = platnav(&["conform", "levels/demo.txt", "--on-preset", "nope"]);
    assert_eq!(unknown.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}
