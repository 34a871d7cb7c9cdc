//! The twins of the link engine's own families: the same programs, each
//! performed from scratch.

pub(crate) mod fall;
pub(crate) mod jump;
pub(crate) mod run;
pub(crate) mod wall_jump;
