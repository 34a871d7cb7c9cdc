#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod agent;
#[cfg(feature = "gizmos")]
mod debug;
mod level;
mod model;
mod platform;
mod transform;

use std::time::Duration;

use bevy::prelude::*;
use platnav::{Cell, EditReport, LinkKind};

pub use agent::{NavAgent, NavBody, NavFollower, NavInput, NavTarget, ReferenceMotion};
#[cfg(feature = "gizmos")]
pub use debug::{GizmoDrawer, NavDebug, NavDebugPlugin};
pub use level::{
    EditTiles, JobKind, NavLevel, NavProfile, NavTileEdit, ProfileError, TileEditError,
};
pub use model::{ModelAgent, ModelBody, ModelNav, ModelNavPlugin};
pub use platform::{NavPlatform, NavPlatforms, NavTimedMemory};
pub use platnav;
pub use transform::NavTransform;

/// The usual imports: the plugins, components, resources and messages.
pub mod prelude {
    pub use crate::{
        EditTiles, ModelAgent, ModelBody, ModelNav, ModelNavPlugin, NavAgent, NavBody, NavFollower,
        NavInput, NavLevel, NavLinkStarted, NavMapFailed, NavMapReady, NavPlatform, NavPlatforms,
        NavProfile, NavReplanned, NavSet, NavTarget, NavTileEdit, NavTimedMemory, NavTransform,
        NavUnreachable, PlatnavPlugin, ReferenceMotion,
    };
    #[cfg(feature = "gizmos")]
    pub use crate::{NavDebug, NavDebugPlugin};
}

/// The plugin's systems, in this order in Bevy's `FixedUpdate` schedule,
/// whose timestep the plugin sets to the profiles' tick
/// ([`platnav::Physics::dt`]).
///
/// Put a game's own systems around them: for example the player's input
/// before [`NavSet::Move`], a game's own physics in place of it (then read
/// [`NavInput`] after [`NavSet::Plan`] and write [`NavBody`] before the
/// next tick's [`NavSet::Plan`]).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NavSet {
    /// Tile edits are applied to the [`NavLevel`], finished background
    /// builds and edits are installed ([`NavMapReady`], [`NavMapFailed`])
    /// and new ones started; a level's moving platforms become
    /// [`NavPlatforms`].
    Maps,
    /// Every [`NavAgent`]'s follower turns its [`NavBody`] and target into
    /// its [`NavInput`] (over moving platforms, on [`NavPlatforms::tick`]);
    /// [`NavReplanned`], [`NavLinkStarted`] and [`NavUnreachable`] are
    /// written.
    Plan,
    /// Bodies with [`ReferenceMotion`] take one step of the reference
    /// physics with their [`NavInput`] (with the moving platforms, from
    /// [`NavPlatforms::tick`]).
    Move,
    /// [`NavPlatforms::tick`] advances; bodies with [`ReferenceMotion`] and
    /// [`NavPlatform`] entities place their `Transform` through
    /// [`NavTransform`].
    Sync,
}

/// Adds platformer navigation: the [`NavSet`] systems in `FixedUpdate`,
/// the messages, and a default [`NavTransform`]. Insert a [`NavLevel`]
/// with a profile per enemy kind, then spawn [`NavAgent`]s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlatnavPlugin {
    /// Set Bevy's fixed timestep to the profiles' tick length (on by
    /// default). Turn it off only if the game sets the same value itself:
    /// a tape performed at another rate is not the planned motion.
    pub set_fixed_timestep: bool,
}

impl Default for PlatnavPlugin {
    fn default() -> Self {
        Self {
            set_fixed_timestep: true,
        }
    }
}

impl Plugin for PlatnavPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<NavTileEdit>()
            .add_message::<NavMapReady>()
            .add_message::<NavMapFailed>()
            .add_message::<NavLinkStarted>()
            .add_message::<NavReplanned>()
            .add_message::<NavUnreachable>()
            .init_resource::<NavTransform>()
            .init_resource::<NavTimedMemory>()
            .configure_sets(
                FixedUpdate,
                (NavSet::Maps, NavSet::Plan, NavSet::Move, NavSet::Sync).chain(),
            )
            .add_systems(
                FixedUpdate,
                (
                    platform::adopt_platforms
                        .in_set(NavSet::Maps)
                        .before(level::update_maps),
                    level::update_maps.in_set(NavSet::Maps),
                    agent::plan.in_set(NavSet::Plan),
                    agent::step_bodies.in_set(NavSet::Move),
                    platform::advance_tick.in_set(NavSet::Sync),
                    (agent::sync_transforms, platform::sync_platforms)
                        .in_set(NavSet::Sync)
                        .after(platform::advance_tick),
                ),
            )
            .add_systems(Update, platform::place_new_platforms);
        if self.set_fixed_timestep {
            app.add_systems(PreUpdate, level::match_fixed_timestep);
        }
    }
}

/// A profile's map was built, or updated after edits.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct NavMapReady {
    /// The profile.
    pub profile: NavProfile,
    /// A build or an edit.
    pub kind: JobKind,
    /// The map's generation ([`platnav::NavMap::generation`]).
    pub generation: u64,
    /// What an edit changed.
    pub edit: Option<EditReport>,
    /// Wall time from starting the job to collecting it (it ran in the
    /// background; the time includes waiting for a thread and the tick
    /// that collected it).
    pub elapsed: Duration,
}

/// A build or an edit failed (the profile keeps its previous map, if any),
/// or a tile edit was refused, or the level's moving platforms were (see
/// [`NavLevel::with_platforms`]).
#[derive(Message, Debug, Clone, PartialEq)]
pub struct NavMapFailed {
    /// The profile, or `None` for a refused edit (nothing changed).
    pub profile: Option<NavProfile>,
    /// A build or an edit.
    pub kind: JobKind,
    /// What went wrong.
    pub error: String,
}

/// An agent started performing a link: play its animation.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct NavLinkStarted {
    /// The agent.
    pub agent: Entity,
    /// Run, fall, jump, double jump, wall jump or drop.
    pub kind: LinkKind,
    /// The cell it starts standing on.
    pub from: Cell,
    /// The cell it lands on.
    pub to: Cell,
    /// How many ticks the link takes.
    pub ticks: u32,
}

/// An agent planned a path: its first, or a new one because its target
/// moved, its body left the plan (knocked, blocked) or the map changed.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct NavReplanned {
    /// The agent.
    pub agent: Entity,
    /// The standing cell it now heads for (its snapped target).
    pub goal: Cell,
    /// Links in the new path.
    pub links: usize,
    /// Whether this is the agent's first plan.
    pub first: bool,
    /// The generation of the map it planned on.
    pub generation: u64,
}

/// No route leads from an agent's cell to its target (written once each
/// time it becomes so).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct NavUnreachable {
    /// The agent.
    pub agent: Entity,
    /// The cell it stands on.
    pub from: Option<Cell>,
    /// The target's cell.
    pub target: Cell,
}
