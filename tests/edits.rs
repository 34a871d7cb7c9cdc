//! Live edits: after every edit, the edited map must equal a fresh build of
//! the edited level, link for link, tapes included; and exact search must
//! still equal Dijkstra on it.

mod common;

use platnav::{Cell, Level, NavMap, NodeId, Physics, SearchOptions, Tile, Wrap};
use platnav::{io::navfile, search};

/// Every link of a map by its cells, in id order: `(from, to, kind,
/// ticks, action ticks, jumps, tape)`; every node's cell, in id order; and
/// per node, the ids of the fastest link to each target (what the search
/// relaxes).
type Snapshot = (
    Vec<(Cell, Cell, String, u32, u32, u8, Vec<[i8; 3]>)>,
    Vec<Cell>,
    Vec<Vec<usize>>,
);

fn snapshot(map: &NavMap) -> Snapshot {
    let links: Vec<_> = map
        .links()
        .map(|l| {
            (
                l.from,
                l.to,
                format!("{:?}", l.kind),
                l.ticks,
                l.action_ticks,
                l.jumps,
                map.inputs(l.id).map(|i| i.to_triple()).collect(),
            )
        })
        .collect();
    let fastest = (0..map.node_count())
        .map(|n| {
            map.fastest_links_from(NodeId::new(n as u32))
                .map(|l| l.index())
                .collect()
        })
        .collect();
    (links, map.nodes().to_vec(), fastest)
}

/// A small xorshift generator, so the edit sequences are reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const TILES: [Tile; 7] = [
    Tile::EMPTY,
    Tile::SOLID,
    Tile::ONE_WAY,
    Tile::HAZARD,
    Tile::LADDER,
    Tile::SLOPE_RIGHT,
    Tile::SLOPE_LEFT,
];

/// One random edit of `level`: a single tile (half the time), an up to 4 x
/// 4 brush, or a 1 x 3 door closed and then opened again (two edits).
fn random_edits(rng: &mut Rng, level: &Level) -> Vec<Vec<(Cell, Tile)>> {
    let (w, h) = (level.width(), level.height());
    // Ladders and slopes only where the level has them already (the first
    // one rebuilds everything).
    let mechanics = [Tile::LADDER, Tile::SLOPE_RIGHT, Tile::SLOPE_LEFT]
        .into_iter()
        .any(|t| level.holds(t));
    let at = |rng: &mut Rng| Cell::new(rng.below(w) as i32, rng.below(h) as i32);
    match rng.below(6) {
        0..=2 => {
            // Mostly solid and empty: hazards rebuild everything the
            // first time one appears, so they are rarer.
            let tile = TILES[[0, 1, 0, 1, 2, 3, 4, 5, 6][rng.below(if mechanics { 9 } else { 6 })]];
            vec![vec![(at(rng), tile)]]
        }
        3 | 4 => {
            let (c, bw, bh) = (at(rng), 1 + rng.below(4), 1 + rng.below(4));
            let tile = TILES[[0, 1, 2, 4][rng.below(if mechanics { 4 } else { 3 })]];
            let cells = (0..bw as i32)
                .flat_map(|dc| (0..bh as i32).map(move |dr| Cell::new(c.col + dc, c.row + dr)))
                .filter(|&x| level.contains(x))
                .map(|x| (x, tile))
                .collect();
            vec![cells]
        }
        _ => {
            let c = at(rng);
            let door: Vec<Cell> = (0..3)
                .map(|dr| Cell::new(c.col, c.row - dr))
                .filter(|&x| level.contains(x))
                .collect();
            let close = door.iter().map(|&x| (x, Tile::SOLID)).collect();
            let open = door
                .iter()
                .map(|&x| (x, level.get(x).unwrap_or(Tile::EMPTY)))
                .collect();
            vec![close, open]
        }
    }
}

