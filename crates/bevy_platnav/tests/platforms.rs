//! Moving platforms without a window (MinimalPlugins): on platnav's
//! `levels/lifts.txt` an agent on the left ledge rides the lifts to the
//! goal across the gap, stepping on the same tick the platforms are
//! placed on; the platform entities follow the platforms.

use std::path::Path;
use std::time::{Duration, Instant};

use bevy::ecs::message::{MessageCursor, Messages};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_platnav::platnav::follow::{FollowState, TimedFollowState};
use bevy_platnav::platnav::level::Platforms;
use bevy_platnav::platnav::search::timed::TimedKind;
use bevy_platnav::platnav::{Body, Cell, Level, Physics};
use bevy_platnav::prelude::*;

const TILE_PX: f32 = 16.0;

/// The lifts level from platnav's `levels/`.
fn lifts() -> NavLevel {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../levels/lifts.txt");
    NavLevel::load(&path).expect("levels/lifts.txt loads")
}

/// The plugin on `nav`, one fixed tick per `update`; an agent of the
/// default physics on `start` heading for `goal`, and an entity per
/// platform. Returns the app, the agent and the platform entities.
fn app(mut nav: NavLevel, start: Cell, goal: Cell) -> (App, Entity, Vec<Entity>) {
    let profile = nav
        .add_profile("walker", Physics::default())
        .expect("valid physics");
    let height = nav.level().height();
    let platforms = nav.platforms().len();
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PlatnavPlugin::default()))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(NavTransform::pixels(TILE_PX, height));
    let agent = app
        .world_mut()
        .spawn((
            nav.agent(profile, start, NavTarget::Cell(goal)),
            Transform::default(),
        ))
        .id();
    let lifts = (0..platforms)
        .map(|i| app.world_mut().spawn(NavPlatform(i)).id())
        .collect();
    app.insert_resource(nav);
    (app, agent, lifts)
}

fn body(app: &App, e: Entity) -> Body {
    app.world().get::<NavBody>(e).expect("a body").0
}

/// Updates until the map is built (in the background, in real time).
fn wait_for_maps(app: &mut App) {
    let t = Instant::now();
    while !app.world().resource::<NavLevel>().all_current() {
        assert!(t.elapsed() < Duration::from_secs(60), "the map never built");
        std::thread::sleep(Duration::from_millis(2));
        app.update();
    }
}

fn drain<M: Message + Clone>(app: &App, cursor: &mut MessageCursor<M>) -> Vec<M> {
    cursor
        .read(app.world().resource::<Messages<M>>())
        .cloned()
        .collect()
}

/// The world point at the middle of platform `m`'s box on `tick`, from
/// its corner (tiles, y down) to pixels (y up, the level's bottom-left
/// corner at the origin).
fn expected_center(platforms: &Platforms, i: usize, tick: u64, height: usize) -> Vec2 {
    let m = &platforms.all()[i];
    let [x, y] = m.at(tick);
    let cx = x + f64::from(m.platform.width) / 2.0;
    let cy = y + f64::from(m.platform.height) / 2.0;
    Vec2::new(cx as f32, (height as f64 - cy) as f32) * TILE_PX
}

