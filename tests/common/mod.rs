//! Fixtures shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use platnav::level::SplitMix64;
use platnav::{Cell, Level, NavMap, Physics, Wrap, formats::VglcLegend};

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

/// A small level of `tests/exhaustive.rs`: a floor with a gap of 1 to 6
/// columns (open, or floored with spikes), and a few ledges, low ceilings,
/// one-way platforms, walls, ladders, slopes, jump pads and springs, a
/// quarter of the levels wrapping at their edges, chosen by `seed`; with
/// its start, a floor cell at the left.
pub fn small_level(seed: u64) -> (Level, Cell) {
    let mut rng = SplitMix64::new(seed);
    let w = 12 + rng.below(5) as usize;
    let h = 9;
    let mut g = vec![vec!['.'; w]; h];
    let floor = h - 1;
    g[floor] = vec!['#'; w];
    let put = |g: &mut Vec<Vec<char>>, c: usize, r: usize, t: char| {
        if c < w && r < h {
            g[r][c] = t;
        }
    };
    // A gap of 1 to 6 columns, somewhere right of the start: open, or
    // one time in three a floor of spikes (a body walking off dies on the
    // tick it leaves the ground).
    let gap = 1 + rng.below(6) as usize;
    let at = 3 + rng.below((w - 4) as u64) as usize;
    let pit = if rng.chance(1.0 / 3.0) { '^' } else { '.' };
    for c in at..(at + gap).min(w - 1) {
        put(&mut g, c, floor, pit);
    }
    for _ in 0..2 + rng.below(3) {
        let c = 3 + rng.below((w - 4) as u64) as usize;
        let len = 1 + rng.below(4) as usize;
        match rng.below(7) {
            // A ledge 1 to 3 rows high.
            0 => {
                let k = 1 + rng.below(3) as usize;
                for cc in c..c + len {
                    for r in floor - k..floor {
                        put(&mut g, cc, r, '#');
                    }
                }
            }
            // A low ceiling, 2 or 3 rows above the floor.
            1 => {
                let r = floor - 2 - rng.below(2) as usize;
                for cc in c..c + len + 1 {
                    put(&mut g, cc, r, '#');
                }
            }
            // A one-way platform.
            2 => {
                let r = floor - 2 - rng.below(3) as usize;
                for cc in c..c + len + 1 {
                    put(&mut g, cc, r, '=');
                }
            }
            // A wall 2 to 5 rows high.
            3 => {
                let k = 2 + rng.below(4) as usize;
                for r in floor - k..floor {
                    put(&mut g, c, r, '#');
                }
            }
            // A ladder up to a platform.
            4 => {
                let top = floor - 3 - rng.below(3) as usize;
                for r in top..floor {
                    put(&mut g, c, r, 'H');
                }
                for cc in c + 1..c + 1 + len {
                    put(&mut g, cc, top, '#');
                }
            }
            // A jump pad or a spring on the floor, under a ledge 4 to 6
            // rows up, out of a jump's reach.
            6 => {
                put(
                    &mut g,
                    c,
                    floor - 1,
                    if rng.chance(0.5) { 'P' } else { 'Z' },
                );
                let r = floor - 4 - rng.below(3) as usize;
                for cc in c + 1..c + 2 + len {
                    put(&mut g, cc, r, '#');
                }
            }
            // A slope up onto a one-row step.
            _ => {
                put(&mut g, c, floor - 1, '/');
                for cc in c + 1..c + 1 + len {
                    put(&mut g, cc, floor - 1, '#');
                }
            }
        }
    }
    // The start's column and its neighbours stay clear floor.
    for (r, row) in g.iter_mut().enumerate() {
        row[..3].fill(if r == floor { '#' } else { '.' });
    }
    let text: Vec<String> = g.iter().map(|r| r.iter().collect()).collect();
    // One level in four wraps: left and right, or every other time all
    // round, so that falling through the gap comes back in at the top.
    let wrap = match seed % 8 {
        3 => Wrap::X,
        7 => Wrap::XY,
        _ => Wrap::NONE,
    };
    let level = text.join("\n").parse::<Level>().unwrap().with_wrap(wrap);
    (level, Cell::new(1, (floor - 1) as i32))
}
