//! Every file in `tests/hostile/` must fail to load with an error that
//! names the file and the problem, and nothing may panic.
//!
//! `tests/hostile/expected.txt` has one line per file:
//! `name | substring the error must contain | options`, where options are
//! space-separated `legend=FILE`, `mapping=FILE`, `rules=FILE`, `ppt=N`,
//! `layer=NAME` or `level=NAME`
//! (files relative to the corpus). `make_corpus.py` writes the corpus.
//!
//! The expected messages assume every loader is built (default features).
#![cfg(all(feature = "tiled", feature = "png"))]

use std::collections::BTreeMap;
use std::path::Path;

use platnav::formats::{LoadOptions, load_level};

const DIR: &str = "tests/hostile";

struct Case {
    expect: String,
    opts: LoadOptions,
}

fn table() -> BTreeMap<String, Case> {
    let text = std::fs::read_to_string(Path::new(DIR).join("expected.txt")).unwrap();
    let mut cases = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let mut parts = line.split('|').map(str::trim);
        let name = parts.next().unwrap().to_owned();
        let expect = parts
            .next()
            .unwrap_or_else(|| panic!("no substring: {line}"))
            .to_owned();
        let mut opts = LoadOptions::default();
        for opt in parts.next().unwrap_or("").split_whitespace() {
            let (k, v) = opt.split_once('=').unwrap();
            match k {
                "legend" => opts.legend = Some(Path::new(DIR).join(v)),
                "mapping" => opts.mapping = Some(Path::new(DIR).join(v)),
                "rules" => opts.rules = Some(Path::new(DIR).join(v)),
                "level" => opts.level = Some(v.to_owned()),
                "ppt" => opts.pixels_per_tile = Some(v.parse().unwrap()),
                "layer" => opts.layer = Some(v.to_owned()),
                _ => panic!("unknown option {k} in {line}"),
            }
        }
        cases.insert(name, Case { expect, opts });
    }
    cases
}

#[test]
fn every_hostile_file_fails_cleanly_with_a_named_error() {
    let cases = table();
    let mut files: Vec<String> = std::fs::read_dir(DIR)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n != "expected.txt" && n != "make_corpus.py")
        .collect();
    files.sort();
    let mut failures = Vec::new();
    for name in &files {
        let Some(case) = cases.get(name) else {
            failures.push(format!("{name}: not in expected.txt"));
            continue;
        };
        let path = Path::new(DIR).join(name);
        let result = std::panic::catch_unwind(|| load_level(&path, &case.opts));
        match result {
            Err(_) => failures.push(format!("{name}: PANICKED")),
            Ok(Ok(_)) => failures.push(format!("{name}: loaded without error")),
            Ok(Err(e)) => {
                let msg = e.to_string();
                println!("{name}: {msg}");
                if !msg.contains(name.as_str()) {
                    failures.push(format!("{name}: error does not name the file: {msg}"));
                }
                if !msg.contains(&case.expect) {
                    failures.push(format!("{name}: expected {:?} in: {msg}", case.expect));
                }
            }
        }
    }
    for name in cases.keys() {
        if !files.contains(name) {
            failures.push(format!("{name}: in expected.txt but not in the corpus"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
