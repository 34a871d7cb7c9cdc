//! Moving platforms: paths in time that ride them, performed tick by tick
//! with the platforms where they are on each tick.

use platnav::level::{Platform, PlatformLoop, Platforms};
use platnav::search::timed::{Place, TimedKind, TimedOptions, find_path_timed};
use platnav::{Body, Cell, Level, NavMap, Physics};

mod common;
use common::level;

/// Two ledges 16 tiles apart, too far for any jump, and a 3-tile lift
/// that shuttles between them at the ledges' height.
fn ferry() -> (Level, Vec<Platform>) {
    let l = level(&[
        "..............................",
        "..............................",
        "..............................",
        "..............................",
        "..............................",
        "..............................",
        "..............................",
        "..............................",
        "..............................",
        "..............................",
        "######................########",
        "######................########",
    ]);
    let lift = Platform {
        width: 3,
        height: 1,
        points: vec![[6.0, 10.0], [19.0, 10.0]],
        speed: 3.0,
        pause: 20,
        looped: PlatformLoop::BackAndForth,
        offset: 0,
    };
    (l, vec![lift])
}

#[test]
fn a_gap_no_jump_clears_is_crossed_on_the_lift_and_the_tape_performs() {
    let (l, lifts) = ferry();
    let p = Physics::default();
    let map = NavMap::build(&l, &p).unwrap();
    let platforms = Platforms::new(lifts, p.dt).unwrap();
    // Without the lift, there is no way over.
    assert!(
        platnav::find_path(&map, Cell::new(2, 9), Cell::new(26, 9), &Default::default()).is_err()
    );
    for start_tick in [0, 37, 150, 1000] {
        let path = find_path_timed(
            &map,
            &platforms,
            Cell::new(2, 9),
            start_tick,
            Cell::new(26, 9),
            &TimedOptions::default(),
        )
        .unwrap_or_else(|e| panic!("from tick {start_tick}: {e}"));
        assert!(path.rides(), "{:?}", path.steps);
        assert!(
            path.steps.iter().any(|s| s.kind == TimedKind::Board
                && matches!(s.to, Place::Platform { platform: 0, .. }))
        );
        // The tape, performed from the start on its tick.
        let mut body = Body::start(&l, Cell::new(2, 9), &p);
        for (i, &input) in path.inputs.iter().enumerate() {
            body.step_moving(&l, &platforms, start_tick + i as u64, &p, input);
        }
        assert!(body.stands_on(Cell::new(26, 9)), "{body:?}");
        // Started at another tick, the same tape does not get there.
        let mut late = Body::start(&l, Cell::new(2, 9), &p);
        for (i, &input) in path.inputs.iter().enumerate() {
            late.step_moving(&l, &platforms, start_tick + 90 + i as u64, &p, input);
        }
        assert!(
            !late.stands_on(Cell::new(26, 9)),
            "the path depends on its tick"
        );
    }
}

/// The ledges on either side of generated chasm `i`: the cells next to the
/// platform's path at its ends.
fn ledges(l: &Level, lift: &Platform) -> (Cell, Cell) {
    let xs = lift.points.iter().map(|p| p[0]);
    let left = xs.clone().fold(f64::INFINITY, f64::min) as i32;
    let right = xs.fold(f64::NEG_INFINITY, f64::max) as i32 + lift.width as i32;
    let row = l.height() as i32 - 3;
    (Cell::new(left - 2, row), Cell::new(right + 1, row))
}

#[test]
fn every_generated_chasm_is_crossed_on_its_platform_and_every_path_performs() {
    let p = Physics::default();
    let mut crossings = 0;
    let mut other = 0;
    let mut rng = platnav::level::SplitMix64::new(7);
    for seed in 0..6 {
        let (l, lifts) = Level::generate_with_platforms(72, 14, 3, seed).unwrap();
        let map = NavMap::build(&l, &p).unwrap();
        let platforms = Platforms::new(lifts.clone(), p.dt).unwrap();
        let mut queries: Vec<(Cell, Cell)> = lifts.iter().map(|m| ledges(&l, m)).collect();
        let nodes = map.nodes().to_vec();
        for _ in 0..4 {
            let a = nodes[rng.below(nodes.len() as u64) as usize];
            let b = nodes[rng.below(nodes.len() as u64) as usize];
            queries.push((a, b));
        }
        for (i, &(from, to)) in queries.iter().enumerate() {
            let tick = rng.below(2_000);
            let found = find_path_timed(&map, &platforms, from, tick, to, &TimedOptions::default());
            let path = match found {
                Ok(path) => path,
                Err(e) if i >= lifts.len() => {
                    // A random pair may have no way between them.
                    eprintln!("seed {seed}: {from} -> {to}: {e}");
                    continue;
                }
                Err(e) => panic!("seed {seed}: chasm {i} from {from} to {to} at {tick}: {e}"),
            };
            let mut body = Body::start(&l, from, &p);
            for (k, &input) in path.inputs.iter().enumerate() {
                body.step_moving(&l, &platforms, tick + k as u64, &p, input);
            }
            assert!(body.stands_on(to), "seed {seed}: {from} -> {to} at {tick}");
            if i < lifts.len() {
                assert!(
                    path.rides(),
                    "seed {seed}: chasm {i} crossed without its platform"
                );
                crossings += 1;
            } else {
                other += 1;
            }
        }
    }
    assert_eq!(crossings, 18);
    assert!(other > 0, "no random pair had a path");
}

