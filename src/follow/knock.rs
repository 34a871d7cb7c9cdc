//! Knock chases: a [`PathFollower`] chasing a goal while the game knocks
//! its body around, counted. See [`knock_chases`].

use crate::search;
use std::time::Instant;

use crate::graph::{NavMap, NodeId};
use crate::level::{Cell, SplitMix64};
use crate::physics::{Body, Physics};

use super::{FollowOptions, FollowState, PathFollower, RecoveryEnd, RecoveryProgram};

/// How [`knock_chases`] runs.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct KnockOptions {
    /// How many chases (each a random start and a goal reachable from it).
    pub chases: u32,
    /// The seed of the starts, goals and knocks.
    pub seed: u64,
    /// Ticks between knocks (the first comes at a random tick of the
    /// first interval).
    pub interval: u32,
    /// Ticks a chase may last before it counts as timed out.
    pub limit: u32,
    /// The followers' options.
    pub follow: FollowOptions,
    /// Time every call of [`PathFollower::next_input`] (the bench's rows).
    pub timings: bool,
}

setters!(KnockOptions {
    with_chases => chases: u32,
    with_seed => seed: u64,
    with_interval => interval: u32,
    with_limit => limit: u32,
    with_follow => follow: FollowOptions,
    with_timings => timings: bool,
});

impl Default for KnockOptions {
    /// 80 chases from seed 1, a knock every 120 ticks, 60 s (3,600 ticks)
    /// per chase, the default follower, no timings.
    fn default() -> Self {
        Self {
            chases: 80,
            seed: 1,
            interval: 120,
            limit: 3_600,
            follow: FollowOptions::default(),
            timings: false,
        }
    }
}

/// One death of a [`knock_chases`] run.
#[derive(Debug, Clone, PartialEq)]
pub struct KnockDeath {
    /// The chase (0-based).
    pub chase: u32,
    /// Its start and goal.
    pub start: Cell,
    /// The goal.
    pub goal: Cell,
    /// The tick of the chase at which the body died.
    pub tick: u32,
    /// The body's state right after the last knock before the death
    /// (`None`: it died without being knocked).
    pub knocked: Option<Body>,
    /// Whether some recovery program lands alive from that state
    /// ([`can_land_alive`]): an avoidable death.
    pub avoidable: bool,
    /// Ticks before the death from which the follower reported
    /// [`FollowState::FallingToDeath`] without a break (0: never).
    pub warned: u32,
}

/// What [`knock_chases`] counted.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KnockReport {
    /// Chases run.
    pub chases: u32,
    /// Chases that ended standing at rest on their goal.
    pub arrivals: u32,
    /// Chases that ended with the body dead.
    pub deaths: u32,
    /// Deaths from a state (right after the last knock) where some recovery
    /// program lands alive.
    pub avoidable: u32,
    /// Deaths the follower did not report ([`FollowState::FallingToDeath`])
    /// on the tick before.
    pub unannounced: u32,
    /// Chases still running at the tick limit.
    pub timeouts: u32,
    /// Of those, chases whose body ended on a standing cell from which the
    /// goal cannot be reached (knocked into a pit it cannot leave).
    pub stranded: u32,
    /// Knocks dealt.
    pub knocks: u32,
    /// Every death, in order.
    pub death_list: Vec<KnockDeath>,
    /// With [`KnockOptions::timings`]: microseconds per call of
    /// [`PathFollower::next_input`] that emitted the input of a tape
    /// planned before ([`FollowState::OnPlan`]), unsorted.
    pub on_plan_us: Vec<f64>,
    /// With [`KnockOptions::timings`]: microseconds per call off plan that
    /// planned nothing (recovering, settling, arrived...), unsorted.
    pub off_plan_us: Vec<f64>,
    /// With [`KnockOptions::timings`]: microseconds per call that planned
    /// a path (off plan too), unsorted.
    pub planning_us: Vec<f64>,
}

