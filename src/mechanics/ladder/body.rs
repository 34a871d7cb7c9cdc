//! The ladder's body rules (`PHYSICS.md`, "Ladders", step 0): grabbing a
//! ladder, climbing, and getting off at its top, its bottom, or by jumping.

use super::is_top;
use crate::level::Tile;
use crate::physics::geometry::{EPS, ifloor, inearest, snap, span};
use crate::physics::{Body, Input, Physics, Tiles};

/// What step 0 did.
pub(crate) enum Climb {
    /// The body is not on a ladder: the tick goes on as usual.
    No,
    /// The body jumped off its ladder: steps 2 to 8 follow, step 1 done.
    JumpedOff,
    /// A climbing tick, whole: only the bookkeeping that ends every tick
    /// is left.
    Done,
}

/// The row holding the feet: the last row the box `[y - h, y]` overlaps
/// (`None` for a box thinner than EPS).
#[inline]
fn feet_row(y: f64, h: f64) -> Option<i64> {
    let rows = span(y - h, y);
    (!rows.is_empty()).then(|| rows.end - 1)
}

/// Whether a box centred on `x` with its feet at `y` overlaps a solid or
/// slope tile.
fn blocked<T: Tiles + ?Sized>(level: &T, p: &Physics, x: f64, y: f64) -> bool {
    span(y - p.box_h(), y).any(|r| {
        span(x - p.half_w(), x + p.half_w()).any(|c| {
            let t = level.tile_at(c, r);
            t == Tile::SOLID || t.is_slope()
        })
    })
}

/// Step 0 of a tick on a level with ladders: grabs a ladder, or performs a
/// climbing tick, or jumps off.
pub(crate) fn before_tick<T: Tiles + ?Sized>(
    b: &mut Body,
    level: &T,
    p: &Physics,
    input: Input,
    pressed: bool,
) -> Climb {
    if !b.climbing && !grab(b, level, p, input, pressed) {
        return Climb::No;
    }
    if pressed {
        b.climbing = false;
        b.vy = -p.jump_speed;
        return Climb::JumpedOff;
    }
    climb(b, level, p, input);
    Climb::Done
}

/// Starts climbing when the rules allow it: up or down held, no jump
/// pressed, the feet in a ladder tile of their column (down only in the
/// air), or standing on a ladder top with down (and not up) held; and the
/// box, moved to the middle of the ladder's column, overlapping no solid or
/// slope tile.
fn grab<T: Tiles + ?Sized>(
    b: &mut Body,
    level: &T,
    p: &Physics,
    input: Input,
    pressed: bool,
) -> bool {
    if pressed || !(input.up || input.down) {
        return false;
    }
    let col = ifloor(b.x);
    let in_ladder = (input.up || !b.grounded)
        && feet_row(b.y, p.box_h()).is_some_and(|r| level.tile_at(col, r) == Tile::LADDER);
    let on_top = || {
        let row = inearest(b.y);
        input.down
            && !input.up
            && b.grounded
            && (row as f64 - b.y).abs() <= EPS
            && is_top(level, col, row)
    };
    if !(in_ladder || on_top()) {
        return false;
    }
    let x = col as f64 + 0.5;
    if blocked(level, p, x, b.y) {
        return false;
    }
    b.x = x;
    b.vx = 0.0;
    b.vy = 0.0;
    b.climbing = true;
    b.grounded = false;
    b.air_jumps_left = p.air_jumps;
    b.buffer_left = 0;
    true
}

/// A climbing tick: the body moves `climb_speed * dt` up (up held) or
/// down (down held), not at all with both or neither; it stops under a
/// ceiling, stands on the ladder's top when its feet reach it going up,
/// stands on the ground it meets going down, and lets go when its feet
/// leave the ladder's tiles.
fn climb<T: Tiles + ?Sized>(b: &mut Body, level: &T, p: &Physics, input: Input) {
    let col = ifloor(b.x);
    let dir = f64::from(i8::from(input.down) - i8::from(input.up));
    b.vx = 0.0;
    b.vy = dir * p.climb_speed;
    let y_prev = b.y;
    b.y += snap(b.vy * p.dt);
    let cols = span(b.x - p.half_w(), b.x + p.half_w());
    let solid = |c: i64, r: i64| {
        let t = level.tile_at(c, r);
        t == Tile::SOLID || t.is_slope()
    };
    if b.vy < 0.0 {
        // Under a ceiling: the greatest bottom among the overlapped tiles.
        let ceiling = span(b.y - p.box_h(), b.y)
            .rev()
            .find(|&r| cols.clone().any(|c| solid(c, r)));
        if let Some(r) = ceiling {
            b.y = (r as f64 + 1.0) + p.box_h();
            b.vy = 0.0;
        }
        // The feet reach the top of the ladder top they were in.
        if let Some(top) = feet_row(y_prev, p.box_h())
            && is_top(level, col, top)
            && b.y <= top as f64 + EPS
        {
            b.y = top as f64;
            b.vy = 0.0;
            b.climbing = false;
            b.grounded = true;
        }
    } else if b.vy > 0.0 {
        // Meets the ground: the highest top among the overlapped tiles.
        let ground = span(b.y - p.box_h(), b.y).find(|&r| cols.clone().any(|c| solid(c, r)));
        if let Some(r) = ground {
            b.y = r as f64;
            b.vy = 0.0;
            b.climbing = false;
            b.grounded = true;
        }
    }
    if b.climbing
        && !feet_row(b.y, p.box_h()).is_some_and(|r| level.tile_at(col, r) == Tile::LADDER)
    {
        // Off the ladder's bottom (or out of it): falling on.
        b.climbing = false;
    }
    if b.grounded {
        b.air_jumps_left = p.air_jumps;
    }
    // 8. Death.
    if b.y - p.box_h() > level.rows() || b.overlaps_kind(level, p, Tile::HAZARD) {
        b.dead = true;
    }
}
