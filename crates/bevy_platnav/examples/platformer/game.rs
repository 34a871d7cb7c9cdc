//! The example's game, without a window: the level, the enemy kinds, the
//! door, the lift, and the rules (enemies chase the player; one that
//! catches it sends it back to the spawn). `main.rs` adds rendering and the
//! keyboard; the headless test (`tests/headless.rs`) drives this same game.

use bevy::prelude::*;
use bevy_platnav::platnav::level::{Platform, PlatformLoop};
use bevy_platnav::platnav::model::{BodyModel, nes::NesMario};
use bevy_platnav::platnav::search::timed::TimedOptions;
use bevy_platnav::platnav::{Body, Cell, Level, Physics, Tile};
use bevy_platnav::prelude::*;

/// The demo level: a spawn room over a one-way floor, a corridor to the
/// goal shelf, and a hall below reached through a two-tile shaft.
pub const LEVEL: &str = include_str!("../../../../levels/demo.txt");

/// The lift up the shaft, two tiles wide: from flush with the hall's floor
/// to flush with the corridor's, at 3 tiles/s, resting a second at each
/// end. The walker and the jumper, who cannot climb the shaft, ride it.
pub fn lift() -> Platform {
    Platform {
        width: 2,
        height: 1,
        points: vec![[37.0, 18.0], [37.0, 5.0]],
        speed: 3.0,
        pause: 60,
        looped: PlatformLoop::BackAndForth,
        offset: 0,
    }
}

/// How the enemies plan over the lift: departures tried every 8 ticks (the
/// default, every 2, costs four times as much a plan).
pub fn timed_options() -> TimedOptions {
    TimedOptions::default().with_wait_stride(8)
}

/// The wall between the spawn room and the corridor: a door that opens.
pub const DOOR: [Cell; 3] = [Cell::new(6, 1), Cell::new(6, 2), Cell::new(6, 3)];

/// Pixels per tile.
pub const TILE_PX: f32 = 24.0;

/// The enemy kinds, each with its own physics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Small and slow, hops a tile.
    Walker,
    /// Tall, jumps 3.5 tiles and once more in the air.
    Jumper,
    /// Jumps off walls too (platnav's agile profile, a slimmer body).
    WallJumper,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 3] = [Kind::Walker, Kind::Jumper, Kind::WallJumper];

    /// The kind's name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Walker => "walker",
            Kind::Jumper => "jumper",
            Kind::WallJumper => "wall-jumper",
        }
    }

    /// The kind's physics.
    pub fn physics(self) -> Physics {
        match self {
            Kind::Walker => Physics {
                w: 0.9,
                h: 0.9,
                run_speed: 4.0,
                ..Physics::default()
            }
            .with_jump(1.3, 0.25),
            Kind::Jumper => Physics {
                w: 0.8,
                h: 1.2,
                air_jumps: 1,
                ..Physics::default()
            },
            Kind::WallJumper => Physics {
                w: 0.7,
                h: 1.4,
                ..Physics::agile()
            },
        }
    }

    /// Where the kind starts.
    pub fn start(self) -> Cell {
        match self {
            Kind::Walker => Cell::new(30, 17),
            Kind::Jumper => Cell::new(8, 17),
            Kind::WallJumper => Cell::new(44, 3),
        }
    }
}

/// The player's physics: platnav's agile profile.
pub fn player_physics() -> Physics {
    Physics::agile()
}

/// The profiles of the game's [`NavLevel`].
#[derive(Resource, Debug, Clone)]
pub struct Profiles {
    /// The player's (its body is stepped with the same reference physics).
    pub player: NavProfile,
    /// One per enemy kind, in [`Kind::ALL`] order.
    pub enemies: [NavProfile; 3],
}

impl Profiles {
    /// The profile of an enemy kind.
    pub fn of(&self, kind: Kind) -> NavProfile {
        self.enemies[Kind::ALL.iter().position(|&k| k == kind).unwrap_or(0)]
    }
}

/// The player.
#[derive(Component, Debug)]
pub struct Player;

/// An enemy and its kind.
#[derive(Component, Debug, Clone, Copy)]
pub struct Enemy(pub Kind);

/// The enemy that moves by a body model of its own instead of a physics
/// profile: Super Mario Bros.'s Mario, as the NES moves him
/// (`platnav::model::nes`), planned on his own map.
#[derive(Component, Debug, Clone, Copy)]
pub struct Mario;

/// Where Mario starts: the hall, left of the spikes.
pub const MARIO_START: Cell = Cell::new(5, 17);

/// Whether the door is open.
#[derive(Resource, Debug, Default, Clone, Copy)]
pub struct DoorOpen(pub bool);

