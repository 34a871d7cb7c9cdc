//! `Body::step_moving` and `Moving::at` against the second implementation of
//! "Moving platforms" (`docs/PHYSICS.md`) in `platnav_naive::platforms`,
//! written from the text alone: on seeded random levels with random
//! platforms, bodies and input tapes, for every `platform_velocity`, the
//! two must agree to the last bit on every tick, and the platforms must be
//! in the same place on every tick asked.
//!
//! The run counts the rules it exercised (rides, carries undone by a wall,
//! crushes, landings on platforms, velocity kept on leaving) and fails when
//! one never happened, so that it cannot pass by missing the scenarios.

use platnav::{
    Body, Cell, Input, Level, Physics, Tile,
    level::{Platform, PlatformLoop, Platforms},
    physics::PlatformVelocity,
};
use platnav_naive::platforms::{self as twin, Lift};

/// SplitMix64: a small seeded generator of the test's own.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n`.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Uniform in `lo..=hi`.
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
}

/// A level of the test: tiles, plus the places platforms are aimed at.
struct World {
    level: Level,
    /// Cells of solid bars with open space under them (ceilings).
    ceilings: Vec<(i64, i64)>,
    /// Cells of walls (solid columns) standing in open space.
    walls: Vec<(i64, i64)>,
}

/// A random level: a floor with holes, floating solid bars (floors and
/// ceilings), walls, one-way ledges and a few hazards; on half of them
/// ladders, jump pads, springs and slope tiles too.
fn random_world(rng: &mut Rng) -> World {
    let w = rng.int(22, 32) as usize;
    let h = rng.int(13, 18) as usize;
    let mut tiles = vec![Tile::EMPTY; w * h];
    let set = |t: &mut Vec<Tile>, c: i64, r: i64, tile: Tile| {
        if c >= 0 && r >= 0 && (c as usize) < w && (r as usize) < h {
            t[r as usize * w + c as usize] = tile;
        }
    };
    // The floor, with holes.
    for c in 0..w as i64 {
        if !rng.chance(0.08) {
            set(&mut tiles, c, h as i64 - 1, Tile::SOLID);
        }
    }
    let mut ceilings = Vec::new();
    let mut walls = Vec::new();
    // Solid bars.
    for _ in 0..rng.int(3, 6) {
        let (c, r, len) = (
            rng.int(1, w as i64 - 4),
            rng.int(1, h as i64 - 5),
            rng.int(2, 6),
        );
        for k in 0..len {
            set(&mut tiles, c + k, r, Tile::SOLID);
            ceilings.push((c + k, r));
        }
    }
    // Walls.
    for _ in 0..rng.int(2, 4) {
        let (c, r, len) = (
            rng.int(2, w as i64 - 3),
            rng.int(2, h as i64 - 5),
            rng.int(2, 5),
        );
        for k in 0..len {
            set(&mut tiles, c, r + k, Tile::SOLID);
            walls.push((c, r + k));
        }
    }
    // One-way ledges and hazards.
    for _ in 0..rng.int(1, 3) {
        let (c, r) = (rng.int(1, w as i64 - 4), rng.int(3, h as i64 - 3));
        for k in 0..rng.int(2, 4) {
            set(&mut tiles, c + k, r, Tile::ONE_WAY);
        }
    }
    for _ in 0..rng.int(0, 2) {
        set(
            &mut tiles,
            rng.int(0, w as i64 - 1),
            h as i64 - 2,
            Tile::HAZARD,
        );
    }
    // On some levels, the other mechanics: ladders, launchers, slopes.
    if rng.chance(0.5) {
        for _ in 0..rng.int(1, 2) {
            let (c, r) = (rng.int(1, w as i64 - 2), rng.int(2, h as i64 - 6));
            for k in 0..rng.int(3, 6) {
                set(&mut tiles, c, r + k, Tile::LADDER);
            }
        }
        for _ in 0..rng.int(1, 2) {
            let tile = if rng.chance(0.5) {
                Tile::PAD
            } else {
                Tile::SPRING
            };
            set(&mut tiles, rng.int(0, w as i64 - 1), h as i64 - 2, tile);
        }
        for _ in 0..rng.int(1, 3) {
            let tile = if rng.chance(0.5) {
                Tile::SLOPE_RIGHT
            } else {
                Tile::SLOPE_LEFT
            };
            set(&mut tiles, rng.int(0, w as i64 - 1), h as i64 - 2, tile);
        }
    }
    let level = Level::new(w, h, tiles).unwrap();
    // Keep the aims whose cell is still solid with open space under it
    // (ceilings) or beside it (walls).
    let open = |c: i64, r: i64| level.tile_at(c, r) != Tile::SOLID;
    ceilings.retain(|&(c, r)| level.tile_at(c, r) == Tile::SOLID && open(c, r + 1));
    walls
        .retain(|&(c, r)| level.tile_at(c, r) == Tile::SOLID && (open(c - 1, r) || open(c + 1, r)));
    World {
        level,
        ceilings,
        walls,
    }
}

