//! Jump pads and springs (`PHYSICS.md`, "Jump pads and springs"): tiles
//! the body passes into, which launch it upward when it touches them
//! falling or at rest. A pad launches at `pad_speed`; a spring at
//! `spring_speed`, or `spring_jump_speed` when jump is held as it touches
//! it. The launch is step 9 of a tick (after the death test), and the
//! jump cut does not shorten its rise (`Body::launched`, in the base
//! rules' steps 1, 2 and 4).
//!
//! A level with a launcher takes the extended steps (`contact.rs`): the
//! ground shortcut of the base rules does not look for launchers. The
//! run, fall and jump programs meet pads and springs and fly on, and their
//! landings are links like any other. They release jump before they land,
//! so a spring's higher launch needs programs of its own: spring jumps, on
//! levels with springs. For each direction `d` in {-1, 0, +1}, press jump
//! and hold it to the landing, moving `d`, or after `k` ticks (4, 8, 12,
//! 18, 26) switch to idle or `-d` (for `d = 0`, to -1 or +1).

use super::seam::{
    BodyRules, Driver, Family, Glyph, KindSpec, Mechanic, Rank, TileRules, TileSpec, node,
    steered_each_way,
};
use super::{LinkKind, NodeType};
use crate::level::{Cell, Level, SplitMix64, Tile};
use crate::physics::geometry::span;
use crate::physics::{Body, Input, Physics, Tiles};

/// The jump pad and spring tiles, and the node type of cells the agent
/// cannot rest in because it would touch one.
pub(super) const LAUNCH: Mechanic = Mechanic {
    name: "jump pads and springs",
    physics_md: "Jump pads and springs",
    tiles: &[
        TileSpec {
            tile: Tile::PAD,
            name: "pad",
            aliases: &["jump_pad", "jump-pad", "jumppad"],
            ascii: 'P',
            vglc: &["jumppad", "pad"],
            words: &["jumppad", "launchpad", "bouncepad"],
            qualifier: None,
            rank: Rank {
                layer: 5,
                mark: 7,
                name: 7,
                vglc: 10,
                mask: 11,
            },
            mask: [0, 128, 255],
            colour: [60, 200, 120],
            // An arrow up from the floor.
            glyph: Glyph::Triangle([(0.15, 1.0), (0.85, 1.0), (0.5, 0.35)]),
            standing: None,
            free: None,
            overlap: Some(NodeType::LAUNCH),
        },
        TileSpec {
            tile: Tile::SPRING,
            name: "spring",
            aliases: &["springboard", "trampoline"],
            ascii: 'Z',
            vglc: &["spring", "springboard"],
            words: &["spring", "springboard", "trampoline"],
            qualifier: None,
            rank: Rank {
                layer: 4,
                mark: 6,
                name: 6,
                vglc: 9,
                mask: 10,
            },
            mask: [128, 0, 255],
            colour: [90, 170, 220],
            // A coil.
            glyph: Glyph::Lines(
                &[
                    ((0.2, 1.0), (0.8, 0.8)),
                    ((0.8, 0.8), (0.2, 0.6)),
                    ((0.2, 0.6), (0.8, 0.4)),
                    ((0.1, 0.4), (0.9, 0.4)),
                ],
                0.12,
            ),
            standing: None,
            free: None,
            overlap: Some(NodeType::LAUNCH),
        },
    ],
    nodes: &[node(NodeType::LAUNCH, "launch", 'P', [80, 230, 150])],
    families: &[Family {
        kinds: &[KindSpec {
            kind: LinkKind::SPRING_JUMP,
            name: "spring_jump",
            letter: 'z',
            colour: [90, 230, 200],
        }],
        applies: |level, _| level.holds(Tile::SPRING),
        programs: |_| 3 * (SWITCH_TICKS.len() * 2 + 1),
        generate,
    }],
    tile_rules: Some(TileRules { flat_ground: true }),
    decorate: Some(decorate),
};

