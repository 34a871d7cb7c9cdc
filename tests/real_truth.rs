//! Every real map in `levels/real` and `levels/real2`, read with zero
//! config (or with the short rules file beside it, where its game decides
//! by something no file holds), against the truth its game's code gives.
//!
//! Each `*.truth` file beside a map was written by that project's
//! `truth.py`, which parses the map itself and applies the game's rules as
//! its code does (cited there), never from platnav's output. A truth file
//! is `MAP.truth` for a Tiled map and `PROJECT.ldtk.LEVEL.truth` for one
//! level of an LDtk project: a comment, `spawn C,R` (or `none`), `goal
//! C,R ...` (or `none`), then the grid (`#` solid, `=` one-way, `^` hazard,
//! `H` ladder, `/` `\` 45° slopes, `s` other slopes, `.` nothing). The
//! 45° slopes must also rise to the side the game's do.
#![cfg(all(feature = "tiled", feature = "ldtk"))]

use std::path::{Path, PathBuf};

use platnav::Cell;
use platnav::formats::{LoadOptions, load_level};
use platnav::level::LoadedLevel;

/// One truth file, read.
struct Truth {
    map: PathBuf,
    level: Option<String>,
    spawn: Option<Cell>,
    goals: Vec<Cell>,
    grid: Vec<Vec<char>>,
}

fn cell(s: &str) -> Cell {
    let (c, r) = s.split_once(',').expect("C,R");
    Cell::new(c.parse().unwrap(), r.parse().unwrap())
}

fn read_truth(path: &Path) -> Truth {
    let text = std::fs::read_to_string(path).unwrap();
    let name = path.file_name().unwrap().to_str().unwrap();
    let stem = name.strip_suffix(".truth").unwrap();
    let (file, level) = match stem.split_once(".ldtk.") {
        Some((p, l)) => (format!("{p}.ldtk"), Some(l.to_owned())),
        None => (stem.to_owned(), None),
    };
    let mut lines = text.lines().skip_while(|l| l.starts_with("# "));
    let spawn = lines.next().unwrap().strip_prefix("spawn ").unwrap();
    let goal = lines.next().unwrap().strip_prefix("goal ").unwrap();
    Truth {
        map: path.with_file_name(file),
        level,
        spawn: (spawn != "none").then(|| cell(spawn)),
        goals: if goal == "none" {
            Vec::new()
        } else {
            goal.split_whitespace().map(cell).collect()
        },
        grid: lines.map(|l| l.chars().collect()).collect(),
    }
}

fn truth_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            truth_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "truth") {
            out.push(p);
        }
    }
}

/// The classes compared, as (name, truth chars, platnav chars, least
/// overlap). Slopes of any shape count as solid ground.
const CLASSES: [(&str, &str, &str, f64); 4] = [
    ("solid", "#/\\s", "#/\\", 0.95),
    ("one-way", "=", "=", 0.9),
    ("hazard", "^", "^", 0.9),
    ("ladder", "H", "H", 0.9),
];

/// Maps whose hazards change as the game runs, so that no static reading
/// of the file has them: their truth's hazard cells are left out of every
/// comparison, and the gap stays listed here with its reason.
const DYNAMIC_HAZARDS: [(&str, &str); 1] = [(
    "nuclear-blaze-ld48",
    "fire: FireStarter entities ignite cells by the game's code at level start, fire spreads \
     along walls, and the player hoses it out",
)];

/// Intersection over union of the cells of one class (1 when both have none).
fn overlap(truth: &[Vec<char>], ours: &[Vec<char>], t: &str, o: &str) -> (f64, usize, usize) {
    let (mut both, mut either, mut nt, mut no) = (0, 0, 0, 0);
    for (tr, or) in truth.iter().zip(ours) {
        for (tc, oc) in tr.iter().zip(or).filter(|(t, _)| **t != '?') {
            let (a, b) = (t.contains(*tc), o.contains(*oc));
            both += usize::from(a && b);
            either += usize::from(a || b);
            nt += usize::from(a);
            no += usize::from(b);
        }
    }
    let v = if either == 0 {
        1.0
    } else {
        both as f64 / either as f64
    };
    (v, nt, no)
}

/// Whether every cell of `a` lies within one cell of some cell of `b`.
fn near_all(a: &[Cell], b: &[Cell]) -> bool {
    a.iter().all(|x| {
        b.iter()
            .any(|y| (x.col - y.col).abs() <= 1 && (x.row - y.row).abs() <= 1)
    })
}

fn load(t: &Truth) -> LoadedLevel {
    let rules = PathBuf::from(format!("{}.rules.json", t.map.display()));
    let opts = LoadOptions::default()
        .with_level(t.level.clone())
        .with_rules(rules.exists().then_some(rules));
    load_level(&t.map, &opts).unwrap_or_else(|e| panic!("{}: {e}", t.map.display()))
}

