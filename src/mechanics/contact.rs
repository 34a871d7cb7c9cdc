//! How tiles stop and hold the body where ladders or slopes are in play
//! (`PHYSICS.md`, "Ladders" and "Slopes"): steps 1 to 8 of a tick when the
//! body is not climbing, with ladder tops as platforms and slopes with
//! their ghosts and surfaces; and the questions the classifier and the
//! families ask about a body's position (what blocks it, what holds it up,
//! whether a wall touches it), which on such levels see the same tiles.
//!
//! Written plainly, one lookup after another: only levels that hold a
//! ladder or a slope come here, and wherever none is in reach every rule
//! reduces to the plain one of the base rules (`base.rs`).

use std::cell::OnceCell;
use std::ops::Range;

use super::BodyRuleList;
use super::base::solid;
use super::ladder::is_top;
use super::seam::RuleList;
use super::slope::{self, Ghosts, surfaces};
use crate::level::Tile;
use crate::physics::geometry::{EPS, ifloor, inearest, snap, span, wall_at};
use crate::physics::{Body, Input, Physics, Tiles};

/// A tick of a body not on a ladder; `jumped_before`: a mechanic's step 0
/// started a jump (jumping off a ladder), which is this tick's step 1.
pub(super) fn steps<T: Tiles + ?Sized>(
    b: &mut Body,
    level: &T,
    p: &Physics,
    input: Input,
    pressed: bool,
    jumped_before: bool,
) {
    let slopes = slope::active(level);
    let was_grounded = b.grounded;
    let g0 = ghosts_at(level, b.x, b.y);
    let rows = span(b.y - p.box_h(), b.y);
    let blocks0 = |t: Tile, c: i64, r: i64| g0.blocks(t, c, r);
    let walls = if p.wall_jump.is_some() && !b.grounded {
        (
            wall_at(level, b.x - p.half_w(), -1, rows.clone(), blocks0),
            wall_at(level, b.x + p.half_w(), 0, rows.clone(), blocks0),
        )
    } else {
        (false, false)
    };
    // Standing on a slope as the tick starts.
    let on_slope = slopes && was_grounded && g0.standing().is_some();

    // 1. to 4.
    let jumped = b.impulses(p, input, pressed, jumped_before, walls);
    let follows = was_grounded && !jumped.ground && b.vy >= 0.0;

    // The tiles the box sank into: blocking, and overlapped as the tick
    // starts (only a slope's ghosts let a box in). They neither push it
    // out through themselves nor hold it up from below. Found the first
    // time a blocking tile asks, which is rare.
    let (x_prev, y_start) = (b.x, b.y);
    let sunk_tiles = OnceCell::new();
    let sunk = |c: i64, r: i64| {
        slopes
            && sunk_tiles
                .get_or_init(|| sunk_into(level, p, (x_prev, y_start), &g0, rows.clone()))
                .contains(&(c, r))
    };

    // 5. Move x, against solid and slope tiles that are not ghosts of the
    // start position and the box did not sink into.
    let blocks_x = |t: Tile, c: i64, r: i64| g0.blocks(t, c, r) && !sunk(c, r);
    let cols = b.move_x(level, p, rows.clone(), blocks_x);
    let dx = (b.x - x_prev).abs();
    // Walking on or onto a slope: the body follows the ground, on a slope
    // at the start or with a slope surface within `dx` of its feet now.
    let walks = slopes
        && follows
        && (on_slope
            || surfaces(level, b.x, b.y - dx - EPS, b.y + dx + EPS)
                .next()
                .is_some());

    // 6. Move y.
    let m = MoveY {
        level,
        p,
        input,
        g0,
        cols,
        dx,
        walks,
        sunk: &sunk,
        x_prev,
        y_prev: b.y,
    };
    b.y += snap(b.vy * p.dt);
    let mut landed = false;
    if b.vy > 0.0 || (b.vy == 0.0 && walks) {
        landed = m.fall(b);
    } else if b.vy < 0.0 {
        m.rise(b);
    }
    // 6b. Stick.
    if walks && !landed {
        m.stick(b);
    }
    // 6c. A walk up that would put the box into a tile (a slope under a
    // ceiling too low for it) does not move.
    if walks && b.y < y_start && m.collides(b) {
        (b.x, b.y, b.vx, b.vy) = (x_prev, y_start, 0.0, 0.0);
    }

    // 7. Contacts.
    m.contacts(b);

    // 8. Death.
    if b.y - p.box_h() > level.rows() || b.overlaps_kind(level, p, Tile::HAZARD) {
        b.dead = true;
    }
    // 9. Touch: a launch counts as a ground jump (no coyote time after it).
    let mut jumped = jumped;
    if !b.dead && BodyRuleList::touch(b, level, p, input) {
        jumped.ground = true;
    }
    b.end_tick(p, input, was_grounded, jumped);
}

