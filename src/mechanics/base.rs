//! The base rules of `PHYSICS.md` ("One tick, in this order"): jump start
//! and cut, run, fall, move x, move y, contacts and death on a level whose
//! tiles are empty, solid, one-way or hazards, with the two shortcuts that
//! end a tick in the state the plain rules give (running on flat ground,
//! flying with no tile near). The tick (`tick.rs`) takes these steps on
//! levels where no ladder or slope rule applies, and the extended steps
//! (`contact.rs`) build on [`Body::impulses`] and [`Body::move_x`].

use std::ops::Range;

use super::BodyRuleList;
use super::NodeType;
use super::seam::{Glyph, Mechanic, Rank, TileSpec, node};
use super::seam::{Jumped, RuleList};
use crate::level::Tile;
use crate::physics::geometry::{EPS, ifloor, inearest, snap, span, wall_at};
use crate::physics::{Body, Input, Physics, Tiles};

/// The base rules' tiles (empty, solid, and the goal and spawn markers,
/// empty to the body) and the node types of standing and open cells.
pub(super) const BASE: Mechanic = Mechanic {
    name: "base rules",
    physics_md: "One tick, in this order",
    tiles: &[
        TileSpec {
            tile: Tile::EMPTY,
            name: "empty",
            aliases: &[],
            ascii: '.',
            vglc: &[],
            words: &[],
            qualifier: None,
            rank: Rank {
                layer: 0,
                mark: 0,
                name: 0,
                vglc: 0,
                mask: 1,
            },
            mask: [255, 255, 255],
            colour: [24, 26, 33],
            glyph: Glyph::Fill,
            standing: None,
            free: None,
            overlap: None,
        },
        TileSpec {
            tile: Tile::SOLID,
            name: "solid",
            aliases: &[],
            ascii: '#',
            vglc: &["solid"],
            words: &[
                "solid",
                "collision",
                "collide",
                "collider",
                "collidable",
                "wall",
                "ground",
                "floor",
                "terrain",
                "block",
                "geometry",
                "obstacle",
                "brick",
                "box",
            ],
            qualifier: None,
            rank: Rank {
                layer: 10,
                mark: 5,
                name: 2,
                vglc: 8,
                mask: 9,
            },
            mask: [0, 0, 0],
            colour: [112, 108, 120],
            glyph: Glyph::Fill,
            standing: None,
            free: None,
            overlap: None,
        },
        TileSpec {
            tile: Tile::GOAL,
            name: "goal",
            aliases: &[],
            ascii: 'G',
            vglc: &["goal"],
            words: &[],
            qualifier: None,
            rank: Rank {
                layer: 3,
                mark: 2,
                name: 0,
                vglc: 2,
                mask: 3,
            },
            mask: [0, 255, 0],
            colour: [120, 100, 0],
            glyph: Glyph::Fill,
            standing: Some(NodeType::GOAL),
            free: Some(NodeType::GOAL),
            overlap: None,
        },
        TileSpec {
            tile: Tile::SPAWN,
            name: "spawn",
            aliases: &[],
            ascii: 'S',
            vglc: &["spawn"],
            words: &[],
            qualifier: None,
            rank: Rank {
                layer: 2,
                mark: 1,
                name: 0,
                vglc: 1,
                mask: 2,
            },
            mask: [255, 255, 0],
            colour: [0, 90, 120],
            glyph: Glyph::Fill,
            standing: None,
            free: None,
            overlap: None,
        },
    ],
    nodes: &[
        node(NodeType::AIR, "air", ' ', [40, 44, 58]),
        node(NodeType::BLOCKED, "blocked", '#', [72, 72, 88]),
        node(NodeType::PLATFORM, "platform", '_', [0, 200, 0]),
        node(NodeType::LEFT_EDGE, "left_edge", '<', [255, 200, 0]),
        node(NodeType::RIGHT_EDGE, "right_edge", '>', [255, 120, 0]),
        node(NodeType::SOLO, "solo", 'o', [255, 0, 255]),
        node(NodeType::LEFT_WALL, "left_wall", '[', [0, 110, 255]),
        node(NodeType::RIGHT_WALL, "right_wall", ']', [0, 210, 255]),
        node(
            NodeType::LEFT_WALL_EDGE,
            "left_wall_edge",
            '{',
            [140, 0, 255],
        ),
        node(
            NodeType::RIGHT_WALL_EDGE,
            "right_wall_edge",
            '}',
            [0, 255, 150],
        ),
        node(NodeType::ROOF, "roof", '-', [150, 100, 50]),
        node(NodeType::GOAL, "goal", 'G', [255, 100, 180]),
    ],
    families: &[],
    tile_rules: None,
    decorate: None,
};