/// Exact search from a few sources equals Dijkstra on the map's own graph,
/// and the search's lower bound from them (landmarks repaired by edits
/// included) never exceeds a route's ticks.
fn assert_exact_is_dijkstra(map: &NavMap, rng: &mut Rng, what: &str) {
    let nodes = map.nodes();
    if nodes.is_empty() {
        return;
    }
    let opts = SearchOptions::default();
    for _ in 0..3 {
        let s = rng.below(nodes.len());
        let dist = search::dijkstra(map, NodeId::new(s as u32));
        for (g, d) in dist.iter().enumerate() {
            if let Some(d) = *d {
                let b =
                    search::lower_bound_ticks(map, NodeId::new(s as u32), NodeId::new(g as u32));
                assert!(
                    b <= d,
                    "{what}: bound {b} > {d} ticks, {} -> {}",
                    nodes[s],
                    nodes[g]
                );
            }
        }
        for _ in 0..12 {
            let g = rng.below(nodes.len());
            let ticks = search::route_ticks(map, nodes[s], nodes[g], &opts).unwrap();
            assert_eq!(ticks, dist[g], "{what}: {} -> {}", nodes[s], nodes[g]);
        }
    }
}

/// Applies `steps` random edits to `level`'s map under `physics`, checking
/// the map against a fresh build after each.
fn check(name: &str, level: Level, physics: &Physics, steps: usize, seed: u64) {
    let mut rng = Rng(seed | 1);
    let mut map = NavMap::build(&level, physics).unwrap();
    let mut level = level;
    let mut partial = 0;
    let mut done = 0;
    // Edits after which every landmark bound is still live (the edits
    // repair them; these maps are small enough for every repair).
    let mut all_bounds_kept = 0;
    while done < steps {
        for edit in random_edits(&mut rng, &level) {
            let before = map.generation();
            let report = map.edit(&edit).unwrap();
            for &(c, t) in &edit {
                level.set(c, t);
            }
            let what = format!("{name}, edit {done} ({} cells)", edit.len());
            assert_eq!(map.level(), &level, "{what}");
            assert_eq!(
                map.generation(),
                before + u64::from(report.tiles_changed > 0),
                "{what}"
            );
            let fresh = NavMap::build(&level, physics).unwrap();
            assert!(
                snapshot(&map) == snapshot(&fresh),
                "{what}: the edited map differs from a fresh build ({report:?})"
            );
            for row in 0..level.height() as i32 {
                for col in 0..level.width() as i32 {
                    let c = Cell::new(col, row);
                    assert_eq!(map.node_type(c), fresh.node_type(c), "{what}: {c}");
                    assert_eq!(map.node(c), fresh.node(c), "{what}: {c}");
                }
            }
            if report.tiles_changed > 0 && !report.full_rebuild {
                partial += 1;
                assert!(
                    report.nodes_rebuilt < map.node_count().max(1),
                    "{what}: {report:?}"
                );
            }
            assert_exact_is_dijkstra(&map, &mut rng, &what);
            let (live, measured) = map.landmark_bounds();
            assert_eq!(map.bounds_stale(), live < measured, "{what}");
            if report.full_rebuild {
                assert!(!map.bounds_stale(), "{what}");
            }
            all_bounds_kept += usize::from(live == measured);
            // Every few edits the bounds are measured again, so that exact
            // search is checked with fresh landmark bounds too.
            if done % 3 == 2 {
                map.refresh_bounds();
                assert!(!map.bounds_stale());
                assert_exact_is_dijkstra(&map, &mut rng, &format!("{what}, bounds refreshed"));
            }
            done += 1;
        }
    }
    assert!(
        partial > steps / 3,
        "{name}: only {partial} edits were partial"
    );
    assert!(
        all_bounds_kept * 2 > done,
        "{name}: only {all_bounds_kept} of {done} edits kept every landmark bound"
    );
}

#[test]
fn edits_on_the_demo_equal_fresh_builds_with_every_preset() {
    for (i, &preset) in Physics::PRESETS.iter().enumerate() {
        let physics = Physics::preset(preset).unwrap();
        check(
            &format!("demo, {preset}"),
            common::demo(),
            &physics,
            14,
            11 + i as u64,
        );
    }
}

