//! A level as a file gives it: the grid, its spawn and goals, what marked
//! them, and what the file places that platnav does not model.

use super::{Cell, Level, Platform, Tile};

/// A loaded level with the spawn and goal cells its file marks.
#[derive(Debug, Clone)]
pub struct LoadedLevel {
    /// The tile grid.
    pub level: Level,
    /// The spawn cell: a spawn object or entity (Tiled, LDtk) or the first
    /// [`Tile::SPAWN`] in row-major order.
    pub spawn: Option<Cell>,
    /// Goal cells, row-major.
    pub goals: Vec<Cell>,
    /// What marked the cells, spawn and goal (Tiled and LDtk maps): the
    /// layers, properties, shapes, objects and conventions used, one phrase
    /// each. Not part of the level's identity (equality ignores it).
    pub rules_used: Vec<String>,
    /// Mechanics the file places that platnav does not model (vanishing
    /// platforms, conveyors, moving platforms that give no path, ...),
    /// found by name on tiles and objects (Tiled and LDtk maps): `platnav
    /// check` names those beside the unreachable region. The objects read
    /// into [`LoadedLevel::platforms`] are not listed. Not part of the
    /// level's identity.
    pub unmodelled: Vec<Unmodelled>,
    /// The moving platforms the file places (`PHYSICS.md`, "Moving
    /// platforms"): Tiled objects and LDtk entities read by the rules
    /// file's `platforms` and the conventions
    /// ([`PlatformRules`](crate::rules::PlatformRules)), and the ASCII
    /// format's `@platform` lines. Unchecked:
    /// [`Platforms::new`](super::Platforms::new) checks them for a tick
    /// length. Not part of the level's identity.
    pub platforms: Vec<Platform>,
}

/// A mechanic a map places that platnav does not model (by name), and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unmodelled {
    /// What it is: `"moving platform"`, `"vanishing platform"`,
    /// `"conveyor"` or `"teleporter"`.
    pub kind: &'static str,
    /// How the file names it (`tile "Crumble"`, `object "Lift" (MovingPlatform)`).
    pub what: String,
    /// The cells it occupies (an object: the cell of its centre), row-major.
    pub cells: Vec<Cell>,
}

impl Unmodelled {
    /// The mechanic a tile class, object type or property value names, if
    /// any: by words in it, case and separators ignored.
    #[must_use]
    pub fn named(name: &str) -> Option<&'static str> {
        let n: String = name
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        const KINDS: [(&str, &str); 9] = [
            ("vanish", "vanishing platform"),
            ("crumbl", "vanishing platform"),
            ("dropplatform", "vanishing platform"),
            ("fallingplatform", "vanishing platform"),
            ("movingplatform", "moving platform"),
            ("elevator", "moving platform"),
            ("conveyor", "conveyor"),
            ("teleport", "teleporter"),
            ("portal", "teleporter"),
        ];
        KINDS
            .iter()
            .find(|(word, _)| n.contains(word))
            .map(|&(_, kind)| kind)
    }
}

// Equality reads the grid, spawn and goals only, which are `Eq`.
impl Eq for LoadedLevel {}

impl PartialEq for LoadedLevel {
    fn eq(&self, other: &Self) -> bool {
        self.level == other.level && self.spawn == other.spawn && self.goals == other.goals
    }
}

impl LoadedLevel {
    /// Wraps a level, taking the spawn and goals from its
    /// [`Tile::SPAWN`]/[`Tile::GOAL`] tiles.
    #[must_use]
    pub fn from_tiles(level: Level) -> Self {
        let spawn = level.cells_of(Tile::SPAWN).next();
        let goals = level.cells_of(Tile::GOAL).collect();
        Self {
            level,
            spawn,
            goals,
            rules_used: Vec::new(),
            unmodelled: Vec::new(),
            platforms: Vec::new(),
        }
    }

    /// One line: what marked the level, and its solid, one-way and hazard
    /// cell counts, spawn and goal (what the CLI prints on stderr).
    #[must_use]
    pub fn summary(&self) -> String {
        let count = |t| self.level.tiles().iter().filter(|x| **x == t).count();
        let mut parts: Vec<String> = Vec::new();
        let (marks, markers): (Vec<&String>, Vec<&String>) =
            self.rules_used.iter().partition(|s| {
                !s.starts_with("spawn") && !s.starts_with("goal") && !s.starts_with("no ")
            });
        parts.extend(marks.into_iter().cloned());
        parts.push(format!(
            "{} solid, {} one-way, {} hazard cells",
            count(Tile::SOLID),
            count(Tile::ONE_WAY),
            count(Tile::HAZARD)
        ));
        let slopes = count(Tile::SLOPE_RIGHT) + count(Tile::SLOPE_LEFT);
        if slopes > 0 {
            parts.push(format!("{slopes} slope cells"));
        }
        if markers.is_empty() {
            parts.push(match self.spawn {
                Some(c) => format!("spawn {c}"),
                None => "no spawn".into(),
            });
            parts.push(format!("{} goal cells", self.goals.len()));
        } else {
            parts.extend(markers.into_iter().cloned());
        }
        parts.join("; ")
    }
}
