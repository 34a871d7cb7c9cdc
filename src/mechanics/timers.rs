//! Coyote time and jump buffering (`PHYSICS.md`, "Coyote time and jump
//! buffering"): a ground jump allowed for `coyote_ticks` ticks after the
//! body walks or drops off the ground, and a press that starts nothing kept
//! for `jump_buffer_ticks` ticks, jumping on the first of them that the
//! body starts grounded. With both tick counts 0 (and both timers at 0),
//! every function here leaves the base rules exactly as they are.

use super::seam::Mechanic;
use crate::physics::{Body, Physics};

/// The jump timers add no tile, node type or family of their own: their
/// rules act in step 1 and at the end of every tick, and the fall family's
/// coyote jumps and buffered bounces (`links::fall`) use them.
pub(super) const TIMERS: Mechanic = Mechanic {
    name: "jump timers",
    physics_md: "Coyote time and jump buffering",
    tiles: &[],
    nodes: &[],
    families: &[],
    tile_rules: None,
    decorate: None,
};

/// How step 1 started a jump, for the bookkeeping of [`end_of_tick`].
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Jumped {
    /// A ground jump (on the ground, in coyote time, buffered, or off a
    /// ladder): no coyote time follows it.
    pub ground: bool,
    /// A press that started nothing, kept in the jump buffer.
    pub buffered: bool,
}

/// Whether the body is in coyote time: a press is still a ground jump.
#[inline]
pub(super) fn in_coyote_time(b: &Body) -> bool {
    b.coyote_left > 0
}

/// A ground jump ends coyote time.
#[inline]
pub(super) fn ground_jumped(b: &mut Body) {
    b.coyote_left = 0;
}

/// Whether a press that starts no jump is kept in the buffer.
#[inline]
pub(super) fn buffers(p: &Physics) -> bool {
    p.jump_buffer_ticks > 0
}

/// Whether a buffered press jumps on this tick (no press, the body starts
/// it grounded); if so the buffer is spent.
#[inline]
pub(super) fn release_buffered(b: &mut Body) -> bool {
    let due = due(b);
    if due {
        b.buffer_left = 0;
    }
    due
}

/// Whether a buffered press would jump on a tick without a press.
#[inline]
pub(super) fn due(b: &Body) -> bool {
    b.buffer_left > 0 && b.grounded
}

/// Whether a buffered press is waiting (the ground shortcut declines such
/// a tick: it may jump).
#[inline]
pub(super) fn pending(b: &Body) -> bool {
    b.buffer_left > 0
}

/// The timers at the end of a tick: coyote time is 0 on the ground or on a
/// ladder, starts when the body left the ground without a ground jump, and
/// counts down otherwise; the buffer starts on a buffered press and counts
/// down otherwise.
#[inline]
pub(super) fn end_of_tick(b: &mut Body, p: &Physics, was_grounded: bool, j: Jumped) {
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
