//! Files: bounded reads of untrusted files and whole-or-nothing writes
//! ([`files`]), saved maps ([`navfile`]), saved maps of a body model
//! ([`modelfile`]) and the path JSON of `PHYSICS.md` ([`json`]).

pub mod files;

#[cfg(feature = "serde")]
pub mod json;
#[cfg(feature = "serde")]
pub mod modelfile;
#[cfg(feature = "serde")]
pub mod navfile;
