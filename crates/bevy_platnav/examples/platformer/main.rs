//! A small platformer on platnav's demo level: you run and jump from the
//! spawn room while a walker, a jumper and a wall-jumper chase you, each
//! with its own physics profile and nav map, riding the lift up and down
//! the shaft between the hall and the corridor. One that catches you sends
//! you back to the spawn.
//!
//! ```text
//! cargo run -p bevy_platnav --example platformer --features example --release
//!     [-- --frames N] [--door-every FRAMES]
//! ```
//!
//! Keys: arrows or A/D to run, Space/W/Up to jump, S/Down to drop through
//! one-way floors, O to open or close the door between the spawn room and
//! the corridor (the maps update in the background; watch the enemies take
//! the new way), G to switch the nav gizmos, L to show every link.
//!
//! `--frames N` quits after N frames and `--door-every FRAMES` opens and
//! closes the door by itself: the smoke test uses both, and reads the lines
//! printed for map updates and links started.

mod game;

use bevy::app::AppExit;
use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_platnav::platnav::render::{PLATFORM_COLOR, tile_color};
use bevy_platnav::platnav::{Cell, Tile};
use bevy_platnav::prelude::*;
use game::{DoorOpen, Enemy, GamePlugin, Kind, Mario, Player, Profiles, TILE_PX};

/// Command-line options.
#[derive(Resource, Debug, Default, Clone, Copy)]
struct Script {
    frames: Option<u32>,
    door_every: Option<u32>,
}

fn parse_args() -> Result<Script, String> {
    let mut script = Script::default();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut number = |name: &str| -> Result<u32, String> {
            let v = args.next().ok_or(format!("{name} needs a number"))?;
            v.parse::<u32>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or(format!("{name}: {v:?} is not a positive number"))
        };
        match a.as_str() {
            "--frames" => script.frames = Some(number("--frames")?),
            "--door-every" => script.door_every = Some(number("--door-every")?),
            _ => {
                return Err(format!(
                    "unknown argument {a:?} (try --frames N, --door-every N)"
                ));
            }
        }
    }
    Ok(script)
}

fn main() -> AppExit {
    let script = match parse_args() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("platformer: {e}");
            return AppExit::from_code(2);
        }
    };
    let level: bevy_platnav::platnav::Level = game::LEVEL.parse().expect("the demo level parses");
    let (w, h) = (
        level.width() as f32 * TILE_PX,
        level.height() as f32 * TILE_PX,
    );
    App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "bevy_platnav platformer".into(),
                resolution: WindowResolution::from((w as u32, h as u32)),
                ..default()
            }),
            ..default()
        }))
        .add_plugins((GamePlugin { lift: true }, NavDebugPlugin))
        .insert_resource(script)
        .insert_resource(ClearColor(srgb(tile_color(Tile::EMPTY))))
        .init_resource::<Hud>()
        .add_systems(PostStartup, setup)
        .add_systems(FixedUpdate, player_input.in_set(NavSet::Plan))
        .add_systems(Update, (keys, draw_tiles, report, run_script))
        .run()
}

fn srgb(c: bevy_platnav::platnav::render::Rgba) -> Color {
    Color::srgba_u8(c.r, c.g, c.b, c.a)
}

/// The body colour of an enemy kind.
fn kind_color(kind: Kind) -> Color {
    match kind {
        Kind::Walker => Color::srgb(0.95, 0.55, 0.2),
        Kind::Jumper => Color::srgb(0.9, 0.25, 0.6),
        Kind::WallJumper => Color::srgb(0.2, 0.85, 0.8),
    }
}

