//! The nav level resource: the level's tiles, one nav map per physics
//! profile, and the background jobs that build and update those maps.

use std::sync::Arc;
use std::time::{Duration, Instant};

use bevy::ecs::message::MessageWriter;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use platnav::level::{LoadedLevel, Platform};
use platnav::{Cell, EditReport, Level, NavMap, Physics, PhysicsError, Tile};

use crate::{NavMapFailed, NavMapReady};

/// One enemy kind: an index into [`NavLevel`]'s physics profiles, given
/// by [`NavLevel::add_profile`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Reflect)]
pub struct NavProfile(pub(crate) usize);

impl NavProfile {
    /// The profile's position in [`NavLevel::profiles`] order.
    #[must_use]
    pub fn index(self) -> usize {
        self.0
    }
}

/// Why [`NavLevel::add_profile`] refused a physics profile.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ProfileError {
    /// The physics break a rule of `PHYSICS.md`.
    #[error("profile {name:?}: {source}")]
    Physics {
        /// The profile's name.
        name: String,
        /// What is wrong with it.
        #[source]
        source: PhysicsError,
    },
    /// Every profile of a level shares one tick length: it is the length of
    /// Bevy's fixed timestep, which steps every agent.
    #[error(
        "profile {name:?} ticks every {dt} s, but the level's profiles tick every {expected} s"
    )]
    Dt {
        /// The profile's name.
        name: String,
        /// Its tick length (s).
        dt: f64,
        /// The tick length of the profiles already added (s).
        expected: f64,
    },
}

/// Why a tile edit was refused (nothing was changed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TileEditError {
    /// A cell outside the level.
    #[error("cell {cell} is outside the {width} x {height} level")]
    OffMap {
        /// The cell.
        cell: Cell,
        /// The level's width.
        width: usize,
        /// The level's height.
        height: usize,
    },
}

/// The work a background job does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobKind {
    /// A full build from the level.
    Build,
    /// An incremental update of the map after tile edits.
    Edit,
    /// Measuring the search's landmark bounds again after edits.
    RefreshBounds,
}

struct Job {
    kind: JobKind,
    started: Instant,
    /// The cells an edit job rewrites (to retry them if it fails).
    cells: Vec<Cell>,
    task: Task<JobResult>,
}

/// What a job gives: the new map, and what an edit changed.
type JobResult = Result<(NavMap, Option<EditReport>), String>;

struct Slot {
    name: String,
    physics: Physics,
    map: Option<Arc<NavMap>>,
    job: Option<Job>,
    /// Cells edited since the map's level, to bring it up to date.
    pending: Vec<Cell>,
    /// The last job failed; no new job starts until the level changes.
    failed: bool,
    error: Option<String>,
}

/// The level the agents move on, with a nav map for each physics profile
/// (enemy kind).
///
/// Insert it as a resource. [`crate::PlatnavPlugin`] builds each profile's
/// map on Bevy's [`AsyncComputeTaskPool`], so no frame waits for a build;
/// until a profile's map is ready its agents stand still
/// ([`NavInput`](crate::NavInput) idle).
///
/// Tile edits ([`NavLevel::edit`], the [`NavTileEdit`] message or the
/// [`EditTiles`] command) change [`NavLevel::level`] at once, so the
/// game's physics sees them in the same tick, and update every profile's
/// map in the background with [`NavMap::edit`], which regenerates only
/// the links that read an edited cell. Agents keep using the previous map
/// until the new one is ready (a few milliseconds on a small level); their
/// followers then notice the new generation and re-plan.
#[derive(Resource)]
pub struct NavLevel {
    level: Level,
    spawn: Option<Cell>,
    goals: Vec<Cell>,
    slots: Vec<Slot>,
    refresh_bounds: bool,
    /// Finished jobs not yet reported as messages.
    outbox: Vec<Outcome>,
    /// Tile edits that changed the level so far.
    version: u64,
    /// The moving platforms the level brings (unchecked).
    platforms: Vec<Platform>,
    /// [`crate::NavPlatforms`] was made for them (or the game's own kept).
    platforms_adopted: bool,
}

/// A finished job, to report.
enum Outcome {
    Ready(NavMapReady),
    Failed(NavMapFailed),
}