/// One planner kept across queries on each seeded level, both ways over
/// each chasm at random ticks: it finds a path whenever
/// `find_path_timed` does, every path it returns performs from the
/// start to the goal, it is at most a few ticks slower, and the queries
/// after the first reuse what it kept (a repeated query returns the same
/// tape without planning again).
#[test]
fn a_planner_kept_across_queries_finds_what_find_path_timed_finds() {
    use platnav::search::timed::TimedPlanner;
    let p = Physics::default();
    let mut rng = platnav::level::SplitMix64::new(3);
    let (mut compared, mut differing) = (0, 0);
    for seed in 0..4 {
        let (l, lifts) = Level::generate_with_platforms(72, 14, 3, seed).unwrap();
        let map = NavMap::build(&l, &p).unwrap();
        let platforms = Platforms::new(lifts.clone(), p.dt).unwrap();
        let planner = TimedPlanner::new(&map, &platforms, TimedOptions::default());
        for lift in &lifts {
            let (a, b) = ledges(&l, lift);
            for (from, to) in [(a, b), (b, a), (a, b)] {
                let tick = rng.below(2_000);
                let exact =
                    find_path_timed(&map, &platforms, from, tick, to, &TimedOptions::default())
                        .unwrap_or_else(|e| panic!("seed {seed}: {from} -> {to} at {tick}: {e}"));
                let planned = planner.find_path(from, tick, to).unwrap_or_else(|e| {
                    panic!("seed {seed}: planner {from} -> {to} at {tick}: {e}")
                });
                let mut body = Body::start(&l, from, &p);
                for (k, &input) in planned.inputs.iter().enumerate() {
                    body.step_moving(&l, &platforms, tick + k as u64, &p, input);
                }
                assert!(
                    body.stands_on(to) && !body.dead,
                    "seed {seed}: {from} -> {to} at {tick}"
                );
                assert!(
                    planned.ticks() <= exact.ticks() + exact.ticks() / 20 + 4,
                    "seed {seed}: {from} -> {to} at {tick}: {} ticks against {}",
                    planned.ticks(),
                    exact.ticks()
                );
                let again = planner.find_path(from, tick, to).unwrap();
                assert_eq!(
                    again.inputs, planned.inputs,
                    "seed {seed}: the same query again"
                );
                compared += 1;
                differing += usize::from(planned.inputs != exact.inputs);
            }
        }
    }
    assert_eq!(compared, 36);
    eprintln!("{differing} of {compared} planned paths differ from find_path_timed's");
}

/// A game that keeps a `TimedMemory` and makes a planner on it for each
/// query gets what one kept planner gives: the same paths, query after
/// query, each performed to its goal.
#[test]
fn planners_made_per_query_on_one_memory_answer_as_one_kept_planner() {
    use platnav::search::timed::{TimedMemory, TimedPlanner};
    let p = Physics::default();
    let mut rng = platnav::level::SplitMix64::new(7);
    let (l, lifts) = Level::generate_with_platforms(72, 14, 3, 1).unwrap();
    let map = NavMap::build(&l, &p).unwrap();
    let platforms = Platforms::new(lifts.clone(), p.dt).unwrap();
    let opts = TimedOptions::default();
    let kept = TimedPlanner::new(&map, &platforms, opts);
    let memory = TimedMemory::new();
    let mut queries = 0;
    for lift in &lifts {
        let (a, b) = ledges(&l, lift);
        for (from, to) in [(a, b), (b, a), (a, b), (b, a)] {
            let tick = rng.below(2_000);
            let want = kept.find_path(from, tick, to).unwrap();
            let planner = TimedPlanner::with_memory(&map, &platforms, opts, &memory);
            let got = planner.find_path(from, tick, to).unwrap();
            assert_eq!(got.inputs, want.inputs, "{from} -> {to} at {tick}");
            assert_eq!(got.stats, want.stats, "{from} -> {to} at {tick}");
            let mut body = Body::start(&l, from, &p);
            for (k, &input) in got.inputs.iter().enumerate() {
                body.step_moving(&l, &platforms, tick + k as u64, &p, input);
            }
            assert!(body.stands_on(to) && !body.dead, "{from} -> {to} at {tick}");
            queries += 1;
        }
    }
    assert_eq!(queries, 12);
    assert!(!memory.is_empty());
}

