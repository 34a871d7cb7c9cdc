//! The rules of the world, one module per mechanic, and the tick that
//! applies them in `PHYSICS.md`'s order ([`Body::step`](crate::Body::step)):
//! the base rules (running, jumping, gravity, solid, one-way and hazard
//! tiles), the jump timers (coyote time and jump buffering), ladders and
//! slopes.

mod active;
mod base;
mod contact;
mod ladder;
mod slope;
mod tick;
mod timers;

pub(crate) use active::Active;
