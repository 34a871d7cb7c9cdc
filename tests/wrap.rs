//! Screen wrap (`PHYSICS.md`, "Screen wrap"): a level whose opposite
//! edges meet. The body crosses an edge exactly as it crosses any column
//! boundary, the map's links across the seam equal the naive builder's,
//! and a route that needs the wrap is found and replays.

mod common;

use platnav::search::{self, SearchOptions};
use platnav::{Body, Cell, Input, JumpVariety, Level, NavMap, Physics, Tile, Wrap, find_path};
use platnav_naive as naive;

/// The Kid Icarus-style tower of `levels/wrap.txt`: a wall splits it down
/// the middle, and the stairs from the spawn leave by the right edge and
/// go on up from the left one to the goal.
fn tower() -> Level {
    Level::load("levels/wrap.txt".as_ref()).unwrap()
}

fn marker(level: &Level, tile: Tile) -> Cell {
    let c = level.cells_of(tile).next().unwrap();
    Cell::new(c.col, c.row)
}

#[test]
fn the_tower_is_climbed_through_its_side_and_not_without_the_wrap() {
    let level = tower();
    assert_eq!(level.wrap(), Wrap::X);
    let physics = Physics::default();
    let (from, to) = (marker(&level, Tile::SPAWN), marker(&level, Tile::GOAL));
    let map = NavMap::build(&level, &physics).unwrap();
    let path = find_path(&map, from, to, &SearchOptions::default()).unwrap();
    // Some link leaves one side and lands on the other.
    let w = level.width() as i32;
    assert!(
        path.steps()
            .iter()
            .any(|s| (s.from.col - s.to.col).abs() > w / 2),
        "no link crosses the seam: {:?}",
        path.steps()
    );
    // Replayed from the start in level coordinates, the body ends on the
    // goal, and every state on the way is on the map.
    let mut body = Body::start(&level, from, &physics);
    for input in path.inputs() {
        body.step(&level, &physics, *input);
        assert!((0.0..f64::from(w)).contains(&body.x), "{body:?}");
        assert!(!body.dead);
    }
    assert!(body.stands_on(to), "{body:?}");

    let closed = level.clone().with_wrap(Wrap::NONE);
    let map = NavMap::build(&closed, &physics).unwrap();
    assert!(find_path(&map, from, to, &SearchOptions::default()).is_err());
}

#[test]
fn a_body_leaving_an_edge_enters_the_other_on_the_grid() {
    let level = common::level(&["......", "......", "######"]).with_wrap(Wrap::X);
    let physics = Physics::default();
    let mut body = Body::start(&level, Cell::new(5, 1), &physics);
    let right = Input {
        move_x: 1,
        ..Input::IDLE
    };
    let mut crossed = false;
    for _ in 0..40 {
        let before = body.x;
        body.step(&level, &physics, right);
        assert!((0.0..6.0).contains(&body.x), "{body:?}");
        crossed |= body.x < before;
        assert!(body.grounded && !body.dead, "{body:?}");
    }
    assert!(crossed);
    // The same steps in a frame that keeps positions as they are end a
    // whole number of widths away, to the last bit.
    let frame = platnav::physics::Frame::new(&level, Cell::new(0, 0));
    let (mut a, mut b) = (
        Body::start(&level, Cell::new(5, 1), &physics),
        Body::start(&frame, Cell::new(5, 1), &physics),
    );
    for _ in 0..40 {
        a.step(&level, &physics, right);
        b.step(&frame, &physics, right);
    }
    let turns = ((b.x - a.x) / 6.0).round();
    assert!(turns >= 1.0);
    assert_eq!(a.x + turns * 6.0, b.x);
    assert_eq!((a.y, a.vx, a.vy), (b.y, b.vx, b.vy));
}

