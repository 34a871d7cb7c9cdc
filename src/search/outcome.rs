//! What a query reports: the search's counts, and why no path was returned.

use crate::level::Cell;

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
        /// [`SearchOptions::max_replans`](super::SearchOptions::max_replans).
        limit: u32,
        /// Search counters, over every attempt.
        stats: SearchStats,
    },
    /// The query asks for something platnav does not model yet.
    #[error("not supported: {0}")]
    Unsupported(String),
    /// The expansion budget ran out.
    #[error("search budget of {limit} expansions exhausted ({} expanded, {} pruned)", stats.expanded, stats.pruned)]
    BudgetExhausted {
        /// The budget.
        limit: usize,
        /// Search counters.
        stats: SearchStats,
    },
}
