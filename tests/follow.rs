//! The path follower is closed-loop: it performs planned tapes exactly,
//! recovers when knocked off course, and lets enemies catch a player.

use platnav::{Body, Cell, FollowOptions, Level, NavMap, PathFollower, Physics, Tile};

fn demo_map() -> NavMap {
    let level: Level = include_str!("../levels/demo.txt").parse().unwrap();
    NavMap::build(&level, &Physics::agile()).unwrap()
}

/// Steps `body` with the follower's inputs until it stands on `goal` or
/// `limit` ticks pass; returns the ticks used.
fn follow_to(
    map: &NavMap,
    f: &mut PathFollower,
    body: &mut Body,
    goal: Cell,
    limit: u32,
    mut disturb: impl FnMut(u32, &mut Body),
) -> Option<u32> {
    for t in 0..limit {
        if body.stands_on(goal) && body.vx == 0.0 {
            return Some(t);
        }
        let input = f.next_input(map, body, goal);
        body.step(map.level(), map.physics(), input);
        disturb(t, body);
    }
    None
}

#[test]
fn undisturbed_follower_performs_the_planned_tape_exactly() {
    let map = demo_map();
    let level = map.level();
    let (start, goal) = (
        level.cells_of(Tile::Spawn).next().unwrap(),
        level.cells_of(Tile::Goal).next().unwrap(),
    );
    let planned = map
        .find_path(start, goal, &platnav::SearchOptions::default())
        .unwrap();
    let mut f = PathFollower::new(FollowOptions::default());
    let mut body = Body::standing(start, map.physics());
    for _ in 0..planned.ticks() {
        let input = f.next_input(&map, &body, goal);
        body.step(level, map.physics(), input);
    }
    assert_eq!(f.plans(), 1, "never re-planned");
    assert_eq!(
        body,
        planned.replay(level, map.physics()),
        "the tape, exactly"
    );
    assert!(body.stands_on(goal));
}

#[test]
fn follower_recovers_after_being_shoved_mid_path() {
    let map = demo_map();
    let level = map.level();
    let (start, goal) = (
        level.cells_of(Tile::Spawn).next().unwrap(),
        level.cells_of(Tile::Goal).next().unwrap(),
    );
    let mut f = PathFollower::new(FollowOptions::default());
    let mut body = Body::standing(start, map.physics());
    // Two shoves: one while airborne early on, one later.
    let shove = |t: u32, b: &mut Body| {
        if t == 40 || t == 200 {
            b.vx = -b.vx - 3.0;
        }
    };
    let ticks = follow_to(&map, &mut f, &mut body, goal, 20_000, shove);
    assert!(ticks.is_some(), "never arrived; body at {body:?}");
    assert!(
        f.plans() >= 2,
        "re-planned after the shove ({} plans)",
        f.plans()
    );
}

/// Runs a chase: three enemies with followers against a player driven by
/// `player_input`; returns the tick of the first catch (boxes overlap).
fn chase(
    map: &NavMap,
    player_start: Cell,
    mut player_input: impl FnMut(&Body) -> platnav::Input,
    limit: u32,
) -> Option<u32> {
    let p = map.physics();
    let starts = [Cell::new(30, 17), Cell::new(43, 3), Cell::new(20, 13)];
    let mut enemies: Vec<(Body, PathFollower)> = starts
        .iter()
        .map(|&c| {
            let c = map.snap(c, 4).expect("enemy start near a standable cell");
            (
                Body::standing(c, p),
                PathFollower::new(FollowOptions::default()),
            )
        })
        .collect();
    let mut player = Body::standing(player_start, p);
    for t in 0..limit {
        let input = player_input(&player);
        player.step(map.level(), p, input);
        assert!(!player.dead, "the scripted player died at tick {t}");
        let target = player.standing_cell().unwrap_or_else(|| player.feet_cell());
        for (body, f) in &mut enemies {
            let input = f.next_input(map, body, target);
            body.step(map.level(), p, input);
            let caught = (body.x - player.x).abs() < p.w && (body.y - player.y).abs() < p.h;
            if caught {
                return Some(t);
            }
        }
    }
    None
}

#[test]
fn enemies_catch_a_player_standing_still_within_ten_seconds() {
    let map = demo_map();
    // On the corridor floor, reachable from every enemy start.
    let caught = chase(&map, Cell::new(5, 17), |_| platnav::Input::IDLE, 600);
    assert!(caught.is_some(), "not caught in 600 ticks");
}

#[test]
fn enemies_catch_a_player_pacing_the_floor_within_thirty_seconds() {
    let map = demo_map();
    // Walk right to column 34, then left to column 23, and so on (row 17).
    let mut dir = 1i8;
    let pace = move |b: &Body| {
        if b.x > 34.5 {
            dir = -1;
        } else if b.x < 23.5 {
            dir = 1;
        }
        platnav::Input::new(dir, false, false)
    };
    let caught = chase(&map, Cell::new(24, 17), pace, 1_800);
    assert!(caught.is_some(), "not caught in 1800 ticks");
}
