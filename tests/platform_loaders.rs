//! The loaders fill `LoadedLevel::platforms`: Tiled objects (ends by
//! reference as sq2 does, polylines and polygons, Python Arcade's bounds),
//! LDtk entities with a point field, and the ASCII format's `@platform`
//! lines; a malformed platform is an error naming its object or line.
#![cfg(all(feature = "tiled", feature = "ldtk"))]

use std::path::Path;

use platnav::Physics;
use platnav::formats::{LoadOptions, load_level};
use platnav::level::{LevelError, LoadedLevel, Platform, PlatformLoop, Platforms};
use platnav::rules::TileMapping;
use serde_json::{Value, json};

const SQ2: &str = "levels/sq2/Maps/level_02.tmx";

fn near(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-4
}

/// The platform whose path ends at `end` (in tiles).
fn ending_at(l: &LoadedLevel, end: [f64; 2]) -> &Platform {
    l.platforms
        .iter()
        .find(|p| near(p.points[1][0], end[0]) && near(p.points[1][1], end[1]))
        .unwrap_or_else(|| panic!("no platform ends at {end:?}"))
}

/// sq2's `MovingPlatform` tile objects, read the way the game reads them
/// (`MapLoader.cs`, `EntityFactory.CreateMovingPlatform`,
/// `MovingPlatformComponent`).
///
/// The game's world is the map's pixels with y flipped and half a tile
/// (9 px) taken off: `world = (X - 9, 9 - Y)` for a Tiled `(X, Y)`. Its
/// platform's collider is `Width` tiles by half a tile, centred at
/// `world(object) + (w / 2, 0.75 h)`, and a tile object's `Y` is its
/// bottom edge, so in map pixels the collider's centre is `(X + w/2, Y -
/// 0.75 h)` and its top `Y - 0.75 h - 4.5 = Y - 18` for `h = 18`: the top
/// of the object's box. Its ends are `world(point) + (0, 4.5)`: in map
/// pixels a centre at `(Xp, Yp - 4.5)`, a top at `Yp - 9`. platnav's
/// corner is the collider's top-left: `(Xp - 9 Width, Yp - 9)` at an end,
/// `(X + w/2 - 9 Width, Y - 18)` at the start, over 18 px a tile.
#[test]
fn sq2_level_02_places_its_77_moving_platforms_where_the_game_does() {
    let opts = LoadOptions::default().with_rules(Some("levels/sq2/mapping.json".into()));
    let l = load_level(Path::new(SQ2), &opts).unwrap();
    assert_eq!(l.platforms.len(), 77);
    assert!(
        !l.unmodelled.iter().any(|m| m.kind == "moving platform"),
        "{:?}",
        l.unmodelled
    );
    assert!(
        l.rules_used
            .iter()
            .any(|r| r == "77 moving platforms (objects of class \"MovingPlatform\")"),
        "{:?}",
        l.rules_used
    );
    // The rules file's 30 px/s, over 18 px a tile.
    for p in &l.platforms {
        assert!(near(p.speed, 30.0 / 18.0), "{p:?}");
        assert_eq!(
            (p.height, p.pause, p.looped),
            (1, 0, PlatformLoop::BackAndForth)
        );
        assert_eq!(p.points.len(), 2);
    }

    // Object 76: x=3708 y=894.333 w=54 h=18, Width 3; StartPosition is
    // point 78 at (3735.18, 917.818), EndPosition point 77 at (3735, 828).
    //   start corner: ((3735.18 - 27) / 18, (917.818 - 9) / 18) = (206.01, 50.49)
    //   end corner:   ((3735 - 27) / 18, (828 - 9) / 18) = (206, 45.5)
    //   at tick 0:    ((3708 + 27 - 27) / 18, (894.333 - 18) / 18) = (206, 48.685)
    // On its way up to the end, it is (50.49 - 48.685) / (50.49 - 45.5)
    // = 0.3617 of the leg; the leg is ceil(4.99 / (30/18/60)) = 180 ticks,
    // so its cycle starts at tick round(0.3617 * 180) = 65.
    let p = ending_at(&l, [206.0, 45.5]);
    assert_eq!(p.width, 3);
    assert!(
        near(p.points[0][0], 3708.18 / 18.0) && near(p.points[0][1], 908.818 / 18.0),
        "{p:?}"
    );
    assert_eq!(p.offset, 65);

    // Object 80: x=2060.91 y=156.455 w=18 h=18, no Width (1); StartPosition
    // point 82 at (2070, 540), EndPosition point 81 at (2070, 108).
    //   start corner: ((2070 - 9) / 18, (540 - 9) / 18) = (114.5, 29.5)
    //   end corner:   ((2070 - 9) / 18, (108 - 9) / 18) = (114.5, 5.5)
    //   at tick 0:    ((2060.91 + 9 - 9) / 18, (156.455 - 18) / 18) = (114.495, 7.692)
    // It starts near the top: (29.5 - 7.692) / 24 = 0.9087 of a leg of
    // 24 / (1/36) = 864 ticks (one more if the division rounds up): 785.
    let p = ending_at(&l, [114.5, 5.5]);
    assert_eq!(p.width, 1);
    assert_eq!(p.points[0], [114.5, 29.5]);
    assert_eq!(p.offset, 785);

    // Checked for sq2's tick, they are usable platforms.
    let checked = Platforms::new(l.platforms.clone(), Physics::sq2().dt).unwrap();
    assert_eq!(checked.len(), 77);

    // With no rules file, the conventions find the same 77 (by their
    // class and their StartPosition/EndPosition references), at the
    // default 2 tiles/s.
    let zero = load_level(Path::new(SQ2), &LoadOptions::default()).unwrap();
    assert_eq!(zero.platforms.len(), 77);
    assert_eq!(
        ending_at(&zero, [206.0, 45.5]).points,
        ending_at(&l, [206.0, 45.5]).points
    );
    assert!(zero.platforms.iter().all(|p| p.speed == 2.0));
    assert!(zero.unmodelled.iter().all(|m| m.kind != "moving platform"));
}

