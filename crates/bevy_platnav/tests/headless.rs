//! The example's game without a window (MinimalPlugins): each enemy kind
//! reaches a target cell performing exactly its planned tape, and a door
//! opened across an enemy's route sends it through the door; and the
//! enemy on a body model of its own (the NES Mario) gets to its target.
//! Those run without the lift in the shaft; with it, the walker rides the
//! lift from the hall up to the corridor.

#[path = "../examples/platformer/game.rs"]
#[allow(dead_code)]
mod game;

use std::time::{Duration, Instant};

use bevy::ecs::message::{MessageCursor, Messages};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_platnav::JobKind;
use bevy_platnav::platnav::follow::TimedFollowState;
use bevy_platnav::platnav::model::{BodyModel, ModelFollowState, ModelMap, nes::NesMario};
use bevy_platnav::platnav::search::timed::TimedKind;
use bevy_platnav::platnav::{Body, Cell, LinkKind, Path, follow::FollowState};
use bevy_platnav::prelude::*;
use game::{Enemy, GamePlugin, Kind, MARIO_START, Mario, Player};

/// The game without the lift, one fixed tick per `update`.
fn app() -> App {
    game_app(false)
}

/// The game, with or without the lift, one fixed tick per `update`.
fn game_app(lift: bool) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, GamePlugin { lift }))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app.update();
    app
}

fn enemy(app: &mut App, kind: Kind) -> Entity {
    let mut q = app.world_mut().query::<(Entity, &Enemy)>();
    q.iter(app.world())
        .find(|(_, e)| e.0 == kind)
        .map(|(e, _)| e)
        .expect("the game spawns every kind")
}

/// Updates until every profile's map is built: they build in the
/// background, in real time, while the enemies stand (at most 60 s).
fn wait_for_maps(app: &mut App) {
    let t = Instant::now();
    while !app.world().resource::<NavLevel>().all_current() {
        assert!(t.elapsed() < Duration::from_secs(60), "maps never built");
        std::thread::sleep(Duration::from_millis(2));
        app.update();
    }
}

/// Waits for background jobs without advancing the game, so that an edit
/// lands on the tick after it was made whatever the threads' speed.
fn wait_for_jobs(app: &mut App) {
    app.world_mut().resource_mut::<NavLevel>().wait();
}

/// Reads the messages of one kind written since `cursor` last read.
fn drain<M: Message + Clone>(app: &App, cursor: &mut MessageCursor<M>) -> Vec<M> {
    let messages = app.world().resource::<Messages<M>>();
    cursor.read(messages).cloned().collect()
}

fn body(app: &App, e: Entity) -> Body {
    app.world().get::<NavBody>(e).expect("a body").0
}

fn follower(app: &App, e: Entity) -> bevy_platnav::platnav::PathFollower {
    app.world()
        .get::<NavFollower>(e)
        .expect("a follower")
        .follower()
        .clone()
}