/// A coordinate that is not on the position grid, most of the time (the
/// platform puts it there).
fn rough(rng: &mut Rng, lo: f64, hi: f64) -> f64 {
    if rng.chance(0.5) {
        (rng.range(lo, hi) * 8.0).round() / 8.0
    } else {
        rng.range(lo, hi)
    }
}

/// Random platforms: free ones anywhere, elevators rising into ceilings,
/// shuttles through walls.
fn random_platforms(rng: &mut Rng, world: &World) -> Vec<Platform> {
    let (w, h) = (world.level.width() as f64, world.level.height() as f64);
    let mut out = Vec::new();
    let n = rng.int(4, 7);
    for i in 0..n {
        let width = rng.int(1, 4) as u32;
        let height = rng.int(1, 2) as u32;
        let kind = i % 4;
        let points: Vec<[f64; 2]> = if kind == 3 {
            // Along the floor, its top a few grid steps off the floor's:
            // a body standing on the floor is within EPS of it, and rides.
            let g = 1.0 / (1u64 << 36) as f64;
            let y = h - 1.0 + g * rng.int(-40, 40) as f64;
            let x0 = rough(rng, 0.0, w - 6.0);
            vec![[x0, y], [x0 + rough(rng, 1.0, 8.0), y]]
        } else if kind == 1 && !world.ceilings.is_empty() {
            // Up into a ceiling: the top ends less than a body's height
            // under the ceiling's bottom, and starts a few tiles lower.
            let (c, r) = world.ceilings[rng.below(world.ceilings.len() as u64) as usize];
            let x = rough(rng, c as f64 - f64::from(width) + 0.5, c as f64 + 0.5);
            let near = r as f64 + 1.0 + rough(rng, 0.2, 1.6);
            let far = near + rough(rng, 2.0, 6.0);
            let mut v = vec![[x, far.min(h - 0.5)], [x, near]];
            if rng.chance(0.3) {
                v.push([x + rough(rng, -3.0, 3.0), near + 0.5]);
            }
            v
        } else if kind == 2 && !world.walls.is_empty() {
            // Sideways through a wall, at a height that puts a rider's box
            // against it.
            let (c, r) = world.walls[rng.below(world.walls.len() as u64) as usize];
            let y = r as f64 + rough(rng, 1.0, 2.5);
            let span = rough(rng, 2.0, 7.0);
            let x0 = c as f64 - span;
            let mut v = vec![[x0, y], [c as f64 + rough(rng, 0.0, 2.0), y]];
            if rng.chance(0.3) {
                v.push([x0 + 1.0, y + rough(rng, -2.0, 2.0)]);
            }
            v
        } else {
            let k = rng.int(2, 4);
            (0..k)
                .map(|_| [rough(rng, -1.0, w - 2.0), rough(rng, 1.0, h - 1.0)])
                .collect()
        };
        let offset = match rng.below(4) {
            0 => 0,
            1 => rng.below(1000),
            2 => rng.below(1 << 40),
            _ => rng.next(),
        };
        out.push(Platform {
            width,
            height,
            points,
            speed: rng.range(0.5, 8.0),
            pause: rng.below(31) as u32,
            looped: if rng.chance(0.5) {
                PlatformLoop::BackAndForth
            } else {
                PlatformLoop::Loop
            },
            offset,
        });
    }
    out
}

