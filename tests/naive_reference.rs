//! The real link builder against the naive reference builder of
//! `crates/platnav-naive`, which runs every leaf program from scratch with no
//! prefix sharing and no pruning: on small levels both must produce the
//! same links, with the same ticks, jumps, action ticks and input tapes.
//!
//! Links are defined in the from-cell's frame (`platnav::physics::Frame`), and both
//! builders compute them there, so they must agree to the last bit.

mod common;

use platnav::search;
use platnav_naive as naive;

use std::path::Path;

use platnav::{
    Cell, JumpVariety, Level, LinkKind, LinkOptions, NavMap, Physics, Tile,
    formats::{LoadOptions, load_level},
};

/// Builds both ways and fails with every difference listed.
fn assert_same(name: &str, level: &Level, physics: &Physics) {
    assert_same_with(name, level, physics, JumpVariety::Full);
}

/// [`assert_same`] with the `jumps` set of jump programs.
fn assert_same_with(name: &str, level: &Level, physics: &Physics, jumps: JumpVariety) {
    let options = LinkOptions::default().with_jumps(jumps);
    let map = NavMap::build_with(level, physics, &options).unwrap();
    let real = naive::links_of(&map);
    assert!(!real.is_empty(), "{name}: no links at all");
    let in_frame = naive::build_with(level, physics, naive::Coords::Frame, jumps);
    let diffs = naive::differences(&in_frame, &real);
    if diffs.is_empty() {
        return;
    }
    panic!(
        "{name}: {} of {} real links differ from the naive builder's:\n{}",
        diffs.len(),
        real.len(),
        diffs.join("\n")
    );
}

#[test]
fn demo_agile() {
    let level = common::demo();
    assert_same("demo, agile", &level, &Physics::agile());
}

/// Coyote jumps and buffered bounces (`src/links/fall.rs`) on a level
/// with neither ladders nor slopes, the builder's shared walk to the edge
/// against programs simulated from scratch.
#[test]
fn demo_forgiving() {
    let physics = Physics {
        coyote_ticks: 6,
        jump_buffer_ticks: 5,
        ..Physics::default()
    };
    assert_same(
        "demo, coyote time and jump buffering",
        &common::demo(),
        &physics,
    );
    let agile = Physics {
        coyote_ticks: 3,
        jump_buffer_ticks: 8,
        ..Physics::agile()
    };
    let trap: Level = include_str!("../levels/trap.txt").parse().unwrap();
    assert_same("trap, agile, coyote time and jump buffering", &trap, &agile);
}

#[test]
fn small_text_default() {
    let level = load_level(Path::new("levels/small/small.txt"), &LoadOptions::default())
        .unwrap()
        .level;
    assert_same("small.txt, default", &level, &Physics::default());
}

#[test]
fn small_tiled_agile() {
    let opts = LoadOptions::default().with_mapping(Some("levels/small/mapping.json".into()));
    let level = load_level(Path::new("levels/small/small.tmj"), &opts)
        .unwrap()
        .level;
    assert_same("small.tmj, agile", &level, &Physics::agile());
}

#[test]
fn trap_default() {
    let level: Level = include_str!("../levels/trap.txt").parse().unwrap();
    assert_same("trap, default", &level, &Physics::default());
}

#[test]
fn generated_default() {
    for seed in [1, 2, 3] {
        let level = Level::generate(32, 24, seed).unwrap();
        assert_same(
            &format!("generated 32x24 seed {seed}"),
            &level,
            &Physics::default(),
        );
    }
}

#[test]
fn generated_coarse_jumps() {
    for (seed, physics) in [(1, Physics::default()), (5, Physics::agile())] {
        let level = Level::generate(32, 24, seed).unwrap();
        assert_same_with(
            &format!("generated 32x24 seed {seed}, coarse jumps"),
            &level,
            &physics,
            JumpVariety::Coarse,
        );
    }
}

#[test]
fn generated_agile() {
    let level = Level::generate(32, 24, 5).unwrap();
    assert_same("generated 32x24 seed 5, agile", &level, &Physics::agile());
}

#[test]
fn smb_1_1_start_smb() {
    let full = common::smb_1_1();
    // The first 80 columns: ground, blocks, pipes and the first pit.
    let w = 80.min(full.width());
    let tiles = (0..full.height())
        .flat_map(|r| (0..w).map(move |c| (c, r)))
        .map(|(c, r)| full.tiles()[r * full.width() + c])
        .collect();
    let level = Level::new(w, full.height(), tiles).unwrap();
    assert_same("SMB 1-1, first 80 columns", &level, &Physics::smb());
    assert_same_with(
        "SMB 1-1, first 80 columns, coarse jumps",
        &level,
        &Physics::smb(),
        JumpVariety::Coarse,
    );
}

