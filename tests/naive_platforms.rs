//! The platform programs of a timed search (`PHYSICS.md`, "Link
//! generation bounds", "Paths in time (moving platforms)") against the
//! naive reference of `crates/platnav-naive` (`platform_programs.rs`),
//! written from the text alone: from cells in reach of a platform and
//! from rest on a platform, at several ticks, both must give the same
//! programs' ends (wait, place, end tick and input tape), in the same
//! order. And on the same levels, the map's static links (built without
//! the platforms) are the naive builder's.

use platnav::level::{Platform, PlatformLoop, Platforms};
use platnav::physics::PlatformVelocity;
use platnav::search::timed::{Place, ProgramEnd, TimedOptions, platform_programs};
use platnav::{Body, Cell, Input, Level, NavMap, Physics};
use platnav_naive as naive;
use platnav_naive::platform_programs::{NaiveEnd, naive_platform_programs};

/// The wait stride and longest wait both sides are given: coarser than
/// the search's default, to keep the test short.
const STRIDE: u32 = 5;
const MAX_WAIT: u32 = 300;

/// The seeds of the generated levels.
const SEEDS: [u64; 3] = [1, 7, 2024];

/// The ticks the cells are tried from.
const TICKS: [u64; 3] = [0, 131, 977];

/// The profiles: the reference one, one that keeps the platform's
/// horizontal velocity on leaving it, and the agile one (an air jump and
/// wall jumps, so a wider reach) with coyote time, jump buffering, and
/// all of the platform's velocity kept.
fn profiles() -> Vec<(&'static str, Physics)> {
    vec![
        ("default", Physics::default()),
        (
            "horizontal velocity",
            Physics {
                platform_velocity: PlatformVelocity::Horizontal,
                ..Physics::default()
            },
        ),
        (
            "agile, coyote, buffer, all velocity",
            Physics {
                coyote_ticks: 5,
                jump_buffer_ticks: 4,
                platform_velocity: PlatformVelocity::All,
                ..Physics::agile()
            },
        ),
    ]
}

/// A generated level with three chasms, each under a platform.
fn level(seed: u64) -> (Level, Vec<Platform>) {
    Level::generate_with_platforms(72, 14, 3, seed).unwrap()
}

/// The ledge cells beside each platform's chasm: from the platform's
/// points, three columns left of its leftmost x and three right of its
/// rightmost x + width, on the ledges' standing row, those that are
/// nodes of the map.
fn ledge_cells(level: &Level, platforms: &[Platform], map: &NavMap) -> Vec<Cell> {
    let row = level.height() as i32 - 3;
    let mut cells = Vec::new();
    for p in platforms {
        let lo = p.points.iter().map(|q| q[0]).fold(f64::INFINITY, f64::min);
        let hi = p
            .points
            .iter()
            .map(|q| q[0] + f64::from(p.width))
            .fold(f64::NEG_INFINITY, f64::max);
        let (lo, hi) = (lo.floor() as i32, hi.floor() as i32);
        for col in (lo - 3..lo).chain(hi..hi + 3) {
            let cell = Cell::new(col, row);
            if map.node(cell).is_some() && !cells.contains(&cell) {
                cells.push(cell);
            }
        }
    }
    cells
}

/// The library's ends in the naive form.
fn library_ends(ends: Vec<ProgramEnd>) -> Vec<NaiveEnd> {
    ends.into_iter()
        .map(|e| (e.waited, e.place, e.tick, e.inputs))
        .collect()
}

/// One end, short.
fn show(e: &NaiveEnd) -> String {
    format!(
        "wait {} -> {:?} on tick {} ({} inputs)",
        e.0,
        e.1,
        e.2,
        e.3.len()
    )
}

