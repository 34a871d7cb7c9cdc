//! The opt-in mechanics of `PHYSICS.md`: ladders, slopes, coyote time, jump
//! buffering, jump pads and springs, one hand-checked claim per rule, and the guarantee that
//! with none of them in reach the body moves exactly as before.
//!
//! Ladder cases use `dt = 1/64` and `climb_speed = 8`, so a climbing tick
//! moves exactly 1/8 tile and tick counts can be worked out by hand.

use platnav::io::navfile;
use platnav::{
    Body, Cell, Input, Level, Physics, Tile,
    level::SplitMix64,
    physics::{Frame, Tiles, WallJump},
};

mod common;
use common::level;

/// The default body at 64 ticks a second, climbing 8 tiles a second: one
/// eighth of a tile a tick, exact in binary.
fn exact() -> Physics {
    Physics {
        dt: 1.0 / 64.0,
        climb_speed: 8.0,
        ..Physics::default()
    }
}

const UP: Input = Input::IDLE.with_up(true);
const DOWN: Input = Input::new(0, false, true);

/// A 5-tile ladder (rows 2 to 6) in column 4, on a floor at row 7.
fn ladder_room() -> Level {
    level(&[
        "..........",
        "..........",
        "....H..=..",
        "....H.....",
        "....H.....",
        "....H.....",
        "....H.....",
        "##########",
    ])
}

/// A body whose feet are at `(x, y)`, at rest, not grounded.
fn at(x: f64, y: f64, p: &Physics) -> Body {
    Body {
        x,
        y,
        grounded: false,
        ..Body::standing(Cell::new(0, 0), p)
    }
}

// ---- Ladders --------------------------------------------------------------

#[test]
fn climbing_a_5_tile_ladder_takes_40_ticks_and_ends_standing_on_its_top() {
    let (l, p) = (ladder_room(), exact());
    let mut b = Body::standing(Cell::new(4, 6), &p);
    for k in 1..=39 {
        b.step(&l, &p, UP);
        assert!(b.climbing && !b.grounded, "tick {k}: {b:?}");
        assert_eq!(b.y, 7.0 - f64::from(k) / 8.0, "tick {k}");
        assert_eq!((b.x, b.vx), (4.5, 0.0));
    }
    b.step(&l, &p, UP);
    assert!(!b.climbing && b.grounded, "{b:?}");
    assert!(b.stands_on(Cell::new(4, 1)), "{b:?}");
    // The top is a platform: idling there stays put.
    for _ in 0..30 {
        b.step(&l, &p, Input::IDLE);
    }
    assert!(b.stands_on(Cell::new(4, 1)), "{b:?}");
}

#[test]
fn down_on_a_ladder_top_climbs_down_in_41_ticks_and_stands_on_the_floor() {
    let (l, p) = (ladder_room(), exact());
    let mut b = Body::standing(Cell::new(4, 1), &p);
    // The feet reach the floor's top after 40 ticks, and the body meets
    // the floor on the tick its feet pass that top.
    for k in 1..=40 {
        b.step(&l, &p, DOWN);
        assert!(b.climbing, "tick {k}: {b:?}");
        assert_eq!(b.y, 2.0 + f64::from(k) / 8.0, "tick {k}");
    }
    b.step(&l, &p, DOWN);
    assert!(!b.climbing && b.stands_on(Cell::new(4, 6)), "{b:?}");
}

#[test]
fn down_on_a_one_way_platform_drops_through_but_on_a_ladder_top_climbs() {
    let (l, p) = (ladder_room(), exact());
    let mut on_one_way = Body::standing(Cell::new(7, 1), &p);
    on_one_way.step(&l, &p, DOWN);
    assert!(!on_one_way.climbing && !on_one_way.grounded);
    assert_eq!(on_one_way.vy, p.gravity * p.dt);
    let mut on_ladder = Body::standing(Cell::new(4, 1), &p);
    on_ladder.step(&l, &p, DOWN);
    assert!(on_ladder.climbing);
    assert_eq!((on_ladder.y, on_ladder.vy), (2.125, 8.0));
}

#[test]
fn without_up_or_down_a_body_ignores_the_ladder() {
    let (l, p) = (ladder_room(), exact());
    let mut b = Body::standing(Cell::new(4, 6), &p);
    for _ in 0..20 {
        b.step(&l, &p, Input::IDLE);
    }
    assert!(b.stands_on(Cell::new(4, 6)) && !b.climbing);
    // Jumping straight up through it without up: a plain jump, back down.
    b.step(&l, &p, Input::new(0, true, false));
    assert!(!b.climbing && b.vy < 0.0);
    for _ in 0..200 {
        b.step(&l, &p, Input::new(0, true, false));
        assert!(!b.climbing);
    }
    assert!(b.stands_on(Cell::new(4, 6)), "{b:?}");
}