#[test]
fn each_enemy_reaches_its_target_along_its_replayed_tape() {
    let targets = [
        (Kind::Walker, Cell::new(23, 17)),
        (Kind::Jumper, Cell::new(27, 11)),
        (Kind::WallJumper, Cell::new(2, 3)),
    ];
    let mut app = app();
    // The player is out of the way: nobody chases it here.
    let player = {
        let mut q = app.world_mut().query_filtered::<Entity, With<Player>>();
        q.single(app.world()).expect("one player")
    };
    app.world_mut().entity_mut(player).despawn();
    let enemies: Vec<(Kind, Cell, Entity)> = targets
        .iter()
        .map(|&(k, c)| (k, c, enemy(&mut app, k)))
        .collect();
    for &(_, target, e) in &enemies {
        app.world_mut().get_mut::<NavAgent>(e).unwrap().target = NavTarget::Cell(target);
    }
    let mut started = MessageCursor::<NavLinkStarted>::default();
    let mut trails: Vec<Vec<Body>> = enemies
        .iter()
        .map(|&(_, _, e)| vec![body(&app, e)])
        .collect();
    let mut kinds: Vec<Vec<LinkKind>> = vec![Vec::new(); enemies.len()];
    let mut paths: Vec<Option<Path>> = vec![None; enemies.len()];
    // Every update is recorded, including those while the maps build (each
    // enemy starts once its own map is ready).
    let t = Instant::now();
    for _ in 0..3_000 {
        if !app.world().resource::<NavLevel>().all_current() {
            assert!(t.elapsed() < Duration::from_secs(60), "maps never built");
            std::thread::sleep(Duration::from_millis(2));
        }
        app.update();
        for (i, &(_, _, e)) in enemies.iter().enumerate() {
            trails[i].push(body(&app, e));
            if paths[i].is_none() {
                paths[i] = follower(&app, e).path().cloned();
            }
        }
        for m in drain(&app, &mut started) {
            let i = enemies.iter().position(|x| x.2 == m.agent).unwrap();
            kinds[i].push(m.kind);
        }
        if enemies
            .iter()
            .all(|&(_, _, e)| follower(&app, e).state() == FollowState::Arrived)
        {
            break;
        }
    }
    for (i, &(kind, target, e)) in enemies.iter().enumerate() {
        let f = follower(&app, e);
        let name = kind.name();
        assert_eq!(f.state(), FollowState::Arrived, "{name} never arrived");
        assert!(body(&app, e).stands_on(target), "{name} is not on {target}");
        // One plan, performed to the end: no drift ever made it re-plan.
        assert_eq!(f.plans(), 1, "{name} re-planned");
        let path = paths[i].as_ref().expect("it planned");
        assert_eq!(path.start(), kind.start());
        assert_eq!(path.goal(), target);
        // The body went through exactly the states of the tape replayed
        // from the start, tick for tick (it stood still before the maps
        // were ready, and stands still after arriving).
        let physics = kind.physics();
        let level = app.world().resource::<NavLevel>().level().clone();
        let mut expected = vec![Body::standing(kind.start(), &physics)];
        for &input in path.inputs() {
            let mut b = *expected.last().unwrap();
            b.step(&level, &physics, input);
            expected.push(b);
        }
        let trail = &trails[i];
        let from = trail
            .windows(expected.len())
            .position(|w| w == expected.as_slice())
            .unwrap_or_else(|| panic!("{name}'s motion is not its tape's"));
        assert!(
            trail[..from].iter().all(|b| *b == expected[0]),
            "{name} moved before planning"
        );
        assert!(
            trail[from + expected.len()..]
                .iter()
                .all(|b| b == expected.last().unwrap())
        );
        // A link-started message for every link, in order, with its kind.
        let path_kinds: Vec<LinkKind> = path.steps().iter().map(|s| s.kind).collect();
        assert_eq!(kinds[i], path_kinds, "{name}'s link messages");
    }
    // Each kind used what makes it a kind.
    assert!(
        kinds[0]
            .iter()
            .all(|k| matches!(*k, LinkKind::RUN | LinkKind::JUMP | LinkKind::FALL))
    );
    assert!(
        kinds[1]
            .iter()
            .any(|k| matches!(*k, LinkKind::JUMP | LinkKind::DOUBLE_JUMP))
    );
    assert!(kinds[2].contains(&LinkKind::WALL_JUMP), "{:?}", kinds[2]);
}