/// Where two lists first differ, or `None` when they are equal.
fn first_difference(lib: &[NaiveEnd], naive: &[NaiveEnd]) -> Option<String> {
    if lib == naive {
        return None;
    }
    let i = lib
        .iter()
        .zip(naive)
        .position(|(a, b)| a != b)
        .unwrap_or(lib.len().min(naive.len()));
    let at = |v: &[NaiveEnd]| v.get(i).map_or_else(|| "-".to_string(), show);
    Some(format!(
        "{} library ends, {} naive ones; first difference at {i}: library {}, naive {}",
        lib.len(),
        naive.len(),
        at(lib),
        at(naive)
    ))
}

/// Everything one level and profile needs.
struct Case<'a> {
    name: String,
    level: &'a Level,
    list: &'a [Platform],
    physics: &'a Physics,
    map: &'a NavMap,
    platforms: &'a Platforms,
    options: TimedOptions,
}

impl Case<'_> {
    /// Both lists from `body` on tick `tick`, or the difference.
    fn compare(&self, what: &str, body: &Body, tick: u64) -> Result<Vec<NaiveEnd>, String> {
        let lib = platform_programs(self.map, self.platforms, body, tick, &self.options)
            .map_err(|e| format!("{}, {what}, tick {tick}: library error {e}", self.name))?;
        let lib = library_ends(lib);
        let naive = naive_platform_programs(
            self.level,
            self.physics,
            self.list,
            |c| self.map.node(c).is_some(),
            body,
            tick,
            STRIDE,
            MAX_WAIT,
        );
        match first_difference(&lib, &naive) {
            None => Ok(lib),
            Some(d) => Err(format!("{}, {what}, tick {tick}: {d}", self.name)),
        }
    }

    /// The state an end leaves the body in: its inputs performed from
    /// `start` on `tick`.
    fn end_state(&self, start: &Body, tick: u64, inputs: &[Input]) -> Body {
        let mut body = *start;
        for (i, &input) in inputs.iter().enumerate() {
            body.step_moving(
                self.level,
                self.platforms,
                tick + i as u64,
                self.physics,
                input,
            );
        }
        body
    }
}

/// What the comparisons found, for the assertions that they can fail.
#[derive(Default)]
struct Seen {
    ends: usize,
    on_cells: usize,
    on_platforms: usize,
    from_platforms: usize,
    failures: Vec<String>,
}

impl Seen {
    fn count(&mut self, ends: &[NaiveEnd]) {
        self.ends += ends.len();
        for e in ends {
            match e.1 {
                Place::Cell(_) => self.on_cells += 1,
                Place::Platform { .. } => self.on_platforms += 1,
            }
        }
    }
}

/// From `cells` at several ticks, and from rest on a platform where a
/// boarding program from them ended (the first such end per platform):
/// the same ends both ways.
fn check(case: &Case, cells: &[Cell], seen: &mut Seen) {
    assert!(!cells.is_empty(), "{}: no cell to start from", case.name);
    // Boarding ends to start from again, one per platform.
    let mut boarded: Vec<(u32, Body, u64)> = Vec::new();
    for &cell in cells {
        let start = Body::start(case.level, cell, case.physics);
        for &tick in &TICKS {
            let what = format!("from ({}, {})", cell.col, cell.row);
            match case.compare(&what, &start, tick) {
                Err(d) => seen.failures.push(d),
                Ok(ends) => {
                    seen.count(&ends);
                    for e in &ends {
                        if let Place::Platform { platform, .. } = e.1
                            && !boarded.iter().any(|b| b.0 == platform)
                        {
                            let body = case.end_state(&start, tick, &e.3);
                            boarded.push((platform, body, e.2));
                        }
                    }
                }
            }
        }
    }
    for (k, body, tick) in boarded {
        let what = format!("riding platform {k}");
        match case.compare(&what, &body, tick) {
            Err(d) => seen.failures.push(d),
            Ok(ends) => {
                seen.from_platforms += 1;
                seen.count(&ends);
            }
        }
    }
}

