//! The names games give collision, spawn and goal: the vocabulary of the
//! zero-config conventions (see [`super`]).
//!
//! A name is split into words at spaces, punctuation, digits and case
//! changes (`isSpike` is `is spike`, `PlayerSpawnPoint` is `player spawn
//! point`, `one_way` is `one way`), lower-cased, with a plural `s` dropped
//! (`walls` is `wall`). A name matches a vocabulary word when one of its
//! words is that word, or when the whole name without separators is
//! (`nocollide`, `oneway`, `jumpthrough`).

use super::kind::TileKind;
use crate::mechanics::{self, seam::TileSpec};

/// The words of a name, lower-case, singular.
pub(crate) fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev: Option<char> = None;
    let chars: Vec<char> = name.chars().collect();
    for (i, &ch) in chars.iter().enumerate() {
        if !ch.is_alphabetic() {
            flush(&mut cur, &mut out);
            prev = None;
            continue;
        }
        if let Some(p) = prev {
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            // fooBar, and the last capital of an acronym: HTTPServer.
            if ch.is_uppercase() && (p.is_lowercase() || (p.is_uppercase() && next_lower)) {
                flush(&mut cur, &mut out);
            }
        }
        cur.extend(ch.to_lowercase());
        prev = Some(ch);
    }
    flush(&mut cur, &mut out);
    out
}

fn flush(cur: &mut String, out: &mut Vec<String>) {
    if cur.is_empty() {
        return;
    }
    let mut w = std::mem::take(cur);
    if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") {
        w.pop();
    }
    out.push(w);
}

/// The name lower-case without separators, singular.
fn joined(name: &str) -> String {
    words(name).concat()
}

const NOT_SOLID: &[&str] = &[
    "nocollide",
    "nocollision",
    "nocollider",
    "noncollide",
    "noncollidable",
    "passable",
    "decor",
    "decoration",
    "background",
    "none",
    "empty",
];

/// Words of layers drawn for looks only (`Wall_shadows`, `BackgroundDecor`).
const VISUAL: &[&str] = &[
    "shadow",
    "decor",
    "decoration",
    "deco",
    "background",
    "bg",
    "parallax",
    "sky",
];

fn has(name: &str, vocab: &[&str]) -> bool {
    let j = joined(name);
    vocab.contains(&j.as_str()) || words(name).iter().any(|w| vocab.contains(&w.as_str()))
}

/// The collision kind a name means: `Some(Empty)` for names that say "does
/// not collide" (`nocollide`, `decor`); else the tile whose mechanic's
/// words the name holds (with its qualifier, such as a slope's side), by
/// the tiles' name ranks: hazard first (a spiked wall must not be stood
/// on), then one-way ("one-way wall" is one-way), slopes, solid and
/// ladder. Where several tiles of one rank match (a slope without its
/// side), the next rank decides. `None` when no tile matches.
pub(crate) fn kind_of_name(name: &str) -> Option<TileKind> {
    let j = joined(name);
    if NOT_SOLID.contains(&j.as_str())
        || j.starts_with("nocollid")
        || j.starts_with("noncollid")
        || has(name, VISUAL)
    {
        return Some(TileKind::EMPTY);
    }
    let w = words(name);
    let means = |s: &TileSpec| {
        !s.words.is_empty()
            && has(name, s.words)
            && s.qualifier.is_none_or(|q| w.iter().any(|x| x == q))
    };
    let mut ranks: Vec<u8> = mechanics::tiles().map(|s| s.rank.name).collect();
    ranks.sort_unstable_by(|a, b| b.cmp(a));
    ranks.dedup();
    ranks.into_iter().filter(|&r| r > 0).find_map(|rank| {
        let mut found = mechanics::tiles().filter(|s| s.rank.name == rank && means(s));
        match (found.next(), found.next()) {
            (Some(s), None) => Some(TileKind::of(s.tile)),
            _ => None,
        }
    })
}

