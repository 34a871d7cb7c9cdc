//! Fixtures shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use platnav::{Level, NavMap, Physics, level::VglcLegend};

/// The default demo level.
pub fn demo() -> Level {
    include_str!("../../levels/demo.txt").parse().unwrap()
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