impl Tile {
    /// Nothing: the body moves freely.
    pub const EMPTY: Tile = Tile::with_id(0);

    /// Solid from every side.
    pub const SOLID: Tile = Tile::with_id(1);

    /// A goal marker; behaves as [`Tile::EMPTY`] for the body.
    pub const GOAL: Tile = Tile::with_id(4);

    /// A spawn marker; behaves as [`Tile::EMPTY`] for the body.
    pub const SPAWN: Tile = Tile::with_id(5);

    /// True for tiles that stop the body from every side.
    #[must_use]
    pub const fn is_solid(self) -> bool {
        self.index() == Tile::SOLID.index()
    }

    /// True for the tiles the body passes freely: [`Tile::EMPTY`] and the
    /// goal and spawn markers.
    #[must_use]
    pub const fn is_free(self) -> bool {
        self.index() == Tile::EMPTY.index()
            || self.index() == Tile::GOAL.index()
            || self.index() == Tile::SPAWN.index()
    }
}

impl Default for Tile {
    /// [`Tile::EMPTY`].
    fn default() -> Self {
        Tile::EMPTY
    }
}

impl NodeType {
    /// Free space the agent fits in, nothing to stand on.
    pub const AIR: NodeType = NodeType::with_id(0);

    /// The agent's box would overlap a solid tile.
    pub const BLOCKED: NodeType = NodeType::with_id(1);

    /// Standable, both sides open.
    pub const PLATFORM: NodeType = NodeType::with_id(2);

    /// Standable, a drop on the left, open on the right.
    pub const LEFT_EDGE: NodeType = NodeType::with_id(3);

    /// Standable, open on the left, a drop on the right.
    pub const RIGHT_EDGE: NodeType = NodeType::with_id(4);

    /// Standable with drops (or walls) on both sides.
    pub const SOLO: NodeType = NodeType::with_id(5);

    /// Standable, a wall on the left, open on the right.
    pub const LEFT_WALL: NodeType = NodeType::with_id(6);

    /// Standable, open on the left, a wall on the right.
    pub const RIGHT_WALL: NodeType = NodeType::with_id(7);

    /// Standable, a wall on the left and a drop on the right.
    pub const LEFT_WALL_EDGE: NodeType = NodeType::with_id(8);

    /// Standable, a drop on the left and a wall on the right.
    pub const RIGHT_WALL_EDGE: NodeType = NodeType::with_id(9);

    /// Free space with a solid ceiling within one tile above the agent's head.
    pub const ROOF: NodeType = NodeType::with_id(10);

    /// A goal marker the agent fits in (standable or not).
    pub const GOAL: NodeType = NodeType::with_id(13);
}

/// What move y (step 6 of the base rules) did, for steps 7 and 8.
struct MoveY {
    /// The feet's y as the tick started.
    y_prev: f64,
    /// The rows of the box moved by `vy * dt`, before any landing.
    moved_rows: Range<i64>,
    /// The rows of `moved_rows` holding a hazard under the box (bit `i` for
    /// row `moved_rows.start + i`), when move y looked at every tile of the
    /// box: step 8 then needs no lookup of those rows again.
    hazards: u64,
    /// Whether move y looked at every tile of the moved box.
    scanned: bool,
    /// Whether it landed the body or stopped it under a ceiling.
    snapped: bool,
    /// The row the body landed on, if it did.
    landed: Option<i64>,
}