#[test]
fn jumping_off_a_ladder_is_a_ground_jump_with_air_control() {
    let (l, p) = (ladder_room(), exact());
    let mut b = Body::standing(Cell::new(4, 6), &p);
    for _ in 0..8 {
        b.step(&l, &p, UP);
    }
    assert!(b.climbing);
    assert_eq!(b.y, 6.0);
    let jump_right = Input::new(1, true, false);
    assert!(b.jump_starts(&l, &p, jump_right));
    b.step(&l, &p, jump_right);
    assert!(!b.climbing && !b.grounded);
    let vy = -p.jump_speed + p.gravity * p.dt;
    let vx = p.air_accel * p.dt;
    assert_eq!((b.vx, b.vy), (vx, vy));
    assert_eq!((b.x, b.y), (4.5 + vx * p.dt, 6.0 + vy * p.dt));
}

#[test]
fn falling_onto_a_ladder_top_lands_and_with_down_held_catches_the_ladder() {
    let (l, p) = (ladder_room(), exact());
    let mut b = at(4.5, 1.85, &p);
    for _ in 0..60 {
        b.step(&l, &p, Input::IDLE);
    }
    assert!(b.stands_on(Cell::new(4, 1)) && !b.climbing, "{b:?}");
    let mut b = at(4.5, 1.85, &p);
    let mut caught = None;
    for t in 0..60 {
        b.step(&l, &p, DOWN);
        if b.climbing {
            caught = Some(t);
            break;
        }
    }
    assert!(caught.is_some(), "{b:?}");
    assert_eq!((b.x, b.vx, b.vy), (4.5, 0.0, 8.0));
}

#[test]
fn holding_up_in_a_jump_catches_the_ladder_and_centres_on_it() {
    let (l, p) = (ladder_room(), exact());
    let mut b = Body::standing(Cell::new(3, 6), &p);
    // A jump press never grabs: the first tick jumps.
    b.step(&l, &p, Input::new(1, true, false).with_up(true));
    assert!(!b.climbing && b.vy < 0.0);
    let mut ticks = 1;
    while !b.climbing && ticks < 40 {
        b.step(&l, &p, Input::new(1, true, false).with_up(true));
        ticks += 1;
    }
    assert!(b.climbing, "{b:?}");
    assert_eq!((b.x, b.vx, b.vy), (4.5, 0.0, -8.0));
}

#[test]
fn climbing_past_a_ladder_bottom_lets_go_and_falls() {
    let l = level(&[
        ".......", //
        ".......", "...H...", "...H...", ".......", ".......", ".......", "#######",
    ]);
    let p = exact();
    let mut b = Body::standing(Cell::new(3, 1), &p);
    for k in 1..=16 {
        b.step(&l, &p, DOWN);
        assert!(b.climbing, "tick {k}");
    }
    assert_eq!(b.y, 4.0);
    b.step(&l, &p, DOWN);
    assert!(!b.climbing && !b.grounded);
    assert_eq!((b.y, b.vy), (4.125, 8.0));
    for _ in 0..60 {
        b.step(&l, &p, DOWN);
    }
    assert!(b.stands_on(Cell::new(3, 6)), "{b:?}");
}

#[test]
fn a_ceiling_stops_a_climb_and_the_body_stays_on_the_ladder() {
    let l = level(&[
        "....#.....",
        "..........",
        "....H.....",
        "....H.....",
        "....H.....",
        "....H.....",
        "....H.....",
        "##########",
    ]);
    let p = exact();
    let mut b = Body::standing(Cell::new(4, 6), &p);
    for _ in 0..33 {
        b.step(&l, &p, UP);
    }
    assert_eq!(b.y, 2.875);
    for _ in 0..30 {
        b.step(&l, &p, UP);
        assert!(b.climbing && !b.grounded);
        assert_eq!((b.y, b.vy), (1.0 + p.box_h(), 0.0));
    }
}

#[test]
fn no_grab_where_the_centred_box_would_overlap_a_wall() {
    let l = level(&[
        "..........", //
        "....#H....",
        "....#H....",
        "##########",
    ]);
    let wide = Physics {
        w: 1.6,
        h: 0.9,
        ..exact()
    };
    let mut b = Body {
        x: 5.9,
        ..Body::standing(Cell::new(5, 2), &wide)
    };
    b.step(&l, &wide, UP);
    assert!(!b.climbing && b.grounded && b.x == 5.9, "{b:?}");
    // A narrow body there grabs (and is centred on the ladder).
    let narrow = Physics { h: 0.9, ..exact() };
    let mut b = Body::standing(Cell::new(5, 2), &narrow);
    b.step(&l, &narrow, UP);
    assert!(b.climbing && b.x == 5.5, "{b:?}");
}

#[test]
fn a_climbing_body_passes_one_way_platforms_and_dies_on_hazards() {
    let wide = Physics { w: 1.6, ..exact() };
    let shelves = level(&[
        "..........",
        "..........",
        "....H.....",
        "....H.....",
        "...=H=....",
        "....H.....",
        "....H.....",
        "##########",
    ]);
    let mut b = Body::standing(Cell::new(4, 6), &wide);
    for _ in 0..40 {
        b.step(&shelves, &wide, UP);
    }
    assert!(
        b.stands_on(Cell::new(4, 1)),
        "up through the shelves: {b:?}"
    );
    for _ in 0..41 {
        b.step(&shelves, &wide, DOWN);
    }
    assert!(
        b.stands_on(Cell::new(4, 6)),
        "down through the shelves: {b:?}"
    );
    let spiked = level(&[
        "..........",
        "..........",
        "....H.....",
        "....H^....",
        "....H.....",
        "....H.....",
        "....H.....",
        "##########",
    ]);
    let mut b = Body::standing(Cell::new(4, 6), &wide);
    let mut died = None;
    for k in 1..=40 {
        b.step(&spiked, &wide, UP);
        if b.dead {
            died = Some(k);
            break;
        }
    }
    // The box's top (y - 1.8) enters row 3 (below y = 4) once y < 5.8:
    // after 10 ticks (y = 5.75).
    assert_eq!(died, Some(10));
}

