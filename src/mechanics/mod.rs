//! The rules of the world, one module per mechanic, and the seam through
//! which every stage reaches them.
//!
//! A mechanic (`seam::Mechanic`) declares its tiles (their names in files,
//! their colours and glyphs, the node types of the cells that hold them),
//! the node types and link families it adds, and what it adds to a
//! generated level, and its body rules (`seam::BodyRules`). The tick
//! ([`Body::step`](crate::Body::step), `tick.rs`) applies the base rules and
//! every mechanic's in `PHYSICS.md`'s order. [`ALL`] lists the mechanics;
//! the stages around the body (loaders, classifier, link families,
//! pictures) ask it, and never name a mechanic.

mod active;
mod base;
mod boost;
mod contact;
mod hazard;
mod ladder;
mod launch;
mod link_kind;
mod named;
mod node;
mod one_way;
mod platform;
pub(crate) mod seam;
mod slope;
mod tick;
mod timers;

pub(crate) use active::Active;
pub use link_kind::LinkKind;
pub(crate) use named::named_id;
pub use node::NodeType;

use crate::level::{Level, LevelError, SplitMix64, Tile};
use seam::{Family, Mechanic, NodeSpec, TileSpec};

/// Every mechanic, in the order their tiles, node types and families are
/// listed and their decorations are added to a generated level.
pub(crate) const ALL: [&Mechanic; 8] = [
    &base::BASE,
    &one_way::ONE_WAY,
    &hazard::HAZARD,
    &timers::TIMERS,
    &boost::BOOST,
    &slope::SLOPE,
    &ladder::LADDER,
    &launch::LAUNCH,
];

/// How many tiles the mechanics declare ([`Tile::COUNT`]).
const TILE_COUNT: usize = {
    let (mut n, mut m) = (0, 0);
    while m < ALL.len() {
        n += ALL[m].tiles.len();
        m += 1;
    }
    n
};

/// How many node types the mechanics declare ([`NodeType::COUNT`]).
const NODE_COUNT: usize = {
    let (mut n, mut m) = (0, 0);
    while m < ALL.len() {
        n += ALL[m].nodes.len();
        m += 1;
    }
    n
};

/// The mechanics' body rules, in the order the tick applies them
/// (`seam::RuleList`): those of the mechanics that change what the body
/// does beyond the base rules.
type BodyRuleList = (
    ladder::LadderRules,
    (
        slope::SlopeRules,
        (
            timers::TimerRules,
            (boost::BoostRules, (launch::LaunchRules, ())),
        ),
    ),
);

named_id!(Tile, TILE_COUNT, TILE_NAMES);
named_id!(NodeType, NODE_COUNT, NODE_NAMES);

/// The index in [`ALL`] of the mechanic that declares each tile, by
/// [`Tile::index`].
static MECHANIC_OF: [usize; Tile::COUNT] = {
    let mut of = [0; Tile::COUNT];
    let mut m = 0;
    while m < ALL.len() {
        let mut i = 0;
        while i < ALL[m].tiles.len() {
            of[ALL[m].tiles[i].tile.index()] = m;
            i += 1;
        }
        m += 1;
    }
    of
};

/// Every tile's spec, by [`Tile::index`]: each tile is declared by exactly
/// one mechanic (checked when the crate compiles).
static TILES: [&TileSpec; Tile::COUNT] = tile_table();

/// Every node type's spec, by [`NodeType::index`], each declared by
/// exactly one mechanic (checked when the crate compiles).
static NODES: [&NodeSpec; NodeType::COUNT] = node_table();

/// Every tile's name, in [`Tile::ALL`] order (for the errors of rules
/// files and JSON).
#[cfg_attr(not(feature = "serde"), allow(dead_code))]
pub(crate) static TILE_NAMES: [&str; Tile::COUNT] = {
    let specs = tile_table();
    let mut names = [""; Tile::COUNT];
    let mut t = 0;
    while t < Tile::COUNT {
        names[t] = specs[t].name;
        t += 1;
    }
    names
};

/// Every node type's name, in [`NodeType::ALL`] order (for JSON errors).
#[cfg_attr(not(feature = "serde"), allow(dead_code))]
static NODE_NAMES: [&str; NodeType::COUNT] = {
    let specs = node_table();
    let mut names = [""; NodeType::COUNT];
    let mut t = 0;
    while t < NodeType::COUNT {
        names[t] = specs[t].name;
        t += 1;
    }
    names
};