/// Runs the wall-jumper from the corridor to the spawn room, opening the
/// door `open_after` ticks after its first plan (never with `None`).
/// Returns its trail, the ticks it took, and the messages it got.
fn to_the_spawn_room(
    open_after: Option<usize>,
) -> (Vec<Body>, usize, Vec<NavReplanned>, Vec<NavMapReady>) {
    let mut app = app();
    let player = {
        let mut q = app.world_mut().query_filtered::<Entity, With<Player>>();
        q.single(app.world()).expect("one player")
    };
    app.world_mut().entity_mut(player).despawn();
    let e = enemy(&mut app, Kind::WallJumper);
    let start = Cell::new(30, 4);
    let goal = Cell::new(2, 3);
    let physics = Kind::WallJumper.physics();
    app.world_mut().get_mut::<NavBody>(e).unwrap().0 = Body::standing(start, &physics);
    app.world_mut().get_mut::<NavAgent>(e).unwrap().target = NavTarget::Cell(goal);
    wait_for_maps(&mut app);
    let (mut replans, mut ready) = (MessageCursor::default(), MessageCursor::default());
    let (mut got_replans, mut got_ready) = (Vec::new(), Vec::new());
    let mut trail = Vec::new();
    let mut planned_at = None;
    for tick in 0..4_000 {
        let open = planned_at.is_some_and(|t| Some(tick - t) == open_after);
        if open {
            app.world_mut().write_message(game::door_edit(true));
        }
        app.update();
        if open {
            // The tick applied the edit and started the maps' updates.
            assert!(!app.world().resource::<NavLevel>().all_current());
            wait_for_jobs(&mut app);
        }
        trail.push(body(&app, e));
        got_replans.extend(
            drain(&app, &mut replans)
                .into_iter()
                .filter(|m: &NavReplanned| m.agent == e),
        );
        got_ready.extend(drain::<NavMapReady>(&app, &mut ready));
        let f = follower(&app, e);
        if planned_at.is_none() && f.plans() > 0 {
            planned_at = Some(tick);
            // The first plan, with the door shut, goes down the shaft.
            let path = f.path().unwrap();
            assert!(
                path.steps().iter().any(|s| s.to.row > 6),
                "{:?}",
                path.steps()
            );
        }
        if f.state() == FollowState::Arrived {
            assert!(trail.last().unwrap().stands_on(goal));
            return (trail, tick, got_replans, got_ready);
        }
    }
    panic!("never arrived (door opened: {})", open_after.is_some());
}

#[test]
fn opening_a_door_sends_an_enemy_through_it() {
    let (shut, shut_ticks, shut_replans, _) = to_the_spawn_room(None);
    // With the door shut the way is down the shaft, through the hall and up
    // the wall below the spawn room.
    assert!(shut.iter().any(|b| b.y > 10.0));
    assert_eq!(shut_replans.len(), 1);

    let (open, open_ticks, replans, ready) = to_the_spawn_room(Some(10));
    // The door opened while it ran toward the shaft: the map was updated
    // incrementally, the enemy re-planned on it and went through the door,
    // never down into the hall.
    let edit = ready
        .iter()
        .find(|m| m.kind == JobKind::Edit && m.profile == game::nav_level().1.of(Kind::WallJumper))
        .expect("the edit reached the wall-jumper's map");
    let report = edit.edit.expect("an edit report");
    assert!(
        !report.full_rebuild && report.tiles_changed == 3,
        "{report:?}"
    );
    assert!(
        replans.iter().any(|m| m.generation == 1 && !m.first),
        "{replans:?}"
    );
    assert!(open.iter().all(|b| b.y <= 5.0), "went below the corridor");
    assert!(
        open.iter().any(|b| b.stands_on(Cell::new(6, 3))),
        "never stood in the doorway"
    );
    assert!(
        open_ticks < shut_ticks,
        "{open_ticks} ticks through the door, {shut_ticks} around"
    );
}

