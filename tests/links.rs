//! Links are performances of the reference body.

mod common;

use platnav::{find_path, search};
use std::collections::HashSet;

use platnav::{
    Body, Cell, Level, LinkKind, LinkOptions, NavMap, Physics, SearchOptions, Tile,
    links::SETTLE_SLACK,
};

fn assert_every_tape_replays(map: &NavMap) {
    let (level, p) = (map.level(), map.physics());
    assert!(map.link_count() > 0);
    for link in map.links() {
        assert_eq!(map.inputs(link.id).len(), link.ticks as usize);
        assert_eq!(map.inputs(link.id).count(), link.ticks as usize);
        assert!(link.ticks >= SETTLE_SLACK);
        assert!(link.action_ticks <= link.ticks - SETTLE_SLACK);
        assert_eq!(map.link(link.id), link);
        assert_eq!(
            (map.cell(link.source), map.cell(link.target)),
            (link.from, link.to)
        );
        let mut body = Body::start(level, link.from, p);
        for i in map.inputs(link.id) {
            body.step(level, p, i);
            assert!(!body.dead, "{link:?} dies");
        }
        assert!(
            body.stands_on(link.to),
            "{:?} {} -> {} ends at {body:?}",
            link.kind,
            link.from,
            link.to
        );
        assert_eq!(body.vx, 0.0, "{link:?}");
        let sweep = search::sweep(map, link.id);
        assert!(sweep.contains(&link.from) && sweep.contains(&link.to));
        let trajectory = search::trajectory(map, link.id);
        assert_eq!(trajectory.len(), link.ticks as usize + 1);
        assert_eq!(trajectory.last(), Some(&body));
    }
}

#[test]
fn every_link_tape_replays_from_its_start_to_its_end() {
    assert_every_tape_replays(&common::build(&common::demo(), &Physics::agile()));
    for level in common::random_levels(4) {
        for p in [Physics::default(), Physics::agile(), Physics::smb()] {
            assert_every_tape_replays(&common::build(&level, &p));
        }
    }
}

#[test]
fn the_demo_level_uses_every_link_kind_but_climb() {
    let map = common::build(&common::demo(), &Physics::agile());
    for (kind, count) in map.link_counts() {
        if kind == LinkKind::CLIMB || kind == LinkKind::SPRING_JUMP {
            // The demo has no ladders or springs; generated levels with
            // them have these links (`tests/naive_reference.rs`).
            assert_eq!(count, 0, "{kind} links without their tiles");
        } else {
            assert!(count > 0, "no {kind} links");
        }
    }
}

#[test]
fn links_end_on_standable_cells_and_are_not_dominated() {
    let map = common::build(&common::demo(), &Physics::agile());
    let mut seen = HashSet::new();
    for link in map.links() {
        assert!(map.node(link.from).is_some() && map.node(link.to).is_some());
        assert_ne!(link.from, link.to);
        assert!(
            seen.insert((link.from, link.to, link.kind)),
            "duplicate {link:?}"
        );
    }
}

#[test]
fn jump_clears_three_tile_gap() {
    let level: Level = "..........\n..........\n..........\n..........\n###...####\n"
        .parse()
        .unwrap();
    let map = common::build(&level, &Physics::default());
    let jumps: Vec<_> = map
        .links()
        .filter(|l| l.kind == LinkKind::JUMP && l.from.col <= 2 && l.to.col >= 6)
        .collect();
    assert!(!jumps.is_empty(), "no jump over the gap");
    assert!(jumps.iter().all(|l| l.from.row == 3 && l.to.row == 3));
    // Walking off the edge falls into the pit: no fall link reaches the far side.
    assert!(
        !map.links()
            .any(|l| l.kind == LinkKind::FALL && l.to.col >= 6 && l.from.col <= 2)
    );
}

/// The widest gap a profile's map crosses between two long platforms.
fn widest_gap(p: &Physics) -> usize {
    (1..16)
        .take_while(|&gap| {
            let row =
                |pit: &str| format!("{}{}{}\n", "#".repeat(12), pit.repeat(gap), "#".repeat(12));
            let air = format!("{}\n", ".".repeat(24 + gap)).repeat(6);
            let level: Level = format!("{air}{}{}", row("."), row("^")).parse().unwrap();
            let map = common::build(&level, p);
            let goal = Cell::new(23 + gap as i32, 5);
            find_path(&map, Cell::new(1, 5), goal, &SearchOptions::default()).is_ok()
        })
        .last()
        .unwrap_or(0)
}

