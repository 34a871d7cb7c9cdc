//! Conformance vectors for the extensions of `PHYSICS.md` (ladders, slopes,
//! coyote time, jump buffering, jump pads and springs): `mechanics-vectors.json` holds tick-by-tick
//! states produced by [`reference`], a second implementation written from
//! the text of `PHYSICS.md` alone (every rule recomputed from scratch, no
//! shared code with `Body::step`). `Body::step` must match every state,
//! and so must the reference (so the file cannot drift from it).
//!
//! Regenerate the file after a deliberate change of the rules with
//! `cargo test --test mechanics_vectors -- --ignored`.
//!
//! Cases with `platforms` ("Moving platforms") are written by hand, not
//! regenerated (regeneration keeps them as they are): each says in its
//! `note` how its states follow from the text. Besides the fields of the
//! other cases they may hold `start_tick` (the tick the first input steps
//! from, 0 when absent), `start_state` (a start that is no standing cell,
//! in the format of `states`, with jump not held) and `corners`
//! (`[platform, tick, x, y]`: where a platform's top-left corner is on a
//! tick, in whole steps `2^-36` of the position grid: JSON integers, which
//! `serde_json` reads exactly, where it may round a float's last bit).
//! `Body::step_moving` and the second implementation of the
//! platform rules in `platnav_naive::platforms` must match every state and
//! corner exactly.

use platnav::{
    Body, Cell, Input, Level, Physics, Tile,
    level::{Platform, Platforms, SplitMix64},
};
use platnav_naive::platforms as twin;
use serde_json::{Value, json};

const FILE: &str = "tests/mechanics-vectors.json";

/// The second implementation: `PHYSICS.md`, read rule by rule.
mod reference {
    use platnav::{Input, Level, Physics, Tile};

    /// `2^-30`, on the position grid.
    const EPS: f64 = 1.0 / 1073741824.0;

    /// `v` rounded to the nearest multiple of `2^-36` (ties to even): the
    /// position grid every displacement and box side is put on.
    fn grid(v: f64) -> f64 {
        let scale = 68719476736.0; // 2^36
        (v * scale).round_ties_even() / scale
    }

    /// A launch speed: the one given, or `min(default, 0.75 / dt)`.
    fn default_or(set: Option<f64>, default: f64, dt: f64) -> f64 {
        set.unwrap_or((0.75 / dt).min(default))
    }

    /// Half the box's width and its height, on the grid.
    fn half_w(p: &Physics) -> f64 {
        grid(p.w / 2.0)
    }
    fn box_h(p: &Physics) -> f64 {
        grid(p.h)
    }