impl Tile {
    /// A jump pad: not solid; launches a body that touches it at rest or
    /// falling upward at `pad_speed` (`PHYSICS.md`, "Jump pads and
    /// springs").
    pub const PAD: Tile = Tile::with_id(9);

    /// A spring: a jump pad whose launch is `spring_jump_speed` when jump
    /// is held as the body touches it, else `spring_speed`.
    pub const SPRING: Tile = Tile::with_id(10);
}

impl NodeType {
    /// The agent's box would touch a jump pad or spring: it cannot rest
    /// there (levels with them).
    pub const LAUNCH: NodeType = NodeType::with_id(17);
}

impl LinkKind {
    /// A jump held to its landing, which a spring launches at its higher
    /// speed (levels with springs).
    pub const SPRING_JUMP: LinkKind = LinkKind::with_id(7);
}

/// Ticks after which a spring jump's steering switches.
const SWITCH_TICKS: [usize; 5] = [4, 8, 12, 18, 26];

/// The spring jumps from the driver's start cell.
fn generate(drive: &mut dyn Driver) {
    steered_each_way(drive, LinkKind::SPRING_JUMP, &SWITCH_TICKS, &|mv, _| {
        Input::new(mv, true, false)
    });
}

/// Whether the launch rules apply to a body seeing `level`: it may hold a
/// pad or a spring.
#[inline]
fn active<T: Tiles + ?Sized>(level: &T) -> bool {
    level.holds(Tile::PAD) || level.holds(Tile::SPRING)
}

/// The launchers' body rules: step 9, the launch.
pub(super) struct LaunchRules;

impl BodyRules for LaunchRules {
    /// A launcher stops the body from resting on the ground it sits on,
    /// which the base rules' ground shortcut does not look for.
    const CONTACT: bool = true;

    #[inline]
    fn active<T: Tiles + ?Sized>(level: &T) -> bool {
        active(level)
    }

    /// A body not rising whose box overlaps a pad or spring is launched at
    /// the greatest speed among those it overlaps.
    fn touch<T: Tiles + ?Sized>(b: &mut Body, level: &T, p: &Physics, input: Input) -> bool {
        if b.vy < 0.0 {
            return false;
        }
        let Some(speed) = launch_speed(b, level, p, input) else {
            return false;
        };
        b.vy = -speed;
        b.grounded = false;
        b.launched = true;
        b.coyote_left = 0;
        b.boost_tick = 0;
        b.air_jumps_left = p.air_jumps;
        true
    }
}

/// The greatest launch speed among the pads and springs the box of `b`
/// overlaps, if it overlaps any.
fn launch_speed<T: Tiles + ?Sized>(b: &Body, level: &T, p: &Physics, input: Input) -> Option<f64> {
    let cols = span(b.x - p.half_w(), b.x + p.half_w());
    let mut best: Option<f64> = None;
    for r in span(b.y - p.box_h(), b.y) {
        for c in cols.clone() {
            let s = match level.tile_at(c, r) {
                Tile::PAD => p.pad_launch(),
                Tile::SPRING => p.spring_launch(input.jump),
                _ => continue,
            };
            if best.is_none_or(|m| s > m) {
                best = Some(s);
            }
        }
    }
    best
}

/// Adds a few pads and springs to a generated level, each on the ground
/// (an empty cell over a solid one).
fn decorate(level: &mut Level, rng: &mut SplitMix64) {
    let (w, h) = (level.width() as i64, level.height() as i64);
    let launchers = 1 + (w * h / 400) as u64;
    for _ in 0..launchers * 8 {
        let (c, r) = (
            rng.below(w as u64) as i64,
            1 + rng.below((h - 2) as u64) as i64,
        );
        let on_ground =
            level.tile_at(c, r) == Tile::EMPTY && level.tile_at(c, r + 1) == Tile::SOLID;
        if on_ground && rng.chance(0.125) {
            let t = if rng.chance(0.5) {
                Tile::PAD
            } else {
                Tile::SPRING
            };
            level.set(Cell::new(c as i32, r as i32), t);
        }
    }
}