/// Coyote time lets a jump start a few ticks after running off the edge,
/// so the map crosses a wider gap than without it, with a jump pressed in
/// the air that replays; jump buffering adds bounces, pressed before a
/// landing and jumping on it.
#[test]
fn coyote_jumps_cross_wider_gaps_and_bounces_press_before_landing() {
    let plain = Physics::default();
    let coyote = Physics {
        coyote_ticks: 10,
        ..plain.clone()
    };
    let (narrow, wide) = (widest_gap(&plain), widest_gap(&coyote));
    assert!(narrow >= 3, "the default profile crosses {narrow}");
    assert!(
        wide > narrow,
        "coyote time crosses {wide}, without {narrow}"
    );
    println!("widest gap: {narrow} without coyote time, {wide} with 10 ticks");

    let level = common::demo();
    let forgiving = Physics {
        coyote_ticks: 6,
        jump_buffer_ticks: 5,
        ..plain
    };
    let map = common::build(&level, &forgiving);
    assert_every_tape_replays(&map);
    let (mut late, mut buffered) = (0, 0);
    for link in map.links() {
        let mut body = Body::standing(link.from, &forgiving);
        let (mut was_late, mut was_buffered) = (false, false);
        for i in map.inputs(link.id) {
            if body.jump_starts(&level, &forgiving, i) && !body.grounded {
                was_late |= body.coyote_left > 0 && !body.climbing;
            }
            if body.jump_starts(&level, &forgiving, i) && body.grounded && body.jump_held_last_tick
            {
                was_buffered |= body.buffer_left > 0;
            }
            body.step(&level, &forgiving, i);
        }
        late += usize::from(was_late);
        buffered += usize::from(was_buffered);
    }
    assert!(
        late > 0 && buffered > 0,
        "{late} coyote jumps, {buffered} bounces"
    );
    println!("demo: {late} coyote jumps, {buffered} bounces");
}

/// A hill of slopes between two floors: the slope cells are steep nodes,
/// runs go up one side and down the other a row per column, and a path
/// that may only run crosses it, replaying onto the goal.
#[test]
fn runs_go_up_and_down_slopes() {
    let level: Level = "\
........................
........................
........................
........................
........................
......../####\\..........
......./######\\.........
....../########\\........
########################
"
    .parse()
    .unwrap();
    for physics in [Physics::default(), Physics::agile(), Physics::smb()] {
        // On a slope cell the body starts with its feet on the surface at
        // the column's middle, stands on that cell, and stays put.
        let on = Cell::new(7, 6);
        let mut body = Body::start(&level, on, &physics);
        assert_eq!((body.x, body.y), (7.5, 6.5));
        for _ in 0..60 {
            body.step(&level, &physics, platnav::Input::IDLE);
        }
        assert!(body.stands_on(on) && body.standing_cell() == Some(on));
        assert_eq!((body.x, body.y), (7.5, 6.5));
        let map = common::build(&level, &physics);
        assert_every_tape_replays(&map);
        let classes = map.classification();
        assert_eq!(classes.get(Cell::new(7, 6)), platnav::NodeType::STEEP_RIGHT);
        assert_eq!(classes.get(Cell::new(14, 6)), platnav::NodeType::STEEP_LEFT);
        assert!(
            map.links()
                .any(|l| l.kind == LinkKind::RUN && l.from == Cell::new(6, 7) && l.to.row < 7)
        );
        let runs_only = SearchOptions::default().with_forbid(vec![
            LinkKind::FALL,
            LinkKind::JUMP,
            LinkKind::DOUBLE_JUMP,
            LinkKind::WALL_JUMP,
        ]);
        let (start, goal) = (Cell::new(1, 7), Cell::new(22, 7));
        let path = find_path(&map, start, goal, &runs_only).unwrap();
        assert!(path.replay(&level, &physics).stands_on(goal));
        // Over the top: the feet reach the plateau (y = 5) on the way.
        let mut body = Body::start(&level, start, &physics);
        let mut top = body.y;
        for &i in path.inputs() {
            body.step(&level, &physics, i);
            top = top.min(body.y);
        }
        assert_eq!(top, 5.0, "the path does not cross the hill");
    }
}

/// `levels/mechanics.txt`: a hill of slopes, then a wall taller than any
/// jump with a ladder up its side. The path from the spawn to the goal
/// runs over the hill and climbs the ladder, and replays onto the goal
/// (for profiles without an air jump: the agile one double-jumps the wall).
#[test]
fn the_mechanics_fixture_is_crossed_over_the_hill_and_up_the_ladder() {
    let level: Level = include_str!("../levels/mechanics.txt").parse().unwrap();
    for physics in [Physics::default(), Physics::smb()] {
        let map = common::build(&level, &physics);
        assert_every_tape_replays(&map);
        let (start, goal) = (Cell::new(2, 11), Cell::new(31, 4));
        let path = find_path(&map, start, goal, &SearchOptions::default()).unwrap();
        assert!(path.replay(&level, &physics).stands_on(goal));
        let kinds: Vec<LinkKind> = path.steps().iter().map(|s| map.link(s.link).kind).collect();
        assert!(kinds.contains(&LinkKind::CLIMB), "{kinds:?}");
        // Without climbing there is no way up the wall.
        let no_climb = SearchOptions::default().with_forbid(vec![LinkKind::CLIMB]);
        assert!(find_path(&map, start, goal, &no_climb).is_err());
    }
}

