//! `Body::step` against a plain transcription of `PHYSICS.md` (the step as
//! it was before any fast path: every span recomputed, every tile looked up
//! again, the hazard test a fresh scan of the final box).
//!
//! On random levels (with hazards, without, and with hazards scattered in
//! the air), random physics and random states, the two must leave the body
//! bit-identical after every tick, through a [`Level`] (where the body may
//! take its shortcuts for ticks on the ground and ticks in the air with no
//! tile near), through a [`Frame`]
//! and through a recording view that logs the first lookup of every cell the
//! way the link templates' assumed world does: fast paths may skip repeated
//! lookups, never first ones, and never reorder them. Levels without
//! hazards take the shortcut of [`Tiles::holds`].

use std::cell::RefCell;
use std::collections::HashSet;

use platnav::{
    Body, Cell, Input, Level, Physics, Tile,
    level::SplitMix64,
    physics::{EPS, Frame, Tiles, WallJump, snap},
};

// ---- The plain step ------------------------------------------------------

fn overlaps(a0: f64, a1: f64, b0: f64, b1: f64) -> bool {
    a1.min(b1) - a0.max(b0) > EPS
}

fn ifloor(x: f64) -> i64 {
    let i = x as i64;
    if (i as f64) > x { i - 1 } else { i }
}

fn inearest(x: f64) -> i64 {
    ifloor(x + 0.5)
}

fn span(lo: f64, hi: f64) -> std::ops::Range<i64> {
    let mut first = ifloor(lo);
    let mut last = ifloor(hi);
    if !overlaps(lo, hi, first as f64, first as f64 + 1.0) {
        first += 1;
    }
    if !overlaps(lo, hi, last as f64, last as f64 + 1.0) {
        last -= 1;
    }
    first..last + 1
}

fn overlaps_kind<T: Tiles + ?Sized>(b: &Body, level: &T, p: &Physics, kind: Tile) -> bool {
    let (x0, x1) = (b.x - p.half_w(), b.x + p.half_w());
    let (y0, y1) = (b.y - p.box_h(), b.y);
    span(y0, y1).any(|r| span(x0, x1).any(|c| level.tile_at(c, r) == kind))
}

fn touches_wall<T: Tiles + ?Sized>(b: &Body, level: &T, p: &Physics, right: bool) -> bool {
    let edge = if right {
        b.x + p.half_w()
    } else {
        b.x - p.half_w()
    };
    let c = inearest(edge);
    if (c as f64 - edge).abs() > EPS {
        return false;
    }
    let col = if right { c } else { c - 1 };
    span(b.y - p.box_h(), b.y).any(|r| level.tile_at(col, r).is_solid())
}

