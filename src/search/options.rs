//! What a query asks for: [`SearchOptions`].

use crate::links::LinkKind;

/// How to search.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SearchOptions {
    /// `None`: exact search. `Some(k)`: keep the `k` best frontier paths.
    pub beam_width: Option<usize>,
    /// Give up after expanding this many nodes in one call, its re-plans
    /// included.
    pub max_expansions: usize,
    /// Link kinds the path may not use.
    pub forbid: Vec<LinkKind>,
    /// Most jump presses (ground, air and wall jumps) the path may use.
    pub max_jumps: Option<u32>,
    /// How far (in cells) a start or goal that is not standable may be moved
    /// to the nearest standable cell. 0 disables snapping.
    pub snap_radius: u32,
    /// How many times a path whose replay misses a link (a knife-edge jump
    /// from an off-centre start) is re-planned without that link.
    pub max_replans: u32,
}

setters!(SearchOptions {
    with_beam_width => beam_width: Option<usize>,
    with_max_expansions => max_expansions: usize,
    with_forbid => forbid: Vec<LinkKind>,
    with_max_jumps => max_jumps: Option<u32>,
    with_snap_radius => snap_radius: u32,
    with_max_replans => max_replans: u32,
});

impl Default for SearchOptions {
    fn default() -> Self {
        Self {
            beam_width: None,
            max_expansions: 1_000_000,
            forbid: Vec::new(),
            max_jumps: None,
            snap_radius: 8,
            max_replans: 16,
        }
    }
}

impl SearchOptions {
    /// Beam search keeping the `k` best frontier paths.
    #[must_use]
    pub fn beam(k: usize) -> Self {
        Self {
            beam_width: Some(k.max(1)),
            ..Self::default()
        }
    }
}