/// Checks every truth file under `dir` (one project), failing with every
/// map and class that misses its bound.
fn check_project(dir: &str) {
    let mut files = Vec::new();
    truth_files(Path::new(dir), &mut files);
    assert!(!files.is_empty(), "no truth file under {dir}");
    let mut failures = Vec::new();
    for f in &files {
        check_map(f, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Checks one truth file, pushing what misses to `failures`.
fn check_map(f: &Path, failures: &mut Vec<String>) {
    let t = read_truth(f);
    let l = load(&t);
    let ours: Vec<Vec<char>> = l
        .level
        .to_string()
        .lines()
        .map(|r| r.chars().collect())
        .collect();
    let name = f.strip_prefix("levels").unwrap().display().to_string();
    let dims = |g: &[Vec<char>]| (g.first().map_or(0, Vec::len), g.len());
    if dims(&ours) != dims(&t.grid) {
        failures.push(format!(
            "{name}: size {:?}, truth {:?}",
            dims(&ours),
            dims(&t.grid)
        ));
        return;
    }
    let mut line = format!("{name}:");
    let dynamic = DYNAMIC_HAZARDS.iter().find(|(p, _)| name.contains(p));
    let mut truth = t.grid.clone();
    if let Some((_, why)) = dynamic {
        let n = truth.iter().flatten().filter(|c| **c == '^').count();
        line += &format!(" ({n} hazard cells left out: {why})");
        for c in truth.iter_mut().flatten().filter(|c| **c == '^') {
            *c = '?';
        }
    }
    for (class, tc, oc, least) in CLASSES {
        if dynamic.is_some() && class == "hazard" {
            continue;
        }
        let (v, nt, no) = overlap(&truth, &ours, tc, oc);
        line += &format!(" {class} {v:.3} ({nt}/{no})");
        if v < least {
            failures.push(format!(
                "{name}: {class} overlap {v:.3} < {least} (truth {nt} cells, platnav {no})"
            ));
        }
    }
    // 45° slopes rise to the side the game's do.
    let slopes: Vec<(char, char)> = truth
        .iter()
        .zip(&ours)
        .flat_map(|(t, o)| t.iter().zip(o))
        .filter(|(t, _)| matches!(t, '/' | '\\'))
        .map(|(t, o)| (*t, *o))
        .collect();
    if !slopes.is_empty() {
        let same = slopes.iter().filter(|(t, o)| t == o).count();
        line += &format!(" slopes {same}/{}", slopes.len());
        if (same as f64) < 0.9 * slopes.len() as f64 {
            failures.push(format!(
                "{name}: {same} of {} slopes rise the game's way",
                slopes.len()
            ));
        }
    }
    eprintln!("{line}");
    let spawn_ok = match (t.spawn, l.spawn) {
        (Some(a), Some(b)) => near_all(&[a], &[b]),
        (None, _) => true,
        (Some(_), None) => false,
    };
    if !spawn_ok {
        failures.push(format!("{name}: spawn {:?}, truth {:?}", l.spawn, t.spawn));
    }
    if !(near_all(&t.goals, &l.goals) && near_all(&l.goals, &t.goals)) {
        failures.push(format!("{name}: goals {:?}, truth {:?}", l.goals, t.goals));
    }
}

/// The projects, one test each.
const PROJECTS: [&str; 11] = [
    "levels/real/macroquad",
    "levels/real/flixel-demos",
    "levels/real/bevy_ecs_ldtk",
    "levels/real/phaser3-tilemap-blog",
    "levels/real2/nez-samples",
    "levels/real2/monogame-extended",
    "levels/real2/phaser3-super-mario-land",
    "levels/real2/sunnyland",
    "levels/real2/securas-ldtk-godot4",
    "levels/real2/nuclear-blaze-ld48",
    "levels/real2/ldtkmonogame-platformer",
];

macro_rules! project_tests {
    ($($name:ident => $i:expr),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                check_project(PROJECTS[$i]);
            }
        )*
    };
}

project_tests! {
    macroquad => 0,
    flixel_demos => 1,
    bevy_ecs_ldtk => 2,
    phaser3_tilemap_blog => 3,
    nez_samples => 4,
    monogame_extended => 5,
    phaser3_super_mario_land => 6,
    sunnyland => 7,
    securas_ldtk_godot4 => 8,
    nuclear_blaze_ld48 => 9,
    ldtkmonogame_platformer => 10,
}

/// Every folder with a truth file is one of the projects tested above.
#[test]
fn every_project_with_a_truth_is_tested() {
    for set in ["levels/real", "levels/real2"] {
        let mut files = Vec::new();
        truth_files(Path::new(set), &mut files);
        for f in files {
            let project = f.iter().take(3).collect::<PathBuf>();
            assert!(
                PROJECTS.iter().any(|p| Path::new(p) == project),
                "{} has no test",
                f.display()
            );
        }
    }
}