// ---- Slopes ---------------------------------------------------------------

/// A hill: a staircase of three `/` up to a two-tile plateau at y = 4,
/// three `\` down, flat floor at y = 7 either side, a step at the left.
fn hill() -> Level {
    level(&[
        "................",
        "................",
        "................",
        "................",
        r"......./##\.....",
        r"....../####\....",
        r"##.../######\...",
        "################",
    ])
}

/// The ground's height under the feet at `x` on [`hill`].
fn hill_height(x: f64) -> f64 {
    if x < 5.0 {
        7.0
    } else if x < 8.0 {
        12.0 - x
    } else if x < 10.0 {
        4.0
    } else if x < 13.0 {
        x - 6.0
    } else {
        7.0
    }
}

#[test]
fn walking_over_a_hill_keeps_the_feet_on_the_ground_at_every_tick() {
    let (l, p) = (hill(), Physics::default());
    for (start, dir, end) in [(3, 1i8, 15.0), (14, -1, 3.0)] {
        let mut b = Body::standing(Cell::new(start, 6), &p);
        let mut ticks = 0;
        while (b.x - end) * f64::from(dir) < 0.0 && ticks < 400 {
            b.step(&l, &p, Input::new(dir, false, false));
            ticks += 1;
            assert!(b.grounded, "tick {ticks}: airborne at {b:?}");
            assert!(
                (b.y - hill_height(b.x)).abs() < 1e-9,
                "tick {ticks}: feet at {} over ground at {}",
                b.y,
                hill_height(b.x)
            );
            if ticks > 10 {
                // Neither the slopes nor the tiles under them slow it.
                assert_eq!(b.vx, f64::from(dir) * p.run_speed, "tick {ticks}");
            }
        }
        assert!(ticks < 400, "{b:?}");
    }
}

/// From any position, not only a cell's centre: the feet reach a slope's
/// foot at every sub-position of a tick's move, and never hop (a body
/// whose feet column is just short of the foot, sunk by gravity below the
/// slope's line, once landed on the slope tile's top, a row up).
#[test]
fn walking_onto_a_slope_from_any_position_neither_hops_nor_bumps() {
    let (l, p) = (hill(), Physics::default());
    for k in 0..200 {
        for (x0, dir, end) in [(2.5, 1i8, 15.0), (14.5, -1, 2.5)] {
            let mut b = Body {
                x: x0 + f64::from(dir) * f64::from(k) / 200.0,
                ..Body::standing(Cell::new(2, 6), &p)
            };
            let mut ticks = 0;
            while (b.x - end) * f64::from(dir) < 0.0 && ticks < 400 {
                b.step(&l, &p, Input::new(dir, false, false));
                ticks += 1;
                assert!(b.grounded, "start {k}, tick {ticks}: airborne at {b:?}");
                assert!(
                    (b.y - hill_height(b.x)).abs() < 1e-9,
                    "start {k}, tick {ticks}: feet at {} over ground at {}",
                    b.y,
                    hill_height(b.x)
                );
            }
        }
    }
}

#[test]
fn a_body_stands_still_on_a_slope_and_jumps_back_onto_the_same_spot() {
    let (l, p) = (hill(), Physics::default());
    let mut b = Body {
        x: 6.25,
        y: 5.75,
        ..Body::standing(Cell::new(6, 4), &p)
    };
    for _ in 0..100 {
        b.step(&l, &p, Input::IDLE);
        assert!(b.grounded && (b.x, b.y, b.vy) == (6.25, 5.75, 0.0), "{b:?}");
    }
    b.step(&l, &p, Input::new(0, true, false));
    assert!(!b.grounded && b.vy < 0.0);
    let mut ticks = 0;
    while !b.grounded && ticks < 200 {
        b.step(&l, &p, Input::new(0, true, false));
        ticks += 1;
    }
    assert_eq!((b.x, b.y, b.vy), (6.25, 5.75, 0.0), "after {ticks} ticks");
}

#[test]
fn a_falling_body_lands_with_its_feet_on_the_slope_surface() {
    let (l, p) = (hill(), Physics::default());
    for x in [5.3, 6.5, 7.9, 10.1, 11.5, 12.75] {
        let mut b = at(x, 2.5, &p);
        while !b.grounded {
            b.step(&l, &p, Input::IDLE);
        }
        assert_eq!((b.x, b.vy), (x, 0.0));
        assert!((b.y - hill_height(x)).abs() < 1e-12, "{x}: {b:?}");
    }
}