/// A tape of `n` ticks in held segments, biased to ride still, hold jump
/// and hold down some of the time.
fn random_tape(rng: &mut Rng, n: usize, still_first: bool) -> Vec<Input> {
    let mut tape = Vec::with_capacity(n);
    if still_first {
        let k = rng.int(20, 200) as usize;
        tape.extend(std::iter::repeat_n(Input::IDLE, k.min(n)));
    }
    while tape.len() < n {
        let len = rng.int(1, 40) as usize;
        let mv = match rng.below(5) {
            0 | 1 => 0,
            2 => -1,
            _ => 1,
        };
        let jump = rng.chance(0.35);
        let down = rng.chance(0.15);
        let up = rng.chance(0.08);
        // A held jump lets go now and then, so that it presses again.
        for k in 0..len {
            if tape.len() == n {
                break;
            }
            let release = jump && k % 13 == 12;
            tape.push(Input::new(mv, jump && !release, down).with_up(up));
        }
    }
    tape
}

/// The state's bits: every f64 by its bits, every other field as is.
fn bits(b: &Body) -> ([u64; 4], [bool; 5], [u32; 4]) {
    (
        [b.x.to_bits(), b.y.to_bits(), b.vx.to_bits(), b.vy.to_bits()],
        [
            b.grounded,
            b.jump_held_last_tick,
            b.dead,
            b.climbing,
            b.launched,
        ],
        [b.air_jumps_left, b.coyote_left, b.buffer_left, b.boost_tick],
    )
}

/// Whether the box of a body at `(x, y)` overlaps a solid tile (or border).
fn in_solid(level: &Level, x: f64, y: f64, p: &Physics) -> bool {
    let hw = twin::grid(p.w / 2.0);
    let hh = twin::grid(p.h);
    let over = |a0: f64, a1: f64, b0: f64| a1.min(b0 + 1.0) - a0.max(b0) > twin::EPS;
    (((y - hh).floor() as i64)..=(y.floor() as i64)).any(|r| {
        (((x - hw).floor() as i64)..=((x + hw).floor() as i64)).any(|c| {
            over(y - hh, y, r as f64)
                && over(x - hw, x + hw, c as f64)
                && level.tile_at(c, r) == Tile::SOLID
        })
    })
}

/// Whether the box of a body at `(x, y)` overlaps a slope tile.
fn touches_slope(level: &Level, x: f64, y: f64, p: &Physics) -> bool {
    let hw = twin::grid(p.w / 2.0);
    let hh = twin::grid(p.h);
    let over = |a0: f64, a1: f64, b0: f64| a1.min(b0 + 1.0) - a0.max(b0) > twin::EPS;
    (((y - hh).floor() as i64)..=(y.floor() as i64)).any(|r| {
        (((x - hw).floor() as i64)..=((x + hw).floor() as i64)).any(|c| {
            over(y - hh, y, r as f64)
                && over(x - hw, x + hw, c as f64)
                && matches!(level.tile_at(c, r), Tile::SLOPE_RIGHT | Tile::SLOPE_LEFT)
        })
    })
}

/// Random starts: standing on a platform, in the air above a platform's
/// path, anywhere in the air, or standing on a floor cell.
fn random_body(
    rng: &mut Rng,
    level: &Level,
    lifts: &[Lift],
    p: &Physics,
    tick: u64,
    which: usize,
) -> Option<Body> {
    let mut body = Body::standing(Cell::new(0, 0), p);
    for _ in 0..50 {
        match which % 4 {
            0 | 1 => {
                let k = rng.below(lifts.len() as u64) as usize;
                let [px, py] = lifts[k].corner(tick);
                body.x = twin::grid(px + rng.range(0.05, lifts[k].width - 0.05));
                body.y = py;
                body.grounded = true;
            }
            2 => {
                let k = rng.below(lifts.len() as u64) as usize;
                let [px, py] = lifts[k].corner(tick + rng.below(60));
                body.x = twin::grid(px + rng.range(0.0, lifts[k].width));
                body.y = twin::grid(py - rng.range(0.5, 4.0));
                body.vx = rng.range(-6.0, 6.0);
                body.vy = rng.range(-10.0, 10.0);
                body.grounded = false;
            }
            _ => {
                let c = rng.int(0, level.width() as i64 - 1) as i32;
                let r = rng.int(1, level.height() as i64 - 2) as i32;
                body = Body::standing(Cell::new(c, r), p);
                let on_floor = level.tile_at(i64::from(c), i64::from(r) + 1) == Tile::SOLID;
                if !on_floor {
                    body.grounded = false;
                }
            }
        }
        if body.y > 1.0 + p.h && !in_solid(level, body.x, body.y, p) {
            return Some(body);
        }
    }
    None
}

