//! What a query asks for and what it reports: search options, the search's
//! counts, and why no path was returned. Shared by the search and the paths
//! it returns.

use crate::level::Cell;
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

/// Counters of one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SearchStats {
    /// Nodes expanded (their links scanned).
    pub expanded: usize,
    /// Labels dropped as dominated or cut from the beam.
    pub pruned: usize,
    /// Re-plans after a replay missed a link.
    pub replans: usize,
}

/// Which end of a query a [`PathError::InvalidEndpoint`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Endpoint {
    /// Where the path starts.
    Start,
    /// Where it should end.
    Goal,
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Start => "start",
            Self::Goal => "goal",
        })
    }
}

/// Why no path was returned.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PathError {
    /// The start or goal is not standable and no standable cell is within
    /// the snap radius.
    #[error("{which} {cell} is not standable and no standable cell is within {radius} cells")]
    InvalidEndpoint {
        /// The start or the goal.
        which: Endpoint,
        /// The requested cell.
        cell: Cell,
        /// The snap radius searched.
        radius: u32,
    },
    /// The goal cannot be reached under the options.
    #[error("no path from {start} to {goal} ({} expanded, {} pruned)", stats.expanded, stats.pruned)]
    Unreachable {
        /// Start used (after snapping).
        start: Cell,
        /// Goal used (after snapping).
        goal: Cell,
        /// Search counters.
        stats: SearchStats,
    },
    /// Every route the search found missed a link when its tape was
    /// performed from the off-centre state of a chained start (a
    /// knife-edge jump), `limit` times: the graph may still have a route.
    #[error("no path from {start} to {goal} survived its replay after {limit} re-plans ({} expanded)", stats.expanded)]
    ReplanLimit {
        /// Start used (after snapping).
        start: Cell,
        /// Goal used (after snapping).
        goal: Cell,
        /// [`SearchOptions::max_replans`].
        limit: u32,
        /// Search counters, over every attempt.
        stats: SearchStats,
    },
    /// The expansion budget ran out.
    #[error("search budget of {limit} expansions exhausted ({} expanded, {} pruned)", stats.expanded, stats.pruned)]
    BudgetExhausted {
        /// The budget.
        limit: usize,
        /// Search counters.
        stats: SearchStats,
    },
}
