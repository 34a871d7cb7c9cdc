//! Every rule of the rules file and every convention, each on a hand-made
//! map small enough to read in the test.
#![cfg(all(feature = "tiled", feature = "ldtk"))]

use std::path::{Path, PathBuf};

use platnav::{
    Cell, LevelError,
    formats::{LoadOptions, load_level},
    level::LoadedLevel,
    rules::TileMapping,
};
use serde_json::{Value, json};

fn rules(text: &str) -> TileMapping {
    TileMapping::from_json(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A 4 x 3 Tiled JSON map of 16-px tiles with one tileset (4 tiles).
fn tmj(layers: Value, tiles: Value) -> String {
    json!({
        "type": "map", "orientation": "orthogonal", "width": 4, "height": 3,
        "tilewidth": 16, "tileheight": 16, "infinite": false,
        "tilesets": [{"firstgid": 1, "name": "t", "tilecount": 4, "tilewidth": 16,
                      "tileheight": 16, "tiles": tiles}],
        "layers": layers
    })
    .to_string()
}

fn tiles(name: &str, data: [u32; 12]) -> Value {
    json!({"type": "tilelayer", "name": name, "width": 4, "height": 3, "data": data})
}

fn load(map: &str, r: &TileMapping) -> LoadedLevel {
    LoadedLevel::from_tmj_str(map, None, r).unwrap_or_else(|e| panic!("{e}"))
}

fn ascii(l: &LoadedLevel) -> String {
    l.level.to_string()
}

const FLOOR: [u32; 12] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1];

#[test]
fn layers_rule_gives_whole_layers_a_kind_and_counts_hidden_layers_only_when_named() {
    let mut hidden = tiles("Hidden", [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]);
    hidden["visible"] = false.into();
    let map = tmj(
        json!([
            tiles("A", FLOOR),
            tiles("B", [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
            hidden
        ]),
        json!([]),
    );
    let l = load(&map, &rules(r#"{"layers": {"A": "solid", "B": "hazard"}}"#));
    assert_eq!(ascii(&l), "^...\n....\n####\n");
    let l = load(&map, &rules(r#"{"layers": {"*": "solid"}}"#));
    assert_eq!(
        ascii(&l),
        "#...\n....\n####\n",
        "a hidden layer is not in *"
    );
    let l = load(
        &map,
        &rules(r#"{"layers": {"A": "solid", "Hidden": "one_way"}}"#),
    );
    assert_eq!(
        ascii(&l),
        "....\n...=\n####\n",
        "named, a hidden layer counts"
    );
    let l = load(&map, &rules(r#"{"layers": {"A": "ignore", "B": "solid"}}"#));
    assert_eq!(ascii(&l), "#...\n....\n....\n");
    // "tiles": unmarked tiles on a layer whose tiles carry no mark are solid.
    let l = load(&map, &rules(r#"{"layers": {"A": "tiles"}}"#));
    assert_eq!(ascii(&l), "....\n....\n####\n");
    // A layer the map lacks is a warning naming the layers it has.
    let l = load(&map, &rules(r#"{"layers": {"C": "solid", "B": "solid"}}"#));
    assert_eq!(ascii(&l), "#...\n....\n....\n");
    let warning = l
        .rules_used
        .iter()
        .find(|u| u.starts_with("warning"))
        .unwrap();
    assert!(
        warning.contains("layer \"C\"") && warning.contains("\"Hidden\""),
        "{warning}"
    );
    let bad = TileMapping::from_json(r#"{"layers": {"A": "lava"}}"#).unwrap_err();
    assert!(
        bad.to_string().contains("unknown layer rule \"lava\""),
        "{bad}"
    );
}

#[test]
fn collide_unless_makes_every_layer_without_the_property_solid() {
    let mut decor = tiles("Decor", [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    decor["properties"] = json!([{"name": "passable", "type": "bool", "value": true}]);
    let map = tmj(json!([tiles("Ground", FLOOR), decor]), json!([]));
    let l = load(&map, &rules(r#"{"collide_unless": "passable"}"#));
    assert_eq!(ascii(&l), "....\n....\n####\n");
    assert!(
        l.rules_used[0].contains("without property \"passable\""),
        "{:?}",
        l.rules_used
    );
}

#[test]
fn tile_properties_of_every_type_through_kinds_and_value_tables() {
    let ts = json!([
        {"id": 0, "properties": [{"name": "blocks", "type": "bool", "value": true}]},
        {"id": 1, "properties": [{"name": "terrain", "type": "int", "value": 2}]},
        {"id": 2, "properties": [{"name": "Material", "type": "string", "value": "Lava"}]},
        {"id": 3, "properties": [{"name": "blocks", "type": "bool", "value": false}]}
    ]);
    let map = tmj(
        json!([tiles("L", [0, 0, 0, 0, 0, 2, 3, 0, 1, 1, 1, 4])]),
        ts,
    );
    let r = rules(
        r#"{"properties": {"blocks": "solid", "terrain": {"2": "one_way"},
                           "Material": {"Lava": "hazard", "*": "empty"}}}"#,
    );
    let l = load(&map, &r);
    assert_eq!(ascii(&l), "....\n.=^.\n###.\n", "{:?}", l.rules_used);
    // A value missing from a table without "*" is an error naming it.
    let strict = rules(r#"{"properties": {"blocks": "solid", "Material": {"Rock": "solid"}}}"#);
    let err = LoadedLevel::from_tmj_str(&map, None, &strict)
        .unwrap_err()
        .to_string();
    assert!(err.contains("Material value \"Lava\""), "{err}");
    // The older `property` + `values` pair is one table. With no rule for
    // `terrain`, the conventions read it: a number other than 0 in a
    // property named like terrain is solid.
    let old = rules(
        r#"{"property": "Material", "values": {"Lava": "hazard"}, "properties": {"blocks": "solid"}}"#,
    );
    assert_eq!(ascii(&load(&map, &old)), "....\n.#^.\n###.\n");
}

#[test]
fn tile_classes_map_through_the_classes_table() {
    let ts = json!([{"id": 0, "type": "Crate"}, {"id": 1, "class": "Cloud"}]);
    let map = tmj(
        json!([tiles("L", [0, 0, 0, 0, 2, 2, 0, 0, 1, 1, 1, 1])]),
        ts,
    );
    let l = load(
        &map,
        &rules(r#"{"classes": {"Crate": "solid", "Cloud": "one_way"}}"#),
    );
    assert_eq!(ascii(&l), "....\n==..\n####\n");
}

#[test]
fn old_tiled_json_property_dictionaries_and_tile_dictionaries() {
    // Tiled before 1.2: `tileproperties` and `tilepropertytypes`, and
    // `tiles` as a dictionary keyed by id.
    let map = json!({
        "type": "map", "orientation": "orthogonal", "width": 4, "height": 3,
        "tilewidth": 16, "tileheight": 16,
        "tilesets": [{"firstgid": 1, "name": "t", "tilecount": 4, "tilewidth": 16, "tileheight": 16,
                      "tileproperties": {"0": {"collides": "true"}, "2": {"deadly": true}},
                      "tilepropertytypes": {"0": {"collides": "bool"}, "2": {"deadly": "bool"}},
                      "tiles": {"1": {"type": "oneway"}}}],
        "layers": [tiles("L", [0, 0, 0, 0, 3, 2, 0, 0, 1, 1, 1, 1])]
    })
    .to_string();
    let l = load(&map, &TileMapping::default());
    assert_eq!(ascii(&l), "....\n^=..\n####\n");
}

/// A tile whose collision shapes are `shapes` (objects in tile pixels).
fn shaped(id: u32, shapes: Value) -> Value {
    json!({"id": id, "objectgroup": {"type": "objectgroup", "name": "", "objects": shapes}})
}

#[test]
fn tile_collision_shapes_full_top_ledge_slope_partial_and_flipped() {
    let ts = json!([
        shaped(
            0,
            json!([{"id": 1, "x": 0, "y": 0, "width": 16, "height": 16}])
        ),
        shaped(
            1,
            json!([{"id": 1, "x": 0, "y": 0, "width": 16, "height": 3}])
        ),
        shaped(
            2,
            json!([{"id": 1, "x": 0, "y": 0, "polygon": [{"x": 0, "y": 16}, {"x": 16, "y": 16}, {"x": 16, "y": 0}]}])
        ),
        shaped(
            3,
            json!([{"id": 1, "x": 4, "y": 10, "width": 6, "height": 6}])
        )
    ]);
    const V: u32 = 0x4000_0000;
    const D: u32 = 0x2000_0000;
    // Row 0: a ledge, the ledge flipped vertically (along the bottom now:
    // partial), the ledge flipped diagonally (a thin wall: partial).
    // Row 1: a slope (rising to the right), a partial shape. Row 2: full
    // blocks.
    let map = tmj(
        json!([tiles("L", [2, 2 | V, 2 | D, 0, 3, 4, 0, 0, 1, 1, 1, 1])]),
        ts,
    );
    let l = load(&map, &TileMapping::default());
    assert_eq!(ascii(&l), "=...\n/...\n####\n");
    assert!(
        l.rules_used
            .iter()
            .any(|r| r.contains("3 tiles with partial collision shapes")),
        "{:?}",
        l.rules_used
    );
    // "shapes": false turns them off (the layer then has no mark: solid).
    let off = load(
        &map,
        &rules(r#"{"shapes": false, "layers": {"L": "tiles"}}"#),
    );
    assert_eq!(ascii(&off), "###.\n##..\n####\n");
}

fn objects(name: &str, objs: Value) -> Value {
    json!({"type": "objectgroup", "name": name, "objects": objs})
}

#[test]
fn object_areas_rectangles_polygons_ellipses_and_polyline_ledges() {
    let map = json!({
        "type": "map", "orientation": "orthogonal", "width": 8, "height": 4,
        "tilewidth": 16, "tileheight": 16, "tilesets": [],
        "layers": [
            objects("Walls", json!([
                // Covers columns 0-1 of row 3, and column 2 by a quarter only.
                {"id": 1, "x": 0, "y": 48, "width": 36, "height": 16},
                // A triangle over 2 x 2 cells at columns 6-7, rows 2-3.
                {"id": 2, "x": 96, "y": 32, "polygon": [{"x": 0, "y": 32}, {"x": 32, "y": 32}, {"x": 32, "y": 0}]}
            ])),
            objects("Danger", json!([
                {"id": 3, "name": "lava", "x": 48, "y": 48, "width": 32, "height": 16, "ellipse": true}
            ])),
            objects("Ledges", json!([
                {"id": 4, "x": 16, "y": 16, "polyline": [{"x": 0, "y": 0}, {"x": 32, "y": 0}]}
            ]))
        ]
    })
    .to_string();
    let r = rules(r#"{"objects": {"Walls": "solid", "lava": "hazard", "Ledges": "one_way"}}"#);
    let l = load(&map, &r);
    assert_eq!(ascii(&l), "........\n.==.....\n.......#\n##.^^.##\n");
    // By the conventions: an object layer named like collision is solid,
    // its untyped lines too (walls, floors); a line marked as a platform is
    // one-way; the coin, the door and the spawn point in it are not walls.
    let conv = json!({
        "type": "map", "orientation": "orthogonal", "width": 4, "height": 3,
        "tilewidth": 16, "tileheight": 16, "tilesets": [],
        "layers": [objects("Collision", json!([
            {"id": 1, "x": 0, "y": 32, "width": 64, "height": 16},
            {"id": 2, "x": 16, "y": 16, "polyline": [{"x": 0, "y": 0}, {"x": 16, "y": 0}]},
            {"id": 3, "x": 56, "y": 0, "polyline": [{"x": 0, "y": 0}, {"x": 0, "y": 32}]},
            {"id": 4, "type": "platform", "x": 32, "y": 16, "polyline": [{"x": 0, "y": 0}, {"x": 16, "y": 0}]},
            {"id": 5, "type": "Coin", "x": 0, "y": 0, "width": 16, "height": 16},
            {"id": 6, "name": "Door", "x": 0, "y": 16, "width": 16, "height": 16},
            {"id": 7, "name": "PlayerSpawn", "x": 32, "y": 0, "width": 16, "height": 16}
        ]))]
    })
    .to_string();
    let l = load(&conv, &TileMapping::default());
    assert_eq!(ascii(&l), "..S#\n.#=#\n####\n");
}

#[test]
fn spawn_and_goal_by_name_class_or_property() {
    let layer = objects(
        "Things",
        json!([
            {"id": 1, "name": "hero", "x": 8, "y": 24, "point": true},
            {"id": 2, "type": "Flag", "x": 48, "y": 16, "width": 16, "height": 16},
            {"id": 3, "x": 32, "y": 16, "width": 16, "height": 16,
             "properties": [{"name": "isExit", "type": "bool", "value": true}]}
        ]),
    );
    let map = tmj(json!([tiles("Ground", FLOOR), layer]), json!([]));
    let l = load(&map, &rules(r#"{"spawn": ["hero"], "goal": ["Flag"]}"#));
    assert_eq!(
        (l.spawn, l.goals.clone()),
        (Some(Cell::new(0, 1)), vec![Cell::new(3, 1)])
    );
    let l = load(&map, &rules(r#"{"spawn": ["hero"], "goal": ["isExit"]}"#));
    assert_eq!(l.goals, vec![Cell::new(2, 1)]);
    assert_eq!(ascii(&l), "....\nS.G.\n####\n");
    // The conventions know "exit" words in names, classes and the like,
    // but not "hero" (a bare "hero" is a player: score 1, here the best).
    let l = load(&map, &TileMapping::default());
    assert_eq!(l.spawn, Some(Cell::new(0, 1)));
}

/// A temporary directory with `files`, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str, files: &[(&str, String)]) -> Self {
        let dir = std::env::temp_dir().join(format!("platnav-rules-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (f, text) in files {
            std::fs::write(dir.join(f), text).unwrap();
        }
        Self(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn templates_and_tile_objects_take_their_class_and_properties() {
    let tsj = json!({"type": "tileset", "name": "things", "tilecount": 2, "tilewidth": 16, "tileheight": 16,
                     "tiles": [{"id": 1, "type": "Exit"}]})
    .to_string();
    let tj = json!({"type": "template", "tileset": {"firstgid": 1, "source": "things.tsj"},
                    "object": {"type": "PlayerStart", "width": 16, "height": 16,
                               "properties": [{"name": "solidblock", "type": "bool", "value": false}]}})
    .to_string();
    let map = json!({
        "type": "map", "orientation": "orthogonal", "width": 4, "height": 3,
        "tilewidth": 16, "tileheight": 16,
        "tilesets": [{"firstgid": 1, "name": "t", "tilecount": 4, "tilewidth": 16, "tileheight": 16, "tiles": []},
                     {"firstgid": 5, "source": "things.tsj"}],
        "layers": [tiles("Ground", FLOOR), objects("Objects", json!([
            {"id": 1, "template": "start.tj", "x": 0, "y": 16},
            // A tile object (anchored bottom-left) of the tile whose class is Exit.
            {"id": 2, "gid": 6, "x": 48, "y": 32, "width": 16, "height": 16}
        ]))]
    })
    .to_string();
    let dir = TempDir::new(
        "tj",
        &[("things.tsj", tsj), ("start.tj", tj), ("map.tmj", map)],
    );
    let l = load_level(&dir.0.join("map.tmj"), &LoadOptions::default()).unwrap();
    assert_eq!(ascii(&l), "....\nS..G\n####\n");

    // The same in TMX, through the tiled crate's templates.
    let tx = r#"<?xml version="1.0" encoding="UTF-8"?>
<template><object type="player_start" width="16" height="16"/></template>"#;
    let tsx = r#"<?xml version="1.0" encoding="UTF-8"?>
<tileset name="things" tilewidth="16" tileheight="16" tilecount="2" columns="2"><image source="x.png" width="32" height="16"/><tile id="1" type="Exit"/></tileset>"#;
    let tmx = r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="4" height="3" tilewidth="16" tileheight="16">
 <tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="4" columns="4"><image source="t.png" width="64" height="16"/></tileset>
 <tileset firstgid="5" source="things.tsx"/>
 <layer id="1" name="Ground" width="4" height="3"><data encoding="csv">0,0,0,0,0,0,0,0,1,1,1,1</data></layer>
 <objectgroup id="2" name="Objects">
  <object id="1" template="start.tx" x="0" y="16"/>
  <object id="2" gid="6" x="48" y="32" width="16" height="16"/>
 </objectgroup>
</map>"#;
    let dir = TempDir::new(
        "tx",
        &[
            ("start.tx", tx.into()),
            ("things.tsx", tsx.into()),
            ("map.tmx", tmx.into()),
        ],
    );
    let l = load_level(&dir.0.join("map.tmx"), &LoadOptions::default()).unwrap();
    assert_eq!(ascii(&l), "....\nS..G\n####\n");
}

#[test]
fn old_tilesets_without_tilecount_or_columns_load() {
    // Neither the embedded nor the external tileset says tilecount or
    // columns: both are counted from the image.
    let tsx = r#"<?xml version="1.0" encoding="UTF-8"?>
<tileset name="old" tilewidth="16" tileheight="16"><image source="old.png" width="48" height="16"/><tile id="2"><properties><property name="solid" type="bool" value="true"/></properties></tile></tileset>"#;
    let tmx = r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.0" orientation="orthogonal" width="4" height="3" tilewidth="16" tileheight="16">
 <tileset firstgid="1" name="t" tilewidth="16" tileheight="16"><image source="t.png" width="32" height="16"/><tile id="1"><properties><property name="one_way" type="bool" value="true"/></properties></tile></tileset>
 <tileset firstgid="3" source="old.tsx"/>
 <layer name="Ground" width="4" height="3"><data encoding="csv">0,0,0,0,2,2,0,0,5,5,5,5</data></layer>
</map>"#;
    let dir = TempDir::new("old", &[("old.tsx", tsx.into()), ("map.tmx", tmx.into())]);
    let l = load_level(&dir.0.join("map.tmx"), &LoadOptions::default()).unwrap();
    assert_eq!(ascii(&l), "....\n==..\n####\n");
    // Tiled JSON: no tilecount, the image grid gives it.
    let map = json!({
        "type": "map", "orientation": "orthogonal", "width": 4, "height": 3, "tilewidth": 16, "tileheight": 16,
        "tilesets": [{"firstgid": 1, "name": "t", "tilewidth": 16, "tileheight": 16, "imagewidth": 32, "imageheight": 16,
                      "tiles": [{"id": 1, "properties": [{"name": "solid", "type": "bool", "value": true}]}]}],
        "layers": [tiles("L", [0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2])]
    })
    .to_string();
    assert_eq!(
        ascii(&load(&map, &TileMapping::default())),
        "....\n....\n####\n"
    );
}

#[test]
fn infinite_maps_with_chunks_at_negative_coordinates() {
    let map = json!({
        "type": "map", "orientation": "orthogonal", "infinite": true, "tilewidth": 16, "tileheight": 16,
        "tilesets": [{"firstgid": 1, "name": "t", "tilecount": 1, "tiles": []}],
        "layers": [{"type": "tilelayer", "name": "Solid", "chunks": [
            {"x": -2, "y": -1, "width": 2, "height": 2, "data": [0, 0, 1, 1]},
            {"x": 0, "y": -1, "width": 2, "height": 2, "data": [0, 1, 1, 1]}
        ]}, objects("O", json!([{"id": 1, "name": "spawn", "x": -24, "y": -8, "point": true}]))]
    })
    .to_string();
    let l = load(&map, &TileMapping::default());
    // Columns -2..1, rows -1..0 (the bounding box of the tiles).
    assert_eq!(ascii(&l), "S..#\n####\n");
    assert_eq!(l.spawn, Some(Cell::new(0, 0)));
    let chunk = |x: i32, y: i32, csv: &str| {
        format!(r#"<chunk x="{x}" y="{y}" width="16" height="16">{csv}</chunk>"#)
    };
    let mut a = vec!["0"; 256];
    a[255] = "1";
    let mut b = vec!["0"; 256];
    b[240] = "1";
    let tmx = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="4" height="3" tilewidth="16" tileheight="16" infinite="1">
 <tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="1" columns="1"><image source="t.png" width="16" height="16"/></tileset>
 <layer id="1" name="Ground" width="4" height="3"><data encoding="csv">{}{}</data></layer>
</map>"#,
        chunk(-16, -16, &a.join(",")),
        chunk(0, -16, &b.join(","))
    );
    let l = LoadedLevel::from_tmx_bytes(tmx.as_bytes(), None, &TileMapping::default()).unwrap();
    assert_eq!(ascii(&l), "##\n");
}

#[test]
fn tmx_layer_data_in_gzip_and_zlib() {
    use std::io::Write;
    let gids: Vec<u8> = [0u32, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1]
        .iter()
        .flat_map(|g| g.to_le_bytes())
        .collect();
    let b64 = |b: &[u8]| {
        // The base64 of the standard alphabet, by hand: the tests need no crate.
        const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut s = String::new();
        for c in b.chunks(3) {
            let n = (u32::from(c[0]) << 16)
                | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
                | u32::from(*c.get(2).unwrap_or(&0));
            for i in 0..4 {
                if i <= c.len() {
                    s.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
                } else {
                    s.push('=');
                }
            }
        }
        s
    };
    for (kind, data) in [
        ("gzip", {
            let mut e = flate2_like::gzip();
            e.write_all(&gids).unwrap();
            e.finish()
        }),
        ("zlib", {
            let mut e = flate2_like::zlib();
            e.write_all(&gids).unwrap();
            e.finish()
        }),
    ] {
        let tmx = format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="4" height="3" tilewidth="16" tileheight="16">
 <tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="1" columns="1"><image source="t.png" width="16" height="16"/></tileset>
 <layer id="1" name="Ground" width="4" height="3"><data encoding="base64" compression="{kind}">{}</data></layer>
</map>"#,
            b64(&data)
        );
        let l = LoadedLevel::from_tmx_bytes(tmx.as_bytes(), None, &TileMapping::default())
            .unwrap_or_else(|e| panic!("{kind}: {e}"));
        assert_eq!(ascii(&l), "....\n....\n####\n", "{kind}");
    }
}

/// Stored (uncompressed) deflate blocks in gzip and zlib wrappers: valid
/// streams any inflater reads, written without a compression crate.
mod flate2_like {
    pub struct Enc {
        gzip: bool,
        data: Vec<u8>,
    }
    pub fn gzip() -> Enc {
        Enc {
            gzip: true,
            data: Vec::new(),
        }
    }
    pub fn zlib() -> Enc {
        Enc {
            gzip: false,
            data: Vec::new(),
        }
    }
    impl std::io::Write for Enc {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.data.extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    fn crc32(d: &[u8]) -> u32 {
        let mut c = !0u32;
        for &b in d {
            c ^= u32::from(b);
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
        }
        !c
    }
    fn adler32(d: &[u8]) -> u32 {
        let (mut a, mut b) = (1u32, 0u32);
        for &x in d {
            a = (a + u32::from(x)) % 65521;
            b = (b + a) % 65521;
        }
        (b << 16) | a
    }
    impl Enc {
        pub fn finish(self) -> Vec<u8> {
            let d = &self.data;
            let len = d.len() as u16;
            let mut block = vec![1u8];
            block.extend_from_slice(&len.to_le_bytes());
            block.extend_from_slice(&(!len).to_le_bytes());
            block.extend_from_slice(d);
            let mut out = Vec::new();
            if self.gzip {
                out.extend_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);
                out.extend_from_slice(&block);
                out.extend_from_slice(&crc32(d).to_le_bytes());
                out.extend_from_slice(&(d.len() as u32).to_le_bytes());
            } else {
                out.extend_from_slice(&[0x78, 0x01]);
                out.extend_from_slice(&block);
                out.extend_from_slice(&adler32(d).to_be_bytes());
            }
            out
        }
    }
}

#[test]
fn conventions_layer_names_properties_and_the_only_layer() {
    // A layer named like collision: its unmarked tiles are solid; other
    // layers (Decor) are not read; a layer named like spikes is deadly.
    let map = tmj(
        json!([
            tiles("Decor", [1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]),
            tiles("Collision", FLOOR),
            tiles("Spikes", [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0])
        ]),
        json!([]),
    );
    assert_eq!(
        ascii(&load(&map, &TileMapping::default())),
        "....\n^...\n####\n"
    );
    // Bool properties named like collides, solid, collider, platform, spike
    // (tile 0, along the floor; tile 1, platnav's own `solid`, in a corner).
    for (name, kind) in [
        ("collides", '#'),
        ("Solid", '#'),
        ("collider", '#'),
        ("isPlatform", '='),
        ("spike", '^'),
        ("climbable", 'H'),
    ] {
        let ts = json!([{"id": 0, "properties": [{"name": name, "type": "bool", "value": true}]},
                        {"id": 1, "properties": [{"name": "solid", "type": "bool", "value": true}]}]);
        let map = tmj(
            json!([
                tiles("A", FLOOR),
                tiles("B", [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
            ]),
            ts,
        );
        let l = load(&map, &TileMapping::default());
        let row: String = ascii(&l).lines().nth(2).unwrap().into();
        assert_eq!(row, kind.to_string().repeat(4), "{name}");
        if kind == 'H' {
            // A ladder, counted in the summary.
            assert!(
                l.rules_used.iter().any(|r| r.contains("4 ladder cells")),
                "{name}"
            );
        }
    }
    // Layer properties: nocollide on one layer makes the others collide.
    let mut bg = tiles("Back", [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    bg["properties"] = json!([{"name": "noCollide", "type": "bool", "value": true}]);
    let map = tmj(json!([bg, tiles("Front", FLOOR)]), json!([]));
    assert_eq!(
        ascii(&load(&map, &TileMapping::default())),
        "....\n....\n####\n"
    );
    // A layer named as games name their collision layer without saying so.
    let map = tmj(
        json!([tiles("Details", FLOOR), tiles("main layer", FLOOR)]),
        json!([]),
    );
    let l = load(&map, &TileMapping::default());
    assert_eq!(ascii(&l), "....\n....\n####\n");
    assert_eq!(
        l.rules_used[0],
        "layer \"main layer\" (named like a collision layer): every tile solid"
    );
    // Nothing marked and one tile layer: every tile of it is solid.
    let map = tmj(json!([tiles("Tile Layer 1", FLOOR)]), json!([]));
    let l = load(&map, &TileMapping::default());
    assert_eq!(ascii(&l), "....\n....\n####\n");
    assert!(
        l.rules_used[0].contains("the only tile layer"),
        "{:?}",
        l.rules_used
    );
    // "conventions": false leaves the explicit rules alone.
    let err = LoadedLevel::from_tmj_str(&map, None, &rules(r#"{"conventions": false}"#));
    assert!(matches!(err, Err(LevelError::NothingSolid(_))), "{err:?}");
}

#[test]
fn nothing_solid_is_a_typed_error_listing_the_file_and_a_rules_line() {
    let ts = json!([{"id": 0, "type": "Grass", "properties": [{"name": "tint", "type": "int", "value": 3}]}]);
    let map = json!({
        "type": "map", "orientation": "orthogonal", "width": 4, "height": 3, "tilewidth": 16, "tileheight": 16,
        "tilesets": [{"firstgid": 1, "name": "t", "tilecount": 4, "tiles": ts}],
        "layers": [tiles("Far", FLOOR), tiles("Near", [1; 12]),
                   objects("Stuff", json!([{"id": 1, "name": "lamp", "type": "Light", "x": 1, "y": 1}]))]
    })
    .to_string();
    let err = LoadedLevel::from_tmj_str(&map, None, &TileMapping::default()).unwrap_err();
    let LevelError::NothingSolid(c) = &err else {
        panic!("{err:?}");
    };
    assert_eq!(c.tile_layers, vec!["\"Far\"", "\"Near\""]);
    assert_eq!(c.object_layers, vec!["Stuff"]);
    assert_eq!(c.tile_properties, vec!["tint (int)"]);
    assert_eq!(c.tile_classes, vec!["Grass"]);
    assert_eq!(
        (c.object_classes.clone(), c.object_names.clone()),
        (vec!["Light".to_owned()], vec!["lamp".to_owned()])
    );
    assert_eq!(c.suggestion, r#"{"layers": {"Far": "solid"}}"#);
    let msg = err.to_string();
    assert_eq!(msg.lines().count(), 2, "{msg}");
    assert!(msg.contains("--rules"), "{msg}");
}

fn ldtk_project(levels: Value, worlds: Value) -> String {
    json!({"jsonVersion": "1.5.3", "defs": {"layers": [
        {"uid": 1, "identifier": "Terrain", "type": "IntGrid", "gridSize": 8,
         "intGridValues": [{"value": 1, "identifier": "rock"}, {"value": 2, "identifier": "cloud"}, {"value": 5, "identifier": null}]}
    ]}, "levels": levels, "worlds": worlds})
    .to_string()
}

fn ldtk_level(name: &str, csv: [u32; 8], entities: Value) -> Value {
    json!({"identifier": name, "iid": name, "pxWid": 32, "pxHei": 16, "layerInstances": [
        {"__identifier": "Entities", "__type": "Entities", "__cWid": 2, "__cHei": 1, "__gridSize": 16,
         "layerDefUid": 2, "entityInstances": entities},
        {"__identifier": "Terrain", "__type": "IntGrid", "__cWid": 4, "__cHei": 2, "__gridSize": 8,
         "layerDefUid": 1, "intGridCsv": csv}
    ]})
}

#[test]
fn ldtk_intgrid_values_by_name_or_number_entities_and_levels() {
    let hero = json!([{"__identifier": "Hero", "__pivot": [0, 0], "px": [0, 0], "width": 8, "height": 8,
                       "__tags": ["start"], "fieldInstances": []}]);
    let p = ldtk_project(
        json!([
            ldtk_level("A", [0, 0, 2, 5, 1, 1, 1, 1], hero),
            ldtk_level("B", [1, 0, 0, 1, 1, 1, 1, 1], json!([]))
        ]),
        json!([]),
    );
    // "Terrain" is named like collision: rock and the unnamed 5 are solid,
    // cloud (no convention word) too, unless the rules say otherwise.
    // The entity "Hero" is the spawn by the conventions.
    let l = LoadedLevel::from_ldtk_str(&p, None, None, &TileMapping::default()).unwrap();
    assert_eq!(ascii(&l), "S.##\n####\n");
    let r = rules(r#"{"intgrid": {"cloud": "one_way", "5": "hazard"}, "spawn": ["start"]}"#);
    let l = LoadedLevel::from_ldtk_str(&p, None, None, &r).unwrap();
    assert_eq!(ascii(&l), "S.=^\n####\n");
    let b = LoadedLevel::from_ldtk_str(&p, None, Some("B"), &TileMapping::default()).unwrap();
    assert_eq!(ascii(&b), "#..#\n####\n");
    let err = LoadedLevel::from_ldtk_str(&p, None, Some("C"), &TileMapping::default()).unwrap_err();
    assert!(
        err.to_string()
            .contains(r#"no level named "C" (levels: "A", "B")"#),
        "{err}"
    );
    // Multi-worlds layout.
    let w = ldtk_project(
        json!([]),
        json!([{"identifier": "W", "levels": [ldtk_level("B", [1; 8], json!([]))]}]),
    );
    let l = LoadedLevel::from_ldtk_str(&w, None, Some("B"), &TileMapping::default()).unwrap();
    assert_eq!(ascii(&l), "####\n####\n");
}

#[test]
fn ldtk_layer_of_another_grid_is_laid_over_the_level_grid() {
    // The level grid is the first IntGrid layer's (16 px); an 8-px layer's
    // cells each cover a quarter of a level cell, and a level cell takes
    // a kind when that kind's cells cover at least half of it.
    let p = json!({"jsonVersion": "1.5.3", "defs": {"layers": []}, "levels": [
    {"identifier": "L", "pxWid": 48, "pxHei": 16, "layerInstances": [
        {"__identifier": "Walls", "__type": "IntGrid", "__cWid": 3, "__cHei": 1, "__gridSize": 16,
         "intGridCsv": [0, 0, 1]},
        {"__identifier": "Fine", "__type": "IntGrid", "__cWid": 6, "__cHei": 2, "__gridSize": 8,
         "intGridCsv": [1, 1, 1, 0, 0, 0,
                        0, 0, 0, 0, 0, 0]}
    ]}]})
    .to_string();
    let r = rules(r#"{"layers": {"Fine": "hazard", "Walls": "solid"}}"#);
    let l = LoadedLevel::from_ldtk_str(&p, None, None, &r).unwrap();
    assert_eq!(ascii(&l), "^.#\n");
}

#[test]
fn json_files_are_sniffed_and_unsupported_files_say_so() {
    let dir = TempDir::new(
        "sniff",
        &[
            (
                "tiled.json",
                tmj(json!([tiles("Ground", FLOOR)]), json!([])),
            ),
            (
                "project.json",
                std::fs::read_to_string("levels/ldtk/small.ldtk").unwrap(),
            ),
            ("legend.json", r##"{"#000000": "solid"}"##.into()),
            ("level.dat", "####\n#..#\n####\n".into()),
            ("notes.md", "# My level\n\nSome notes.\n".into()),
        ],
    );
    let load = |f: &str| load_level(&dir.0.join(f), &LoadOptions::default());
    assert_eq!(ascii(&load("tiled.json").unwrap()), "....\n....\n####\n");
    assert_eq!(
        load("project.json").unwrap(),
        load_level(Path::new("levels/small/small.txt"), &LoadOptions::default()).unwrap()
    );
    let e = load("legend.json").unwrap_err().to_string();
    assert!(
        e.contains("neither a Tiled map nor an LDtk project") && e.contains(".ldtk"),
        "{e}"
    );
    assert_eq!(ascii(&load("level.dat").unwrap()), "####\n#..#\n####\n");
    let e = load("notes.md").unwrap_err().to_string();
    assert!(
        e.contains("unsupported file: not a platnav ASCII level") && e.contains(".tmx"),
        "{e}"
    );
    assert_eq!(
        platnav::formats::sniff_format(
            &dir.0.join("project.json"),
            b"{\"jsonVersion\": \"1\", \"defs\": {}}"
        )
        .unwrap(),
        "ldtk"
    );
}

/// Slopes and ladders: a triangle on the tile's bottom is a slope even on
/// a tile a property marks solid, flipped horizontally it rises the other
/// way; a tile class, platnav's own properties and a layer rule name them
/// too.
#[test]
fn slopes_from_triangles_names_and_properties_and_ladders_load_as_ladders() {
    const H: u32 = 0x8000_0000;
    let triangle = json!([{"id": 1, "x": 0, "y": 0,
        "polygon": [{"x": 0, "y": 16}, {"x": 16, "y": 16}, {"x": 16, "y": 0}]}]);
    let mut marked = shaped(0, triangle);
    marked["properties"] = json!([{"name": "collides", "type": "bool", "value": true}]);
    let ts = json!([
        marked,
        {"id": 1, "type": "RampLeft"},
        {"id": 2, "properties": [{"name": "slope_right", "type": "bool", "value": true}]},
        {"id": 3, "properties": [{"name": "ladder", "type": "bool", "value": true}]}
    ]);
    let map = tmj(
        json!([
            tiles("Floor", FLOOR),
            tiles("L", [1, 1 | H, 2, 3, 4, 4, 0, 0, 0, 0, 0, 0])
        ]),
        ts,
    );
    let r = rules(r#"{"layers": {"Floor": "solid", "L": "tiles"}}"#);
    assert_eq!(ascii(&load(&map, &r)), "/\\\\/\nHH..\n####\n");
    let r = rules(r#"{"layers": {"Floor": "solid", "L": "slope_left"}}"#);
    assert_eq!(ascii(&load(&map, &r)), "\\\\\\\\\n\\\\..\n####\n");
}

#[test]
fn ldtk_enum_tags_mark_tiles_and_auto_tiles() {
    // A tile layer whose only marking is the tileset's enum tags: tagged
    // Solid is solid, Ladder a ladder, untagged tiles (pillars) nothing.
    let tile =
        |x: u32, y: u32, t: u32| json!({"px": [x * 16, y * 16], "src": [0, 0], "f": 0, "t": t});
    let p = json!({"jsonVersion": "1.5.3", "defs": {
      "layers": [],
      "tilesets": [{"uid": 7, "identifier": "World", "tileGridSize": 16,
                    "enumTags": [{"enumValueId": "Solid", "tileIds": [1]},
                                 {"enumValueId": "Ladder", "tileIds": [2]}]}]},
    "levels": [{"identifier": "L", "pxWid": 64, "pxHei": 48, "layerInstances": [
      {"__identifier": "Tiles", "__type": "Tiles", "__cWid": 4, "__cHei": 3, "__gridSize": 16,
       "__tilesetDefUid": 7, "gridTiles": [
          tile(0, 2, 1), tile(1, 2, 1), tile(2, 2, 1), tile(3, 2, 1),
          tile(3, 1, 2), tile(3, 0, 2), tile(0, 1, 3)]}
    ]}]})
    .to_string();
    let l = LoadedLevel::from_ldtk_str(&p, None, None, &TileMapping::default()).unwrap();
    assert_eq!(ascii(&l), "...H\n...H\n####\n");
    assert_eq!(l.rules_used[0], "tile classes", "{:?}", l.rules_used);
    // The rules' `tiles` mark an IntGrid layer's cells by their auto-layer
    // tile: value 3 is nothing but where its tile is the one-way id 9.
    let p = json!({"jsonVersion": "1.5.3", "defs": {
        "layers": [{"uid": 1, "identifier": "walls", "type": "IntGrid",
                    "intGridValues": [{"value": 1, "identifier": "walls"}, {"value": 3, "identifier": "light"}]}],
        "tilesets": [{"uid": 7, "identifier": "World", "tileGridSize": 16}]},
      "levels": [{"identifier": "L", "pxWid": 64, "pxHei": 32, "layerInstances": [
        {"__identifier": "walls", "__type": "IntGrid", "__cWid": 4, "__cHei": 2, "__gridSize": 16,
         "layerDefUid": 1, "__tilesetDefUid": 7, "intGridCsv": [3, 3, 0, 0, 1, 1, 1, 1],
         "autoLayerTiles": [tile(0, 0, 9), tile(1, 0, 4), tile(0, 1, 9)]}
      ]}]})
    .to_string();
    let r = rules(r#"{"intgrid": {"light": "empty"}, "tiles": {"World:9": "one_way"}}"#);
    let l = LoadedLevel::from_ldtk_str(&p, None, None, &r).unwrap();
    assert_eq!(ascii(&l), "=...\n####\n");
}

#[test]
fn tiles_by_id_and_a_layer_that_fills_the_map() {
    // One layer fills the map (a game that hard-codes tile 0 as its wall):
    // read as every tile solid it leaves no room, so the tiles of its edges
    // are the walls; the rules' `tiles` say the same by id.
    let data = [1, 1, 1, 1, 1, 2, 3, 1, 1, 2, 2, 1, 1, 1, 1, 1];
    let map = json!({
        "type": "map", "orientation": "orthogonal", "width": 4, "height": 4,
        "tilewidth": 16, "tileheight": 16,
        "tilesets": [{"firstgid": 1, "name": "t", "tilewidth": 16, "tileheight": 16, "tilecount": 3, "columns": 3}],
        "layers": [{"type": "tilelayer", "name": "Tile Layer 1", "width": 4, "height": 4, "data": data}]
    })
    .to_string();
    let l = load(&map, &TileMapping::default());
    assert_eq!(ascii(&l), "####\n#..#\n#..#\n####\n");
    assert!(
        l.rules_used[0].contains("fills the map"),
        "{:?}",
        l.rules_used
    );
    let l = load(
        &map,
        &rules(r#"{"tiles": {"t:2": "hazard", "0": "solid", "1": "empty"}}"#),
    );
    assert_eq!(ascii(&l), "####\n#.^#\n#..#\n####\n");
}

#[test]
fn a_few_shaped_tiles_leave_the_rest_of_the_collision_layer_solid() {
    // Only tile 3 (a slope) carries a collision shape; plain tile 1 is the
    // floor, and must not vanish because its neighbour has a shape.
    let ts = json!([shaped(
        2,
        json!([{"id": 1, "x": 0, "y": 0, "polygon": [{"x": 0, "y": 16}, {"x": 16, "y": 16}, {"x": 16, "y": 0}]}])
    )]);
    let floor = [0, 0, 0, 0, 0, 0, 0, 3, 1, 1, 1, 1];
    for name in ["Collision", "Tile Layer 1"] {
        let map = tmj(
            json!([
                tiles("Sky", [4, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0]),
                tiles(name, floor)
            ]),
            ts.clone(),
        );
        let l = load(
            &map,
            &rules(r#"{"layers": {"Sky": "ignore", "*": "tiles"}}"#),
        );
        assert_eq!(ascii(&l), "....\n.../\n####\n", "{name}");
        // With the conventions alone: the sky (unmarked, not the shaped
        // layer) stays empty, the shaped layer's plain tiles are solid.
        let l = load(&map, &TileMapping::default());
        assert_eq!(ascii(&l), "....\n.../\n####\n", "{name}");
        assert!(
            l.rules_used
                .iter()
                .any(|u| u.contains("the 4 without solid")),
            "{name}: {:?}",
            l.rules_used
        );
    }
}

#[test]
fn object_rules_map_property_values_and_an_objects_own_mark_beats_its_layer() {
    let map = json!({
        "type": "map", "orientation": "orthogonal", "width": 4, "height": 2,
        "tilewidth": 16, "tileheight": 16, "tilesets": [],
        "layers": [objects("Collision", json!([
            {"id": 1, "x": 0, "y": 16, "width": 64, "height": 16,
             "properties": [{"name": "body", "type": "string", "value": "static"}]},
            {"id": 2, "x": 0, "y": 0, "width": 16, "height": 16,
             "properties": [{"name": "body", "type": "string", "value": "dynamic"}]},
            {"id": 3, "x": 16, "y": 0, "width": 16, "height": 16,
             "properties": [{"name": "oneway", "type": "string", "value": "true"}]},
            {"id": 4, "x": 32, "y": 0, "width": 16, "height": 16,
             "properties": [{"name": "oneway", "type": "string", "value": "false"}]}
        ]))]
    })
    .to_string();
    let r = rules(
        r#"{"objects": {"Collision": "solid", "oneway": "one_way",
                        "body": {"static": "solid", "dynamic": "ignore"}}}"#,
    );
    // The crate (dynamic) is nothing, "true" one-way beats the layer's
    // solid, "false" leaves the object to its layer.
    assert_eq!(ascii(&load(&map, &r)), ".=#.\n####\n");
}

#[test]
fn the_reading_that_puts_ground_under_the_spawn_wins_and_the_runner_up_is_named() {
    // A layer named like collision holds one stray tile; the art layer's
    // tiles say `collides`. Reading the collision layer alone leaves the
    // spawn over nothing; reading the tiles' marks puts the floor under it.
    let ts =
        json!([{"id": 0, "properties": [{"name": "collides", "type": "bool", "value": true}]}]);
    let map = json!({
        "type": "map", "orientation": "orthogonal", "width": 4, "height": 3,
        "tilewidth": 16, "tileheight": 16,
        "tilesets": [{"firstgid": 1, "name": "t", "tilecount": 4, "tilewidth": 16,
                      "tileheight": 16, "tiles": ts}],
        "layers": [
            tiles("Collision", [0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0]),
            tiles("Art", FLOOR),
            objects("Things", json!([{"id": 1, "name": "spawn", "x": 0, "y": 16, "point": true}]))
        ]
    })
    .to_string();
    let l = load(&map, &TileMapping::default());
    assert_eq!(ascii(&l), "....\nS...\n####\n");
    let runner = l
        .rules_used
        .iter()
        .find(|u| u.starts_with("runner-up"))
        .unwrap();
    assert!(
        runner.contains("\"Collision\"") && runner.contains("nothing under the spawn"),
        "{runner}"
    );
}

#[test]
fn ldtk_before_0_8_reads_the_old_intgrid_list() {
    // LDtk 0.7 wrote `intGrid` as {coordId, v} with `v` the value's index,
    // and value definitions without numbers (their index + 1).
    let p = json!({"jsonVersion": "0.7.0", "defs": {"layers": [
        {"uid": 1, "identifier": "Collisions", "type": "IntGrid",
         "intGridValues": [{"identifier": "wall"}, {"identifier": "ladder"}]}]},
      "levels": [{"identifier": "L", "pxWid": 64, "pxHei": 32, "layerInstances": [
        {"__identifier": "Collisions", "__type": "IntGrid", "__cWid": 4, "__cHei": 2, "__gridSize": 16,
         "layerDefUid": 1, "intGrid": [{"coordId": 3, "v": 1}, {"coordId": 4, "v": 0},
                                        {"coordId": 5, "v": 0}, {"coordId": 6, "v": 0}, {"coordId": 7, "v": 0}]}
      ]}]})
    .to_string();
    let l = LoadedLevel::from_ldtk_str(&p, None, None, &TileMapping::default()).unwrap();
    assert_eq!(ascii(&l), "...H\n####\n");
}

#[test]
fn an_ldtk_marker_off_the_level_is_an_ldtk_error() {
    let hero = json!([{"__identifier": "Player", "__pivot": [0, 0], "px": [500, 0], "width": 8, "height": 8,
                       "fieldInstances": []}]);
    let p = ldtk_project(
        json!([ldtk_level("A", [0, 0, 0, 0, 1, 1, 1, 1], hero)]),
        json!([]),
    );
    let err = LoadedLevel::from_ldtk_str(&p, None, None, &TileMapping::default()).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with("ldtk: ") && msg.contains("lies off the map"),
        "{msg}"
    );
}

#[test]
fn a_reading_that_cannot_be_carried_out_is_no_candidate() {
    // The collision layer's tiles say Geometry; a tile of another layer
    // has a value the rules' table lacks. Only reading every layer by its
    // marks meets it: that reading drops out, the load does not fail.
    let ts = json!([
        {"id": 0, "properties": [{"name": "TileType", "type": "string", "value": "Geometry"}]},
        {"id": 1, "properties": [{"name": "TileType", "type": "string", "value": "Mystery"}]}
    ]);
    let map = tmj(
        json!([
            tiles("Collision", FLOOR),
            tiles("Art", [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        ]),
        ts,
    );
    let r = rules(r#"{"properties": {"TileType": {"Geometry": "solid"}}}"#);
    assert_eq!(ascii(&load(&map, &r)), "....\n....\n####\n");
    // Where the most telling reading meets it, it is the map's error.
    let err = LoadedLevel::from_tmj_str(
        &map,
        None,
        &rules(
            r#"{"layers": {"Art": "tiles"}, "properties": {"TileType": {"Geometry": "solid"}}}"#,
        ),
    )
    .unwrap_err();
    assert!(err.to_string().contains("\"Mystery\""), "{err}");
}

/// Screen wrap from each place a map can say it: a Tiled map property (a
/// string, or `true` for `x`), an LDtk level field, the rules file (over
/// the map), and the loader option (over everything, for every format).
#[test]
fn a_wrap_is_read_from_the_map_the_rules_file_and_the_loader_option() {
    use platnav::Wrap;
    let with = |props: Value| {
        let mut v: Value =
            serde_json::from_str(&tmj(json!([tiles("A", FLOOR)]), json!([]))).unwrap();
        v["properties"] = props;
        v.to_string()
    };
    let string = with(json!([{"name": "Wrap", "type": "string", "value": "xy"}]));
    let l = load(&string, &TileMapping::default());
    assert_eq!(l.level.wrap(), Wrap::XY);
    assert!(
        l.rules_used.iter().any(|u| u.contains("wrap xy")),
        "{:?}",
        l.rules_used
    );
    let yes = with(json!([{"name": "wrap", "type": "bool", "value": true}]));
    assert_eq!(load(&yes, &TileMapping::default()).level.wrap(), Wrap::X);
    // The rules file's wrap goes over the map's.
    assert_eq!(
        load(&string, &rules(r#"{"wrap": "y"}"#)).level.wrap(),
        Wrap::Y
    );
    assert!(TileMapping::from_json(r#"{"wrap": "diagonal"}"#).is_err());
    // A value that is no wrap is an error naming it.
    let bad = with(json!([{"name": "wrap", "type": "string", "value": "sideways"}]));
    let err = LoadedLevel::from_tmj_str(&bad, None, &TileMapping::default()).unwrap_err();
    assert!(err.to_string().contains("sideways"), "{err}");
    // Without one, nothing wraps.
    let plain = tmj(json!([tiles("A", FLOOR)]), json!([]));
    assert_eq!(
        load(&plain, &TileMapping::default()).level.wrap(),
        Wrap::NONE
    );

    // TMX: a map property.
    let tmx = std::fs::read_to_string("levels/small/small.tmx").unwrap();
    let at = tmx.find("<tileset").unwrap();
    let tmx = format!(
        "{}<properties><property name=\"wrap\" value=\"x\"/></properties>\n {}",
        &tmx[..at],
        &tmx[at..]
    );
    let base = Path::new("levels/small");
    let l =
        LoadedLevel::from_tmx_bytes(tmx.as_bytes(), Some(base), &TileMapping::default()).unwrap();
    assert_eq!(l.level.wrap(), Wrap::X);

    // LDtk: a level field.
    let mut project: Value =
        serde_json::from_str(&std::fs::read_to_string("levels/ldtk/small.ldtk").unwrap()).unwrap();
    project["levels"][0]["fieldInstances"] =
        json!([{"__identifier": "wrap", "__type": "String", "__value": "y"}]);
    let dir = TempDir::new("wrap", &[("wrapped.ldtk", project.to_string())]);
    let path = dir.0.join("wrapped.ldtk");
    let l = load_level(&path, &LoadOptions::default()).unwrap();
    assert_eq!(l.level.wrap(), Wrap::Y);

    // The loader option, over the file's own.
    let l = load_level(&path, &LoadOptions::default().with_wrap(Some(Wrap::NONE))).unwrap();
    assert_eq!(l.level.wrap(), Wrap::NONE);
    let l = load_level(
        Path::new("levels/small/small.txt"),
        &LoadOptions::default().with_wrap(Some(Wrap::X)),
    )
    .unwrap();
    assert_eq!(l.level.wrap(), Wrap::X);
}