#[test]
fn no_link_climbs_a_wall_taller_than_the_jump() {
    // Default physics jumps 3.5 tiles: a 3-tile step is climbable, a 5-tile one is not.
    let level: Level = "..........\n..........\n.......###\n.......###\n....######\n....######\n....######\n##########\n"
        .parse()
        .unwrap();
    let map = common::build(&level, &Physics::default());
    let up3 = map.links().any(|l| l.from.row == 6 && l.to.row == 3);
    let up5 = map.links().any(|l| l.from.row == 6 && l.to.row == 1);
    assert!(up3, "the 3-tile step should be jumpable");
    assert!(!up5, "the 5-tile wall is too high");
}

#[test]
fn double_and_wall_jumps_exist_only_when_the_physics_allows_them() {
    let level = common::demo();
    let plain = common::build(&level, &Physics::default());
    for l in plain.links() {
        assert!(
            !matches!(l.kind, LinkKind::DOUBLE_JUMP | LinkKind::WALL_JUMP),
            "{l:?}"
        );
    }
    let agile = common::build(&level, &Physics::agile());
    let counts = agile.link_counts();
    assert!(
        counts
            .iter()
            .any(|&(k, n)| k == LinkKind::DOUBLE_JUMP && n > 0)
    );
    assert!(
        counts
            .iter()
            .any(|&(k, n)| k == LinkKind::WALL_JUMP && n > 0)
    );
    // The extra abilities reach cells the plain body cannot.
    let reach = |m: &NavMap| {
        let start = m.node(Cell::new(2, 3)).unwrap();
        search::dijkstra(m, start)
            .iter()
            .filter(|d| d.is_some())
            .count()
    };
    assert!(reach(&agile) > reach(&plain));
}

#[test]
fn drop_links_start_on_one_way_platforms() {
    let map = common::build(&common::demo(), &Physics::agile());
    let level = map.level();
    let drops: Vec<_> = map.links().filter(|l| l.kind == LinkKind::DROP).collect();
    assert!(!drops.is_empty());
    for l in drops {
        assert_eq!(
            level.get(Cell::new(l.from.col, l.from.row + 1)),
            Some(Tile::ONE_WAY)
        );
        assert!(l.to.row > l.from.row);
        assert!(map.inputs(l.id).next().is_some_and(|i| i.down));
    }
}

#[test]
fn coarse_jumps_find_no_link_the_full_set_does_not_match_or_beat() {
    let mut cases: Vec<(Level, Physics)> = vec![(common::demo(), Physics::agile())];
    for level in common::random_levels(3) {
        cases.push((level.clone(), Physics::default()));
        cases.push((level, Physics::smb()));
    }
    let (mut fewer, mut slower_routes) = (0, 0);
    for (level, p) in cases {
        let full = common::build(&level, &p);
        let coarse = NavMap::build_with(&level, &p, &LinkOptions::coarse()).unwrap();
        assert_every_tape_replays(&coarse);
        assert_eq!(full.node_count(), coarse.node_count());
        let best: std::collections::HashMap<_, _> = full
            .links()
            .map(|l| ((l.from, l.to, l.kind), (l.ticks, l.jumps)))
            .collect();
        for l in coarse.links() {
            let f = best.get(&(l.from, l.to, l.kind));
            assert!(
                f.is_some_and(|&f| f <= (l.ticks, l.jumps)),
                "{:?} {} -> {} in {} ticks: full set has {f:?}",
                l.kind,
                l.from,
                l.to,
                l.ticks
            );
            if !matches!(l.kind, LinkKind::JUMP | LinkKind::DOUBLE_JUMP) {
                assert_eq!(f, Some(&(l.ticks, l.jumps)), "{l:?}");
            }
        }
        fewer += usize::from(coarse.link_count() < full.link_count());
        // No route is faster with fewer programs; the exact search finds
        // the fastest in each map.
        let cells = full.nodes();
        for (i, &a) in cells.iter().enumerate().step_by(7) {
            let b = cells[(i * 13 + 5) % cells.len()];
            let opts = SearchOptions::default();
            match (
                find_path(&full, a, b, &opts),
                find_path(&coarse, a, b, &opts),
            ) {
                (Ok(f), Ok(c)) => {
                    assert!(f.ticks() <= c.ticks(), "{a} -> {b}");
                    slower_routes += usize::from(f.ticks() < c.ticks());
                }
                (Err(_), Ok(c)) => panic!("{a} -> {b}: only the coarse map routes it ({c:?})"),
                _ => {}
            }
        }
    }
    assert!(fewer > 0, "the coarse set never found fewer links");
    assert!(
        slower_routes > 0,
        "no route got slower: the sets may not differ"
    );
}

