//! The ten Mega Man stages of the VGLC (`levels/megaman/`), each with the
//! route a player took through it (`megaman_1_N_path.txt`, the stage with
//! the route's cells marked `x`), and the Mega Man profile of
//! `levels/repro/megaman.json`: every standing cell on the route is reached
//! by the map from the player's start (`P`), and a path to the farthest of
//! them replays.
//!
//! The one allowance is the game's moving lifts (`M`), which a level file
//! holds only where they were when it was drawn: on a route that rides
//! them, a cell the map misses must be out of reach with the lifts taken
//! away too (the game carries the player there; no jump between the drawn
//! lifts does).

use std::path::Path;

use platnav::analysis::reachable_from;
use platnav::formats::VglcLegend;
use platnav::{Cell, Level, NavMap, Physics, SearchOptions, find_path};

const DIR: &str = "levels/megaman";

/// The stage's text, its route's cells and the Mega Man profile.
fn stage(n: u32) -> (String, Vec<Cell>, Physics) {
    let dir = Path::new(DIR);
    let text = std::fs::read_to_string(dir.join(format!("megaman_1_{n}.txt"))).unwrap();
    let marked = std::fs::read_to_string(dir.join(format!("megaman_1_{n}_path.txt"))).unwrap();
    let route = marked
        .lines()
        .enumerate()
        .flat_map(|(row, line)| {
            line.char_indices()
                .filter(|&(_, ch)| ch == 'x')
                .map(move |(col, _)| Cell::new(col as i32, row as i32))
        })
        .collect();
    let json = std::fs::read_to_string("levels/repro/megaman.json").unwrap();
    let physics = Physics::from_json_over(&json, &Physics::default()).unwrap();
    (text, route, physics)
}

fn legend() -> VglcLegend {
    VglcLegend::load(&Path::new(DIR).join("legend.json")).unwrap()
}

/// The character at `cell` of the stage's text (`@`, outside the stage,
/// off it).
fn char_at(text: &str, cell: Cell) -> char {
    let row = usize::try_from(cell.row).ok();
    let col = usize::try_from(cell.col).ok();
    row.zip(col)
        .and_then(|(r, c)| text.lines().nth(r)?.chars().nth(c))
        .unwrap_or('@')
}

/// The standing cell the player starts on: the `P` marker's, or the
/// first standing one below it.
fn start_of(text: &str, map: &NavMap) -> Cell {
    let (row, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains('P'))
        .expect("the stage marks the player's start");
    let col = line.find('P').unwrap() as i32;
    (row as i32..row as i32 + 4)
        .map(|r| Cell::new(col, r))
        .find(|&c| map.node(c).is_some())
        .expect("the player starts standing")
}

/// What one stage shows: the route's standing cells the map misses
/// without the lifts' excuse, and how many it reaches.
fn check(n: u32) -> (Vec<String>, usize) {
    let (text, route, physics) = stage(n);
    let legend = legend();
    let level = Level::from_vglc(&text, &legend).unwrap();
    let map = NavMap::build(&level, &physics).unwrap();
    let start = start_of(&text, &map);
    let reach = reachable_from(&map, start).unwrap();
    let reached = |c: Cell| map.node(c).is_some_and(|v| reach.contains(v));
    // The same stage with the lifts taken away.
    let bare = Level::from_vglc(&text.replace('M', "-"), &legend).unwrap();
    let bare_map = NavMap::build(&bare, &physics).unwrap();
    let bare_reach = reachable_from(&bare_map, start).unwrap();
    let rides_lifts = route
        .iter()
        .any(|c| (1..=2).any(|d| char_at(&text, Cell::new(c.col, c.row + d)) == 'M'));
    let mut standing: Vec<Cell> = route
        .into_iter()
        .filter(|&c| map.node(c).is_some())
        .collect();
    standing.sort_by_key(|c| (c.row, c.col));
    let mut misses = Vec::new();
    for &c in &standing {
        if reached(c) {
            continue;
        }
        let carried = rides_lifts && !bare_map.node(c).is_some_and(|v| bare_reach.contains(v));
        if !carried {
            misses.push(format!(
                "stage 1-{n}: {c} on the route, not reached from {start}"
            ));
        }
    }
    // A path to the reached route cell farthest from the start replays.
    let far = standing
        .iter()
        .copied()
        .filter(|&c| reached(c))
        .max_by_key(|c| {
            (
                (c.col - start.col).abs() + (c.row - start.row).abs(),
                c.col,
                c.row,
            )
        })
        .unwrap();
    let path = find_path(&map, start, far, &SearchOptions::default()).unwrap();
    assert!(
        path.replay(&level, &physics).stands_on(far),
        "stage 1-{n}: the path {start} -> {far} does not replay"
    );
    let count = standing.iter().filter(|&&c| reached(c)).count();
    (misses, count)
}

#[test]
fn the_map_reaches_every_standing_cell_of_mega_mans_routes() {
    let results: Vec<(Vec<String>, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..=10).map(|n| scope.spawn(move || check(n))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let reached: usize = results.iter().map(|r| r.1).sum();
    let misses: Vec<&String> = results.iter().flat_map(|r| &r.0).collect();
    // The ten routes stand on about 1,600 cells; the start's alone is not
    // a check.
    assert!(reached > 1000, "only {reached} route cells reached");
    assert!(misses.is_empty(), "{misses:#?}");
}