#[allow(clippy::too_many_lines)]
fn plain_step<T: Tiles + ?Sized>(b: &mut Body, level: &T, p: &Physics, input: Input) {
    if b.dead {
        return;
    }
    let dt = p.dt;
    let pressed = input.jump && !b.jump_held_last_tick;
    let (wall_left, wall_right) = if p.wall_jump.is_some() && !b.grounded {
        (
            touches_wall(b, level, p, false),
            touches_wall(b, level, p, true),
        )
    } else {
        (false, false)
    };
    let (mut ground_jump, mut started) = (false, false);
    if pressed {
        if b.grounded {
            b.vy = -p.jump_speed;
            (ground_jump, started) = (true, true);
        } else if let (Some(wj), true) = (&p.wall_jump, wall_left || wall_right) {
            b.vy = -wj.speed_y;
            b.vx = if wall_left { wj.speed_x } else { -wj.speed_x };
            started = true;
        } else if b.air_jumps_left > 0 {
            b.vy = -p.jump_speed;
            b.air_jumps_left -= 1;
            started = true;
        }
    }
    if !input.jump && b.vy < -p.jump_cut_speed {
        b.vy = -p.jump_cut_speed;
    }
    let target = f64::from(input.move_x) * p.run_speed;
    let a = if b.grounded {
        p.ground_accel
    } else {
        p.air_accel
    };
    b.vx += (target - b.vx).clamp(-a * dt, a * dt);
    b.vy += p.gravity * dt;
    if let Some(wj) = &p.wall_jump {
        let toward_wall = (input.move_x < 0 && wall_left) || (input.move_x > 0 && wall_right);
        if !b.grounded && b.vy > 0.0 && toward_wall {
            b.vy = b.vy.min(wj.slide_speed);
        }
    }
    b.vy = b.vy.min(p.max_fall_speed);
    // The jump boost (PHYSICS.md, "Jump boost").
    if p.boosts() {
        if ground_jump {
            b.boost_tick = 1;
        } else if b.boost_tick > 0 {
            if started || !input.jump || b.boost_tick >= p.jump_boost_ticks {
                b.boost_tick = 0;
            } else {
                b.boost_tick += 1;
                let k = f64::from(b.boost_tick) / f64::from(p.jump_boost_ticks);
                b.vy -= (p.jump_boost - p.jump_boost * k) * dt;
            }
        }
    }

    b.x += snap(b.vx * dt);
    {
        let (x0, x1) = (b.x - p.half_w(), b.x + p.half_w());
        let (y0, y1) = (b.y - p.box_h(), b.y);
        let mut min_left = f64::INFINITY;
        let mut max_right = f64::NEG_INFINITY;
        for r in span(y0, y1) {
            for c in span(x0, x1) {
                if level.tile_at(c, r).is_solid() {
                    min_left = min_left.min(c as f64);
                    max_right = max_right.max(c as f64 + 1.0);
                }
            }
        }
        if min_left.is_finite() {
            if b.vx > 0.0 {
                b.x = min_left - p.half_w();
            } else if b.vx < 0.0 {
                b.x = max_right + p.half_w();
            }
            b.vx = 0.0;
        }
    }

    let y_prev = b.y;
    b.y += snap(b.vy * dt);
    {
        let (x0, x1) = (b.x - p.half_w(), b.x + p.half_w());
        let (y0, y1) = (b.y - p.box_h(), b.y);
        if b.vy > 0.0 {
            let mut top = f64::INFINITY;
            for r in span(y0, y1) {
                let t = r as f64;
                for c in span(x0, x1) {
                    let lands = match level.tile_at(c, r) {
                        Tile::SOLID => true,
                        Tile::ONE_WAY => !input.down && y_prev <= t + EPS,
                        _ => false,
                    };
                    if lands {
                        top = top.min(t);
                    }
                }
            }
            if top.is_finite() {
                b.y = top;
                b.vy = 0.0;
            }
        } else if b.vy < 0.0 {
            let mut bottom = f64::NEG_INFINITY;
            for r in span(y0, y1) {
                for c in span(x0, x1) {
                    if level.tile_at(c, r).is_solid() {
                        bottom = bottom.max(r as f64 + 1.0);
                    }
                }
            }
            if bottom.is_finite() {
                b.y = bottom + p.box_h();
                b.vy = 0.0;
            }
        }
    }

    b.grounded = false;
    if b.vy == 0.0 {
        let row = inearest(b.y);
        if (row as f64 - b.y).abs() <= EPS {
            let (x0, x1) = (b.x - p.half_w(), b.x + p.half_w());
            b.grounded = span(x0, x1).any(|c| match level.tile_at(c, row) {
                Tile::SOLID => true,
                Tile::ONE_WAY => !input.down,
                _ => false,
            });
        }
    }
    if b.grounded {
        b.air_jumps_left = p.air_jumps;
        b.boost_tick = 0;
    }
    if b.y - p.box_h() > level.rows() || overlaps_kind(b, level, p, Tile::HAZARD) {
        b.dead = true;
    }
    b.jump_held_last_tick = input.jump;
}

// ---- A view that logs first lookups --------------------------------------

/// Forwards to a level, logging `(tick, col, row)` the first time each cell
/// is looked up, as the link templates' assumed world records its checks.
struct Recorder<'a> {
    level: &'a Level,
    tick: std::cell::Cell<u32>,
    seen: RefCell<HashSet<(i64, i64)>>,
    log: RefCell<Vec<(u32, i64, i64)>>,
}

impl<'a> Recorder<'a> {
    fn new(level: &'a Level) -> Self {
        Self {
            level,
            tick: std::cell::Cell::new(0),
            seen: RefCell::new(HashSet::new()),
            log: RefCell::new(Vec::new()),
        }
    }
}