#[test]
fn falling_through_the_bottom_of_a_level_that_wraps_vertically_lands_on_top() {
    let mut rows = vec!["......", "######"];
    rows.extend(["......"; 9]);
    rows.push("##..##");
    let level = common::level(&rows).with_wrap(Wrap::Y);
    let physics = Physics::default();
    let map = NavMap::build(&level, &physics).unwrap();
    // From the bottom ledge down the hole, in at the top, onto row 1:
    // ten rows up, far beyond a jump.
    let (from, to) = (Cell::new(0, 10), Cell::new(0, 0));
    let path = find_path(&map, from, to, &SearchOptions::default()).unwrap();
    assert!(
        path.steps().iter().any(|s| s.to.row < s.from.row - 5),
        "{path:?}"
    );
    // Without the wrap, the bottom is open and the fall kills.
    let open = level.clone().with_wrap(Wrap::NONE);
    let map = NavMap::build(&open, &physics).unwrap();
    assert!(find_path(&map, from, to, &SearchOptions::default()).is_err());
}

/// Turning a level that wraps round by whole columns turns its map: the
/// same links, moved, with the same tapes.
#[test]
fn links_do_not_depend_on_where_the_seam_is() {
    let level = tower();
    let physics = Physics::default();
    let (w, h) = (level.width(), level.height());
    let map = NavMap::build(&level, &physics).unwrap();
    for shift in [3usize, 11] {
        let tiles: Vec<Tile> = (0..w * h)
            .map(|i| level.tiles()[(i / w) * w + (i % w + w - shift) % w])
            .collect();
        let turned = Level::new(w, h, tiles).unwrap().with_wrap(Wrap::X);
        let moved = |c: Cell| Cell::new((c.col as usize + shift) as i32 % w as i32, c.row);
        let other = NavMap::build(&turned, &physics).unwrap();
        let key = |m: &NavMap, f: &dyn Fn(Cell) -> Cell| {
            let mut v: Vec<_> = m
                .links()
                .map(|l| {
                    (
                        f(l.from),
                        f(l.to),
                        l.kind,
                        m.inputs(l.id).collect::<Vec<_>>(),
                    )
                })
                .collect();
            v.sort_by_key(|k| (k.0, k.1, k.2));
            v
        };
        assert_eq!(key(&map, &moved), key(&other, &|c| c), "shift {shift}");
    }
}

fn assert_same(name: &str, level: &Level, physics: &Physics) {
    let map = NavMap::build(level, physics).unwrap();
    let real = naive::links_of(&map);
    assert!(!real.is_empty(), "{name}: no links at all");
    for coords in [naive::Coords::Frame, naive::Coords::Level] {
        let reference = naive::build_with(level, physics, coords, JumpVariety::Full);
        let diffs = naive::differences(&reference, &real);
        assert!(
            diffs.is_empty(),
            "{name}: {} of {} links differ from the naive builder's:\n{}",
            diffs.len(),
            real.len(),
            diffs.join("\n")
        );
    }
}

/// Generated levels (their platforms and pits reach the edges) wrapping
/// each way: the builder's links equal the naive reference's, some cross
/// the seam, and every link replays in level coordinates.
#[test]
fn links_across_the_seam_equal_the_naive_builders() {
    let mut across = 0;
    for (seed, wrap, physics) in [
        (11, Wrap::X, Physics::default()),
        (12, Wrap::XY, Physics::agile()),
        (13, Wrap::Y, Physics::smb()),
    ] {
        let level = Level::generate_with_mechanics(24, 16, seed)
            .unwrap()
            .with_wrap(wrap);
        let name = format!("seed {seed}, wrap {wrap}");
        assert_same(&name, &level, &physics);
        let map = NavMap::build(&level, &physics).unwrap();
        common::assert_links_replay(&map, &name);
        for l in map.links() {
            across += usize::from(
                (l.from.col - l.to.col).abs() > 12 || (l.from.row - l.to.row).abs() > 8,
            );
        }
    }
    assert!(across > 0, "no link crosses a seam");
    assert_same("the tower", &tower(), &Physics::default());
}

