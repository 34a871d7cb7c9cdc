//! One tick of the body: the base rules and every mechanic's, in
//! `PHYSICS.md`'s order. This is where the mechanics meet: step 0 is the
//! mechanics' own ([`BodyRuleList`]: the ladders' climb), steps 1 to 8
//! are the base rules' (`base.rs`) or, where a mechanic that changes
//! contacts is in play (ladder tops, slopes), the extended ones
//! (`contact.rs`), and the mechanics' jump rules (the jump timers) act in
//! step 1 and at the end of the tick.
//!
//! This is the single source of truth for motion: link generation, path
//! validation and the path follower all drive this code, so planned and
//! performed motion cannot drift apart.

use super::BodyRuleList;
use super::contact;
use super::seam::{Before, Jumped, RuleList};
use crate::level::Cell;
use crate::physics::{Body, Input, Physics, Tiles};

impl Body {
    /// The start state of a link from `cell` of `level`: [`Body::standing`],
    /// except on a slope tile (`PHYSICS.md`, "Slopes"), where the feet are
    /// on its surface at the column's middle (`y = row + 0.5`).
    #[must_use]
    pub fn start<T: Tiles + ?Sized>(level: &T, cell: Cell, physics: &Physics) -> Self {
        let mut body = Self::standing(cell, physics);
        BodyRuleList::start(&mut body, level, cell);
        body
    }

    /// Advances one tick, following `PHYSICS.md` step by step.
    ///
    /// On a level that wraps, feet that crossed an edge end the tick on
    /// the other side.
    ///
    /// On a level that may hold ladders or slopes ([`Tiles::holds`]) the
    /// extended rules apply, which are the plain ones wherever no ladder or
    /// slope is in reach. Where the view allows ([`Tiles::any_order`]), a
    /// tick running on flat ground and a tick in the air with no tile near
    /// take shortcuts that end it in the same state.
    pub fn step<T: Tiles + ?Sized>(&mut self, level: &T, p: &Physics, input: Input) {
        self.step_rules(level, p, input);
        // Last: feet that crossed an edge that wraps enter on the other side.
        level.wrap_feet(&mut self.x, &mut self.y);
    }

    /// [`Body::step`] up to the screen wrap.
    fn step_rules<T: Tiles + ?Sized>(&mut self, level: &T, p: &Physics, input: Input) {
        let extended = BodyRuleList::contact(level);
        if self.dead || (!extended && level.any_order() && self.run_on_ground(level, p, input)) {
            return;
        }
        let pressed = input.jump && !self.jump_held_last_tick;
        let was_grounded = self.grounded;
        // 0. The mechanics' own step (a ladder's climb).
        let jumped = match BodyRuleList::before_tick(self, level, p, input, pressed) {
            Before::Done => {
                self.end_tick(p, input, was_grounded, Jumped::default());
                return;
            }
            Before::Jumped => true,
            Before::Pass => false,
        };
        if extended {
            contact::steps(self, level, p, input, pressed, jumped);
        } else {
            self.plain_steps(level, p, input, pressed, was_grounded);
        }
    }

    /// Whether `input` starts a jump in this state (step 1 of
    /// `PHYSICS.md`, with its extensions): a press while grounded, in
    /// coyote time, on a ladder, against a wall (wall jumps on) or with an
    /// air jump left, or a buffered press on a tick the body starts
    /// grounded.
    #[must_use]
    pub fn jump_starts<T: Tiles + ?Sized>(&self, level: &T, p: &Physics, input: Input) -> bool {
        let pressed = input.jump && !self.jump_held_last_tick;
        if !pressed {
            return BodyRuleList::press_due(self);
        }
        self.grounded
            || BodyRuleList::ground_grace(self)
            || BodyRuleList::starts_jump(self, level)
            || (p.wall_jump.is_some()
                && (self.touches_wall_left(level, p) || self.touches_wall_right(level, p)))
            || self.air_jumps_left > 0
    }
}