#[test]
fn the_enemy_on_a_body_model_reaches_its_target_by_its_own_movement() {
    let mut app = app();
    let player = {
        let mut q = app.world_mut().query_filtered::<Entity, With<Player>>();
        q.single(app.world()).expect("one player")
    };
    app.world_mut().entity_mut(player).despawn();
    let mario = {
        let mut q = app.world_mut().query_filtered::<Entity, With<Mario>>();
        q.single(app.world()).expect("one Mario")
    };
    // Across the hall's spikes.
    let target = Cell::new(17, 17);
    app.world_mut()
        .get_mut::<ModelAgent<NesMario>>(mario)
        .unwrap()
        .target = NavTarget::Cell(target);
    let nes = NesMario::small();
    let state = |app: &App| app.world().get::<ModelBody<NesMario>>(mario).unwrap().0;
    let t = Instant::now();
    let mut moved = false;
    for _ in 0..3_000 {
        if app.world().resource::<ModelNav<NesMario>>().map().is_none() {
            assert!(t.elapsed() < Duration::from_secs(60), "his map never built");
            std::thread::sleep(Duration::from_millis(2));
        }
        let before = state(&app);
        app.update();
        let s = state(&app);
        moved |= s != before;
        assert!(!nes.dead(&s), "Mario died");
        let agent = app.world().get::<ModelAgent<NesMario>>(mario).unwrap();
        if agent.follower().state() == ModelFollowState::Idle && moved {
            break;
        }
    }
    let s = state(&app);
    assert!(moved, "Mario never moved");
    assert_eq!(nes.standing_cell(&s), Some(target), "{s:?}");
    assert!(nes.at_rest(&s));
    let agent = app.world().get::<ModelAgent<NesMario>>(mario).unwrap();
    assert_eq!(
        agent.follower().plans(),
        1,
        "one plan, performed to the end"
    );
    // He started where the game put him, over the spikes' left.
    assert!(MARIO_START.col < 11 && target.col > 13);
    // The door opens: his map is brought to the edited level (by editing
    // a copy of it), equal to a build of that level.
    app.world_mut().write_message(game::door_edit(true));
    let t = Instant::now();
    loop {
        app.update();
        let nav = app.world().resource::<NavLevel>();
        let models = app.world().resource::<ModelNav<NesMario>>();
        if let Some(map) = models.map()
            && map.level().tiles() == nav.level().tiles()
        {
            let fresh = ModelMap::build(nav.level(), nes).unwrap();
            assert_eq!(map.links(), fresh.links());
            assert_eq!(map.generation(), 1, "edited, not built again");
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "his map never caught up"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn the_walker_rides_the_lift_up_the_shaft() {
    let mut app = game_app(true);
    let player = {
        let mut q = app.world_mut().query_filtered::<Entity, With<Player>>();
        q.single(app.world()).expect("one player")
    };
    app.world_mut().entity_mut(player).despawn();
    let lift = {
        let mut q = app.world_mut().query::<(Entity, &NavPlatform)>();
        let lifts: Vec<_> = q.iter(app.world()).map(|(e, p)| (e, p.0)).collect();
        assert_eq!(lifts.len(), 1, "{lifts:?}");
        assert_eq!(lifts[0].1, 0);
        lifts[0].0
    };
    let e = enemy(&mut app, Kind::Walker);
    // In the corridor, which the walker reaches only by the lift.
    let target = Cell::new(20, 4);
    app.world_mut().get_mut::<NavAgent>(e).unwrap().target = NavTarget::Cell(target);
    let physics = Kind::Walker.physics();
    let mut started = MessageCursor::<NavLinkStarted>::default();
    let mut kinds = Vec::new();
    let (mut rode, mut placed) = (false, 0);
    let t = Instant::now();
    for _ in 0..3_000 {
        if !app.world().resource::<NavLevel>().all_current() {
            assert!(t.elapsed() < Duration::from_secs(60), "maps never built");
            std::thread::sleep(Duration::from_millis(2));
        }
        app.update();
        let b = body(&app, e);
        assert!(!b.dead, "the walker died: {b:?}");
        let platforms = app.world().resource::<NavPlatforms>();
        let tick = platforms.tick();
        rode |= b.riding(platforms.platforms(), tick, &physics).is_some();
        // The lift's sprite is at the lift's middle on this tick.
        let place = app.world().resource::<NavTransform>();
        let m = &platforms.platforms().all()[0];
        let [x, y] = m.at(tick);
        let want = place.to_world(x + 1.0, y + 0.5);
        let at = app.world().get::<Transform>(lift).unwrap().translation;
        assert!((at.truncate() - want).length() < 1e-3, "{at} {want}");
        assert_eq!(at.z, -0.5);
        placed += 1;
        kinds.extend(
            drain(&app, &mut started)
                .into_iter()
                .filter(|m: &NavLinkStarted| m.agent == e)
                .map(|m| m.kind),
        );
        let f = app.world().get::<NavFollower>(e).unwrap();
        if b.stands_on(target) && f.timed().state() == TimedFollowState::Idle {
            break;
        }
    }
    let f = app.world().get::<NavFollower>(e).unwrap();
    assert!(f.is_timed());
    assert!(body(&app, e).stands_on(target), "{:?}", body(&app, e));
    assert!(rode, "never rode the lift");
    assert!(placed > 100);
    assert_eq!(f.plans(), 1, "one plan, performed to the end");
    let path = f.timed().path().expect("a plan");
    assert!(path.steps.iter().any(|s| s.kind == TimedKind::Board));
    // Runs on the corridor, after the ride, are the map's links.
    assert!(kinds.contains(&LinkKind::RUN), "{kinds:?}");
}