/// Running up the hill's `/` with a short jump (released at once, so the
/// body rises slower than the surface climbs under it): the feet never
/// pass under the ground; the surface carries them up until they land.
#[test]
fn a_short_jump_into_a_slope_rides_up_its_surface() {
    let (l, p) = (hill(), Physics::default());
    let mut rode = 0;
    for run in 12..=24 {
        for hold in 1..=3 {
            let mut b = Body::standing(Cell::new(3, 6), &p);
            let jump = |t: usize| t >= run && t < run + hold;
            for t in 0..run + 40 {
                let y0 = b.y;
                b.step(&l, &p, Input::new(1, jump(t), false));
                assert!(
                    b.y <= hill_height(b.x) + 1e-9,
                    "run {run}, hold {hold}, tick {t}: feet at {} under ground at {}",
                    b.y,
                    hill_height(b.x)
                );
                // Lifted more than its own speed moved it: carried up.
                if b.vy < 0.0 && b.y < y0 + b.vy * p.dt - 1e-9 {
                    rode += 1;
                }
            }
        }
    }
    assert!(rode > 0, "no jump rode the surface");
}

/// Every link of `map` (`what` names it) moves the body no farther in a
/// tick than its speeds allow: at most the top speed across (the nearer
/// way round on a level that wraps), and down or up at most its speed (or
/// a jump's) plus the climb or dip of a slope walked; catching a ladder
/// centres the body on it, which is allowed.
fn assert_no_teleports(map: &platnav::NavMap, what: &str) {
    let (p, l) = (map.physics(), map.level());
    let apart = |d: f64, n: usize, wraps: bool| if wraps { d.min(n as f64 - d) } else { d };
    for n in 0..map.node_count() {
        for link in map.links_from(platnav::NodeId::new(n as u32)) {
            let states = platnav::search::trajectory(map, link.id);
            for (t, w) in states.windows(2).enumerate() {
                let dx = apart((w[1].x - w[0].x).abs(), l.width(), l.wrap().x);
                let dy = apart((w[1].y - w[0].y).abs(), l.height(), l.wrap().y);
                let speed = (w[0].vy.abs() + p.gravity * p.dt)
                    .max(w[1].vy.abs())
                    .max(p.jump_speed);
                let catch = w[1].climbing && !w[0].climbing;
                assert!(
                    catch
                        || (dx <= p.max_speed_x() * p.dt + 1e-9 && dy <= speed * p.dt + dx + 1e-9),
                    "{what}: {link:?}, tick {t}: {:?} to {:?}\n{l}",
                    w[0],
                    w[1]
                );
            }
        }
    }
}

/// No link on `levels/mechanics.txt`, nor on the slope levels among the
/// exhaustive check's first 30, teleports the body: a box a slope's ghosts
/// let into a tile is not thrown out through it.
#[test]
fn no_link_near_slopes_teleports_the_body() {
    let mechanics: Level = include_str!("../levels/mechanics.txt").parse().unwrap();
    let seeded = (0..30)
        .map(|seed| common::small_level(seed).0)
        .filter(|l| l.holds(Tile::SLOPE_RIGHT) || l.holds(Tile::SLOPE_LEFT));
    for (i, l) in std::iter::once(mechanics).chain(seeded).enumerate() {
        for p in [Physics::default(), Physics::smb(), Physics::sq2()] {
            let map = platnav::NavMap::build(&l, &p).unwrap();
            assert_no_teleports(&map, &format!("level {i}"));
        }
    }
}

#[test]
fn the_high_side_of_a_slope_is_a_wall_and_its_underside_a_ceiling() {
    let l = level(&[
        "........", //
        r"...\....",
        "........",
        "........",
        "...../..",
        "########",
    ]);
    let p = Physics::default();
    // From the right, on the floor: the `/` at column 5 rises to its full
    // height at x = 6, and stops the body there.
    let mut b = Body::standing(Cell::new(7, 4), &p);
    for _ in 0..60 {
        b.step(&l, &p, Input::new(-1, false, false));
    }
    assert_eq!((b.x, b.vx), (6.0 + p.half_w(), 0.0));
    // Jumping under the `\` of row 1: the head meets its bottom (y = 2).
    let mut b = Body::standing(Cell::new(3, 4), &p);
    let mut bumped = false;
    for _ in 0..30 {
        b.step(&l, &p, Input::new(0, true, false));
        if b.vy == 0.0 && !b.grounded {
            bumped = true;
            assert_eq!(b.y, 2.0 + p.box_h());
            break;
        }
    }
    assert!(bumped, "{b:?}");
}

// ---- Coyote time and jump buffering --------------------------------------

/// A ledge at row 4 (columns 0-3) over a floor at row 9.
fn ledge() -> Level {
    level(&[
        "..........",
        "..........",
        "..........",
        "..........",
        "####......",
        "####......",
        "..........",
        "..........",
        "..........",
        "##########",
    ])
}

/// Runs right off [`ledge`] and presses jump (held from then on) on the
/// `k`-th tick after the one the body left the ground on; returns the body
/// after that tick.
fn press_after_leaving(p: &Physics, k: usize) -> Body {
    let l = ledge();
    let mut b = Body::standing(Cell::new(2, 3), p);
    while b.grounded {
        b.step(&l, p, Input::new(1, false, false));
    }
    for _ in 1..k {
        b.step(&l, p, Input::new(1, false, false));
    }
    b.step(&l, p, Input::new(1, true, false));
    b
}