/// The highest moving platform top a falling body lands on, when it is
/// above the highest tile row it lands on (`top`, `i64::MAX` for none).
#[inline]
pub(super) fn platform_landing<T: Tiles + ?Sized>(
    level: &T,
    p: &Physics,
    x: f64,
    y: f64,
    y_prev: f64,
    top: i64,
) -> Option<f64> {
    let tile = if top == i64::MAX {
        f64::INFINITY
    } else {
        top as f64
    };
    level
        .surfaces()
        .iter()
        .filter(|s| s.top < tile && s.catches(x, y, y_prev, p))
        .map(|s| s.top)
        .reduce(f64::min)
}

/// [`wall_at`] for solid tiles, as the plain rules have it.
#[inline]
pub(super) fn solid(t: Tile, _: i64, _: i64) -> bool {
    t.is_solid()
}

/// Whether row `row` holds ground under columns `cols`, as step 7 asks: a
/// solid tile, or a one-way one unless `down` is held.
#[inline]
fn ground_at<T: Tiles + ?Sized>(level: &T, row: i64, cols: Range<i64>, down: bool) -> bool {
    cols.into_iter().any(|c| match level.tile_at(c, row) {
        Tile::SOLID => true,
        Tile::ONE_WAY => !down,
        _ => false,
    })
}

impl Body {
    /// The tick of a body that starts and ends it standing on the same
    /// ground, without a wall in its way: about half of all ticks, when a
    /// path is performed. Computes what [`Body::step`] would, with fewer
    /// lookups and no row span of the moved box; returns false, changing
    /// nothing, for any other tick.
    ///
    /// Why it is the same tick: standing with `vy == 0` on the top of row
    /// `row` (`y == row`), a tick without a jump press leaves `vy` at
    /// `gravity * dt` after step 4 (nothing else in steps 1 to 4 applies
    /// on the ground). Move y lowers the box by `vy * dt`; the shortcut
    /// goes on only when the moved box overlaps row `row` and, above it,
    /// only rows it started on (its top moved down, and the box is taller
    /// than EPS plus rounding, so its first row cannot move up). Those
    /// hold no solid tile (move x found none there), and their one-way
    /// tiles lie above `y_prev + EPS`, so the only landing row is `row`:
    /// the body lands back on it when it holds a solid tile under the box,
    /// or a one-way one without `down`, which is also step 7's test. So it
    /// ends grounded where it started the tick, and step 8 tests the start
    /// rows.
    #[inline]
    pub(super) fn run_on_ground<T: Tiles + ?Sized>(
        &mut self,
        level: &T,
        p: &Physics,
        input: Input,
    ) -> bool {
        let pressed = input.jump && !self.jump_held_last_tick;
        if !self.grounded
            || self.vy != 0.0
            || self.launched
            // A boost pushes even a body on the ground (placed there).
            || self.boost_tick != 0
            || pressed
            || BodyRuleList::press_waiting(self)
        {
            return false;
        }
        let row = ifloor(self.y);
        if row as f64 != self.y {
            return false;
        }
        let dt = p.dt;
        // 3. Run and 4. Fall, as `step` computes them.
        let target = f64::from(input.move_x) * p.run_speed;
        let a = p.ground_accel;
        let vx = self.vx + (target - self.vx).clamp(-a * dt, a * dt);
        let vy = (self.vy + p.gravity * dt).min(p.max_fall_speed);
        // 5. Move x, with no solid tile to stop it.
        let x = self.x + snap(vx * dt);
        let y = self.y + snap(vy * dt);
        // The moved box overlaps `row` by more than EPS with its bottom
        // still in that row and its top above it: its row span ends with
        // `row`, and (a box taller than the floor's rounding) starts no
        // higher than the start rows.
        let on_row = y - self.y > EPS && y < self.y + 1.0 && y - p.box_h() < self.y;
        if !(vy > 0.0 && on_row && p.box_h() > 1e-6) {
            return false;
        }
        let rows = span(self.y - p.box_h(), self.y);
        let cols = span(x - p.half_w(), x + p.half_w());
        // Move x meets no solid tile; step 8 needs the start rows' hazards.
        let mut hazard = false;
        for r in rows.clone() {
            for c in cols.clone() {
                match level.tile_at(c, r) {
                    Tile::SOLID => return false,
                    Tile::HAZARD => hazard = true,
                    _ => {}
                }
            }
        }
        // 6. and 7.: lands back on `row`, grounded.
        if !ground_at(level, row, cols.clone(), input.down) {
            return false;
        }
        self.x = x;
        self.vx = vx;
        self.vy = 0.0;
        self.air_jumps_left = p.air_jumps;
        // 8. Death, on the start rows.
        if self.y - p.box_h() > level.rows() {
            self.dead = true;
        } else if level.holds(Tile::HAZARD) {
            self.dead = hazard;
        }
        self.end_tick(p, input, true, Jumped::default());
        true
    }