/// How often each rule ran.
#[derive(Default, Debug)]
struct Seen {
    ticks: u64,
    rides: u64,
    /// Rides with the feet within EPS of the top but not on it.
    rides_off_top: u64,
    x_undone: u64,
    y_undone: u64,
    crushed: u64,
    landed: u64,
    kept_horizontal: u64,
    kept_all: u64,
    kept_vertical: u64,
    /// Rides that ended climbing a ladder, or launched.
    rode_to_ladder: u64,
    rode_to_launch: u64,
    /// Carries that put the box into a slope tile (not `Solid`: no undo).
    carried_into_slope: u64,
}

/// The profiles the bodies run with: the default and the agile one (air
/// and wall jumps), with coyote time and jump buffering on some.
fn profile(k: u64, velocity: PlatformVelocity) -> Physics {
    let base = if k.is_multiple_of(2) {
        Physics::default()
    } else {
        Physics::agile()
    };
    let p = Physics {
        platform_velocity: velocity,
        coyote_ticks: if k % 3 == 1 { 4 } else { 0 },
        jump_buffer_ticks: if k % 3 == 2 { 3 } else { 0 },
        ..base
    };
    p.validate().unwrap();
    p
}

const VELOCITIES: [PlatformVelocity; 3] = [
    PlatformVelocity::None,
    PlatformVelocity::Horizontal,
    PlatformVelocity::All,
];

