//! Seeded fuzzing of every loader (and the rules and physics files): random
//! bytes and mutations of valid files (bit flips, truncations, splices, huge
//! numbers). No input may panic. `PLATNAV_FUZZ_INPUTS` sets the inputs per loader (default
//! 3,000, or 100,000 with `PLATNAV_LONG_TESTS=1`, as CI runs it) and `PLATNAV_FUZZ_SEED` varies the stream (default 0); each test
//! prints its count, e.g. `fuzz tmx: 100000 inputs, 0 panics`. A panicking
//! input is written to the temp directory for a regression file.

mod common;

use platnav::io::navfile;
use std::cell::Cell as StdCell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

use platnav::Level;

/// splitmix64: small, fast and good enough to drive mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const HUGE: &[&str] = &[
    "4294967295",
    "4294967296",
    "2147483647",
    "-2147483648",
    "99999999999999999999",
    "-1",
    "0",
    "65536",
    "16777216",
    "1e308",
    "NaN",
    "inf",
    "3221225473",
];

fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut v = seed.to_vec();
    // Half the inputs carry a single mutation, so many still parse deeply.
    let rounds = if rng.below(2) == 0 {
        1
    } else {
        1 + rng.below(6)
    };
    for _ in 0..rounds {
        let len = v.len();
        match rng.below(9) {
            0 if len > 0 => {
                let i = rng.below(len);
                v[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                v[i] = rng.next() as u8;
            }
            2 => v.truncate(rng.below(len + 1)),
            3 => {
                // Replace a run of digits (or insert) with a huge number.
                let i = rng.below(len + 1);
                let mut j = i;
                while j < len && v[j].is_ascii_digit() {
                    j += 1;
                }
                let n = HUGE[rng.below(HUGE.len())].as_bytes();
                v.splice(i..j, n.iter().copied());
            }
            4 => {
                let i = rng.below(len + 1);
                let extra: Vec<u8> = (0..1 + rng.below(8)).map(|_| rng.next() as u8).collect();
                v.splice(i..i, extra);
            }
            5 if len > 0 => {
                let i = rng.below(len);
                let j = (i + 1 + rng.below(64)).min(len);
                v.drain(i..j);
            }
            6 if len > 0 => {
                // Duplicate a range somewhere else.
                let i = rng.below(len);
                let j = (i + 1 + rng.below(256)).min(len);
                let piece = v[i..j].to_vec();
                let at = rng.below(v.len() + 1);
                v.splice(at..at, piece);
            }
            7 => {
                let i = rng.below(len + 1);
                let s: &[u8] = [
                    &b"<"[..],
                    b">",
                    b"\"",
                    b",",
                    b"{",
                    b"}",
                    b"[",
                    b"]",
                    b"&",
                    b"\0",
                ][rng.below(10)];
                v.splice(i..i, s.iter().copied());
            }
            _ => {}
        }
    }
    v
}

/// Inputs per loader: 100,000 in the long runs CI makes, 3,000 in a plain
/// `cargo test` (see `common::runs`).
fn inputs() -> usize {
    common::runs("PLATNAV_FUZZ_INPUTS", 3_000, 100_000) as usize
}

thread_local! {
    static FUZZING: StdCell<bool> = const { StdCell::new(false) };
}

/// Silences panic messages raised inside fuzzed calls only.
fn quiet_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !FUZZING.with(StdCell::get) {
                default(info);
            }
        }));
    });
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Seeds of one kind from the fixtures and the hostile corpus.
fn seeds(mut files: Vec<Vec<u8>>, hostile_ext: &str) -> Vec<Vec<u8>> {
    for e in std::fs::read_dir("tests/hostile").unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == hostile_ext) {
            let b = read(p.to_str().unwrap());
            if b.len() < 1 << 16 {
                files.push(b);
            }
        }
    }
    files
}

