//! Real maps from other people's games, loaded with no rules file: each has
//! the solid, one-way and hazard cells its game has, its spawn, and a path
//! from the spawn (under the game's own player physics, from the
//! `physics.json` in pixels beside the map) that replays on the reference
//! body. See `levels/real/SOURCE.md` and `levels/sq2/SOURCE.md`.
#![cfg(all(feature = "tiled", feature = "ldtk"))]

use platnav::{find_path, search};
use std::path::Path;

use platnav::{
    Cell, NavMap, Physics, SearchOptions, Tile,
    formats::{LoadOptions, load_level},
    level::LoadedLevel,
};

fn load(path: &str) -> LoadedLevel {
    load_level(Path::new(path), &LoadOptions::default()).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn physics(path: &str) -> Physics {
    let text = std::fs::read_to_string(path).unwrap();
    Physics::from_json_over(&text, &Physics::default()).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn counts(l: &LoadedLevel) -> (usize, usize, usize) {
    let n = |t| l.level.cells_of(t).count();
    (n(Tile::SOLID), n(Tile::ONE_WAY), n(Tile::HAZARD))
}

/// Rows `r0..=r1`, columns `c0..=c1` of the level as ASCII.
fn region(l: &LoadedLevel, (c0, r0, c1, r1): (usize, usize, usize, usize)) -> String {
    l.level
        .to_string()
        .lines()
        .skip(r0)
        .take(r1 - r0 + 1)
        .map(|line| line.chars().skip(c0).take(c1 - c0 + 1).collect::<String>() + "\n")
        .collect()
}

/// A path from `start` to the reachable standing cell farthest from it (by
/// travel time), which replays to stand on that cell; returns its goal.
fn farthest_path(l: &LoadedLevel, physics: &Physics, start: Cell) -> Cell {
    let map = NavMap::build(&l.level, physics).unwrap();
    let s = search::snap(&map, start, 8).expect("the start snaps to standing ground");
    let dist = search::dijkstra(&map, map.node(s).unwrap());
    let (goal, _) = map
        .nodes()
        .iter()
        .zip(&dist)
        .filter_map(|(c, d)| Some((*c, (*d)?)))
        .max_by_key(|a| a.1)
        .unwrap();
    assert_ne!(goal, s, "nothing reachable from the start");
    let path = find_path(&map, s, goal, &SearchOptions::default())
        .unwrap_or_else(|e| panic!("{s} -> {goal}: {e}"));
    assert!(!path.steps().is_empty());
    let end = path.replay(&l.level, physics);
    assert!(
        end.stands_on(goal) && !end.dead,
        "the path {s} -> {goal} does not replay"
    );
    goal
}

/// Counts of a JSON layer's non-empty gids, with and without a tile property.
fn tmj_layer(path: &str, layer: &str) -> Vec<u32> {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let l = v["layers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == layer)
        .unwrap();
    l["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g.as_u64().unwrap() & 0x0FFF_FFFF) as u32)
        .collect()
}

#[test]
fn macroquad_every_tile_of_its_one_layer_is_solid() {
    let path = "levels/real/macroquad/map.json";
    let l = load(path);
    assert_eq!((l.level.width(), l.level.height()), (40, 19));
    let tiles = tmj_layer(path, "main layer")
        .into_iter()
        .filter(|g| *g != 0)
        .count();
    assert_eq!(tiles, 170);
    assert_eq!(counts(&l), (170, 0, 0));
    assert!(
        l.rules_used.iter().any(|r| r.contains("collider")),
        "{:?}",
        l.rules_used
    );
    assert_eq!(
        region(&l, (0, 13, 19, 18)),
        "\
#...................
#...................
#.........####......
#..################.
###################.
####################
"
    );
    // The file marks no spawn: the game hard-codes pixel (50, 80), cell 6,10.
    assert_eq!(l.spawn, None);
    farthest_path(
        &l,
        &physics("levels/real/macroquad/physics.json"),
        Cell::new(6, 10),
    );
}

#[test]
fn phaser_ground_layer_collides_and_spikes_kill() {
    let path = "levels/real/phaser3-tilemap-blog/platformer.json";
    let l = load(path);
    assert_eq!((l.level.width(), l.level.height()), (40, 20));
    // Independently: the Ground layer's tiles with `collides` and `isSpike`.
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let prop = |id: u32, name: &str| {
        v["tilesets"][0]["tiles"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == id)
            .and_then(|t| {
                t["properties"]
                    .as_array()?
                    .iter()
                    .find(|p| p["name"] == name)
                    .map(|p| p["value"] == true)
            })
            .unwrap_or(false)
    };
    let ground = tmj_layer(path, "Ground");
    let spikes = ground
        .iter()
        .filter(|&&g| g != 0 && prop(g - 1, "isSpike"))
        .count();
    let solid = ground
        .iter()
        .filter(|&&g| g != 0 && prop(g - 1, "collides") && !prop(g - 1, "isSpike"))
        .count();
    assert_eq!((solid, spikes), (147, 69));
    assert_eq!(counts(&l), (147, 0, 69));
    // The spikes along row 16, the pit between the ground halves.
    assert_eq!(
        region(&l, (18, 14, 26, 18)),
        "\
...^#^...
...^#^...
^^^^#^^^^
###^#^###
...^#^...
"
    );
    // The point object "Spawn Point" at pixel (160, 192).
    assert_eq!(l.spawn, Some(Cell::new(5, 6)));
    farthest_path(
        &l,
        &physics("levels/real/phaser3-tilemap-blog/physics.json"),
        l.spawn.unwrap(),
    );
}

#[test]
fn flixel_layers_without_nocollide_collide_and_the_floor_object_kills() {
    // The game kills the player who touches the `floor` object
    // (`PlayState.hx:89-93`): the file cannot say so, its rules file does.
    let path = "levels/real/flixel-demos/level.tmx";
    let rules = format!("{path}.rules.json");
    let opts = LoadOptions::default().with_rules(Some(rules.into()));
    let l = load_level(Path::new(path), &opts).unwrap();
    assert_eq!((l.level.width(), l.level.height()), (220, 18));
    assert_eq!(counts(&l), (55, 0, 27));
    assert!(
        l.rules_used.iter().any(|r| r.contains("nocollide"))
            && l.rules_used.iter().any(|r| r.contains("floor")),
        "{:?}",
        l.rules_used
    );
    // Foreground tiles above, the `floor` rectangle (row 17, columns 0-35) below.
    assert_eq!(
        region(&l, (0, 13, 27, 17)),
        "\
#.......................G...
#S.................######...
####...############.####....
###.....####........####....
###^^^^^####^^^^^^^^^##^^^^^
"
    );
    // `player_start` at pixel (32, 448), 32 x 32: its bottom middle is in
    // 1,14; the `exit` rectangle at pixel (768, 416) covers 24,13.
    assert_eq!(l.spawn, Some(Cell::new(1, 14)));
    assert_eq!(l.goals, vec![Cell::new(24, 13)]);
    farthest_path(
        &l,
        &physics("levels/real/flixel-demos/physics.json"),
        l.spawn.unwrap(),
    );
}

#[test]
fn ldtk_collisions_intgrid_and_player_entity() {
    let path = "levels/real/bevy_ecs_ldtk/Typical_2D_platformer_example.ldtk";
    let l = load(path);
    assert_eq!((l.level.width(), l.level.height()), (53, 21));
    // Independently: the level's `dirt` (1) and `stone` (3) values.
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let csv = v["levels"][0]["layerInstances"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["__identifier"] == "Collisions")
        .unwrap()["intGridCsv"]
        .as_array()
        .unwrap()
        .clone();
    let n = |x: u64| csv.iter().filter(|v| v.as_u64() == Some(x)).count();
    assert_eq!((n(1) + n(3), n(2)), (642, 22));
    assert_eq!(counts(&l), (642, 0, 0));
    assert!(
        l.rules_used.iter().any(|r| r.contains("22 ladder cells")),
        "{:?}",
        l.rules_used
    );
    assert_eq!(
        region(&l, (6, 9, 20, 14)),
        "\
...............
.............##
...............
.....S.........
.#########.....
.#########.....
"
    );
    assert_eq!(l.spawn, Some(Cell::new(11, 12)));
    farthest_path(
        &l,
        &physics("levels/real/bevy_ecs_ldtk/physics.json"),
        l.spawn.unwrap(),
    );
    // The other two levels, picked by name, have no Player entity.
    for (name, size) in [("Top", (42, 22)), ("Bottom", (29, 16))] {
        let opts = LoadOptions::default().with_level(Some(name.into()));
        let other = load_level(Path::new(path), &opts).unwrap();
        assert_eq!((other.level.width(), other.level.height()), size, "{name}");
        assert_eq!(other.spawn, None);
        assert!(other.level.cells_of(Tile::SOLID).count() > 100);
    }
}

#[test]
fn sq2_level_02_loads_with_zero_config_as_with_its_mapping() {
    let path = "levels/sq2/Maps/level_02.tmx";
    let l = load(path);
    assert_eq!((l.level.width(), l.level.height()), (215, 64));
    assert_eq!(counts(&l), (934, 0, 319));
    let mapped = load_level(
        Path::new(path),
        &LoadOptions::default().with_rules(Some("levels/sq2/mapping.json".into())),
    )
    .unwrap();
    assert_eq!(mapped, l);
    // 75 objects are named Start or carry a StartPosition; the spawn is
    // still the PlayerSpawnPoint.
    assert!(
        l.rules_used
            .iter()
            .any(|r| r.contains("Player Spawn Point")),
        "{:?}",
        l.rules_used
    );
    let spawn = l.spawn.unwrap();
    assert_eq!(spawn, Cell::new(213, 50));
    assert_eq!(
        region(&l, (205, 47, 214, 52)),
        "\
.........#
.........#
.........#
........S#
......####
##########
"
    );
    farthest_path(&l, &Physics::sq2(), spawn);
    // Level 01 too, and the same as with the mapping file.
    let one = load("levels/sq2/Maps/level_01.tmx");
    assert_eq!(counts(&one), (877, 0, 107));
    assert_eq!(one.spawn, Some(Cell::new(15, 33)));
}
