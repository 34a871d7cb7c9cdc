//! Enemies that survive a knock: seeded chases with random knocks on SMB
//! 1-1, the demo and a generated level, with every physics preset, and the
//! recovery's parts on small scenes.

use platnav::{
    Body, Cell, Input, Level, NavMap, PathFollower, Physics,
    follow::{
        FollowOptions, FollowState, KnockOptions, KnockReport, MAX_RECOVERY_TICKS, RecoveryProgram,
        knock_chases,
    },
};

mod common;
use common::{demo, smb_1_1};

/// Whether holding one input (any move, jump and down) from `body` lands it
/// alive: the test's own check, independent of the library's.
fn some_constant_input_lands(map: &NavMap, body: &Body) -> bool {
    let (level, p) = (map.level(), map.physics());
    (0..12).any(|k| {
        let input = Input::new((k % 3) as i8 - 1, k / 3 % 2 == 1, k >= 6);
        let mut b = *body;
        let mut airborne = !b.grounded;
        for _ in 0..MAX_RECOVERY_TICKS {
            b.step(level, p, input);
            if b.dead {
                return false;
            }
            if b.grounded && (airborne || b.vx == 0.0) {
                return true;
            }
            airborne |= !b.grounded;
        }
        false
    })
}

/// 80 seeded chases with a knock every two seconds on `level` with each
/// preset; checks the targets and prints the counts.
fn knock_chases_on(name: &str, level: &Level) -> Vec<KnockReport> {
    knock_chases_with(name, level, &KnockOptions::default())
}

/// [`knock_chases_on`] with `options`.
fn knock_chases_with(name: &str, level: &Level, options: &KnockOptions) -> Vec<KnockReport> {
    let mut reports = Vec::new();
    for preset in Physics::PRESETS {
        let map = NavMap::build(level, &Physics::preset(preset).unwrap()).unwrap();
        let r = knock_chases(&map, options);
        println!(
            "{name}, {preset}: {} chases, {} arrived, {} died ({} avoidable, {} unannounced), {} timed out ({} stranded), {} knocks",
            r.chases,
            r.arrivals,
            r.deaths,
            r.avoidable,
            r.unannounced,
            r.timeouts,
            r.stranded,
            r.knocks
        );
        assert_eq!(r.chases, 80, "{name}, {preset}");
        assert_eq!(r.arrivals + r.deaths + r.timeouts, r.chases);
        assert!(r.knocks >= 80, "{name}, {preset}: {} knocks", r.knocks);
        assert_eq!(
            r.avoidable, 0,
            "{name}, {preset}: avoidable deaths: {:#?}",
            r.death_list
        );
        assert_eq!(
            r.unannounced, 0,
            "{name}, {preset}: deaths not reported before they happened: {:#?}",
            r.death_list
        );
        for d in &r.death_list {
            let knocked = d.knocked.expect("every death follows a knock");
            assert!(
                !some_constant_input_lands(&map, &knocked),
                "{name}, {preset}: a constant input lands alive from {knocked:?}"
            );
            assert!(d.warned >= 1);
        }
        // Knocked enemies still get there: 9 in 10 at least.
        assert!(
            r.arrivals * 10 >= r.chases * 9,
            "{name}, {preset}: {} of {} arrived",
            r.arrivals,
            r.chases
        );
        reports.push(r);
    }
    reports
}

#[test]
fn knocked_enemies_on_smb_1_1_die_only_where_nothing_lands_and_say_so_first() {
    // A knock every second, so that some land over a pit.
    let options = KnockOptions::default().with_interval(60);
    let reports = knock_chases_with("SMB 1-1", &smb_1_1(), &options);
    // SMB's pits kill some knocked enemies whatever they do.
    assert!(reports.iter().map(|r| r.deaths).sum::<u32>() > 0);
}

#[test]
fn knocked_enemies_on_the_demo_die_only_where_nothing_lands_and_say_so_first() {
    knock_chases_on("demo", &demo());
}

#[test]
fn knocked_enemies_on_a_generated_level_die_only_where_nothing_lands_and_say_so_first() {
    knock_chases_on("generated 64 x 64", &Level::generate(64, 64, 42).unwrap());
}

#[test]
fn recovery_families_have_the_documented_programs_in_order() {
    let agile = RecoveryProgram::family(&Physics::agile());
    let plain = RecoveryProgram::family(&Physics::default());
    assert_eq!(agile.len(), 12 + 6 + 14 * 30);
    assert_eq!(plain.len(), 12 + 14 * 30);
    assert!(agile[..12].iter().all(|p| p.then.is_none()));
    assert!(agile[12..18].iter().all(
        |p| matches!(p.then, Some((platnav::follow::RecoverySwitch::WallContact, i)) if i.jump)
    ));
    let distinct: std::collections::HashSet<_> = agile.iter().collect();
    assert_eq!(distinct.len(), agile.len());
}

/// An ASCII scene and its map with the default physics.
fn scene(ascii: &str) -> (Level, NavMap) {
    let level: Level = ascii.parse().unwrap();
    let map = NavMap::build(&level, &Physics::default()).unwrap();
    (level, map)
}

/// A pit 34 tiles wide with no floor: nothing lands from its middle.
const PIT: &str = "\
........................................
........................................
........................................
........................................
........................................
........................................
........................................
........................................
........................................
###..................................###";