/// What move y (step 6) and the contacts (step 7) of the extended steps
/// read: the tick's input, the ghosts of the feet as the tick started, the
/// columns of the box after move x and how far it moved, whether the body
/// walks, the tiles the box sank into, and the feet's x before move x and
/// y before move y.
struct MoveY<'a, T: Tiles + ?Sized> {
    level: &'a T,
    p: &'a Physics,
    input: Input,
    g0: Ghosts,
    cols: Range<i64>,
    dx: f64,
    walks: bool,
    sunk: &'a dyn Fn(i64, i64) -> bool,
    x_prev: f64,
    y_prev: f64,
}

impl<T: Tiles + ?Sized> MoveY<'_, T> {
    /// One-way tops (and ladder tops) a falling body lands on: those it
    /// was above, or (walking on a slope) at most `dx` under.
    #[inline]
    fn lands_from_above(&self, r: i64) -> bool {
        self.y_prev <= r as f64 + EPS || (self.walks && self.y_prev <= r as f64 + self.dx + EPS)
    }

    /// A falling (or walking) body lands on the highest candidate: the
    /// slope surface its feet reach, or the top of a tile the moved box
    /// overlaps that holds it (see `PHYSICS.md`, "Slopes", step 6).
    /// Returns whether it landed.
    fn fall(&self, b: &mut Body) -> bool {
        let (level, input) = (self.level, self.input);
        // The highest slope surface the feet reach: one they were at
        // most `dx` under, and are on or under now.
        let feet = if slope::active(level) {
            surfaces(level, b.x, self.y_prev - self.dx - EPS, b.y).next()
        } else {
            None
        };
        // Ghosts as seen from where the feet land on that surface.
        let g = match feet {
            Some((s, y)) => Ghosts::on(b.x, y, s),
            None => ghosts_at(level, b.x, b.y),
        };
        let mut best = feet.map_or(f64::INFINITY, |(_, y)| y);
        for r in span(b.y - self.p.box_h(), b.y) {
            for c in self.cols.clone() {
                let t = level.tile_at(c, r);
                let lands = match t {
                    _ if g.ghost(t, c, r) => false,
                    // A tile that was a ghost as the tick started, or that
                    // the box sank into, only from above (one that stops
                    // being a ghost as the feet sink is not landed on, a
                    // row up); or a solid tile the slope under the feet
                    // covered (they left its column above its line).
                    Tile::SOLID | Tile::SLOPE_RIGHT | Tile::SLOPE_LEFT => {
                        self.lands_from_above(r)
                            || (!self.g0.ghost(t, c, r) && !(self.sunk)(c, r))
                            || (t == Tile::SOLID && self.g0.covered(c, r))
                    }
                    Tile::ONE_WAY => !input.down && self.lands_from_above(r),
                    Tile::LADDER => !input.down && is_top(level, c, r) && self.lands_from_above(r),
                    _ => false,
                };
                if lands && (r as f64) < best {
                    best = r as f64;
                }
            }
        }
        if !input.down {
            for s in level.surfaces() {
                if s.top < best && s.catches(b.x, b.y, self.y_prev, self.p) {
                    best = s.top;
                }
            }
        }
        if best.is_finite() {
            b.y = best;
            b.vy = 0.0;
        }
        best.is_finite()
    }

    /// A rising body first rides up a slope surface its feet crossed by
    /// moving x, then stops under the lowest ceiling: the greatest bottom
    /// of the solid and slope tiles, not ghosts, the moved box overlaps.
    fn rise(&self, b: &mut Body) {
        let level = self.level;
        if slope::active(level) {
            self.ride(b);
        }
        let g = ghosts_at(level, b.x, b.y);
        let ceiling = span(b.y - self.p.box_h(), b.y).rev().find(|&r| {
            self.cols
                .clone()
                .any(|c| g.blocks(level.tile_at(c, r), c, r) && !(self.sunk)(c, r))
        });
        if let Some(r) = ceiling {
            b.y = (r as f64 + 1.0) + self.p.box_h();
            b.vy = 0.0;
        }
    }

    /// Whether the box overlaps a tile that blocks it (not a ghost of the
    /// feet, not one it sank into before the tick).
    fn collides(&self, b: &Body) -> bool {
        blocked_but(self.level, self.p, (b.x, b.y), self.sunk)
    }

    /// Ride: feet that were on or above a slope's line as the tick started
    /// and are under it now, the line at most `dx` above where they were,
    /// are put on the highest such line. A body rising slower than the
    /// surface under it climbs is carried up it, not left inside the tile.
    fn ride(&self, b: &mut Body) {
        let lo = self.y_prev - self.dx - EPS;
        let crossed = surfaces(self.level, b.x, lo, b.y)
            .find(|&(s, line)| b.y > line + EPS && s.below(self.x_prev, self.y_prev));
        if let Some((_, line)) = crossed {
            b.y = line;
        }
    }

    /// Stick: a walker that did not land keeps to ground at most `dx`
    /// below its feet (a slope's surface, or a tile top).
    fn stick(&self, b: &mut Body) {
        let level = self.level;
        let g = ghosts_at(level, b.x, b.y);
        let reach = b.y + self.dx + EPS;
        let mut best = surfaces(level, b.x, b.y, reach)
            .next()
            .map_or(f64::INFINITY, |(_, y)| y);
        let first = ifloor(b.y) + i64::from(ifloor(b.y) as f64 != b.y);
        for r in first..=ifloor(reach) {
            if r as f64 >= best {
                break;
            }
            if self
                .cols
                .clone()
                .any(|c| stands(level, &g, level.tile_at(c, r), c, r, self.input.down))
            {
                best = r as f64;
            }
        }
        if best.is_finite() {
            b.y = best;
            b.vy = 0.0;
        }
    }

    /// Step 7: grounded when at rest standing on a slope, or with the feet
    /// within EPS of the top of a row holding ground under the box.
    fn contacts(&self, b: &mut Body) {
        let level = self.level;
        b.grounded = false;
        if b.vy == 0.0 {
            let g = ghosts_at(level, b.x, b.y);
            let row = inearest(b.y);
            b.grounded = g.standing().is_some()
                || ((row as f64 - b.y).abs() <= EPS
                    && self.cols.clone().any(|c| {
                        stands(level, &g, level.tile_at(c, row), c, row, self.input.down)
                    }))
                || (!self.input.down && level.surfaces().iter().any(|s| s.holds(b.x, b.y, self.p)));
        }
        if b.grounded {
            b.air_jumps_left = self.p.air_jumps;
        }
    }
}