#[test]
fn step_moving_matches_the_twin_bit_for_bit() {
    let mut seen = Seen::default();
    // `PLATFORM_TWIN_SEEDS=n` runs more worlds (a longer hunt).
    let seeds = std::env::var("PLATFORM_TWIN_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(120u64);
    for seed in 0..seeds {
        let mut rng = Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0xABCD);
        let world = random_world(&mut rng);
        let level = &world.level;
        let velocity = VELOCITIES[(seed % 3) as usize];
        let p = profile(seed / 3, velocity);
        let given = random_platforms(&mut rng, &world);
        let platforms = Platforms::new(given.clone(), p.dt)
            .unwrap_or_else(|e| panic!("seed {seed}: the library refuses {e}: {given:?}"));
        let lifts = twin::lay_out(&given, p.dt)
            .unwrap_or_else(|e| panic!("seed {seed}: the twin refuses {e:?}: {given:?}"));
        for which in 0..6 {
            let start = if rng.chance(0.5) {
                0
            } else {
                rng.below(1 << 33)
            };
            let Some(mut body) = random_body(&mut rng, level, &lifts, &p, start, which) else {
                continue;
            };
            let mut other = body;
            let len = rng.int(300, 600) as usize;
            let tape = random_tape(&mut rng, len, which % 4 <= 1);
            for (i, &input) in tape.iter().enumerate() {
                let tick = start + i as u64;
                let before = body;
                let rides = body.riding(&platforms, tick, &p);
                let twin_rides = twin::rides(&other, &lifts, tick, &p);
                body.step_moving(level, &platforms, tick, &p, input);
                let ev = twin::step(&mut other, level, &lifts, tick, &p, input);
                if bits(&body) != bits(&other) || rides != twin_rides {
                    let corners: Vec<_> = (0..lifts.len())
                        .map(|k| (lifts[k].corner(tick), lifts[k].corner(tick + 1)))
                        .collect();
                    panic!(
                        "seed {seed}, body {which}, tick {tick} (tape index {i}), {velocity:?}\n\
                         input {input:?}\nbefore  {before:?}\n\
                         library {body:?} (rides {rides:?})\n\
                         twin    {other:?} (rides {twin_rides:?}, {ev:?})\n\
                         corners at tick and tick + 1: {corners:?}\nplatforms {given:?}"
                    );
                }
                seen.ticks += 1;
                seen.rides += u64::from(ev.rode.is_some());
                if let Some(k) = ev.rode {
                    seen.rides_off_top += u64::from(before.y != lifts[k].top(tick));
                    seen.rode_to_ladder += u64::from(body.climbing);
                    seen.rode_to_launch += u64::from(body.launched);
                    let dx = lifts[k].corner(tick + 1)[0] - lifts[k].corner(tick)[0];
                    seen.carried_into_slope +=
                        u64::from(dx != 0.0 && touches_slope(level, before.x + dx, before.y, &p));
                }
                seen.x_undone += u64::from(ev.x_undone);
                seen.y_undone += u64::from(ev.y_undone);
                seen.crushed += u64::from(ev.crushed);
                seen.landed += u64::from(ev.landed);
                if ev.kept {
                    match velocity {
                        PlatformVelocity::Horizontal => seen.kept_horizontal += 1,
                        PlatformVelocity::All => {
                            seen.kept_all += 1;
                            let k = ev.rode.unwrap();
                            let vertical = lifts[k].top(tick + 1) != lifts[k].top(tick);
                            seen.kept_vertical += u64::from(vertical);
                        }
                        PlatformVelocity::None => unreachable!("none keeps nothing"),
                    }
                }
                if body.dead {
                    break;
                }
            }
        }
    }
    println!("{seen:?}");
    assert!(seen.ticks > 50_000, "{seen:?}");
    assert!(
        seen.rides > 1_000,
        "too few ticks rode a platform: {seen:?}"
    );
    assert!(
        seen.rides_off_top > 0,
        "no ride within EPS of a top but off it: {seen:?}"
    );
    assert!(seen.x_undone > 0, "no carry met a wall: {seen:?}");
    assert!(
        seen.y_undone > 0,
        "no sinking platform left its rider: {seen:?}"
    );
    assert!(seen.crushed > 0, "no body was crushed: {seen:?}");
    assert!(seen.landed > 0, "no body landed on a platform: {seen:?}");
    assert!(
        seen.kept_horizontal > 0 && seen.kept_all > 0 && seen.kept_vertical > 0,
        "no body left a platform with its velocity: {seen:?}"
    );
}

/// Platforms of every shape: one point, repeated points, long paths, big
/// offsets.
fn any_platform(rng: &mut Rng) -> Platform {
    let n = match rng.below(6) {
        0 => 1,
        1 => 2,
        2 => rng.int(3, 6) as usize,
        _ => rng.int(2, 4) as usize,
    };
    let mut points: Vec<[f64; 2]> = (0..n)
        .map(|_| [rough(rng, -20.0, 300.0), rough(rng, -20.0, 200.0)])
        .collect();
    if n > 2 && rng.chance(0.3) {
        points[1] = points[0];
    }
    Platform {
        width: rng.int(1, 64) as u32,
        height: rng.int(1, 64) as u32,
        points,
        speed: if rng.chance(0.2) {
            rng.range(20.0, 59.0)
        } else {
            rng.range(0.5, 8.0)
        },
        pause: rng.below(40) as u32,
        looped: if rng.chance(0.5) {
            PlatformLoop::BackAndForth
        } else {
            PlatformLoop::Loop
        },
        offset: match rng.below(3) {
            0 => rng.below(100),
            1 => rng.below(1 << 40),
            _ => rng.next(),
        },
    }
}

