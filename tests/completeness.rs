//! Routes the body can perform that the map must hold: the reproducers of
//! `levels/repro/` (see its README).

mod common;

use platnav::{Body, Cell, Input, Level, LinkKind, NavMap, Physics, SearchOptions, find_path};

/// A path from `from` to `to` on `level`, whose tape replayed on a fresh
/// body ends standing on `to`.
fn replayed_path(level: &Level, physics: &Physics, from: Cell, to: Cell) -> platnav::Path {
    let map = NavMap::build(level, physics).unwrap();
    let path = find_path(&map, from, to, &SearchOptions::default())
        .unwrap_or_else(|e| panic!("{from} -> {to}: {e}"));
    let end = path.replay(level, physics);
    assert!(end.stands_on(to), "{from} -> {to} ends at {end:?}");
    path
}

/// A 31-row ladder takes about 11 s to climb, longer than a link's 8 s
/// action limit: the climb is one link all the same, and its ticks are the
/// climb's.
#[test]
fn a_ladder_longer_than_the_action_limit_is_climbed() {
    let (level, physics) = common::megaman_repro("ladder31.txt");
    let path = replayed_path(&level, &physics, Cell::new(3, 32), Cell::new(8, 1));
    let climb_ticks = 31.0 / (physics.climb_speed * physics.dt);
    assert!(
        path.inputs().len() as f64 > climb_ticks,
        "{} ticks for a {climb_ticks}-tick climb",
        path.inputs().len()
    );
    assert!(path.inputs().iter().any(|i| i.up), "the path climbs");
}

/// From 6,5 to 10,3 of `edge.txt` the jump must leave in the last ticks
/// before the ledge, under a low ceiling: the edge take-offs find it, as a
/// single jump, and its tape replays.
#[test]
fn a_jump_that_must_leave_at_the_ledge_is_found() {
    let (level, physics) = common::megaman_repro("edge.txt");
    let (from, to) = (Cell::new(6, 5), Cell::new(10, 3));
    let map = NavMap::build(&level, &physics).unwrap();
    let node = map.node(from).expect("the start is a standing cell");
    let direct = map
        .links_from(node)
        .find(|l| l.to == to && l.kind == LinkKind::JUMP);
    assert!(direct.is_some(), "no jump link {from} -> {to}");
    replayed_path(&level, &physics, from, to);
}

/// A pit of spikes five tiles wide with `sq2`'s slow acceleration: only a
/// jump from the last few ticks before the spikes clears them. Walking on
/// kills the body on the tick it leaves the ground, which is the ledge the
/// edge take-offs look for: they find the jump, and its tape replays.
#[test]
fn a_jump_over_spikes_that_must_leave_at_their_edge_is_found() {
    let rows = [
        "..............................",
        "..............................",
        "..............................",
        "..............................",
        "..............................",
        "..............................",
        "##########^^^^^###############",
        "##############################",
    ];
    let level: Level = rows.join("\n").parse().unwrap();
    let physics = Physics::sq2();
    let (from, to) = (Cell::new(8, 5), Cell::new(16, 5));
    let map = NavMap::build(&level, &physics).unwrap();
    let node = map.node(from).expect("the start is a standing cell");
    let across = map.links_from(node).any(|l| l.to.col > 14);
    assert!(across, "no link from {from} across the spikes");
    replayed_path(&level, &physics, from, to);
}

/// No link from rest on row 4 at the columns `tops` (all standing) lands
/// at column `far` or beyond.
fn no_jump_from_rest_crosses(
    level: &Level,
    physics: &Physics,
    tops: std::ops::RangeInclusive<i32>,
    far: i32,
) {
    let map = NavMap::build(level, physics).unwrap();
    for col in tops {
        let top = map.node(Cell::new(col, 4)).expect("the top is standing");
        assert!(
            map.links_from(top).all(|l| l.to.col < far),
            "a jump from rest on {col},4 crosses the gap"
        );
    }
}