/// Whether tile `t` at `(c, r)` holds up a body whose feet are on its top:
/// a solid tile or a slope's top (unless a ghost), or a one-way tile or
/// ladder top unless `down` is held (and unless a ghost).
fn stands<T: Tiles + ?Sized>(level: &T, g: &Ghosts, t: Tile, c: i64, r: i64, down: bool) -> bool {
    match t {
        _ if g.ghost(t, c, r) => false,
        Tile::SOLID | Tile::SLOPE_RIGHT | Tile::SLOPE_LEFT => true,
        Tile::ONE_WAY => !down,
        Tile::LADDER => !down && is_top(level, c, r),
        _ => false,
    }
}

/// What holds up feet at `(x, y)` (step 7, `down` not held): a solid
/// tile's or slope tile's top, or the surface of a slope (`.0`); a one-way
/// tile's or ladder top's top (`.1`).
pub(super) fn support<T: Tiles + ?Sized>(level: &T, p: &Physics, x: f64, y: f64) -> (bool, bool) {
    let g = ghosts_at(level, x, y);
    let row = inearest(y);
    let (mut solid, mut one_way) = (g.standing().is_some(), false);
    if (row as f64 - y).abs() <= EPS {
        for c in span(x - p.half_w(), x + p.half_w()) {
            let t = level.tile_at(c, row);
            if stands(level, &g, t, c, row, false) {
                match t {
                    Tile::ONE_WAY | Tile::LADDER => one_way = true,
                    _ => solid = true,
                }
            }
        }
    }
    (solid, one_way)
}

/// Whether a box with its feet at `(x, y)` overlaps a tile that stops it:
/// a solid tile, or a slope that is not a ghost.
pub(super) fn blocked<T: Tiles + ?Sized>(level: &T, p: &Physics, x: f64, y: f64) -> bool {
    blocked_but(level, p, (x, y), |_, _| false)
}

