//! What guides a search: its context ([`Ctx`]), the lower bound on the
//! ticks left from a node to the goal (columns to cross at top speed, and
//! the landmark bound).

use crate::graph::landmarks::GoalBound;
use crate::graph::{LinkId, NavMap, NodeId};
use crate::links::LinkKind;
use crate::search::SearchOptions;

pub(super) struct Ctx<'a> {
    pub(super) map: &'a NavMap,
    pub(super) opts: &'a SearchOptions,
    /// Expansions this search may make: what is left of the call's
    /// `opts.max_expansions` after earlier attempts.
    pub(super) budget: usize,
    /// Links a replay missed, sorted; usually empty.
    pub(super) banned: &'a [LinkId],
    pub(super) forbid: [bool; LinkKind::ALL.len()],
    pub(super) levels: usize,
    pub(super) goal: GoalBound,
    pub(super) goal_col: i32,
    pub(super) ticks_per_col: f64,
    /// The level's width when its left and right edges meet, else 0.
    pub(super) wrap_cols: i32,
}

impl Ctx<'_> {
    /// The node and jump count of a state (no division when jumps are not
    /// capped, which is one state per node).
    #[inline]
    pub(super) fn split(&self, state: usize) -> (NodeId, usize) {
        if self.levels == 1 {
            (NodeId(state as u32), 0)
        } else {
            (NodeId((state / self.levels) as u32), state % self.levels)
        }
    }

    #[inline]
    pub(super) fn h(&self, node: u32) -> f64 {
        self.h_at(node, self.map.nodes()[node as usize].col)
    }

    /// [`Ctx::h`] for a node in column `col`.
    #[inline]
    pub(super) fn h_at(&self, node: u32, col: i32) -> f64 {
        let across = f64::from(cols_apart(col, self.goal_col, self.wrap_cols)) * self.ticks_per_col;
        across.max(f64::from(self.map.landmark_bound(node, &self.goal)))
    }
}

/// Columns between columns `a` and `b`: the nearer way round on a level
/// `wrap_cols` wide whose left and right edges meet, straight across when
/// `wrap_cols` is 0.
#[inline]
pub(crate) fn cols_apart(a: i32, b: i32, wrap_cols: i32) -> u32 {
    let d = (a - b).unsigned_abs();
    if wrap_cols > 0 {
        d.min(wrap_cols.unsigned_abs().saturating_sub(d))
    } else {
        d
    }
}
