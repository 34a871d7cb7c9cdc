//! Level formats, loader errors and physics validation.

use std::path::Path;

use platnav::{Level, LevelError, Physics, PhysicsError, Tile, formats::VglcLegend};

#[test]
fn ascii_levels_round_trip_through_display() {
    let text = "#....#\n#.=^G#\n#S...#\n######\n";
    let level: Level = text.parse().unwrap();
    assert_eq!(level.to_string(), text);
    assert_eq!((level.width(), level.height()), (6, 4));
    assert_eq!(level.tile_at(2, 1), Tile::ONE_WAY);
    assert_eq!(level.tile_at(3, 1), Tile::HAZARD);
    assert_eq!(level.tile_at(4, 1), Tile::GOAL);
    assert_eq!(level.tile_at(1, 2), Tile::SPAWN);
    // Borders: left, right, top solid; below the bottom open.
    assert_eq!(level.tile_at(-1, 1), Tile::SOLID);
    assert_eq!(level.tile_at(6, 1), Tile::SOLID);
    assert_eq!(level.tile_at(2, -1), Tile::SOLID);
    assert_eq!(level.tile_at(2, 4), Tile::EMPTY);
}

#[test]
fn random_levels_round_trip_too() {
    for seed in 0..20 {
        let level = Level::generate(37, 19, seed).unwrap();
        let back: Level = level.to_string().parse().unwrap();
        assert_eq!(back, level);
    }
    assert_eq!(
        Level::generate(30, 12, 5).unwrap(),
        Level::generate(30, 12, 5).unwrap()
    );
    assert_ne!(
        Level::generate(30, 12, 5).unwrap(),
        Level::generate(30, 12, 6).unwrap()
    );
}

#[test]
fn crlf_and_missing_final_newline_are_accepted() {
    let a: Level = "..\r\n##\r\n".parse().unwrap();
    let b: Level = "..\n##".parse().unwrap();
    assert_eq!(a, b);
}

#[test]
fn an_unknown_character_is_reported_with_line_and_column() {
    let err = "....\n..x.\n####".parse::<Level>().unwrap_err();
    assert!(
        matches!(
            err,
            LevelError::UnknownTile {
                ch: 'x',
                line: 2,
                column: 3
            }
        ),
        "{err:?}"
    );
    assert_eq!(err.to_string(), "line 2, column 3: unknown tile 'x'");
}

#[test]
fn ragged_rows_and_empty_text_are_rejected() {
    let err = "....\n...\n####".parse::<Level>().unwrap_err();
    assert!(
        matches!(
            err,
            LevelError::RaggedRow {
                line: 2,
                expected: 4,
                found: 3
            }
        ),
        "{err:?}"
    );
    assert!(matches!("".parse::<Level>(), Err(LevelError::Empty)));
    assert!(matches!("\n\n".parse::<Level>(), Err(LevelError::Empty)));
}

#[test]
fn absurd_sizes_are_rejected_before_allocating() {
    let wide = ".".repeat(platnav::level::MAX_SIDE + 1);
    assert!(matches!(
        wide.parse::<Level>(),
        Err(LevelError::TooLarge { .. })
    ));
    assert!(matches!(
        Level::empty(1 << 20, 1 << 20),
        Err(LevelError::TooLarge { .. })
    ));
    assert!(matches!(
        Level::new(3, 3, vec![Tile::EMPTY; 8]),
        Err(LevelError::WrongTileCount { .. })
    ));
}

