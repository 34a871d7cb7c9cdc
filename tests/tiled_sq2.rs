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

/// sq2's level_01 with the game's own movement (`Physics::sq2`): from the
/// spawn the player drops into the pit under the start room, whose only
/// way out is the ladder at column 43 (rows 35 to 40); the path to the
/// ladder's top climbs it and replays. Further east, six spikes (columns
/// 155 to 160) are wider than a jump carries the body unless, as in the
/// game, holding the jump keeps boosting it (`jump_boost`): with the boost
/// the route runs on past them to 163,37 and replays; with a jump of the
/// same height and no boost (the preset's fit before the boost was
/// modelled) it stops at column 154.
#[test]
fn sq2_level_01_climbs_out_of_the_pit_and_clears_the_spikes_on_the_boost() {
    use platnav::{LinkKind, NavMap, PathError, Physics, SearchOptions};
    let loaded = sq2();
    let physics = Physics::sq2();
    let map = NavMap::build(&loaded.level, &physics).unwrap();
    let start = search::snap(&map, loaded.spawn.unwrap(), 8).unwrap();
    let out = find_path(&map, start, Cell::new(43, 34), &SearchOptions::default()).unwrap();
    assert!(
        out.steps().iter().any(|s| s.kind == LinkKind::CLIMB),
        "out of the pit without climbing"
    );
    assert!(
        out.replay(map.level(), map.physics())
            .stands_on(Cell::new(43, 34))
    );
    let east = Cell::new(163, 37);
    let far = find_path(&map, start, east, &SearchOptions::default()).unwrap();
    assert!(far.replay(map.level(), map.physics()).stands_on(east));

    let px = |v: f64| v / 18.0;
    let unboosted = Physics {
        jump_speed: px(233.25),
        jump_cut_speed: px(150.0),
        jump_boost: 0.0,
        jump_boost_ticks: 0,
        platform_velocity: platnav::physics::PlatformVelocity::None,
        ..physics
    };
    // The game's held jump tops out 52.463 px up (150 px/s, then its
    // boost ticks, summed as `JumpLogic` runs them); the unboosted fit's
    // ticked apex is 52.462 px, the boosted one's the game's own.
    assert!((physics.jump_height() * 18.0 - 52.463).abs() < 1e-3);
    let map = NavMap::build(&loaded.level, &unboosted).unwrap();
    let start = search::snap(&map, loaded.spawn.unwrap(), 8).unwrap();
    let stopped = find_path(&map, start, east, &SearchOptions::default());
    assert!(
        matches!(stopped, Err(PathError::Unreachable { .. })),
        "{stopped:?}"
    );
    assert!(find_path(&map, start, Cell::new(154, 38), &SearchOptions::default()).is_ok());
}

/// sq2's level_01 is finished with the game's own movement: from the
/// spawn to the goal trigger at the top left, the path (climbing out of
/// the pit, over the spikes on the boosted jump, east to the far right,
/// up the pad and the ledges, and back west along the top) replays.
#[test]
fn sq2_level_01_is_finished_from_spawn_to_goal() {
    use platnav::{NavMap, Physics, SearchOptions};
    let loaded = sq2();
    let map = NavMap::build(&loaded.level, &Physics::sq2()).unwrap();
    let start = search::snap(&map, loaded.spawn.unwrap(), 8).unwrap();
    let goals: Vec<Cell> = loaded
        .goals
        .iter()
        .copied()
        .filter(|&g| map.node(g).is_some())
        .collect();
    assert!(!goals.is_empty(), "no goal cell is a standing cell");
    let path = goals
        .iter()
        .find_map(|&g| find_path(&map, start, g, &SearchOptions::default()).ok())
        .expect("some goal cell is reached");
    let end = path.replay(map.level(), map.physics());
    assert!(end.stands_on(path.goal()), "{end:?}");
    assert!(loaded.goals.contains(&path.goal()));
    assert!(path.steps().len() > 30, "{} links", path.steps().len());
}

