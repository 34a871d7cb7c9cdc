//! One test per rule of PHYSICS.md, each on a small ASCII level.

use approx::assert_abs_diff_eq;
use platnav::{Body, Cell, Input, Level, Physics, physics::WallJump};

mod common;
use common::level;

fn run(body: &mut Body, level: &Level, p: &Physics, input: Input, ticks: usize) {
    for _ in 0..ticks {
        body.step(level, p, input);
    }
}

const HOLD: Input = Input {
    move_x: 0,
    jump: true,
    down: false,
    up: false,
};
const IDLE: Input = Input::IDLE;
const RIGHT: Input = Input {
    move_x: 1,
    jump: false,
    down: false,
    up: false,
};
const LEFT: Input = Input {
    move_x: -1,
    jump: false,
    down: false,
    up: false,
};

fn open_room() -> Level {
    level(&[
        "............",
        "............",
        "............",
        "............",
        "............",
        "............",
        "............",
        "############",
    ])
}

#[test]
fn a_standing_jump_lands_exactly_on_its_take_off_cell() {
    let l = open_room();
    let p = Physics::default();
    let mut b = Body::standing(Cell::new(5, 6), &p);
    b.step(&l, &p, HOLD);
    assert!(!b.grounded);
    assert_abs_diff_eq!(b.vy, -p.jump_speed + p.gravity * p.dt, epsilon = 1e-12);
    let mut landed = false;
    for _ in 0..200 {
        b.step(&l, &p, HOLD);
        if b.grounded {
            landed = true;
            break;
        }
    }
    assert!(landed);
    assert_eq!(b.y, 7.0, "landing snaps the feet onto the tile top");
    assert_eq!(b.vy, 0.0);
    assert!(b.stands_on(Cell::new(5, 6)));
}

#[test]
fn the_head_bumps_a_ceiling_and_stops_rising() {
    let l = level(&[
        "......", "......", "..#...", "......", "......", "......", "######",
    ]);
    let p = Physics::default();
    let mut b = Body::standing(Cell::new(2, 5), &p);
    let mut bumped = false;
    for _ in 0..30 {
        let before = b.vy;
        b.step(&l, &p, HOLD);
        if before < 0.0 && b.vy == 0.0 && !b.grounded {
            bumped = true;
            assert_eq!(b.y - p.box_h(), 3.0);
            break;
        }
    }
    assert!(bumped, "the jump never hit the block at row 2");
}

#[test]
fn running_into_a_wall_stops_flush_against_it() {
    let l = level(&["......", "....#.", "....#.", "######"]);
    let p = Physics::default();
    let mut b = Body::standing(Cell::new(1, 2), &p);
    run(&mut b, &l, &p, RIGHT, 60);
    assert_eq!(b.x, 4.0 - p.half_w());
    assert_eq!(b.vx, 0.0);
    assert!(b.touches_wall_right(&l, &p));
}

#[test]
fn a_one_way_platform_lets_a_body_jump_up_through_it_and_land_on_top() {
    let l = level(&[
        "......", "......", "......", "......", "..==..", "......", "......", "######",
    ]);
    let p = Physics::default();
    let mut b = Body::standing(Cell::new(2, 6), &p);
    b.step(&l, &p, HOLD);
    let mut passed = false;
    for _ in 0..120 {
        b.step(&l, &p, HOLD);
        if b.y < 4.0 {
            passed = true;
        }
        if b.grounded {
            break;
        }
    }
    assert!(passed, "the body rose through the one-way tiles");
    assert!(
        b.stands_on(Cell::new(2, 3)),
        "it lands on top of them: {b:?}"
    );
}

#[test]
fn a_falling_body_lands_on_a_one_way_platform_from_above() {
    let l = level(&[
        "......", "......", "......", "......", "......", "..==..", "......", "......", "######",
    ]);
    let p = Physics::default();
    let mut b = Body::standing(Cell::new(2, 1), &p);
    b.grounded = false;
    b.y = 2.5;
    run(&mut b, &l, &p, IDLE, 60);
    assert!(b.stands_on(Cell::new(2, 4)), "{b:?}");
}