/// Seeded random levels with ladders and slopes (`PHYSICS.md`, "Ladders"
/// and "Slopes"), with and without coyote time and jump buffering:
/// templates, run tapes and the landing memo must tell the new tiles and
/// timers apart, so the real links still equal the naive builder's, and
/// every link replays. Some links must touch a slope or a ladder, or the
/// case would prove little.
#[test]
fn generated_ladders_and_slopes() {
    let forgiving = Physics {
        coyote_ticks: 5,
        jump_buffer_ticks: 4,
        ..Physics::default()
    };
    let (mut touching, mut climbs, mut catches) = (0, 0, 0);
    // Runs that change rows (over slopes), flights that land on a slope,
    // links that start on one.
    let (mut slope_runs, mut slope_landings, mut from_slopes) = (0, 0, 0);
    for (seed, physics) in [
        (1, Physics::default()),
        (2, Physics::agile()),
        (3, Physics::smb()),
        (4, forgiving),
    ] {
        let level = Level::generate_with_mechanics(32, 24, seed).unwrap();
        assert_same(
            &format!("generated 32x24 seed {seed} with ladders and slopes"),
            &level,
            &physics,
        );
        let map = NavMap::build(&level, &physics).unwrap();
        common::assert_links_replay(&map, &format!("seed {seed}"));
        let slope = |c: Cell| level.get(c).is_some_and(Tile::is_slope);
        slope_runs += map
            .links()
            .filter(|l| l.kind == LinkKind::RUN && l.from.row != l.to.row)
            .count();
        slope_landings += map
            .links()
            .filter(|l| {
                matches!(
                    l.kind,
                    LinkKind::FALL | LinkKind::JUMP | LinkKind::DOUBLE_JUMP
                ) && slope(l.to)
            })
            .count();
        from_slopes += map.links().filter(|l| slope(l.from)).count();
        climbs += map.links().filter(|l| l.kind == LinkKind::CLIMB).count();
        // Climbs from cells with no ladder at the feet or under them caught
        // a ladder nearby.
        let ladder = |c: Cell| level.get(c) == Some(Tile::LADDER);
        catches += map
            .links()
            .filter(|l| {
                l.kind == LinkKind::CLIMB
                    && !ladder(l.from)
                    && !ladder(Cell::new(l.from.col, l.from.row + 1))
            })
            .count();
        touching += map
            .links()
            .filter(|l| {
                search::trajectory(&map, l.id).iter().any(|b| {
                    [Tile::SLOPE_RIGHT, Tile::SLOPE_LEFT, Tile::LADDER]
                        .into_iter()
                        .any(|t| b.overlaps_kind(&level, &physics, t))
                })
            })
            .count();
    }
    assert!(
        touching > 50,
        "only {touching} links touch a slope or a ladder"
    );
    // Climb links (up, down and off sideways) are among them.
    assert!(climbs > 10, "only {climbs} climb links");
    assert!(catches > 0, "no climb link catches a ladder");
    println!("{climbs} climb links, {catches} of them catching a ladder");
    println!(
        "{slope_runs} runs over slopes, {slope_landings} falls and jumps landing on one, \
         {from_slopes} links from one"
    );
    assert!(slope_runs > 10 && slope_landings > 10 && from_slopes > 10);
}

/// The jump boost (`Physics::sq2`, a held jump pushed up for 30 ticks) on
/// generated levels with ladders, slopes, pads and springs, and with coyote
/// time and buffering: the real links equal the naive builder's, every one
/// replays, and the jump links hold the jump for more than one time (the
/// boost makes the hold matter, as a cut does).
#[test]
fn generated_levels_with_the_jump_boost() {
    let forgiving = Physics {
        coyote_ticks: 4,
        jump_buffer_ticks: 3,
        ..Physics::sq2()
    };
    let mut holds = std::collections::BTreeSet::new();
    for (seed, physics) in [(6, Physics::sq2()), (7, forgiving)] {
        let level = Level::generate_with_mechanics(32, 24, seed).unwrap();
        assert_same(
            &format!("generated 32x24 seed {seed}, sq2"),
            &level,
            &physics,
        );
        let map = NavMap::build(&level, &physics).unwrap();
        common::assert_links_replay(&map, &format!("seed {seed}, sq2"));
        for l in map.links().filter(|l| l.kind == LinkKind::JUMP) {
            holds.insert(map.inputs(l.id).filter(|i| i.jump).count());
        }
    }
    assert!(holds.len() > 3, "jump holds {holds:?}");
}

/// A ladder longer than the action limit (`levels/repro/ladder31.txt`, a
/// Mega Man-like profile): the climb limit lets both builders climb it,
/// and they agree on every link.
#[test]
fn long_ladder_megaman() {
    let (level, physics) = common::megaman_repro("ladder31.txt");
    assert_same("ladder31 megaman", &level, &physics);
}

/// The hop runs where they matter: up a staircase, under a ceiling that
/// makes the final jump try every hold, and leaping on across pillars;
/// with air jumps too.
#[test]
fn hop_runs_on_stairs_and_pillars() {
    for (name, text) in [
        ("stairs", include_str!("../levels/repro/stairs.txt")),
        ("pillars", include_str!("../levels/repro/pillars.txt")),
    ] {
        let level: Level = text.parse().unwrap();
        for (preset, physics) in [("smb", Physics::smb()), ("agile", Physics::agile())] {
            assert_same(&format!("{name} {preset}"), &level, &physics);
        }
    }
}

/// Positions live on the grid of `PHYSICS.md`, so a link is the same to the
/// last bit whether its body moves in its start cell's frame (as the
/// builder does) or in level coordinates: on slopes, ladders, the frame
/// reproducer and the demo, the naive builder in level coordinates gives
/// the real builder's links.
#[test]
fn links_do_not_depend_on_the_frame() {
    let frame_repro: Level = include_str!("../levels/repro/frame.txt").parse().unwrap();
    let mechanics: Level = include_str!("../levels/mechanics.txt").parse().unwrap();
    for (name, level, physics) in [
        (
            "mechanics.txt, default",
            mechanics.clone(),
            Physics::default(),
        ),
        ("mechanics.txt, agile", mechanics, Physics::agile()),
        ("frame.txt, default", frame_repro, Physics::default()),
        ("demo, smb", common::demo(), Physics::smb()),
    ] {
        let map = NavMap::build(&level, &physics).unwrap();
        let real = naive::links_of(&map);
        let in_level = naive::build_in(&level, &physics, naive::Coords::Level);
        let diffs = naive::differences(&in_level, &real);
        assert!(
            diffs.is_empty(),
            "{name}: {} of {} links differ in level coordinates:\n{}",
            diffs.len(),
            real.len(),
            diffs.join("\n")
        );
    }
}
