//! Every format's twin of `levels/small/small.txt` loads to the same level,
//! spawn and goal.

use std::path::Path;

use platnav::{
    Cell,
    formats::{LoadOptions, load_level},
    level::LoadedLevel,
};

fn ascii() -> LoadedLevel {
    load_level(Path::new("levels/small/small.txt"), &LoadOptions::default()).unwrap()
}

#[cfg(feature = "tiled")]
fn with_mapping() -> LoadOptions {
    LoadOptions::default().with_mapping(Some("levels/small/mapping.json".into()))
}

#[cfg(any(feature = "tiled", feature = "png", feature = "ldtk"))]
fn assert_twin(path: &str, opts: &LoadOptions) {
    let want = ascii();
    let got = load_level(Path::new(path), opts).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(got.level.to_string(), want.level.to_string(), "{path}");
    assert_eq!(got, want, "{path}");
}

#[test]
fn ascii_twin_has_spawn_and_goal_from_its_tiles() {
    let a = ascii();
    assert_eq!(a.spawn, Some(Cell::new(1, 2)));
    assert_eq!(a.goals, vec![Cell::new(7, 2)]);
}

#[cfg(feature = "tiled")]
#[test]
fn tmx_with_external_tileset_two_layers_and_flipped_gids_equals_ascii() {
    assert_twin("levels/small/small.tmx", &with_mapping());
}

#[cfg(feature = "tiled")]
#[test]
fn infinite_tmx_with_zlib_chunks_equals_ascii() {
    assert_twin("levels/small/small-infinite.tmx", &with_mapping());
}

#[cfg(feature = "tiled")]
#[test]
fn tmj_with_external_tsj_and_group_equals_ascii() {
    assert_twin("levels/small/small.tmj", &with_mapping());
}

#[cfg(feature = "tiled")]
#[test]
fn infinite_tmj_with_base64_chunks_equals_ascii() {
    assert_twin("levels/small/small-infinite.tmj", &with_mapping());
}

