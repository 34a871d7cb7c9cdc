//! Level analysis for physics tuning: which standing cells the body can
//! reach, where it gets trapped, how the link graph splits into regions,
//! what is missing to reach a goal, the least parameter value that
//! finishes a level, a profile fitted to a recorded trajectory, and how a
//! map's links perform on another profile (conformance).
//!
//! Everything here is sequential and needs no optional dependency; the CLI
//! runs sweeps in parallel over levels and parameter values.

mod conform;
mod fit;
mod reach;
mod report;
mod tune;

pub use conform::{Conformance, Failure, KindConformance, conformance, conformance_on};
pub use fit::{Fit, FitError, MIN_SAMPLES, Sample, fit};
pub use reach::{Reach, Regions, reachable_from, regions, traps};
pub use report::{Diagnosis, GoalReport, MissingLink, Report, ReportOptions, diagnose, report};
pub use tune::{
    Endpoints, Evaluation, Least, Param, SNAP_RADIUS, bisect, build_from, default_goals,
    default_start, evaluate, first_goal_found, last_columns, least_value, resolve,
};

use crate::level::Cell;
use crate::physics::PhysicsError;

/// Why an analysis could not run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum AnalysisError {
    /// The physics profile is invalid.
    #[error(transparent)]
    Physics(#[from] PhysicsError),
    /// The start does not snap to standing ground (or, with no start given,
    /// the level has no standable cell).
    #[error("{}", match cell {
        Some(c) => format!("start {c} is not within {SNAP_RADIUS} cells of standing ground"),
        None => "the level has no standable cell to start from".to_string(),
    })]
    NoStart {
        /// The requested start, if one was given.
        cell: Option<Cell>,
    },
    /// No parameter of that name.
    #[error("unknown parameter {0:?} (known: {known})", known = Param::names())]
    UnknownParam(String),
    /// A bisection range is empty, not finite, or has no positive tolerance.
    #[error("bad range {lo}..{hi} with tolerance {tolerance}")]
    BadRange {
        /// Low end.
        lo: f64,
        /// High end.
        hi: f64,
        /// Tolerance.
        tolerance: f64,
    },
}
