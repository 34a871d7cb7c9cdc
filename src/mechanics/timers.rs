//! Coyote time and jump buffering (`PHYSICS.md`, "Coyote time and jump
//! buffering"): a ground jump allowed for `coyote_ticks` ticks after the
//! body walks or drops off the ground, and a press that starts nothing kept
//! for `jump_buffer_ticks` ticks, jumping on the first of them that the
//! body starts grounded. With both tick counts 0 (and both timers at 0),
//! every rule here leaves the base rules exactly as they are.

use super::seam::{BodyRules, Jumped, Mechanic};
use crate::physics::{Body, Physics, Tiles};

/// The jump timers add no tile, node type or family of their own: their
/// rules ([`TimerRules`]) act in step 1 and at the end of every tick, and
/// the fall family's coyote jumps and buffered bounces (`links::fall`) use
/// them.
pub(super) const TIMERS: Mechanic = Mechanic {
    name: "jump timers",
    physics_md: "Coyote time and jump buffering",
    tiles: &[],
    nodes: &[],
    families: &[],
    tile_rules: None,
    decorate: None,
};

/// The timers' body rules: a press in coyote time is a ground jump, a
/// press that starts nothing is kept, and the end of every tick sets both
/// timers.
pub(super) struct TimerRules;

impl BodyRules for TimerRules {
    /// They hold on every level: their tick counts, not tiles, switch them
    /// on.
    #[inline]
    fn active<T: Tiles + ?Sized>(_: &T) -> bool {
        true
    }

    /// In coyote time a press is still a ground jump.
    #[inline]
    fn ground_grace(b: &Body) -> bool {
        b.coyote_left > 0
    }

    /// A ground jump ends coyote time.
    #[inline]
    fn ground_jumped(b: &mut Body) {
        b.coyote_left = 0;
    }

    #[inline]
    fn keeps_press(p: &Physics) -> bool {
        p.jump_buffer_ticks > 0
    }

    /// A kept press jumps on a tick the body starts grounded.
    #[inline]
    fn press_due(b: &Body) -> bool {
        b.buffer_left > 0 && b.grounded
    }

    #[inline]
    fn release_press(b: &mut Body) -> bool {
        let due = Self::press_due(b);
        if due {
            b.buffer_left = 0;
        }
        due
    }

    #[inline]
    fn press_waiting(b: &Body) -> bool {
        b.buffer_left > 0
    }

    /// Coyote time is 0 on the ground or on a ladder, starts when the body
    /// left the ground without a ground jump, and counts down otherwise;
    /// the buffer starts on a kept press and counts down otherwise.
    #[inline]
    fn end_tick(b: &mut Body, p: &Physics, was_grounded: bool, j: Jumped) {
        b.coyote_left = if b.grounded || b.climbing {
            0
        } else if was_grounded && !j.ground {
            p.coyote_ticks
        } else {
            b.coyote_left.saturating_sub(1)
        };
        b.buffer_left = if j.buffered {
            p.jump_buffer_ticks
        } else {
            b.buffer_left.saturating_sub(1)
        };
    }
}