/// The camera over the level, and sprites for the bodies and the lift
/// (after the game's `Startup` spawned them with transforms; the plugin
/// moves them).
#[allow(clippy::too_many_arguments)]
fn setup(
    mut commands: Commands,
    nav: Res<NavLevel>,
    place: Res<NavTransform>,
    profiles: Res<Profiles>,
    players: Query<Entity, With<Player>>,
    enemies: Query<(Entity, &Enemy)>,
    marios: Query<Entity, With<Mario>>,
    lifts: Query<(Entity, &NavPlatform)>,
) {
    let (w, h) = (nav.level().width(), nav.level().height());
    let centre = place.to_world(w as f64 / 2.0, h as f64 / 2.0);
    commands.spawn((Camera2d, Transform::from_translation(centre.extend(100.0))));
    for e in &players {
        let size = place.body_size(nav.physics(profiles.player));
        commands
            .entity(e)
            .insert(Sprite::from_color(Color::srgb(0.95, 0.95, 0.3), size));
    }
    for (e, enemy) in &enemies {
        let size = place.body_size(nav.physics(profiles.of(enemy.0)));
        commands
            .entity(e)
            .insert(Sprite::from_color(kind_color(enemy.0), size));
    }
    // Mario's transform is at his feet (a model has no box to centre).
    let tile = place.body_size(&bevy_platnav::platnav::Physics {
        w: 1.0,
        h: 1.0,
        ..Default::default()
    });
    for e in &marios {
        commands.entity(e).insert((
            Sprite::from_color(Color::srgb(0.9, 0.1, 0.1), tile),
            bevy::sprite::Anchor::BOTTOM_CENTER,
        ));
    }
    // The lift, at its middle, behind the bodies.
    for (e, lift) in &lifts {
        if let Some(p) = nav.platforms().get(lift.0) {
            commands.entity(e).insert(Sprite::from_color(
                srgb(PLATFORM_COLOR),
                place.platform_size(p),
            ));
        }
    }
}

/// A tile's sprite.
#[derive(Component)]
struct TileSprite;

/// Sprites for the tiles, made again whenever the level changes.
fn draw_tiles(
    mut commands: Commands,
    nav: Res<NavLevel>,
    place: Res<NavTransform>,
    tiles: Query<Entity, With<TileSprite>>,
    mut drawn: Local<Option<u64>>,
) {
    let level = nav.level();
    let print = level.fingerprint();
    if *drawn == Some(print) {
        return;
    }
    *drawn = Some(print);
    for e in &tiles {
        commands.entity(e).despawn();
    }
    for row in 0..level.height() as i32 {
        for col in 0..level.width() as i32 {
            let cell = Cell::new(col, row);
            let tile = level.get(cell).unwrap_or(Tile::EMPTY);
            if tile == Tile::EMPTY {
                continue;
            }
            let mut size = Vec2::splat(TILE_PX);
            let mut at = place.cell_center(cell);
            if tile == Tile::ONE_WAY {
                // A thin plank along the top of its cell.
                size.y = TILE_PX / 4.0;
                at.y += TILE_PX * 3.0 / 8.0;
            }
            commands.spawn((
                TileSprite,
                Sprite::from_color(srgb(tile_color(tile)), size),
                Transform::from_translation(at.extend(-1.0)),
            ));
        }
    }
}

/// The keyboard moves the player (before its body steps).
fn player_input(keys: Res<ButtonInput<KeyCode>>, mut player: Query<&mut NavInput, With<Player>>) {
    let Ok(mut input) = player.single_mut() else {
        return;
    };
    let held = |codes: &[KeyCode]| codes.iter().any(|&k| keys.pressed(k));
    let left = held(&[KeyCode::ArrowLeft, KeyCode::KeyA]);
    let right = held(&[KeyCode::ArrowRight, KeyCode::KeyD]);
    *input = NavInput {
        move_x: i8::from(right) - i8::from(left),
        jump: held(&[KeyCode::Space, KeyCode::ArrowUp, KeyCode::KeyW]),
        down: held(&[KeyCode::ArrowDown, KeyCode::KeyS]),
        up: false,
    };
}

/// Opens or closes the door.
fn toggle_door(door: &mut DoorOpen, edits: &mut MessageWriter<NavTileEdit>) {
    door.0 = !door.0;
    edits.write(game::door_edit(door.0));
}

