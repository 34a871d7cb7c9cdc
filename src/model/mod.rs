//! Body models: a game's own movement, tick by tick, as platnav needs it.
//!
//! A [`BodyModel`] is what checks a path against a body that is not the
//! reference body of `PHYSICS.md`: its state (bit for bit), one tick under
//! an input, where it stands, whether it is at rest, dead or on a ladder,
//! how it starts standing on a cell, the inputs it understands, and bounds
//! on its motion. The reference body is one model (its
//! [`Physics`](crate::Physics) profile); [`nes`] is Super Mario Bros. as the NES moves him, in the
//! game's fixed point; [`dash`] is a small model with rules of its own.
//!
//! [`conformance_on`](crate::analysis::conformance_on) performs a map's
//! links on any model, so a team can see how far its game's movement is
//! from the profile the map was built with.

mod build;
pub mod dash;
mod follow;
pub mod nes;
mod reference;

pub use build::{ModelLink, ModelMap, ModelMapError, ModelPath, ModelStep};
pub use follow::{ModelFollowState, ModelFollower};

use crate::level::{Cell, Level};
use crate::physics::Input;

/// A body that moves tick by tick under inputs: a game's own controller.
///
/// A model must be deterministic: the same state, level and input give
/// the same next state, bit for bit. Positions are in tiles, y growing
/// downward; a tile `(col, row)` covers `[col, col + 1) x [row, row + 1)`.
///
/// ```
/// use platnav::model::{BodyModel, nes::NesMario};
/// use platnav::{Cell, Input, Level};
///
/// let level: Level = "........\n........\n########".parse()?;
/// let mario = NesMario::small();
/// let mut s = mario.start(&level, Cell::new(1, 1));
/// assert_eq!(mario.standing_cell(&s), Some(Cell::new(1, 1)));
/// for _ in 0..30 {
///     mario.step(&level, &mut s, Input::new(1, false, false));
/// }
/// assert!(mario.feet(&s)[0] > 3.0, "he ran right");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait BodyModel {
    /// Everything that decides the body's next states. Two states that
    /// compare equal take the same inputs through the same states.
    type State: Clone + PartialEq + std::fmt::Debug;

    /// A short name for reports (`"reference"`, `"nes-small"`).
    fn name(&self) -> String;

    /// Seconds per tick.
    fn dt(&self) -> f64;

    /// The body at rest, standing on `cell` of `level`, as a link starts.
    fn start(&self, level: &Level, cell: Cell) -> Self::State;

    /// One tick under `input`.
    fn step(&self, level: &Level, state: &mut Self::State, input: Input);

    /// The middle of the body's feet, in tiles.
    fn feet(&self, state: &Self::State) -> [f64; 2];

    /// The body's velocity, in tiles per second.
    fn velocity(&self, state: &Self::State) -> [f64; 2];

    /// The cell the body stands on, if it is alive and standing on one.
    fn standing_cell(&self, state: &Self::State) -> Option<Cell>;

    /// Standing and not moving: where a link may end.
    fn at_rest(&self, state: &Self::State) -> bool;

    /// Dead bodies stay dead.
    fn dead(&self, state: &Self::State) -> bool;

    /// On a ladder (a model without ladders never is). A model that
    /// climbs ladders says so here: a [`ModelMap`] tries its climb
    /// programs only for a model it sees climbing.
    fn climbing(&self, _state: &Self::State) -> bool {
        false
    }

    /// The inputs the model tells apart: any other input acts as one of
    /// these (by default: moving left, not at all or right, with jump and
    /// down held or not).
    fn inputs(&self) -> Vec<Input> {
        let mut v = Vec::new();
        for move_x in [-1, 0, 1] {
            for jump in [false, true] {
                for down in [false, true] {
                    v.push(Input::new(move_x, jump, down));
                }
            }
        }
        v
    }

    /// What the model promises about its motion, for searches and checks
    /// to rely on (none by default).
    fn bounds(&self) -> Bounds {
        Bounds::default()
    }

    /// What tells this model's instances apart beyond its
    /// [`name`](BodyModel::name) (its tuning, say), as a saved map
    /// records it: a map saved for one is refused for another (empty by
    /// default).
    fn parameters(&self) -> String {
        String::new()
    }

    /// The reference body's profile, when this model is the reference
    /// body (`None` by default): a [`ModelMap`] built for it is platnav's
    /// own [`NavMap`](crate::NavMap), with every family and fast path,
    /// instead of the generic programs.
    fn reference(&self) -> Option<&crate::Physics> {
        None
    }
}

/// What a [`BodyModel`] promises about its motion. A bound it does not
/// give is unknown, and whatever relies on it falls back to a safe
/// default.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[non_exhaustive]
pub struct Bounds {
    /// The body's horizontal velocity never exceeds this many tiles per
    /// second, either way.
    pub top_speed: Option<f64>,
    /// [`BodyModel::start`] and [`BodyModel::step`] read no tile outside
    /// the box of the body's feet (before and after the step, or where
    /// it starts) grown by this many tiles on every side: the tiles whose
    /// column is within `floor(x - r) ..= floor(x + r)` and row within
    /// `floor(y - r) ..= floor(y + r)`, for `(x, y)` over that box. With
    /// it, [`ModelMap::edit`] generates again only the links that read an
    /// edited tile; without it, every edit builds the whole map again.
    pub reads_within: Option<f64>,
}

impl Bounds {
    /// Bounds with the top speed `tiles_per_second`.
    #[must_use]
    pub fn with_top_speed(tiles_per_second: f64) -> Self {
        Self {
            top_speed: Some(tiles_per_second),
            ..Self::default()
        }
    }

    /// These bounds, with the promise that the model reads no tile
    /// farther than `tiles` from its feet (see [`Bounds::reads_within`]).
    #[must_use]
    pub fn reading_within(self, tiles: f64) -> Self {
        Self {
            reads_within: Some(tiles),
            ..self
        }
    }
}