    /// The body's state, as `PHYSICS.md` lists it.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct State {
        pub x: f64,
        pub y: f64,
        pub vx: f64,
        pub vy: f64,
        pub grounded: bool,
        pub air_jumps_left: u32,
        pub held: bool,
        pub dead: bool,
        pub climbing: bool,
        pub coyote_left: u32,
        pub buffer_left: u32,
        pub launched: bool,
        pub boost_tick: u32,
    }

    impl State {
        pub fn standing(col: i32, row: i32, p: &Physics) -> Self {
            Self {
                x: f64::from(col) + 0.5,
                y: f64::from(row) + 1.0,
                vx: 0.0,
                vy: 0.0,
                grounded: true,
                air_jumps_left: p.air_jumps,
                held: false,
                dead: false,
                climbing: false,
                coyote_left: 0,
                buffer_left: 0,
                launched: false,
                boost_tick: 0,
            }
        }
    }

    fn overlap(a0: f64, a1: f64, b0: f64, b1: f64) -> bool {
        a1.min(b1) - a0.max(b0) > EPS
    }

    /// The tiles `[lo, hi]` overlaps by more than EPS.
    fn tiles_over(lo: f64, hi: f64) -> Vec<i64> {
        let first = lo.floor() as i64 - 1;
        let last = hi.floor() as i64 + 1;
        (first..=last)
            .filter(|&t| overlap(lo, hi, t as f64, t as f64 + 1.0))
            .collect()
    }

    struct World<'a> {
        level: &'a Level,
        p: &'a Physics,
        ladders: bool,
        slopes: bool,
    }

    /// A slope tile: rises right, column, row.
    type Slope = (bool, i64, i64);

    impl World<'_> {
        /// "Space and units" and "Screen wrap": borders left, right and
        /// above solid, open below; across an edge that meets, the tile on
        /// the other side.
        fn at(&self, c: i64, r: i64) -> Tile {
            let (w, h) = (self.level.width() as i64, self.level.height() as i64);
            let wrap = self.level.wrap();
            let c = if wrap.x { c.rem_euclid(w) } else { c };
            let r = if wrap.y { r.rem_euclid(h) } else { r };
            if c < 0 || c >= w || r < 0 {
                Tile::SOLID
            } else if r >= h {
                Tile::EMPTY
            } else {
                self.level.tiles()[(r * w + c) as usize]
            }
        }
        /// Step 8's fall death: never on a level whose top and bottom meet.
        fn fell_out(&self, s: &State) -> bool {
            !self.level.wrap().y && s.y - box_h(self.p) > self.level.height() as f64
        }
        fn cols(&self, x: f64) -> Vec<i64> {
            tiles_over(x - half_w(self.p), x + half_w(self.p))
        }
        fn rows(&self, y: f64) -> Vec<i64> {
            tiles_over(y - box_h(self.p), y)
        }
        fn feet_row(&self, y: f64) -> Option<i64> {
            self.rows(y).last().copied()
        }
        fn ladder_top(&self, c: i64, r: i64) -> bool {
            self.at(c, r) == Tile::LADDER && self.at(c, r - 1) != Tile::LADDER
        }
        fn slope(&self, c: i64, r: i64) -> Option<Slope> {
            match self.at(c, r) {
                Tile::SLOPE_RIGHT => Some((true, c, r)),
                Tile::SLOPE_LEFT => Some((false, c, r)),
                _ => None,
            }
        }
        fn line(s: Slope, x: f64) -> f64 {
            let (right, c, r) = s;
            if right {
                (r + 1 + c) as f64 - x
            } else {
                (r - c) as f64 + x
            }
        }
        fn covers(s: Slope, c: i64, r: i64) -> bool {
            let (right, sc, sr) = s;
            // The tile's top-left (top-right) corner on or under the line.
            if right {
                c + r > sc + sr
            } else {
                r - c > sr - sc
            }
        }
        /// The slope tiles of the column of `x` with their surface at `x`
        /// in `[lo, hi]`, highest first.
        fn surfaces(&self, x: f64, lo: f64, hi: f64) -> Vec<(Slope, f64)> {
            if !self.slopes {
                return Vec::new();
            }
            let c = x.floor() as i64;
            let mut v: Vec<(Slope, f64)> = (lo.floor() as i64 - 2..=hi.floor() as i64 + 1)
                .filter_map(|r| self.slope(c, r))
                .map(|s| (s, Self::line(s, x)))
                .filter(|&(_, s)| lo <= s && s <= hi)
                .collect();
            v.sort_by(|a, b| a.1.total_cmp(&b.1));
            v
        }
        fn under(&self, x: f64, y: f64) -> Option<Slope> {
            self.surfaces(x, y - EPS, y + 1.0).first().map(|&(s, _)| s)
        }
        /// Whether tile (c, r) is a ghost of feet (x, y) with `u` under them.
        fn ghost(&self, x: f64, y: f64, u: Option<Slope>, c: i64, r: i64) -> bool {
            let t = self.at(c, r);
            let covered = u.is_some_and(|u| Self::covers(u, c, r));
            match self.slope(c, r) {
                Some(s) => y <= Self::line(s, x) + EPS || u == Some(s) || covered,
                None => matches!(t, Tile::SOLID | Tile::ONE_WAY | Tile::LADDER) && covered,
            }
        }
        fn blocks(&self, x: f64, y: f64, u: Option<Slope>, c: i64, r: i64) -> bool {
            let t = self.at(c, r);
            (t == Tile::SOLID || t.is_slope()) && !self.ghost(x, y, u, c, r)
        }
        /// A tile whose top holds feet up (step 7).
        fn holds(&self, x: f64, y: f64, u: Option<Slope>, c: i64, r: i64, down: bool) -> bool {
            if self.ghost(x, y, u, c, r) {
                return false;
            }
            match self.at(c, r) {
                Tile::SOLID | Tile::SLOPE_RIGHT | Tile::SLOPE_LEFT => true,
                Tile::ONE_WAY => !down,
                Tile::LADDER => !down && self.ladder_top(c, r),
                _ => false,
            }
        }
        fn wall(&self, s: &State, left: bool) -> bool {
            let edge = if left {
                s.x - half_w(self.p)
            } else {
                s.x + half_w(self.p)
            };
            let c = (edge + 0.5).floor();
            if (c - edge).abs() > EPS {
                return false;
            }
            let col = if left { c as i64 - 1 } else { c as i64 };
            let u = self.under(s.x, s.y);
            self.rows(s.y)
                .into_iter()
                .any(|r| self.blocks(s.x, s.y, u, col, r))
        }
        /// The greatest launch speed among the pads and springs the box
        /// overlaps ("Jump pads and springs", step 9).
        fn launch(&self, s: &State, jump: bool) -> Option<f64> {
            let p = self.p;
            let mut best: Option<f64> = None;
            for r in self.rows(s.y) {
                for c in self.cols(s.x) {
                    let v = match self.at(c, r) {
                        Tile::PAD => default_or(p.pad_speed, 24.0, p.dt),
                        Tile::SPRING if jump => default_or(p.spring_jump_speed, 32.0, p.dt),
                        Tile::SPRING => default_or(p.spring_speed, 16.0, p.dt),
                        _ => continue,
                    };
                    best = Some(best.map_or(v, |b: f64| b.max(v)));
                }
            }
            best
        }

        fn hazard(&self, s: &State) -> bool {
            self.rows(s.y).into_iter().any(|r| {
                self.cols(s.x)
                    .into_iter()
                    .any(|c| self.at(c, r) == Tile::HAZARD)
            })
        }
    }

    /// One tick, then step 10 of "Screen wrap".
    pub fn step(s: &mut State, level: &Level, p: &Physics, input: Input) {
        if s.dead {
            return;
        }
        rules(s, level, p, input);
        let (w, h) = (level.width() as f64, level.height() as f64);
        if level.wrap().x {
            if s.x < 0.0 {
                s.x += w;
            } else if s.x >= w {
                s.x -= w;
            }
        }
        if level.wrap().y {
            if s.y <= 0.0 {
                s.y += h;
            } else if s.y > h {
                s.y -= h;
            }
        }
    }

    /// Steps 0 to 9 and the timers.
    #[allow(clippy::too_many_lines)]
    fn rules(s: &mut State, level: &Level, p: &Physics, input: Input) {
        let w = World {
            level,
            p,
            ladders: level.tiles().contains(&Tile::LADDER),
            slopes: level.tiles().iter().any(|t| t.is_slope()),
        };
        let dt = p.dt;
        let pressed = input.jump && !s.held;
        let was_grounded = s.grounded;
        let mut ground_jump = false;
        let mut buffered = false;
        let mut jumped_off = false;

        // Step 0: ladders.
        if w.ladders && !s.climbing && !pressed && (input.up || input.down) {
            let c = s.x.floor() as i64;
            let in_ladder = (input.up || !s.grounded)
                && w.feet_row(s.y).is_some_and(|r| w.at(c, r) == Tile::LADDER);
            let r = (s.y + 0.5).floor();
            let on_top = input.down
                && !input.up
                && s.grounded
                && (r - s.y).abs() <= EPS
                && w.ladder_top(c, r as i64);
            let x = c as f64 + 0.5;
            let free = !w.rows(s.y).into_iter().any(|r| {
                w.cols(x).into_iter().any(|c| {
                    let t = w.at(c, r);
                    t == Tile::SOLID || t.is_slope()
                })
            });
            if (in_ladder || on_top) && free {
                s.x = x;
                s.vx = 0.0;
                s.vy = 0.0;
                s.climbing = true;
                s.grounded = false;
                s.air_jumps_left = p.air_jumps;
                s.buffer_left = 0;
            }
        }
        if s.climbing && pressed {
            s.climbing = false;
            s.vy = -p.jump_speed;
            jumped_off = true;
            ground_jump = true;
        } else if s.climbing {
            climb(s, &w, input);
            finish(s, p, input, was_grounded, false, false);
            return;
        }

        let u0 = w.under(s.x, s.y);
        let walls = if p.wall_jump.is_some() && !s.grounded {
            (w.wall(s, true), w.wall(s, false))
        } else {
            (false, false)
        };
        let on_slope = w.slopes
            && was_grounded
            && u0.is_some_and(|u| (World::line(u, s.x) - s.y).abs() <= EPS);

        // 1. Jump start.
        let mut started = true;
        if jumped_off {
        } else if pressed {
            if s.grounded || s.coyote_left > 0 {
                s.vy = -p.jump_speed;
                s.coyote_left = 0;
                ground_jump = true;
            } else if let (Some(wj), true) = (&p.wall_jump, walls.0 || walls.1) {
                s.vy = -wj.speed_y;
                s.vx = if walls.0 { wj.speed_x } else { -wj.speed_x };
            } else if s.air_jumps_left > 0 {
                s.vy = -p.jump_speed;
                s.air_jumps_left -= 1;
            } else {
                buffered = p.jump_buffer_ticks > 0;
                started = false;
            }
        } else if s.buffer_left > 0 && s.grounded {
            s.vy = -p.jump_speed;
            s.buffer_left = 0;
            ground_jump = true;
        } else {
            started = false;
        }
        // A jump that started ends a launch's rise.
        if started {
            s.launched = false;
        }
        // 2. Jump cut, not of a launch's rise.
        if !input.jump && !s.launched && s.vy < -p.jump_cut_speed {
            s.vy = -p.jump_cut_speed;
        }
        // 3. Run.
        let target = f64::from(input.move_x) * p.run_speed;
        let a = if s.grounded {
            p.ground_accel
        } else {
            p.air_accel
        };
        s.vx += (target - s.vx).clamp(-a * dt, a * dt);
        // 4. Fall.
        s.vy += p.gravity * dt;
        if let Some(wj) = &p.wall_jump {
            let toward = (input.move_x < 0 && walls.0) || (input.move_x > 0 && walls.1);
            if !s.grounded && s.vy > 0.0 && toward {
                s.vy = s.vy.min(wj.slide_speed);
            }
        }
        s.vy = s.vy.min(p.max_fall_speed);
        // 4b. The jump boost.
        if p.jump_boost > 0.0 && p.jump_boost_ticks > 0 {
            if ground_jump {
                s.boost_tick = 1;
            } else if s.boost_tick > 0 {
                if started || !input.jump || s.boost_tick >= p.jump_boost_ticks {
                    s.boost_tick = 0;
                } else {
                    s.boost_tick += 1;
                    let k = f64::from(s.boost_tick) / f64::from(p.jump_boost_ticks);
                    s.vy -= (p.jump_boost - p.jump_boost * k) * dt;
                }
            }
        }
        if s.vy >= 0.0 {
            s.launched = false;
        }

        // The tiles the box sank into: with a slope tile near, the
        // blocking tiles it overlaps as the tick starts.
        let (x0, y0) = (s.x, s.y);
        let near = w.slopes
            && tiles_over(y0 - box_h(p), y0 + 1.0).into_iter().any(|r| {
                tiles_over(x0 - half_w(p) - 1.0, x0 + half_w(p) + 1.0)
                    .into_iter()
                    .any(|c| w.slope(c, r).is_some())
            });
        let sunk: Vec<(i64, i64)> = if near {
            w.rows(y0)
                .into_iter()
                .flat_map(|r| w.cols(x0).into_iter().map(move |c| (c, r)))
                .filter(|&(c, r)| w.blocks(x0, y0, u0, c, r))
                .collect()
        } else {
            Vec::new()
        };

        // 5. Move x.
        s.x += grid(s.vx * dt);
        let hits: Vec<i64> = w
            .rows(y0)
            .into_iter()
            .flat_map(|r| w.cols(s.x).into_iter().map(move |c| (c, r)))
            .filter(|&(c, r)| w.blocks(x0, y0, u0, c, r) && !sunk.contains(&(c, r)))
            .map(|(c, _)| c)
            .collect();
        if !hits.is_empty() {
            if s.vx > 0.0 {
                s.x = *hits.iter().min().unwrap() as f64 - half_w(p);
            } else if s.vx < 0.0 {
                s.x = (*hits.iter().max().unwrap() + 1) as f64 + half_w(p);
            }
            s.vx = 0.0;
        }
        let dx = (s.x - x0).abs();
        let walks = w.slopes
            && was_grounded
            && !ground_jump
            && s.vy >= 0.0
            && (on_slope || !w.surfaces(s.x, s.y - dx - EPS, s.y + dx + EPS).is_empty());

        // 6. Move y.
        let y_prev = s.y;
        s.y += grid(s.vy * dt);
        let mut landed = false;
        if s.vy > 0.0 || (s.vy == 0.0 && walks) {
            let reached = w.surfaces(s.x, y_prev - dx - EPS, s.y).first().copied();
            let (gx, gy, gu) = match reached {
                Some((sl, sy)) => (s.x, sy, Some(sl)),
                None => (s.x, s.y, w.under(s.x, s.y)),
            };
            let mut best = reached.map_or(f64::INFINITY, |(_, y)| y);
            for r in w.rows(s.y) {
                for c in w.cols(s.x) {
                    if w.ghost(gx, gy, gu, c, r) {
                        continue;
                    }
                    let t = r as f64;
                    let from_above = y_prev <= t + EPS || (walks && y_prev <= t + dx + EPS);
                    // Ghosts as the tick started, and tiles sunk into, only
                    // from above, or a solid the slope under the feet
                    // covered.
                    let was_ghost = w.ghost(x0, y0, u0, c, r) || sunk.contains(&(c, r));
                    let covered = u0.is_some_and(|u| World::covers(u, c, r));
                    let lands = match w.at(c, r) {
                        Tile::SOLID => !was_ghost || from_above || covered,
                        Tile::SLOPE_RIGHT | Tile::SLOPE_LEFT => !was_ghost || from_above,
                        Tile::ONE_WAY => !input.down && from_above,
                        Tile::LADDER => !input.down && w.ladder_top(c, r) && from_above,
                        _ => false,
                    };
                    if lands {
                        best = best.min(t);
                    }
                }
            }
            if best.is_finite() {
                s.y = best;
                s.vy = 0.0;
                landed = true;
            }
        } else if s.vy < 0.0 {
            // Ride: feet that crossed a slope's line by moving x go on it.
            let crossed = w
                .surfaces(s.x, y_prev - dx - EPS, s.y)
                .into_iter()
                .find(|&(sl, line)| s.y > line + EPS && y0 <= World::line(sl, x0) + EPS);
            if let Some((_, line)) = crossed {
                s.y = line;
            }
            let u = w.under(s.x, s.y);
            let bottom = w
                .rows(s.y)
                .into_iter()
                .filter(|&r| {
                    w.cols(s.x)
                        .into_iter()
                        .any(|c| w.blocks(s.x, s.y, u, c, r) && !sunk.contains(&(c, r)))
                })
                .max();
            if let Some(r) = bottom {
                s.y = (r + 1) as f64 + box_h(p);
                s.vy = 0.0;
            }
        }
        if walks && !landed {
            let u = w.under(s.x, s.y);
            let reach = s.y + dx + EPS;
            let mut best = w
                .surfaces(s.x, s.y, reach)
                .first()
                .map_or(f64::INFINITY, |&(_, y)| y);
            for r in s.y.ceil() as i64..=reach.floor() as i64 {
                if w.cols(s.x)
                    .into_iter()
                    .any(|c| w.holds(s.x, s.y, u, c, r, input.down))
                {
                    best = best.min(r as f64);
                }
            }
            if best.is_finite() {
                s.y = best;
                s.vy = 0.0;
            }
        }
        // A walk up into a tile (a ceiling over a slope) does not move.
        if walks && s.y < y0 {
            let u = w.under(s.x, s.y);
            let hit = w.rows(s.y).into_iter().any(|r| {
                w.cols(s.x)
                    .into_iter()
                    .any(|c| w.blocks(s.x, s.y, u, c, r) && !sunk.contains(&(c, r)))
            });
            if hit {
                (s.x, s.y, s.vx, s.vy) = (x0, y0, 0.0, 0.0);
            }
        }

        // 7. Contacts.
        s.grounded = false;
        if s.vy == 0.0 {
            let u = w.under(s.x, s.y);
            let on = u.is_some_and(|u| (World::line(u, s.x) - s.y).abs() <= EPS);
            let r = (s.y + 0.5).floor();
            let top = (r - s.y).abs() <= EPS
                && w.cols(s.x)
                    .into_iter()
                    .any(|c| w.holds(s.x, s.y, u, c, r as i64, input.down));
            s.grounded = on || top;
        }
        if s.grounded {
            s.air_jumps_left = p.air_jumps;
        }
        // 8. Death.
        if w.fell_out(s) || w.hazard(s) {
            s.dead = true;
        }
        // 9. Launch: counts as a ground jump for the timers.
        if !s.dead
            && s.vy >= 0.0
            && let Some(v) = w.launch(s, input.jump)
        {
            s.vy = -v;
            s.grounded = false;
            s.launched = true;
            s.coyote_left = 0;
            s.boost_tick = 0;
            s.air_jumps_left = p.air_jumps;
            ground_jump = true;
        }
        finish(s, p, input, was_grounded, ground_jump, buffered);
    }

    /// A climbing tick (steps 1 to 7) and step 8.
    fn climb(s: &mut State, w: &World<'_>, input: Input) {
        let p = w.p;
        let c = s.x.floor() as i64;
        s.vx = 0.0;
        s.vy = p.climb_speed * (f64::from(u8::from(input.down)) - f64::from(u8::from(input.up)));
        let y_prev = s.y;
        s.y += grid(s.vy * p.dt);
        let stops = |r: i64| {
            w.cols(s.x).into_iter().any(|c| {
                let t = w.at(c, r);
                t == Tile::SOLID || t.is_slope()
            })
        };
        if s.vy < 0.0 {
            if let Some(r) = w.rows(s.y).into_iter().filter(|&r| stops(r)).max() {
                s.y = (r + 1) as f64 + box_h(p);
                s.vy = 0.0;
            }
            if let Some(r) = w.feet_row(y_prev)
                && w.ladder_top(c, r)
                && s.y <= r as f64 + EPS
            {
                s.y = r as f64;
                s.vy = 0.0;
                s.climbing = false;
                s.grounded = true;
            }
        } else if s.vy > 0.0
            && let Some(r) = w.rows(s.y).into_iter().filter(|&r| stops(r)).min()
        {
            s.y = r as f64;
            s.vy = 0.0;
            s.climbing = false;
            s.grounded = true;
        }
        if s.climbing && !w.feet_row(s.y).is_some_and(|r| w.at(c, r) == Tile::LADDER) {
            s.climbing = false;
        }
        if s.grounded {
            s.air_jumps_left = p.air_jumps;
        }
        if w.fell_out(s) || w.hazard(s) {
            s.dead = true;
        }
    }

    /// The end of every tick: the timers, then the held jump.
    fn finish(
        s: &mut State,
        p: &Physics,
        input: Input,
        was_grounded: bool,
        ground_jump: bool,
        buffered: bool,
    ) {
        s.coyote_left = if s.grounded || s.climbing {
            0
        } else if was_grounded && !ground_jump {
            p.coyote_ticks
        } else {
            s.coyote_left.saturating_sub(1)
        };
        s.buffer_left = if buffered {
            p.jump_buffer_ticks
        } else {
            s.buffer_left.saturating_sub(1)
        };
        if s.grounded || s.climbing {
            s.boost_tick = 0;
        }
        s.held = input.jump;
    }
}

