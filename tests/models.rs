//! Body models: the reference body through the model interface, Super
//! Mario Bros.'s NES Mario, the dash body, and what takes any model
//! (conformance, fitting a profile to a model's recorded motion).

mod common;

use platnav::analysis::{Sample, conformance, conformance_on, fit};
use platnav::level::SplitMix64;
use platnav::model::dash::DashBody;
use platnav::model::nes::{NesMario, NesState};
use platnav::model::{BodyModel, Bounds};
use platnav::{Body, Cell, Input, Level, NavMap, Physics};

const RIGHT: Input = Input {
    move_x: 1,
    jump: false,
    down: false,
    up: false,
};

/// A random tape of `n` ticks over `inputs`, each held 1 to 12 ticks.
fn random_tape(rng: &mut SplitMix64, inputs: &[Input], n: usize) -> Vec<Input> {
    let mut tape = Vec::with_capacity(n);
    while tape.len() < n {
        let input = inputs[rng.below(inputs.len() as u64) as usize];
        let hold = 1 + rng.below(12) as usize;
        tape.extend(std::iter::repeat_n(input, hold));
    }
    tape.truncate(n);
    tape
}

/// Random tapes from random standing cells of generated levels: the
/// model's horizontal velocity stays within its bound, its feet stay
/// finite, and a body at rest stands on a cell. Returns the ticks run.
fn check_bounds<M: BodyModel>(model: &M, seed: u64) -> usize {
    let Bounds { top_speed, .. } = model.bounds();
    let top = top_speed.expect("the model gives a top speed");
    let mut rng = SplitMix64::new(seed);
    let mut ticks = 0;
    for level in common::random_levels(4) {
        let classes = platnav::Classification::new(&level, &Physics::default());
        let cells: Vec<Cell> = classes.standable_cells().collect();
        for _ in 0..12 {
            let cell = cells[rng.below(cells.len() as u64) as usize];
            let mut s = model.start(&level, cell);
            assert_eq!(model.standing_cell(&s), Some(cell), "{}", model.name());
            assert!(model.at_rest(&s));
            for input in random_tape(&mut rng, &model.inputs(), 400) {
                model.step(&level, &mut s, input);
                ticks += 1;
                let v = model.velocity(&s)[0];
                assert!(v.abs() <= top, "{}: {v} tiles/s over {top}", model.name());
                assert!(model.feet(&s).iter().all(|f| f.is_finite()));
                if model.at_rest(&s) {
                    assert!(model.standing_cell(&s).is_some());
                }
            }
        }
    }
    ticks
}

#[test]
fn every_model_keeps_to_its_top_speed() {
    for p in [
        Physics::default(),
        Physics::agile(),
        Physics::smb(),
        Physics::sq2(),
    ] {
        assert!(check_bounds(&p, 1) > 10_000);
    }
    assert!(check_bounds(&NesMario::small(), 2) > 10_000);
    assert!(check_bounds(&NesMario::big().walking(), 3) > 10_000);
    assert!(check_bounds(&DashBody, 4) > 10_000);
}

#[test]
fn the_reference_model_is_the_body() {
    let mut rng = SplitMix64::new(9);
    for p in [Physics::default(), Physics::agile()] {
        for level in common::random_levels(3) {
            let cell = platnav::Classification::new(&level, &p)
                .standable_cells()
                .next()
                .unwrap();
            let (mut s, mut body) = (p.start(&level, cell), Body::start(&level, cell, &p));
            for input in random_tape(&mut rng, &p.inputs(), 600) {
                p.step(&level, &mut s, input);
                body.step(&level, &p, input);
                assert_eq!(s, body);
                assert_eq!(p.feet(&s), [body.x, body.y]);
                assert_eq!(p.standing_cell(&s), body.standing_cell());
                assert_eq!(
                    p.at_rest(&s),
                    body.vx == 0.0 && body.standing_cell().is_some()
                );
            }
        }
    }
}

/// Flat ground `width` tiles wide under `rows` empty rows.
fn flat(width: usize, rows: usize) -> Level {
    let mut text = String::new();
    for _ in 0..rows {
        text.push_str(&".".repeat(width));
        text.push('\n');
    }
    text.push_str(&"#".repeat(width));
    text.parse().unwrap()
}

