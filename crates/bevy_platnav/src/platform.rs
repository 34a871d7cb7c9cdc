//! Moving platforms: the level's [`Platforms`] and the shared tick they
//! and the bodies step on, and entities placed where a platform is.

use bevy::prelude::*;
use platnav::level::{Platform, PlatformError, Platforms};
use platnav::search::timed::{TimedMemory, TimedOptions};

use crate::{JobKind, NavLevel, NavMapFailed, NavTransform};

/// The level's moving platforms (`PHYSICS.md`, "Moving platforms") and the
/// shared tick: the number of `FixedUpdate` runs since the resource was
/// inserted, the tick the platforms are placed on.
///
/// While it holds a platform, every [`crate::ReferenceMotion`] body steps
/// with [`platnav::Body::step_moving`] on [`NavPlatforms::tick`] (it rides
/// the platforms), and every [`crate::NavAgent`] follows paths planned in
/// time with a [`platnav::follow::TimedFollower`] on that same tick. With
/// no platform (or no resource) nothing changes: bodies take
/// [`platnav::Body::step`] and agents a [`platnav::PathFollower`].
///
/// The plugin inserts it when a [`NavLevel`] brings platforms from its file
/// ([`NavLevel::load`], [`NavLevel::with_platforms`]) and has a profile (the
/// platforms are checked for the profiles' tick), and replaces or removes
/// it when another level arrives. A game may insert its own instead (the
/// plugin leaves it alone); change the platforms with
/// [`NavPlatforms::set_platforms`], which keeps the tick (the maps do not
/// depend on platforms: nothing is rebuilt).
///
/// The tick: in [`crate::NavSet::Plan`] and [`crate::NavSet::Move`] it is
/// the tick being stepped from (the bodies' state is of that tick, the
/// platforms are at [`platnav::level::Moving::at`] of it); it advances by
/// one as [`crate::NavSet::Sync`] starts, where each [`NavPlatform`]'s
/// `Transform` is placed on the new tick, as the bodies are.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct NavPlatforms {
    platforms: Platforms,
    tick: u64,
    /// Times the platforms were replaced.
    version: u64,
    /// Made by the plugin from a [`NavLevel`]'s platforms (replaced when
    /// another level arrives; a game's own never is).
    from_level: bool,
}

impl NavPlatforms {
    /// Checks `platforms` for ticks of `dt` seconds (the profiles'
    /// [`platnav::Physics::dt`]), from tick 0.
    ///
    /// # Errors
    /// [`PlatformError`] naming the first platform that is malformed.
    pub fn new(platforms: Vec<Platform>, dt: f64) -> Result<Self, PlatformError> {
        Ok(Self::from_platforms(Platforms::new(platforms, dt)?))
    }

    /// Platforms already checked, from tick 0.
    #[must_use]
    pub fn from_platforms(platforms: Platforms) -> Self {
        Self {
            platforms,
            tick: 0,
            version: 0,
            from_level: false,
        }
    }

    /// The platforms.
    #[must_use]
    pub fn platforms(&self) -> &Platforms {
        &self.platforms
    }

    /// Replaces the platforms, keeping the tick. Followers whose plans
    /// they change notice it (their bodies leave the plan) and plan again.
    pub fn set_platforms(&mut self, platforms: Platforms) {
        self.platforms = platforms;
        self.version += 1;
    }

    /// The shared tick (see [`NavPlatforms`] for when it advances).
    #[must_use]
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Sets the shared tick (for a loaded game, or a test).
    pub fn set_tick(&mut self, tick: u64) {
        self.tick = tick;
    }

    /// Platform `index`'s top-left corner on the current tick, in tiles
    /// (y down).
    #[must_use]
    pub fn corner(&self, index: usize) -> Option<[f64; 2]> {
        self.platforms.all().get(index).map(|m| m.at(self.tick))
    }

    /// Times the platforms were replaced.
    pub(crate) fn version(&self) -> u64 {
        self.version
    }

    /// Whether there are platforms to ride.
    pub(crate) fn active(this: Option<&Self>) -> Option<&Self> {
        this.filter(|p| !p.platforms.is_empty())
    }
}

/// An entity that shows moving platform `index` (in the level's list):
/// the plugin places its `Transform` at the platform's middle through
/// [`NavTransform::platform_center`] each tick in [`crate::NavSet::Sync`]
/// (and when it is spawned). Give it a sprite of
/// [`NavTransform::platform_size`].
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Hash, Reflect)]
#[require(Transform)]
pub struct NavPlatform(pub usize);