/// Fails with every difference, and unless the comparisons saw ends on
/// cells and on platforms, and started from a platform.
fn assert_seen(seen: &Seen) {
    assert!(
        seen.failures.is_empty(),
        "{} comparisons differ:\n{}",
        seen.failures.len(),
        seen.failures.join("\n")
    );
    assert!(seen.ends > 0, "no program ended anywhere");
    assert!(seen.on_platforms > 0, "no program ended on a platform");
    assert!(seen.on_cells > 0, "no program ended on a cell");
    assert!(seen.from_platforms > 0, "never started from a platform");
}

/// The options both sides are given.
fn options() -> TimedOptions {
    TimedOptions::default()
        .with_wait_stride(STRIDE)
        .with_max_wait(MAX_WAIT)
}

#[test]
fn platform_programs_match_the_naive_reference() {
    let mut seen = Seen::default();
    for (profile, physics) in profiles() {
        for seed in SEEDS {
            let (level, list) = level(seed);
            let map = NavMap::build(&level, &physics).unwrap();
            let platforms = Platforms::new(list.clone(), physics.dt).unwrap();
            let case = Case {
                name: format!("seed {seed}, {profile}"),
                level: &level,
                list: &list,
                physics: &physics,
                map: &map,
                platforms: &platforms,
                options: options(),
            };
            check(&case, &ledge_cells(&level, &list, &map), &mut seen);
        }
    }
    assert_seen(&seen);
}

/// Two ledges and waits that end early. A ferry shuttles between the
/// ledges under a low block that snags a rider (the carry is undone, the
/// ferry slides out from under it, and it falls: it no longer rides), and
/// a lift rises through the left ledge and picks up a body at rest on
/// it (it is no longer at rest on its cell).
fn snag_and_lift() -> (Level, Vec<Platform>) {
    let rows = [
        "..............................",
        "..............................",
        "..............................",
        "..............................",
        "..............................",
        "..............................",
        "..............................",
        "..............................",
        "..............###.............",
        "..............................",
        "######................########",
        "######................########",
    ];
    let level: Level = rows.join("\n").parse().unwrap();
    let ferry = Platform {
        width: 3,
        height: 1,
        points: vec![[6.0, 10.0], [19.0, 10.0]],
        speed: 3.0,
        pause: 20,
        looped: PlatformLoop::BackAndForth,
        offset: 0,
    };
    let lift = Platform {
        width: 2,
        height: 1,
        points: vec![[2.0, 11.0], [2.0, 6.0]],
        speed: 2.0,
        pause: 30,
        looped: PlatformLoop::BackAndForth,
        offset: 0,
    };
    (level, vec![ferry, lift])
}

#[test]
fn waits_that_end_early_match_the_naive_reference() {
    let (level, list) = snag_and_lift();
    let mut seen = Seen::default();
    for (profile, physics) in profiles() {
        let map = NavMap::build(&level, &physics).unwrap();
        let platforms = Platforms::new(list.clone(), physics.dt).unwrap();
        let case = Case {
            name: format!("snag and lift, {profile}"),
            level: &level,
            list: &list,
            physics: &physics,
            map: &map,
            platforms: &platforms,
            options: options(),
        };
        let cells: Vec<Cell> = (1..6)
            .chain(22..25)
            .map(|c| Cell::new(c, 9))
            .filter(|&c| map.node(c).is_some())
            .collect();
        check(&case, &cells, &mut seen);
    }
    assert_seen(&seen);
}

/// The map's links are generated without the platforms: on levels
/// generated with platforms, the same links as the naive builder's.
#[test]
fn static_links_on_platform_levels_match_the_naive_builder() {
    let physics = Physics::default();
    for seed in [1, 7] {
        let (level, _) = level(seed);
        let map = NavMap::build(&level, &physics).unwrap();
        let real = naive::links_of(&map);
        assert!(!real.is_empty(), "seed {seed}: no links at all");
        let reference = naive::build(&level, &physics);
        let diffs = naive::differences(&reference, &real);
        assert!(
            diffs.is_empty(),
            "seed {seed}: {} of {} links differ from the naive builder's:\n{}",
            diffs.len(),
            real.len(),
            diffs.join("\n")
        );
    }
}
