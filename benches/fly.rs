//! Criterion: `fly` builds and queries (filled in below).
fn main() {}
