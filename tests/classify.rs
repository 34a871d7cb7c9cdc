//! Node types for the agent's size.

use platnav::{Cell, Classification, Level, NodeType, Physics};

fn classify(rows: &[&str], p: &Physics) -> Classification {
    let level: Level = rows.join("\n").parse().unwrap();
    Classification::new(&level, p)
}

#[test]
fn standable_cells_are_sorted_by_their_sides() {
    let rows = [
        "..........", //
        "..........",
        "#.###.#...",
        "#.....#...",
        "#.....#.=.",
        "#.....#..G",
        "####.#####",
        "####.#####",
    ];
    let c = classify(&rows, &Physics::default());
    let t = |col, row| c.get(Cell::new(col, row));
    // Ground row 5: wall at col 0, pit at col 4, wall at col 6.
    assert_eq!(t(1, 5), NodeType::LEFT_WALL);
    assert_eq!(t(2, 5), NodeType::PLATFORM);
    assert_eq!(t(3, 5), NodeType::RIGHT_EDGE);
    assert_eq!(t(5, 5), NodeType::RIGHT_WALL_EDGE);
    assert_eq!(t(7, 5), NodeType::LEFT_WALL);
    // The platform at row 2: an island.
    assert_eq!(t(2, 1), NodeType::LEFT_EDGE);
    assert_eq!(t(3, 1), NodeType::PLATFORM);
    assert_eq!(t(4, 1), NodeType::RIGHT_EDGE);
    // One-way and goal.
    assert_eq!(t(8, 3), NodeType::ONE_WAY);
    assert_eq!(t(9, 5), NodeType::GOAL);
    // The 1.8-tall body does not fit right under the platform.
    assert_eq!(t(3, 2), NodeType::BLOCKED);
    assert_eq!(t(3, 3), NodeType::BLOCKED);
    // Air, and roof right under the top border.
    assert_eq!(t(5, 3), NodeType::AIR);
    assert_eq!(t(8, 1), NodeType::ROOF);
    assert!(c.is_standable(Cell::new(2, 5)));
    assert!(c.is_standable(Cell::new(9, 5)));
    assert!(!c.is_standable(Cell::new(4, 5)));
    assert!(!c.is_standable(Cell::new(-1, 5)));
}

#[test]
fn a_solo_cell_has_drops_on_both_sides_and_hazards_are_death() {
    let rows = [
        "......", "......", "......", "..#...", "......", "......", "^#####",
    ];
    let c = classify(&rows, &Physics::default());
    assert_eq!(c.get(Cell::new(2, 2)), NodeType::SOLO);
    assert_eq!(c.get(Cell::new(0, 6)), NodeType::DEATH);
    // Above the spike the body only touches it: free, but nothing to stand on.
    assert_eq!(c.get(Cell::new(0, 5)), NodeType::AIR);
}

#[test]
fn the_agent_size_changes_the_map() {
    let rows = ["........", "........", "....#...", "........", "########"];
    let tall = classify(&rows, &Physics::default());
    let small = classify(&rows, &Physics::smb());
    // Under the block at (4, 2): the 0.95-tall agent fits, the 1.8-tall one does not.
    assert_eq!(tall.get(Cell::new(4, 3)), NodeType::BLOCKED);
    assert!(small.is_standable(Cell::new(4, 3)));
    assert_eq!(small.types().len(), 40);
    assert_eq!(small.to_string().lines().count(), 5);
}