/// The level and its profiles.
///
/// # Panics
/// Never for the bundled level and profiles.
pub fn nav_level() -> (NavLevel, Profiles) {
    let level: Level = LEVEL.parse().expect("the demo level parses");
    let mut nav = NavLevel::new(level);
    let player = nav
        .add_profile("player", player_physics())
        .expect("valid physics");
    let enemies = Kind::ALL.map(|k| {
        nav.add_profile(k.name(), k.physics())
            .expect("valid physics")
    });
    (nav, Profiles { player, enemies })
}

/// Adds the game: the plugins, the level, the player at the spawn and the
/// four enemies chasing it (three kinds of reference body, and Mario), and
/// with `lift` the lift up the shaft, which the player and the three kinds
/// ride (their paths are then planned in time; Mario's model knows no
/// platforms).
pub struct GamePlugin {
    /// Whether the shaft has its lift.
    pub lift: bool,
}

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        let (mut nav, profiles) = nav_level();
        if self.lift {
            nav = nav.with_platforms(vec![lift()]);
        }
        let height = nav.level().height();
        app.add_plugins(PlatnavPlugin::default())
            .add_plugins(ModelNavPlugin {
                model: NesMario::small(),
            })
            .insert_resource(nav)
            .insert_resource(profiles)
            .insert_resource(NavTransform::pixels(TILE_PX, height))
            .init_resource::<DoorOpen>()
            .add_systems(Startup, spawn)
            .add_systems(FixedUpdate, catch.after(NavSet::Move));
    }
}

/// Spawns the player, the enemies and the lift.
fn spawn(
    mut commands: Commands,
    nav: Res<NavLevel>,
    profiles: Res<Profiles>,
    mario: Res<ModelNav<NesMario>>,
) {
    let start = nav.spawn().unwrap_or(Cell::new(2, 3));
    let player = commands
        .spawn((
            Player,
            NavBody(Body::start(
                nav.level(),
                start,
                nav.physics(profiles.player),
            )),
            ReferenceMotion(profiles.player),
            Transform::default(),
        ))
        .id();
    for kind in Kind::ALL {
        let p = profiles.of(kind);
        commands.spawn((
            Enemy(kind),
            nav.agent(p, kind.start(), NavTarget::Entity(player)),
            NavFollower::default().with_timed_options(timed_options()),
            Transform::default(),
        ));
    }
    // The plugin places the lift; it is drawn behind the bodies.
    for i in 0..nav.platforms().len() {
        commands.spawn((NavPlatform(i), Transform::from_xyz(0.0, 0.0, -0.5)));
    }
    commands.spawn((
        Mario,
        mario.agent(&nav, MARIO_START, NavTarget::Entity(player)),
        Transform::default(),
    ));
}

/// The edits that open the door (or close it).
pub fn door_edit(open: bool) -> NavTileEdit {
    let tile = if open { Tile::EMPTY } else { Tile::SOLID };
    NavTileEdit {
        tiles: DOOR.iter().map(|&c| (c, tile)).collect(),
    }
}

/// An enemy whose box overlaps the player's sends the player back to the
/// spawn, and itself back to its start; so does dying, for either.
fn catch(
    nav: Res<NavLevel>,
    profiles: Res<Profiles>,
    mut player: Query<&mut NavBody, With<Player>>,
    mut enemies: Query<(&mut NavBody, &mut NavFollower, &Enemy), Without<Player>>,
    mut marios: Query<(&mut ModelBody<NesMario>, &mut ModelAgent<NesMario>)>,
    mario: Res<ModelNav<NesMario>>,
) {
    let Ok(mut body) = player.single_mut() else {
        return;
    };
    let pp = nav.physics(profiles.player);
    let mut caught = body.dead;
    for (mut e, mut follower, kind) in &mut enemies {
        let ep = nav.physics(profiles.of(kind.0));
        let overlap = (e.x - body.x).abs() < (ep.w + pp.w) / 2.0
            && ((e.y - ep.h / 2.0) - (body.y - pp.h / 2.0)).abs() < (ep.h + pp.h) / 2.0;
        if overlap || e.dead {
            e.0 = Body::start(nav.level(), kind.0.start(), ep);
            follower.reset();
        }
        caught |= overlap;
    }
    let nes = mario.model();
    for (mut m, mut agent) in &mut marios {
        let [x, y] = nes.feet(&m.0);
        let overlap = (x - body.x).abs() < (1.0 + pp.w) / 2.0
            && ((y - 0.5) - (body.y - pp.h / 2.0)).abs() < (1.0 + pp.h) / 2.0;
        if overlap || nes.dead(&m.0) {
            m.0 = nes.start(nav.level(), MARIO_START);
            agent.reset();
        }
        caught |= overlap;
    }
    if caught {
        let start = nav.spawn().unwrap_or(Cell::new(2, 3));
        body.0 = Body::start(nav.level(), start, pp);
    }
}