/// Mario on `level` from `cell` through `tape`: his state after each
/// frame.
fn run(mario: NesMario, level: &Level, cell: Cell, tape: &[Input]) -> Vec<NesState> {
    let mut s = mario.start(level, cell);
    tape.iter()
        .map(|&i| {
            mario.step(level, &mut s, i);
            s
        })
        .collect()
}

#[test]
fn nes_mario_runs_at_the_games_top_speeds() {
    let level = flat(80, 6);
    for (mario, speed) in [
        (NesMario::small(), 0x28),
        (NesMario::small().walking(), 0x18),
    ] {
        let states = run(mario, &level, Cell::new(1, 5), &[RIGHT; 150]);
        // `MaxRightXSpdData`: reached, and never passed.
        assert_eq!(states[149].x_speed, speed);
        assert!(states.iter().all(|s| s.x_speed <= speed));
        // At the top speed, 32 frames move him `speed * 2` pixels
        // (sixteenths of a pixel a frame), give or take the carries of the
        // sub-pixel byte the acceleration also adds to.
        let moved = states[149].x - states[117].x;
        assert!((moved - i32::from(speed) * 2).abs() <= 2, "{moved} px");
        assert!(states.iter().all(|s| s.state == 0 && s.y == states[0].y));
    }
}

/// How high Mario's feet rise in a jump from flat ground after a run-up
/// of `run_up` frames, holding A for `hold` frames, and the frames until
/// he stands again.
fn jump(run_up: usize, hold: usize) -> (i32, usize) {
    let level = flat(200, 10);
    let mut tape = vec![RIGHT; run_up];
    tape.extend(std::iter::repeat_n(Input::new(1, true, false), hold));
    tape.extend(std::iter::repeat_n(RIGHT, 200));
    let states = run(NesMario::small(), &level, Cell::new(1, 9), &tape);
    let ground = states[0].y;
    let top = states.iter().map(|s| s.y).min().unwrap();
    let landed = states
        .iter()
        .skip(run_up + 1)
        .position(|s| s.state == 0)
        .unwrap();
    (ground - top, landed)
}

#[test]
fn nes_mario_jumps_as_high_as_his_take_off_speed_allows() {
    // Standing: 4 px a frame up under 0x20/256 px a frame of gravity
    // while A is held: about 4 * 32 / 2 = 64 px. Running flat out: 5 px a
    // frame under 0x28/256, about 80 px (`PlayerYSpdData`,
    // `JumpMForceData`).
    let (standing, _) = jump(0, 40);
    let (running, _) = jump(60, 40);
    assert!((60..=68).contains(&standing), "{standing} px");
    assert!((76..=84).contains(&running), "{running} px");
    // Letting A go early switches to the falling gravity: a hop.
    let (hop, _) = jump(0, 4);
    assert!(hop * 2 < standing, "{hop} px against {standing}");
    // He lands on the ground he left, feet on its top.
    let level = flat(200, 10);
    let mut tape = vec![Input::new(0, true, false); 40];
    tape.extend([Input::IDLE; 60]);
    let end = *run(NesMario::small(), &level, Cell::new(3, 9), &tape)
        .last()
        .unwrap();
    assert_eq!(NesMario::small().standing_cell(&end), Some(Cell::new(3, 9)));
    assert_eq!((end.y + 32) % 16, 0);
}

#[test]
fn nes_mario_falls_at_most_four_pixels_a_frame_and_bumps_his_head() {
    let level = flat(20, 40);
    // Walk off a ledge-less drop: start high on a one-tile column.
    let mut high = level.clone();
    high.set(Cell::new(2, 5), platnav::Tile::SOLID);
    let states = run(NesMario::small(), &high, Cell::new(2, 4), &[RIGHT; 120]);
    assert!(states.iter().all(|s| s.y_speed <= 4));
    let drops: Vec<i32> = states.windows(2).map(|w| w[1].y - w[0].y).collect();
    assert!(drops.iter().all(|&d| d <= 5), "{drops:?}");
    assert!(drops.contains(&4), "he reaches the fastest fall");
    // A block two tiles above him ends the rise early.
    let mut roofed = flat(20, 10);
    for col in 0..20 {
        roofed.set(Cell::new(col, 6), platnav::Tile::SOLID);
    }
    let bumped = run(
        NesMario::small(),
        &roofed,
        Cell::new(5, 9),
        &[Input::new(0, true, false); 40],
    );
    let top = bumped.iter().map(|s| s.y).min().unwrap();
    assert!(bumped[0].y - top < 40, "the roof stops him");
    assert!(bumped.iter().any(|s| s.y_speed == 1), "`NYSpd`");
}