#[cfg(feature = "tiled")]
#[test]
fn tmx_from_memory_without_base_dir_refuses_external_tileset() {
    let bytes = std::fs::read("levels/small/small.tmx").unwrap();
    let err = LoadedLevel::from_tmx_bytes(&bytes, None, &platnav::rules::TileMapping::default())
        .unwrap_err();
    assert!(err.to_string().contains("small.tsx"), "{err}");
    let ok = LoadedLevel::from_tmx_bytes(
        &bytes,
        Some(Path::new("levels/small")),
        &platnav::rules::TileMapping::load(Path::new("levels/small/mapping.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(ok, ascii());
}

/// With no rules file the conventions read small.tmx as its mapping does:
/// the layer named `Ground` collides (the `Decor` layer does not), the
/// `TileType` value `Platform` is one-way, the class `Spikes` a hazard,
/// and the `PlayerSpawnPoint` and `LevelCompleteTrigger` objects mark the
/// spawn and goal.
#[cfg(feature = "tiled")]
#[test]
fn tiled_map_with_zero_config_reads_like_its_mapping() {
    for twin in ["levels/small/small.tmx", "levels/small/small.tmj"] {
        assert_twin(twin, &LoadOptions::default());
        let l = load_level(Path::new(twin), &LoadOptions::default()).unwrap();
        let used = l.rules_used.join("; ");
        assert!(used.contains("layer \"Ground\""), "{used}");
        assert!(used.contains("TileType"), "{used}");
    }
}

#[cfg(feature = "tiled")]
#[test]
fn mapping_must_name_every_value_of_its_property() {
    // Both layers count, so the Decor layer's `TileType` "Decor" tiles are
    // looked up too.
    let mapping = platnav::rules::TileMapping::from_json(
        r#"{"property": "TileType", "values": {"Platform": "one_way"},
            "layers": {"Ground": "tiles", "Decor": "tiles"}}"#,
    )
    .unwrap();
    let bytes = std::fs::read("levels/small/small.tmx").unwrap();
    let err =
        LoadedLevel::from_tmx_bytes(&bytes, Some(Path::new("levels/small")), &mapping).unwrap_err();
    assert!(err.to_string().contains("\"Decor\""), "{err}");
    let text = std::fs::read_to_string("levels/small/small.tmj").unwrap();
    let err =
        LoadedLevel::from_tmj_str(&text, Some(Path::new("levels/small")), &mapping).unwrap_err();
    assert!(err.to_string().contains("\"Decor\""), "{err}");
    let bad = platnav::rules::TileMapping::from_json(r#"{"values": {"X": "lava"}}"#).unwrap_err();
    assert!(
        bad.to_string().contains("lava") && bad.to_string().contains("line 1"),
        "{bad}"
    );
}

#[cfg(feature = "png")]
#[test]
fn png_mask_equals_ascii() {
    assert_twin("levels/small/small.png", &LoadOptions::default());
}

#[cfg(feature = "png")]
#[test]
fn png_mask_with_four_pixels_per_tile_takes_the_majority() {
    let opts = LoadOptions::default().with_pixels_per_tile(Some(4));
    assert_twin("levels/small/small-4x.png", &opts);
    let wrong = LoadOptions::default().with_pixels_per_tile(Some(3));
    let err = load_level(Path::new("levels/small/small-4x.png"), &wrong).unwrap_err();
    assert!(err.to_string().contains("3 x 3"), "{err}");
}

#[cfg(feature = "png")]
#[test]
fn png_custom_legend_must_cover_every_colour() {
    let legend =
        platnav::formats::ColorLegend::from_json(r##"{"#000000": "solid", "#FFFFFF": "empty"}"##)
            .unwrap();
    let bytes = std::fs::read("levels/small/small.png").unwrap();
    let err = LoadedLevel::from_png_bytes(&bytes, &legend, 1).unwrap_err();
    assert!(err.to_string().contains("#FFFF00FF"), "{err}");
}

#[cfg(feature = "serde")]
#[test]
fn vglc_text_routes_through_the_legend_option() {
    let opts = LoadOptions::default().with_legend(Some("levels/smb/legend.json".into()));
    let l = load_level(Path::new("levels/smb/mario-1-1.txt"), &opts).unwrap();
    assert!(l.level.width() > 100);
}

/// The LDtk twins of small.txt in the three project layouts load with no
/// rules file to the ASCII level: IntGrid values named wall, platform and
/// spikes, the Player entity as spawn and the Goal entity as goal.
#[cfg(feature = "ldtk")]
#[test]
fn ldtk_twins_in_every_layout_equal_ascii() {
    let start = LoadOptions::default().with_level(Some("Start".into()));
    assert_twin("levels/ldtk/small.ldtk", &LoadOptions::default());
    assert_twin("levels/ldtk/small-external.ldtk", &LoadOptions::default());
    assert_twin("levels/ldtk/small-worlds.ldtk", &start);
    let flat = load_level(
        Path::new("levels/ldtk/small.ldtk"),
        &LoadOptions::default().with_level(Some("Flat".into())),
    )
    .unwrap();
    assert_eq!((flat.level.width(), flat.level.height()), (12, 5));
    assert_eq!(flat.spawn, Some(Cell::new(2, 3)));
}

/// Ladders and slopes in every format: ASCII `H`, `/` and `\` round-trip,
/// the VGLC tags `climbable` (and `ladder`, `slope_right`, `slope_left`),
/// the default PNG legend's orange, magenta and cyan, and the ladder
/// IntGrid values of the LDtk platformer sample.
#[test]
fn ladders_and_slopes_in_ascii_vglc_png_and_ldtk() {
    use platnav::{Level, Tile};
    let text = "H/\\.\n####\n";
    let level: Level = text.parse().unwrap();
    assert_eq!(
        &level.tiles()[..4],
        [
            Tile::LADDER,
            Tile::SLOPE_RIGHT,
            Tile::SLOPE_LEFT,
            Tile::EMPTY
        ]
    );
    assert_eq!(level.to_string(), text);
    #[cfg(feature = "serde")]
    {
        let legend = platnav::formats::VglcLegend::from_json(
            r#"{"tiles": {"X": ["solid"], "|": ["climbable", "passable"], "L": ["ladder"],
                "/": ["slope_right"], "\\": ["slope_left"], "-": ["passable"]}}"#,
        )
        .unwrap();
        let level = Level::from_vglc("|L/\\-\nXXXXX", &legend).unwrap();
        assert_eq!(level.to_string(), "HH/\\.\n#####\n");
    }
    #[cfg(feature = "png")]
    {
        // Five pixels: black, orange, magenta, cyan, white.
        let rgb: [u8; 15] = [
            0, 0, 0, 255, 128, 0, 255, 0, 255, 0, 255, 255, 255, 255, 255,
        ];
        let mut bytes = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut bytes, 5, 1);
            enc.set_color(png::ColorType::Rgb);
            enc.set_depth(png::BitDepth::Eight);
            let mut w = enc.write_header().unwrap();
            w.write_image_data(&rgb).unwrap();
        }
        let l = LoadedLevel::from_png_bytes(&bytes, &platnav::formats::ColorLegend::default(), 1)
            .unwrap();
        assert_eq!(l.level.to_string(), "#H/\\.\n");
    }
    #[cfg(feature = "ldtk")]
    {
        let path = "levels/real/bevy_ecs_ldtk/Typical_2D_platformer_example.ldtk";
        let l = load_level(Path::new(path), &LoadOptions::default()).unwrap();
        assert_eq!(l.level.cells_of(Tile::LADDER).count(), 22);
    }
}