#[test]
fn the_work_bound_counts_the_documented_programs_and_limits() {
    use platnav::LinkOptions;
    // src/links/*.rs: jumps 42 families of 5 switches x 2 targets + 1
    // (462), edge take-offs 2 directions x (2 run-ups x (5 x 2 + 1) + the
    // walk to the ledge) (46, counted for every cell: they run only near a
    // ledge), double jumps 30
    // families of 3 x 2 + 1 (210), falls 2 x (7 x 2 + 1), drops 3 x (5 x 2
    // + 1), wall jumps 2 x 2 x 2 x 2 x 3 x 2, climbs 2 + 64 x 2 x 2 + 4 + 8
    // (counted for every level: they run only beside ladders; jump-offs at
    // up to 64 rungs going up and going down; catches up or off), spring jumps 3 x (5 x 2 + 1)
    // (counted for every level: they run only on levels with springs), hop
    // runs 2 directions x (at each of 8 ledges, one per hop or leap, the
    // full jump steering 5 x 2 + 1 from each of 2
    // run-ups and, on the last, the jump held each shorter one of the 24
    // apex ticks (32 holds at most) when the full jump, flown once more,
    // touches a ceiling, and with air jumps 2 x 6 double jumps
    // of 3 x 2 + 1, + the programs' worth of steps their walks and hops may
    // take: 9 walks and 72 re-walks of 120 ticks and 72 x 6 hops of 48
    // ticks, 19 programs of 1,682 steps) (counted for every cell: they run
    // only near steps).
    let all = LinkOptions::default();
    let hops =
        |holds: usize, doubles: usize| 2 * (8 * (holds + 10 + 11 + 1 + 2 * doubles * 7) + 19);
    assert_eq!(
        all.programs_per_cell(&Physics::default()),
        462 + 46 + 30 + 33 + 270 + 33 + hops(24, 0)
    );
    assert_eq!(
        all.programs_per_cell(&Physics::agile()),
        462 + 46 + 210 + 30 + 33 + 96 + 270 + 33 + hops(24, 6)
    );
    // Per program: 480 action ticks, 600 of braking, 600 of settle, 2 of
    // slack at 60 Hz; 8,000 + 2 x 10,000 + 2 at 1,000 Hz.
    assert_eq!(
        all.max_steps_per_cell(&Physics::agile()),
        (1180 + hops(24, 6)) as u64 * (480 + 1200 + 2)
    );
    let fast = Physics {
        dt: 0.001,
        ..Physics::agile()
    };
    // At 1 kHz the hop runs' final jumps try 32 holds spread over the
    // apex, and their walks and hops cost as many programs' worth.
    assert_eq!(
        all.max_steps_per_cell(&fast),
        (1180 + hops(32, 6)) as u64 * (8000 + 20000 + 2)
    );
    // Coyote jumps: 2 directions x 2 air ticks x 2 holds x 2 steerings;
    // bounces: 2 directions x 2 holds (src/links/fall.rs). The most a
    // profile can have: 1,200 and the hop runs.
    let forgiving = Physics {
        coyote_ticks: 6,
        jump_buffer_ticks: 4,
        ..Physics::agile()
    };
    assert_eq!(
        all.programs_per_cell(&forgiving),
        1180 + 16 + 4 + hops(24, 6)
    );
    let one_tick = Physics {
        coyote_ticks: 1,
        ..Physics::default()
    };
    assert_eq!(
        all.programs_per_cell(&one_tick),
        462 + 46 + 30 + 33 + 270 + 33 + 2 * 2 * 2 + hops(24, 0)
    );
    let runs_only = LinkOptions::default()
        .with_family(LinkKind::FALL, false)
        .with_family(LinkKind::JUMP, false)
        .with_family(LinkKind::WALL_JUMP, false)
        .with_family(LinkKind::DROP, false)
        .with_family(LinkKind::CLIMB, false)
        .with_family(LinkKind::SPRING_JUMP, false);
    assert_eq!(runs_only.max_steps_per_cell(&Physics::agile()), 0);
}
