//! Enemies that move by a body model of the game's own
//! ([`platnav::model::BodyModel`]): the model's map built in the
//! background, a [`ModelFollower`] per agent, and the model stepped on
//! the shared tick.

use std::marker::PhantomData;
use std::sync::Arc;

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use platnav::model::{BodyModel, ModelFollower, ModelMap};
use platnav::{Cell, Input, Level, Tile};

use crate::agent::NavBody;
use crate::{NavInput, NavLevel, NavSet, NavTarget, NavTransform};

/// Adds enemies moved by the body model `M`: its [`ModelNav`] resource
/// (the model and its map of the [`NavLevel`], built on Bevy's
/// [`AsyncComputeTaskPool`], and after tile edits a copy of it edited
/// there) and the systems
/// of its [`ModelAgent`]s, in [`NavSet::Maps`], [`NavSet::Plan`],
/// [`NavSet::Move`] and [`NavSet::Sync`]. Add it after
/// [`crate::PlatnavPlugin`], once per model type.
#[derive(Debug, Clone)]
pub struct ModelNavPlugin<M> {
    /// The model.
    pub model: M,
}

impl<M> Plugin for ModelNavPlugin<M>
where
    M: BodyModel + Clone + Send + Sync + 'static,
    M::State: Send + Sync + 'static,
{
    fn build(&self, app: &mut App) {
        app.insert_resource(ModelNav {
            model: self.model.clone(),
            map: None,
            job: None,
            error: None,
        })
        .add_systems(
            FixedUpdate,
            (
                update_map::<M>.in_set(NavSet::Maps),
                plan::<M>.in_set(NavSet::Plan),
                step::<M>.in_set(NavSet::Move),
                sync::<M>.in_set(NavSet::Sync),
            ),
        );
    }
}

/// A built map and the level version it is of.
type Built<M> = (Arc<ModelMap<M>>, u64);

/// A build under way and the level version it is of.
type Building<M> = (Task<Result<ModelMap<M>, String>>, u64);

/// The body model `M` and its map of the [`NavLevel`].
#[derive(Resource)]
pub struct ModelNav<M: BodyModel> {
    model: M,
    map: Option<Built<M>>,
    job: Option<Building<M>>,
    /// The last build's error; no build starts until the level changes.
    error: Option<(String, u64)>,
}

impl<M: BodyModel> ModelNav<M> {
    /// The model.
    #[must_use]
    pub fn model(&self) -> &M {
        &self.model
    }

    /// The model's map, once built (of the level before the latest edits
    /// while those are being brought in).
    #[must_use]
    pub fn map(&self) -> Option<&ModelMap<M>> {
        self.map.as_ref().map(|(m, _)| &**m)
    }

    /// Why the last build failed, if it did.
    #[must_use]
    pub fn error(&self) -> Option<&str> {
        self.error.as_ref().map(|(e, _)| e.as_str())
    }

    /// An agent of this model standing at rest on `cell` of `nav`'s
    /// level, heading for `target`, with the components it needs. Add a
    /// `Transform` to have it placed through [`NavTransform`].
    #[must_use]
    pub fn agent(
        &self,
        nav: &NavLevel,
        cell: Cell,
        target: NavTarget,
    ) -> (ModelAgent<M>, ModelBody<M>) {
        (
            ModelAgent::new(target),
            ModelBody(self.model.start(nav.level(), cell)),
        )
    }
}

/// An enemy moved by the body model `M`: its target and its follower.
/// Each fixed tick the plugin writes its [`NavInput`] from the follower
/// and steps its [`ModelBody`] with it.
#[derive(Component)]
#[require(NavInput)]
pub struct ModelAgent<M: BodyModel> {
    /// Where it is heading.
    pub target: NavTarget,
    follower: ModelFollower<M::State>,
    _model: PhantomData<fn() -> M>,
}

impl<M: BodyModel> ModelAgent<M> {
    /// An agent heading for `target`.
    #[must_use]
    pub fn new(target: NavTarget) -> Self {
        Self {
            target,
            follower: ModelFollower::default(),
            _model: PhantomData,
        }
    }

    /// The follower: its state and plan count.
    #[must_use]
    pub fn follower(&self) -> &ModelFollower<M::State> {
        &self.follower
    }

    /// Forgets the plan (after teleporting the body, say).
    pub fn reset(&mut self) {
        self.follower.reset();
    }
}

/// The state of an entity moved by the body model `M`.
#[derive(Component, Debug, Clone)]
pub struct ModelBody<M: BodyModel>(pub M::State);