/// An 8 x 6 Tiled JSON map of 16-px tiles, its bottom row solid, with one
/// object layer.
fn tmj(layer: &str, objects: Value) -> String {
    let mut floor = vec![0u32; 40];
    floor.extend([1; 8]);
    json!({
        "type": "map", "orientation": "orthogonal", "width": 8, "height": 6,
        "tilewidth": 16, "tileheight": 16, "infinite": false,
        "tilesets": [{"firstgid": 1, "name": "t", "tilecount": 4, "tilewidth": 16, "tileheight": 16}],
        "layers": [
            {"type": "tilelayer", "name": "Collision", "width": 8, "height": 6, "data": floor},
            {"type": "objectgroup", "name": layer, "objects": objects}
        ]
    })
    .to_string()
}

fn rules(text: &str) -> TileMapping {
    TileMapping::from_json(text).unwrap()
}

fn tmj_load(map: &str, r: &TileMapping) -> Result<LoadedLevel, LevelError> {
    LoadedLevel::from_tmj_str(map, None, r)
}

fn obj_ref(name: &str, id: u32) -> Value {
    json!({"name": name, "type": "object", "value": id})
}

#[test]
fn tiled_ends_by_reference_give_a_back_and_forth_path_from_the_object() {
    // A 32 x 16 rectangle (2 tiles wide) at (16, 48), between points at
    // (24, 56) and (88, 56): each point is the centre of the platform's
    // 2 x 1 box, so its corner is a tile left and half a tile up.
    let objects = json!([
        {"id": 1, "type": "MovingPlatform", "x": 16, "y": 48, "width": 32, "height": 16,
         "properties": [obj_ref("StartPosition", 2), obj_ref("EndPosition", 3)]},
        {"id": 2, "name": "a", "point": true, "x": 24, "y": 56},
        {"id": 3, "name": "b", "point": true, "x": 88, "y": 56}
    ]);
    let l = tmj_load(&tmj("Things", objects), &TileMapping::default()).unwrap();
    assert_eq!(l.platforms.len(), 1, "{:?}", l.rules_used);
    let p = &l.platforms[0];
    assert_eq!((p.width, p.height), (2, 1));
    assert_eq!(p.points, vec![[0.5, 3.0], [4.5, 3.0]]);
    assert_eq!(p.speed, 2.0);
    // At (1, 3): an eighth of the way, of a leg of 4 tiles at 1/30 a
    // tick (120 ticks).
    assert_eq!(p.offset, 15);
    assert!(l.unmodelled.is_empty(), "{:?}", l.unmodelled);

    // The rules file may name the properties and give a speed in pixels.
    let objects = json!([
        {"id": 1, "type": "Lift", "x": 16, "y": 48, "width": 16, "height": 16,
         "properties": [obj_ref("A", 2), obj_ref("B", 3), {"name": "Tiles", "type": "int", "value": 2}]},
        {"id": 2, "point": true, "x": 24, "y": 56},
        {"id": 3, "point": true, "x": 88, "y": 56}
    ]);
    let r = rules(
        r#"{"platforms": {"objects": ["Lift"], "start": "A", "end": "B", "width": "Tiles", "speed_px": 48}}"#,
    );
    let l = tmj_load(&tmj("Things", objects), &r).unwrap();
    let p = &l.platforms[0];
    assert_eq!(p.width, 2);
    assert_eq!(p.points, vec![[0.5, 3.0], [4.5, 3.0]]);
    assert_eq!(p.speed, 3.0);
}