#[test]
fn a_body_falling_to_its_death_is_told_so_with_the_ticks_left() {
    let (level, map) = scene(PIT);
    let p = map.physics();
    let mut body = Body::standing(Cell::new(1, 8), p);
    body.x = 20.5;
    body.y = 3.0;
    body.grounded = false;
    let mut f = PathFollower::new(FollowOptions::default());
    let input = f.next_input(&map, &body, Cell::new(38, 8));
    let FollowState::FallingToDeath { ticks } = f.state() else {
        panic!("state {:?}", f.state());
    };
    body.step(&level, p, input);
    for left in (1..ticks).rev() {
        assert!(!body.dead, "died {left} ticks early");
        let input = f.next_input(&map, &body, Cell::new(38, 8));
        assert_eq!(f.state(), FollowState::FallingToDeath { ticks: left });
        assert_eq!(f.simulated_steps(), 0, "the held program costs nothing");
        body.step(&level, p, input);
    }
    assert!(body.dead, "dies when it said");
}

/// A ledge, a pit too wide to jump, and a platform beyond it.
const LEDGE: &str = "\
..............................
..............................
..............................
..............................
..............................
..............................
##########..............######";

#[test]
fn a_knock_toward_a_pit_is_recovered_where_steering_toward_the_target_falls_in() {
    let (level, map) = scene(LEDGE);
    let p = map.physics();
    let target = Cell::new(26, 5);
    let mut knocked = Body::standing(Cell::new(8, 5), p);
    knocked.vx = 6.0;
    knocked.vy = -9.0;
    // What the follower used to do: steer toward the target, keep rising.
    let mut old = knocked;
    for _ in 0..300 {
        let hold = old.jump_held_last_tick && old.vy < 0.0;
        old.step(&level, p, Input::new(1, hold, false));
    }
    assert!(old.dead, "steering toward the target falls into the pit");

    let mut f = PathFollower::new(FollowOptions::default());
    let mut body = knocked;
    let input = f.next_input(&map, &body, target);
    let FollowState::Recovering {
        lands_in: Some(n),
        landing: Some(landing),
    } = f.state()
    else {
        panic!("state {:?}", f.state());
    };
    assert!(landing.col <= 9, "lands back on the ledge, not {landing}");
    body.step(&level, p, input);
    for t in 1..n {
        assert!(!body.grounded, "landed at tick {t}, not {n}");
        let input = f.next_input(&map, &body, target);
        body.step(&level, p, input);
    }
    assert!(body.grounded && !body.dead, "landed after {n} ticks");
    for _ in 0..120 {
        let input = f.next_input(&map, &body, target);
        if f.state() != FollowState::Settling {
            break;
        }
        body.step(&level, p, input);
    }
    assert_eq!(body.standing_cell(), Some(landing), "settled where it said");
    assert_eq!(f.state(), FollowState::Unreachable, "the target is across");
}

/// A ledge over a bottomless pit.
const OVERHANG: &str = "\
............
............
............
............
#####.......
#####.......";

#[test]
fn a_body_standing_on_an_overhang_walks_back_onto_the_map() {
    let (level, map) = scene(OVERHANG);
    let p = map.physics();
    // The box overlaps the ledge's last column by 0.1 tiles: grounded, on
    // a cell (5, 3) that is not on the map.
    let mut body = Body::standing(Cell::new(5, 3), p);
    body.x = 5.3;
    assert!(map.node(body.standing_cell().unwrap()).is_none());
    let goal = Cell::new(1, 3);
    let mut f = PathFollower::new(FollowOptions::default());
    for t in 0..600 {
        if body.stands_on(goal) && body.vx == 0.0 {
            assert_eq!(f.state(), FollowState::OnPlan);
            return;
        }
        let input = f.next_input(&map, &body, goal);
        if t == 0 {
            assert_eq!(f.state(), FollowState::Settling);
            assert_eq!(input.move_x, -1, "walks back toward the ledge");
        }
        body.step(&level, p, input);
        assert!(body.grounded && !body.dead, "left the ground at tick {t}");
    }
    panic!("never reached the goal; body {body:?}");
}

#[test]
fn on_plan_ticks_simulate_nothing_and_a_zero_budget_still_recovers() {
    let level = smb_1_1();
    let map = NavMap::build(&level, &Physics::smb()).unwrap();
    let options =
        KnockOptions::default().with_follow(FollowOptions::default().with_recovery_budget(0));
    let r = knock_chases(&map, &options);
    assert_eq!((r.avoidable, r.unannounced), (0, 0), "{:#?}", r.death_list);

    // One knocked chase by hand: on plan, nothing is simulated; holding a
    // recovery with no budget, nothing after its first tick.
    let p = map.physics();
    let (start, goal) = (Cell::new(2, 12), Cell::new(60, 12));
    let mut body = Body::standing(start, p);
    let mut f = PathFollower::new(options.follow.clone());
    let (mut on_plan, mut held) = (0, 0);
    for t in 0..2_000 {
        if body.stands_on(goal) && body.vx == 0.0 {
            break;
        }
        let was = f.state();
        let input = f.next_input(&map, &body, goal);
        match (was, f.state()) {
            (FollowState::OnPlan, FollowState::OnPlan) => {
                on_plan += 1;
                assert_eq!(f.simulated_steps(), 0);
            }
            (FollowState::Recovering { .. }, FollowState::Recovering { .. }) => {
                held += 1;
                assert_eq!(f.simulated_steps(), 0);
            }
            _ => {}
        }
        body.step(&level, p, input);
        assert!(!body.dead);
        if t == 100 {
            body.vx = -4.0;
            body.vy = -12.0;
        }
    }
    assert!(body.stands_on(goal), "arrived");
    assert!(on_plan > 100 && held > 10, "{on_plan} on plan, {held} held");
}
