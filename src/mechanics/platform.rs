//! Moving platforms as the body meets them (`PHYSICS.md`, "Moving
//! platforms"): the tick on a level whose platforms move. The platforms
//! are not tiles, so this is not a row of the registry: a tick carries the
//! body a platform holds, then runs the ordinary tick through a view
//! ([`OnTick`]) whose [`Tiles::surfaces`] are the platforms' tops, which
//! steps 6 and 7 read.

use std::ops::Range;

use crate::level::{Platforms, Tile};
use crate::physics::geometry::span;
use crate::physics::{Body, Input, Physics, PlatformVelocity, Surface, Tiles};

/// A level with its platforms' tops on one tick: the view a tick with
/// platforms runs in.
pub struct OnTick<'a, T: Tiles + ?Sized> {
    level: &'a T,
    surfaces: Vec<Surface>,
}

impl<T: Tiles + ?Sized> Tiles for OnTick<'_, T> {
    #[inline]
    fn tile_at(&self, col: i64, row: i64) -> Tile {
        self.level.tile_at(col, row)
    }
    #[inline]
    fn rows(&self) -> f64 {
        self.level.rows()
    }
    #[inline]
    fn holds(&self, tile: Tile) -> bool {
        self.level.holds(tile)
    }
    #[inline]
    fn wrap_feet(&self, x: &mut f64, y: &mut f64) {
        self.level.wrap_feet(x, y);
    }
    #[inline]
    fn surfaces(&self) -> &[Surface] {
        &self.surfaces
    }
}

/// Whether platform `m`'s box over its whole cycle comes within two tiles
/// of the body's box: one that does not cannot meet the body this tick
/// (neither moves a tile a tick), so the tick leaves it out.
fn near(swept: [f64; 4], body: &Body, p: &Physics) -> bool {
    let reach = 2.0;
    body.x + p.half_w() + reach > swept[0]
        && body.x - p.half_w() - reach < swept[2]
        && body.y + reach > swept[1]
        && body.y - p.box_h() - reach < swept[3]
}

impl Body {
    /// The platform the body rides as tick `tick` starts, by index: the
    /// first one whose top it stands on (grounded, feet within EPS of the
    /// top, the box over it horizontally by more than EPS).
    #[must_use]
    pub fn riding(&self, platforms: &Platforms, tick: u64, p: &Physics) -> Option<usize> {
        self.riding_noting(platforms, tick, p, |_| {})
    }

    /// [`Body::riding`], calling `note` with each platform whose place on
    /// tick `tick` it looked at: the only ones the answer depends on.
    pub(crate) fn riding_noting(
        &self,
        platforms: &Platforms,
        tick: u64,
        p: &Physics,
        mut note: impl FnMut(usize),
    ) -> Option<usize> {
        if self.dead || !self.grounded {
            return None;
        }
        let all = platforms.all();
        platforms
            .near_x(self.x)
            .iter()
            .map(|&i| i as usize)
            .find(|&i| {
                let m = &all[i];
                near(m.swept(), self, p) && {
                    note(i);
                    let a = m.at(tick);
                    surface(a, a, f64::from(m.platform.width), m).holds(self.x, self.y, p)
                }
            })
    }

    /// One tick, from tick `tick` to `tick + 1`, on `level` with moving
    /// `platforms` (`PHYSICS.md`, "Moving platforms"): the carry, the
    /// ordinary tick with the platforms' tops to land and stand on, then
    /// what a body that left a platform keeps of its velocity. With no
    /// platform near, this is [`Body::step`].
    pub fn step_moving<T: Tiles + ?Sized>(
        &mut self,
        level: &T,
        platforms: &Platforms,
        tick: u64,
        p: &Physics,
        input: Input,
    ) {
        self.step_moving_noting(level, platforms, tick, p, input, |_| {});
    }

    /// [`Body::step_moving`], calling `note` with each platform near
    /// enough to be looked at: the only ones the tick depends on.
    pub(crate) fn step_moving_noting<T: Tiles + ?Sized>(
        &mut self,
        level: &T,
        platforms: &Platforms,
        tick: u64,
        p: &Physics,
        input: Input,
        mut note: impl FnMut(usize),
    ) {
        // The platforms in reach, where they are as the tick starts and
        // ends: neither they nor the body move two tiles in a tick.
        let mut surfaces = Vec::new();
        let mut ridden = None;
        let all = platforms.all();
        for &i in platforms.near_x(self.x) {
            let m = &all[i as usize];
            if !near(m.swept(), self, p) {
                continue;
            }
            note(i as usize);
            let (a, b) = (m.at(tick), m.at(tick + 1));
            let start = surface(a, a, f64::from(m.platform.width), m);
            if ridden.is_none() && !self.dead && self.grounded && start.holds(self.x, self.y, p) {
                ridden = Some([b[0] - a[0], b[1] - a[1]]);
            }
            surfaces.push(surface(a, b, f64::from(m.platform.width), m));
        }
        let carried = ridden.unwrap_or([0.0; 2]);
        if ridden.is_some() && !self.carry(level, p, carried) {
            return;
        }
        let view = OnTick { level, surfaces };
        self.step(&view, p, input);
        if ridden.is_some() && !self.dead && !self.grounded {
            let kept = match p.platform_velocity {
                PlatformVelocity::None => [0.0, 0.0],
                PlatformVelocity::Horizontal => [carried[0] / p.dt, 0.0],
                PlatformVelocity::All => [carried[0] / p.dt, carried[1] / p.dt],
            };
            self.vx += kept[0];
            self.vy += kept[1];
        }
    }

    /// The carry: moves the body by the platform's displacement `d`, x
    /// then y. A move in x that would make the box overlap a solid tile is
    /// undone; one in y crushes the body when the platform rises (returns
    /// false: it is dead and the tick is over) and is undone when it sinks.
    fn carry<T: Tiles + ?Sized>(&mut self, level: &T, p: &Physics, d: [f64; 2]) -> bool {
        if d[0] != 0.0 {
            let x = self.x;
            self.x += d[0];
            if overlaps_solid(level, p, self.x, self.y) {
                self.x = x;
            }
        }
        if d[1] != 0.0 {
            let y = self.y;
            self.y += d[1];
            if overlaps_solid(level, p, self.x, self.y) {
                if d[1] < 0.0 {
                    self.dead = true;
                    return false;
                }
                self.y = y;
            }
        }
        true
    }
}

/// Platform `m`'s top with its corner at `b` as the tick ends and `a` as
/// it starts, `width` tiles wide.
fn surface(a: [f64; 2], b: [f64; 2], width: f64, m: &crate::level::Moving) -> Surface {
    Surface {
        left: b[0],
        right: b[0] + width,
        top: b[1],
        bottom: b[1] + f64::from(m.platform.height),
        top_before: a[1],
    }
}

/// Whether the box with feet at `(x, y)` overlaps a solid tile or a
/// border by more than EPS.
fn overlaps_solid<T: Tiles + ?Sized>(level: &T, p: &Physics, x: f64, y: f64) -> bool {
    let cols: Range<i64> = span(x - p.half_w(), x + p.half_w());
    span(y - p.box_h(), y).any(|r| cols.clone().any(|c| level.tile_at(c, r) == Tile::SOLID))
}