/// Knocks `body`: sets its velocity to a random one the physics allows,
/// `vx` uniform within the fastest horizontal speed either way, `vy`
/// uniform from a jump's take-off speed upward to a quarter of it
/// downward (capped at the fall speed).
pub fn knock(body: &mut Body, physics: &Physics, rng: &mut SplitMix64) {
    let mut uniform = |lo: f64, hi: f64| {
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * u
    };
    let vmax = physics.max_speed_x();
    body.vx = uniform(-vmax, vmax);
    body.vy = uniform(
        -physics.jump_speed,
        (0.25 * physics.jump_speed).min(physics.max_fall_speed),
    );
}

/// Runs seeded chases on `map`: each from a random standing cell to a
/// random goal reachable from it, a [`PathFollower`] driving the reference
/// body, [`knock`]ed every [`KnockOptions::interval`] ticks, until it
/// arrives (stands at rest on the goal), dies or runs out of ticks.
///
/// Every death is judged from the body's state right after the last knock:
/// avoidable when some recovery program ([`can_land_alive`]) lands alive from
/// there. The same options always give the same report (timings aside).
#[must_use]
pub fn knock_chases(map: &NavMap, options: &KnockOptions) -> KnockReport {
    let mut report = KnockReport::default();
    let n = map.node_count() as u64;
    if n < 2 {
        return report;
    }
    let p = map.physics();
    let mut rng = SplitMix64::new(options.seed);
    for chase in 0..options.chases {
        // A start, and a goal reachable from it (a few tries).
        let mut pick = None;
        for _ in 0..16 {
            let s = NodeId(rng.below(n) as u32);
            let dist = search::dijkstra(map, s);
            let reachable: Vec<usize> = (0..dist.len())
                .filter(|&g| g != s.0 as usize && dist[g].is_some())
                .collect();
            if !reachable.is_empty() {
                let g = reachable[rng.below(reachable.len() as u64) as usize];
                pick = Some((map.cell(s), map.nodes()[g]));
                break;
            }
        }
        let Some((start, goal)) = pick else {
            continue;
        };
        report.chases += 1;
        let mut body = Body::start(map.level(), start, p);
        let mut follower = PathFollower::new(options.follow.clone());
        let mut knocked = None;
        let mut warned = 0u32;
        // The first knock comes at a random tick of the first interval, so
        // knocks find bodies at every point of their paths.
        let interval = options.interval.max(1);
        let mut next_knock = 1 + rng.below(u64::from(interval)) as u32;
        let mut ended = false;
        for tick in 0..options.limit {
            if body.stands_on(goal) && body.vx == 0.0 {
                report.arrivals += 1;
                ended = true;
                break;
            }
            let input = if options.timings {
                let plans = follower.plans();
                let t = Instant::now();
                let input = follower.next_input(map, &body, goal);
                let us = t.elapsed().as_secs_f64() * 1e6;
                if follower.plans() != plans {
                    report.planning_us.push(us);
                } else if follower.state() == FollowState::OnPlan {
                    report.on_plan_us.push(us);
                } else {
                    report.off_plan_us.push(us);
                }
                input
            } else {
                follower.next_input(map, &body, goal)
            };
            if matches!(follower.state(), FollowState::FallingToDeath { .. }) {
                warned += 1;
            } else {
                warned = 0;
            }
            body.step(map.level(), p, input);
            if body.dead {
                let avoidable = knocked.is_none_or(|k| can_land_alive(map, &k));
                report.deaths += 1;
                report.avoidable += u32::from(avoidable);
                report.unannounced += u32::from(warned == 0);
                report.death_list.push(KnockDeath {
                    chase,
                    start,
                    goal,
                    tick,
                    knocked,
                    avoidable,
                    warned,
                });
                ended = true;
                break;
            }
            if tick + 1 >= next_knock {
                next_knock += interval;
                knock(&mut body, p, &mut rng);
                report.knocks += 1;
                knocked = Some(body);
            }
        }
        if !ended {
            report.timeouts += 1;
            report.stranded += u32::from(follower.state() == FollowState::Unreachable);
        }
    }
    report
}

/// Whether some recovery program lands alive from `body`'s state.
#[must_use]
pub fn can_land_alive(map: &NavMap, body: &Body) -> bool {
    let (level, p) = (map.level(), map.physics());
    RecoveryProgram::family(p)
        .iter()
        .any(|prog| matches!(prog.fly(level, p, body), RecoveryEnd::Landed { .. }))
}
