//! Where one standing cell's links are generated: what every family
//! reads ([`Start`]).

use crate::classify::Classification;
use crate::level::{Cell, Level};
use crate::links::landing::MemoSlot;
use crate::links::options::JumpVariety;
use crate::links::sim::Sim;
use crate::physics::Physics;
use crate::physics::reads::Reads;

/// One standing cell's generation: the level and physics, the cell, where
/// the build notes the cells programs look at, and the jump programs to try.
pub(crate) struct Start<'a> {
    pub level: &'a Level,
    pub p: &'a Physics,
    pub classes: &'a Classification,
    /// The standing cell.
    pub from: Cell,
    /// Where the build notes the cells the programs look at.
    pub reads: Option<&'a Reads>,
    /// The jump programs to try.
    pub jumps: JumpVariety,
}

impl<'a> Start<'a> {
    /// A fresh simulation from standing on the cell, with the worker's
    /// landing memo.
    pub fn sim<'b>(&self, memo: Option<&'b MemoSlot>) -> Sim<'b>
    where
        'a: 'b,
    {
        Sim::recording(
            self.level,
            self.p,
            self.classes,
            self.from,
            self.reads,
            memo,
        )
    }
}