// ---- The cases ------------------------------------------------------------

/// The levels the cases run on, by name.
fn levels() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        (
            "launchers",
            vec![
                "................",
                "................",
                "..#####.........",
                "................",
                "............H...",
                "............H...",
                "............H...",
                "....P....Z..H.^.",
                "################",
            ],
        ),
        (
            "pad under a ledge",
            vec![
                "..........",
                "..........",
                "..........",
                "###.......",
                "...PPP....",
                "##########",
            ],
        ),
        (
            "ladders",
            vec![
                "....................",
                "..............#.....",
                "....H.......H..=....",
                "....H.......H.H.....",
                "....H....#..H.H...^.",
                "###=H=####..H.H####.",
                "....H.......H.H.....",
                "....H.......H.H.....",
                "....H.........H.....",
                "....H.........H.....",
                "####################",
            ],
        ),
        (
            "slopes",
            vec![
                "......................",
                "......................",
                r"...\..................",
                "................=/....",
                r"......./##\...........",
                r"....../####\..........",
                r"##.../######\../##\/##",
                "######################",
            ],
        ),
        (
            "slope pit",
            vec![
                "............",
                "............",
                "............",
                "............",
                "............",
                "...H##......",
                "...H....####",
                "...H/##.####",
                "###....#####",
            ],
        ),
        (
            "slopes under ceilings",
            vec![
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "......####.....",
                ".....=====.....",
                "..../#../##....",
                "########^^#####",
            ],
        ),
        (
            "slope under a ledge",
            vec![
                "..............",
                "..............",
                "..............",
                ".......##.....",
                "..............",
                "...####.......",
                "..............",
                "...../P../###.",
                "#####^^^^^^###",
            ],
        ),
        (
            "slope under a one-way",
            vec![
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                ".......=====...",
                "......./###....",
                "##########....#",
            ],
        ),
        (
            "slope under a cap",
            vec![
                "............",
                "............",
                "............",
                "............",
                "............",
                "............",
                "..........##",
                "...#####../#",
                "####^^^^^###",
            ],
        ),
        (
            "wrapped",
            vec![
                "@wrap xy",
                "...H.......",
                "...H.......",
                "#..H...###.",
                r"...H......\",
                "...H...P...",
                "=#.H#..##.#",
            ],
        ),
        (
            // The hand-written moving platform cases' level: a ceiling
            // (row 1) to be crushed against, a wall (column 10) to be
            // carried into.
            "platforms",
            vec![
                "..............",
                "..####........",
                "..............",
                "..........#...",
                "..........#...",
                "..........#...",
                "..............",
                "..............",
                "..............",
                "##############",
            ],
        ),
        (
            "ledge",
            vec![
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
            ],
        ),
    ]
}