/// Collects a finished build, and starts one when the map is missing or
/// of an older level.
fn update_map<M>(nav: Option<Res<NavLevel>>, mut models: ResMut<ModelNav<M>>)
where
    M: BodyModel + Clone + Send + Sync + 'static,
    M::State: Send + Sync + 'static,
{
    let Some(nav) = nav else { return };
    let models = &mut *models;
    if let Some((task, version)) = &mut models.job {
        let Some(result) = check_ready(task) else {
            return;
        };
        let version = *version;
        models.job = None;
        match result {
            Ok(map) => models.map = Some((Arc::new(map), version)),
            Err(e) => models.error = Some((e, version)),
        }
    }
    let version = nav.version();
    let current = models.map.as_ref().is_some_and(|(_, v)| *v == version);
    let failed = models.error.as_ref().is_some_and(|(_, v)| *v == version);
    if !current && !failed {
        let (level, model) = (nav.level().clone(), models.model.clone());
        let base = models.map.as_ref().map(|(m, _)| Arc::clone(m));
        let task = AsyncComputeTaskPool::get().spawn(async move {
            match base {
                Some(base) => edited(&base, &level),
                None => None,
            }
            .unwrap_or_else(|| ModelMap::build(&level, model).map_err(|e| e.to_string()))
        });
        models.job = Some((task, version));
    }
}

/// `base` brought to `level` by [`ModelMap::edit`] (which generates again
/// only what the changed tiles touch, for a model that says how far it
/// reads); `None` when the level changed size or wrapping, and it must
/// be built afresh.
fn edited<M>(base: &ModelMap<M>, level: &Level) -> Option<Result<ModelMap<M>, String>>
where
    M: BodyModel + Clone + Sync,
    M::State: Send,
{
    let old = base.level();
    let same_shape =
        (old.width(), old.height(), old.wrap()) == (level.width(), level.height(), level.wrap());
    if !same_shape {
        return None;
    }
    let changes: Vec<(Cell, Tile)> = (0..level.height() as i32)
        .flat_map(|row| (0..level.width() as i32).map(move |col| Cell::new(col, row)))
        .filter_map(|c| {
            level
                .get(c)
                .filter(|&t| old.get(c) != Some(t))
                .map(|t| (c, t))
        })
        .collect();
    let mut map = base.clone();
    Some(map.edit(&changes).map(|_| map).map_err(|e| e.to_string()))
}

/// The cell a target stands for, if any.
fn target_cell<M: BodyModel + Send + Sync + 'static>(
    target: NavTarget,
    model: &M,
    models: &Query<&ModelBody<M>>,
    bodies: &Query<&NavBody>,
    places: &Query<&Transform>,
    adapter: &NavTransform,
) -> Option<Cell>
where
    M::State: Send + Sync + 'static,
{
    if let NavTarget::Entity(e) = target
        && let Ok(b) = models.get(e)
    {
        let [x, y] = model.feet(&b.0);
        return model
            .standing_cell(&b.0)
            .or(Some(Cell::new(x.floor() as i32, y.floor() as i32 - 1)));
    }
    crate::agent::target_cell(target, bodies, places, adapter)
}

/// Each agent's input from its follower.
fn plan<M>(
    models: Res<ModelNav<M>>,
    adapter: Res<NavTransform>,
    mut agents: Query<(&mut ModelAgent<M>, &ModelBody<M>, &mut NavInput)>,
    targets: (Query<&ModelBody<M>>, Query<&NavBody>, Query<&Transform>),
) where
    M: BodyModel + Send + Sync + 'static,
    M::State: Send + Sync + 'static,
{
    let (model_bodies, bodies, places) = targets;
    for (mut agent, body, mut input) in &mut agents {
        let target = target_cell(
            agent.target,
            &models.model,
            &model_bodies,
            &bodies,
            &places,
            &adapter,
        );
        let (Some(map), Some(target)) = (models.map(), target) else {
            *input = NavInput::default();
            continue;
        };
        let next = agent.follower.next_input(map, &body.0, target);
        // Up is an input of the model's own (the reference agents' is a
        // hint), so it is kept.
        *input = NavInput {
            up: next.up,
            ..NavInput::from(next)
        };
    }
}

/// Steps every model body one tick with its input.
fn step<M>(
    nav: Option<Res<NavLevel>>,
    models: Res<ModelNav<M>>,
    mut bodies: Query<(&mut ModelBody<M>, &NavInput)>,
) where
    M: BodyModel + Send + Sync + 'static,
    M::State: Send + Sync + 'static,
{
    let Some(nav) = nav else { return };
    for (mut body, input) in &mut bodies {
        let input = Input::new(input.move_x, input.jump, input.down).with_up(input.up);
        models.model.step(nav.level(), &mut body.0, input);
    }
}

/// Places each model body's `Transform` at its feet.
fn sync<M>(
    models: Res<ModelNav<M>>,
    adapter: Res<NavTransform>,
    mut bodies: Query<(&ModelBody<M>, &mut Transform)>,
) where
    M: BodyModel + Send + Sync + 'static,
    M::State: Send + Sync + 'static,
{
    for (body, mut transform) in &mut bodies {
        let [x, y] = models.model.feet(&body.0);
        let p = adapter.to_world(x, y);
        transform.translation.x = p.x;
        transform.translation.y = p.y;
    }
}
