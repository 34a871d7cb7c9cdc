//! Saved nav maps: a loaded map answers every query exactly like a fresh
//! build, in JSON and in binary, and a file for another level or physics,
//! or a tampered one, is a clear error.

mod common;

use platnav::{find_path, io::navfile};
use std::path::Path;
use std::time::Instant;

use platnav::{
    Cell, NavMap, Physics, SearchOptions,
    formats::{LoadOptions, load_level},
    io::navfile::NavFileError,
    level::LoadedLevel,
};

fn load(path: &str, opts: LoadOptions) -> LoadedLevel {
    load_level(Path::new(path), &opts).unwrap()
}

/// Every query (every `stride`-th start to every goal) answers identically.
fn assert_same_answers(a: &NavMap, b: &NavMap, stride: usize) {
    assert_eq!(a.nodes(), b.nodes());
    assert_eq!(a.link_count(), b.link_count());
    for (la, lb) in a.links().zip(b.links()) {
        assert_eq!(la, lb);
        assert!(a.inputs(la.id).eq(b.inputs(lb.id)), "{la:?}");
    }
    let opts = SearchOptions::default();
    for (i, &s) in a
        .nodes()
        .iter()
        .enumerate()
        .filter(|(i, _)| i % stride == 0)
    {
        let _ = i;
        for &g in a.nodes().iter().step_by(3) {
            let (pa, pb) = (find_path(a, s, g, &opts), find_path(b, s, g, &opts));
            match (pa, pb) {
                (Ok(pa), Ok(pb)) => {
                    assert_eq!(pa.inputs(), pb.inputs(), "{s} -> {g}");
                    assert_eq!(pa.steps(), pb.steps());
                }
                (Err(ea), Err(eb)) => assert_eq!(ea.to_string(), eb.to_string()),
                (x, y) => panic!(
                    "{s} -> {g}: {:?} vs {:?}",
                    x.map(|p| p.ticks()),
                    y.map(|p| p.ticks())
                ),
            }
        }
    }
}

/// Files in `dir` that are neither saved maps nor levels: temporaries.
fn leftovers(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.') || n.ends_with(".tmp"))
        .collect();
    v.sort();
    v
}

