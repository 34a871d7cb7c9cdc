//! Between level units (tiles, y down) and world units (pixels or any
//! scale, y up).

use bevy::prelude::*;
use platnav::level::{Moving, Platform};
use platnav::{Body, Cell, Physics};

/// How level units map to the game's world: platnav measures in tiles with
/// `y` growing downward from the level's top-left corner; Bevy's 2D world
/// grows `y` upward, usually in pixels.
///
/// A level point `(x, y)` is at world `origin + (x, -y) * tile_size`.
/// The default (a tile per world unit, the level's top-left corner at the
/// world's origin) suits games that measure in tiles;
/// [`NavTransform::pixels`] puts the level's bottom-left corner at the
/// origin, with `tile_size` pixels per tile.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Reflect)]
pub struct NavTransform {
    /// World units per tile.
    pub tile_size: f32,
    /// Where the level's top-left corner is in the world.
    pub origin: Vec2,
}

impl Default for NavTransform {
    fn default() -> Self {
        Self {
            tile_size: 1.0,
            origin: Vec2::ZERO,
        }
    }
}

impl NavTransform {
    /// `tile_size` world units (pixels) per tile, the bottom-left corner of
    /// a level `height` rows high at the world's origin.
    #[must_use]
    pub fn pixels(tile_size: f32, height: usize) -> Self {
        Self {
            tile_size,
            origin: Vec2::new(0.0, height as f32 * tile_size),
        }
    }

    /// The world point of level point `(x, y)`.
    #[must_use]
    pub fn to_world(&self, x: f64, y: f64) -> Vec2 {
        self.origin + Vec2::new(x as f32, -(y as f32)) * self.tile_size
    }

    /// The level point `(x, y)` of a world point.
    #[must_use]
    pub fn to_level(&self, p: Vec2) -> (f64, f64) {
        let d = (p - self.origin) / self.tile_size;
        (f64::from(d.x), -f64::from(d.y))
    }

    /// A velocity in level units (tiles/s, y down) in world units per
    /// second (y up).
    #[must_use]
    pub fn velocity_to_world(&self, vx: f64, vy: f64) -> Vec2 {
        Vec2::new(vx as f32, -(vy as f32)) * self.tile_size
    }

    /// A world velocity (units/s, y up) in tiles/s, y down.
    #[must_use]
    pub fn velocity_to_level(&self, v: Vec2) -> (f64, f64) {
        let d = v / self.tile_size;
        (f64::from(d.x), -f64::from(d.y))
    }

    /// The cell holding a world point.
    #[must_use]
    pub fn cell_at(&self, p: Vec2) -> Cell {
        let (x, y) = self.to_level(p);
        Cell::new(x.floor() as i32, y.floor() as i32)
    }

    /// The world point at the middle of a cell.
    #[must_use]
    pub fn cell_center(&self, cell: Cell) -> Vec2 {
        self.to_world(f64::from(cell.col) + 0.5, f64::from(cell.row) + 0.5)
    }

    /// The world point at the middle of a body's box.
    #[must_use]
    pub fn body_center(&self, body: &Body, physics: &Physics) -> Vec2 {
        self.to_world(body.x, body.y - physics.h / 2.0)
    }

    /// The world size of a body's box.
    #[must_use]
    pub fn body_size(&self, physics: &Physics) -> Vec2 {
        Vec2::new(physics.w as f32, physics.h as f32) * self.tile_size
    }

    /// The world point at the middle of moving platform `m` on tick
    /// `tick` (see [`crate::NavPlatforms`]).
    #[must_use]
    pub fn platform_center(&self, m: &Moving, tick: u64) -> Vec2 {
        let [x, y] = m.at(tick);
        let p = &m.platform;
        self.to_world(x + f64::from(p.width) / 2.0, y + f64::from(p.height) / 2.0)
    }

    /// The world size of a moving platform.
    #[must_use]
    pub fn platform_size(&self, p: &Platform) -> Vec2 {
        Vec2::new(p.width as f32, p.height as f32) * self.tile_size
    }

    /// Writes the position and velocity of a body whose box is centred at
    /// world point `center` moving at world velocity `velocity`, for a game
    /// with its own physics that fills a [`crate::NavBody`] each tick. The
    /// other fields (grounded, jumps left, ...) are the game's to set. The
    /// position is put on the body's position grid (`Body::on_grid`).
    pub fn place_body(&self, body: &mut Body, physics: &Physics, center: Vec2, velocity: Vec2) {
        let (x, y) = self.to_level(center);
        let (vx, vy) = self.velocity_to_level(velocity);
        body.x = platnav::physics::on_grid(x);
        body.y = platnav::physics::on_grid(y + physics.h / 2.0);
        body.vx = vx;
        body.vy = vy;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixels_put_the_bottom_left_corner_at_the_origin_y_up() {
        let t = NavTransform::pixels(16.0, 10);
        assert_eq!(t.to_world(0.0, 10.0), Vec2::ZERO);
        assert_eq!(t.to_world(0.0, 0.0), Vec2::new(0.0, 160.0));
        assert_eq!(t.to_world(2.0, 9.0), Vec2::new(32.0, 16.0));
        assert_eq!(t.cell_at(Vec2::new(33.0, 1.0)), Cell::new(2, 9));
        assert_eq!(t.cell_center(Cell::new(2, 9)), Vec2::new(40.0, 8.0));
        assert_eq!(t.to_level(Vec2::new(40.0, 8.0)), (2.5, 9.5));
        // Falling (vy > 0 in the level) is moving down in the world.
        assert_eq!(t.velocity_to_world(1.0, 2.0), Vec2::new(16.0, -32.0));
        assert_eq!(t.velocity_to_level(Vec2::new(16.0, -32.0)), (1.0, 2.0));
    }

    #[test]
    fn a_body_placed_from_the_world_round_trips() {
        let t = NavTransform::pixels(18.0, 20);
        let p = Physics::default();
        let b = Body::standing(Cell::new(4, 7), &p);
        let center = t.body_center(&b, &p);
        // Box middle: x = 4.5, y = 8 - 0.9 = 7.1 tiles.
        assert!((center - Vec2::new(81.0, (20.0 - 7.1) * 18.0)).length() < 1e-3);
        let mut back = Body::standing(Cell::new(0, 0), &p);
        t.place_body(&mut back, &p, center, t.velocity_to_world(3.0, -1.0));
        assert!((back.x - b.x).abs() < 1e-4 && (back.y - b.y).abs() < 1e-4);
        assert!((back.vx - 3.0).abs() < 1e-6 && (back.vy + 1.0).abs() < 1e-6);
    }
}