#[test]
fn holding_down_drops_through_a_one_way_platform() {
    let l = level(&["......", "......", "..==..", "......", "......", "######"]);
    let p = Physics::default();
    let mut b = Body::standing(Cell::new(2, 1), &p);
    b.step(&l, &p, Input::new(0, false, true));
    assert!(!b.grounded);
    run(&mut b, &l, &p, IDLE, 90);
    assert!(b.stands_on(Cell::new(2, 4)), "{b:?}");
    // Without down, the same body stays put.
    let mut still = Body::standing(Cell::new(2, 1), &p);
    run(&mut still, &l, &p, IDLE, 30);
    assert!(still.stands_on(Cell::new(2, 1)));
}

fn apex(p: &Physics, hold_ticks: usize) -> f64 {
    let l = open_room();
    let mut b = Body::standing(Cell::new(5, 6), p);
    let mut top = b.y;
    for t in 0..200 {
        b.step(&l, p, Input::new(0, t < hold_ticks, false));
        top = top.min(b.y);
    }
    7.0 - top
}

#[test]
fn releasing_jump_early_cuts_the_jump_short() {
    let p = Physics::default();
    let full = apex(&p, 100);
    let short = apex(&p, 3);
    assert!(full > 3.3 && full < 3.6, "full jump {full}");
    assert!(short < full - 1.5, "short hop {short} vs full {full}");
    // With the cut turned off, the release changes nothing.
    let no_cut = Physics {
        jump_cut_speed: 17.5,
        ..Physics::default()
    };
    assert_abs_diff_eq!(apex(&no_cut, 3), apex(&no_cut, 100), epsilon = 1e-12);
}

#[test]
fn an_air_jump_restarts_the_jump_once_per_flight() {
    let l = open_room();
    let p = Physics {
        air_jumps: 1,
        ..Physics::default()
    };
    let mut b = Body::standing(Cell::new(5, 6), &p);
    run(&mut b, &l, &p, HOLD, 10);
    b.step(&l, &p, IDLE);
    b.step(&l, &p, HOLD);
    assert_eq!(b.air_jumps_left, 0);
    assert_abs_diff_eq!(b.vy, -p.jump_speed + p.gravity * p.dt, epsilon = 1e-12);
    // A third press does nothing.
    b.step(&l, &p, IDLE);
    let vy = b.vy;
    b.step(&l, &p, HOLD);
    assert_abs_diff_eq!(b.vy, vy + p.gravity * p.dt, epsilon = 1e-12);
    // Landing restores the air jump.
    run(&mut b, &l, &p, IDLE, 200);
    assert!(b.grounded);
    assert_eq!(b.air_jumps_left, 1);
}

fn wall_physics(w: f64) -> Physics {
    Physics {
        w,
        wall_jump: Some(WallJump {
            speed_x: 6.0,
            speed_y: 15.0,
            slide_speed: 3.0,
        }),
        ..Physics::default()
    }
}

#[test]
fn a_wall_jump_pushes_away_from_the_wall_and_up() {
    let l = level(&[
        "......", ".#....", ".#....", ".#....", ".#....", ".#....", ".#....", "######",
    ]);
    let p = wall_physics(0.8);
    let mut b = Body::standing(Cell::new(3, 6), &p);
    b.step(&l, &p, Input::new(-1, true, false));
    run(&mut b, &l, &p, Input::new(-1, true, false), 15);
    assert!(b.touches_wall_left(&l, &p), "{b:?}");
    b.step(&l, &p, Input::new(-1, false, false));
    b.step(&l, &p, Input::new(1, true, false));
    assert_eq!(b.vx, 6.0, "pushed right, away from the left wall");
    assert!(b.vy < 0.0);
}