#[test]
fn knocked_followers_land_and_plan_again_and_no_death_was_avoidable() {
    use platnav::follow::{TimedFollowState, TimedFollower, knock, recovery_input};
    use platnav::search::timed::World;
    let p = Physics::default();
    let mut rng = platnav::level::SplitMix64::new(11);
    let (mut chases, mut arrived, mut knocks, mut deaths, mut riding) = (0, 0, 0, 0, 0);
    for seed in 0..4 {
        let (l, lifts) = Level::generate_with_platforms(72, 14, 3, seed).unwrap();
        let map = NavMap::build(&l, &p).unwrap();
        let platforms = Platforms::new(lifts.clone(), p.dt).unwrap();
        let world = World::new(&l, &p, &platforms);
        for lift in &lifts {
            let (from, to) = ledges(&l, lift);
            let mut body = Body::start(&l, from, &p);
            let mut follower = TimedFollower::new(TimedOptions::default().with_wait_stride(4));
            let start = rng.below(1_000);
            // The state and tick of the last knock.
            let mut last: Option<(Body, u64)> = None;
            chases += 1;
            for t in 0..4_000 {
                let tick = start + t;
                if t % 120 == 60 {
                    riding += usize::from(body.riding(&platforms, tick, &p).is_some());
                    knock(&mut body, &p, &mut rng);
                    knocks += 1;
                    last = Some((body, tick));
                }
                let input = follower.next_input(&map, &platforms, &body, tick, to);
                body.step_moving(&l, &platforms, tick, &p, input);
                if body.dead {
                    deaths += 1;
                    let avoidable =
                        last.is_none_or(|(k, at)| recovery_input(&world, &k, at).is_some());
                    assert!(
                        !avoidable,
                        "seed {seed}: died on tick {tick} after {last:?}"
                    );
                    break;
                }
                if body.stands_on(to) && follower.state() == TimedFollowState::Idle {
                    arrived += 1;
                    break;
                }
            }
        }
    }
    eprintln!(
        "{chases} chases, {arrived} arrived, {knocks} knocks ({riding} off a platform), \
         {deaths} unavoidable deaths"
    );
    assert!(knocks >= chases, "every chase was knocked at least once");
    assert!(riding > 0, "no knock came on a platform");
    assert!(arrived * 2 > chases, "{arrived} of {chases} arrived");
}

#[test]
fn a_follower_at_its_goal_stays_idle_without_planning_again() {
    use platnav::follow::{TimedFollowState, TimedFollower};
    let (l, lifts) = ferry();
    let p = Physics::default();
    let map = NavMap::build(&l, &p).unwrap();
    let platforms = Platforms::new(lifts, p.dt).unwrap();
    // The goal as asked is in the air above the ledge: the plan snaps it.
    let (from, asked, goal) = (Cell::new(2, 9), Cell::new(26, 7), Cell::new(26, 9));
    let mut body = Body::start(&l, from, &p);
    let mut follower = TimedFollower::new(TimedOptions::default());
    let mut arrived_at = None;
    for tick in 0..2_000u64 {
        let input = follower.next_input(&map, &platforms, &body, tick, asked);
        body.step_moving(&l, &platforms, tick, &p, input);
        if arrived_at.is_none()
            && body.stands_on(goal)
            && follower.state() == TimedFollowState::Idle
        {
            arrived_at = Some(tick);
        }
    }
    let arrived = arrived_at.expect("the follower arrives");
    assert!(body.stands_on(goal), "{body:?}");
    assert_eq!(follower.state(), TimedFollowState::Idle);
    // One plan took it there: the path the follower holds started on tick 0.
    assert_eq!(
        follower.path().map(|p| p.start_tick),
        Some(0),
        "arrived on {arrived}"
    );
}

/// Three followers sharing one planner cross the ferry's gap from
/// different ticks, each on the lift and to rest on the far ledge; and
/// three more sharing one memory, whose planners are made as they plan,
/// give the same inputs, and fill the memory.
#[test]
fn followers_sharing_a_planner_each_cross_on_the_lift() {
    use platnav::follow::{TimedFollowState, TimedFollower};
    use platnav::search::timed::{TimedMemory, TimedPlanner};
    let (l, lifts) = ferry();
    let p = Physics::default();
    let map = NavMap::build(&l, &p).unwrap();
    let platforms = Platforms::new(lifts, p.dt).unwrap();
    let planner = TimedPlanner::new(&map, &platforms, TimedOptions::default());
    let memory = TimedMemory::new();
    let (from, goal) = (Cell::new(2, 9), Cell::new(26, 9));
    for start in [0u64, 41, 230] {
        let mut body = Body::start(&l, from, &p);
        let mut follower = TimedFollower::new(TimedOptions::default());
        let mut twin = TimedFollower::new(TimedOptions::default());
        let mut arrived = false;
        for tick in start..start + 2_000 {
            let input = follower.next_input_with(&planner, &body, tick, goal);
            let again = twin.next_input_with_memory((&map, &platforms), &memory, &body, tick, goal);
            assert_eq!(input, again, "from tick {start}, on tick {tick}");
            body.step_moving(&l, &platforms, tick, &p, input);
            if body.stands_on(goal) && follower.state() == TimedFollowState::Idle {
                arrived = true;
                break;
            }
        }
        assert!(arrived, "from tick {start}: {body:?}");
        assert!(
            follower.path().is_some_and(|path| path.rides()),
            "from tick {start}: the path rides the lift"
        );
    }
    assert!(!memory.is_empty());
}
