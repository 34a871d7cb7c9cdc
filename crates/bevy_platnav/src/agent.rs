//! Agents: the components an enemy carries, and the systems that turn its
//! target into an input each fixed tick.

use bevy::prelude::*;
use platnav::search::timed::{Place, TimedKind, TimedMemory, TimedOptions, TimedPath, TimedStep};
use platnav::{
    Body, Cell, Input, LinkKind, NavMap, PathFollower,
    follow::{FollowOptions, FollowState, TimedFollowState, TimedFollower},
};

use crate::level::{NavLevel, NavProfile};
use crate::platform::{NavPlatforms, NavTimedMemory};
use crate::{NavLinkStarted, NavReplanned, NavTransform, NavUnreachable};

/// Where an agent is heading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NavTarget {
    /// Nowhere: the agent stands still.
    #[default]
    None,
    /// A cell (snapped to the nearest cell the agent can stand on).
    Cell(Cell),
    /// Another entity: its [`NavBody`]'s cell when it has one, else the
    /// cell under its `Transform` through [`NavTransform`].
    Entity(Entity),
}

/// An enemy that navigates: its kind (a profile of the [`NavLevel`]) and
/// its target. Each fixed tick the plugin writes its [`NavInput`] from a
/// [`platnav::PathFollower`] fed with its [`NavBody`], or, on a level with
/// moving platforms ([`crate::NavPlatforms`]), from a
/// [`platnav::follow::TimedFollower`] on the shared tick.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
#[require(NavInput, NavFollower)]
pub struct NavAgent {
    /// The agent's kind: which physics and nav map it uses.
    pub profile: NavProfile,
    /// Where it is heading.
    pub target: NavTarget,
}

/// The state of an entity's body in level units (tiles, y down) as the
/// reference physics of `PHYSICS.md` defines it: what the follower plans
/// from. With [`ReferenceMotion`] the plugin steps it; a game with its own
/// physics writes it each tick instead (see [`NavTransform`]).
#[derive(Component, Debug, Clone, Copy, PartialEq, Deref, DerefMut)]
pub struct NavBody(pub Body);

/// Marks a body the plugin steps with the reference physics of a profile,
/// from the entity's [`NavInput`], in [`crate::NavSet::Move`], and whose
/// `Transform` it then places in [`crate::NavSet::Sync`]. The performed
/// motion is then exactly the planned one.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Reflect)]
#[require(NavInput)]
pub struct ReferenceMotion(pub NavProfile);

/// What an agent wants to do this tick: the intent the game's physics
/// applies (or [`ReferenceMotion`] does).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
pub struct NavInput {
    /// Horizontal move: -1 left, 0 none, 1 right.
    pub move_x: i8,
    /// The jump button is held.
    pub jump: bool,
    /// Down is held (drops through one-way platforms).
    pub down: bool,
    /// The agent's current link ends above where it started: a hint for
    /// animations or games with climbing; the reference body ignores it.
    pub up: bool,
}

impl From<NavInput> for Input {
    fn from(i: NavInput) -> Self {
        Input::new(i.move_x, i.jump, i.down)
    }
}

impl From<Input> for NavInput {
    fn from(i: Input) -> Self {
        Self {
            move_x: i.move_x,
            jump: i.jump,
            down: i.down,
            up: false,
        }
    }
}

/// The agent's [`PathFollower`] (or, on a level with moving platforms,
/// its [`TimedFollower`]) and what the plugin last reported about it.
/// Added with [`NavAgent`]; read it for the current path and state.
#[derive(Component, Debug, Clone)]
pub struct NavFollower {
    follower: PathFollower,
    /// Plans made when the last messages were written.
    plans: u32,
    /// (plan count, step index) of the link last reported started.
    step: Option<(u32, usize)>,
    state: FollowState,
    timed: Timed,
}

