//! The headless renderer draws what the map says: node colours at node
//! cells, the path where the body goes, and nothing half-written.

mod common;

use common::at_root;
use platnav::find_path;
use platnav::render::{Layers, PATH_COLOR, RenderOptions, node_color, render_map, tile_color};
use platnav::{Body, Cell, Level, NavMap, NodeType, Physics, SearchOptions, Tile};

fn demo_map() -> NavMap {
    let level: Level = include_str!("../../../levels/demo.txt").parse().unwrap();
    NavMap::build(&level, &Physics::agile()).unwrap()
}

#[test]
fn node_cells_show_their_palette_colour() {
    at_root();
    let map = demo_map();
    let opts = RenderOptions::default().with_layers(Layers::parse("tiles,nodes").unwrap());
    let canvas = render_map(&map, None, &opts).unwrap();
    assert_eq!(
        (canvas.width(), canvas.height()),
        (
            map.level().width() as u32 * 16,
            map.level().height() as u32 * 16
        ),
        "16 px per tile"
    );
    let (w, h) = (map.level().width(), map.level().height());
    let mut checked = std::collections::HashSet::new();
    for row in 0..h as i32 {
        for col in 0..w as i32 {
            let cell = Cell::new(col, row);
            let t = map.node_type(cell);
            let tile = map.level().get(cell).unwrap();
            let expected = match t {
                NodeType::AIR => tile_color(tile),
                NodeType::BLOCKED if tile.is_solid() => tile_color(tile),
                _ => node_color(t),
            };
            assert_eq!(
                canvas.pixel_at_cell(cell),
                Some(expected),
                "cell {cell} is {t:?} on {tile:?}"
            );
            checked.insert(t);
        }
    }
    for t in [
        NodeType::PLATFORM,
        NodeType::LEFT_EDGE,
        NodeType::RIGHT_EDGE,
        NodeType::LEFT_WALL,
        NodeType::ONE_WAY,
        NodeType::DEATH,
        NodeType::GOAL,
        NodeType::ROOF,
    ] {
        assert!(checked.contains(&t), "the demo level has no {t:?} cell");
    }
}

#[test]
fn path_pixels_lie_on_the_replayed_trajectory() {
    at_root();
    let map = demo_map();
    let (level, p) = (map.level(), map.physics());
    let start = level.cells_of(Tile::SPAWN).next().unwrap();
    let goal = level.cells_of(Tile::GOAL).next().unwrap();
    let path = find_path(&map, start, goal, &SearchOptions::default()).unwrap();
    let opts =
        RenderOptions::default().with_layers(Layers::parse("tiles,nodes,links,path").unwrap());
    let with = render_map(&map, Some(&path), &opts).unwrap();
    let without = render_map(&map, None, &opts).unwrap();
    assert_eq!(without.pixels().filter(|&c| c == PATH_COLOR).count(), 0);
    let path_pixels = with.pixels().filter(|&c| c == PATH_COLOR).count();
    assert!(
        path_pixels > 20 * path.steps().len(),
        "{path_pixels} path pixels"
    );
    // Sample the body's centre along the replay: nearly every sample is on
    // a path-coloured pixel (link-end dots may cover a few).
    let mut body = Body::standing(path.start(), p);
    let (mut hits, mut samples) = (0, 0);
    for (t, &input) in path.inputs().iter().enumerate() {
        body.step(level, p, input);
        if t % 5 == 0 {
            let (x, y) = (body.x * 16.0, (body.y - p.h / 2.0) * 16.0);
            samples += 1;
            if with.pixel(x as u32, y as u32) == Some(PATH_COLOR) {
                hits += 1;
            }
        }
    }
    assert!(
        hits * 10 >= samples * 9,
        "{hits} of {samples} samples on the path"
    );
}

#[test]
fn a_crop_draws_only_its_cells() {
    at_root();
    let map = demo_map();
    let opts = RenderOptions::default()
        .with_layers(Layers::parse("tiles,nodes").unwrap())
        .with_scale(4)
        .with_crop(Some(platnav::render::Crop {
            min: Cell::new(1, 10),
            max: Cell::new(10, 18),
        }));
    let canvas = render_map(&map, None, &opts).unwrap();
    assert_eq!((canvas.width(), canvas.height()), (40, 36));
    let cell = Cell::new(3, 17);
    assert_eq!(
        canvas.pixel_at_cell(cell),
        Some(node_color(map.node_type(cell)))
    );
    let bad = opts.with_crop(Some(platnav::render::Crop {
        min: Cell::new(0, 0),
        max: Cell::new(48, 3),
    }));
    assert!(render_map(&map, None, &bad).is_err());
}

#[test]
fn cli_render_writes_a_png_or_nothing() {
    at_root();
    let dir = std::env::temp_dir().join(format!("platnav-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("demo.png");
    let bin = env!("CARGO_BIN_EXE_platnav");
    let level = concat!(env!("CARGO_MANIFEST_DIR"), "/../../levels/demo.txt");
    let run = |extra: &[&str]| {
        std::process::Command::new(bin)
            .args(["render", level, "--preset", "agile", "--scale", "4", "-o"])
            .arg(&out)
            .args(extra)
            .output()
            .unwrap()
    };
    let bad = run(&["--crop", "0,0,99,3"]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(err.lines().count(), 1, "one-line error: {err}");
    assert!(!out.exists(), "nothing written on error");
    let good = run(&["--path", "2,3", "43,3"]);
    assert!(
        good.status.success(),
        "{}",
        String::from_utf8_lossy(&good.stderr)
    );
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let leftovers = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(leftovers, 1, "no temporary file left behind");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Slopes are drawn as their solid triangle, ladders as rails and rungs,
/// each in its tile colour over the background.
#[test]
fn slopes_show_their_triangle_and_ladders_their_rails() {
    at_root();
    use platnav::render::BACKGROUND;
    let level: Level = "/\\H.\n####\n".parse().unwrap();
    let map = NavMap::build(&level, &Physics::default()).unwrap();
    let opts = RenderOptions::default().with_layers(Layers::parse("tiles").unwrap());
    let canvas = render_map(&map, None, &opts).unwrap();
    let at = |col: u32, fx: f32, fy: f32| {
        let px = |v: f32| (v * 16.0) as u32;
        canvas.pixel(px(col as f32 + fx), px(fy)).unwrap()
    };
    let (right, left, ladder) = (
        tile_color(Tile::SLOPE_RIGHT),
        tile_color(Tile::SLOPE_LEFT),
        tile_color(Tile::LADDER),
    );
    // `/`: solid at the bottom right, open at the top left; `\` mirrored.
    assert_eq!((at(0, 0.85, 0.85), at(0, 0.15, 0.15)), (right, BACKGROUND));
    assert_eq!((at(1, 0.15, 0.85), at(1, 0.85, 0.15)), (left, BACKGROUND));
    // The ladder: a rail, the middle rung, and open space between rungs.
    assert_eq!(at(2, 0.2, 0.35), ladder);
    assert_eq!(at(2, 0.5, 0.5), ladder);
    assert_eq!(at(2, 0.5, 0.33), BACKGROUND);
    assert_eq!(at(3, 0.5, 0.5), BACKGROUND);
}