#[test]
fn coyote_time_allows_a_ground_jump_for_exactly_its_ticks_after_leaving() {
    let jumped = |b: &Body, p: &Physics| b.vy == -p.jump_speed + p.gravity * p.dt;
    let off = Physics::default();
    assert!(!jumped(&press_after_leaving(&off, 1), &off));
    let coyote = Physics {
        coyote_ticks: 3,
        air_jumps: 1,
        ..Physics::default()
    };
    for k in 1..=3 {
        let b = press_after_leaving(&coyote, k);
        assert!(jumped(&b, &coyote), "press {k} ticks after: {b:?}");
        assert_eq!(b.air_jumps_left, 1, "a coyote jump is a ground jump");
    }
    // The fourth tick after: the air jump, not a ground jump.
    let b = press_after_leaving(&coyote, 4);
    assert_eq!(b.air_jumps_left, 0);
}

#[test]
fn no_coyote_time_after_a_jump() {
    let l = ledge();
    let p = Physics {
        coyote_ticks: 10,
        ..Physics::default()
    };
    let mut b = Body::standing(Cell::new(2, 3), &p);
    b.step(&l, &p, Input::new(0, true, false));
    b.step(&l, &p, Input::IDLE);
    assert_eq!(b.coyote_left, 0);
    let before = b.vy;
    b.step(&l, &p, Input::new(0, true, false));
    assert_eq!(b.vy, before + p.gravity * p.dt, "the press did nothing");
}

/// Drops a body onto [`ledge`]'s floor and presses jump (held from then
/// on) on tick `press` (0-based); the ticks to landing, and the body after
/// the tick that follows the landing.
fn press_before_landing(p: &Physics, press: usize) -> (usize, Body) {
    let l = ledge();
    let mut b = at(8.5, 6.0, p);
    let mut landed = None;
    for t in 0..200 {
        b.step(&l, p, Input::new(0, t >= press, false));
        if b.grounded && landed.is_none() {
            landed = Some(t);
            b.step(&l, p, Input::new(0, t + 1 >= press, false));
            break;
        }
    }
    (landed.expect("lands"), b)
}

#[test]
fn a_buffered_press_jumps_on_landing_when_made_up_to_its_ticks_before() {
    let p = Physics {
        jump_buffer_ticks: 3,
        ..Physics::default()
    };
    let (landing, _) = press_before_landing(&p, 1000);
    // Kept for 3 ticks: a press on tick L - 2 is still kept on tick L + 1,
    // the first the body starts grounded.
    let (l, b) = press_before_landing(&p, landing - 2);
    assert_eq!(l, landing);
    assert_eq!(b.vy, -p.jump_speed + p.gravity * p.dt, "{b:?}");
    let (_, b) = press_before_landing(&p, landing - 3);
    assert!(b.grounded, "pressed too early: {b:?}");
    let off = Physics::default();
    let (_, b) = press_before_landing(&off, landing);
    assert!(b.grounded, "no buffer: {b:?}");
}

// ---- With every extension off, the plain rules -----------------------------

/// A level that claims ladders and slopes (so the body takes the extended
/// rules) but holds none.
struct Claims<'a> {
    level: &'a Level,
    ladders: bool,
    slopes: bool,
}

impl Tiles for Claims<'_> {
    fn tile_at(&self, col: i64, row: i64) -> Tile {
        self.level.tile_at(col, row)
    }
    fn rows(&self) -> f64 {
        self.level.height() as f64
    }
    fn holds(&self, tile: Tile) -> bool {
        match tile {
            Tile::LADDER => self.ladders,
            Tile::SLOPE_RIGHT | Tile::SLOPE_LEFT => self.slopes,
            _ => true,
        }
    }
}

fn unit(rng: &mut SplitMix64) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// On levels without ladders or slopes the extended rules are the plain
/// ones, bit for bit, from any state, for any input (up included), with
/// coyote time and jump buffering on or off.
#[test]
fn the_extended_rules_are_the_plain_ones_where_no_ladder_or_slope_is() {
    let mut rng = SplitMix64::new(19);
    let mut ticks = 0;
    for seed in 0..60u64 {
        let l =
            Level::generate(8 + rng.below(30) as usize, 6 + rng.below(16) as usize, seed).unwrap();
        let claims = [(true, true), (true, false), (false, true)].map(|(ladders, slopes)| Claims {
            level: &l,
            ladders,
            slopes,
        });
        for _ in 0..8 {
            let mut p = [Physics::default(), Physics::agile(), Physics::smb()]
                [rng.below(3) as usize]
                .clone();
            if rng.chance(0.3) {
                p.w = 0.2 + 2.5 * unit(&mut rng);
                p.h = 0.2 + 3.0 * unit(&mut rng);
            }
            if rng.chance(0.3) {
                p.wall_jump = Some(WallJump {
                    speed_x: 6.0,
                    speed_y: 15.0,
                    slide_speed: 3.0,
                });
            }
            p.coyote_ticks = rng.below(3) as u32 * 3;
            p.jump_buffer_ticks = rng.below(3) as u32 * 2;
            let start = Cell::new(
                rng.below(l.width() as u64) as i32,
                rng.below(l.height() as u64) as i32,
            );
            let mut plain = Body::standing(start, &p);
            if rng.chance(0.5) {
                plain.grounded = false;
                plain.vx = (unit(&mut rng) - 0.5) * 2.0 * p.run_speed;
                plain.vy = (unit(&mut rng) - 0.5) * 2.0 * p.max_fall_speed;
            }
            let frame = Frame::new(&l, Cell::new(0, 0));
            let mut extended = [plain; 3];
            let mut held = Input::IDLE;
            for t in 0..150 {
                if t % 6 == 0 {
                    held = Input::new(rng.below(3) as i8 - 1, rng.chance(0.4), rng.chance(0.15))
                        .with_up(rng.chance(0.2));
                }
                plain.step(&frame, &p, held);
                for (b, c) in extended.iter_mut().zip(&claims) {
                    b.step(c, &p, held);
                    assert_eq!(
                        *b, plain,
                        "seed {seed}, tick {t}, ladders {} slopes {}, {p:?}",
                        c.ladders, c.slopes
                    );
                }
                ticks += 1;
            }
        }
    }
    assert!(ticks > 50_000);
}