/// O: the door; G: the gizmos; L: every link.
fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut door: ResMut<DoorOpen>,
    mut edits: MessageWriter<NavTileEdit>,
    mut debug: ResMut<NavDebug>,
) {
    if keys.just_pressed(KeyCode::KeyO) {
        toggle_door(&mut door, &mut edits);
    }
    if keys.just_pressed(KeyCode::KeyG) {
        debug.enabled = !debug.enabled;
    }
    if keys.just_pressed(KeyCode::KeyL) {
        debug.links = !debug.links;
    }
}

/// What the title bar shows.
#[derive(Resource, Default)]
struct Hud {
    last_update: Option<String>,
    links_started: u32,
    edits: u32,
}

/// Prints the plugin's messages and shows the latest in the title bar.
#[allow(clippy::too_many_arguments)]
fn report(
    mut hud: ResMut<Hud>,
    mut ready: MessageReader<NavMapReady>,
    mut failed: MessageReader<NavMapFailed>,
    mut started: MessageReader<NavLinkStarted>,
    mut unreachable: MessageReader<NavUnreachable>,
    nav: Res<NavLevel>,
    door: Res<DoorOpen>,
    enemies: Query<(&Enemy, &NavFollower)>,
    mut windows: Query<&mut Window>,
) {
    for m in ready.read() {
        let what = match (m.kind, m.edit) {
            (_, Some(e)) => format!("edit: {} nodes rebuilt", e.nodes_rebuilt),
            _ => format!("{:?}", m.kind).to_lowercase(),
        };
        let line = format!(
            "{} map {what}, generation {}, in {:.1} ms",
            nav.name(m.profile),
            m.generation,
            m.elapsed.as_secs_f64() * 1e3
        );
        println!("map ready: {line}");
        hud.edits += u32::from(m.edit.is_some());
        hud.last_update = Some(line);
    }
    for m in failed.read() {
        eprintln!("map failed: {}", m.error);
    }
    for m in started.read() {
        hud.links_started += 1;
        if let Ok((enemy, _)) = enemies.get(m.agent) {
            println!(
                "link started: {} {} {} -> {}",
                enemy.0.name(),
                m.kind.name(),
                m.from,
                m.to
            );
        }
    }
    for m in unreachable.read() {
        if let Ok((enemy, _)) = enemies.get(m.agent) {
            println!("unreachable: {} cannot reach {}", enemy.0.name(), m.target);
        }
    }
    let Ok(mut window) = windows.single_mut() else {
        return;
    };
    let mut states: Vec<(Kind, String)> = enemies
        .iter()
        .map(|(e, f)| {
            let state = if f.is_timed() {
                format!("{:?}", f.timed().state())
            } else {
                format!("{:?}", f.follower().state())
            };
            (e.0, state)
        })
        .collect();
    states.sort_by_key(|(k, _)| Kind::ALL.iter().position(|x| x == k));
    let states: Vec<String> = states
        .into_iter()
        .map(|(k, s)| format!("{} {}", k.name(), s.split(' ').next().unwrap_or("")))
        .collect();
    let title = format!(
        "door {} (O) | {} | {}",
        if door.0 { "open" } else { "shut" },
        states.join(", "),
        hud.last_update.as_deref().unwrap_or("building maps")
    );
    if window.title != title {
        window.title = title;
    }
}

/// `--door-every` and `--frames`.
fn run_script(
    script: Res<Script>,
    hud: Res<Hud>,
    mut frame: Local<u32>,
    mut door: ResMut<DoorOpen>,
    mut edits: MessageWriter<NavTileEdit>,
    mut exit: MessageWriter<AppExit>,
) {
    *frame += 1;
    if script.door_every.is_some_and(|n| frame.is_multiple_of(n)) {
        toggle_door(&mut door, &mut edits);
    }
    if script.frames.is_some_and(|n| *frame >= n) {
        println!(
            "frames {}: {} map edits applied, {} links started",
            *frame, hud.edits, hud.links_started
        );
        exit.write(AppExit::Success);
    }
}