#[test]
fn a_failed_save_leaves_no_temporary_file_behind() {
    let dir = std::env::temp_dir().join(format!("platnav-navfile-fail-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let level = common::demo();
    let map = NavMap::build(&level, &Physics::default()).unwrap();
    // The target is a directory: the temporary file is written, the rename
    // over the directory fails, and the temporary must go.
    let target = dir.join("taken.pnav");
    std::fs::create_dir_all(&target).unwrap();
    let err = navfile::save(&map, &target).unwrap_err().to_string();
    assert!(err.contains("taken.pnav"), "{err}");
    assert_eq!(leftovers(&dir), Vec::<String>::new());
    // A save that works leaves only the map.
    let ok = dir.join("ok.json");
    navfile::save(&map, &ok).unwrap();
    assert!(ok.exists());
    assert_eq!(leftovers(&dir), Vec::<String>::new());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_map_with_links_longer_than_4096_ticks_round_trips() {
    // At 1,000 ticks a second with a slow fall, drops on the demo take
    // over 4,096 ticks, which saved maps once refused to load.
    let physics = Physics {
        dt: 0.001,
        max_fall_speed: 1.0,
        ..Physics::default()
    };
    let level = common::demo();
    let map = NavMap::build(&level, &physics).unwrap();
    assert!(
        map.links().any(|l| l.ticks > 4096),
        "the fixture lost its long links"
    );
    let dir = std::env::temp_dir().join(format!("platnav-navfile-long-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for ext in ["json", "pnav"] {
        let file = dir.join(format!("long.{ext}"));
        navfile::save(&map, &file).unwrap();
        let loaded = navfile::load(&file, &level, &physics).unwrap();
        assert_eq!(loaded.link_count(), map.link_count());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn round_trip(name: &str, loaded: &LoadedLevel, physics: &Physics, stride: usize) {
    let level = &loaded.level;
    let fresh = NavMap::build(level, physics).unwrap();
    assert!(fresh.link_count() > 0, "{name}");
    // A directory per level: the round trips run in parallel, and one's
    // temporary file must not show in another's check for leftovers.
    let dir = std::env::temp_dir().join(format!("platnav-navfile-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for ext in ["json", "pnav"] {
        let file = dir.join(format!("{name}.{ext}"));
        navfile::save(&fresh, &file).unwrap();
        let size = std::fs::metadata(&file).unwrap().len();
        let t = Instant::now();
        let loaded_map = navfile::load(&file, level, physics).unwrap();
        let load_time = t.elapsed();
        println!(
            "{name}.{ext}: {} links, {size} bytes, loaded in {:.1} ms",
            fresh.link_count(),
            load_time.as_secs_f64() * 1e3
        );
        // The save wrote through a hidden temporary file beside the map
        // (`.NAME.PID.tmp`) and renamed it: nothing else is left.
        assert_eq!(leftovers(&dir), Vec::<String>::new());
        assert_same_answers(&fresh, &loaded_map, stride);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn smb_1_1_round_trips_in_json_and_binary() {
    let opts = LoadOptions::default().with_legend(Some("levels/smb/legend.json".into()));
    round_trip(
        "smb-1-1",
        &load("levels/smb/mario-1-1.txt", opts),
        &Physics::smb(),
        25,
    );
}

#[test]
fn the_demo_level_round_trips() {
    round_trip(
        "demo",
        &load("levels/demo.txt", LoadOptions::default()),
        &Physics::agile(),
        7,
    );
}

#[test]
fn the_sq2_tiled_level_round_trips() {
    let opts = LoadOptions::default().with_mapping(Some("levels/sq2/mapping.json".into()));
    round_trip(
        "sq2",
        &load("levels/sq2/Maps/level_01.tmx", opts),
        &Physics::sq2(),
        60,
    );
}

#[test]
fn tiled_json_and_png_mask_levels_round_trip() {
    let tmj = LoadOptions::default().with_mapping(Some("levels/small/mapping.json".into()));
    round_trip(
        "small-tmj",
        &load("levels/small/small.tmj", tmj),
        &Physics::smb(),
        1,
    );
    round_trip(
        "small-png",
        &load("levels/small/small.png", LoadOptions::default()),
        &Physics::smb(),
        1,
    );
}

#[test]
fn a_map_for_another_level_or_physics_is_refused() {
    let level = common::demo();
    let map = NavMap::build(&level, &Physics::agile()).unwrap();
    let json = navfile::to_json(&map).unwrap();
    let bytes = navfile::to_bytes(&map);
    let mut other = level.clone();
    other.set(Cell::new(10, 10), platnav::Tile::SOLID);
    assert!(matches!(
        navfile::from_json(&json, &other, &Physics::agile()),
        Err(NavFileError::LevelMismatch { .. })
    ));
    assert!(matches!(
        navfile::from_bytes(&bytes, &other, &Physics::agile()),
        Err(NavFileError::LevelMismatch { .. })
    ));
    assert!(matches!(
        navfile::from_json(&json, &level, &Physics::default()),
        Err(NavFileError::PhysicsMismatch { .. })
    ));
    assert!(matches!(
        navfile::from_bytes(&bytes, &level, &Physics::default()),
        Err(NavFileError::PhysicsMismatch { .. })
    ));
    let current = format!("\"version\":{}", navfile::NAVMAP_FORMAT_VERSION);
    let next = navfile::NAVMAP_FORMAT_VERSION + 1;
    let newer = json.replacen(&current, &format!("\"version\":{next}"), 1);
    assert!(matches!(
        navfile::from_json(&newer, &level, &Physics::agile()),
        Err(NavFileError::Version { found }) if found == next
    ));
    // Version 1 JSON reads the same.
    let older = json.replacen(&current, "\"version\":1", 1);
    let loaded = navfile::from_json(&older, &level, &Physics::agile()).unwrap();
    assert_same_answers(&map, &loaded, 97);
}

#[test]
fn tampered_or_truncated_files_are_errors_not_wrong_maps() {
    let level = common::demo();
    let p = Physics::agile();
    let map = NavMap::build(&level, &p).unwrap();
    let bytes = navfile::to_bytes(&map);
    // Every truncation is an error.
    for cut in (0..bytes.len()).step_by(997) {
        assert!(
            navfile::from_bytes(&bytes[..cut], &level, &p).is_err(),
            "cut at {cut}"
        );
    }
    // A changed input in the first link's tape (its first run's code,
    // its length kept): the tape no longer performs the link. Loading
    // checks structure only; `verify` replays, and no query returns a path
    // that does not.
    let mut bad = bytes.clone();
    let runs_start = 8 + 4 + 8 + 8 + 4 + 1 + 16 + 4 + 1 + 4 + 4;
    bad[runs_start] = 10 << 4 | (bad[runs_start] & 15); // move right, jump held
    let loaded = navfile::from_bytes(&bad, &level, &p).unwrap();
    let err = navfile::verify(&loaded).unwrap_err();
    assert!(matches!(err, NavFileError::BadLink { .. }), "{err}");
    assert_paths_replay(&loaded, &level, &p);
    // Same in JSON: rewrite the first tape to idle.
    let json = navfile::to_json(&map).unwrap();
    let first = json.find("\"inputs\":\"").unwrap() + 10;
    let end = first + json[first..].find('"').unwrap();
    let idle = "e".repeat(end - first);
    let tampered = format!("{}{}{}", &json[..first], idle, &json[end..]);
    let loaded = navfile::from_json(&tampered, &level, &p).unwrap();
    let err = navfile::verify(&loaded).unwrap_err();
    assert!(err.to_string().contains("does not take the body"), "{err}");
    assert_paths_replay(&loaded, &level, &p);
    assert!(navfile::verify(&map).is_ok());
    // Runs that are not a tape of the link's ticks are refused at load: a
    // code past the table (12 and up need the escape byte), an escape
    // before a code that needs none, runs one tick short or long.
    let first = bad[runs_start];
    for run in [0xC0, 0xE3, 0xF0, first.wrapping_sub(1), first + 1] {
        let mut bad = bytes.clone();
        bad[runs_start] = run;
        assert!(
            matches!(
                navfile::from_bytes(&bad, &level, &p),
                Err(NavFileError::BadLink { index: 0, .. })
            ),
            "{run:#x}"
        );
    }
    assert!(navfile::from_json("{}", &level, &p).is_err());
    assert!(navfile::from_bytes(b"PLATNAV\0\x01\0\0\0", &level, &p).is_err());
    // A huge declared link count is refused before allocating.
    let mut huge = bytes[..28].to_vec();
    huge.extend_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(
        navfile::from_bytes(&huge, &level, &p),
        Err(NavFileError::Malformed(_))
    ));
    let err = navfile::load(Path::new("no/such/map.pnav"), &level, &p).unwrap_err();
    assert!(err.to_string().starts_with("no/such/map.pnav: "), "{err}");
}

/// A version 1 binary file, one code byte per tick, as the module docs
/// describe it.
fn to_bytes_v1(map: &NavMap) -> Vec<u8> {
    let bytes = navfile::to_bytes(map);
    let mut out = bytes[..28].to_vec();
    out[8..12].copy_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&(map.link_count() as u32).to_le_bytes());
    for l in map.links() {
        out.push(l.kind.index() as u8);
        for v in [l.from.col, l.from.row, l.to.col, l.to.row] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&l.action_ticks.to_le_bytes());
        out.push(l.jumps);
        out.extend_from_slice(&l.ticks.to_le_bytes());
        out.extend(map.inputs(l.id).map(|i| {
            u8::from(i.up) * 12 + (i.move_x + 1) as u8 * 4 + u8::from(i.jump) * 2 + u8::from(i.down)
        }));
    }
    out
}

/// Version 1 binary files still load, and the runs of version 2 take a
/// fraction of their bytes.
#[test]
fn version_1_binary_maps_load_and_version_2_is_smaller() {
    let level = common::demo();
    let p = Physics::agile();
    let map = NavMap::build(&level, &p).unwrap();
    let (v1, v2) = (to_bytes_v1(&map), navfile::to_bytes(&map));
    let loaded = navfile::from_bytes(&v1, &level, &p).unwrap();
    assert_same_answers(&map, &loaded, 5);
    assert!(
        v2.len() * 2 < v1.len(),
        "{} vs {} bytes",
        v2.len(),
        v1.len()
    );
}

/// The size a saved map may have grows with its level: a file over the
/// 64 MiB that bounds level files is read for a level big enough to need
/// it (and then refused for what it holds, not for its size), and refused
/// unread for a small level.
#[test]
fn the_bound_on_a_saved_map_grows_with_its_level() {
    let dir = std::env::temp_dir().join(format!("platnav-navfile-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("big.pnav");
    let size = platnav::io::files::MAX_FILE_BYTES + 1;
    let mut bytes = b"PLATNAV\0".to_vec();
    bytes.resize(size as usize, 0);
    std::fs::write(&file, &bytes).unwrap();
    let p = Physics::default();
    let small = common::demo();
    let err = navfile::load(&file, &small, &p).unwrap_err().to_string();
    assert!(err.contains("file size in bytes"), "{err}");
    let huge = platnav::Level::new(1024, 1024, vec![platnav::Tile::EMPTY; 1 << 20]).unwrap();
    assert!(navfile::max_file_bytes(&huge) >= 1 << 30);
    let err = navfile::load(&file, &huge, &p).unwrap_err().to_string();
    assert!(err.contains("nav map format version 0"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn all_18_smb_levels_round_trip_and_answer_identically() {
    let legend = common::smb_legend();
    let files = common::smb_files();
    assert_eq!(files.len(), 18);
    let physics = Physics::smb();
    let check = |path: &std::path::PathBuf| {
        let level = platnav::Level::load_vglc(path, &legend).unwrap();
        let fresh = NavMap::build(&level, &physics).unwrap();
        let from_json =
            navfile::from_json(&navfile::to_json(&fresh).unwrap(), &level, &physics).unwrap();
        let from_bytes = navfile::from_bytes(&navfile::to_bytes(&fresh), &level, &physics).unwrap();
        for loaded in [&from_json, &from_bytes] {
            assert_same_answers(&fresh, loaded, fresh.node_count() / 4 + 1);
        }
    };
    std::thread::scope(|s| {
        let (a, b) = files.split_at(9);
        let h = s.spawn(|| a.iter().for_each(check));
        b.iter().for_each(check);
        h.join().unwrap();
    });
}

/// Every query on `map` between its nodes (a sample) either fails or
/// returns a path whose tape, replayed on a fresh body, ends standing on
/// its goal.
fn assert_paths_replay(map: &NavMap, level: &platnav::Level, p: &Physics) {
    let nodes = map.nodes();
    let opts = platnav::SearchOptions::default();
    let step = nodes.len() / 12 + 1;
    let mut found = 0;
    for &a in nodes.iter().step_by(step) {
        for &b in nodes.iter().step_by(step) {
            if let Ok(path) = find_path(map, a, b, &opts) {
                found += 1;
                let end = path.replay(level, p);
                assert!(end.stands_on(b), "{a} -> {b} ends at {end:?}");
            }
        }
    }
    assert!(found > 20, "only {found} paths found");
}