#[test]
fn a_dangling_reference_is_an_error_naming_the_object() {
    let objects = json!([
        {"id": 7, "name": "lift", "type": "MovingPlatform", "x": 16, "y": 48, "width": 16, "height": 16,
         "properties": [obj_ref("StartPosition", 99)]}
    ]);
    let err = tmj_load(&tmj("Things", objects), &TileMapping::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(r#"moving platform object 7 "lift" (MovingPlatform): its StartPosition names object 99, which the map does not hold"#),
        "{err}"
    );
    // A reference property holding something else, a bad width or speed:
    // errors naming the object too.
    for (props, want) in [
        (
            json!([{"name": "StartPosition", "value": "north"}]),
            r#"its StartPosition is "north", not a reference to an object"#,
        ),
        (
            json!([obj_ref("EndPosition", 7), {"name": "Width", "type": "int", "value": 0}]),
            "its Width is 0 (a whole number of tiles, 1 to 64)",
        ),
        (
            json!([obj_ref("EndPosition", 7), {"name": "speed", "type": "float", "value": -1.0}]),
            "its speed is -1 (a number above 0)",
        ),
    ] {
        let objects = json!([{"id": 7, "type": "MovingPlatform", "x": 16, "y": 48,
                              "width": 16, "height": 16, "properties": props}]);
        let r = rules(r#"{"platforms": {"start": "StartPosition"}}"#);
        let err = tmj_load(&tmj("Things", objects), &r)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("moving platform object 7") && err.contains(want),
            "{err}"
        );
    }
}

#[test]
fn tiled_polylines_and_polygons_are_paths() {
    // A polyline at (40, 40) going up 32 px: its points are the centres of
    // a 1 x 1 platform, whose corner is half a tile up and left.
    let objects = json!([
        {"id": 1, "name": "Elevator", "x": 40, "y": 40, "polyline": [{"x": 0, "y": 0}, {"x": 0, "y": -32}]},
        {"id": 2, "type": "MovingPlatform", "x": 8, "y": 8,
         "polygon": [{"x": 0, "y": 0}, {"x": 32, "y": 0}, {"x": 32, "y": 32}],
         "properties": [{"name": "Width", "type": "int", "value": 2}, {"name": "speed", "type": "float", "value": 4}]}
    ]);
    let l = tmj_load(&tmj("Things", objects), &TileMapping::default()).unwrap();
    assert_eq!(l.platforms.len(), 2);
    let (line, ring) = (&l.platforms[0], &l.platforms[1]);
    assert_eq!(line.points, vec![[2.0, 2.0], [2.0, 0.0]]);
    assert_eq!(
        (line.width, line.looped, line.offset),
        (1, PlatformLoop::BackAndForth, 0)
    );
    assert_eq!(ring.points, vec![[-0.5, 0.0], [1.5, 0.0], [1.5, 2.0]]);
    assert_eq!(
        (ring.width, ring.looped, ring.speed),
        (2, PlatformLoop::Loop, 4.0)
    );
    // Moving platforms mark no cells: the polyline, in an object layer
    // named like collision, would otherwise be a wall.
    let objects = json!([
        {"id": 1, "name": "Elevator", "x": 40, "y": 40, "polyline": [{"x": 0, "y": 0}, {"x": 0, "y": -32}]}
    ]);
    let l = tmj_load(&tmj("Collision objects", objects), &TileMapping::default()).unwrap();
    assert_eq!(l.platforms.len(), 1);
    assert_eq!(l.level.cells_of(platnav::Tile::SOLID).count(), 8);
    // Too many points: an error naming the object.
    let many: Vec<Value> = (0..300).map(|i| json!({"x": i, "y": 0})).collect();
    let objects = json!([{"id": 5, "name": "Elevator", "x": 0, "y": 0, "polyline": many}]);
    let err = tmj_load(&tmj("Things", objects), &TileMapping::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(r#"object 5 "Elevator": 300 points on its path (at most 256)"#),
        "{err}"
    );
}

#[test]
fn python_arcade_bounds_and_changes_give_the_path_and_speed() {
    // In a layer named "Moving Platforms" (Arcade's tutorial): a 2-tile
    // platform at x 32 moving right 1 px a frame between x 16 and 112 (its
    // right edge), and a 1-tile one at y 32 rising 0.5 px a frame between
    // Arcade's y 16 (its bottom) and 80 (its top), up from the map's
    // bottom edge at 96 px.
    let props = |v: Value| {
        v.as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| json!({"name": k, "type": "float", "value": v}))
            .collect::<Vec<_>>()
    };
    let objects = json!([
        {"id": 1, "x": 32, "y": 64, "width": 32, "height": 16,
         "properties": props(json!({"change_x": 1, "boundary_left": 16, "boundary_right": 112}))},
        {"id": 2, "x": 0, "y": 32, "width": 16, "height": 16,
         "properties": props(json!({"change_y": 0.5, "boundary_top": 80, "boundary_bottom": 16}))}
    ]);
    let l = tmj_load(&tmj("Moving Platforms", objects), &TileMapping::default()).unwrap();
    assert_eq!(l.platforms.len(), 2);
    let (side, lift) = (&l.platforms[0], &l.platforms[1]);
    // Left edge from 16 to 112 - 32 = 80 px: tiles 1 to 5, at 60 px/s
    // (3.75 tiles/s); at tick 0 a quarter of the way, of 64 ticks.
    assert_eq!(side.points, vec![[1.0, 4.0], [5.0, 4.0]]);
    assert_eq!((side.width, side.speed, side.offset), (2, 3.75, 16));
    // Top edge between 96 - 80 = 16 and 96 - 16 - 16 = 64 px: rising, from
    // tile 4 to tile 1 at 30 px/s; at y 2, two thirds of the way, of 96
    // ticks.
    assert_eq!(lift.points, vec![[0.0, 4.0], [0.0, 1.0]]);
    assert_eq!((lift.speed, lift.offset), (1.875, 64));
    // The layer's name would make its objects one-way: platforms mark none.
    assert_eq!(l.level.cells_of(platnav::Tile::ONE_WAY).count(), 0);
    // A moving axis without its bounds is an error naming the object.
    let objects = json!([{"id": 3, "x": 32, "y": 64, "width": 32, "height": 16,
                          "properties": props(json!({"change_x": -1, "boundary_left": 16}))}]);
    let err = tmj_load(&tmj("Moving Platforms", objects), &TileMapping::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("object 3: it moves (change_x, change_y) but has no boundary_right"),
        "{err}"
    );
}

#[test]
fn a_platform_the_rules_name_must_give_a_path_and_one_by_convention_may_not() {
    let objects =
        json!([{"id": 4, "type": "MovingPlatform", "x": 16, "y": 48, "width": 16, "height": 16}]);
    // By the conventions, a platform with no path stays unmodelled.
    let l = tmj_load(&tmj("Things", objects.clone()), &TileMapping::default()).unwrap();
    assert!(l.platforms.is_empty());
    assert_eq!(l.unmodelled.len(), 1);
    assert_eq!(l.unmodelled[0].kind, "moving platform");
    // Named by the rules, it is an error.
    let r = rules(r#"{"platforms": {"objects": ["MovingPlatform"]}}"#);
    let err = tmj_load(&tmj("Things", objects.clone()), &r)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(
            "object 4 (MovingPlatform): is a moving platform by the rules file but gives no path"
        ),
        "{err}"
    );
    // With the conventions off and no list, nothing is a platform.
    let off = rules(r#"{"conventions": false, "layers": {"Collision": "solid"}}"#);
    let l = tmj_load(&tmj("Things", objects), &off).unwrap();
    assert!(l.platforms.is_empty());
    // Rules-file speeds are numbers above 0.
    let bad = TileMapping::from_json(r#"{"platforms": {"speed": 0}}"#).unwrap_err();
    assert!(
        bad.to_string()
            .contains("speed 0 (must be a number above 0)"),
        "{bad}"
    );
    let unknown = TileMapping::from_json(r#"{"platforms": {"sped": 2}}"#).unwrap_err();
    assert!(
        unknown.to_string().contains("unknown field `sped`"),
        "{unknown}"
    );
}

/// A one-level LDtk project of 16-px cells, 8 x 4, floored, with one
/// entity layer.
fn ldtk(entities: Value) -> String {
    let mut csv = vec![0u32; 24];
    csv.extend([1; 8]);
    json!({"jsonVersion": "1.5.3", "defs": {"layers": []}, "levels": [
        {"identifier": "L", "iid": "L", "pxWid": 128, "pxHei": 64, "layerInstances": [
            {"__identifier": "Entities", "__type": "Entities", "__cWid": 8, "__cHei": 4,
             "__gridSize": 16, "entityInstances": entities},
            {"__identifier": "Collisions", "__type": "IntGrid", "__cWid": 8, "__cHei": 4,
             "__gridSize": 16, "intGridCsv": csv}
        ]}
    ]})
    .to_string()
}

#[test]
fn ldtk_entities_with_a_point_array_are_platforms() {
    // A 2-cell-wide MovingPlatform at cell (1, 1), its path field's points
    // the cells its top-left corner visits next, at its own speed.
    let e = json!([{"__identifier": "MovingPlatform", "__pivot": [0, 0], "__tags": [],
    "px": [16, 16], "width": 32, "height": 16, "fieldInstances": [
        {"__identifier": "path", "__type": "Array<Point>", "__value": [{"cx": 5, "cy": 1}, {"cx": 5, "cy": 2}]},
        {"__identifier": "speed", "__type": "Float", "__value": 3.0}
    ]}]);
    let l = LoadedLevel::from_ldtk_str(&ldtk(e), None, None, &TileMapping::default()).unwrap();
    assert_eq!(l.platforms.len(), 1, "{:?}", l.rules_used);
    let p = &l.platforms[0];
    assert_eq!(p.points, vec![[1.0, 1.0], [5.0, 1.0], [5.0, 2.0]]);
    assert_eq!((p.width, p.height, p.speed), (2, 1, 3.0));
    assert_eq!((p.looped, p.offset), (PlatformLoop::BackAndForth, 0));
    assert!(l.unmodelled.is_empty(), "{:?}", l.unmodelled);
    Platforms::new(l.platforms, 1.0 / 60.0).unwrap();
    // Without a speed field: 2 tiles/s; a path starting on the entity's
    // own cell does not repeat it.
    let e = json!([{"__identifier": "Elevator", "px": [16, 16], "width": 16, "height": 16,
        "fieldInstances": [{"__identifier": "to", "__type": "Array<Point>",
                            "__value": [{"cx": 1, "cy": 1}, {"cx": 1, "cy": 0}]}]}]);
    let l = LoadedLevel::from_ldtk_str(&ldtk(e), None, None, &TileMapping::default()).unwrap();
    assert_eq!(l.platforms[0].points, vec![[1.0, 1.0], [1.0, 0.0]]);
    assert_eq!((l.platforms[0].width, l.platforms[0].speed), (1, 2.0));
    // A bad speed field names the entity.
    let e = json!([{"__identifier": "MovingPlatform", "px": [16, 16], "fieldInstances": [
        {"__identifier": "path", "__type": "Array<Point>", "__value": [{"cx": 5, "cy": 1}]},
        {"__identifier": "speed", "__type": "Float", "__value": 0.0}]}]);
    let err = LoadedLevel::from_ldtk_str(&ldtk(e), None, None, &TileMapping::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(r#"entity "MovingPlatform" #0 on layer "Entities": its speed is 0"#),
        "{err}"
    );
}

const TEXT: &str = "\
@wrap x
@platform 2 1,1 4.5,1 speed 3
@platform 1x2 0,0 0,2 3,2 speed 1.25 pause 10 offset 7 loop
........
........
S.....G.
########
";

#[test]
fn the_text_format_reads_and_writes_platform_lines() {
    let l = LoadedLevel::from_ascii(TEXT).unwrap();
    assert_eq!(l.platforms.len(), 2);
    assert_eq!(
        l.platforms[0],
        Platform {
            width: 2,
            height: 1,
            points: vec![[1.0, 1.0], [4.5, 1.0]],
            speed: 3.0,
            pause: 0,
            looped: PlatformLoop::BackAndForth,
            offset: 0,
        }
    );
    let q = &l.platforms[1];
    assert_eq!((q.width, q.height, q.speed), (1, 2, 1.25));
    assert_eq!((q.pause, q.offset, q.looped), (10, 7, PlatformLoop::Loop));
    assert_eq!(l.to_ascii(), TEXT);
    assert!(l.level.wrap().any());
    // Round trip of numbers Rust writes in full (a derived platform).
    let sq2 = load_level(Path::new(SQ2), &LoadOptions::default()).unwrap();
    let mut with = LoadedLevel::from_ascii("..\n##\n").unwrap();
    with.platforms = sq2.platforms.clone();
    let back = LoadedLevel::from_ascii(&with.to_ascii()).unwrap();
    assert_eq!(back.platforms, sq2.platforms);
    // `load_level` reads them from a file; `Level::from_ascii` reads the
    // grid and leaves them.
    let path = std::env::temp_dir().join(format!("platnav-platforms-{}.txt", std::process::id()));
    std::fs::write(&path, TEXT).unwrap();
    let loaded = load_level(&path, &LoadOptions::default());
    std::fs::remove_file(&path).unwrap();
    assert_eq!(loaded.unwrap().platforms, l.platforms);
    assert_eq!(platnav::Level::from_ascii(TEXT).unwrap(), l.level);
    Platforms::new(l.platforms, 1.0 / 60.0).unwrap();
}

#[test]
fn bad_platform_lines_are_errors_naming_the_line() {
    for (line, want) in [
        ("@platform", "line 2: @platform: no size"),
        ("@platforms 2 1,1 speed 2", "unknown option @platforms"),
        ("@platform 2", "line 2: @platform: no point after the size"),
        (
            "@platform 0 1,1 speed 2",
            r#"line 2: @platform: size "0" (W or WxH, each 1 to 64 tiles)"#,
        ),
        ("@platform 2 1,1", "line 2: @platform: no speed"),
        (
            "@platform 2 1,1 speed",
            "line 2: @platform: speed needs a speed in tiles/s",
        ),
        (
            "@platform 2 1,NaN speed 2",
            r#"line 2: @platform: point "1,NaN" (expected X,Y in tiles)"#,
        ),
        (
            "@platform 2 1,1 speed -2",
            r#"line 2: @platform: speed "-2" (tiles/s, above 0)"#,
        ),
        (
            "@platform 2 1,1 speed 2 speed 3",
            "line 2: @platform: speed given twice",
        ),
        (
            "@platform 2 1,1 speed 2 fast",
            r#"line 2: @platform: unknown word "fast""#,
        ),
        (
            "@platform 2 1,1 speed 2 pause -1",
            r#"line 2: @platform: pause "-1" (ticks)"#,
        ),
    ] {
        let text = format!("@wrap x\n{line}\n..\n##\n");
        let err = LoadedLevel::from_ascii(&text).unwrap_err().to_string();
        assert!(err.contains(want), "{line}: {err}");
        // The grid alone is not read past a bad option line either.
        assert!(platnav::Level::from_ascii(&text).is_err(), "{line}");
    }
    let lines = "@platform 1 0,0 speed 1\n".repeat(4097);
    let err = LoadedLevel::from_ascii(&format!("{lines}.\n#\n")).unwrap_err();
    assert!(
        err.to_string()
            .contains("line 4097: more than 4096 @platform lines"),
        "{err}"
    );
    let many: String = (0..300).map(|i| format!(" {i},0")).collect();
    let err = LoadedLevel::from_ascii(&format!("@platform 1{many} speed 1\n.\n#\n")).unwrap_err();
    assert!(
        err.to_string()
            .contains("line 1: @platform: more than 256 points"),
        "{err}"
    );
}

/// The Phaser Super Mario Land remake moves its two lifts with yoyo
/// tweens written in its code; its rules file gives them, and with the
/// game's physics the upper exit, which only the lifts reach, is reached
/// in time: board the rising lift, then the sliding one, then off onto the
/// ledge.
#[test]
fn phaser_mario_land_lifts_are_read_from_the_rules_tweens_and_reach_the_upper_exit() {
    use platnav::search::timed::{Place, TimedKind, TimedOptions, find_path_timed};
    use platnav::{Body, Cell, NavMap};
    let dir = Path::new("levels/real2/phaser3-super-mario-land");
    let opts = LoadOptions::default().with_rules(Some(dir.join("rules.json")));
    let loaded = load_level(&dir.join("maps/level1.json"), &opts).unwrap();
    // platformMovingUpAndDown at (2280, 114) px to y = 50 in 1.5 s;
    // platformMovingLeftAndRight at (2292, 32) px, 50 px right in 1.2 s.
    let want = [
        ([285.0, 14.25], [285.0, 6.25], 64.0 / 8.0 / 1.5),
        ([286.5, 4.0], [292.75, 4.0], 50.0 / 8.0 / 1.2),
    ];
    assert_eq!(loaded.platforms.len(), 2);
    for (p, (a, b, speed)) in loaded.platforms.iter().zip(want) {
        assert_eq!((p.width, p.points.as_slice()), (3, &[a, b][..]));
        assert!(near(p.speed, speed), "{} against {speed}", p.speed);
        assert_eq!(
            (p.looped, p.pause, p.offset),
            (PlatformLoop::BackAndForth, 0, 0)
        );
    }
    let json = std::fs::read_to_string(dir.join("physics.json")).unwrap();
    let physics = Physics::from_json_over(&json, &Physics::default()).unwrap();
    let level = &loaded.level;
    let map = NavMap::build(level, &physics).unwrap();
    let platforms = Platforms::new(loaded.platforms.clone(), physics.dt).unwrap();
    let (from, exit) = (Cell::new(282, 16), Cell::new(298, 3));
    let path = find_path_timed(&map, &platforms, from, 0, exit, &TimedOptions::default()).unwrap();
    let boarded: Vec<u32> = path
        .steps
        .iter()
        .filter_map(|s| match (s.kind, s.to) {
            (TimedKind::Board, Place::Platform { platform, .. }) => Some(platform),
            _ => None,
        })
        .collect();
    assert!(
        boarded.contains(&0) && boarded.contains(&1),
        "{:?}",
        path.steps
    );
    let mut body = Body::start(level, from, &physics);
    for (k, &input) in path.inputs.iter().enumerate() {
        body.step_moving(level, &platforms, k as u64, &physics, input);
    }
    assert!(body.stands_on(exit) && !body.dead);
    // Without the lifts the exit is out of reach.
    let alone = find_path_timed(
        &map,
        &Platforms::default(),
        from,
        0,
        exit,
        &TimedOptions::default(),
    );
    assert!(alone.is_err());
}

#[test]
fn a_tween_that_is_malformed_is_an_error_naming_the_object() {
    let objects = json!([{"id": 3, "name": "lift", "type": "Lift", "x": 16, "y": 48,
                          "width": 32, "height": 8}]);
    for (tween, want) in [
        (
            r#"{"x": 64, "dx": 8, "ms": 500}"#,
            "its tween gives both x and dx",
        ),
        (
            r#"{"dx": 8, "ms": 0}"#,
            "its tween lasts 0 ms (must be above 0)",
        ),
        (r#"{"ms": 500}"#, "its tween does not move it"),
        (
            r#"{"dy": 8, "ms": 500, "hold_ms": -1}"#,
            "its tween holds -1 ms (0 to 60000)",
        ),
    ] {
        let r = rules(&format!(
            r#"{{"platforms": {{"tweens": {{"Lift": {tween}}}}}}}"#
        ));
        let err = tmj_load(&tmj("Things", objects.clone()), &r)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("moving platform object 3") && err.contains(want),
            "{err}"
        );
    }
    // A good one: 32 px right in 0.5 s, resting 250 ms at each end.
    let r = rules(r#"{"platforms": {"tweens": {"Lift": {"dx": 32, "ms": 500, "hold_ms": 250}}}}"#);
    let l = tmj_load(&tmj("Things", objects), &r).unwrap();
    let p = &l.platforms[0];
    assert_eq!((p.width, p.pause), (2, 15));
    assert_eq!(p.points, vec![[1.0, 3.0], [3.0, 3.0]]);
    assert!(near(p.speed, 4.0));
}
