//! The reference body of `PHYSICS.md` as a [`BodyModel`]: its profile is
//! the model, its [`Body`] the state.

use super::{BodyModel, Bounds};
use crate::level::{Cell, Level};
use crate::physics::{Body, Input, Physics};

impl BodyModel for Physics {
    type State = Body;

    fn name(&self) -> String {
        "reference".into()
    }

    fn dt(&self) -> f64 {
        self.dt
    }

    fn start(&self, level: &Level, cell: Cell) -> Body {
        Body::start(level, cell, self)
    }

    fn step(&self, level: &Level, state: &mut Body, input: Input) {
        state.step(level, self, input);
    }

    fn feet(&self, state: &Body) -> [f64; 2] {
        [state.x, state.y]
    }

    fn velocity(&self, state: &Body) -> [f64; 2] {
        [state.vx, state.vy]
    }

    fn standing_cell(&self, state: &Body) -> Option<Cell> {
        state.standing_cell()
    }

    fn at_rest(&self, state: &Body) -> bool {
        state.vx == 0.0 && state.standing_cell().is_some()
    }

    fn dead(&self, state: &Body) -> bool {
        state.dead
    }

    fn climbing(&self, state: &Body) -> bool {
        state.climbing
    }

    /// Moving left, not at all or right, with jump, down and up each held
    /// or not (up climbs ladders).
    fn inputs(&self) -> Vec<Input> {
        let mut v = Vec::new();
        for move_x in [-1, 0, 1] {
            for jump in [false, true] {
                for down in [false, true] {
                    for up in [false, true] {
                        v.push(Input::new(move_x, jump, down).with_up(up));
                    }
                }
            }
        }
        v
    }

    /// Itself: maps for the reference body are [`crate::NavMap`]s.
    fn reference(&self) -> Option<&Physics> {
        Some(self)
    }

    /// The run speed, or a wall jump's push when it is faster: nothing
    /// else sets the body's horizontal velocity (`PHYSICS.md`).
    fn bounds(&self) -> Bounds {
        let push = self.wall_jump.map_or(0.0, |w| w.speed_x);
        Bounds::with_top_speed(self.run_speed.max(push))
    }
}