fn exact() -> Physics {
    Physics {
        dt: 1.0 / 64.0,
        climb_speed: 8.0,
        ..Physics::default()
    }
}

/// sq2's kind of jump on the exact profile's tick: a jump boost of 28
/// tiles/s² fading over 30 ticks, and no cut.
fn boosted() -> Physics {
    Physics {
        jump_speed: 9.0,
        jump_cut_speed: 9.0,
        gravity: 28.0,
        jump_boost: 28.0,
        jump_boost_ticks: 30,
        platform_velocity: platnav::physics::PlatformVelocity::None,
        ..exact()
    }
}

/// `(move, jump, down, up, ticks)` runs of one input.
type Program = Vec<(i8, bool, bool, bool, usize)>;

fn expand(program: &Program) -> Vec<Input> {
    program
        .iter()
        .flat_map(|&(m, j, d, u, n)| std::iter::repeat_n(Input::new(m, j, d).with_up(u), n))
        .collect()
}

/// A seeded program of `n` random runs, up and down included.
fn random_program(seed: u64, n: usize) -> Program {
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|_| {
            (
                rng.below(3) as i8 - 1,
                rng.chance(0.35),
                rng.chance(0.2),
                rng.chance(0.3),
                1 + rng.below(25) as usize,
            )
        })
        .collect()
}