/// East of the spikes the route runs to the level's far right, where the
/// jump pad at 215,37 (a `JumpPad` tile, launching at the game's 300 px/s)
/// takes the player up beside the ladder at column 214 to the ledges above:
/// the path to 208,18 rides the pad, and replays. Without the pad (read as
/// empty) that ledge is out of reach.
#[test]
fn sq2_level_01_rides_the_jump_pad_up_the_far_right() {
    use platnav::{NavMap, PathError, Physics, SearchOptions};
    let loaded = sq2();
    let physics = Physics::sq2();
    assert_eq!(loaded.level.get(Cell::new(215, 37)), Some(Tile::PAD));
    let search = SearchOptions::default();
    let ledge = Cell::new(208, 18);
    let map = NavMap::build(&loaded.level, &physics).unwrap();
    let start = search::snap(&map, loaded.spawn.unwrap(), 8).unwrap();
    let path = find_path(&map, start, ledge, &search).unwrap();
    assert!(path.replay(map.level(), map.physics()).stands_on(ledge));
    // Some tick of the tape rides a launch.
    let mut body = platnav::Body::start(map.level(), start, map.physics());
    let launched = path.inputs().iter().any(|&input| {
        body.step(map.level(), map.physics(), input);
        body.launched
    });
    assert!(launched, "the path never rides the pad");

    let mut flat = loaded.level.clone();
    for pad in loaded.level.cells_of(Tile::PAD).collect::<Vec<_>>() {
        flat.set(pad, Tile::EMPTY);
    }
    let without = NavMap::build(&flat, &physics).unwrap();
    let start = search::snap(&without, loaded.spawn.unwrap(), 8).unwrap();
    let blocked = find_path(&without, start, ledge, &search);
    assert!(
        matches!(blocked, Err(PathError::Unreachable { .. })),
        "{blocked:?}"
    );
}

/// The jump pads are read from the tiles' `TileType`, by the rules file
/// and with zero config alike (11 cells); level_02's moving platforms
/// (objects) are read as platforms (`tests/platform_loaders.rs` checks
/// them), so they are no longer named as mechanics platnav does not
/// model.
#[test]
fn sq2_levels_read_their_pads_and_name_their_unmodelled_mechanics() {
    let opts = LoadOptions::default().with_mapping(Some("levels/sq2/mapping.json".into()));
    let one = load_level(Path::new("levels/sq2/Maps/level_01.tmx"), &opts).unwrap();
    let zero = load_level(
        Path::new("levels/sq2/Maps/level_01.tmx"),
        &LoadOptions::default(),
    )
    .unwrap();
    for level in [&one.level, &zero.level] {
        let pads: Vec<Cell> = level.cells_of(Tile::PAD).collect();
        assert_eq!(pads.len(), 11);
        assert!(pads.contains(&Cell::new(215, 37)));
    }
    assert!(one.unmodelled.is_empty(), "{:?}", one.unmodelled);
    let two = load_level(Path::new("levels/sq2/Maps/level_02.tmx"), &opts).unwrap();
    for m in &two.unmodelled {
        println!("level_02: {} {} at {} cells", m.kind, m.what, m.cells.len());
    }
    assert_eq!(two.platforms.len(), 77);
    assert!(
        !two.unmodelled.iter().any(|m| m.kind == "moving platform"),
        "{:?}",
        two.unmodelled
    );
}

/// level_02's 77 platforms move as the game moves them, and from the
/// spawn a path in time rides a chain of four of them over the spike pits
/// west of the start; its tape, performed on the body with the platforms
/// where they are on each tick, ends on the goal cell. No path reaches
/// that cell with the platforms left out.
#[test]
fn sq2_level_02_rides_its_moving_platforms_west_of_the_spawn() {
    use platnav::level::Platforms;
    use platnav::search::timed::{Place, TimedOptions, find_path_timed};
    let opts = LoadOptions::default().with_mapping(Some("levels/sq2/mapping.json".into()));
    let two = load_level(Path::new("levels/sq2/Maps/level_02.tmx"), &opts).unwrap();
    let p = platnav::Physics::sq2();
    let map = platnav::NavMap::build(&two.level, &p).unwrap();
    let platforms = Platforms::new(two.platforms.clone(), p.dt).unwrap();
    let spawn = two.spawn.expect("level_02 marks a spawn");
    let goal = Cell::new(130, 41);
    assert!(find_path(&map, spawn, goal, &search::SearchOptions::default()).is_err());
    let path = find_path_timed(&map, &platforms, spawn, 0, goal, &TimedOptions::default()).unwrap();
    let ridden: std::collections::BTreeSet<u32> = path
        .steps
        .iter()
        .filter_map(|s| match s.to {
            Place::Platform { platform, .. } => Some(platform),
            Place::Cell(_) => None,
        })
        .collect();
    assert!(ridden.len() >= 2, "{:?}", path.steps);
    let mut body = platnav::Body::start(&two.level, spawn, &p);
    for (t, &input) in path.inputs.iter().enumerate() {
        body.step_moving(&two.level, &platforms, t as u64, &p, input);
        assert!(!body.dead, "dead on tick {t}");
    }
    assert!(body.stands_on(goal), "{body:?}");
}