impl Tiles for Recorder<'_> {
    fn tile_at(&self, col: i64, row: i64) -> Tile {
        if self.seen.borrow_mut().insert((col, row)) {
            self.log.borrow_mut().push((self.tick.get(), col, row));
        }
        self.level.tile_at(col, row)
    }
    fn rows(&self) -> f64 {
        f64::INFINITY
    }
    /// Hazards, and no ladder, slope, pad or spring: the plain rules.
    fn holds(&self, tile: Tile) -> bool {
        !matches!(
            tile,
            Tile::LADDER | Tile::SLOPE_RIGHT | Tile::SLOPE_LEFT | Tile::PAD | Tile::SPRING
        )
    }
}

// ---- Random worlds -------------------------------------------------------

fn bits(b: &Body) -> [u64; 8] {
    [
        b.x.to_bits(),
        b.y.to_bits(),
        b.vx.to_bits(),
        b.vy.to_bits(),
        u64::from(b.grounded),
        u64::from(b.air_jumps_left),
        u64::from(b.jump_held_last_tick),
        u64::from(b.dead),
    ]
}

fn unit(rng: &mut SplitMix64) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// A generated level; `kind` 0 keeps its hazards, 1 removes them, 2 adds
/// hazards in the air.
fn level(seed: u64, kind: u64) -> Level {
    let mut rng = SplitMix64::new(seed ^ 0x5eed);
    let w = 8 + rng.below(40) as usize;
    let h = 6 + rng.below(20) as usize;
    let mut l = Level::generate(w, h, seed).unwrap();
    match kind {
        1 => {
            let hazards: Vec<Cell> = l.cells_of(Tile::HAZARD).collect();
            for c in hazards {
                l.set(c, Tile::EMPTY);
            }
        }
        2 => {
            for _ in 0..1 + rng.below((w * h / 8) as u64) {
                let c = Cell::new(rng.below(w as u64) as i32, rng.below(h as u64) as i32);
                l.set(c, Tile::HAZARD);
            }
        }
        _ => {}
    }
    l
}

fn physics(rng: &mut SplitMix64) -> Physics {
    let mut p = match rng.below(4) {
        0 => Physics::default(),
        1 => Physics::agile(),
        2 => Physics::smb(),
        _ => Physics::sq2(),
    };
    if rng.chance(0.3) {
        p.w = 0.2 + 2.5 * unit(rng);
        p.h = 0.2 + 3.5 * unit(rng);
    }
    if rng.chance(0.3) {
        p.wall_jump = Some(WallJump {
            speed_x: 6.0,
            speed_y: 15.0,
            slide_speed: 3.0,
        });
    }
    if rng.chance(0.05) {
        p.gravity = 0.0;
    }
    p
}

/// A random state: standing on a random cell, or anywhere with any speed.
fn state(rng: &mut SplitMix64, l: &Level, p: &Physics) -> Body {
    let (w, h) = (l.width() as f64, l.height() as f64);
    let cell = Cell::new(
        rng.below(l.width() as u64) as i32,
        rng.below(l.height() as u64) as i32,
    );
    let mut b = Body::standing(cell, p);
    if rng.chance(0.5) {
        // Often on a grid line, where the EPS tests decide.
        let on_line = |v: f64, rng: &mut SplitMix64| {
            if rng.chance(0.3) { v.round() } else { v }
        };
        b.x = on_line(-1.0 + (w + 2.0) * unit(rng), rng);
        if rng.chance(0.3) {
            b.x = (b.x + p.half_w()).round() - p.half_w();
        }
        b.y = on_line(-1.0 + (h + 3.0) * unit(rng), rng);
        b.vx = (unit(rng) - 0.5) * 2.0 * p.run_speed;
        b.vy = (unit(rng) - 0.5) * 2.0 * p.max_fall_speed;
        b.grounded = rng.chance(0.3);
        b.air_jumps_left = rng.below(3) as u32;
        b.jump_held_last_tick = rng.chance(0.5);
    }
    b
}

fn inputs(rng: &mut SplitMix64, n: usize) -> Vec<Input> {
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let input = Input::new(rng.below(3) as i8 - 1, rng.chance(0.4), rng.chance(0.15));
        for _ in 0..1 + rng.below(12) {
            out.push(input);
        }
    }
    out.truncate(n);
    out
}