/// A case: name, level, physics, start cell, inputs.
type Case = (String, &'static str, Physics, [i32; 2], Vec<Input>);

/// Every case.
fn cases() -> Vec<Case> {
    let d = Physics::default;
    let f = false;
    let t = true;
    let mut v: Vec<(String, &'static str, Physics, [i32; 2], Program)> = vec![
        (
            "climb a ladder up to a ceiling".into(),
            "ladders",
            exact(),
            [14, 9],
            vec![(0, f, f, t, 70)],
        ),
        (
            "climb a ladder up to its top and idle".into(),
            "ladders",
            exact(),
            [4, 9],
            vec![(0, f, f, t, 70), (0, f, f, f, 10)],
        ),
        (
            "down from a ladder top to the floor".into(),
            "ladders",
            exact(),
            [4, 1],
            vec![(0, f, t, f, 80)],
        ),
        (
            "climb, stop, jump off to the right".into(),
            "ladders",
            exact(),
            [4, 9],
            vec![(0, f, f, t, 20), (0, f, f, f, 5), (1, t, f, f, 60)],
        ),
        (
            "jump and catch a ladder holding up".into(),
            "ladders",
            exact(),
            [10, 9],
            vec![(1, t, f, t, 30), (0, f, f, t, 30)],
        ),
        (
            "climb down a ladder that ends in the air".into(),
            "ladders",
            exact(),
            [12, 1],
            vec![(0, f, t, f, 90)],
        ),
        (
            "walk over a ladder top and drop through a one-way".into(),
            "ladders",
            Physics::default(),
            [1, 4],
            vec![(1, f, f, f, 60), (0, f, t, f, 30)],
        ),
        (
            "slopes: walk right over everything".into(),
            "slopes",
            d(),
            [3, 6],
            vec![(1, f, f, f, 200)],
        ),
        (
            "slopes: walk left from the far end".into(),
            "slopes",
            d(),
            [21, 5],
            vec![(-1, f, f, f, 220)],
        ),
        (
            "slopes: jump up the hill and land on it".into(),
            "slopes",
            d(),
            [3, 6],
            vec![(1, f, f, f, 25), (1, t, f, f, 20), (0, f, f, f, 60)],
        ),
        (
            "slopes: a short jump into the hill rides up its surface".into(),
            "slopes",
            d(),
            [3, 6],
            vec![(1, f, f, f, 18), (1, t, f, f, 2), (1, f, f, f, 40)],
        ),
        (
            "slopes: falling beside a slope's foot, into its corner".into(),
            "slope pit",
            Physics::from_json_over(
                include_str!("../levels/repro/megaman.json"),
                &Physics::default(),
            )
            .unwrap(),
            [2, 7],
            vec![
                (1, f, f, f, 19),
                (0, f, f, f, 2),
                (-1, f, f, f, 2),
                (0, f, f, f, 1),
                (-1, f, f, f, 1),
                (0, f, f, f, 2),
                (-1, f, f, f, 1),
                (0, f, f, f, 3),
            ],
        ),
        (
            "slopes: a run up a slope under a ceiling too low".into(),
            "slopes under ceilings",
            Physics::sq2(),
            [7, 7],
            vec![
                (1, f, f, f, 12),
                (1, t, f, f, 2),
                (1, f, f, f, 11),
                (-1, f, f, f, 7),
                (0, f, f, f, 4),
            ],
        ),
        (
            "slopes: a jump onto a slope under a ledge".into(),
            "slope under a ledge",
            Physics::agile(),
            [4, 7],
            vec![
                (1, f, f, f, 6),
                (1, t, f, f, 2),
                (1, f, f, f, 1),
                (0, f, f, f, 1),
                (-1, f, f, f, 3),
                (0, f, f, f, 2),
            ],
        ),
        (
            "slopes: a drop past a slope's high corner onto the block".into(),
            "slope under a one-way",
            Physics::smb(),
            [7, 5],
            vec![(1, f, t, f, 2), (1, f, f, f, 12), (0, f, f, f, 12)],
        ),
        (
            "slopes: a jump out of a tile a slope let the box into".into(),
            "slope under a ledge",
            d(),
            [4, 7],
            vec![
                (1, f, f, f, 9),
                (1, t, f, f, 2),
                (1, f, f, f, 79),
                (1, t, f, f, 3),
                (-1, t, f, f, 21),
                (-1, f, f, f, 24),
                (0, f, f, f, 5),
            ],
        ),
        (
            "slopes: a run up to a cap too low".into(),
            "slope under a cap",
            Physics::smb(),
            [0, 7],
            vec![
                (1, f, f, f, 19),
                (1, t, f, f, 11),
                (1, f, f, f, 35),
                (0, f, f, f, 2),
                (-1, f, f, f, 8),
                (0, f, f, f, 3),
            ],
        ),
        (
            "slopes: bump a slope's underside".into(),
            "slopes",
            d(),
            [3, 6],
            vec![(0, t, f, f, 40)],
        ),
        (
            "coyote: a late jump after walking off".into(),
            "ledge",
            Physics {
                coyote_ticks: 4,
                ..Physics::default()
            },
            [2, 3],
            vec![(1, f, f, f, 27), (1, t, f, f, 40), (0, f, f, f, 60)],
        ),
        (
            "buffer: press before landing".into(),
            "ledge",
            Physics {
                jump_buffer_ticks: 5,
                coyote_ticks: 2,
                ..Physics::default()
            },
            [2, 3],
            vec![
                (1, f, f, f, 28),
                (0, t, f, f, 1),
                (0, f, f, f, 3),
                (0, t, f, f, 1),
                (0, f, f, f, 2),
                (0, t, f, f, 60),
            ],
        ),
    ];
    v.extend([
        (
            "pad: walk into it and ride the launch, jump released".into(),
            "launchers",
            d(),
            [1, 7],
            vec![(1, f, f, f, 20), (0, f, f, f, 90)],
        ),
        (
            "pad: a slower pad, drifting onto the ledge above".into(),
            "launchers",
            Physics {
                pad_speed: Some(20.0),
                ..Physics::default()
            },
            [6, 7],
            vec![(-1, f, f, f, 30), (0, f, f, f, 20), (-1, f, f, f, 60)],
        ),
        (
            "spring: fall onto it holding jump".into(),
            "launchers",
            d(),
            [7, 7],
            vec![(1, t, f, f, 12), (0, t, f, f, 100)],
        ),
        (
            "spring: fall onto it with jump released".into(),
            "launchers",
            Physics {
                coyote_ticks: 6,
                ..Physics::default()
            },
            [7, 7],
            vec![(1, t, f, f, 12), (0, f, f, f, 100)],
        ),
        (
            "pad: launched in coyote time, then a press that is no jump".into(),
            "pad under a ledge",
            Physics {
                coyote_ticks: 40,
                ..Physics::default()
            },
            [1, 2],
            vec![(1, f, f, f, 40), (1, t, f, f, 10), (0, f, f, f, 60)],
        ),
        (
            "spring: an air jump on the way up, then the ladder".into(),
            "launchers",
            Physics::agile(),
            [11, 7],
            vec![(-1, f, f, f, 20), (0, f, f, f, 10), (1, t, f, t, 60)],
        ),
    ]);
    v.extend([
        (
            "wrap: run out of the right edge and in at the left".into(),
            "wrapped",
            exact(),
            [9, 1],
            vec![(1, f, f, f, 50), (0, f, f, f, 20)],
        ),
        (
            "wrap: jump out of the left edge onto the slope".into(),
            "wrapped",
            Physics::agile(),
            [0, 4],
            vec![(-1, t, f, f, 30), (0, f, f, f, 30)],
        ),
        (
            "wrap: fall out of the bottom, in at the top and onto a pad".into(),
            "wrapped",
            d(),
            [5, 4],
            vec![(0, f, f, f, 10), (1, f, f, f, 70)],
        ),
        (
            "wrap: climb a ladder round the top and bottom".into(),
            "wrapped",
            exact(),
            [3, 4],
            vec![(0, f, f, t, 200), (0, f, t, f, 120)],
        ),
    ]);
    v.extend([
        (
            "boost: a held jump rises on its fading boost".into(),
            "launchers",
            boosted(),
            [1, 7],
            vec![(1, t, f, f, 45), (1, f, f, f, 30)],
        ),
        (
            "boost: letting go of the jump ends the boost".into(),
            "launchers",
            boosted(),
            [1, 7],
            vec![
                (1, t, f, f, 9),
                (1, f, f, f, 3),
                (1, t, f, f, 20),
                (0, f, f, f, 30),
            ],
        ),
        (
            "boost: a coyote jump boosts, a buffered one stops when let go".into(),
            "launchers",
            Physics {
                coyote_ticks: 5,
                jump_buffer_ticks: 6,
                ..boosted()
            },
            [2, 1],
            vec![
                (-1, f, f, f, 14),
                (-1, t, f, f, 25),
                (0, f, f, f, 10),
                (0, t, f, f, 40),
            ],
        ),
    ]);
    for (k, seed) in [3u64, 5, 8, 13].into_iter().enumerate() {
        let exact_or_agile = || {
            if k % 2 == 0 {
                exact()
            } else {
                Physics::agile()
            }
        };
        v.push((
            format!("wrapped: random program {seed}"),
            "wrapped",
            Physics {
                coyote_ticks: k as u32,
                ..exact_or_agile()
            },
            [[9, 1], [0, 4], [5, 4], [1, 4]][k],
            random_program(seed * 13, 40),
        ));
        v.push((
            format!("launchers: random program {seed}"),
            "launchers",
            Physics {
                coyote_ticks: 2 * k as u32,
                jump_buffer_ticks: k as u32,
                ..exact_or_agile()
            },
            [[1, 7], [7, 7], [11, 7], [6, 1]][k],
            random_program(seed * 11, 40),
        ));
        v.push((
            format!("boost: random program {seed} among launchers"),
            "launchers",
            Physics {
                coyote_ticks: k as u32,
                ..boosted()
            },
            [[1, 7], [7, 7], [11, 7], [6, 1]][k],
            random_program(seed * 17, 40),
        ));
        v.push((
            format!("ladders: random program {seed}"),
            "ladders",
            exact_or_agile(),
            [[4, 9], [10, 9], [16, 4], [2, 4]][k],
            random_program(seed, 30),
        ));
        v.push((
            format!("slopes: random program {seed}"),
            "slopes",
            Physics {
                coyote_ticks: 3 * k as u32,
                jump_buffer_ticks: 2 * k as u32,
                ..if k % 2 == 0 {
                    Physics::default()
                } else {
                    Physics::agile()
                }
            },
            [[3, 6], [8, 3], [14, 6], [21, 5]][k],
            random_program(seed * 7, 30),
        ));
    }
    v.into_iter()
        .map(|(n, l, p, s, prog)| (n, l, p, s, expand(&prog)))
        .collect()
}

fn state_of(b: &Body) -> Value {
    json!([
        b.x,
        b.y,
        b.vx,
        b.vy,
        b.grounded,
        b.dead,
        b.air_jumps_left,
        b.climbing,
        b.coyote_left,
        b.buffer_left,
        b.launched,
        b.boost_tick
    ])
}

fn reference_state(s: &reference::State) -> Value {
    json!([
        s.x,
        s.y,
        s.vx,
        s.vy,
        s.grounded,
        s.dead,
        s.air_jumps_left,
        s.climbing,
        s.coyote_left,
        s.buffer_left,
        s.launched,
        s.boost_tick
    ])
}

fn level_of(doc: &Value, name: &str) -> Level {
    let rows: Vec<&str> = doc["levels"][name]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    rows.join("\n").parse().unwrap()
}

/// Whether two states agree: positions and speeds within 1e-9, the rest
/// exactly.
fn same(a: &Value, b: &Value) -> bool {
    let (a, b) = (a.as_array().unwrap(), b.as_array().unwrap());
    a.len() == b.len()
        && (0..4).all(|i| (a[i].as_f64().unwrap() - b[i].as_f64().unwrap()).abs() <= 1e-9)
        && a[4..] == b[4..]
}

/// Whether two states are the same exactly: speeds and positions to the
/// last bit, the rest equal.
fn exactly(a: &Value, b: &Value) -> bool {
    let (a, b) = (a.as_array().unwrap(), b.as_array().unwrap());
    a.len() == b.len()
        && (0..4).all(|i| a[i].as_f64().unwrap().to_bits() == b[i].as_f64().unwrap().to_bits())
        && a[4..] == b[4..]
}

/// A state in the format of `states`, jump not held.
fn body_of(v: &Value) -> Body {
    let v = v.as_array().unwrap();
    let f = |i: usize| v[i].as_f64().unwrap();
    let b = |i: usize| v[i].as_bool().unwrap();
    let u = |i: usize| u32::try_from(v[i].as_u64().unwrap()).unwrap();
    Body {
        x: f(0),
        y: f(1),
        vx: f(2),
        vy: f(3),
        grounded: b(4),
        dead: b(5),
        air_jumps_left: u(6),
        climbing: b(7),
        coyote_left: u(8),
        buffer_left: u(9),
        launched: b(10),
        boost_tick: u(11),
        jump_held_last_tick: false,
    }
}

/// A case with moving platforms: its corners, then its states, against
/// `Body::step_moving` and the naive twin, exactly. Returns the ticks run
/// and whether the body died.
fn platform_case(case: &Value, level: &Level, p: &Physics) -> (usize, bool) {
    let name = case["name"].as_str().unwrap();
    assert!(
        case["note"].as_str().is_some_and(|n| !n.is_empty()),
        "{name}: a hand-written case says how it was computed"
    );
    let given: Vec<Platform> = serde_json::from_value(case["platforms"].clone()).unwrap();
    let platforms = Platforms::new(given.clone(), p.dt).unwrap();
    let lifts = twin::lay_out(&given, p.dt).unwrap();
    for c in case["corners"].as_array().into_iter().flatten() {
        let k = c[0].as_u64().unwrap() as usize;
        let tick = c[1].as_u64().unwrap();
        // Whole steps of the grid: exact in f64 below 2^53.
        let step = |v: &Value| v.as_i64().unwrap() as f64 / 68_719_476_736.0;
        let want = [step(&c[2]), step(&c[3])];
        let bits = |v: [f64; 2]| v.map(f64::to_bits);
        let got = platforms.all()[k].at(tick);
        assert_eq!(
            bits(got),
            bits(want),
            "case {name:?}: platform {k} on tick {tick}: Moving::at gives {got:?}, the vector says {want:?}"
        );
        let other = lifts[k].corner(tick);
        assert_eq!(
            bits(other),
            bits(want),
            "case {name:?}: platform {k} on tick {tick}: the twin gives {other:?}, the vector says {want:?}"
        );
    }
    let start_tick = case["start_tick"].as_u64().unwrap_or(0);
    let mut body = if case["start_state"].is_null() {
        let start = case["start"].as_array().unwrap();
        let cell = Cell::new(
            start[0].as_i64().unwrap() as i32,
            start[1].as_i64().unwrap() as i32,
        );
        Body::standing(cell, p)
    } else {
        body_of(&case["start_state"])
    };
    let mut other = body;
    let inputs = platnav::io::json::tape_from_json(&case["inputs"]).unwrap();
    let states = case["states"].as_array().unwrap();
    assert_eq!(inputs.len(), states.len(), "{name}");
    for (i, (&input, want)) in inputs.iter().zip(states).enumerate() {
        let tick = start_tick + i as u64;
        body.step_moving(level, &platforms, tick, p, input);
        twin::step(&mut other, level, &lifts, tick, p, input);
        let got = state_of(&body);
        assert!(
            exactly(&got, want),
            "case {name:?} tick {tick}: Body::step_moving gives {got} but the vector says {want}"
        );
        let theirs = state_of(&other);
        assert!(
            exactly(&theirs, want),
            "case {name:?} tick {tick}: the naive twin gives {theirs} but the vector says {want}"
        );
    }
    (inputs.len(), body.dead)
}

#[test]
fn body_and_reference_match_every_mechanics_vector() {
    let text = std::fs::read_to_string(FILE).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    assert!(cases.len() >= 20, "expected the full vector set");
    let mut ticks = 0;
    let mut seen = [false; 10];
    let (mut platform_cases, mut crushed) = (0, false);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        if !case["platforms"].is_null() {
            let level = level_of(&doc, case["level"].as_str().unwrap());
            let p: Physics = serde_json::from_value(case["physics"].clone()).unwrap();
            p.validate().unwrap();
            let (n, dead) = platform_case(case, &level, &p);
            platform_cases += 1;
            crushed |= dead;
            ticks += n;
            continue;
        }
        let level = level_of(&doc, case["level"].as_str().unwrap());
        let p: Physics = serde_json::from_value(case["physics"].clone()).unwrap();
        p.validate().unwrap();
        let start = case["start"].as_array().unwrap();
        let (col, row) = (
            start[0].as_i64().unwrap() as i32,
            start[1].as_i64().unwrap() as i32,
        );
        let mut body = Body::standing(Cell::new(col, row), &p);
        let mut twin = reference::State::standing(col, row, &p);
        let inputs = platnav::io::json::tape_from_json(&case["inputs"]).unwrap();
        let states = case["states"].as_array().unwrap();
        assert_eq!(inputs.len(), states.len(), "{name}");
        for (tick, (&input, want)) in inputs.iter().zip(states).enumerate() {
            let before = body;
            body.step(&level, &p, input);
            reference::step(&mut twin, &level, &p, input);
            let got = state_of(&body);
            assert!(
                same(&got, want),
                "case {name:?} tick {tick}: Body::step gives {got} but the vector says {want}"
            );
            let other = reference_state(&twin);
            assert!(
                same(&other, want),
                "case {name:?} tick {tick}: the reference gives {other} but the vector says {want}"
            );
            // On the position grid the two agree to the last bit.
            assert_eq!(
                got, other,
                "case {name:?} tick {tick}: body and reference differ"
            );
            seen[0] |= body.climbing;
            seen[1] |= body.grounded && body.y.fract() != 0.0;
            seen[2] |= body.coyote_left > 0;
            seen[3] |= body.buffer_left > 0;
            // Rising from a launch with jump released: the cut would apply.
            seen[4] |= body.launched && !input.jump && body.vy < -p.jump_cut_speed;
            seen[5] |= body.launched && body.vy < -p.pad_launch() - 1.0;
            seen[6] |= body.launched && !before.launched && before.coyote_left > 0;
            // Across an edge that meets: the feet moved by most of the width
            // (height) in one tick.
            seen[7] |= (body.x - before.x).abs() > level.width() as f64 / 2.0;
            seen[8] |= (body.y - before.y).abs() > level.height() as f64 / 2.0 && body.climbing;
            seen[9] |= body.boost_tick > 1;
            ticks += 1;
        }
    }
    assert!(ticks > 2000, "only {ticks} ticks compared");
    assert!(
        platform_cases >= 5 && crushed,
        "expected the moving platform vectors, a crush among them"
    );
    assert_eq!(
        seen, [true; 10],
        "climbing, on a slope, coyote time, a buffered press, an uncut launch, a held spring, \
         a launch in coyote time, across the side seam, climbing across the top seam, \
         a boosted rise"
    );
}

