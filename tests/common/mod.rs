//! Fixtures shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use platnav::{Level, NavMap, Physics, formats::VglcLegend};

/// Whether the long fuzz and property runs were asked for: CI sets
/// `PLATNAV_LONG_TESTS=1`; a plain `cargo test` takes the short runs. The
/// runs' own variables (`PLATNAV_FUZZ_INPUTS`, `PLATNAV_PHYSICS_PROFILES`)
/// override either.
pub fn long_runs() -> bool {
    std::env::var("PLATNAV_LONG_TESTS").is_ok_and(|v| v == "1")
}

/// `short`, or `long` when [`long_runs`] is on, unless the variable `name`
/// holds a number.
pub fn runs(name: &str, short: u64, long: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if long_runs() { long } else { short })
}

/// A level from ASCII rows (the format of `levels/demo.txt`).
pub fn level(rows: &[&str]) -> Level {
    rows.join("\n").parse().unwrap()
}

/// The default demo level.
pub fn demo() -> Level {
    include_str!("../../levels/demo.txt").parse().unwrap()
}

/// Super Mario Bros. 1-1 from VGLC, with its legend.
pub fn smb_1_1() -> Level {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/smb");
    Level::load_vglc(&dir.join("mario-1-1.txt"), &smb_legend()).unwrap()
}

/// Small seeded random levels.
pub fn random_levels(count: u64) -> Vec<Level> {
    (0..count)
        .map(|seed| {
            Level::generate(
                26 + (seed as usize % 3) * 4,
                12 + (seed as usize % 2) * 3,
                1000 + seed,
            )
            .unwrap()
        })
        .collect()
}

/// Builds a map, failing the test on invalid physics.
pub fn build(level: &Level, physics: &Physics) -> NavMap {
    NavMap::build(level, physics).unwrap()
}

/// The 18 bundled SMB levels (`levels/smb/*.txt`), sorted by file name.
pub fn smb_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/smb");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    paths
}

/// The SMB legend of `levels/smb/legend.json`.
pub fn smb_legend() -> VglcLegend {
    VglcLegend::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/smb/legend.json")).unwrap()
}

/// The 18 bundled SMB levels with their names (file stems), sorted.
pub fn smb_levels() -> Vec<(String, Level)> {
    let legend = smb_legend();
    smb_files()
        .into_iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, Level::load_vglc(&p, &legend).unwrap())
        })
        .collect()
}

/// A reproducer of `levels/repro/` (see its README) with the Mega Man-like
/// profile it is played with.
pub fn megaman_repro(name: &str) -> (Level, Physics) {
    let dir = Path::new("levels/repro");
    let level: Level = std::fs::read_to_string(dir.join(name))
        .unwrap()
        .parse()
        .unwrap();
    let json = std::fs::read_to_string(dir.join("megaman.json")).unwrap();
    let physics = Physics::from_json_over(&json, &Physics::default()).unwrap();
    (level, physics)
}

/// Every link of `map` replays: performed from its start, the body ends
/// alive, at rest and standing on the link's end (`what` names the map in
/// a failure).
pub fn assert_links_replay(map: &NavMap, what: &str) {
    for l in map.links() {
        let end = *platnav::search::trajectory(map, l.id).last().unwrap();
        assert!(
            !end.dead && end.stands_on(l.to) && end.vx == 0.0,
            "{what}: {} {} -> {} does not replay: {end:?}",
            l.kind,
            l.from,
            l.to
        );
    }
}
