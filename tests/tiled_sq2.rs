//! The real Tiled level from sq2 loads through the TMX loader.
#![cfg(feature = "tiled")]

use std::path::Path;

use platnav::{
    Cell, Tile,
    level::{LoadOptions, load_level},
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
    assert_eq!(level.get(Cell::new(15, 33)), Some(Tile::Spawn));
    // Goal rectangle x 720..1044, y 180..306: columns 40..=57, rows 10..=16.
    assert_eq!(loaded.goals.len(), 18 * 7);
    assert_eq!(loaded.goals.first(), Some(&Cell::new(40, 10)));
    assert_eq!(loaded.goals.last(), Some(&Cell::new(57, 16)));
    let solids = level.cells_of(Tile::Solid).count();
    assert!(solids > 500, "{solids} solid tiles");
    assert!(level.cells_of(Tile::Hazard).count() > 0);
    // The spawn stands on ground somewhere below it.
    let below = (34..63).any(|r| level.get(Cell::new(15, r)) == Some(Tile::Solid));
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

/// sq2's level_01 cannot be finished without ladders: from the spawn the
/// player drops into the pit under the start room, whose only way out is a
/// ladder. platnav does not model ladders yet, so the goal is unreachable,
/// and the reachable area is exactly what lies beside those ladder tiles.
#[test]
fn sq2_level_01_needs_ladders_to_reach_the_level_complete_trigger() {
    use platnav::{NavMap, PathError, Physics, SearchOptions, Tile};
    let path = Path::new("levels/sq2/Maps/level_01.tmx");
    let opts = LoadOptions::default().with_mapping(Some("levels/sq2/mapping.json".into()));
    let loaded = load_level(path, &opts).unwrap();
    let physics = Physics::sq2();
    let map = NavMap::build(&loaded.level, &physics).unwrap();
    assert!(map.node_count() > 100 && map.link_count() > 500);
    let spawn = loaded.spawn.unwrap();
    let start = map.snap(spawn, 8).unwrap();
    let result = map.find_path(start, loaded.goals[0], &SearchOptions::default());
    assert!(
        matches!(result, Err(PathError::Unreachable { .. })),
        "{result:?}"
    );
    let dist = map.dijkstra(map.node(start).unwrap());
    assert!(
        loaded
            .goals
            .iter()
            .all(|g| map.node(*g).is_none_or(|n| dist[n.index()].is_none())),
        "some goal cell is reachable"
    );
    // Where the ladders are: the same map with ladder tiles loaded as goal markers.
    let mapping = std::fs::read_to_string("levels/sq2/mapping.json").unwrap();
    let dir = std::env::temp_dir().join(format!("platnav-sq2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ladder_mapping = dir.join("ladders.json");
    std::fs::write(
        &ladder_mapping,
        mapping.replace("\"Ladder\": \"ladder\"", "\"Ladder\": \"goal\""),
    )
    .unwrap();
    let with_ladders = load_level(
        path,
        &LoadOptions::default().with_mapping(Some(ladder_mapping)),
    )
    .unwrap();
    let ladders: Vec<_> = with_ladders
        .level
        .cells_of(Tile::Goal)
        .filter(|c| loaded.level.get(*c) != Some(Tile::Goal))
        .collect();
    assert!(!ladders.is_empty());
    let reachable: Vec<_> = map
        .nodes()
        .iter()
        .enumerate()
        .filter(|(i, _)| dist[*i].is_some())
        .map(|(_, c)| *c)
        .collect();
    let beside_a_ladder = reachable.iter().any(|r| {
        ladders
            .iter()
            .any(|l| (l.col - r.col).abs() <= 1 && (l.row - r.row).abs() <= 1)
    });
    assert!(beside_a_ladder, "the reachable area should end at a ladder");
}
