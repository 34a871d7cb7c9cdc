//! Build a nav map, find a path and perform its tape on the reference body.
//!
//! `cargo run --example quickstart [LEVEL.txt]` (platnav ASCII; defaults to
//! the bundled demo level, from its spawn `S` to its goal `G`).

use platnav::find_path;
use platnav::{Body, Level, NavMap, Physics, SearchOptions, Tile};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let level = match std::env::args().nth(1) {
        Some(path) => Level::load(path.as_ref())?,
        None => include_str!("../levels/demo.txt").parse()?,
    };
    let physics = Physics::agile();
    let map = NavMap::build(&level, &physics)?;
    println!(
        "{} standing cells, {} links",
        map.node_count(),
        map.link_count()
    );

    let start = level
        .cells_of(Tile::SPAWN)
        .next()
        .ok_or("the level has no spawn S")?;
    let goal = level
        .cells_of(Tile::GOAL)
        .next()
        .ok_or("the level has no goal G")?;
    let path = find_path(&map, start, goal, &SearchOptions::default())?;
    for step in path.steps() {
        println!(
            "{:>11} {} -> {} ({} ticks)",
            step.kind.name(),
            step.from,
            step.to,
            step.ticks
        );
    }

    // Perform the tape, one input per tick, as a game would drive its enemy.
    let mut body = Body::start(&level, path.start(), &physics);
    for &input in path.inputs() {
        body.step(&level, &physics, input);
    }
    println!(
        "{:.2} s later the body stands on {}: {}",
        path.cost(),
        path.goal(),
        body.stands_on(path.goal())
    );
    Ok(())
}
