//! Following a [`FlyPath`]: a desired velocity each tick.

use super::geom::{Point, closest_on_segment};
use super::{FlyError, FlyPath, FreeSpace};

/// What [`FlyFollower::step`] asks of the agent this tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FollowStep {
    /// The velocity to fly at (units per second).
    pub velocity: Point,
    /// True once the agent is at the goal (the velocity is then zero).
    pub arrived: bool,
    /// True when this tick planned a new path.
    pub replanned: bool,
}

/// Steers an agent along shortest paths to a (possibly moving) target.
///
/// Each tick, [`FlyFollower::step`] takes the agent's actual position and
/// the target and returns the velocity toward the next corner of the
/// path, at `max_speed`, slowing down linearly inside `slow_radius` of the
/// goal (arrival). It re-plans when there is no path yet, when the target
/// has moved more than `replan_distance` from the path's goal, when the
/// agent is more than `off_path` from its path (knocked aside), and when
/// the free space changed (an obstacle was added or removed) and the rest
/// of the path is no longer clear.
#[derive(Debug, Clone)]
pub struct FlyFollower {
    /// Top speed (units per second).
    pub max_speed: f64,
    /// Within this distance of the goal the speed falls linearly to zero.
    pub slow_radius: f64,
    /// Re-plan when the target moves this far from the planned goal.
    pub replan_distance: f64,
    /// Re-plan when the agent is this far off its path.
    pub off_path: f64,
    path: Option<FlyPath>,
    next: usize,
    generation: u64,
}

impl FlyFollower {
    /// A follower flying at `max_speed`, slowing within one unit of the
    /// goal, re-planning when the target moves half a unit or the agent is
    /// knocked half a unit off its path.
    #[must_use]
    pub fn new(max_speed: f64) -> Self {
        Self {
            max_speed,
            slow_radius: 1.0,
            replan_distance: 0.5,
            off_path: 0.5,
            path: None,
            next: 1,
            generation: 0,
        }
    }

    /// The path being followed.
    #[must_use]
    pub fn path(&self) -> Option<&FlyPath> {
        self.path.as_ref()
    }

    /// The velocity for this tick of `dt` seconds.
    ///
    /// # Errors
    /// Any [`FlyError`] of [`FreeSpace::find_path`] when a re-plan finds no
    /// path (the follower then has no path, and the next call tries again).
    pub fn step(
        &mut self,
        space: &FreeSpace,
        pos: Point,
        target: Point,
        dt: f64,
    ) -> Result<FollowStep, FlyError> {
        let mut replanned = false;
        if self.needs_plan(space, pos, target) {
            self.path = None;
            let path = space.find_path(pos, target)?;
            self.path = Some(path);
            self.next = 1;
            self.generation = space.generation();
            replanned = true;
        }
        let Some(path) = &self.path else {
            return Ok(FollowStep {
                velocity: Point::default(),
                arrived: false,
                replanned,
            });
        };
        let pts = &path.points;
        let step = self.max_speed * dt.max(0.0);
        // Corners reached (the velocity never carries the agent past one,
        // so it stops on each: cutting one short could clip its obstacle).
        while self.next + 1 < pts.len() && pos.dist(pts[self.next]) <= 1e-9 * (1.0 + step) {
            self.next += 1;
        }
        let goal = pts[pts.len() - 1];
        let to_goal = pos.dist(goal);
        let aim = pts[self.next.min(pts.len() - 1)];
        let d = pos.dist(aim);
        if self.next + 1 >= pts.len() && to_goal <= 1e-6 {
            return Ok(FollowStep {
                velocity: Point::default(),
                arrived: true,
                replanned,
            });
        }
        let mut speed = self.max_speed;
        if self.next + 1 >= pts.len() && self.slow_radius > 0.0 {
            speed *= (to_goal / self.slow_radius).min(1.0);
        }
        // Never overshoot the corner in one tick.
        if dt > 0.0 {
            speed = speed.min(d / dt);
        }
        let dir = if d > 0.0 {
            aim.sub(pos).scale(1.0 / d)
        } else {
            Point::default()
        };
        Ok(FollowStep {
            velocity: dir.scale(speed),
            arrived: false,
            replanned,
        })
    }

    fn needs_plan(&self, space: &FreeSpace, pos: Point, target: Point) -> bool {
        let Some(path) = &self.path else {
            return true;
        };
        let goal = path.points[path.points.len() - 1];
        if space
            .nearest_free(target)
            .is_none_or(|t| t.dist(goal) > self.replan_distance)
        {
            return true;
        }
        let pts = &path.points;
        let i = self.next.min(pts.len() - 1);
        let from = pts[i.saturating_sub(1)];
        if closest_on_segment(pos, from, pts[i]).dist(pos) > self.off_path {
            return true;
        }
        if space.generation() != self.generation {
            // Is the rest of the path still clear?
            let mut a = pos;
            for &b in &pts[i..] {
                if !space.segment_clear(a, b) {
                    return true;
                }
                a = b;
            }
        }
        false
    }
}
