//! Files: bounded reads of untrusted files and whole-or-nothing writes
//! ([`files`]), saved maps ([`navfile`]) and the path JSON of `PHYSICS.md`
//! ([`json`]).

pub mod files;

#[cfg(feature = "serde")]
pub mod json;
#[cfg(feature = "serde")]
pub mod navfile;