/// `stairs.txt`, `smb` preset: a staircase of eight steps, its top three
/// columns wide, then a gap of eight columns, under the level's top. From
/// rest on the top no jump crosses it; running up the stairs and hopping
/// from step to step without stopping carries the speed that does, with
/// the jump held to just below the top, as in Super Mario Bros.: The Lost
/// Levels 5-1. The hop runs find it, and its tape replays.
#[test]
fn a_jump_that_needs_the_speed_of_a_run_up_the_stairs_is_found() {
    let level: Level = include_str!("../levels/repro/stairs.txt").parse().unwrap();
    let physics = Physics::smb();
    no_jump_from_rest_crosses(&level, &physics, 13..=15, 24);
    let path = replayed_path(&level, &physics, Cell::new(2, 12), Cell::new(25, 4));
    let last = path.steps().last().unwrap();
    assert!(
        last.from.row > 4,
        "the crossing starts on the top: {last:?}"
    );
}

/// `pillars.txt`, `smb` preset: the staircase of `stairs.txt`, then two
/// pillars with gaps of eight columns, under the level's top (Super Mario
/// Bros.: The Lost Levels 5-1). From rest on the first pillar, three
/// columns wide, no jump crosses the next gap; landing on it at the speed
/// of the run up the stairs and leaping on at once does. The hop runs'
/// leaps find it, and its tape replays.
#[test]
fn a_run_that_leaps_on_from_a_pillar_it_lands_on_is_found() {
    let level: Level = include_str!("../levels/repro/pillars.txt").parse().unwrap();
    let physics = Physics::smb();
    no_jump_from_rest_crosses(&level, &physics, 24..=26, 35);
    let path = replayed_path(&level, &physics, Cell::new(2, 12), Cell::new(36, 4));
    assert!(
        path.steps().iter().all(|s| !(24..=26).contains(&s.to.col)),
        "the route stops on the first pillar: {:?}",
        path.steps()
    );
}

/// `frame.txt`: 15 ticks left then 8 idle from 16,2. The pinned arithmetic
/// of `PHYSICS.md` (the run's steps 3 and 5 on flat ground, positions on
/// the `2^-36` grid), written out here, ends a hair left of x = 15: cell
/// 14. The body agrees to the last bit in level coordinates and in the
/// start cell's frame, with and without a slope tile far away.
#[test]
fn the_end_cell_does_not_depend_on_the_frame_or_far_tiles() {
    use platnav::physics::Frame;
    use platnav::{Body, Input};
    let text = include_str!("../levels/repro/frame.txt");
    let p = Physics::default();
    let tape: Vec<Input> = [Input::new(-1, false, false); 15]
        .into_iter()
        .chain([Input::IDLE; 8])
        .collect();
    // PHYSICS.md by hand: grounded throughout, nothing to stop the body.
    let grid = |d: f64| (d * 2f64.powi(36)).round_ties_even() / 2f64.powi(36);
    let (mut x, mut vx) = (16.5f64, 0.0f64);
    for i in &tape {
        let target = f64::from(i.move_x) * p.run_speed;
        let a = p.ground_accel * p.dt;
        vx += (target - vx).clamp(-a, a);
        x += grid(vx * p.dt);
    }
    assert!(x < 15.0 && x > 14.99, "the hand arithmetic ends at {x}");
    let with_slope = text.replacen('.', "/", 1);
    for (name, text) in [("flat", text), ("with a slope", with_slope.as_str())] {
        let level: Level = text.parse().unwrap();
        let start = Cell::new(16, 2);
        let end = platnav::search::replay(&level, &p, start, &tape);
        assert_eq!(end.x.to_bits(), x.to_bits(), "{name}: level coordinates");
        assert_eq!(end.standing_cell(), Some(Cell::new(14, 2)), "{name}");
        let frame = Frame::new(&level, start);
        let mut body = Body::start(&frame, Cell::new(0, 0), &p);
        for &i in &tape {
            body.step(&frame, &p, i);
        }
        assert_eq!((body.x + 16.0).to_bits(), x.to_bits(), "{name}: the frame");
        assert_eq!(body.standing_cell(), Some(Cell::new(-2, 0)), "{name}");
    }
}