impl NavLevel {
    /// A nav level over `level`, with no profile yet.
    #[must_use]
    pub fn new(level: Level) -> Self {
        let LoadedLevel {
            level,
            spawn,
            goals,
            ..
        } = LoadedLevel::from_tiles(level);
        Self {
            level,
            spawn,
            goals,
            slots: Vec::new(),
            refresh_bounds: true,
            outbox: Vec::new(),
            version: 0,
            platforms: Vec::new(),
            platforms_adopted: false,
        }
    }

    /// A nav level from a loaded level file, keeping its spawn, goals
    /// (Tiled and LDtk objects and entities included) and moving platforms
    /// (see [`NavLevel::with_platforms`]).
    #[must_use]
    pub fn from_loaded(loaded: platnav::level::LoadedLevel) -> Self {
        Self {
            spawn: loaded.spawn,
            goals: loaded.goals,
            platforms: loaded.platforms,
            ..Self::new(loaded.level)
        }
    }

    /// Sets the level's moving platforms. Once the level has a profile,
    /// [`crate::PlatnavPlugin`] checks them for the profiles' tick and
    /// inserts them as [`crate::NavPlatforms`] (unless the game inserted
    /// its own), on the first fixed tick; a platform that fails the check
    /// is reported as a [`crate::NavMapFailed`] with no profile.
    #[must_use]
    pub fn with_platforms(mut self, platforms: Vec<Platform>) -> Self {
        self.platforms = platforms;
        self.platforms_adopted = false;
        self
    }

    /// The moving platforms the level brought, as given (unchecked: the
    /// ones the agents ride are [`crate::NavPlatforms`]'s).
    #[must_use]
    pub fn platforms(&self) -> &[Platform] {
        &self.platforms
    }

    pub(crate) fn platforms_adopted(&self) -> bool {
        self.platforms_adopted
    }

    pub(crate) fn set_platforms_adopted(&mut self) {
        self.platforms_adopted = true;
    }

    /// Loads a level file: platnav ASCII and VGLC text, and with this
    /// crate's `tiled` and `ldtk` features Tiled (`.tmx`, `.tmj`) and LDtk
    /// (`.ldtk`) maps (see [`platnav::formats::load_level`]), with its
    /// moving platforms.
    ///
    /// # Errors
    /// [`platnav::LevelError`] naming the file and what is wrong in it.
    pub fn load(path: &std::path::Path) -> Result<Self, platnav::LevelError> {
        platnav::formats::load_level(path, &platnav::formats::LoadOptions::default())
            .map(Self::from_loaded)
    }

    /// Whether maps measure their search's landmark bounds again in the
    /// background after edits (on by default; see
    /// [`NavMap::refresh_bounds`]). Queries are exact either way; fresh
    /// bounds make them faster on large maps.
    #[must_use]
    pub fn with_refresh_bounds(mut self, on: bool) -> Self {
        self.refresh_bounds = on;
        self
    }

    /// Adds an enemy kind: a name (for messages and debugging) and its
    /// physics. Its map is built in the background from the next frame on.
    ///
    /// # Errors
    /// [`ProfileError`] when the physics are invalid, or tick at another
    /// rate than the profiles already added.
    pub fn add_profile(
        &mut self,
        name: impl Into<String>,
        physics: Physics,
    ) -> Result<NavProfile, ProfileError> {
        let name = name.into();
        if let Err(source) = physics.validate() {
            return Err(ProfileError::Physics { name, source });
        }
        if let Some(first) = self.slots.first()
            && first.physics.dt != physics.dt
        {
            return Err(ProfileError::Dt {
                name,
                dt: physics.dt,
                expected: first.physics.dt,
            });
        }
        self.slots.push(Slot {
            name,
            physics,
            map: None,
            job: None,
            pending: Vec::new(),
            failed: false,
            error: None,
        });
        Ok(NavProfile(self.slots.len() - 1))
    }

    /// The level's tiles as of the last edit (the nav maps may still be
    /// catching up: see [`NavLevel::is_current`]).
    #[must_use]
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// The level's spawn cell: a spawn object or entity of a loaded map, or
    /// its first [`Tile::SPAWN`].
    #[must_use]
    pub fn spawn(&self) -> Option<Cell> {
        self.spawn
    }

    /// The level's goal cells.
    #[must_use]
    pub fn goals(&self) -> &[Cell] {
        &self.goals
    }

    /// Every profile, in the order they were added.
    pub fn profiles(&self) -> impl ExactSizeIterator<Item = NavProfile> + use<> {
        (0..self.slots.len()).map(NavProfile)
    }