/// The follower in time and what the plugin last reported about it.
#[derive(Debug, Clone)]
struct Timed {
    follower: TimedFollower,
    options: TimedOptions,
    /// The agent's last tick was planned in time.
    active: bool,
    /// The goal the follower heads for (a new target is taken at the
    /// start of a step, or off the plan).
    goal: Option<Cell>,
    /// The map generation it plans on (taken as the goal is).
    generation: Option<u64>,
    /// The start tick of the plan last reported.
    plan_tick: Option<u64>,
    plans: u32,
    /// (plan count, step index) of the step last reported started.
    step: Option<(u32, usize)>,
    /// The link of the map being performed.
    link: Option<(LinkKind, Cell, Cell)>,
    state: TimedFollowState,
    /// What the last search that found no path started from, and its
    /// tick: it is not searched again until one of them changes, or the
    /// platforms have gone through a whole cycle.
    failed: Option<(Failed, u64)>,
}

/// What a timed search depends on, besides the tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Failed {
    goal: Cell,
    generation: u64,
    platforms: u64,
    from: Option<Cell>,
}

impl Timed {
    fn new(options: TimedOptions) -> Self {
        Self {
            follower: TimedFollower::new(options),
            options,
            active: false,
            goal: None,
            generation: None,
            plan_tick: None,
            plans: 0,
            step: None,
            link: None,
            state: TimedFollowState::Idle,
            failed: None,
        }
    }

    /// Forgets the plan (the plan count stays).
    fn reset(&mut self) {
        self.follower = TimedFollower::new(self.options);
        self.goal = None;
        self.generation = None;
        self.plan_tick = None;
        self.step = None;
        self.link = None;
        self.state = TimedFollowState::Idle;
        self.failed = None;
    }
}

impl Default for NavFollower {
    fn default() -> Self {
        Self {
            follower: PathFollower::default(),
            plans: 0,
            step: None,
            state: FollowState::default(),
            timed: Timed::new(TimedOptions::default()),
        }
    }
}

impl NavFollower {
    /// A follower with these options (the default is exact search).
    #[must_use]
    pub fn new(options: FollowOptions) -> Self {
        Self {
            follower: PathFollower::new(options),
            ..Self::default()
        }
    }

    /// Sets the options of the follower in time, used on a level with
    /// moving platforms.
    #[must_use]
    pub fn with_timed_options(mut self, options: TimedOptions) -> Self {
        self.timed = Timed::new(options);
        self
    }

    /// The follower: its path, goal, state and plan count. It stays idle
    /// on a level with moving platforms: see [`NavFollower::timed`].
    #[must_use]
    pub fn follower(&self) -> &PathFollower {
        &self.follower
    }

    /// The follower in time, used on a level with moving platforms
    /// ([`crate::NavPlatforms`]): its state and its path
    /// ([`TimedPath`], whose steps are the map's links, boardings and
    /// leavings).
    #[must_use]
    pub fn timed(&self) -> &TimedFollower {
        &self.timed.follower
    }

    /// Whether the agent's last tick was planned in time, over moving
    /// platforms (by [`NavFollower::timed`]).
    #[must_use]
    pub fn is_timed(&self) -> bool {
        self.timed.active
    }

    /// The plans made so far: the [`PathFollower`]'s, or on a level with
    /// moving platforms the [`TimedFollower`]'s.
    #[must_use]
    pub fn plans(&self) -> u32 {
        if self.timed.active {
            self.timed.plans
        } else {
            self.follower.plans()
        }
    }

    /// Forgets the plan, for example after teleporting the body (see
    /// [`PathFollower::reset`]).
    pub fn reset(&mut self) {
        self.follower.reset();
        self.step = None;
        self.state = FollowState::Idle;
        self.timed.reset();
    }

    /// The link being performed: its kind, its start and end cells, if the
    /// agent is on a plan (on a level with moving platforms, a link of the
    /// map: not a boarding or a leaving).
    #[must_use]
    pub fn current_link(&self) -> Option<(LinkKind, Cell, Cell)> {
        if self.timed.active {
            return self.timed.link;
        }
        let (_, i) = self.step?;
        if self.state != FollowState::OnPlan {
            return None;
        }
        let s = self.follower.path()?.steps().get(i)?;
        Some((s.kind, s.from, s.to))
    }
}