/// `shaft.txt`: the pocket opens off a ladder 14 rows above the floor, and
/// only a jump off the ladder at the right rung gets in.
#[test]
fn a_body_jumps_off_a_ladder_at_any_rung() {
    let level: Level = include_str!("../levels/repro/shaft.txt").parse().unwrap();
    let path = replayed_path(
        &level,
        &Physics::default(),
        Cell::new(1, 24),
        Cell::new(7, 10),
    );
    let climb = path
        .steps()
        .iter()
        .find(|s| s.kind == LinkKind::CLIMB)
        .expect("the path climbs");
    assert_eq!(climb.to.row, 10, "the climb ends in the pocket");
}

/// From a ladder's top, climbing down and jumping off sideways partway is
/// a link of its own (`levels/mechanics.txt`: a ladder up a wall).
#[test]
fn a_body_climbing_down_jumps_off_partway() {
    let level: Level = include_str!("../levels/mechanics.txt").parse().unwrap();
    let physics = Physics::default();
    let map = NavMap::build(&level, &physics).unwrap();
    let top = Cell::new(21, 4);
    let node = map.node(top).expect("the ladder's top is a standing cell");
    let down_then_jump = map
        .links_from(node)
        .filter(|l| l.kind == LinkKind::CLIMB)
        .any(|l| {
            let tape: Vec<platnav::Input> = map.inputs(l.id).collect();
            let first_jump = tape.iter().position(|i| i.jump);
            first_jump.is_some_and(|j| j > 1 && tape[..j].iter().all(|i| i.down))
        });
    assert!(
        down_then_jump,
        "no climb from {top} goes down and then jumps"
    );
}

