//! The map against an exhaustive search of the body's states
//! (`platnav_naive::exhaustive`): on small seeded levels with ledges, low
//! ceilings, gaps of 1 to 6 columns (open, or floored with spikes),
//! one-way platforms, walls, ladders,
//! slopes, and jump pads and springs under high ledges, a quarter of them
//! wrapping at their edges, and the `default`, `smb`, `agile` and `sq2`
//! presets (the last with its jump boost and slow run-up), every standing
//! cell the search comes to rest on from the start is reached by the map,
//! the map's path there is no slower than the search's first arrival by
//! more than [`tolerance`], and every link equals the naive builder's.
//!
//! The search tries every input on every tick, with states merged in
//! buckets of 1/8 tile and of the least speed change a tick makes, within
//! [`BUDGET`] states a level: what it reaches is reachable, so the map
//! must hold all of it.

mod common;

use platnav::analysis::reachable_from;
use platnav::{NavMap, Physics, SearchOptions, find_path};
use platnav_naive::exhaustive::{self, Merge};

/// Position buckets per tile of the search's merge.
const CELLS: u32 = 8;
/// States the search expands on a level.
const BUDGET: usize = 150_000;

/// How much slower than the search's first arrival (`tick`) the map's path
/// may be: a path is chained from links that each start and end at rest
/// near a cell's middle (settling costs ticks the search's free-form inputs
/// do not spend). A quarter more, plus 40 ticks: on the 200 levels and
/// four presets the paths took at most 33 ticks more than the search.
fn tolerance(tick: u32) -> u32 {
    tick + tick / 4 + 40
}

/// What one level shows against the search: each miss described.
fn check(seed: u64, name: &str, physics: &Physics) -> (Vec<String>, usize) {
    let (level, start) = common::small_level(seed);
    let reached = exhaustive::search(
        &level,
        physics,
        start,
        Merge::buckets(physics, CELLS),
        BUDGET,
    );
    let map = NavMap::build(&level, physics).unwrap();
    let reach = reachable_from(&map, start).expect("the start is a standing cell");
    let mut misses = Vec::new();
    let mut compared = 0;
    // A body resting with its feet over an edge is on the cell of its feet
    // column, which is not a standing cell: the map's node is the ground
    // it rests on, which the search also comes to rest on.
    for (&cell, &tick) in reached
        .cells
        .iter()
        .filter(|(c, _)| map.node(**c).is_some())
    {
        compared += 1;
        let at = format!("{name}, seed {seed}: {cell}, at rest on tick {tick}");
        if !map.node(cell).is_some_and(|n| reach.contains(n)) {
            misses.push(format!("{at}: not reached by the map\n{level}"));
            continue;
        }
        match find_path(&map, start, cell, &SearchOptions::default()) {
            Ok(path) if path.ticks() > tolerance(tick) => {
                misses.push(format!("{at}: the map's path takes {} ticks", path.ticks()));
            }
            Ok(_) => {}
            Err(e) => misses.push(format!("{at}: {e}")),
        }
    }
    let real = platnav_naive::links_of(&map);
    let naive = platnav_naive::build(&level, physics);
    let diffs = platnav_naive::differences(&naive, &real);
    if !diffs.is_empty() {
        misses.push(format!(
            "{name}, seed {seed}: links differ from the naive builder's: {diffs:?}"
        ));
    }
    (misses, compared)
}

#[test]
fn the_map_reaches_every_cell_the_exhaustive_search_rests_on() {
    let levels = common::runs("PLATNAV_EXHAUSTIVE_LEVELS", 12, 200);
    let presets = [
        ("default", Physics::default()),
        ("smb", Physics::smb()),
        ("agile", Physics::agile()),
        ("sq2", Physics::sq2()),
    ];
    let jobs: Vec<(u64, usize)> = (0..levels)
        .flat_map(|s| (0..presets.len()).map(move |p| (s, p)))
        .collect();
    let workers = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(4);
    let results: Vec<(Vec<String>, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let (jobs, presets) = (&jobs, &presets);
                scope.spawn(move || {
                    jobs.iter()
                        .skip(w)
                        .step_by(workers)
                        .map(|&(seed, p)| check(seed, presets[p].0, &presets[p].1))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let compared: usize = results.iter().map(|r| r.1).sum();
    let misses: Vec<&String> = results.iter().flat_map(|r| &r.0).collect();
    // Each level's start, at least, and more: the search must get somewhere.
    assert!(compared > 2 * jobs.len(), "only {compared} cells compared");
    assert!(
        misses.is_empty(),
        "{} of {compared} cells:\n{}",
        misses.len(),
        misses
            .iter()
            .take(5)
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}