#[test]
fn ladder_tops_are_stood_on_like_one_way_platforms_and_slope_cells_are_steep_nodes() {
    use platnav::{Classification, NodeType};
    let (l, p) = (ladder_room(), exact());
    let c = Classification::new(&l, &p);
    assert_eq!(c.get(Cell::new(4, 1)), NodeType::ONE_WAY);
    assert!(
        c.is_standable(Cell::new(4, 6)),
        "the ladder's foot, on the floor"
    );
    assert!(!c.is_standable(Cell::new(4, 3)), "inside the ladder");
    assert_eq!(c.get(Cell::new(4, 3)), NodeType::LADDER);
    let (h, p) = (hill(), Physics::default());
    let c = Classification::new(&h, &p);
    for cell in [(5, 6), (6, 5), (7, 4), (10, 4), (11, 5), (12, 6)] {
        let cell = Cell::new(cell.0, cell.1);
        // The hill rises to the right up to column 7 and falls after 10.
        let steep = if cell.col <= 7 {
            NodeType::STEEP_RIGHT
        } else {
            NodeType::STEEP_LEFT
        };
        assert_eq!(c.get(cell), steep, "the slope tile {cell}");
        assert!(c.is_standable(cell), "on the slope tile {cell}");
        let above = Cell::new(cell.col, cell.row - 1);
        assert!(
            !c.is_standable(above),
            "over the slope at {cell}: {:?}",
            c.get(above)
        );
    }
    for col in [2, 3, 4, 8, 9, 13, 14] {
        let row = if (8..10).contains(&col) { 3 } else { 6 };
        assert!(
            c.is_standable(Cell::new(col, row)),
            "flat ground at {col},{row}"
        );
    }
}

// ---- Profiles, tapes and saved maps ---------------------------------------

/// The fingerprint as it was before the extension parameters existed
/// (FNV-1a over the plain parameters): a profile that leaves them alone
/// must keep it, so its saved maps stay valid.
fn plain_fingerprint(p: &Physics) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |v: u64| {
        for b in v.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for v in [
        p.w,
        p.h,
        p.run_speed,
        p.ground_accel,
        p.air_accel,
        p.gravity,
        p.jump_speed,
        p.jump_cut_speed,
        p.max_fall_speed,
        p.dt,
    ] {
        eat(v.to_bits());
    }
    eat(u64::from(p.air_jumps));
    match &p.wall_jump {
        Some(wj) => {
            eat(1);
            eat(wj.speed_x.to_bits());
            eat(wj.speed_y.to_bits());
            eat(wj.slide_speed.to_bits());
        }
        None => eat(0),
    }
    h
}