    /// A profile's name.
    ///
    /// # Panics
    /// When `profile` comes from another [`NavLevel`] with more profiles.
    #[must_use]
    pub fn name(&self, profile: NavProfile) -> &str {
        &self.slots[profile.0].name
    }

    /// A profile's physics.
    ///
    /// # Panics
    /// When `profile` comes from another [`NavLevel`] with more profiles.
    #[must_use]
    pub fn physics(&self, profile: NavProfile) -> &Physics {
        &self.slots[profile.0].physics
    }

    /// The tick length every profile shares (s), if there is a profile.
    #[must_use]
    pub fn dt(&self) -> Option<f64> {
        self.slots.first().map(|s| s.physics.dt)
    }

    /// A profile's newest nav map, once its first build has finished.
    #[must_use]
    pub fn map(&self, profile: NavProfile) -> Option<&NavMap> {
        self.slots.get(profile.0)?.map.as_deref()
    }

    /// A profile's newest nav map, shared (to query it from a task of your
    /// own while the plugin goes on updating the resource).
    #[must_use]
    pub fn shared_map(&self, profile: NavProfile) -> Option<Arc<NavMap>> {
        self.slots.get(profile.0)?.map.clone()
    }

    /// Whether a profile's map is built and holds every edit made so far.
    #[must_use]
    pub fn is_current(&self, profile: NavProfile) -> bool {
        self.slots.get(profile.0).is_some_and(|s| {
            s.map.is_some()
                && s.pending.is_empty()
                && !matches!(&s.job, Some(j) if j.kind != JobKind::RefreshBounds)
        })
    }

    /// Whether every profile's map is built and holds every edit.
    #[must_use]
    pub fn all_current(&self) -> bool {
        self.profiles().all(|p| self.is_current(p))
    }

    /// What a profile's background job is doing, if one runs.
    #[must_use]
    pub fn job(&self, profile: NavProfile) -> Option<JobKind> {
        self.slots.get(profile.0)?.job.as_ref().map(|j| j.kind)
    }

    /// The last build or edit error of a profile, until a job succeeds.
    #[must_use]
    pub fn error(&self, profile: NavProfile) -> Option<&str> {
        self.slots.get(profile.0)?.error.as_deref()
    }

    /// Sets tiles (a later entry for the same cell wins). The level
    /// changes at once; every profile's map follows in the background.
    ///
    /// # Errors
    /// [`TileEditError::OffMap`] for a cell outside the level; then no
    /// tile changes.
    pub fn edit(&mut self, tiles: &[(Cell, Tile)]) -> Result<usize, TileEditError> {
        let (width, height) = (self.level.width(), self.level.height());
        if let Some(&(cell, _)) = tiles.iter().find(|(c, _)| !self.level.contains(*c)) {
            return Err(TileEditError::OffMap {
                cell,
                width,
                height,
            });
        }
        let mut changed = Vec::new();
        for &(cell, tile) in tiles {
            if self.level.get(cell) != Some(tile) {
                self.level.set(cell, tile);
                changed.push(cell);
            }
        }
        if !changed.is_empty() {
            self.version += 1;
            for slot in &mut self.slots {
                slot.pending.extend_from_slice(&changed);
                slot.failed = false;
            }
        }
        Ok(changed.len())
    }

    /// How many edits have changed the level: a map built for another
    /// version is out of date (body model maps, [`crate::ModelNav`], are
    /// built again when it changes).
    #[must_use]
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Sets one tile (see [`NavLevel::edit`]); returns whether it changed.
    ///
    /// # Errors
    /// [`TileEditError::OffMap`] for a cell outside the level.
    pub fn set_tile(&mut self, cell: Cell, tile: Tile) -> Result<bool, TileEditError> {
        self.edit(&[(cell, tile)]).map(|n| n > 0)
    }

    /// Blocks until every profile's map is built and holds every edit
    /// made so far (and, when enabled, its bounds are refreshed): for a
    /// loading screen, or a test that must not depend on thread timing.
    /// The plugin's messages for the finished jobs are written at the next
    /// [`crate::NavSet::Maps`]. Returns at once when a job failed (see
    /// [`NavLevel::error`]).
    ///
    /// # Panics
    /// When Bevy's task pools are not set up yet (`TaskPoolPlugin`, part
    /// of `MinimalPlugins` and `DefaultPlugins`, sets them up).
    pub fn wait(&mut self) {
        loop {
            self.poll();
            let mut waited = false;
            for (i, slot) in self.slots.iter_mut().enumerate() {
                if let Some(mut job) = slot.job.take() {
                    let result = bevy::tasks::block_on(&mut job.task);
                    finish(slot, NavProfile(i), job, result, &mut self.outbox);
                    waited = true;
                }
            }
            if !waited {
                return;
            }
        }
    }