    /// Steps 1 to 8 and the end of the tick by the base rules alone (a
    /// level with neither ladders nor slopes). Each tile span is computed
    /// once and reused while the box keeps that side (`span` is a pure
    /// function of the same `f64` values, so the tiles looked up, and
    /// their order, are those of the plain rules); where the view allows
    /// ([`Tiles::any_order`]), a tick in the air with no tile near takes
    /// the shortcut of [`Body::fly_clear`].
    pub(super) fn plain_steps<T: Tiles + ?Sized>(
        &mut self,
        level: &T,
        p: &Physics,
        input: Input,
        pressed: bool,
        was_grounded: bool,
    ) {
        // The rows of the box as the tick starts: y changes first in step 6.
        let rows = span(self.y - p.box_h(), self.y);
        let (wall_left, wall_right) = if p.wall_jump.is_some() && !self.grounded {
            (
                wall_at(level, self.x - p.half_w(), -1, rows.clone(), solid),
                wall_at(level, self.x + p.half_w(), 0, rows.clone(), solid),
            )
        } else {
            (false, false)
        };

        // 1. to 4.
        let jumped = self.impulses(p, input, pressed, false, (wall_left, wall_right));
        if !self.grounded && level.any_order() && self.fly_clear(level, p, input, jumped) {
            return;
        }

        // 5. Move x.
        let cols = self.move_x(level, p, rows.clone(), solid);

        // 6. Move y, 7. contacts and 8. death.
        let moved = self.plain_move_y(level, p, input, cols.clone());
        self.plain_contacts(level, p, input, cols.clone(), moved.landed);
        self.plain_death(level, p, rows, cols, &moved);

        self.end_tick(p, input, was_grounded, jumped);
    }