#[test]
fn touching_both_walls_a_wall_jump_goes_right_off_the_left_wall_first() {
    // A one-tile shaft and a body exactly one tile wide touches both walls.
    let l = level(&["#.#", "#.#", "#.#", "#.#", "#.#", "#.#", "###"]);
    let p = wall_physics(1.0);
    let mut b = Body::standing(Cell::new(1, 5), &p);
    b.step(&l, &p, HOLD);
    run(&mut b, &l, &p, HOLD, 3);
    assert!(b.touches_wall_left(&l, &p) && b.touches_wall_right(&l, &p));
    b.step(&l, &p, IDLE);
    b.step(&l, &p, HOLD);
    assert_eq!(b.vy, -15.0 + p.gravity * p.dt);
    // vx was set to +speed_x then clamped back by the walls.
    assert_eq!(b.vx, 0.0);
    assert_eq!(b.x, 1.5);
}

#[test]
fn pressing_toward_a_wall_while_falling_slides_at_the_slide_speed() {
    let l = level(&[
        "#......", "#......", "#......", "#......", "#......", "#......", "#......", "#......",
        "#......", "#......", "#######",
    ]);
    let p = wall_physics(0.8);
    let mut b = Body::standing(Cell::new(1, 0), &p);
    b.x = 1.4;
    b.grounded = false;
    b.y = 2.0;
    run(&mut b, &l, &p, LEFT, 20);
    assert!(b.touches_wall_left(&l, &p));
    assert_eq!(b.vy, 3.0);
    // Not pressing toward the wall: free fall.
    b.step(&l, &p, IDLE);
    assert!(b.vy > 3.0);
}

#[test]
fn overlapping_a_hazard_kills_and_a_dead_body_ignores_input() {
    let l = level(&["......", "......", "...^..", "######"]);
    let p = Physics::default();
    let mut b = Body::standing(Cell::new(1, 2), &p);
    run(&mut b, &l, &p, RIGHT, 40);
    assert!(b.dead);
    let frozen = b;
    run(&mut b, &l, &p, Input::new(1, true, false), 10);
    assert_eq!(b, frozen);
}

#[test]
fn falling_out_of_the_bottom_is_death() {
    let l = level(&["......", "......", "##..##"]);
    let p = Physics::default();
    let mut b = Body::standing(Cell::new(1, 1), &p);
    let mut ticks = 0;
    while !b.dead && ticks < 300 {
        b.step(&l, &p, RIGHT);
        ticks += 1;
    }
    assert!(b.dead);
    assert!(b.y - p.h > 3.0);
}

#[test]
fn the_left_right_and_top_borders_are_solid() {
    let l = level(&["....", "....", "....", "....", "####"]);
    let p = Physics::default();
    let mut b = Body::standing(Cell::new(1, 3), &p);
    run(&mut b, &l, &p, LEFT, 60);
    assert_eq!(b.x, p.half_w());
    run(&mut b, &l, &p, RIGHT, 90);
    assert_eq!(b.x, 4.0 - p.half_w());
    // A full jump in a 4-row room hits the top border.
    let mut hit = false;
    for _ in 0..30 {
        b.step(&l, &p, HOLD);
        if b.y - p.box_h() == 0.0 {
            hit = true;
        }
    }
    assert!(hit, "the head stopped at the top border");
}

#[test]
fn input_triples_round_trip_and_reject_bad_values() {
    for m in -1..=1 {
        for j in 0..=1 {
            for d in 0..=1 {
                let i = Input::from_triple([m, j, d]).unwrap();
                assert_eq!(i.to_triple(), [m as i8, j as i8, d as i8]);
            }
        }
    }
    assert!(Input::from_triple([2, 0, 0]).is_none());
    assert!(Input::from_triple([0, 2, 0]).is_none());
    assert!(Input::from_triple([0, 0, -1]).is_none());
}