    /// Collects finished jobs into the outbox and starts new ones (see
    /// [`crate::NavSet::Maps`]).
    fn poll(&mut self) {
        for (i, slot) in self.slots.iter_mut().enumerate() {
            if let Some(job) = &mut slot.job {
                let Some(result) = check_ready(&mut job.task) else {
                    continue;
                };
                let job = slot.job.take().expect("checked above");
                finish(slot, NavProfile(i), job, result, &mut self.outbox);
            }
            if !slot.failed {
                slot.job = start_job(slot, &self.level, self.refresh_bounds);
            }
        }
    }
}

/// Installs a finished job's map, or records its error, and reports it.
fn finish(
    slot: &mut Slot,
    profile: NavProfile,
    job: Job,
    result: JobResult,
    outbox: &mut Vec<Outcome>,
) {
    let elapsed = job.started.elapsed();
    match result {
        Ok((map, edit)) => {
            slot.error = None;
            let generation = map.generation();
            slot.map = Some(Arc::new(map));
            if job.kind != JobKind::RefreshBounds {
                outbox.push(Outcome::Ready(NavMapReady {
                    profile,
                    kind: job.kind,
                    generation,
                    edit,
                    elapsed,
                }));
            }
        }
        Err(error) => {
            // Edits the job did not bring in stay pending.
            let mut cells = job.cells;
            cells.append(&mut slot.pending);
            slot.pending = cells;
            slot.failed = true;
            slot.error = Some(error.clone());
            outbox.push(Outcome::Failed(NavMapFailed {
                profile: Some(profile),
                kind: job.kind,
                error,
            }));
        }
    }
}

/// The next job a slot needs, if any.
fn start_job(slot: &mut Slot, level: &Level, refresh: bool) -> Option<Job> {
    let pool = AsyncComputeTaskPool::get();
    let physics = slot.physics.clone();
    let Some(map) = &slot.map else {
        // The build reads the level as it is now, edits included.
        slot.pending.clear();
        let level = level.clone();
        return Some(Job {
            kind: JobKind::Build,
            started: Instant::now(),
            cells: Vec::new(),
            task: pool.spawn(async move {
                NavMap::build(&level, &physics)
                    .map(|m| (m, None))
                    .map_err(|e| e.to_string())
            }),
        });
    };
    if !slot.pending.is_empty() {
        let mut cells = std::mem::take(&mut slot.pending);
        cells.sort_unstable_by_key(|c| (c.row, c.col));
        cells.dedup();
        let brush: Vec<(Cell, Tile)> = cells
            .iter()
            .map(|&c| (c, level.get(c).expect("edited cells are on the level")))
            .collect();
        let map = Arc::clone(map);
        return Some(Job {
            kind: JobKind::Edit,
            started: Instant::now(),
            cells,
            task: pool.spawn(async move {
                let mut map = NavMap::clone(&map);
                let report = map.edit(&brush).map_err(|e| e.to_string())?;
                Ok((map, Some(report)))
            }),
        });
    }
    if refresh && map.bounds_stale() {
        let map = Arc::clone(map);
        return Some(Job {
            kind: JobKind::RefreshBounds,
            started: Instant::now(),
            cells: Vec::new(),
            task: pool.spawn(async move {
                let mut map = NavMap::clone(&map);
                map.refresh_bounds();
                Ok((map, None))
            }),
        });
    }
    None
}

/// Tiles to set on the [`NavLevel`], as a message: the plugin applies it
/// in [`crate::NavSet::Maps`] of the next fixed tick. Edits off the level
/// are refused whole, with a [`NavMapFailed`] naming the cell.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct NavTileEdit {
    /// The cells and their new tiles; a later entry for a cell wins.
    pub tiles: Vec<(Cell, Tile)>,
}

/// Tiles to set on the [`NavLevel`], as a command
/// (`commands.queue(EditTiles(vec![...]))`): applied when the commands
/// are, as [`NavLevel::edit`]. Edits off the level are refused whole, and
/// so is every edit when there is no [`NavLevel`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditTiles(pub Vec<(Cell, Tile)>);

impl Command for EditTiles {
    type Out = ();