#[test]
fn platforms_are_where_the_text_puts_them() {
    let mut rng = Rng(0x5EED);
    let mut compared = 0u64;
    for case in 0..300 {
        let dt = if case % 4 == 3 {
            1.0 / 144.0
        } else {
            1.0 / 60.0
        };
        let given = any_platform(&mut rng);
        let lift = match Lift::new(&given, dt) {
            Ok(l) => l,
            Err(why) => {
                assert!(
                    Platforms::new(vec![given.clone()], dt).is_err(),
                    "case {case}: the twin refuses ({why}) what the library takes: {given:?}"
                );
                continue;
            }
        };
        let platforms = Platforms::new(vec![given.clone()], dt)
            .unwrap_or_else(|e| panic!("case {case}: the library refuses {e}: {given:?}"));
        let moving = &platforms.all()[0];
        let period = lift.period();
        assert_eq!(moving.period(), period, "case {case}: periods: {given:?}");
        // Every tick of the first periods, then ticks far away.
        let mut ticks: Vec<u64> = (0..(3 * period).min(3000)).collect();
        ticks.extend((0..200).map(|_| rng.next()));
        ticks.extend((0..200).map(|_| rng.below(1 << 40)));
        ticks.extend([u64::MAX, u64::MAX - 1, 1 << 63, 216_000 * 1_000_000]);
        for &t in &ticks {
            let want = lift.corner(t);
            let got = moving.at(t);
            assert!(
                want[0].to_bits() == got[0].to_bits() && want[1].to_bits() == got[1].to_bits(),
                "case {case}, tick {t}: library {got:?}, twin {want:?}, period {period}: {given:?}"
            );
            // Whole periods later, the same place.
            if let Some(later) = t.checked_add(period * 7) {
                assert_eq!(lift.corner(later), want, "case {case}, tick {t}");
            }
            compared += 1;
        }
    }
    assert!(compared > 100_000, "only {compared} positions compared");
}

#[test]
fn malformed_platforms_are_refused_alike() {
    let good = Platform {
        width: 2,
        height: 1,
        points: vec![[1.0, 1.0], [5.0, 1.0]],
        speed: 3.0,
        pause: 0,
        looped: PlatformLoop::BackAndForth,
        offset: 0,
    };
    let dt = 1.0 / 60.0;
    let cases = [
        Platform {
            width: 0,
            ..good.clone()
        },
        Platform {
            width: 65,
            ..good.clone()
        },
        Platform {
            height: 0,
            ..good.clone()
        },
        Platform {
            height: 65,
            ..good.clone()
        },
        Platform {
            points: vec![],
            ..good.clone()
        },
        Platform {
            points: vec![[0.0, 0.0]; 257],
            ..good.clone()
        },
        Platform {
            speed: 0.0,
            ..good.clone()
        },
        Platform {
            speed: 60.0,
            ..good.clone()
        },
        Platform {
            speed: 59.9,
            ..good.clone()
        },
        Platform {
            width: 64,
            height: 64,
            points: vec![[0.0, 0.0]; 256],
            ..good.clone()
        },
        Platform {
            points: vec![[0.0, 0.0], [1000.0, 0.0]],
            speed: 0.5,
            pause: 0,
            ..good.clone()
        },
        Platform {
            pause: 108_000,
            ..good.clone()
        },
        Platform {
            pause: 107_000,
            ..good.clone()
        },
    ];
    for (i, c) in cases.iter().enumerate() {
        let lib = Platforms::new(vec![c.clone()], dt).is_ok();
        let ours = Lift::new(c, dt).is_ok();
        assert_eq!(
            lib, ours,
            "case {i}: library ok {lib}, twin ok {ours}: {c:?}"
        );
    }
}

/// "A single point is a platform that stays there: one leg of 1 tick, no
/// pause, a period of 1", whatever the mode and the pause.
#[test]
fn a_single_point_is_one_leg_of_one_tick() {
    let dt = 1.0 / 60.0;
    for looped in [PlatformLoop::BackAndForth, PlatformLoop::Loop] {
        let still = Platform {
            width: 2,
            height: 1,
            points: vec![[3.0, 4.0]],
            speed: 2.0,
            pause: 5,
            looped,
            offset: 0,
        };
        let platforms = Platforms::new(vec![still.clone()], dt).unwrap();
        assert_eq!(Lift::new(&still, dt).unwrap().period(), 1);
        assert_eq!(platforms.all()[0].period(), 1, "{looped:?}");
    }
}