#[test]
fn edits_on_generated_levels_equal_fresh_builds() {
    for (i, level) in common::random_levels(3).into_iter().enumerate() {
        for (j, &preset) in ["default", "agile"].iter().enumerate() {
            let physics = Physics::preset(preset).unwrap();
            let name = format!("generated {i}, {preset}");
            check(&name, level.clone(), &physics, 10, 100 + (i * 7 + j) as u64);
        }
    }
}

#[test]
fn edits_on_levels_with_ladders_and_slopes_equal_fresh_builds() {
    let forgiving = Physics {
        coyote_ticks: 5,
        jump_buffer_ticks: 4,
        ..Physics::default()
    };
    for (seed, physics) in [
        (1, Physics::default()),
        (2, Physics::agile()),
        (4, forgiving),
    ] {
        let level = Level::generate_with_mechanics(32, 24, seed).unwrap();
        check(
            &format!("mechanics {seed}"),
            level,
            &physics,
            10,
            300 + seed,
        );
    }
}

/// On levels that wrap, links read tiles across the seam: an edit there
/// must rebuild the nodes on the other side that read it.
#[test]
fn edits_on_levels_that_wrap_equal_fresh_builds() {
    for (seed, wrap, physics) in [
        (21, Wrap::X, Physics::default()),
        (22, Wrap::XY, Physics::agile()),
    ] {
        let level = Level::generate_with_mechanics(24, 16, seed)
            .unwrap()
            .with_wrap(wrap);
        check(
            &format!("wrap {wrap} {seed}"),
            level,
            &physics,
            12,
            500 + seed,
        );
    }
}

#[test]
fn edits_on_smb_levels_equal_fresh_builds() {
    let levels = common::smb_levels();
    let physics = Physics::smb();
    for (name, level) in levels
        .iter()
        .filter(|(n, _)| n == "mario-1-1" || n == "mario-4-2")
    {
        check(name, level.clone(), &physics, 12, name.len() as u64 * 977);
    }
}

#[test]
fn an_edit_off_the_level_is_refused_and_changes_nothing() {
    let level = common::demo();
    let mut map = NavMap::build(&level, &Physics::default()).unwrap();
    let before = snapshot(&map);
    let off = Cell::new(level.width() as i32, 0);
    let err = map
        .edit(&[(Cell::new(1, 1), Tile::SOLID), (off, Tile::SOLID)])
        .unwrap_err();
    assert!(err.to_string().contains("outside"), "{err}");
    assert_eq!(map.generation(), 0);
    assert!(snapshot(&map) == before);
    // Setting a tile to what it holds changes nothing either.
    let same = level.get(Cell::new(1, 1)).unwrap();
    let report = map.set_tile(Cell::new(1, 1), same).unwrap();
    assert_eq!((report.tiles_changed, map.generation()), (0, 0));
}

#[test]
fn a_loaded_map_is_rebuilt_whole_on_its_first_edit_then_in_part() {
    let level = common::demo();
    let physics = Physics::agile();
    let built = NavMap::build(&level, &physics).unwrap();
    let mut map = navfile::from_bytes(&navfile::to_bytes(&built), &level, &physics).unwrap();
    let empty: Vec<Cell> = level.cells_of(Tile::EMPTY).step_by(97).take(2).collect();
    let (a, b) = (empty[0], empty[1]);
    let mut level = level;
    let first = map.set_tile(a, Tile::SOLID).unwrap();
    level.set(a, Tile::SOLID);
    assert!(first.full_rebuild, "{first:?}");
    assert!(snapshot(&map) == snapshot(&NavMap::build(&level, &physics).unwrap()));
    let second = map.set_tile(b, Tile::SOLID).unwrap();
    level.set(b, Tile::SOLID);
    assert!(
        second.tiles_changed == 1 && !second.full_rebuild,
        "{second:?}"
    );
    assert!(snapshot(&map) == snapshot(&NavMap::build(&level, &physics).unwrap()));
}