/// Names games give their one collision layer without saying "collision"
/// (Nez's and SunnyLand's `main`), most telling first: the rank in that
/// list of the most telling one among the words of `name`, if any.
pub(crate) fn collision_layer_rank(name: &str) -> Option<usize> {
    const NAMES: &[&str] = &["main", "level", "world", "physics"];
    let w = words(name);
    NAMES.iter().position(|n| w.iter().any(|x| x == n))
}

/// True for a name that is a single vocabulary word (`floor`, `Spikes`):
/// strict enough for object classes, which also name entities such as
/// `MovingPlatform`.
pub(crate) fn is_single_word(name: &str) -> bool {
    words(name).len() == 1
}

/// True for an object name or class that says what the object is, and
/// that is not a collider, even in a layer named like collision: pickups,
/// decor, doors, enemies, spawn points, triggers, movable crates.
pub(crate) fn names_a_non_collider(name: &str) -> bool {
    const THINGS: &[&str] = &[
        "coin",
        "gem",
        "diamond",
        "pickup",
        "collectible",
        "collectable",
        "item",
        "key",
        "heart",
        "star",
        "fruit",
        "cherry",
        "powerup",
        "ammo",
        "health",
        "door",
        "enemy",
        "mob",
        "monster",
        "npc",
        "spawn",
        "respawn",
        "player",
        "hero",
        "start",
        "checkpoint",
        "crate",
        "decor",
        "decoration",
        "sign",
        "chest",
        "trigger",
        "sensor",
        "camera",
        "light",
        "sound",
        "text",
        "label",
        "marker",
        "goal",
        "exit",
        "finish",
    ];
    words(name).iter().any(|w| THINGS.contains(&w.as_str()))
}

/// True for property names whose string values name a kind: `type`,
/// `TileType`, `kind`, `collision`, `terrain`, `material`, `behaviour`.
pub(crate) fn names_a_kind(name: &str) -> bool {
    const LAST: &[&str] = &[
        "type",
        "kind",
        "class",
        "category",
        "terrain",
        "material",
        "behaviour",
        "behavior",
        "physic",
        "collision",
        "collider",
        "collide",
        "solid",
    ];
    words(name)
        .last()
        .is_some_and(|w| LAST.contains(&w.as_str()))
}

/// How strongly a name says "the player starts here": 3 for a player's
/// spawn or start (`PlayerSpawnPoint`, `player_start`), 2 for a spawn
/// (`Spawn Point`), 1 for a bare `Player` or `Hero` (or a class `Start`),
/// 0 otherwise: enemies' spawns, and an object *named* `Start`, which also
/// names the start of a moving platform's track.
pub(crate) fn spawn_score(name: &str, is_class: bool) -> u8 {
    let w = words(name);
    let any = |v: &[&str]| w.iter().any(|x| v.contains(&x.as_str()));
    if any(&["enemy", "mob", "monster", "npc", "foe", "coin", "item"]) {
        return 0;
    }
    let player = any(&["player", "hero"]);
    let j = w.concat();
    let place = any(&[
        "point", "pos", "position", "location", "loc", "marker", "zone",
    ]);
    if (player && any(&["spawn", "start", "respawn"])) || j == "playerstart" || j == "spawnpoint" {
        3
    } else if any(&["spawn", "respawn"]) || (any(&["start"]) && place) {
        2
    } else if w.len() == 1 && (player || (is_class && j == "start")) {
        1
    } else {
        0
    }
}