#[test]
fn the_text_format_keeps_the_wrap_and_names_a_bad_option() {
    let level = tower();
    let text = level.to_string();
    assert!(text.starts_with("@wrap x\n"));
    assert_eq!(text.parse::<Level>().unwrap(), level);
    // A level that wraps is not the same level as one that does not.
    assert_ne!(level.clone().with_wrap(Wrap::NONE), level);
    assert_ne!(
        level.clone().with_wrap(Wrap::NONE).fingerprint(),
        level.fingerprint()
    );
    let err = "@wrap sideways\n...\n###".parse::<Level>().unwrap_err();
    assert!(
        err.to_string().contains("line 1") && err.to_string().contains("sideways"),
        "{err}"
    );
    let err = "@gravity 3\n...\n###".parse::<Level>().unwrap_err();
    assert!(err.to_string().contains("@gravity"), "{err}");
    // Grid errors count the option lines.
    let err = "@wrap x\n...\n#x#".parse::<Level>().unwrap_err();
    assert!(err.to_string().contains("line 3"), "{err}");
}

/// A saved map of a level that wraps loads for that level, every link
/// replaying across the seam, and is refused for the same tiles without
/// the wrap.
#[test]
fn a_saved_map_keeps_its_wrap() {
    use platnav::io::navfile;
    let level = tower();
    let physics = Physics::default();
    let map = NavMap::build(&level, &physics).unwrap();
    let bytes = navfile::to_bytes(&map);
    let loaded = navfile::from_bytes(&bytes, &level, &physics).unwrap();
    navfile::verify(&loaded).unwrap();
    assert_eq!(loaded.link_count(), map.link_count());
    let closed = level.clone().with_wrap(Wrap::NONE);
    let err = navfile::from_bytes(&bytes, &closed, &physics).unwrap_err();
    assert!(err.to_string().contains("another level"), "{err}");
}

/// Two Kid Icarus levels from the VGLC (`levels/kidicarus`), climbed from
/// the bottom to the top with the default preset: only with the game's
/// horizontal wrap, and the path replays.
#[test]
fn real_kid_icarus_levels_are_climbed_only_through_their_sides() {
    use platnav::formats::{LoadOptions, load_level};
    for name in ["kidicarus_1", "kidicarus_2"] {
        let file = format!("levels/kidicarus/{name}.txt");
        let opts = LoadOptions::default().with_legend(Some("levels/kidicarus/legend.json".into()));
        let mut ends = None;
        for wrap in [Wrap::X, Wrap::NONE] {
            let level = load_level(file.as_ref(), &opts.clone().with_wrap(Some(wrap)))
                .unwrap()
                .level;
            let physics = Physics::default();
            let map = NavMap::build(&level, &physics).unwrap();
            let h = level.height() as i32;
            let (from, to) = *ends.get_or_insert_with(|| {
                (
                    search::snap(&map, Cell::new(8, h - 2), 4).unwrap(),
                    search::snap(&map, Cell::new(8, 0), 8).unwrap(),
                )
            });
            assert!(to.row < 8 && from.row > h - 8, "{name}: {from} -> {to}");
            let found = find_path(&map, from, to, &SearchOptions::default());
            if wrap == Wrap::X {
                let path = found.unwrap_or_else(|e| panic!("{name}: {e}"));
                let end = path.replay(&level, &physics);
                assert!(end.stands_on(to) && !end.dead, "{name}: {end:?}");
            } else {
                assert!(found.is_err(), "{name} is finished without the wrap");
            }
        }
    }
}

/// On the tower with its seam closed, the diagnosis of the missing path
/// finds, by building the map so, that the goal is reached with the left
/// and right edges meeting.
#[test]
fn the_diagnosis_names_the_wrap_that_would_reach_the_goal() {
    use platnav::analysis::{ReportOptions, diagnose};
    let closed = tower().with_wrap(Wrap::NONE);
    let map = NavMap::build(&closed, &Physics::default()).unwrap();
    let (from, to) = (marker(&closed, Tile::SPAWN), marker(&closed, Tile::GOAL));
    let d = diagnose(&map, from, to, &ReportOptions::default()).unwrap();
    assert_eq!(d.reached_with_wrap, Some(Wrap::X));
    // On a level that wraps already, no wrap is tried.
    let open = tower();
    let map = NavMap::build(&open, &Physics::default()).unwrap();
    let far = search::snap(&map, Cell::new(12, 14), 0).unwrap();
    let d = diagnose(&map, far, far, &ReportOptions::default()).unwrap();
    assert_eq!(d.reached_with_wrap, None);
}