/// Writes `mechanics-vectors.json` from the reference implementation.
#[test]
#[ignore = "regenerates tests/mechanics-vectors.json; run after a deliberate change of the rules"]
fn regenerate_mechanics_vectors() {
    let levels = levels();
    let mut out = Vec::new();
    // The hand-written cases (moving platforms) are kept as they are.
    let old: Value = serde_json::from_str(&std::fs::read_to_string(FILE).unwrap()).unwrap();
    let kept: Vec<Value> = old["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| !c["platforms"].is_null())
        .cloned()
        .collect();
    for (name, level_name, p, start, inputs) in cases() {
        let rows = &levels.iter().find(|(n, _)| *n == level_name).unwrap().1;
        let level: Level = rows.join("\n").parse().unwrap();
        assert!(level.tiles().iter().all(|&t| t != Tile::GOAL));
        let mut s = reference::State::standing(start[0], start[1], &p);
        let states: Vec<Value> = inputs
            .iter()
            .map(|&i| {
                reference::step(&mut s, &level, &p, i);
                reference_state(&s)
            })
            .collect();
        out.push(json!({
            "name": name,
            "level": level_name,
            "physics": p,
            "start": start,
            "inputs": platnav::io::json::tape_to_json(&inputs),
            "states": states,
        }));
    }
    out.extend(kept);
    let doc = json!({
        "about": "Tick-by-tick states of PHYSICS.md bodies with its extensions (ladders, slopes, coyote time, jump buffering, jump boost, jump pads and springs, screen wrap, moving platforms): after each input, [x, y, vx, vy, grounded, dead, air_jumps_left, climbing, coyote_left, buffer_left, launched, boost_tick]. Produced by the second implementation in tests/mechanics_vectors.rs, written from PHYSICS.md alone; a conforming Body matches every state (positions and speeds within 1e-9, the rest exactly). Cases with `platforms` are computed by hand from the text (their `note` shows the arithmetic) and matched exactly; they may give `start_tick` (the tick the first input steps from, 0 when absent), `start_state` (a start in the format of the states, jump not held) and `corners` ([platform, tick, x * 2^36, y * 2^36]: a platform's top-left corner on a tick, in whole steps of the position grid, exact as JSON integers). Levels are platnav ASCII, top row first (a first row `@wrap xy` declares that the level's opposite edges meet); each case starts standing on `start` = [col, row]. Inputs are [move, jump, down] or [move, jump, down, up].",
        "levels": levels.iter().map(|(n, rows)| (n.to_string(), json!(rows))).collect::<serde_json::Map<_, _>>(),
        "cases": out,
    });
    std::fs::write(FILE, serde_json::to_string(&doc).unwrap() + "\n").unwrap();
}