/// How strongly a name says "the level ends here": 2 for goal words
/// (`goal`, `exit`, `finish`, `victory`, `win`, `flag`, `next level`), 1 for
/// `LevelComplete...`/`LevelEnd...`.
pub(crate) fn goal_score(name: &str) -> u8 {
    let w = words(name);
    let any = |v: &[&str]| w.iter().any(|x| v.contains(&x.as_str()));
    if any(&[
        "goal", "exit", "finish", "victory", "win", "flag", "flagpole",
    ]) || w.concat().contains("nextlevel")
    {
        2
    } else if any(&["level", "stage"]) && any(&["complete", "end", "clear"]) {
        1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Tile;

    #[test]
    fn words_split_case_punctuation_and_plurals() {
        assert_eq!(words("isSpike"), ["is", "spike"]);
        assert_eq!(words("PlayerSpawnPoint"), ["player", "spawn", "point"]);
        assert_eq!(words("player_start"), ["player", "start"]);
        assert_eq!(words("Spawn Point"), ["spawn", "point"]);
        assert_eq!(words("HTTPServer"), ["http", "server"]);
        assert_eq!(words("Collisions"), ["collision"]);
        assert_eq!(words("glass"), ["glass"]);
    }

    #[test]
    fn kinds_of_names() {
        assert_eq!(kind_of_name("Collisions"), Some(TileKind::SOLID));
        assert_eq!(kind_of_name("collides"), Some(TileKind::SOLID));
        assert_eq!(kind_of_name("Ground"), Some(TileKind::SOLID));
        assert_eq!(kind_of_name("isSpike"), Some(TileKind::of(Tile::HAZARD)));
        assert_eq!(kind_of_name("Spikes"), Some(TileKind::of(Tile::HAZARD)));
        assert_eq!(kind_of_name("one_way"), Some(TileKind::ONE_WAY));
        assert_eq!(kind_of_name("DropPlatform"), Some(TileKind::ONE_WAY));
        assert_eq!(kind_of_name("ladder"), Some(TileKind::LADDER));
        assert_eq!(kind_of_name("slope_right"), Some(TileKind::SLOPE_RIGHT));
        assert_eq!(kind_of_name("RampLeft"), Some(TileKind::SLOPE_LEFT));
        assert_eq!(kind_of_name("slope"), None);
        assert_eq!(kind_of_name("nocollide"), Some(TileKind::EMPTY));
        assert_eq!(kind_of_name("Decor"), Some(TileKind::EMPTY));
        assert_eq!(kind_of_name("Wall_shadows"), Some(TileKind::EMPTY));
        assert_eq!(kind_of_name("BackgroundDecor2"), Some(TileKind::EMPTY));
        assert_eq!(kind_of_name("dirt"), None);
        assert_eq!(kind_of_name("JumpPad"), Some(TileKind::of(Tile::PAD)));
        assert_eq!(kind_of_name("trampoline"), Some(TileKind::of(Tile::SPRING)));
        assert_eq!(kind_of_name("main layer"), None);
    }

    #[test]
    fn spawn_and_goal_scores() {
        assert_eq!(spawn_score("PlayerSpawnPoint", true), 3);
        assert_eq!(spawn_score("player_start", true), 3);
        assert_eq!(spawn_score("Spawn Point", false), 3);
        assert_eq!(spawn_score("spawn", false), 2);
        assert_eq!(spawn_score("Start", false), 0);
        assert_eq!(spawn_score("Start", true), 1);
        assert_eq!(spawn_score("Player", false), 1);
        assert_eq!(spawn_score("EnemySpawn", true), 0);
        assert_eq!(spawn_score("Chest", true), 0);
        assert_eq!(spawn_score("StartPosition", false), 2);
        assert_eq!(spawn_score("HeroStart", false), 3);
        // `End` and `Start` also name a moving platform's track ends.
        assert_eq!(goal_score("End"), 0);
        assert_eq!(goal_score("exit"), 2);
        assert_eq!(goal_score("LevelCompleteTrigger"), 1);
        assert_eq!(goal_score("Door"), 0);
        assert_eq!(goal_score("next_level"), 2);
        assert_eq!(goal_score("Flag"), 2);
        assert_eq!(goal_score("window"), 0);
        assert!(names_a_kind("TileType"));
        assert!(!names_a_kind("AssetId"));
    }
}