#[test]
fn fast_step_is_bit_identical_to_the_plain_step() {
    let mut rng = SplitMix64::new(7);
    let mut ticks = 0u64;
    let mut hazard_deaths = 0u64;
    let mut hazard_free_ticks = 0u64;
    for seed in 0..240u64 {
        let kind = seed % 3;
        let l = level(seed, kind);
        for _ in 0..12 {
            let p = physics(&mut rng);
            let start = state(&mut rng, &l, &p);
            let tape = inputs(&mut rng, 120);
            let origin = Cell::new(
                rng.below(l.width() as u64) as i32,
                rng.below(l.height() as u64) as i32,
            );
            let frame = Frame::new(&l, origin);
            let mut in_frame = start;
            in_frame.x -= f64::from(origin.col);
            in_frame.y -= f64::from(origin.row);
            let (mut fast, mut plain) = (start, start);
            let (mut fast_f, mut plain_f) = (in_frame, in_frame);
            let (rec_fast, rec_plain) = (Recorder::new(&l), Recorder::new(&l));
            let (mut fast_r, mut plain_r) = (start, start);
            for (t, &input) in tape.iter().enumerate() {
                fast.step(&l, &p, input);
                plain_step(&mut plain, &l, &p, input);
                assert_eq!(
                    bits(&fast),
                    bits(&plain),
                    "level seed {seed} (kind {kind}), tick {t}, {p:?}\nfast {fast:?}\nplain {plain:?}"
                );
                fast_f.step(&frame, &p, input);
                plain_step(&mut plain_f, &frame, &p, input);
                assert_eq!(
                    bits(&fast_f),
                    bits(&plain_f),
                    "frame at {origin}, level seed {seed} (kind {kind}), tick {t}, {p:?}"
                );
                rec_fast.tick.set(t as u32);
                rec_plain.tick.set(t as u32);
                fast_r.step(&rec_fast, &p, input);
                plain_step(&mut plain_r, &rec_plain, &p, input);
                assert_eq!(bits(&fast_r), bits(&plain_r));
                assert_eq!(
                    *rec_fast.log.borrow(),
                    *rec_plain.log.borrow(),
                    "first lookups differ: level seed {seed} (kind {kind}), tick {t}, {p:?}"
                );
                ticks += 1;
                hazard_free_ticks += u64::from(kind == 1);
            }
            hazard_deaths += u64::from(plain.dead && overlaps_kind(&plain, &l, &p, Tile::HAZARD));
        }
    }
    // The sample must exercise both outcomes of the hazard test.
    assert!(ticks > 300_000 && hazard_free_ticks > 100_000);
    assert!(hazard_deaths > 100, "{hazard_deaths} deaths on hazards");
}

/// Whether the view says it holds exactly the kinds of tile the level
/// holds.
fn holds_truly(view: &impl Tiles, l: &Level) -> bool {
    Tile::ALL
        .into_iter()
        .all(|t| view.holds(t) == l.tiles().contains(&t))
}

#[test]
fn holds_follows_every_constructor_and_change() {
    let mut rng = SplitMix64::new(11);
    for seed in 0..200u64 {
        let mut l = level(seed, seed % 3);
        assert!(holds_truly(&l, &l), "seed {seed}");
        let rebuilt = Level::new(l.width(), l.height(), l.tiles().to_vec()).unwrap();
        assert!(holds_truly(&rebuilt, &l));
        let parsed: Level = l.to_string().parse().unwrap();
        assert!(holds_truly(&parsed, &l));
        for _ in 0..200 {
            let c = Cell::new(
                rng.below(l.width() as u64 + 2) as i32 - 1,
                rng.below(l.height() as u64 + 2) as i32 - 1,
            );
            let t = Tile::ALL[rng.below(Tile::COUNT as u64) as usize];
            l.set(c, t);
            assert!(holds_truly(&l, &l));
            assert!(holds_truly(&Frame::new(&l, c), &l));
        }
    }
    let empty = Level::empty(3, 3).unwrap();
    assert!(holds_truly(&empty, &empty) && !empty.holds(Tile::HAZARD));
}