#[test]
fn an_agent_rides_the_lifts_across_the_gap_to_the_goal() {
    let nav = lifts();
    let (start, goal) = (nav.spawn().expect("a spawn"), nav.goals()[0]);
    assert_eq!((start, goal), (Cell::new(1, 10), Cell::new(27, 4)));
    assert_eq!(nav.platforms().len(), 2);
    let height = nav.level().height();
    let (mut app, agent, lifts) = app(nav, start, goal);
    // The level's platforms become the shared resource on the first fixed
    // tick, which the tick has then passed.
    for _ in 0..3 {
        if app.world().contains_resource::<NavPlatforms>() {
            break;
        }
        app.update();
    }
    let platforms = app.world().resource::<NavPlatforms>().platforms().clone();
    assert_eq!(platforms.len(), 2);
    assert!(app.world().resource::<NavTimedMemory>().is_empty());
    assert_eq!(app.world().resource::<NavPlatforms>().tick(), 1);
    let physics = Physics::default();
    let level: Level = app.world().resource::<NavLevel>().level().clone();
    let (mut replans, mut started) = (MessageCursor::default(), MessageCursor::default());
    let mut got_replans: Vec<NavReplanned> = Vec::new();
    let mut links = 0;
    // (tick the state is of, the body): the whole trail, from before the
    // map was built (the agent stands still until then).
    let mut trail: Vec<(u64, Body)> = vec![(1, body(&app, agent))];
    let (mut rode, mut checked) = (false, 0);
    let t = Instant::now();
    for _ in 0..3_000 {
        if !app.world().resource::<NavLevel>().all_current() {
            assert!(t.elapsed() < Duration::from_secs(60), "the map never built");
            std::thread::sleep(Duration::from_millis(2));
        }
        let before = app.world().resource::<NavPlatforms>().tick();
        app.update();
        let tick = app.world().resource::<NavPlatforms>().tick();
        assert_eq!(tick, before + 1, "one tick an update");
        let b = body(&app, agent);
        assert!(!b.dead, "the agent died on tick {tick}: {b:?}");
        trail.push((tick, b));
        rode |= b.riding(&platforms, tick, &physics).is_some();
        // Each platform entity is where its platform is on this tick.
        for (i, &e) in lifts.iter().enumerate() {
            let t = app.world().get::<Transform>(e).expect("a transform");
            let want = expected_center(&platforms, i, tick, height);
            assert!(
                (t.translation.truncate() - want).length() < 1e-3,
                "platform {i} on tick {tick}: at {}, expected {want}",
                t.translation
            );
            checked += 1;
        }
        got_replans.extend(drain::<NavReplanned>(&app, &mut replans));
        links += drain::<NavLinkStarted>(&app, &mut started).len();
        let f = app.world().get::<NavFollower>(agent).unwrap();
        if b.stands_on(goal) && f.timed().state() == TimedFollowState::Idle {
            break;
        }
    }
    let f = app.world().get::<NavFollower>(agent).unwrap().clone();
    let (_, end) = trail.last().copied().unwrap();
    assert!(end.stands_on(goal), "never reached the goal: {end:?}");
    assert!(rode, "never rode a platform");
    assert!(checked > 100);
    // It planned in time (the path follower never ran), once, and
    // performed the plan to the end: the body stepped on the very tick
    // the plan was made for.
    assert!(f.is_timed());
    assert_eq!(f.follower().state(), FollowState::Idle);
    // It planned with the plugin's memory, which the agents of its kind
    // share.
    assert!(!app.world().resource::<NavTimedMemory>().is_empty());
    assert_eq!(f.plans(), 1, "{got_replans:?}");
    assert_eq!(got_replans.len(), 1);
    assert!(got_replans[0].first && got_replans[0].goal == goal);
    let path = f.timed().path().expect("a plan").clone();
    assert!(
        path.steps.iter().any(|s| s.kind == TimedKind::Board),
        "{:?}",
        path.steps
    );
    assert!(links > 0, "no link of the map started");
    // The trail is the tape performed with the platforms from the plan's
    // start tick, tick for tick.
    let from = trail
        .iter()
        .position(|&(t, _)| t == path.start_tick)
        .expect("the plan starts on a recorded tick");
    let mut b = trail[from].1;
    assert_eq!(b, Body::start(&level, start, &physics));
    for (i, &input) in path.inputs.iter().enumerate() {
        b.step_moving(
            &level,
            &platforms,
            path.start_tick + i as u64,
            &physics,
            input,
        );
        assert_eq!(trail[from + i + 1].1, b, "tick {}", trail[from + i + 1].0);
    }
    assert!(b.stands_on(goal));
}

/// Without platforms nothing changes: the agent follows its path with the
/// path follower, and no platform resource appears.
#[test]
fn a_level_without_platforms_keeps_the_path_follower() {
    let level: Level = "..............\n..............\n.S..........G.\n##############"
        .parse()
        .unwrap();
    let goal = Cell::new(12, 2);
    let (mut app, agent, lifts) = app(NavLevel::new(level), Cell::new(1, 2), goal);
    assert!(lifts.is_empty());
    app.update();
    wait_for_maps(&mut app);
    for _ in 0..600 {
        app.update();
        if app
            .world()
            .get::<NavFollower>(agent)
            .is_some_and(|f| f.follower().state() == FollowState::Arrived)
        {
            break;
        }
    }
    assert!(app.world().get_resource::<NavPlatforms>().is_none());
    assert!(app.world().resource::<NavTimedMemory>().is_empty());
    let f = app.world().get::<NavFollower>(agent).unwrap();
    assert!(!f.is_timed());
    assert_eq!(f.follower().state(), FollowState::Arrived);
    assert_eq!(f.plans(), 1);
    assert!(body(&app, agent).stands_on(goal));
}