/// [`blocked`], not counting the tiles `(c, r)` for which `skip` holds.
fn blocked_but<T: Tiles + ?Sized>(
    level: &T,
    p: &Physics,
    (x, y): (f64, f64),
    skip: impl Fn(i64, i64) -> bool,
) -> bool {
    let g = ghosts_at(level, x, y);
    span(y - p.box_h(), y).any(|r| {
        span(x - p.half_w(), x + p.half_w())
            .any(|c| g.blocks(level.tile_at(c, r), c, r) && !skip(c, r))
    })
}

/// The tiles the box with its feet at `(x, y)` overlaps (in `rows`) that
/// block it, when a slope tile is near: in the box's columns or one either
/// side, in its rows or the one below. A slope's ghosts let the box into
/// them; away from slopes there are none (a box inside a wall is pushed
/// out as before).
fn sunk_into<T: Tiles + ?Sized>(
    level: &T,
    p: &Physics,
    (x, y): (f64, f64),
    g: &Ghosts,
    rows: Range<i64>,
) -> Vec<(i64, i64)> {
    let (hw, h) = (p.half_w(), p.box_h());
    let cols = span(x - hw, x + hw);
    let sunk: Vec<(i64, i64)> = rows
        .flat_map(|r| cols.clone().map(move |c| (c, r)))
        .filter(|&(c, r)| g.blocks(level.tile_at(c, r), c, r))
        .collect();
    // Almost always empty: the slope search only when not.
    let near = || {
        span(y - h, y + 1.0)
            .any(|r| span(x - hw - 1.0, x + hw + 1.0).any(|c| level.tile_at(c, r).is_slope()))
    };
    if sunk.is_empty() || near() {
        sunk
    } else {
        Vec::new()
    }
}

/// The ghosts of feet at `(x, y)`: none where no slope can be.
fn ghosts_at<T: Tiles + ?Sized>(level: &T, x: f64, y: f64) -> Ghosts {
    if slope::active(level) {
        Ghosts::at(level, x, y)
    } else {
        Ghosts::none()
    }
}

impl Body {
    /// Whether the box overlaps a tile that stops it: a solid tile (or
    /// border), or on a level with slopes a slope that is not a ghost of
    /// the feet (`PHYSICS.md`, "Slopes").
    #[must_use]
    pub fn blocked<T: Tiles + ?Sized>(&self, level: &T, p: &Physics) -> bool {
        blocked(level, p, self.x, self.y)
    }

    /// What holds the feet up where they are, as step 7 of `PHYSICS.md`
    /// tests it with `down` not held: `(solid, one_way)`, whether a solid
    /// tile's or slope's top or a slope's surface does, and whether a
    /// one-way tile or a ladder top does.
    #[must_use]
    pub fn support<T: Tiles + ?Sized>(&self, level: &T, p: &Physics) -> (bool, bool) {
        support(level, p, self.x, self.y)
    }

    /// A solid tile or border touches the box's left side (within EPS) and
    /// overlaps it vertically.
    #[must_use]
    pub fn touches_wall_left<T: Tiles + ?Sized>(&self, level: &T, p: &Physics) -> bool {
        self.touches_wall(level, p, -1)
    }

    /// A solid tile or border touches the box's right side (within EPS) and
    /// overlaps it vertically.
    #[must_use]
    pub fn touches_wall_right<T: Tiles + ?Sized>(&self, level: &T, p: &Physics) -> bool {
        self.touches_wall(level, p, 1)
    }

    /// A wall on side `side` (-1 left, +1 right), as step 7 has it: on a
    /// level with slopes a slope tile is a wall, and a ghost (see
    /// `PHYSICS.md`, "Slopes") is not.
    fn touches_wall<T: Tiles + ?Sized>(&self, level: &T, p: &Physics, side: i64) -> bool {
        let edge = self.x + side as f64 * p.half_w();
        let shift = if side < 0 { -1 } else { 0 };
        let rows = span(self.y - p.box_h(), self.y);
        if slope::active(level) {
            let g = Ghosts::at(level, self.x, self.y);
            wall_at(level, edge, shift, rows, |t, c, r| g.blocks(t, c, r))
        } else {
            wall_at(level, edge, shift, rows, solid)
        }
    }
}
