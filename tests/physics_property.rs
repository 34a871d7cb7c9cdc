//! Every valid physics profile gives a map whose every link the body
//! performs: a property test over seeded random profiles across every
//! parameter's range, edges included (no gravity, no acceleration, no jump,
//! no fall speed, a wall slide of 0, ticks from 1/1000 to 1/15 s, bodies
//! from 0.05 tiles to several tiles, up to 255 air jumps, a jump boost one
//! time in four), and the named
//! edge profiles of `tests/physics-edges/` on the demo and SMB 1-1.
//!
//! Checked for each: the build neither panics nor fails, every link's tape
//! performed on the reference body from standing on its start (in its
//! frame, as links are defined) ends standing alive on its end with the
//! jumps and ticks the link claims, no action phase outlasts
//! `LinkOptions::MAX_ACTION_SECONDS`, and on a sample the naive reference
//! builder of `crates/platnav-naive` finds exactly the same links.
//!
//! 60 profiles in a plain `cargo test`, 1,000 with `PLATNAV_LONG_TESTS=1`
//! (as CI runs it); `PLATNAV_PHYSICS_PROFILES` and `PLATNAV_PHYSICS_SEED`
//! change the run.

mod common;
use platnav_naive as naive;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use platnav::{
    Body, JumpVariety, Level, LinkOptions, NavMap, Physics,
    level::SplitMix64,
    physics::{Frame, WallJump},
};