/// The plugin makes [`NavPlatforms`] of a level's platforms, replaces
/// them when another level arrives, leaves a game's own alone, and reports
/// platforms that fail their check.
#[test]
fn the_plugin_adopts_a_levels_platforms_and_leaves_a_games_own() {
    let text = "@platform 2 2,3 6,3 speed 3\n..........\n..........\n..........\n##......##";
    let loaded = bevy_platnav::platnav::level::LoadedLevel::from_ascii(text).unwrap();
    let with_profile = |nav: NavLevel| {
        let mut nav = nav;
        nav.add_profile("walker", Physics::default()).unwrap();
        nav
    };
    let lift_level = || with_profile(NavLevel::from_loaded(loaded.clone()));
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PlatnavPlugin::default()))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(lift_level());
    let updates = |app: &mut App| {
        for _ in 0..3 {
            app.update();
        }
    };
    updates(&mut app);
    let p = app.world().resource::<NavPlatforms>();
    assert_eq!(p.platforms().len(), 1);
    assert!(p.tick() > 0);
    // Another level, without platforms: the level's platforms go.
    let flat: Level = loaded.level.clone();
    app.insert_resource(with_profile(NavLevel::new(flat.clone())));
    updates(&mut app);
    assert!(app.world().get_resource::<NavPlatforms>().is_none());
    // A game's own platforms stay, whatever the level brings.
    let own = Platforms::new(Vec::new(), Physics::default().dt).unwrap();
    app.insert_resource(NavPlatforms::from_platforms(own));
    app.insert_resource(lift_level());
    updates(&mut app);
    let p = app.world().resource::<NavPlatforms>();
    assert!(p.platforms().is_empty() && p.tick() > 0);
    // A platform that fails its check is reported, and not ridden.
    app.world_mut().remove_resource::<NavPlatforms>();
    let mut bad = loaded.platforms.clone();
    bad[0].speed = 0.0;
    app.insert_resource(with_profile(NavLevel::new(flat).with_platforms(bad)));
    let mut failed = MessageCursor::<NavMapFailed>::default();
    let mut got = Vec::new();
    for _ in 0..3 {
        app.update();
        got.extend(drain(&app, &mut failed));
    }
    assert!(app.world().get_resource::<NavPlatforms>().is_none());
    assert!(
        got.iter()
            .any(|m| m.profile.is_none() && m.error.contains("moving platform 0")),
        "{got:?}"
    );
}

/// Over platforms, an agent with no way to its target says so once and
/// stands; a tile edit that opens a way sends it there.
#[test]
fn an_unreachable_target_is_reported_once_until_an_edit_opens_a_way() {
    let text = "@platform 1 0,0 speed 1\n\
                ..................\n\
                ..................\n\
                .S.............G..\n\
                ####..........####";
    let loaded = bevy_platnav::platnav::level::LoadedLevel::from_ascii(text).unwrap();
    let (start, goal) = (Cell::new(1, 2), Cell::new(15, 2));
    let (mut app, agent, _) = app(NavLevel::from_loaded(loaded), start, goal);
    let mut cursor = MessageCursor::<NavUnreachable>::default();
    let mut unreachable = Vec::new();
    let t = Instant::now();
    for _ in 0..300 {
        if !app.world().resource::<NavLevel>().all_current() {
            assert!(t.elapsed() < Duration::from_secs(60), "the map never built");
            std::thread::sleep(Duration::from_millis(2));
        }
        app.update();
        unreachable.extend(drain(&app, &mut cursor));
    }
    assert_eq!(unreachable.len(), 1, "{unreachable:?}");
    assert_eq!(unreachable[0].target, goal);
    let f = app.world().get::<NavFollower>(agent).unwrap();
    assert!(f.is_timed());
    assert_eq!(f.timed().state(), TimedFollowState::Unreachable);
    assert_eq!(
        body(&app, agent),
        Body::start(&level_of(&app), start, &Physics::default())
    );
    // A bridge over the gap.
    let bridge: Vec<_> = (4..14)
        .map(|c| (Cell::new(c, 3), bevy_platnav::platnav::Tile::SOLID))
        .collect();
    app.world_mut()
        .resource_mut::<NavLevel>()
        .edit(&bridge)
        .unwrap();
    app.world_mut().resource_mut::<NavLevel>().wait();
    for _ in 0..600 {
        app.update();
        if body(&app, agent).stands_on(goal) {
            break;
        }
    }
    assert!(body(&app, agent).stands_on(goal), "{:?}", body(&app, agent));
    assert_eq!(drain(&app, &mut cursor).len(), 0);
}

fn level_of(app: &App) -> Level {
    app.world().resource::<NavLevel>().level().clone()
}
