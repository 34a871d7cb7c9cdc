//! Routes the body can perform that the map must hold: the reproducers of
//! `levels/repro/` (see its README).

mod common;

use platnav::{Cell, Level, LinkKind, NavMap, Physics, SearchOptions, find_path};

/// A path from `from` to `to` on `level`, whose tape replayed on a fresh
/// body ends standing on `to`.
fn replayed_path(level: &Level, physics: &Physics, from: Cell, to: Cell) -> platnav::Path {
    let map = NavMap::build(level, physics).unwrap();
    let path = find_path(&map, from, to, &SearchOptions::default())
        .unwrap_or_else(|e| panic!("{from} -> {to}: {e}"));
    let end = path.replay(level, physics);
    assert!(end.stands_on(to), "{from} -> {to} ends at {end:?}");
    path
}

/// A 31-row ladder takes about 11 s to climb, longer than a link's 8 s
/// action limit: the climb is one link all the same, and its ticks are the
/// climb's.
#[test]
fn a_ladder_longer_than_the_action_limit_is_climbed() {
    let (level, physics) = common::megaman_repro("ladder31.txt");
    let path = replayed_path(&level, &physics, Cell::new(3, 32), Cell::new(8, 1));
    let climb_ticks = 31.0 / (physics.climb_speed * physics.dt);
    assert!(
        path.inputs().len() as f64 > climb_ticks,
        "{} ticks for a {climb_ticks}-tick climb",
        path.inputs().len()
    );
    assert!(path.inputs().iter().any(|i| i.up), "the path climbs");
}

/// From 6,5 to 10,3 of `edge.txt` the jump must leave in the last ticks
/// before the ledge, under a low ceiling: the edge take-offs find it, as a
/// single jump, and its tape replays.
#[test]
fn a_jump_that_must_leave_at_the_ledge_is_found() {
    let (level, physics) = common::megaman_repro("edge.txt");
    let (from, to) = (Cell::new(6, 5), Cell::new(10, 3));
    let map = NavMap::build(&level, &physics).unwrap();
    let node = map.node(from).expect("the start is a standing cell");
    let direct = map
        .links_from(node)
        .find(|l| l.to == to && l.kind == LinkKind::JUMP);
    assert!(direct.is_some(), "no jump link {from} -> {to}");
    replayed_path(&level, &physics, from, to);
}
