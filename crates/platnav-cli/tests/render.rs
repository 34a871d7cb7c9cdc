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

/// `levels/lifts.txt` with its two lifts and a path in time that rides
/// both: each lift is filled in the platform colour where it is on the
/// drawn tick (and not where it was on another), and the path, performed
/// with the lifts moving, is drawn on both sides of the gap and above
/// its middle, where only the ride carries the body, with a boarding
/// mark on the first lift.
#[test]
fn lifts_show_their_platforms_and_the_path_in_time() {
    use platnav::formats::{LoadOptions, load_level};
    use platnav::level::Platforms;
    use platnav::render::{
        Canvas, PLATFORM_COLOR, render_timed, ride_marks, timed_bodies, timed_start,
    };
    use platnav::search::timed::{TimedOptions, find_path_timed};
    at_root();
    let loaded = load_level(
        std::path::Path::new("levels/lifts.txt"),
        &LoadOptions::default(),
    )
    .unwrap();
    let p = Physics::default();
    let map = NavMap::build(&loaded.level, &p).unwrap();
    let platforms = Platforms::new(loaded.platforms.clone(), p.dt).unwrap();
    assert_eq!(platforms.len(), 2);
    let (from, to) = (Cell::new(1, 10), Cell::new(27, 4));
    let path = find_path_timed(&map, &platforms, from, 0, to, &TimedOptions::default()).unwrap();
    assert_eq!(path.boardings(), 2, "{:?}", path.steps);

    let scale = 16.0;
    let px = |canvas: &Canvas, x: f64, y: f64| canvas.pixel((x * scale) as u32, (y * scale) as u32);
    let middle = |k: usize, tick: u64| {
        let m = &platforms.all()[k];
        let [x, y] = m.at(tick);
        (
            x + f64::from(m.platform.width) / 2.0,
            y + f64::from(m.platform.height) / 2.0,
        )
    };
    // The lifts alone, on two ticks: each is where that tick puts it.
    let tiles = RenderOptions::default().with_layers(Layers::parse("tiles").unwrap());
    let (early, late) = (0, 90);
    assert!(
        (middle(0, early).0 - middle(0, late).0).abs() > 2.0,
        "lift 0 moves"
    );
    let at_early = render_timed(&map, &platforms, early, None, &tiles).unwrap();
    let at_late = render_timed(&map, &platforms, late, None, &tiles).unwrap();
    for k in 0..2 {
        let (x, y) = middle(k, early);
        assert_eq!(
            px(&at_early, x, y),
            Some(PLATFORM_COLOR),
            "lift {k} on tick {early}"
        );
        let (x, y) = middle(k, late);
        assert_eq!(
            px(&at_late, x, y),
            Some(PLATFORM_COLOR),
            "lift {k} on tick {late}"
        );
    }
    let (x, y) = middle(0, early);
    assert_ne!(
        px(&at_late, x, y),
        Some(PLATFORM_COLOR),
        "lift 0 left where it was on tick {early}"
    );
    // Without the lifts' level, nothing is in the platform colour.
    let plain = render_map(&map, None, &tiles).unwrap();
    assert_eq!(plain.pixels().filter(|&c| c == PLATFORM_COLOR).count(), 0);

    // The path: white left of the gap (columns 0 to 5), right of it (22
    // on) and over its middle (columns 10 to 17), where the body is only
    // because a lift carries it.
    let all = RenderOptions::default().with_layers(Layers::parse("tiles,path").unwrap());
    let canvas = render_timed(&map, &platforms, 0, Some(&path), &all).unwrap();
    let white_in = |c0: u32, c1: u32| {
        (0..canvas.height())
            .flat_map(|y| ((c0 * 16)..(c1 * 16)).map(move |x| (x, y)))
            .filter(|&(x, y)| canvas.pixel(x, y) == Some(PATH_COLOR))
            .count()
    };
    let (left, gap, right) = (white_in(0, 6), white_in(10, 18), white_in(22, 30));
    assert!(
        left > 50 && gap > 50 && right > 50,
        "path pixels: {left} left of the gap, {gap} over it, {right} right of it"
    );
    // Nearly every sampled state of the performed path is on the line.
    let start = timed_start(map.level(), &p, &platforms, &path);
    let bodies = timed_bodies(map.level(), &p, &platforms, &start, &path);
    assert_eq!(bodies.len(), path.inputs.len() + 1);
    assert!(bodies.last().unwrap().stands_on(to));
    let samples: Vec<_> = bodies.iter().step_by(5).collect();
    let hits = samples
        .iter()
        .filter(|b| px(&canvas, b.x, b.y - p.h / 2.0) == Some(PATH_COLOR))
        .count();
    assert!(
        hits * 10 >= samples.len() * 8,
        "{hits} of {} samples on the path",
        samples.len()
    );
    // Where it boards each lift (a hop along one lands on it again), a
    // disc of the platform colour at the feet.
    let marks = ride_marks(&bodies, &p, &platforms, path.start_tick);
    let mut boarded: Vec<usize> = marks
        .iter()
        .filter(|m| m.boards)
        .map(|m| m.platform)
        .collect();
    boarded.dedup();
    assert_eq!(boarded, [0, 1], "{marks:?}");
    for m in marks.iter().filter(|m| m.boards) {
        assert_eq!(
            px(&canvas, m.body.x, m.body.y),
            Some(PLATFORM_COLOR),
            "boarding mark of lift {}",
            m.platform
        );
    }
}

/// `platnav render` on a level with platforms draws them and plans the
/// path in time; `--tick` moves both.
#[test]
fn cli_render_draws_platforms_and_a_path_in_time() {
    at_root();
    let dir = std::env::temp_dir().join(format!("platnav-render-lifts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("lifts.png");
    let bin = env!("CARGO_BIN_EXE_platnav");
    let run = |tick: &str| {
        std::process::Command::new(bin)
            .args([
                "render",
                "levels/lifts.txt",
                "--scale",
                "4",
                "--path",
                "1,10",
                "27,4",
            ])
            .args(["--tick", tick, "-o"])
            .arg(&out)
            .output()
            .unwrap()
    };
    for tick in ["0", "100"] {
        let o = run(tick);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(
            text.contains(&format!("2 moving platforms on tick {tick}"))
                && text.contains("path in time 1,10 -> 27,4")
                && text.contains("boarding 2 times"),
            "{text}"
        );
        let bytes = std::fs::read(&out).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