/// The index of the path step holding tape tick `t`.
fn step_at(steps: &[platnav::search::PathStep], t: usize) -> Option<usize> {
    let mut end = 0usize;
    steps.iter().position(|s| {
        end += s.ticks as usize;
        t < end
    })
}

/// The cell a target stands for, if any.
pub(crate) fn target_cell(
    target: NavTarget,
    bodies: &Query<&NavBody>,
    places: &Query<&Transform>,
    adapter: &NavTransform,
) -> Option<Cell> {
    match target {
        NavTarget::None => None,
        NavTarget::Cell(c) => Some(c),
        NavTarget::Entity(e) => {
            if let Ok(b) = bodies.get(e) {
                Some(b.standing_cell().unwrap_or_else(|| b.feet_cell()))
            } else {
                places
                    .get(e)
                    .ok()
                    .map(|t| adapter.cell_at(t.translation.truncate()))
            }
        }
    }
}

/// Plans: one [`PathFollower::next_input`] per agent (on a level with
/// moving platforms, one [`TimedFollower::next_input`] on the shared
/// tick), and the messages.
#[allow(clippy::too_many_arguments)]
pub(crate) fn plan(
    nav: Option<Res<NavLevel>>,
    platforms: Option<Res<NavPlatforms>>,
    mut memory: Option<ResMut<NavTimedMemory>>,
    adapter: Res<NavTransform>,
    mut agents: Query<(Entity, &NavAgent, &NavBody, &mut NavFollower, &mut NavInput)>,
    bodies: Query<&NavBody>,
    places: Query<&Transform>,
    mut started: MessageWriter<NavLinkStarted>,
    mut replanned: MessageWriter<NavReplanned>,
    mut unreachable: MessageWriter<NavUnreachable>,
) {
    let Some(nav) = nav else { return };
    let moving = NavPlatforms::active(platforms.as_deref());
    for (entity, agent, body, mut follow, mut input) in &mut agents {
        if follow.timed.active != moving.is_some() {
            follow.timed.active = moving.is_some();
        }
        let map = nav.map(agent.profile);
        let target = target_cell(agent.target, &bodies, &places, &adapter);
        let (Some(map), Some(target)) = (map, target) else {
            *input = NavInput::default();
            continue;
        };
        let follow = &mut *follow;
        if let Some(platforms) = moving {
            let t = &follow.timed;
            let memory = memory
                .as_deref_mut()
                .map(|m| m.of(agent.profile.index(), t.options));
            *input = plan_timed(
                entity,
                (map, platforms, memory),
                body,
                target,
                follow,
                (&mut started, &mut replanned, &mut unreachable),
            );
            continue;
        }
        let raw = follow.follower.next_input(map, body, target);
        let state = follow.follower.state();
        let plans = follow.follower.plans();
        if plans != follow.plans {
            if let (Some(path), Some(goal)) = (follow.follower.path(), follow.follower.goal()) {
                replanned.write(NavReplanned {
                    agent: entity,
                    goal,
                    links: path.steps().len(),
                    first: follow.plans == 0,
                    generation: map.generation(),
                });
            }
            follow.plans = plans;
        }
        let mut up = false;
        if state == FollowState::OnPlan
            && let (Some(path), Some(tick)) = (follow.follower.path(), follow.follower.tick())
            && let Some(i) = step_at(path.steps(), tick.saturating_sub(1))
        {
            let s = path.steps()[i];
            up = s.to.row < s.from.row;
            if follow.step != Some((plans, i)) {
                follow.step = Some((plans, i));
                started.write(NavLinkStarted {
                    agent: entity,
                    kind: s.kind,
                    from: s.from,
                    to: s.to,
                    ticks: s.ticks,
                });
            }
        }
        if state == FollowState::Unreachable && follow.state != FollowState::Unreachable {
            unreachable.write(NavUnreachable {
                agent: entity,
                from: body.standing_cell(),
                target,
            });
        }
        follow.state = state;
        *input = NavInput {
            up,
            ..NavInput::from(raw)
        };
    }
}

/// How far the timed search looks for a standable cell near a target
/// (as [`platnav::search::timed::find_path_timed`] does).
const SNAP_RADIUS: u32 = 3;

