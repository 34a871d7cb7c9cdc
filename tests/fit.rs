//! `analysis::fit`: a profile fitted to a trajectory recorded from the
//! reference body under a hidden profile recovers that profile.

use platnav::analysis::{FitError, Sample, fit};
use platnav::{Body, Cell, Input, Level, Physics};

/// A hidden profile unlike every preset.
fn hidden() -> Physics {
    Physics {
        w: 0.8,
        h: 1.4,
        run_speed: 7.3,
        ground_accel: 41.0,
        air_accel: 23.0,
        gravity: 47.0,
        jump_speed: 13.1,
        jump_cut_speed: 5.2,
        max_fall_speed: 14.0,
        air_jumps: 1,
        ..Physics::default()
    }
}

/// A floor 60 tiles long, then a pit 40 rows deep.
fn level() -> Level {
    let (w, h) = (80, 62);
    let mut rows = vec![".".repeat(w); h];
    rows[20] = "#".repeat(60) + &".".repeat(w - 60);
    rows.join("\n").parse().unwrap()
}

/// Runs, stops, turns, jumps held and cut, an air jump, then off the
/// ledge into the pit; every tick recorded until the body dies.
fn record(p: &Physics) -> Vec<Sample> {
    let level = level();
    let mut body = Body::standing(Cell::new(5, 19), p);
    let i = |m: i8, jump: bool| Input::new(m, jump, false);
    let mut script: Vec<Input> = Vec::new();
    let mut add = |n: usize, input: Input| script.extend(std::iter::repeat_n(input, n));
    add(10, i(0, false));
    add(50, i(1, false));
    add(20, i(0, false));
    add(30, i(-1, false));
    add(60, i(1, true));
    add(20, i(0, false));
    add(5, i(-1, true));
    add(60, i(-1, false));
    add(10, i(1, true));
    add(10, i(1, false));
    add(20, i(1, true));
    add(60, i(0, false));
    add(400, i(1, false));
    let mut out = Vec::new();
    for input in script {
        body.step(&level, p, input);
        if body.dead {
            break;
        }
        out.push(Sample {
            input,
            x: body.x,
            y: body.y,
        });
    }
    out
}

#[test]
fn a_recorded_trajectory_gives_back_its_profile() {
    let p = hidden();
    let samples = record(&p);
    let f = fit(&samples, p.dt, &Physics::default()).unwrap();
    let pairs = [
        ("run_speed", f.physics.run_speed, p.run_speed),
        ("ground_accel", f.physics.ground_accel, p.ground_accel),
        ("air_accel", f.physics.air_accel, p.air_accel),
        ("gravity", f.physics.gravity, p.gravity),
        ("jump_speed", f.physics.jump_speed, p.jump_speed),
        ("jump_cut_speed", f.physics.jump_cut_speed, p.jump_cut_speed),
        ("max_fall_speed", f.physics.max_fall_speed, p.max_fall_speed),
    ];
    for (name, got, want) in pairs {
        assert!(
            f.fitted.contains(&name),
            "{name} not fitted: {:?}",
            f.fitted
        );
        assert!(
            ((got - want) / want).abs() < 0.01,
            "{name}: {got} for {want}"
        );
    }
    assert_eq!(f.physics.air_jumps, p.air_jumps);
    // The fitted body predicts every tick of free motion.
    assert!(
        f.predicted > samples.len() / 2,
        "{} of {}",
        f.predicted,
        samples.len()
    );
    assert!(f.worst.0 < 1e-6, "worst {:?}", f.worst);
}

#[test]
fn a_game_without_a_jump_cut_or_air_jumps_is_fitted_so() {
    let p = Physics {
        jump_cut_speed: 13.1,
        air_jumps: 0,
        ..hidden()
    };
    let f = fit(&record(&p), p.dt, &Physics::default()).unwrap();
    assert_eq!(f.physics.jump_cut_speed, f.physics.jump_speed);
    assert!(((f.physics.jump_speed - 13.1) / 13.1).abs() < 0.01);
    assert_eq!(f.physics.air_jumps, 0);
}

#[test]
fn a_recording_that_shows_nothing_is_an_error() {
    let p = Physics::default();
    let still = Sample {
        input: Input::IDLE,
        x: 3.5,
        y: 7.0,
    };
    assert_eq!(fit(&[still; 20], p.dt, &p), Err(FitError::NothingToFit));
    assert!(matches!(
        fit(&[still; 3], p.dt, &p),
        Err(FitError::TooShort { got: 3, .. })
    ));
    let mut bad = vec![still; 10];
    bad[4].x = f64::NAN;
    assert_eq!(fit(&bad, p.dt, &p), Err(FitError::NotFinite(4)));
}