/// A legend entry holding the tags of several tiles means the one of
/// highest precedence, in the order the VGLC module documents.
#[cfg(feature = "serde")]
#[test]
fn vglc_tags_of_several_tiles_follow_the_documented_precedence() {
    use platnav::{Tile, formats::VglcLegend};
    let order = [
        ("solid", Tile::SOLID),
        ("solidtop", Tile::ONE_WAY),
        ("hazard", Tile::HAZARD),
        ("climbable", Tile::LADDER),
        ("slope_right", Tile::SLOPE_RIGHT),
        ("slope_left", Tile::SLOPE_LEFT),
        ("goal", Tile::GOAL),
        ("spawn", Tile::SPAWN),
        ("passable", Tile::EMPTY),
    ];
    for i in 0..order.len() {
        let tags: Vec<&str> = order[i..].iter().rev().map(|(tag, _)| *tag).collect();
        assert_eq!(VglcLegend::tile_for_tags(&tags), order[i].1, "{tags:?}");
    }
    assert_eq!(VglcLegend::tile_for_tags(&["solid", "enemy"]), Tile::EMPTY);
}

/// Where the pixels of one tile tie in number, the stronger tile wins:
/// solid, the slopes, one-way, ladder, hazard, goal, spawn, empty.
#[cfg(feature = "png")]
#[test]
fn png_mask_ties_go_to_the_stronger_tile() {
    use platnav::{Tile, formats::ColorLegend};
    let order = [
        Tile::SOLID,
        Tile::SLOPE_RIGHT,
        Tile::SLOPE_LEFT,
        Tile::ONE_WAY,
        Tile::LADDER,
        Tile::HAZARD,
        Tile::GOAL,
        Tile::SPAWN,
        Tile::EMPTY,
    ];
    let legend = ColorLegend::default();
    let levels = [0u8, 128, 255];
    let colour = |t: Tile| {
        levels
            .iter()
            .flat_map(|&r| {
                levels
                    .iter()
                    .flat_map(move |&g| levels.map(|b| [r, g, b, 255]))
            })
            .find(|px| legend.get(*px) == Some(t))
            .unwrap_or_else(|| panic!("no colour for {t:?}"))
    };
    // A column of 2 x 2 pixel tiles, one per neighbouring pair: two pixels
    // of the stronger tile, two of the weaker, the weaker first in the row.
    let (w, h) = (2, 2 * (order.len() - 1) as u32);
    let mut rgba = Vec::new();
    for pair in order.windows(2) {
        for px in [
            colour(pair[1]),
            colour(pair[0]),
            colour(pair[1]),
            colour(pair[0]),
        ] {
            rgba.extend_from_slice(&px);
        }
    }
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut bytes, w, h);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header().unwrap();
        writer.write_image_data(&rgba).unwrap();
    }
    let loaded = LoadedLevel::from_png_bytes(&bytes, &legend, 2).unwrap();
    for (row, pair) in order.windows(2).enumerate() {
        let got = loaded.level.get(Cell::new(0, row as i32));
        assert_eq!(got, Some(pair[0]), "{:?} against {:?}", pair[0], pair[1]);
    }
}

/// A Tiled 1.0-era map whose images have no size (which the `tiled` crate
/// requires): the images are skipped, with a note, not fatal.
#[cfg(feature = "tiled")]
#[test]
fn old_tmx_with_an_unsized_image_layer_loads() {
    let tmx = r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.0" orientation="orthogonal" renderorder="right-down" width="4" height="2" tilewidth="16" tileheight="16">
 <tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="4" columns="4">
  <image source="t.png"/>
 </tileset>
 <imagelayer name="Sky"><image source="sky.png"/></imagelayer>
 <imagelayer name="Hills"><image source="hills.png" width="320"/></imagelayer>
 <layer name="Ground" width="4" height="2"><data encoding="csv">0,0,0,0,1,1,1,1</data></layer>
</map>"#;
    let l = LoadedLevel::from_tmx_bytes(tmx.as_bytes(), None, &Default::default()).unwrap();
    assert_eq!(l.level.to_string(), "....\n####\n");
    assert!(
        l.rules_used.iter().any(|u| u.contains("skipped: 3 images")),
        "{:?}",
        l.rules_used
    );
}