#[test]
fn nes_mario_skids_harder_than_he_coasts() {
    let level = flat(120, 6);
    let mut coast = vec![RIGHT; 80];
    coast.extend([Input::IDLE; 10]);
    let mut skid = vec![RIGHT; 80];
    skid.extend([Input::new(-1, false, false); 10]);
    let mario = NesMario::small();
    let (a, b) = (
        run(mario, &level, Cell::new(1, 5), &coast),
        run(mario, &level, Cell::new(1, 5), &skid),
    );
    assert_eq!(a[79].x_speed, 0x28);
    // Facing against the motion doubles `FrictionData`'s rate.
    assert!(
        b[89].x_speed < a[89].x_speed,
        "{} vs {}",
        b[89].x_speed,
        a[89].x_speed
    );
}

#[test]
fn the_dash_body_dashes_once_a_flight_and_stops_faster_than_it_starts() {
    let level = flat(60, 8);
    let body = DashBody;
    let mut s = body.start(&level, Cell::new(5, 7));
    let mut ticks_to_full = 0;
    while body.velocity(&s)[0] < 7.0 {
        body.step(&level, &mut s, RIGHT);
        ticks_to_full += 1;
        assert!(ticks_to_full < 100);
    }
    let mut ticks_to_rest = 0;
    while body.velocity(&s)[0] > 0.0 {
        body.step(&level, &mut s, Input::IDLE);
        ticks_to_rest += 1;
    }
    assert!(
        ticks_to_rest * 4 < ticks_to_full,
        "{ticks_to_rest} vs {ticks_to_full}"
    );
    // Jump, then dash right: level flight at 16 tiles/s.
    body.step(&level, &mut s, Input::new(0, true, false));
    for _ in 0..5 {
        body.step(&level, &mut s, Input::IDLE);
    }
    let before = body.feet(&s);
    body.step(&level, &mut s, Input::new(1, false, true));
    let after = body.feet(&s);
    assert_eq!(after[1], before[1], "a dash is level");
    assert_eq!(body.velocity(&s)[0], 16.0);
    // A second press in the same flight does nothing.
    for _ in 0..9 {
        body.step(&level, &mut s, Input::IDLE);
    }
    let v = body.velocity(&s);
    body.step(&level, &mut s, Input::new(-1, false, true));
    assert_eq!(body.velocity(&s)[0], v[0]);
}

#[test]
fn conformance_takes_any_model() {
    let level = common::smb_1_1();
    let physics = Physics::smb();
    let map = NavMap::build(&level, &physics).unwrap();
    // The map's own body performs every link; through the model interface
    // too.
    let own = conformance_on(&map, &physics);
    assert_eq!(own.performed, map.link_count());
    assert_eq!(own, conformance(&map, &physics).unwrap());
    // The NES Mario performs some of the float profile's links, not all.
    let nes = conformance_on(&map, &NesMario::small());
    assert!(
        nes.performed > 0 && nes.performed < map.link_count(),
        "{}",
        nes.performed
    );
    assert_eq!(nes.performed + nes.failures.len(), nes.links);
    let dash = conformance_on(&map, &DashBody);
    assert!(dash.performed < nes.performed);
}