const fn tile_table() -> [&'static TileSpec; Tile::COUNT] {
    let mut found: [Option<&'static TileSpec>; Tile::COUNT] = [None; Tile::COUNT];
    let mut m = 0;
    while m < ALL.len() {
        let mut i = 0;
        while i < ALL[m].tiles.len() {
            let spec = &ALL[m].tiles[i];
            assert!(found[spec.tile.index()].is_none(), "a tile declared twice");
            found[spec.tile.index()] = Some(spec);
            i += 1;
        }
        m += 1;
    }
    let mut out = [&base::BASE.tiles[0]; Tile::COUNT];
    let mut t = 0;
    while t < Tile::COUNT {
        match found[t] {
            Some(spec) => out[t] = spec,
            None => panic!("a tile no mechanic declares"),
        }
        t += 1;
    }
    out
}

const fn node_table() -> [&'static NodeSpec; NodeType::COUNT] {
    const N: usize = NodeType::COUNT;
    let mut found: [Option<&'static NodeSpec>; N] = [None; N];
    let mut m = 0;
    while m < ALL.len() {
        let mut i = 0;
        while i < ALL[m].nodes.len() {
            let spec = &ALL[m].nodes[i];
            assert!(
                found[spec.node.index()].is_none(),
                "a node type declared twice"
            );
            found[spec.node.index()] = Some(spec);
            i += 1;
        }
        m += 1;
    }
    let mut out = [&base::BASE.nodes[0]; N];
    let mut t = 0;
    while t < N {
        match found[t] {
            Some(spec) => out[t] = spec,
            None => panic!("a node type no mechanic declares"),
        }
        t += 1;
    }
    out
}

/// What `tile` is to files, pictures and the classifier.
#[inline]
pub(crate) fn tile(tile: Tile) -> &'static TileSpec {
    TILES[tile.index()]
}

/// The palette entry of `node`.
#[inline]
pub(crate) fn node(node: NodeType) -> &'static NodeSpec {
    NODES[node.index()]
}

/// Every tile's spec, in [`Tile::ALL`] order.
pub(crate) fn tiles() -> impl Iterator<Item = &'static TileSpec> {
    TILES.iter().copied()
}

/// The link families mechanics add, in [`ALL`]'s order.
pub(crate) fn families() -> impl Iterator<Item = &'static Family> {
    ALL.iter().flat_map(|m| m.families.iter())
}

impl Tile {
    /// The tile's name in rules files, legends and JSON (`one_way`).
    #[must_use]
    pub fn name(self) -> &'static str {
        tile(self).name
    }

    /// The tile a rules file names: by its name or another spelling
    /// (`one-way`, `oneway`).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Tile> {
        tiles()
            .find(|s| s.name == name || s.aliases.contains(&name))
            .map(|s| s.tile)
    }

    /// The tile's character in platnav's ASCII levels.
    #[must_use]
    pub fn to_char(self) -> char {
        tile(self).ascii
    }

    /// The tile an ASCII character stands for.
    #[must_use]
    pub fn from_char(ch: char) -> Option<Tile> {
        tiles().find(|s| s.ascii == ch).map(|s| s.tile)
    }
}

impl NodeType {
    /// A one-character symbol for text maps.
    #[must_use]
    pub fn symbol(self) -> char {
        node(self).symbol
    }

    /// The snake-case name used in JSON (`"left_edge"`).
    #[must_use]
    pub fn name(self) -> &'static str {
        node(self).name
    }

    /// Parses a name as written by [`NodeType::name`].
    #[must_use]
    pub fn from_name(name: &str) -> Option<NodeType> {
        NODES.iter().find(|s| s.name == name).map(|s| s.node)
    }
}

impl Level {
    /// A random level as [`Level::generate`] makes it, with every
    /// mechanic's tiles added (slopes in front of one-tile steps and as
    /// small hills, ladders from platforms down to the ground or hanging
    /// over nothing). The same `(width, height, seed)` always gives the
    /// same level.
    ///
    /// # Errors
    /// As [`Level::generate`].
    pub fn generate_with_mechanics(
        width: usize,
        height: usize,
        seed: u64,
    ) -> Result<Level, LevelError> {
        let mut level = Level::generate(width, height, seed)?;
        let mut rng = SplitMix64::new(seed ^ 0x6c61_6464_6572);
        for decorate in ALL.iter().filter_map(|m| m.decorate) {
            decorate(&mut level, &mut rng);
        }
        Ok(level)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables hold every tile and node type once, under its own index,
    /// and names, characters and colours tell them apart.
    #[test]
    fn every_tile_and_node_type_has_one_spec_of_its_own() {
        for t in Tile::ALL {
            assert_eq!(tile(t).tile, t);
            assert_eq!(Tile::from_name(t.name()), Some(t));
            assert_eq!(Tile::from_char(t.to_char()), Some(t));
        }
        for n in NodeType::ALL {
            assert_eq!(node(n).node, n);
        }
        let unique = |v: Vec<String>| {
            let n = v.len();
            let mut s = v;
            s.sort();
            s.dedup();
            s.len() == n
        };
        assert!(unique(tiles().map(|s| s.name.to_string()).collect()));
        assert!(unique(tiles().map(|s| s.ascii.to_string()).collect()));
        assert!(unique(tiles().map(|s| format!("{:?}", s.mask)).collect()));
        assert!(unique(
            NodeType::ALL
                .iter()
                .map(|n| node(*n).name.to_string())
                .collect()
        ));
        assert!(unique(
            NodeType::ALL
                .iter()
                .map(|n| node(*n).symbol.to_string())
                .collect()
        ));
    }

    /// Every mechanic has a name of its own, and `PHYSICS.md` has the
    /// section that specifies its rules.
    #[test]
    fn every_mechanic_is_specified_in_physics_md() {
        let physics_md = include_str!("../../docs/PHYSICS.md");
        let headings: Vec<&str> = physics_md
            .lines()
            .filter_map(|l| l.strip_prefix('#'))
            .map(|l| l.trim_start_matches('#').trim())
            .collect();
        for (i, m) in ALL.iter().enumerate() {
            assert!(!m.name.is_empty() && ALL[..i].iter().all(|o| o.name != m.name));
            assert!(
                headings.contains(&m.physics_md),
                "{}: {}",
                m.name,
                m.physics_md
            );
        }
    }
}
