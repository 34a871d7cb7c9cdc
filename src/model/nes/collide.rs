//! `PlayerBGCollision` on platnav's tiles: the game tests single points of
//! Mario's object against the metatile under each, in this order: the
//! head, the two feet, then the left side and the right side, each at two
//! points, stopping at the first side that blocks.
//!
//! How the level's tiles stand for the game's metatiles: `Solid` is a
//! solid block; `OneWay` holds feet landing on its top and is passed
//! otherwise (the game has none); `Hazard` kills when a collision point
//! lies in it; every other kind is empty to this model. The level's left,
//! right and top borders are solid, as for every body; a body whose head
//! passes below the last row is dead (the game's pit).

use super::NesState;
use super::tables::{FOOT_NIBBLE, HEAD_BUMP_SPEED, HEAD_NIBBLE, IMPEDE_PUSH, Points, TILE_PX};
use crate::level::{Level, Tile};

/// The tile under the point `(dx, dy)` of the object at `s`.
#[inline]
fn tile(level: &Level, s: &NesState, (dx, dy): (i32, i32)) -> Tile {
    let col = (s.x + dx).div_euclid(TILE_PX);
    let row = (s.y + dy).div_euclid(TILE_PX);
    level.tile_at(i64::from(col), i64::from(row))
}

/// The background collision of one frame (see the module docs).
#[inline]
pub(super) fn collide(level: &Level, s: &mut NesState, points: Points) {
    // Falling, unless the feet find ground below.
    if s.state == 0 {
        s.state = 2;
    }
    s.collision_bits = 0xff;
    if dies(level, s, &points) {
        s.dead = true;
        return;
    }
    head(level, s, points.head);
    feet(level, s, points.feet);
    for (side, probes) in [(2, points.sides[0]), (1, points.sides[1])] {
        if probes.iter().any(|&p| tile(level, s, p) == Tile::SOLID) {
            impede(s, side);
            return;
        }
    }
}

/// A collision point in a hazard, or the head below the last row.
fn dies(level: &Level, s: &NesState, points: &Points) -> bool {
    let head_row = (s.y + points.head.1).div_euclid(TILE_PX);
    // One flat array, not an iterator chain: this runs every frame of every
    // program, and a chain's fold is not always inlined.
    let ([f0, f1], [[l0, l1], [r0, r1]]) = (points.feet, points.sides);
    let all = [points.head, f0, f1, l0, l1, r0, r1];
    head_row >= level.height() as i32 || all.iter().any(|&p| tile(level, s, p) == Tile::HAZARD)
}

/// `HeadChk`: rising into a block low enough in its tile bumps the head:
/// the rise ends.
fn head(level: &Level, s: &mut NesState, point: (i32, i32)) {
    if tile(level, s, point) == Tile::SOLID && s.y_speed < 0 && (s.y & 0x0f) as u8 >= HEAD_NIBBLE {
        s.y_speed = HEAD_BUMP_SPEED;
    }
}

/// `DoFootCheck`: feet on a block (the left foot's first) while not
/// rising land him on its top when they are less than 5 pixels into it,
/// else the block pushes him back against his motion (`ImpedePlayerMove`);
/// a one-way top only lands him.
fn feet(level: &Level, s: &mut NesState, points: [(i32, i32); 2]) {
    let under = points
        .iter()
        .map(|&p| tile(level, s, p))
        .find(|&t| t == Tile::SOLID || t == Tile::ONE_WAY);
    let Some(under) = under else { return };
    if s.y_speed < 0 {
        return;
    }
    if ((s.y & 0x0f) as u8) < FOOT_NIBBLE {
        s.y &= !0x0f;
        s.y_speed = 0;
        s.y_force = 0;
        s.state = 0;
    } else if under == Tile::SOLID {
        impede(s, s.moving_dir);
    }
}

/// `ImpedePlayerMove`: a block on side `side` (2 left, 1 right) stops him
/// and pushes him a pixel away when he moves into it, and the side's
/// direction stops accelerating him on the next frame.
fn impede(s: &mut NesState, side: u8) {
    let into = if side == 2 {
        s.x_speed < 1
    } else {
        s.x_speed >= 0
    };
    if into {
        s.x_speed = 0;
        s.x += if side == 2 { IMPEDE_PUSH } else { -IMPEDE_PUSH };
    }
    s.collision_bits &= !side;
}