/// Runs `n` inputs through `f`; returns the number that panicked.
fn fuzz(name: &str, seeds: &[Vec<u8>], salt: u64, f: impl Fn(&[u8]) -> bool) -> usize {
    quiet_hook();
    let n = inputs();
    let seed = std::env::var("PLATNAV_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(0);
    let mut rng = Rng(0x5EED_0000 ^ salt ^ seed.wrapping_mul(0x1_0000_0001));
    let mut panics = 0;
    let mut loaded = 0;
    let mut first = None;
    let start = std::time::Instant::now();
    for i in 0..n {
        let input = if rng.below(10) == 0 {
            (0..rng.below(300)).map(|_| rng.next() as u8).collect()
        } else {
            let s = &seeds[rng.below(seeds.len())];
            mutate(&mut rng, s)
        };
        FUZZING.with(|f| f.set(true));
        let r = catch_unwind(AssertUnwindSafe(|| f(&input)));
        FUZZING.with(|f| f.set(false));
        match r {
            Ok(true) => loaded += 1,
            Ok(false) => {}
            Err(_) => {
                panics += 1;
                first.get_or_insert((i, input));
            }
        }
    }
    println!(
        "fuzz {name}: {n} inputs, {panics} panics ({loaded} loaded, {:.1} s)",
        start.elapsed().as_secs_f64()
    );
    if let Some((i, input)) = first {
        let out = std::env::temp_dir().join(format!("platnav-fuzz-{name}-{i}"));
        let _ = std::fs::write(&out, &input);
        eprintln!("first panicking input #{i} written to {}", out.display());
    }
    panics
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn fuzz_ascii() {
    let seeds = seeds(vec![read("levels/small/small.txt")], "txt");
    assert_eq!(
        fuzz("ascii", &seeds, 1, |b| Level::from_ascii(&text(b)).is_ok()),
        0
    );
}

#[cfg(feature = "serde")]
#[test]
fn fuzz_vglc() {
    let legend =
        platnav::formats::VglcLegend::load(std::path::Path::new("levels/smb/legend.json")).unwrap();
    let smb = read("levels/smb/mario-1-1.txt");
    let seeds = seeds(vec![smb[..smb.len().min(4000)].to_vec()], "txt");
    assert_eq!(
        fuzz("vglc", &seeds, 2, |b| Level::from_vglc(&text(b), &legend)
            .is_ok()),
        0
    );
}

#[cfg(feature = "serde")]
#[test]
fn fuzz_vglc_legend_json() {
    let seeds = seeds(vec![read("levels/smb/legend.json")], "json");
    assert_eq!(
        fuzz("vglc legend", &seeds, 3, |b| {
            platnav::formats::VglcLegend::from_json(&text(b)).is_ok()
        }),
        0
    );
}

#[cfg(feature = "tiled")]
fn small_mapping() -> platnav::rules::TileMapping {
    platnav::rules::TileMapping::load(std::path::Path::new("levels/small/mapping.json")).unwrap()
}

#[cfg(feature = "tiled")]
#[test]
fn fuzz_tmx() {
    // small.tmx with its tileset embedded (the fuzzed maps read no files).
    let tsx = String::from_utf8(read("levels/small/small.tsx")).unwrap();
    let body = &tsx[tsx.find("<tileset").unwrap()..];
    let embedded = String::from_utf8(read("levels/small/small.tmx"))
        .unwrap()
        .replace(
            r#"<tileset firstgid="1" source="small.tsx"/>"#,
            &body.replacen("<tileset", r#"<tileset firstgid="1""#, 1),
        );
    let seeds = seeds(
        vec![
            embedded.into_bytes(),
            read("levels/small/small-infinite.tmx"),
        ],
        "tmx",
    );
    let mapping = small_mapping();
    let n = fuzz("tmx", &seeds, 4, |b| {
        platnav::level::LoadedLevel::from_tmx_bytes(b, None, &mapping).is_ok()
    });
    assert_eq!(n, 0);
}

#[cfg(feature = "tiled")]
#[test]
fn fuzz_tmj() {
    let tsj = text(&read("levels/small/small.tsj"));
    let mut map: serde_json::Value =
        serde_json::from_slice(&read("levels/small/small.tmj")).unwrap();
    let mut ts: serde_json::Value = serde_json::from_str(&tsj).unwrap();
    ts["firstgid"] = 1.into();
    map["tilesets"] = serde_json::Value::Array(vec![ts]);
    let seeds = seeds(
        vec![
            map.to_string().into_bytes(),
            read("levels/small/small-infinite.tmj"),
        ],
        "tmj",
    );
    let mapping = small_mapping();
    let n = fuzz("tmj", &seeds, 5, |b| {
        platnav::level::LoadedLevel::from_tmj_str(&text(b), None, &mapping).is_ok()
    });
    assert_eq!(n, 0);
}

#[cfg(feature = "tiled")]
#[test]
fn fuzz_mapping_json() {
    let seeds = seeds(
        vec![
            read("levels/small/mapping.json"),
            read("levels/sq2/mapping.json"),
        ],
        "json",
    );
    assert_eq!(
        fuzz("mapping", &seeds, 6, |b| {
            platnav::rules::TileMapping::from_json(&text(b)).is_ok()
        }),
        0
    );
}

#[cfg(feature = "png")]
#[test]
fn fuzz_png_mask() {
    let seeds = seeds(
        vec![
            read("levels/small/small.png"),
            read("levels/small/small-4x.png"),
        ],
        "png",
    );
    let legend = platnav::formats::ColorLegend::default();
    let n = fuzz("png", &seeds, 7, |b| {
        let ppt = if b.len() % 2 == 0 { 1 } else { 4 };
        platnav::level::LoadedLevel::from_png_bytes(b, &legend, ppt).is_ok()
    });
    assert_eq!(n, 0);
}

#[cfg(feature = "png")]
#[test]
fn fuzz_color_legend_json() {
    let seeds = vec![
        br##"{"#000000": "solid", "#FFFFFF": "empty", "#FF000080": "hazard", "#00FF00": "goal"}"##
            .to_vec(),
        read("tests/hostile/bad-legend.json"),
    ];
    assert_eq!(
        fuzz("color legend", &seeds, 8, |b| {
            platnav::formats::ColorLegend::from_json(&text(b)).is_ok()
        }),
        0
    );
}

/// A tiny map, so that replay-validating a mutated file stays cheap.
#[cfg(feature = "serde")]
fn tiny_map() -> (Level, platnav::Physics, platnav::NavMap) {
    let level: Level = "..........\n......##..\n..........\n###..#####\n"
        .parse()
        .unwrap();
    let physics = platnav::Physics::smb();
    let map = platnav::NavMap::build(&level, &physics).unwrap();
    assert!(map.link_count() >= 10);
    (level, physics, map)
}

#[cfg(feature = "serde")]
#[test]
fn fuzz_navmap_json() {
    let (level, physics, map) = tiny_map();
    let seeds = vec![navfile::to_json(&map).unwrap().into_bytes()];
    assert_eq!(
        fuzz("navmap json", &seeds, 9, |b| navfile::from_json(
            &text(b),
            &level,
            &physics
        )
        .is_ok()),
        0
    );
}

#[cfg(feature = "serde")]
#[test]
fn fuzz_navmap_binary() {
    let (level, physics, map) = tiny_map();
    let seeds = vec![navfile::to_bytes(&map)];
    assert_eq!(
        fuzz("navmap binary", &seeds, 10, |b| {
            navfile::from_bytes(b, &level, &physics).is_ok()
        }),
        0
    );
}

/// A saved map opened lazily: damaged headers and indexes are errors,
/// damaged blocks are generated instead; nothing panics.
#[cfg(feature = "serde")]
#[test]
fn fuzz_navmap_opened_lazily() {
    let (level, physics, map) = tiny_map();
    let seeds = vec![navfile::to_bytes(&map)];
    let dir = std::env::temp_dir().join(format!("platnav-fuzz-lazy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("map.pnav");
    assert_eq!(
        fuzz("navmap opened lazily", &seeds, 11, |b| {
            std::fs::write(&file, b).unwrap();
            let Ok(lazy) = navfile::open_lazy(&file, &level, &physics) else {
                return false;
            };
            lazy.into_map().is_ok()
        }),
        0
    );
}

#[cfg(feature = "serde")]
#[test]
fn fuzz_model_map_json() {
    use platnav::io::modelfile;
    use platnav::model::{ModelMap, dash::DashBody};
    let (level, _, _) = tiny_map();
    let map = ModelMap::build(&level, DashBody).unwrap();
    assert!(map.links().len() >= 10);
    let dir = std::env::temp_dir().join(format!("platnav-fuzz-model-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("map.json");
    modelfile::save(&map, &file).unwrap();
    let seeds = vec![std::fs::read(&file).unwrap()];
    assert_eq!(
        fuzz("model map json", &seeds, 13, |b| {
            std::fs::write(&file, b).unwrap();
            modelfile::load(&file, &level, DashBody).is_ok()
        }),
        0
    );
}

/// A Tiled JSON map with everything the rules engine reads: collision
/// shapes (flipped), object areas, polylines, ellipses, rotated rectangles,
/// old property dictionaries, layer properties, spawn and goal objects.
#[cfg(feature = "tiled")]
const SHAPES_TMJ: &str = r#"{"type": "map", "orientation": "orthogonal", "width": 6, "height": 4,
 "tilewidth": 16, "tileheight": 16,
 "tilesets": [{"firstgid": 1, "name": "t", "tilecount": 4, "tilewidth": 16, "tileheight": 16,
   "tileproperties": {"3": {"isSpike": true}}, "tilepropertytypes": {"3": {"isSpike": "bool"}},
   "tiles": [{"id": 0, "objectgroup": {"objects": [{"id": 1, "x": 0, "y": 0, "width": 16, "height": 3}]}},
             {"id": 1, "objectgroup": {"objects": [{"id": 1, "x": 0, "y": 0, "polygon": [{"x": 0, "y": 16}, {"x": 16, "y": 16}, {"x": 16, "y": 0}]}]}},
             {"id": 2, "type": "Wall", "properties": [{"name": "TileType", "type": "string", "value": "Geometry"}]}]}],
 "layers": [
  {"type": "tilelayer", "name": "Ground", "width": 6, "height": 4, "properties": [{"name": "collides", "type": "bool", "value": true}],
   "data": [0, 0, 0, 0, 0, 0, 1, 2147483650, 0, 0, 4, 0, 0, 0, 1073741825, 0, 0, 0, 3, 3, 3, 3, 3, 3]},
  {"type": "group", "name": "g", "visible": false, "layers": [
   {"type": "tilelayer", "name": "Back", "width": 6, "height": 4, "data": [3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}]},
  {"type": "objectgroup", "name": "Collision", "objects": [
   {"id": 1, "x": 16, "y": 16, "width": 32, "height": 16, "rotation": 30},
   {"id": 2, "x": 48, "y": 0, "ellipse": true, "width": 32, "height": 32},
   {"id": 3, "x": 0, "y": 32, "polyline": [{"x": 0, "y": 0}, {"x": 40, "y": 3}, {"x": 80, "y": 0}]},
   {"id": 4, "x": 60, "y": 10, "polygon": [{"x": 0, "y": 0}, {"x": 20, "y": 5}, {"x": 3, "y": 30}]}]},
  {"type": "objectgroup", "name": "Things", "objects": [
   {"id": 5, "name": "Spawn Point", "x": 24, "y": 40, "point": true},
   {"id": 6, "name": "exit", "gid": 3, "x": 80, "y": 48, "width": 16, "height": 16}]}]}"#;

#[cfg(feature = "tiled")]
#[test]
fn fuzz_tmj_rules_and_shapes() {
    let seeds = vec![SHAPES_TMJ.as_bytes().to_vec()];
    let conventions = platnav::rules::TileMapping::default();
    let rules = platnav::rules::TileMapping::from_json(
        r#"{"layers": {"Ground": "tiles", "Back": "hazard"}, "objects": {"Collision": "solid"},
            "properties": {"TileType": {"Geometry": "solid", "*": "empty"}}, "spawn": ["Spawn Point"]}"#,
    )
    .unwrap();
    let n = fuzz("tmj rules", &seeds, 11, |b| {
        let t = text(b);
        let a = platnav::level::LoadedLevel::from_tmj_str(&t, None, &conventions).is_ok();
        let r = platnav::level::LoadedLevel::from_tmj_str(&t, None, &rules).is_ok();
        a || r
    });
    assert_eq!(n, 0);
}

/// An LDtk project whose tiles are marked by enum tags and whose IntGrid
/// layer carries auto-layer tiles (the tileset reading's inputs).
#[cfg(feature = "ldtk")]
const TAGGED_LDTK: &str = r#"{"jsonVersion": "1.5.3", "defs": {
  "layers": [{"uid": 1, "identifier": "walls", "type": "IntGrid",
              "intGridValues": [{"value": 1, "identifier": "walls"}, {"value": 3, "identifier": "light"}]}],
  "tilesets": [{"uid": 7, "identifier": "World", "tileGridSize": 16,
                "enumTags": [{"enumValueId": "Solid", "tileIds": [1, 9]}, {"enumValueId": "Ladder", "tileIds": [2]}]}]},
  "levels": [{"identifier": "Flat", "pxWid": 64, "pxHei": 48, "layerInstances": [
    {"__identifier": "Tiles", "__type": "Tiles", "__cWid": 4, "__cHei": 3, "__gridSize": 16,
     "__tilesetDefUid": 7, "gridTiles": [{"px": [0, 32], "t": 1, "f": 1}, {"px": [48, 16], "t": 2, "f": 3}]},
    {"__identifier": "walls", "__type": "IntGrid", "__cWid": 4, "__cHei": 3, "__gridSize": 16,
     "layerDefUid": 1, "__tilesetDefUid": 7, "intGridCsv": [0, 0, 0, 0, 3, 3, 0, 0, 1, 1, 1, 1],
     "autoLayerTiles": [{"px": [0, 16], "t": 9, "f": 0}, {"px": [16, 16], "t": 4, "f": 0}]}]}]}"#;

#[cfg(feature = "ldtk")]
#[test]
fn fuzz_ldtk() {
    let seeds = seeds(
        vec![
            read("levels/ldtk/small.ldtk"),
            read("levels/ldtk/small-worlds.ldtk"),
            TAGGED_LDTK.as_bytes().to_vec(),
        ],
        "ldtk",
    );
    let conventions = platnav::rules::TileMapping::default();
    let rules = platnav::rules::TileMapping::from_json(
        r#"{"layers": {"Collisions": "tiles", "Wall_shadows": "solid"}, "intgrid": {"2": "one_way", "ladder": "solid"},
            "tiles": {"World:9": "one_way", "4": "hazard"}, "objects": {"kind": {"crate": "ignore", "*": "solid"}}}"#,
    )
    .unwrap();
    let n = fuzz("ldtk", &seeds, 12, |b| {
        let t = text(b);
        let a = platnav::level::LoadedLevel::from_ldtk_str(&t, None, None, &conventions).is_ok();
        let r = platnav::level::LoadedLevel::from_ldtk_str(&t, None, Some("Flat"), &rules).is_ok();
        a || r
    });
    assert_eq!(n, 0);
}

#[cfg(feature = "serde")]
#[test]
fn fuzz_rules_json() {
    let seeds = vec![
        br#"{"layers": {"Ground": "tiles", "*": "solid", "Decor": "ignore"}, "collide_unless": "nocollide",
            "properties": {"collides": "solid", "TileType": {"Geometry": "solid", "*": "empty"}},
            "classes": {"Spike": "hazard"}, "shapes": true, "objects": {"Collision": "solid"},
            "intgrid": {"dirt": "solid", "2": "ladder"}, "spawn": ["Player"], "goal": ["exit"], "conventions": true}"#
            .to_vec(),
        read("levels/sq2/mapping.json"),
    ];
    assert_eq!(
        fuzz("rules", &seeds, 13, |b| {
            platnav::rules::TileMapping::from_json(&text(b)).is_ok()
        }),
        0
    );
}

#[cfg(feature = "serde")]
#[test]
fn fuzz_physics_file() {
    let seeds = vec![
        read("levels/real/bevy_ecs_ldtk/physics.json"),
        br#"{"preset": "agile", "units": "px", "tile": 16, "per": "frame", "fps": 60, "run_speed": 2,
            "jump_height": 48, "time_to_apex": 0.4, "wall_jump": {"speed_x": 1.5}, "air_jumps": 1, "dt": 0.0166}"#
            .to_vec(),
    ];
    let base = platnav::Physics::default();
    assert_eq!(
        fuzz("physics file", &seeds, 14, |b| {
            platnav::Physics::from_json_over(&text(b), &base).is_ok()
        }),
        0
    );
}