/// The fewest ticks between two searches from the same place to the same
/// goal that both found no path.
const RETRY_TICKS: u64 = 30;

/// One agent's tick over moving platforms: its [`TimedFollower`]'s input
/// on the shared tick, and the messages.
fn plan_timed(
    entity: Entity,
    (map, platforms, memory): (&NavMap, &NavPlatforms, Option<&TimedMemory>),
    body: &Body,
    target: Cell,
    follow: &mut NavFollower,
    (started, replanned, unreachable): (
        &mut MessageWriter<NavLinkStarted>,
        &mut MessageWriter<NavReplanned>,
        &mut MessageWriter<NavUnreachable>,
    ),
) -> NavInput {
    let tick = platforms.tick();
    let moving = platforms.platforms();
    let t = &mut follow.timed;
    let generation = map.generation();
    // A new target or map is taken off the plan, or at the start of a
    // step (the body at rest on a cell or a platform), so that a chase
    // never gives up a jump or a ride half way.
    let free = t.follower.state() != TimedFollowState::OnPlan
        || t.follower.path().is_none_or(|p| at_step_start(p, tick));
    if free {
        if t.generation.is_some_and(|g| g != generation) {
            t.follower = TimedFollower::new(t.options);
        }
        t.generation = Some(generation);
        t.goal = Some(platnav::search::snap(map, target, SNAP_RADIUS).unwrap_or(target));
    }
    let goal = t.goal.unwrap_or(target);
    // A search that finds no path tries every wait up to the platforms'
    // period and costs milliseconds: it is made again when something it
    // depends on changes, or after a cycle of the platforms (the
    // follower's own retries are sooner).
    let key = Failed {
        goal,
        generation,
        platforms: platforms.version(),
        from: body.standing_cell(),
    };
    if t.state == TimedFollowState::Unreachable {
        if let Some((failed, at)) = t.failed
            && failed == key
            && tick < at.saturating_add(moving.longest_period().max(RETRY_TICKS))
        {
            return NavInput::default();
        }
        // A fresh follower searches at once.
        t.follower = TimedFollower::new(t.options);
    }
    // With the plugin's memory, every agent of a kind plans on one
    // planner's forecasts.
    let raw = match memory {
        Some(memory) => t
            .follower
            .next_input_with_memory((map, moving), memory, body, tick, goal),
        None => t.follower.next_input(map, moving, body, tick, goal),
    };
    let state = t.follower.state();
    if let Some(path) = t.follower.path()
        && t.plan_tick != Some(path.start_tick)
    {
        replanned.write(NavReplanned {
            agent: entity,
            goal: path.goal,
            links: path.steps.len(),
            first: t.plans == 0,
            generation,
        });
        t.plans += 1;
        t.plan_tick = Some(path.start_tick);
    }
    let mut up = false;
    t.link = None;
    if state == TimedFollowState::OnPlan
        && let Some(path) = t.follower.path()
        && let Some(i) = timed_step_at(&path.steps, tick)
    {
        let s = path.steps[i];
        up = feet_y(s.to, s.tick + u64::from(s.ticks), platforms)
            < feet_y(s.from, s.tick, platforms) - 1e-6;
        let link = match (s.kind, s.from, s.to) {
            (TimedKind::Link(kind), Place::Cell(from), Place::Cell(to)) => Some((kind, from, to)),
            _ => None,
        };
        t.link = link;
        if t.step != Some((t.plans, i)) {
            t.step = Some((t.plans, i));
            if let Some((kind, from, to)) = link {
                started.write(NavLinkStarted {
                    agent: entity,
                    kind,
                    from,
                    to,
                    ticks: s.ticks,
                });
            }
        }
    }
    if state == TimedFollowState::Unreachable {
        t.failed = Some((key, tick));
        if t.state != TimedFollowState::Unreachable {
            unreachable.write(NavUnreachable {
                agent: entity,
                from: body.standing_cell(),
                target: goal,
            });
        }
    }
    t.state = state;
    NavInput {
        up,
        ..NavInput::from(raw)
    }
}

