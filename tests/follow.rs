//! The path follower is closed-loop: it performs planned tapes exactly,
//! recovers when knocked off course, and lets enemies catch a player.

mod common;

use platnav::{Body, Cell, Level, NavMap, PathFollower, Physics, Tile, follow::FollowOptions};
use platnav::{find_path, search};

fn demo_map() -> NavMap {
    NavMap::build(&common::demo(), &Physics::agile()).unwrap()
}

/// Plans a path from the level's spawn to its goal, then drives a body from
/// the spawn with a follower for as many ticks as the plan has; returns
/// the plan, the follower and the body.
fn follow_the_plan(map: &NavMap) -> (platnav::Path, PathFollower, Body, Cell) {
    let level = map.level();
    let (start, goal) = (
        level.cells_of(Tile::SPAWN).next().unwrap(),
        level.cells_of(Tile::GOAL).next().unwrap(),
    );
    let planned = find_path(map, start, goal, &platnav::SearchOptions::default()).unwrap();
    let mut f = PathFollower::new(FollowOptions::default());
    let mut body = Body::start(level, start, map.physics());
    for _ in 0..planned.ticks() {
        let input = f.next_input(map, &body, goal);
        body.step(level, map.physics(), input);
    }
    (planned, f, body, goal)
}

/// [`follow_the_plan`] with one plan, the tape performed exactly to the
/// goal; returns the plan's start and goal.
fn performs_the_plan_exactly(map: &NavMap) -> (Cell, Cell) {
    let (planned, f, body, goal) = follow_the_plan(map);
    assert_eq!(f.plans(), 1, "never re-planned");
    assert_eq!(
        body,
        planned.replay(map.level(), map.physics()),
        "the tape, exactly"
    );
    assert!(body.stands_on(goal));
    (planned.start(), goal)
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
    let (planned, f, body, goal) = follow_the_plan(&map);
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
        level.cells_of(Tile::SPAWN).next().unwrap(),
        level.cells_of(Tile::GOAL).next().unwrap(),
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
            let c = search::snap(map, c, 4).expect("enemy start near a standable cell");
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

/// A floor with a one-way deck above it: two ways from `S` to `G`.
const TWO_WAYS: &str = "\
..........................
..........................
..........................
.=========================
..........................
..........................
.S......................G.
##########################";

/// Runs an enemy from `S` to `G` on [`TWO_WAYS`]; after `close_at` ticks
/// `door` is set solid on the map. Returns the follower, the body, whether
/// it arrived, and the highest row (smallest index) its feet reached after
/// the door closed.
fn run_with_door(door: &[Cell], close_at: u32) -> (PathFollower, Body, bool, f64) {
    let level: Level = TWO_WAYS.parse().unwrap();
    let physics = Physics::default();
    let mut map = NavMap::build(&level, &physics).unwrap();
    let (start, goal) = (Cell::new(1, 6), Cell::new(24, 6));
    let mut f = PathFollower::new(FollowOptions::default());
    let mut body = Body::standing(start, &physics);
    let mut top = f64::INFINITY;
    for t in 0..2000 {
        if t == close_at {
            assert!(body.x < 11.0, "the enemy passed the door before it closed");
            let report = map
                .edit(&door.iter().map(|&c| (c, Tile::SOLID)).collect::<Vec<_>>())
                .unwrap();
            assert_eq!(report.tiles_changed, door.len());
        }
        if body.stands_on(goal) && body.vx == 0.0 {
            return (f, body, true, top);
        }
        let input = f.next_input(&map, &body, goal);
        body.step(map.level(), map.physics(), input);
        assert!(!body.dead, "tick {t}");
        if t > close_at {
            top = top.min(body.y);
            // The follower noticed the edit before the body ran into the
            // door: it never touches the door's left side.
            assert!(
                !(body.x < 12.0 && body.touches_wall_right(map.level(), map.physics()))
                    || door.is_empty(),
                "tick {t}: ran into the door at {body:?}"
            );
        }
    }
    (f, body, false, top)
}

#[test]
fn a_door_closing_across_the_route_sends_the_enemy_the_other_way() {
    // On the open level the enemy walks the floor (the deck is slower).
    let (f, _, arrived, top) = run_with_door(&[], u32::MAX);
    assert!(arrived && f.plans() == 1, "{:?}", f.state());
    assert!(top.is_infinite());
    // The door closes the floor under the deck while the enemy is on its
    // way: it re-plans over the deck, and arrives.
    let door = [Cell::new(12, 4), Cell::new(12, 5), Cell::new(12, 6)];
    let (f, body, arrived, top) = run_with_door(&door, 25);
    assert!(arrived, "{:?} at {body:?}", f.state());
    assert!(f.plans() >= 2, "{} plans", f.plans());
    // Its feet rose above the door (row 4 starts at y = 4): over it, by
    // way of the deck.
    assert!(top < 4.0, "never went over the door (feet at {top})");
}

#[test]
fn a_door_closing_every_way_is_reported_unreachable() {
    let door: Vec<Cell> = (0..7).map(|r| Cell::new(12, r)).collect();
    let (f, body, arrived, _) = run_with_door(&door, 25);
    assert!(!arrived);
    assert_eq!(
        f.state(),
        platnav::follow::FollowState::Unreachable,
        "{body:?}"
    );
    assert!(body.x < 12.0, "{body:?}");
}

/// On `levels/mechanics.txt` (a hill of slopes, then a ladder up a wall)
/// the follower performs its plan exactly, and after a shove on the hill's
/// slope (off the centre of every cell, where a slope changes the height
/// too) it re-plans from where the body is and still arrives.
#[test]
fn follower_crosses_slopes_and_climbs_and_recovers_from_a_shove_on_a_slope() {
    let level: Level = include_str!("../levels/mechanics.txt").parse().unwrap();
    let map = NavMap::build(&level, &Physics::default()).unwrap();
    let (start, goal) = performs_the_plan_exactly(&map);

    let mut f = PathFollower::new(FollowOptions::default());
    let mut body = Body::start(&level, start, map.physics());
    let mut shoved = false;
    let ticks = follow_to(&map, &mut f, &mut body, goal, 20_000, |_, b| {
        // Once, on the hill's rising slope (columns 6 to 8).
        if !shoved && b.grounded && (6.0..9.0).contains(&b.x) && b.y.fract() != 0.0 {
            b.vx = -b.vx - 2.0;
            shoved = true;
        }
    });
    assert!(shoved, "never on the slope");
    assert!(ticks.is_some(), "never arrived; body at {body:?}");
    assert!(
        f.plans() >= 2,
        "re-planned after the shove ({} plans)",
        f.plans()
    );
}

/// On a level that wraps, the follower drives the body round the seam on
/// the plan's tape, and after a shove near the seam re-plans and still
/// arrives.
#[test]
fn follower_crosses_the_seam_of_a_level_that_wraps() {
    let level = Level::load("levels/wrap.txt".as_ref()).unwrap();
    let map = NavMap::build(&level, &Physics::default()).unwrap();
    let (start, goal) = performs_the_plan_exactly(&map);

    let mut f = PathFollower::new(FollowOptions::default());
    let mut body = Body::start(&level, start, map.physics());
    let mut shoved = false;
    let shove = |_: u32, b: &mut Body| {
        // Knocked back across the seam on the way up.
        if !shoved && b.x < 1.0 && b.y < 9.5 {
            b.vx = -4.0;
            shoved = true;
        }
    };
    let ticks = follow_to(&map, &mut f, &mut body, goal, 5_000, shove);
    assert!(ticks.is_some(), "never arrived; body at {body:?}");
    assert!(shoved && f.plans() >= 2, "{} plans", f.plans());

    // A game that keeps its own positions off the map and off the grid:
    // the follower places the body on both, and its plan still holds.
    let mut f = PathFollower::new(FollowOptions::default());
    let mut body = Body::start(&level, start, map.physics());
    let w = level.width() as f64;
    for _ in 0..3_000 {
        if body.stands_on(goal) && body.vx == 0.0 {
            break;
        }
        let mut game = body;
        game.x += w + 1e-13;
        let input = f.next_input(&map, &game, goal);
        body.step(&level, map.physics(), input);
    }
    assert!(body.stands_on(goal), "never arrived; body at {body:?}");
    assert_eq!(f.plans(), 1, "re-planned");
}
