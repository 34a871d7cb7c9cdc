//! Agents: the components an enemy carries, and the systems that turn its
//! target into an input each fixed tick.

use bevy::prelude::*;
use platnav::{
    Body, Cell, Input, LinkKind, PathFollower,
    follow::{FollowOptions, FollowState},
};

use crate::level::{NavLevel, NavProfile};
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
/// [`platnav::PathFollower`] fed with its [`NavBody`].
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

/// The agent's [`PathFollower`] and what the plugin last reported about
/// it. Added with [`NavAgent`]; read it for the current path and state.
#[derive(Component, Debug, Clone, Default)]
pub struct NavFollower {
    follower: PathFollower,
    /// Plans made when the last messages were written.
    plans: u32,
    /// (plan count, step index) of the link last reported started.
    step: Option<(u32, usize)>,
    state: FollowState,
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

    /// The follower: its path, goal, state and plan count.
    #[must_use]
    pub fn follower(&self) -> &PathFollower {
        &self.follower
    }

    /// Forgets the plan, for example after teleporting the body (see
    /// [`PathFollower::reset`]).
    pub fn reset(&mut self) {
        self.follower.reset();
        self.step = None;
        self.state = FollowState::Idle;
    }

    /// The link being performed: its kind, its start and end cells, if the
    /// agent is on a plan.
    #[must_use]
    pub fn current_link(&self) -> Option<(LinkKind, Cell, Cell)> {
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

/// Plans: one [`PathFollower::next_input`] per agent, and the messages.
#[allow(clippy::too_many_arguments)]
pub(crate) fn plan(
    nav: Option<Res<NavLevel>>,
    adapter: Res<NavTransform>,
    mut agents: Query<(Entity, &NavAgent, &NavBody, &mut NavFollower, &mut NavInput)>,
    bodies: Query<&NavBody>,
    places: Query<&Transform>,
    mut started: MessageWriter<NavLinkStarted>,
    mut replanned: MessageWriter<NavReplanned>,
    mut unreachable: MessageWriter<NavUnreachable>,
) {
    let Some(nav) = nav else { return };
    for (entity, agent, body, mut follow, mut input) in &mut agents {
        let map = nav.map(agent.profile);
        let target = target_cell(agent.target, &bodies, &places, &adapter);
        let (Some(map), Some(target)) = (map, target) else {
            *input = NavInput::default();
            continue;
        };
        let follow = &mut *follow;
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

/// Steps every [`ReferenceMotion`] body one tick on the level.
pub(crate) fn step_bodies(
    nav: Option<Res<NavLevel>>,
    mut bodies: Query<(&mut NavBody, &NavInput, &ReferenceMotion)>,
) {
    let Some(nav) = nav else { return };
    let level = nav.level();
    for (mut body, input, motion) in &mut bodies {
        if motion.0.index() >= nav.profiles().len() {
            continue;
        }
        body.0
            .step(level, nav.physics(motion.0), Input::from(*input));
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