/// A uniform float in `lo..hi`.
fn uniform(rng: &mut SplitMix64, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * ((rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64)
}

/// A log-uniform float in `lo..hi` (both positive).
fn log_uniform(rng: &mut SplitMix64, lo: f64, hi: f64) -> f64 {
    uniform(rng, lo.ln(), hi.ln()).exp()
}

/// A speed for tick `dt`: 0 sometimes, else up to `max` and under one tile
/// a tick.
fn speed(rng: &mut SplitMix64, dt: f64, max: f64) -> f64 {
    if rng.chance(0.1) {
        return 0.0;
    }
    let cap = (0.999 / dt).min(max);
    if rng.chance(0.1) {
        return cap;
    }
    log_uniform(rng, 0.05, cap)
}

/// An acceleration: 0 sometimes, else log-uniform up to a million.
fn accel(rng: &mut SplitMix64) -> f64 {
    if rng.chance(0.1) {
        return 0.0;
    }
    if rng.chance(0.05) {
        return 1e6;
    }
    log_uniform(rng, 0.1, 1e4)
}

/// A random valid profile, edges included.
fn random_physics(rng: &mut SplitMix64) -> Physics {
    let dt = match rng.below(6) {
        0 => 1.0 / 1000.0,
        1 => 1.0 / 15.0,
        2 => 1.0 / 60.0,
        3 => 1.0 / 240.0,
        _ => log_uniform(rng, 1.0 / 1000.0, 1.0 / 15.0),
    };
    let side = |rng: &mut SplitMix64| match rng.below(8) {
        0 => 0.05,
        1 => uniform(rng, 2.0, 3.5),
        _ => uniform(rng, 0.05, 2.0),
    };
    let jump_speed = speed(rng, dt, 40.0);
    let wall_jump = rng.chance(0.35).then(|| WallJump {
        speed_x: speed(rng, dt, 20.0),
        speed_y: speed(rng, dt, 30.0),
        slide_speed: if rng.chance(0.3) {
            0.0
        } else {
            speed(rng, dt, 10.0)
        },
    });
    let mut p = Physics {
        w: side(rng),
        h: side(rng),
        run_speed: speed(rng, dt, 20.0),
        ground_accel: accel(rng),
        air_accel: accel(rng),
        gravity: accel(rng),
        jump_speed,
        jump_cut_speed: if rng.chance(0.3) {
            jump_speed
        } else {
            uniform(rng, 0.0, jump_speed)
        },
        max_fall_speed: speed(rng, dt, 40.0),
        air_jumps: match rng.below(10) {
            0 => 255,
            1 | 2 => 1 + rng.below(3) as u32,
            _ => 0,
        },
        wall_jump,
        dt,
        ..Physics::default()
    };
    // A jump boost one time in four, within what validation allows: the
    // whole boost on top of the jump under a tile a tick.
    if rng.chance(0.25) {
        let most = if rng.chance(0.1) { 255 } else { 60 };
        let ticks = 1 + rng.below(most) as u32;
        let room = (0.999 / dt - p.jump_speed).max(0.0) / (dt * f64::from(ticks));
        p.jump_boost = uniform(rng, 0.0, room.min(1e4));
        p.jump_boost_ticks = ticks;
    }
    p
}

/// Performs every link of `map` on the reference body in its start's
/// frame and returns what is wrong, one line per link.
fn replay_failures(map: &NavMap) -> Vec<String> {
    let (level, p) = (map.level(), map.physics());
    let action_limit = (LinkOptions::MAX_ACTION_SECONDS / p.dt + 0.5).floor() as u32;
    let mut out = Vec::new();
    for link in map.links() {
        let frame = Frame::new(level, link.from);
        let mut body = Body::standing(frame.to_frame(link.from), p);
        let mut jumps = 0u32;
        let mut ticks = 0u32;
        for input in map.inputs(link.id) {
            // PHYSICS.md step 1: a press starts a jump when grounded, at a
            // wall with wall jumps on, or with an air jump left.
            let pressed = input.jump && !body.jump_held_last_tick;
            let takes = body.grounded
                || (p.wall_jump.is_some()
                    && (body.touches_wall_left(&frame, p) || body.touches_wall_right(&frame, p)))
                || body.air_jumps_left > 0;
            if pressed && takes {
                jumps += 1;
            }
            body.step(&frame, p, input);
            ticks += 1;
        }
        let name = format!("{} {} -> {}", link.kind, link.from, link.to);
        if body.dead || !body.stands_on(frame.to_frame(link.to)) {
            out.push(format!(
                "{name}: the tape does not end standing on the target"
            ));
        }
        if ticks != link.ticks || jumps != u32::from(link.jumps) {
            out.push(format!(
                "{name}: {ticks} ticks and {jumps} jumps performed, {} and {} claimed",
                link.ticks, link.jumps
            ));
        }
        if link.action_ticks > action_limit {
            out.push(format!(
                "{name}: an action phase of {} ticks, over the {action_limit}-tick limit",
                link.action_ticks
            ));
        }
    }
    out
}

/// Builds `level` with `physics` (catching a panic) and checks every link.
fn check(name: &str, level: &Level, physics: &Physics) -> Result<NavMap, String> {
    let built = catch_unwind(AssertUnwindSafe(|| NavMap::build(level, physics)));
    let map = match built {
        Err(_) => return Err(format!("{name}: the build panicked with {physics:?}")),
        Ok(Err(e)) => return Err(format!("{name}: the build failed ({e}) with {physics:?}")),
        Ok(Ok(map)) => map,
    };
    let failures = replay_failures(&map);
    if !failures.is_empty() {
        return Err(format!(
            "{name}: {} of {} links do not replay with {physics:?}:\n{}",
            failures.len(),
            map.link_count(),
            failures.join("\n")
        ));
    }
    Ok(map)
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// What one profile gave: its links, whether the naive reference was
/// compared, and what went wrong.
struct Outcome {
    links: usize,
    compared: bool,
    failures: Vec<String>,
}

/// Builds profile `i` on `level` and checks it; one profile in 20 is also
/// built by the naive reference and compared link for link.
fn run_profile(i: u64, level: &Level, physics: &Physics) -> Outcome {
    let mut out = Outcome {
        links: 0,
        compared: false,
        failures: Vec::new(),
    };
    match check(&format!("profile {i}"), level, physics) {
        Err(e) => out.failures.push(e),
        Ok(map) => {
            out.links = map.link_count();
            if i.is_multiple_of(20) {
                out.compared = true;
                let naive =
                    naive::build_with(level, physics, naive::Coords::Frame, JumpVariety::Full);
                let diffs = naive::differences(&naive, &naive::links_of(&map));
                if !diffs.is_empty() {
                    out.failures.push(format!(
                        "profile {i}: {} links differ from the naive reference with {physics:?}:\n{}",
                        diffs.len(),
                        diffs.join("\n")
                    ));
                }
            }
        }
    }
    out
}

#[test]
fn random_valid_profiles_give_maps_whose_links_replay() {
    // 1,000 profiles in the long runs CI makes, 60 in a plain `cargo test`.
    let profiles = common::runs("PLATNAV_PHYSICS_PROFILES", 60, 1000);
    let seed = env_u64("PLATNAV_PHYSICS_SEED", 15);
    let mut rng = SplitMix64::new(seed);
    let levels: Vec<Level> = (0..8)
        .map(|i| Level::generate(14 + 2 * (i % 3), 9, 7000 + i as u64).unwrap())
        .collect();
    let jobs: Vec<(u64, Physics)> = (0..profiles)
        .map(|i| {
            let physics = random_physics(&mut rng);
            assert_eq!(
                physics.validate(),
                Ok(()),
                "profile {i}: the generator made an invalid profile {physics:?}"
            );
            (i, physics)
        })
        .collect();
    // The levels are too small for a build to use more than one core, so
    // the profiles are spread over the cores instead.
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let outcomes: Vec<Outcome> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let j = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((i, physics)) = jobs.get(j) else {
                            break mine;
                        };
                        let level = &levels[*i as usize % levels.len()];
                        mine.push(run_profile(*i, level, physics));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker panicked outside a build"))
            .collect()
    });
    let links: usize = outcomes.iter().map(|o| o.links).sum();
    let with_links = outcomes.iter().filter(|o| o.links > 0).count();
    let compared = outcomes.iter().filter(|o| o.compared).count();
    let failures: Vec<String> = outcomes.into_iter().flat_map(|o| o.failures).collect();
    println!(
        "physics property: {profiles} profiles (seed {seed}), {with_links} with links, \
         {links} links replayed, {compared} compared with the naive reference"
    );
    assert!(
        failures.is_empty(),
        "{} failures over {profiles} profiles:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The sample is not degenerate: most profiles give links.
    assert!(
        with_links * 2 > profiles as usize,
        "only {with_links} of {profiles} profiles gave any link"
    );
}

/// The named edge profiles of `tests/physics-edges/`, each with its file
/// name.
fn edge_profiles() -> Vec<(String, Physics)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/physics-edges");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            let physics: Physics =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            (
                f.file_stem().unwrap().to_string_lossy().into_owned(),
                physics,
            )
        })
        .collect()
}