/// Whether tick `tick` starts a step of `path` (or is past its end).
fn at_step_start(path: &TimedPath, tick: u64) -> bool {
    tick >= path.start_tick + path.ticks() || path.steps.iter().any(|s| s.tick == tick)
}

/// The index of the timed path's step holding tick `tick`.
fn timed_step_at(steps: &[TimedStep], tick: u64) -> Option<usize> {
    steps
        .iter()
        .position(|s| s.tick <= tick && tick < s.tick + u64::from(s.ticks))
}

/// The feet's `y` of a body at rest on `place` on tick `tick`.
fn feet_y(place: Place, tick: u64, platforms: &NavPlatforms) -> f64 {
    match place {
        Place::Cell(c) => f64::from(c.row + 1),
        Place::Platform { platform, .. } => platforms
            .platforms()
            .all()
            .get(platform as usize)
            .map_or(0.0, |m| m.at(tick)[1]),
    }
}

/// Steps every [`ReferenceMotion`] body one tick on the level (and, on a
/// level with moving platforms, with them, on the shared tick).
pub(crate) fn step_bodies(
    nav: Option<Res<NavLevel>>,
    platforms: Option<Res<NavPlatforms>>,
    mut bodies: Query<(&mut NavBody, &NavInput, &ReferenceMotion)>,
) {
    let Some(nav) = nav else { return };
    let level = nav.level();
    let moving = NavPlatforms::active(platforms.as_deref());
    for (mut body, input, motion) in &mut bodies {
        if motion.0.index() >= nav.profiles().len() {
            continue;
        }
        let physics = nav.physics(motion.0);
        match moving {
            Some(p) => {
                body.0
                    .step_moving(level, p.platforms(), p.tick(), physics, Input::from(*input))
            }
            None => body.0.step(level, physics, Input::from(*input)),
        }
    }
}

/// Places the `Transform` of every [`ReferenceMotion`] body.
pub(crate) fn sync_transforms(
    nav: Option<Res<NavLevel>>,
    adapter: Res<NavTransform>,
    mut bodies: Query<(&NavBody, &ReferenceMotion, &mut Transform)>,
) {
    let Some(nav) = nav else { return };
    for (body, motion, mut transform) in &mut bodies {
        if motion.0.index() >= nav.profiles().len() {
            continue;
        }
        let p = adapter.body_center(body, nav.physics(motion.0));
        transform.translation.x = p.x;
        transform.translation.y = p.y;
    }
}

impl NavLevel {
    /// A standing body on `cell` for `profile`, and the components an
    /// agent needs: [`NavAgent`], [`NavBody`] and [`ReferenceMotion`] (the
    /// plugin steps the body with the reference physics). Add a
    /// `Transform` to have it placed through [`crate::NavTransform`].
    #[must_use]
    pub fn agent(
        &self,
        profile: NavProfile,
        cell: Cell,
        target: crate::NavTarget,
    ) -> (NavAgent, NavBody, ReferenceMotion) {
        (
            NavAgent { profile, target },
            NavBody(Body::start(self.level(), cell, self.physics(profile))),
            ReferenceMotion(profile),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use platnav::find_path;

    #[test]
    fn step_at_finds_the_link_of_each_tick() {
        let level: platnav::Level = "\
..........
.S......G.
##########"
            .parse()
            .unwrap();
        let physics = platnav::Physics::default();
        let map = platnav::NavMap::build(&level, &physics).unwrap();
        let path = find_path(&map, Cell::new(1, 1), Cell::new(8, 1), &Default::default()).unwrap();
        let steps = path.steps();
        assert!(!steps.is_empty());
        let total: usize = steps.iter().map(|s| s.ticks as usize).sum();
        assert_eq!(total, path.inputs().len());
        assert_eq!(step_at(steps, 0), Some(0));
        assert_eq!(step_at(steps, total - 1), Some(steps.len() - 1));
        assert_eq!(step_at(steps, total), None);
        let first = steps[0].ticks as usize;
        if steps.len() > 1 {
            assert_eq!(step_at(steps, first - 1), Some(0));
            assert_eq!(step_at(steps, first), Some(1));
        }
    }
}