    /// Step 6 of the base rules (move y): lands on the highest solid tile,
    /// or one-way tile the feet were above, that the moved box overlaps,
    /// or stops under the lowest ceiling; notes the hazards of the rows it
    /// scanned for step 8. Always inlined: the tick is split for reading,
    /// and compiles as one function.
    #[inline(always)]
    fn plain_move_y<T: Tiles + ?Sized>(
        &mut self,
        level: &T,
        p: &Physics,
        input: Input,
        cols: Range<i64>,
    ) -> MoveY {
        let y_prev = self.y;
        self.y += snap(self.vy * p.dt);
        let mut m = MoveY {
            y_prev,
            moved_rows: span(self.y - p.box_h(), self.y),
            hazards: 0,
            scanned: false,
            snapped: false,
            landed: None,
        };
        if self.vy > 0.0 {
            m.scanned = true;
            // The highest row landed on.
            let mut top = i64::MAX;
            for (i, r) in m.moved_rows.clone().enumerate() {
                for c in cols.clone() {
                    let lands = match level.tile_at(c, r) {
                        Tile::SOLID => true,
                        Tile::ONE_WAY => !input.down && y_prev <= r as f64 + EPS,
                        Tile::HAZARD => {
                            m.hazards |= 1u64.wrapping_shl(i as u32);
                            false
                        }
                        _ => false,
                    };
                    if lands {
                        top = top.min(r);
                    }
                }
            }
            // A moving platform's top above every tile landed on.
            let platform = if input.down {
                None
            } else {
                platform_landing(level, p, self.x, self.y, y_prev, top)
            };
            if let Some(y) = platform {
                self.y = y;
                self.vy = 0.0;
                m.snapped = true;
            } else if top != i64::MAX {
                m.landed = Some(top);
                self.y = top as f64;
                self.vy = 0.0;
                m.snapped = true;
            }
        } else if self.vy < 0.0 {
            m.scanned = true;
            // The last solid row: rows are scanned top down.
            let mut bottom = i64::MIN;
            for (i, r) in m.moved_rows.clone().enumerate() {
                for c in cols.clone() {
                    match level.tile_at(c, r) {
                        Tile::SOLID => bottom = r,
                        Tile::HAZARD => m.hazards |= 1u64.wrapping_shl(i as u32),
                        _ => {}
                    }
                }
            }
            if bottom != i64::MIN {
                self.y = (bottom as f64 + 1.0) + p.box_h();
                self.vy = 0.0;
                m.snapped = true;
            }
        }
        m
    }

    /// Step 7 of the base rules (contacts): grounded on the row the body
    /// landed on, or on the row its feet are within EPS of the top of,
    /// when it holds ground under the box.
    #[inline(always)]
    fn plain_contacts<T: Tiles + ?Sized>(
        &mut self,
        level: &T,
        p: &Physics,
        input: Input,
        cols: Range<i64>,
        landed: Option<i64>,
    ) {
        self.grounded = false;
        if self.vy == 0.0 {
            // Landed, the feet are exactly on the row's top.
            let row = landed.unwrap_or_else(|| inearest(self.y));
            if landed.is_some() || (row as f64 - self.y).abs() <= EPS {
                self.grounded = ground_at(level, row, cols, input.down);
            }
            if !self.grounded && !input.down {
                self.grounded = level.surfaces().iter().any(|s| s.holds(self.x, self.y, p));
            }
        }
        if self.grounded {
            self.air_jumps_left = p.air_jumps;
        }
    }

    /// Step 8 of the base rules (death): below the level, or overlapping a
    /// hazard, looking up only the rows move y did not scan (`rows` are the
    /// box's rows as the tick started).
    #[inline(always)]
    fn plain_death<T: Tiles + ?Sized>(
        &mut self,
        level: &T,
        p: &Physics,
        rows: Range<i64>,
        cols: Range<i64>,
        m: &MoveY,
    ) {
        if self.y - p.box_h() > level.rows() {
            self.dead = true;
        } else if !level.holds(Tile::HAZARD) {
            // Nothing to overlap.
        } else if m.scanned && !m.snapped {
            // The box is the one move y scanned.
            self.dead = m.hazards != 0;
        } else {
            // A body snapped back to where it started the tick (standing)
            // has the rows it started with.
            let rows = if self.y == m.y_prev {
                rows
            } else {
                span(self.y - p.box_h(), self.y)
            };
            // Rows move y scanned answer from `hazards` (whose bits cannot
            // alias: at most 64 rows); the others are looked up, in order.
            let known = m.moved_rows.end.wrapping_sub(m.moved_rows.start) as u64;
            let known = if m.scanned && known <= 64 { known } else { 0 };
            self.dead = rows.into_iter().any(|r| {
                let i = r.wrapping_sub(m.moved_rows.start) as u64;
                if i < known {
                    m.hazards >> i & 1 != 0
                } else {
                    cols.clone().any(|c| level.tile_at(c, r) == Tile::HAZARD)
                }
            });
        }
    }