#[test]
fn named_edge_profiles_give_maps_on_the_demo_and_smb_1_1() {
    let profiles = edge_profiles();
    assert!(profiles.len() >= 9, "the corpus lost profiles");
    let demo = common::demo();
    let smb = Level::load_vglc(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/smb/mario-1-1.txt"),
        &common::smb_legend(),
    )
    .unwrap();
    let mut failures = Vec::new();
    for (name, physics) in &profiles {
        assert_eq!(physics.validate(), Ok(()), "{name} is meant to be valid");
        for (level_name, level) in [("demo", &demo), ("SMB 1-1", &smb)] {
            if let Err(e) = check(&format!("{name} on {level_name}"), level, physics) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_flight_that_cannot_end_is_no_link() {
    // Without gravity a jump rises to the ceiling and stays there: no jump
    // lands, so there are runs and no jump links; with gravity back, jumps.
    let level: Level = ["........", "........", "........", "########"]
        .join("\n")
        .parse()
        .unwrap();
    let floating = Physics {
        gravity: 0.0,
        ..Physics::default()
    };
    let map = check("no gravity", &level, &floating).unwrap();
    let kinds: Vec<_> = map.links().map(|l| l.kind).collect();
    assert!(kinds.contains(&platnav::LinkKind::RUN));
    assert!(!kinds.contains(&platnav::LinkKind::JUMP), "{kinds:?}");
    let map = check("gravity", &level, &Physics::default()).unwrap();
    assert!(map.links().any(|l| l.kind == platnav::LinkKind::JUMP));
}

#[test]
fn a_hover_of_exactly_the_action_limit_is_cut_there() {
    // max_fall_speed 0: after its apex the body hovers. Walking off a ledge
    // over a gap at the ledge's height, it floats across and is grounded
    // again on the far side (PHYSICS.md step 7 needs no descent): a fall
    // link exists when the far side is near, and none when crossing takes
    // longer than the action limit.
    let near: Level = [
        "............",
        "............",
        "............",
        "###......###",
    ]
    .join("\n")
    .parse()
    .unwrap();
    let hover = Physics {
        max_fall_speed: 0.0,
        ..Physics::default()
    };
    let map = check("hover, near", &near, &hover).unwrap();
    assert!(map.links().any(|l| l.kind == platnav::LinkKind::FALL));
    // At 0.5 tiles/s crossing the 6-tile gap takes over 10 s: the flight is
    // cut at 8 s and is no link.
    let slow = Physics {
        run_speed: 0.5,
        ..hover
    };
    let map = check("hover, slow", &near, &slow).unwrap();
    assert!(
        !map.links().any(|l| l.kind == platnav::LinkKind::FALL),
        "a fall over 8 s long was kept"
    );
}
