//! The real Tiled level from sq2 loads through the TMX loader.
#![cfg(feature = "tiled")]

use platnav::{find_path, search};
use std::path::Path;

use platnav::{
    Cell, Tile,
    formats::{LoadOptions, load_level},
};

fn sq2() -> platnav::level::LoadedLevel {
    let opts = LoadOptions::default().with_mapping(Some("levels/sq2/mapping.json".into()));
    load_level(Path::new("levels/sq2/Maps/level_01.tmx"), &opts).expect("sq2 level_01 loads")
}

#[test]
fn sq2_level_01_has_its_size_spawn_goal_and_ground() {
    let loaded = sq2();
    let level = &loaded.level;
    assert_eq!((level.width(), level.height()), (225, 63));
    // Spawn point at pixel (274.503, 602) with 18-px tiles.
    assert_eq!(loaded.spawn, Some(Cell::new(15, 33)));
    assert_eq!(level.get(Cell::new(15, 33)), Some(Tile::SPAWN));
    // Goal rectangle x 720..1044, y 180..306: columns 40..=57, rows 10..=16.
    assert_eq!(loaded.goals.len(), 18 * 7);
    assert_eq!(loaded.goals.first(), Some(&Cell::new(40, 10)));
    assert_eq!(loaded.goals.last(), Some(&Cell::new(57, 16)));
    let solids = level.cells_of(Tile::SOLID).count();
    assert!(solids > 500, "{solids} solid tiles");
    assert!(level.cells_of(Tile::HAZARD).count() > 0);
    // The spawn stands on ground somewhere below it.
    let below = (34..63).any(|r| level.get(Cell::new(15, r)) == Some(Tile::SOLID));
    assert!(below);
}

#[test]
fn sq2_layer_option_picks_the_collision_layer() {
    let opts = LoadOptions::default()
        .with_mapping(Some("levels/sq2/mapping.json".into()))
        .with_layer(Some("GamePlayTiles".into()));
    let one = load_level(Path::new("levels/sq2/Maps/level_01.tmx"), &opts).unwrap();
    assert_eq!(one, sq2());
    let missing = opts.with_layer(Some("NoSuchLayer".into()));
    let err = load_level(Path::new("levels/sq2/Maps/level_01.tmx"), &missing).unwrap_err();
    assert!(err.to_string().contains("NoSuchLayer"), "{err}");
    assert!(err.to_string().contains("level_01.tmx"), "{err}");
}

/// sq2's level_01: from the spawn the player drops into the pit under the
/// start room, whose only way out is the ladder at column 43 (rows 35 to
/// 40). Climb links take the body up it and on across the level: the path
/// to the ladder's top replays, with a climb in it. The goal stays out of
/// reach: with the sq2 preset the six spikes at columns 155 to 160 are too
/// wide to jump, and at 8 tiles/s, which clears them, the route ends at the
/// far right, where a jump pad (not modelled) launches the player to the
/// ladder at column 214, rows 24 to 30, seven rows above the floor.
#[test]
fn sq2_level_01_climbs_out_of_the_pit_and_stops_at_a_jump_pad() {
    use platnav::{LinkKind, NavMap, PathError, Physics, SearchOptions};
    let path = Path::new("levels/sq2/Maps/level_01.tmx");
    let opts = LoadOptions::default().with_mapping(Some("levels/sq2/mapping.json".into()));
    let loaded = load_level(path, &opts).unwrap();
    let search = SearchOptions::default();
    let spawn = loaded.spawn.unwrap();
    for (physics, far) in [
        (Physics::sq2(), Cell::new(154, 38)),
        (
            Physics {
                run_speed: 8.0,
                ..Physics::sq2()
            },
            Cell::new(215, 37),
        ),
    ] {
        let map = NavMap::build(&loaded.level, &physics).unwrap();
        let start = search::snap(&map, spawn, 8).unwrap();
        let out = find_path(&map, start, Cell::new(43, 34), &search).unwrap();
        assert!(
            out.steps().iter().any(|s| s.kind == LinkKind::CLIMB),
            "out of the pit without climbing"
        );
        assert!(
            out.replay(map.level(), map.physics())
                .stands_on(Cell::new(43, 34))
        );
        let across = find_path(&map, start, far, &search).unwrap();
        assert!(across.replay(map.level(), map.physics()).stands_on(far));
        let goal = find_path(&map, start, loaded.goals[0], &search);
        assert!(
            matches!(goal, Err(PathError::Unreachable { .. })),
            "{goal:?}"
        );
    }
}

/// The mechanics sq2 places but platnav does not model are named with
/// their cells: level_01's jump pads (tiles whose `TileType` is
/// `JumpPad`), and level_02's moving platforms (objects).
#[test]
fn sq2_levels_name_their_unmodelled_mechanics() {
    let opts = LoadOptions::default().with_mapping(Some("levels/sq2/mapping.json".into()));
    let one = load_level(Path::new("levels/sq2/Maps/level_01.tmx"), &opts).unwrap();
    for m in &one.unmodelled {
        println!("level_01: {} {} at {:?}", m.kind, m.what, m.cells);
    }
    let pads = one
        .unmodelled
        .iter()
        .find(|m| m.kind == "jump pad")
        .expect("level_01's jump pads");
    assert_eq!(pads.what, "tile \"JumpPad\"");
    assert_eq!(pads.cells.len(), 11);
    assert!(pads.cells.contains(&Cell::new(215, 37)));
    let two = load_level(Path::new("levels/sq2/Maps/level_02.tmx"), &opts).unwrap();
    for m in &two.unmodelled {
        println!("level_02: {} {} at {} cells", m.kind, m.what, m.cells.len());
    }
    assert!(
        two.unmodelled.iter().any(|m| m.kind == "moving platform"),
        "{:?}",
        two.unmodelled
    );
}