    /// Steps 5 to 8 and the tick's bookkeeping for a body in the air with
    /// nothing near (after steps 1 to 4): when every tile they could look
    /// up passes the body freely ([`Tiles::is_clear`]), they reduce to the
    /// moves, and this takes them; returns false, changing nothing,
    /// otherwise.
    ///
    /// The block asked about spans the columns and rows the box overlaps
    /// as the tick starts and after it moves (tile `c` counted when the
    /// box reaches past `c`'s floor: a superset of the EPS overlaps the
    /// rules test), and the row below when the body ends the tick with
    /// `vy = 0` (step 7 then looks for ground in the row its feet are
    /// nearest). With no tile in the block, move x and move y meet
    /// nothing, step 7 finds no ground and step 8 no hazard: only the
    /// level's bottom can still kill.
    #[inline]
    pub(super) fn fly_clear<T: Tiles + ?Sized>(
        &mut self,
        level: &T,
        p: &Physics,
        input: Input,
        jumped: Jumped,
    ) -> bool {
        let half = p.half_w();
        let dt = p.dt;
        let x = self.x + snap(self.vx * dt);
        let y = self.y + snap(self.vy * dt);
        let (lo_x, hi_x) = if x < self.x { (x, self.x) } else { (self.x, x) };
        let (lo_y, hi_y) = if y < self.y { (y, self.y) } else { (self.y, y) };
        let below = if self.vy == 0.0 { 2 } else { 1 };
        let cols = ifloor(lo_x - half)..ifloor(hi_x + half) + 1;
        let rows = ifloor(lo_y - p.box_h())..ifloor(hi_y) + below;
        if !level.is_clear(cols, rows) {
            return false;
        }
        self.x = x;
        self.y = y;
        if self.y - p.box_h() > level.rows() {
            self.dead = true;
        }
        // Not grounded before the tick, nor after it.
        self.end_tick(p, input, false, jumped);
        true
    }

    /// Step 5 of `PHYSICS.md` (move x) against the tiles `blocks` says stop
    /// the box, on `rows` (the box's rows as the tick starts); returns the
    /// columns of the moved box.
    #[inline]
    pub(super) fn move_x<T: Tiles + ?Sized>(
        &mut self,
        level: &T,
        p: &Physics,
        rows: Range<i64>,
        blocks: impl Fn(Tile, i64, i64) -> bool,
    ) -> Range<i64> {
        self.x += snap(self.vx * p.dt);
        let mut cols = span(self.x - p.half_w(), self.x + p.half_w());
        // The leftmost and rightmost blocking columns, as integers (exact
        // as floats: columns are far below 2^53).
        let mut min_left = i64::MAX;
        let mut max_right = i64::MIN;
        for r in rows {
            for c in cols.clone() {
                if blocks(level.tile_at(c, r), c, r) {
                    min_left = min_left.min(c);
                    max_right = max_right.max(c);
                }
            }
        }
        if min_left != i64::MAX {
            if self.vx > 0.0 {
                self.x = min_left as f64 - p.half_w();
                cols = span(self.x - p.half_w(), self.x + p.half_w());
            } else if self.vx < 0.0 {
                self.x = (max_right as f64 + 1.0) + p.half_w();
                cols = span(self.x - p.half_w(), self.x + p.half_w());
            }
            self.vx = 0.0;
        }
        cols
    }