/// Inserts [`NavPlatforms`] for the platforms a [`NavLevel`] brings, once
/// it has a profile, unless the game inserted its own; removes those it
/// made for a previous level when the new one brings none.
pub(crate) fn adopt_platforms(world: &mut World) {
    let Some(nav) = world.get_resource::<NavLevel>() else {
        return;
    };
    if nav.platforms_adopted() {
        return;
    }
    let own = world
        .get_resource::<NavPlatforms>()
        .is_some_and(|p| !p.from_level);
    if !own {
        if nav.platforms().is_empty() {
            world.remove_resource::<NavPlatforms>();
        } else {
            let Some(dt) = nav.dt() else { return };
            match NavPlatforms::new(nav.platforms().to_vec(), dt) {
                Ok(mut platforms) => {
                    platforms.from_level = true;
                    world.insert_resource(platforms);
                }
                Err(e) => {
                    world.remove_resource::<NavPlatforms>();
                    world.write_message(NavMapFailed {
                        profile: None,
                        kind: JobKind::Build,
                        error: format!("the level's moving platforms: {e}"),
                    });
                }
            }
        }
    }
    if let Some(mut nav) = world.get_resource_mut::<NavLevel>() {
        nav.bypass_change_detection().set_platforms_adopted();
    }
}

/// Advances the shared tick.
pub(crate) fn advance_tick(platforms: Option<ResMut<NavPlatforms>>) {
    if let Some(mut p) = platforms {
        p.tick += 1;
    }
}

/// Places the `Transform` of each [`NavPlatform`] on the current tick.
pub(crate) fn sync_platforms(
    platforms: Option<Res<NavPlatforms>>,
    adapter: Res<NavTransform>,
    entities: Query<(&NavPlatform, &mut Transform)>,
) {
    place(platforms.as_deref(), &adapter, entities);
}

/// Places platform entities as they are spawned (before the next tick).
pub(crate) fn place_new_platforms(
    platforms: Option<Res<NavPlatforms>>,
    adapter: Res<NavTransform>,
    entities: Query<(&NavPlatform, &mut Transform), Added<NavPlatform>>,
) {
    place(platforms.as_deref(), &adapter, entities);
}

fn place<F: bevy::ecs::query::QueryFilter>(
    platforms: Option<&NavPlatforms>,
    adapter: &NavTransform,
    mut entities: Query<(&NavPlatform, &mut Transform), F>,
) {
    let Some(platforms) = platforms else { return };
    for (platform, mut transform) in &mut entities {
        if let Some(m) = platforms.platforms.all().get(platform.0) {
            let p = adapter.platform_center(m, platforms.tick);
            transform.translation.x = p.x;
            transform.translation.y = p.y;
        }
    }
}

/// What the agents' plans over moving platforms keep between them: one
/// [`TimedMemory`] per profile and [`platnav::search::timed::TimedOptions`]
/// in use, so every agent of a kind plans with one
/// [`platnav::search::timed::TimedPlanner`]'s forecasts. The first plan
/// near a platform fills its places for a cycle of the platform (tens of
/// milliseconds); the plans after, by any agent of that kind, cost a
/// search. A memory starts afresh by itself when its map is edited or
/// rebuilt, or the platforms change.
///
/// The plugin inserts it; [`NavTimedMemory::clear`] frees what it holds
/// (for example when a level ends).
#[derive(Resource, Debug, Default)]
pub struct NavTimedMemory {
    kept: Vec<(usize, TimedOptions, TimedMemory)>,
}

impl NavTimedMemory {
    /// Whether it holds nothing.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.kept.iter().all(|(_, _, m)| m.is_empty())
    }

    /// Forgets everything kept.
    pub fn clear(&mut self) {
        self.kept.clear();
    }

    /// The memory of `profile`'s plans with `options`.
    pub(crate) fn of(&mut self, profile: usize, options: TimedOptions) -> &TimedMemory {
        let at = match self
            .kept
            .iter()
            .position(|(p, o, _)| *p == profile && *o == options)
        {
            Some(at) => at,
            None => {
                self.kept.push((profile, options, TimedMemory::new()));
                self.kept.len() - 1
            }
        };
        &self.kept[at].2
    }
}