/// A platform three columns wide, then three steps down, each one row and
/// one column, then a gap of `gap` columns and a floor, under `head` rows
/// of air above the platform (the level's top is its ceiling); with the
/// platform's left end and the floor's first column.
fn down_stairs(gap: usize, head: usize) -> (Level, Cell, Cell) {
    let (top, steps) = (3, 3);
    let h = head + steps + 2;
    let floor = h - 1;
    let surface = |c: usize| match c {
        c if c < top => Some(floor - steps),
        c if c < top + steps => Some(floor - (top + steps - 1 - c)),
        c if c < top + steps + gap => None,
        _ => Some(floor),
    };
    let rows: Vec<String> = (0..h)
        .map(|r| {
            (0..top + steps + gap + 6)
                .map(|c| {
                    if surface(c).is_some_and(|s| r >= s) {
                        '#'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let start = Cell::new(0, (floor - steps - 1) as i32);
    let far = Cell::new((top + steps + gap) as i32, (floor - 1) as i32);
    (rows.join("\n").parse().unwrap(), start, far)
}

/// Whether some run down from `start`, holding right with one press of
/// the jump (pressed on tick `t` below 200, held `h` below 60 ticks),
/// lands on `far`'s row at or beyond it.
fn one_press_crosses(level: &Level, physics: &Physics, start: Cell, far: Cell) -> bool {
    use platnav::{Body, Input};
    (0..200).any(|t| {
        (1..60).any(|h| {
            let mut b = Body::start(level, start, physics);
            for k in 0..t + h + 300 {
                b.step(
                    level,
                    physics,
                    Input::new(1, (t..t + h).contains(&k), false),
                );
                let lands = k > t && b.grounded;
                if b.dead || lands && k > t + h {
                    return false;
                }
                if lands
                    && b.standing_cell()
                        .is_some_and(|c| c.row == far.row && c.col >= far.col)
                {
                    return true;
                }
            }
            false
        })
    })
}

/// Running down a staircase straight into a jump keeps the run's speed
/// through the steps' landings, which no link does outside the hop runs.
/// On three steps down under 2 to 4 rows of air, with `default`, `smb`
/// and `agile`, every gap one press in such a run crosses, the map
/// crosses too (a jump from the top reaches as far); the widest such gap
/// is at least 3 columns, and no narrower with more air.
#[test]
fn a_run_down_stairs_into_a_jump_crosses_no_gap_the_map_misses() {
    for (name, physics) in common_presets() {
        let mut widest = Vec::new();
        for head in 2..=4 {
            let mut crossed = 0;
            for gap in 3..=12 {
                let (level, start, far) = down_stairs(gap, head);
                if !one_press_crosses(&level, &physics, start, far) {
                    break;
                }
                crossed = gap;
                let map = NavMap::build(&level, &physics).unwrap();
                assert!(
                    find_path(&map, start, far, &SearchOptions::default()).is_ok(),
                    "{name}, {head} rows of air, gap {gap}: no path\n{level}"
                );
            }
            widest.push(crossed);
        }
        // The comparison is not empty: wide gaps are crossed.
        assert!(
            widest.iter().all(|&w| w >= 3) && widest.is_sorted(),
            "{name}: the widest gaps crossed, by rows of air: {widest:?}"
        );
    }
}

/// Why the links come from programs and not from trying every input on
/// every tick: from rest on a flat floor, the body's states multiply too
/// fast for any build. With the three common presets, 12 ticks after
/// standing still (a held jump lands after 48 to 58), more than 100,000
/// bit-distinct positions and velocities are reachable, and their number
/// still grows by half or more each tick.
#[test]
fn every_input_on_every_tick_meets_too_many_states_for_a_build() {
    let level = flat_floor(64);
    let inputs: Vec<Input> = (-1..=1)
        .flat_map(|m| [false, true].map(|j| Input::new(m, j, false)))
        .collect();
    for (name, physics) in common_presets() {
        let mut layer = vec![Body::start(&level, Cell::new(32, 18), &physics)];
        let mut sizes = Vec::new();
        for _ in 0..12 {
            // States met this tick, one per bit pattern of what the body
            // holds (a field left out would merge states and only lower
            // the counts); `motion` counts positions and velocities alone.
            let mut seen = std::collections::HashSet::new();
            let mut motion = std::collections::HashSet::new();
            let mut next = Vec::new();
            for body in &layer {
                for &input in &inputs {
                    let mut b = *body;
                    b.step(&level, &physics, input);
                    motion.insert([b.x, b.y, b.vx, b.vy].map(f64::to_bits));
                    if seen.insert(state_bits(&b)) {
                        next.push(b);
                    }
                }
            }
            sizes.push(motion.len());
            layer = next;
        }
        let [.., before, last] = sizes[..] else {
            unreachable!()
        };
        assert!(
            last > 100_000 && last * 2 > before * 3,
            "{name}: positions and velocities by tick {sizes:?}"
        );
    }
}

/// The bits of a body's state, for [`every_input_on_every_tick_meets_too_many_states_for_a_build`].
fn state_bits(b: &Body) -> [u64; 6] {
    let flags = [
        b.grounded,
        b.jump_held_last_tick,
        b.dead,
        b.climbing,
        b.launched,
    ];
    let counters = [b.air_jumps_left, b.coyote_left, b.buffer_left, b.boost_tick];
    [
        b.x.to_bits(),
        b.y.to_bits(),
        b.vx.to_bits(),
        b.vy.to_bits(),
        flags.iter().fold(0, |k, &f| k << 1 | u64::from(f)),
        counters
            .iter()
            .fold(0, |k, &c| k << 16 | u64::from(c.min(0xffff))),
    ]
}

/// A floor `width` columns wide under 19 rows of air.
fn flat_floor(width: usize) -> Level {
    let mut tiles = vec![platnav::Tile::EMPTY; width * 20];
    tiles[19 * width..].fill(platnav::Tile::SOLID);
    Level::new(width, 20, tiles).unwrap()
}

/// Where a jump branch is: running up (`run`), holding the jump (`held`),
/// steering switched once (`switched`), airborne at least once (`flew`),
/// and its steering (`m`).
#[derive(Clone, Copy, Hash, PartialEq, Eq)]
struct Branch {
    run: bool,
    held: bool,
    switched: bool,
    flew: bool,
    m: i8,
}

/// The inputs a branch may take next, each with the branch it leads to:
/// while running up (`run_on`), run on or press the jump; in the air, hold
/// on or release, and switch the steering once, to idle or reverse (for a
/// jump straight up, to either side).
fn next_inputs(b: Branch, dir: i8, run_on: bool) -> Vec<(Input, Branch)> {
    if b.run {
        let press = (
            Input::new(dir, true, false),
            Branch {
                run: false,
                held: true,
                ..b
            },
        );
        return if run_on {
            vec![(Input::new(dir, false, false), b), press]
        } else {
            vec![press]
        };
    }
    let turns: &[i8] = match (b.switched, dir) {
        (true, _) => &[],
        (false, 0) => &[-1, 1],
        (false, _) => &[0, -dir],
    };
    let mut out = vec![(Input::new(b.m, b.held, false), b)];
    if b.held {
        out.push((Input::new(b.m, false, false), Branch { held: false, ..b }));
    }
    for &t in turns {
        let turned = Branch {
            switched: true,
            m: t,
            ..b
        };
        out.push((Input::new(t, b.held, false), turned));
    }
    out
}

/// The jumps of a coverage by construction, counted: from rest on a flat
/// floor, a take-off on every tick of the run-up to full speed, a release
/// on every tick of the hold, and one steering switch on any flight tick,
/// with branches that reach the same state (bit for bit, on the same tick,
/// in the same phase) shared. Even this, with single jumps only, lands
/// more than five times as many distinct branches as the whole menu has
/// programs (every family, double and wall jumps included), with
/// `default`, `smb` and `agile`: the budget of a build cannot hold it.
#[test]
fn every_take_off_release_and_switch_tick_lands_five_times_the_menu() {
    let level = flat_floor(400);
    for (name, physics) in common_presets() {
        let full = (physics.run_speed / (physics.ground_accel * physics.dt)).ceil() as usize;
        let mut landings = 0;
        for dir in [-1, 0, 1] {
            let start = Body::start(&level, Cell::new(200, 18), &physics);
            let first = Branch {
                run: true,
                held: false,
                switched: false,
                flew: false,
                m: dir,
            };
            let mut layer = vec![(start, first)];
            for tick in 1..=600 {
                let mut seen = std::collections::HashSet::new();
                let mut next = Vec::new();
                for &(body, branch) in &layer {
                    for (input, mut to) in next_inputs(branch, dir, dir != 0 && tick <= full) {
                        let mut b = body;
                        b.step(&level, &physics, input);
                        to.flew |= !to.run && !b.grounded;
                        if to.flew && b.grounded {
                            landings += 1;
                        } else if seen.insert((state_bits(&b), to)) {
                            next.push((b, to));
                        }
                    }
                }
                layer = next;
                if layer.is_empty() {
                    break;
                }
            }
            assert!(layer.is_empty(), "{name}: a branch never landed");
        }
        let menu = platnav::LinkOptions::default().programs_per_cell(&physics);
        assert!(
            landings > 5 * menu,
            "{name}: {landings} landings against {menu} programs"
        );
    }
}

/// The presets these checks run with, by name.
fn common_presets() -> [(&'static str, Physics); 3] {
    [
        ("default", Physics::default()),
        ("smb", Physics::smb()),
        ("agile", Physics::agile()),
    ]
}