    /// Steps 1 to 4 of `PHYSICS.md` (jump start, jump cut, run, fall),
    /// with the wall contacts `(left, right)` of the box as the tick
    /// starts. `jumped_before`: a mechanic's step 0 started a jump this
    /// tick (jumping off a ladder), which was its jump start.
    pub(super) fn impulses(
        &mut self,
        p: &Physics,
        input: Input,
        pressed: bool,
        jumped_before: bool,
        (wall_left, wall_right): (bool, bool),
    ) -> Jumped {
        let dt = p.dt;
        let mut jumped = Jumped::default();
        // 1. Jump start.
        let mut started = true;
        if jumped_before {
            jumped.ground = true;
        } else if pressed {
            if self.grounded || BodyRuleList::ground_grace(self) {
                self.vy = -p.jump_speed;
                BodyRuleList::ground_jumped(self);
                jumped.ground = true;
            } else if let (Some(wj), true) = (&p.wall_jump, wall_left || wall_right) {
                self.vy = -wj.speed_y;
                self.vx = if wall_left { wj.speed_x } else { -wj.speed_x };
            } else if self.air_jumps_left > 0 {
                self.vy = -p.jump_speed;
                self.air_jumps_left -= 1;
            } else {
                jumped.buffered = BodyRuleList::keeps_press(p);
                started = false;
            }
        } else if BodyRuleList::release_press(self) {
            self.vy = -p.jump_speed;
            jumped.ground = true;
        } else {
            started = false;
        }

        // A jump's rise replaces a launch's (pads and springs).
        if started {
            self.launched = false;
        }
        jumped.started = started;

        // 2. Jump cut, which a launch's rise does not take.
        if !input.jump && !self.launched && self.vy < -p.jump_cut_speed {
            self.vy = -p.jump_cut_speed;
        }

        // 3. Run.
        let target = f64::from(input.move_x) * p.run_speed;
        let a = if self.grounded {
            p.ground_accel
        } else {
            p.air_accel
        };
        self.vx += (target - self.vx).clamp(-a * dt, a * dt);

        // 4. Fall.
        self.vy += p.gravity * dt;
        if let Some(wj) = &p.wall_jump {
            let toward_wall = (input.move_x < 0 && wall_left) || (input.move_x > 0 && wall_right);
            if !self.grounded && self.vy > 0.0 && toward_wall {
                self.vy = self.vy.min(wj.slide_speed);
            }
        }
        self.vy = self.vy.min(p.max_fall_speed);
        // 4b. The mechanics' part (a held ground jump's boost).
        BodyRuleList::after_fall(self, p, input, jumped);
        // A launch's rise ends at its apex.
        if self.vy >= 0.0 {
            self.launched = false;
        }
        jumped
    }

    /// The bookkeeping that ends every tick: the mechanics' rules (the
    /// jump timers), then `jump_held_last_tick`.
    pub(super) fn end_tick(&mut self, p: &Physics, input: Input, was_grounded: bool, j: Jumped) {
        BodyRuleList::end_tick(self, p, was_grounded, j);
        self.jump_held_last_tick = input.jump;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{Cell, Level};

    /// The ground shortcut takes most ticks of running, braking and
    /// standing on the ground, declines the others (a wall ahead, a jump
    /// press, the edge of a pit, a one-way floor with `down` held), and
    /// every tick ends as the full step ends it.
    #[test]
    fn the_ground_shortcut_takes_ground_ticks_and_agrees_with_the_full_step() {
        let level: Level = "\
            ..........\n\
            ...^......\n\
            .......#..\n\
            ###==##.##\n\
            ##########\n"
            .parse()
            .unwrap();
        let p = Physics::default();
        let (mut taken, mut declined) = (0, 0);
        let moves = [1i8, 1, 1, 0, -1, -1, -1, -1, 0, 1];
        for start in [1, 4, 5, 8] {
            for (k, &mv) in moves.iter().enumerate() {
                let mut body = Body::standing(Cell::new(start, 2), &p);
                for t in 0..90 {
                    if body.dead {
                        break;
                    }
                    let input = Input::new(mv, t % 40 == 30 + k, t > 60 && k % 3 == 0);
                    let mut full = body;
                    full.step(&Noting::new(&level, false), &p, input);
                    let mut short = body;
                    if short.run_on_ground(&level, &p, input) {
                        taken += 1;
                        assert_eq!(
                            short, full,
                            "start {start}, move {mv}, tick {t}, from {body:?}"
                        );
                    } else {
                        declined += 1;
                        assert_eq!(short, body, "a declined tick changes nothing");
                    }
                    body.step(&level, &p, input);
                    assert_eq!(body, full, "start {start}, move {mv}, tick {t}");
                }
            }
        }
        assert!(
            taken > 500 && declined > 500,
            "{taken} taken, {declined} declined"
        );
    }

    /// A level that notes every cell it is asked about (every cell of a
    /// block it answers is clear, when `shortcuts`), and counts the clear
    /// blocks. Without `shortcuts`, the plain rules' view: every tile is
    /// looked up, in their order.
    struct Noting<'a> {
        level: &'a Level,
        shortcuts: bool,
        cells: std::cell::RefCell<std::collections::HashSet<(i64, i64)>>,
        clear: std::cell::Cell<usize>,
    }

