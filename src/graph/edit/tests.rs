//! The edit module's own tests: the tape arena through many edits.

use super::*;
use crate::Physics;
use crate::level::{Level, SplitMix64};

/// Edits leave the tapes they replace behind and lay them end to end
/// again once those are half the bytes; the links' tapes stay those of
/// a fresh build throughout.
#[test]
fn tapes_left_behind_are_dropped_and_every_tape_stays_a_fresh_builds() {
    let level: Level = include_str!("../../../levels/demo.txt").parse().unwrap();
    let p = Physics::agile();
    let mut map = NavMap::build(&level, &p).unwrap();
    let mut rng = SplitMix64::new(3);
    let (mut compactions, mut most) = (0, 0);
    for _ in 0..40 {
        let c = Cell::new(
            1 + rng.below(level.width() as u64 - 2) as i32,
            1 + rng.below(level.height() as u64 - 2) as i32,
        );
        let tile = if map.level().get(c) == Some(Tile::EMPTY) {
            Tile::SOLID
        } else {
            Tile::EMPTY
        };
        let before = map.tape_garbage;
        let report = map.edit(&[(c, tile)]).unwrap();
        assert!(!report.full_rebuild);
        assert!(map.tape_garbage <= map.tapes.len() / 2);
        if map.tape_garbage < before {
            compactions += 1;
        }
        most = most.max(map.tape_garbage);
    }
    assert!(
        compactions > 0 && most > 0,
        "{compactions} compactions, {most} bytes left at most"
    );
    let fresh = NavMap::build(map.level(), &p).unwrap();
    assert_eq!(map.link_count(), fresh.link_count());
    for (a, b) in map.links().zip(fresh.links()) {
        assert_eq!(a, b);
        let tape = |m: &NavMap| m.inputs(a.id).collect::<Vec<_>>();
        assert_eq!(tape(&map), tape(&fresh));
    }
}
