//! Fixtures shared by the integration tests.
#![allow(dead_code)]

use platnav::{Level, NavMap, Physics};

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