    impl<'a> Noting<'a> {
        fn new(level: &'a Level, shortcuts: bool) -> Self {
            Self {
                level,
                shortcuts,
                cells: Default::default(),
                clear: Default::default(),
            }
        }
    }

    impl Tiles for Noting<'_> {
        fn tile_at(&self, col: i64, row: i64) -> Tile {
            self.cells.borrow_mut().insert((col, row));
            self.level.tile_at(col, row)
        }
        fn rows(&self) -> f64 {
            self.level.height() as f64
        }
        fn holds(&self, tile: Tile) -> bool {
            self.level.holds(tile)
        }
        fn any_order(&self) -> bool {
            self.shortcuts
        }
        fn is_clear(&self, cols: Range<i64>, rows: Range<i64>) -> bool {
            if !self.level.is_clear(cols.clone(), rows.clone()) {
                return false;
            }
            for r in rows {
                for c in cols.clone() {
                    self.cells.borrow_mut().insert((c, r));
                }
            }
            self.clear.set(self.clear.get() + 1);
            true
        }
    }

    /// The air shortcut takes the ticks of flights with no tile near,
    /// declines those near a wall, a ceiling, the ground, a one-way
    /// platform or a hazard, and every tick ends as the full step ends it.
    /// On the ticks it takes, every cell the full step looks up counts as
    /// looked up (so the cells a link reads still cover those its
    /// performance depends on). With wall jumps off and on.
    #[test]
    fn the_air_shortcut_takes_clear_ticks_and_agrees_with_the_full_step() {
        let level: Level = "\
            ....................\n\
            ....................\n\
            ......##............\n\
            ....................\n\
            ...........^........\n\
            ...............==...\n\
            ...#................\n\
            ##########.#########\n\
            ####################\n"
            .parse()
            .unwrap();
        for p in [Physics::default(), Physics::agile()] {
            let (mut taken, mut declined) = (0, 0);
            for start in [1, 5, 9, 12, 17] {
                for mv in [-1i8, 0, 1] {
                    for hold in [3, 8, 20] {
                        let mut body = Body::standing(Cell::new(start, 6), &p);
                        for t in 0..120 {
                            if body.dead {
                                break;
                            }
                            let jump = t % 50 < hold;
                            let input = Input::new(if t > 40 { -mv } else { mv }, jump, false);
                            let plain = Noting::new(&level, false);
                            let mut full = body;
                            full.step(&plain, &p, input);
                            let fast = Noting::new(&level, true);
                            body.step(&fast, &p, input);
                            let at = format!("{p:?}, start {start}, move {mv}, tick {t}");
                            assert_eq!(body, full, "{at}");
                            if fast.clear.get() > 0 {
                                let missing: Vec<_> = plain
                                    .cells
                                    .borrow()
                                    .difference(&fast.cells.borrow())
                                    .copied()
                                    .collect();
                                assert!(missing.is_empty(), "{at}: {missing:?} not noted");
                                taken += 1;
                            } else if !full.grounded {
                                declined += 1;
                            }
                        }
                    }
                }
            }
            assert!(
                taken > 1000 && declined > 300,
                "{taken} taken, {declined} declined"
            );
        }
    }
}
