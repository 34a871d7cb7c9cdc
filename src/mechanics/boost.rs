//! The jump boost (`PHYSICS.md`, "Jump boost"): after a ground jump, while
//! jump stays held, an upward acceleration that fades linearly to nothing
//! over `jump_boost_ticks` ticks. Games such as sq2 lengthen a held jump
//! this way rather than by cutting a released one. With `jump_boost` or
//! `jump_boost_ticks` 0, `boost_tick` stays 0 and nothing here acts.

use super::seam::{BodyRules, Jumped, Mechanic};
use crate::physics::{Body, Input, Physics, Tiles};

/// The jump boost adds no tile, node type or family: its rules
/// ([`BoostRules`]) act after the fall and at the end of every tick, and the
/// jump programs vary how long the jump is held when it is on.
pub(super) const BOOST: Mechanic = Mechanic {
    name: "jump boost",
    physics_md: "Jump boost",
    tiles: &[],
    nodes: &[],
    families: &[],
    tile_rules: None,
    decorate: None,
};

/// The boost's body rules: step 4b pushes a held ground jump up, and the
/// end of the tick ends the boost of a body standing or climbing.
pub(super) struct BoostRules;

impl BodyRules for BoostRules {
    /// They hold on every level: the profile, not tiles, switches them on.
    #[inline]
    fn active<T: Tiles + ?Sized>(_: &T) -> bool {
        true
    }

    /// A ground jump started this tick starts the count at 1; on each later
    /// tick with jump held the count goes up by one and the body gains
    /// `jump_boost * (1 - count / jump_boost_ticks)` of upward speed a
    /// second. Releasing the jump, another jump (a wall or air jump), or
    /// the count reaching `jump_boost_ticks` ends it.
    #[inline]
    fn after_fall(b: &mut Body, p: &Physics, input: Input, j: Jumped) {
        if !p.boosts() {
            return;
        }
        if j.ground {
            b.boost_tick = 1;
        } else if b.boost_tick > 0 {
            if j.started || !input.jump || b.boost_tick >= p.jump_boost_ticks {
                b.boost_tick = 0;
            } else {
                b.boost_tick += 1;
                b.vy -= p.boost_push(b.boost_tick);
            }
        }
    }

    /// A body standing or climbing has no boost.
    #[inline]
    fn end_tick(b: &mut Body, _: &Physics, _: bool, _: Jumped) {
        if b.grounded || b.climbing {
            b.boost_tick = 0;
        }
    }
}