#[test]
fn file_errors_name_the_file() {
    let err = Level::load(Path::new("no/such/level.txt")).unwrap_err();
    assert!(err.to_string().starts_with("no/such/level.txt: "), "{err}");
    let dir = std::env::temp_dir().join(format!("platnav-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "..\n.?\n").unwrap();
    let err = Level::load(&bad).unwrap_err().to_string();
    assert!(
        err.contains("bad.txt") && err.contains("line 2, column 2"),
        "{err}"
    );
    let bin = dir.join("bin.txt");
    std::fs::write(&bin, [0xff, 0xfe, b'.', b'\n']).unwrap();
    let err = Level::load(&bin).unwrap_err().to_string();
    assert!(err.contains("bin.txt") && err.contains("UTF-8"), "{err}");
}

#[test]
fn vglc_tags_map_to_tiles_with_enemies_passable_and_solid_winning() {
    let legend = VglcLegend::from_json(
        r#"{"tiles": {"X": ["solid", "ground"], "E": ["enemy", "damaging", "hazard"],
            "T": ["solidtop"], "H": ["hazard"], "D": ["damaging"], "-": ["passable"],
            "B": ["cannon", "solid", "hazard"], "o": ["coin", "passable"]}}"#,
    )
    .unwrap();
    let level = Level::from_vglc("-ETHDBo\nXXXXXXX", &legend).unwrap();
    let row: Vec<Tile> = (0..7).map(|c| level.tile_at(c, 0)).collect();
    assert_eq!(
        row,
        [
            Tile::EMPTY,
            Tile::EMPTY,
            Tile::ONE_WAY,
            Tile::HAZARD,
            Tile::HAZARD,
            Tile::SOLID,
            Tile::EMPTY
        ]
    );
    let err = Level::from_vglc("-Z\nXX", &legend).unwrap_err();
    assert!(matches!(
        err,
        LevelError::UnknownTile {
            ch: 'Z',
            line: 1,
            column: 2
        }
    ));
    assert!(VglcLegend::from_json("{\"tiles\": {\"XY\": []}}").is_err());
    assert!(VglcLegend::from_json("not json").is_err());
}

#[test]
fn the_bundled_smb_levels_load_with_their_legend() {
    let legend = VglcLegend::load(Path::new("levels/smb/legend.json")).unwrap();
    let mut count = 0;
    for entry in std::fs::read_dir("levels/smb").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "txt") {
            let level = Level::load_vglc(&path, &legend).unwrap();
            assert!(
                level.height() >= 13 && level.width() > 100,
                "{}",
                path.display()
            );
            count += 1;
        }
    }
    assert_eq!(count, 18);
}

#[test]
fn physics_validation_names_the_bad_parameter() {
    assert!(Physics::default().validate().is_ok());
    for name in Physics::PRESETS {
        Physics::preset(name).unwrap().validate().unwrap();
    }
    let cases: [(Physics, &str); 5] = [
        (
            Physics {
                run_speed: -1.0,
                ..Physics::default()
            },
            "run_speed",
        ),
        (
            Physics {
                gravity: f64::NAN,
                ..Physics::default()
            },
            "gravity",
        ),
        (
            Physics {
                jump_speed: 60.0,
                ..Physics::default()
            },
            "jump_speed",
        ),
        (
            Physics {
                max_fall_speed: f64::INFINITY,
                ..Physics::default()
            },
            "max_fall_speed",
        ),
        (
            Physics {
                dt: 0.0,
                ..Physics::default()
            },
            "dt",
        ),
    ];
    for (p, name) in cases {
        match p.validate() {
            Err(PhysicsError::Invalid { param, .. }) => assert_eq!(param, name),
            other => panic!("{name}: {other:?}"),
        }
    }
    let mut p = Physics::agile();
    p.wall_jump.as_mut().unwrap().speed_y = 70.0;
    let err = p.validate().unwrap_err().to_string();
    assert!(err.contains("wall_jump.speed_y"), "{err}");
    assert!(matches!(
        Physics::preset("moon"),
        Err(PhysicsError::UnknownPreset(_))
    ));
}

#[test]
fn from_jump_sets_gravity_and_jump_speed_from_height_and_apex_time() {
    let p = Physics::from_jump(4.0, 0.5);
    assert_eq!(p.gravity, 32.0);
    assert_eq!(p.jump_speed, 16.0);
    approx::assert_abs_diff_eq!(p.jump_height(), 4.0, epsilon = 1e-12);
    // The default profile is the 3.5-tile, 0.4 s jump.
    let d = Physics::from_jump(3.5, 0.4);
    approx::assert_abs_diff_eq!(d.gravity, Physics::default().gravity, epsilon = 1e-9);
    approx::assert_abs_diff_eq!(d.jump_speed, Physics::default().jump_speed, epsilon = 1e-9);
}

#[test]
fn the_smb_preset_reproduces_marios_running_jump() {
    let p = Physics::smb();
    approx::assert_abs_diff_eq!(p.jump_height(), 5.2, epsilon = 1e-9);
    // Flight time back to take-off height at top speed covers 8.9 tiles.
    let flight = 2.0 * p.jump_speed / p.gravity;
    approx::assert_abs_diff_eq!(flight * p.run_speed, 8.9, epsilon = 1e-9);
    assert_eq!(p.max_fall_speed, 15.0);
}