    fn apply(self, world: &mut World) {
        let Some(mut nav) = world.get_resource_mut::<NavLevel>() else {
            return;
        };
        if let Err(e) = nav.edit(&self.0) {
            world.write_message(edit_refused(e));
        }
    }
}

fn edit_refused(e: TileEditError) -> NavMapFailed {
    NavMapFailed {
        profile: None,
        kind: JobKind::Edit,
        error: e.to_string(),
    }
}

/// Applies [`NavTileEdit`] messages, collects finished background jobs
/// and starts new ones.
pub(crate) fn update_maps(
    nav: Option<ResMut<NavLevel>>,
    mut edits: MessageReader<NavTileEdit>,
    mut ready: MessageWriter<NavMapReady>,
    mut failed: MessageWriter<NavMapFailed>,
) {
    let Some(mut nav) = nav else {
        edits.clear();
        return;
    };
    for edit in edits.read() {
        if let Err(e) = nav.edit(&edit.tiles) {
            failed.write(edit_refused(e));
        }
    }
    nav.poll();
    for outcome in nav.outbox.drain(..) {
        match outcome {
            Outcome::Ready(m) => {
                ready.write(m);
            }
            Outcome::Failed(m) => {
                failed.write(m);
            }
        }
    }
}

/// Sets Bevy's fixed timestep to the profiles' tick when a [`NavLevel`]
/// arrives or gains its first profile.
pub(crate) fn match_fixed_timestep(nav: Option<Res<NavLevel>>, mut time: ResMut<Time<Fixed>>) {
    let Some(dt) = nav.and_then(|n| n.dt()) else {
        return;
    };
    let step = Duration::from_secs_f64(dt);
    if time.timestep() != step {
        time.set_timestep(step);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn demo() -> NavLevel {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../levels/demo.txt");
        NavLevel::load(&path).expect("the demo level loads")
    }

    #[test]
    fn a_loaded_level_keeps_its_spawn_and_goal() {
        let nav = demo();
        assert_eq!(nav.spawn(), Some(Cell::new(2, 3)));
        assert_eq!(nav.goals(), &[Cell::new(43, 3)]);
        assert_eq!(nav.level().width(), 48);
    }

    #[test]
    fn a_missing_file_is_an_error_naming_it() {
        let Err(e) = NavLevel::load(std::path::Path::new("no/such/level.txt")) else {
            panic!("a missing file loaded");
        };
        assert!(e.to_string().contains("no/such/level.txt"), "{e}");
    }

    #[test]
    fn profiles_must_be_valid_and_share_one_tick() {
        let mut nav = demo();
        let a = nav.add_profile("a", Physics::default()).unwrap();
        assert_eq!(nav.dt(), Some(1.0 / 60.0));
        let bad = Physics {
            w: -1.0,
            ..Physics::default()
        };
        assert!(matches!(
            nav.add_profile("bad", bad),
            Err(ProfileError::Physics { name, .. }) if name == "bad"
        ));
        let slow = Physics {
            dt: 1.0 / 30.0,
            ..Physics::default()
        };
        assert!(matches!(
            nav.add_profile("slow", slow),
            Err(ProfileError::Dt { .. })
        ));
        assert_eq!(nav.profiles().collect::<Vec<_>>(), vec![a]);
        assert_eq!(nav.name(a), "a");
        // No map before the plugin builds one.
        assert!(nav.map(a).is_none() && !nav.is_current(a));
    }

    #[test]
    fn edits_change_the_level_at_once_and_refuse_cells_off_it() {
        let mut nav = demo();
        let p = nav.add_profile("a", Physics::default()).unwrap();
        assert_eq!(nav.set_tile(Cell::new(6, 1), Tile::EMPTY), Ok(true));
        assert_eq!(nav.set_tile(Cell::new(6, 1), Tile::EMPTY), Ok(false));
        assert_eq!(nav.level().get(Cell::new(6, 1)), Some(Tile::EMPTY));
        let before = nav.level().clone();
        let off = nav.edit(&[
            (Cell::new(6, 2), Tile::EMPTY),
            (Cell::new(48, 0), Tile::SOLID),
        ]);
        assert_eq!(
            off,
            Err(TileEditError::OffMap {
                cell: Cell::new(48, 0),
                width: 48,
                height: 19
            })
        );
        assert_eq!(nav.level(), &before, "a refused edit changed a tile");
        assert!(!nav.is_current(p));
    }
}
