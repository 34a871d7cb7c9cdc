//! The real Tiled level from sq2 loads through the TMX loader.
#![cfg(feature = "tiled")]

use std::path::Path;

use platnav::{Cell, LoadOptions, Tile, load_level};

fn sq2() -> platnav::LoadedLevel {
    let opts = LoadOptions {
        mapping: Some("levels/sq2/mapping.json".into()),
        ..LoadOptions::default()
    };
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
    let opts = LoadOptions {
        mapping: Some("levels/sq2/mapping.json".into()),
        layer: Some("GamePlayTiles".into()),
        ..LoadOptions::default()
    };
    let one = load_level(Path::new("levels/sq2/Maps/level_01.tmx"), &opts).unwrap();
    assert_eq!(one, sq2());
    let missing = LoadOptions {
        layer: Some("NoSuchLayer".into()),
        ..opts
    };
    let err = load_level(Path::new("levels/sq2/Maps/level_01.tmx"), &missing).unwrap_err();
    assert!(err.to_string().contains("NoSuchLayer"), "{err}");
    assert!(err.to_string().contains("level_01.tmx"), "{err}");
}