#[test]
fn old_profiles_load_with_the_extensions_off_and_keep_their_fingerprints() {
    // `sq2` is the game's player, with its ladder and jump pad speeds.
    let sq2 = Physics::sq2();
    assert!(!sq2.extensions_default());
    assert_eq!(sq2.pad_launch().to_bits(), (300.0f64 / 18.0).to_bits());
    for name in Physics::PRESETS.iter().filter(|n| **n != "sq2") {
        let p = Physics::preset(name).unwrap();
        assert!(p.extensions_default(), "{name}");
        assert_eq!(p.fingerprint(), plain_fingerprint(&p), "{name}");
        // Written as before: no extension field, so older readers read it.
        let json = serde_json::to_value(&p).unwrap();
        for key in [
            "climb_speed",
            "coyote_ticks",
            "jump_buffer_ticks",
            "pad_speed",
            "spring_speed",
            "spring_jump_speed",
        ] {
            assert!(json.get(key).is_none(), "{name}: {key} written");
        }
        let back: Physics = serde_json::from_value(json).unwrap();
        assert_eq!(back, p);
    }
    // A profile file from before the extensions.
    let old = r#"{"w": 0.8, "h": 1.8, "run_speed": 6.0, "ground_accel": 60.0,
        "air_accel": 30.0, "gravity": 43.75, "jump_speed": 17.5, "jump_cut_speed": 6.0,
        "max_fall_speed": 20.0, "air_jumps": 0, "wall_jump": null, "dt": 0.016666666666666666}"#;
    let p: Physics = serde_json::from_str(old).unwrap();
    assert_eq!(p, Physics::default());
    // Any change to an extension parameter changes the fingerprint.
    let base = Physics::default().fingerprint();
    for changed in [
        Physics {
            climb_speed: 4.0,
            ..Physics::default()
        },
        Physics {
            coyote_ticks: 1,
            ..Physics::default()
        },
        Physics {
            jump_buffer_ticks: 1,
            ..Physics::default()
        },
        Physics {
            pad_speed: Some(Physics::DEFAULT_PAD_SPEED),
            ..Physics::default()
        },
        Physics {
            spring_speed: Some(10.0),
            ..Physics::default()
        },
        Physics {
            spring_jump_speed: Some(20.0),
            ..Physics::default()
        },
    ] {
        assert_ne!(changed.fingerprint(), base, "{changed:?}");
        let json = serde_json::to_string(&changed).unwrap();
        assert_eq!(serde_json::from_str::<Physics>(&json).unwrap(), changed);
    }
    // Physics files in the game's units take them too, and validation
    // bounds them.
    let p = Physics::from_json_over(
        r#"{"units": "px", "tile": 16, "climb_speed": 64, "coyote_ticks": 6, "jump_buffer_ticks": 4}"#,
        &Physics::default(),
    )
    .unwrap();
    assert_eq!(
        (p.climb_speed, p.coyote_ticks, p.jump_buffer_ticks),
        (4.0, 6, 4)
    );
    for bad in [
        r#"{"coyote_ticks": 256}"#,
        r#"{"jump_buffer_ticks": 1000}"#,
        r#"{"climb_speed": 60}"#,
        r#"{"climb_speed": -1}"#,
    ] {
        assert!(
            Physics::from_json_over(bad, &Physics::default()).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn up_is_a_fourth_tape_element_only_when_held() {
    use platnav::io::json::{tape_from_json, tape_to_json};
    let tape = [
        Input::new(1, true, false),
        Input::new(-1, false, true).with_up(true),
        UP,
    ];
    let json = tape_to_json(&tape);
    assert_eq!(json.to_string(), "[[1,1,0],[-1,0,1,1],[0,0,0,1]]");
    assert_eq!(tape_from_json(&json).unwrap(), tape);
    let three = serde_json::json!([[0, 1, 0], [1, 0, 0, 0]]);
    assert_eq!(
        tape_from_json(&three).unwrap(),
        [Input::new(0, true, false), Input::new(1, false, false)]
    );
    for bad in [
        serde_json::json!([[0, 0]]),
        serde_json::json!([[0, 0, 0, 2]]),
        serde_json::json!([[0, 0, 0, 0, 0]]),
    ] {
        assert!(tape_from_json(&bad).is_err(), "{bad}");
    }
}

/// Saved maps carry up: a map whose tapes hold up (harmless on a level
/// without ladders) survives JSON and binary saves, and the link store's
/// escaped runs give the tapes back exactly.
#[test]
fn saved_maps_carry_up_in_json_and_binary() {
    use platnav::NavMap;
    let level = common::demo();
    let p = Physics::default();
    let map = NavMap::build(&level, &p).unwrap();
    let dir = std::env::temp_dir().join(format!("platnav-up-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("map.json");
    navfile::save(&map, &json).unwrap();
    // Hold up on every tick: the letters 'a'..='l' become 'm'..='x'.
    let text = std::fs::read_to_string(&json).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    for l in doc["links"].as_array_mut().unwrap() {
        let up: String = l["inputs"]
            .as_str()
            .unwrap()
            .chars()
            .map(|c| char::from(c as u8 + 12))
            .collect();
        l["inputs"] = up.into();
    }
    std::fs::write(&json, doc.to_string()).unwrap();
    let loaded = navfile::load(&json, &level, &p).unwrap();
    assert_eq!(loaded.link_count(), map.link_count());
    let tapes =
        |m: &NavMap| -> Vec<Vec<Input>> { m.links().map(|l| m.inputs(l.id).collect()).collect() };
    let with_up = tapes(&loaded);
    let plain = tapes(&map);
    assert!(with_up.iter().flatten().all(|i| i.up));
    assert_eq!(
        with_up
            .iter()
            .map(|t| t.iter().map(|i| i.with_up(false)).collect::<Vec<_>>())
            .collect::<Vec<_>>(),
        plain
    );
    let bin = dir.join("map.pnav");
    navfile::save(&loaded, &bin).unwrap();
    let again = navfile::load(&bin, &level, &p).unwrap();
    assert_eq!(tapes(&again), with_up);
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---- Jump pads and springs ----------------------------------------------

/// A pad at column 3 and a spring at column 7 on a floor at row 9, and a
/// ledge six rows up (row 3, columns 0 and 1).
fn launch_room() -> Level {
    level(&[
        "............",
        "............",
        "............",
        "##..........",
        "............",
        "............",
        "............",
        "............",
        "...P...Z....",
        "############",
    ])
}

/// Walks `b` with `input` until it is launched; the tick it was, if within
/// `limit`.
fn until_launched(
    b: &mut Body,
    l: &Level,
    p: &Physics,
    input: Input,
    limit: usize,
) -> Option<usize> {
    (0..limit).find(|_| {
        b.step(l, p, input);
        b.launched
    })
}

#[test]
fn a_pad_launches_a_body_walking_into_it_and_the_jump_cut_spares_the_rise() {
    let (l, p) = (launch_room(), Physics::default());
    let mut b = Body::standing(Cell::new(1, 8), &p);
    let t = until_launched(&mut b, &l, &p, Input::new(1, false, false), 60).expect("launched");
    assert_eq!(b.vy, -p.pad_launch());
    assert!(!b.grounded && b.coyote_left == 0);
    // The box reached into column 3 on that tick: x + w/2 > 3.
    assert!(b.x + p.half_w() > 3.0, "tick {t}: x {}", b.x);
    // Jump released: the rise is not cut, and it is higher than a jump.
    let y0 = b.y;
    while b.vy < 0.0 {
        assert!(b.launched, "a launch's rise");
        b.step(&l, &p, Input::IDLE);
    }
    assert!(!b.launched, "the rise ended");
    assert!(y0 - b.y > p.jump_height() + 1.0, "rose {}", y0 - b.y);
}

#[test]
fn a_spring_launches_higher_with_jump_held() {
    let (l, p) = (launch_room(), Physics::default());
    for (held, speed) in [
        (false, p.spring_launch(false)),
        (true, p.spring_launch(true)),
    ] {
        // Jump held from before, so holding it is no press.
        let mut b = Body {
            jump_held_last_tick: held,
            ..Body::standing(Cell::new(9, 8), &p)
        };
        until_launched(&mut b, &l, &p, Input::new(-1, held, false), 60).expect("launched");
        assert_eq!(b.vy, -speed, "held {held}");
    }
    assert!(p.spring_launch(true) > p.spring_launch(false));
}

#[test]
fn a_body_rising_through_a_pad_is_launched_only_when_its_rise_ends() {
    let l = level(&[
        "......", "......", "......", "..P...", "......", "......", "######",
    ]);
    let p = Physics::default();
    let mut b = Body::standing(Cell::new(2, 5), &p);
    b.step(&l, &p, Input::new(0, true, false));
    let mut rising_inside = false;
    for _ in 0..60 {
        let vy = b.vy;
        b.step(&l, &p, Input::new(0, true, false));
        if b.launched {
            // Launched on the tick the jump's rise ended, not before.
            assert!(
                vy + p.gravity * p.dt >= 0.0,
                "launched while rising at {vy}"
            );
            return;
        }
        rising_inside |= b.vy < 0.0 && b.y - p.box_h() < 4.0;
    }
    panic!("never launched (rose into the pad: {rising_inside})");
}

#[test]
fn cells_over_launchers_are_launch_nodes_and_links_ride_them() {
    use platnav::{NavMap, NodeType, SearchOptions, find_path};
    let (l, p) = (launch_room(), Physics::default());
    let map = NavMap::build(&l, &p).unwrap();
    for cell in [Cell::new(3, 8), Cell::new(7, 8)] {
        assert_eq!(map.classification().get(cell), NodeType::LAUNCH);
        assert!(map.node(cell).is_none());
    }
    // The ledge, six rows up, is out of a jump's reach: only a launch gets
    // there.
    let ledge = Cell::new(1, 2);
    let path = find_path(&map, Cell::new(10, 8), ledge, &SearchOptions::default()).unwrap();
    assert!(path.replay(&l, &p).stands_on(ledge));
    let flat: Level = l.to_string().replace(['P', 'Z'], ".").parse().unwrap();
    let without = NavMap::build(&flat, &p).unwrap();
    assert!(find_path(&without, Cell::new(10, 8), ledge, &SearchOptions::default()).is_err());
}

/// `levels/launchers.txt`: the goal's ledge is eleven rows up, within reach
/// only of a spring launched with jump held, which a spring jump (a jump
/// held to its landing) performs.
#[test]
fn a_spring_jump_rides_a_spring_with_jump_held_to_the_high_ledge() {
    use platnav::{LinkKind, NavMap, SearchOptions, find_path};
    let l: Level = std::fs::read_to_string("levels/launchers.txt")
        .unwrap()
        .parse()
        .unwrap();
    let p = Physics::default();
    let map = NavMap::build(&l, &p).unwrap();
    let goal = Cell::new(29, 1);
    let path = find_path(&map, Cell::new(1, 12), goal, &SearchOptions::default()).unwrap();
    assert!(path.replay(&l, &p).stands_on(goal));
    assert!(
        path.steps().iter().any(|s| s.kind == LinkKind::SPRING_JUMP),
        "{:?}",
        path.steps()
    );
    // Without springs' higher launch (the same speed held or not), no way up.
    let weak = Physics {
        spring_jump_speed: Some(p.spring_launch(false)),
        ..p.clone()
    };
    let map = NavMap::build(&l, &weak).unwrap();
    assert!(find_path(&map, Cell::new(1, 12), goal, &SearchOptions::default()).is_err());
}