#[test]
fn a_profile_fits_the_nes_marios_recorded_play() {
    // Runs, jumps of every hold, turns, on flat ground: the motion `fit`
    // reads its parameters from.
    let level = flat(400, 12);
    let mario = NesMario::small();
    let mut rng = SplitMix64::new(3);
    let mut tape = Vec::new();
    for _ in 0..30 {
        let dir = if rng.below(2) == 0 { 1 } else { -1 };
        tape.extend(std::iter::repeat_n(
            Input::new(dir, false, false),
            20 + rng.below(60) as usize,
        ));
        let hold = 1 + rng.below(40) as usize;
        tape.extend(std::iter::repeat_n(Input::new(dir, true, false), hold));
        tape.extend(std::iter::repeat_n(Input::new(dir, false, false), 70));
    }
    let mut s = mario.start(&level, Cell::new(200, 11));
    let samples: Vec<Sample> = tape
        .iter()
        .map(|&input| {
            mario.step(&level, &mut s, input);
            let [x, y] = mario.feet(&s);
            Sample { input, x, y }
        })
        .collect();
    let f = fit(&samples, mario.dt(), &Physics::smb()).unwrap();
    for name in ["run_speed", "gravity", "jump_speed"] {
        assert!(f.fitted.contains(&name), "{name}: {:?}", f.fitted);
    }
    // His positions are whole pixels: the run speed is read from averages
    // over runs, so it is his top speed, 2.5 px a frame (16 px a tile,
    // 60.0988 frames a second), not the 3 px of his fastest frame.
    let top = 2.5 * 60.0988 / 16.0;
    assert!(
        (f.physics.run_speed - top).abs() < 0.02 * top,
        "{}",
        f.physics.run_speed
    );
    assert!(f.predicted > 1000);
    // The float body does not move as the game's fixed point does: the
    // deviation is reported, and stays within a few pixels a tick.
    assert!(
        f.worst.0 > 0.0 && f.worst.0 >= f.typical,
        "{:?}",
        (f.worst, f.typical)
    );
    assert!(f.typical < 4.0 / 16.0, "{:?}", (f.worst, f.typical));
    eprintln!(
        "fitted {:?}: worst {:?}, typical {}",
        f.fitted, f.worst, f.typical
    );
}

/// `level` with every tile outside columns `cols` and rows `rows`
/// scrambled by `rng` (solid, empty, one-way or hazard).
fn scrambled(level: &Level, cols: (i64, i64), rows: (i64, i64), rng: &mut SplitMix64) -> Level {
    use platnav::Tile;
    let mut out = level.clone();
    let kinds = [Tile::SOLID, Tile::EMPTY, Tile::ONE_WAY, Tile::HAZARD];
    for row in 0..level.height() as i32 {
        for col in 0..level.width() as i32 {
            let inside = (cols.0..=cols.1).contains(&i64::from(col))
                && (rows.0..=rows.1).contains(&i64::from(row));
            if !inside {
                out.set(Cell::new(col, row), kinds[rng.below(4) as usize]);
            }
        }
    }
    out
}

/// Random tapes on generated levels: each tick, stepped again on the
/// level with every tile beyond the model's promised reach of its feet
/// (before and after the tick) scrambled, the model ends in the same
/// state. Returns the ticks checked.
fn check_reads<M: BodyModel>(model: &M, seed: u64) -> usize
where
    M::State: PartialEq,
{
    let reach = model
        .bounds()
        .reads_within
        .expect("the model promises a reach");
    let mut rng = SplitMix64::new(seed);
    let mut ticks = 0;
    for level in common::random_levels(3) {
        let classes = platnav::Classification::new(&level, &Physics::default());
        let cells: Vec<Cell> = classes.standable_cells().collect();
        for _ in 0..4 {
            let cell = cells[rng.below(cells.len() as u64) as usize];
            let mut s = model.start(&level, cell);
            for input in random_tape(&mut rng, &model.inputs(), 150) {
                let before = s.clone();
                model.step(&level, &mut s, input);
                let ([x0, y0], [x1, y1]) = (model.feet(&before), model.feet(&s));
                let span = |a: f64, b: f64| {
                    (
                        (a.min(b) - reach).floor() as i64,
                        (a.max(b) + reach).floor() as i64,
                    )
                };
                let other = scrambled(&level, span(x0, x1), span(y0, y1), &mut rng);
                let mut again = before.clone();
                model.step(&other, &mut again, input);
                assert_eq!(again, s, "{}: {before:?} under {input:?}", model.name());
                ticks += 1;
            }
        }
    }
    ticks
}

#[test]
fn models_read_no_tile_beyond_their_promised_reach() {
    assert!(check_reads(&NesMario::small(), 5) > 1_000);
    assert!(check_reads(&NesMario::big(), 6) > 1_000);
    assert!(check_reads(&DashBody, 7) > 1_000);
}
