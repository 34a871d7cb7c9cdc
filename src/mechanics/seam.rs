//! What a mechanic declares to the stages around the body: the tiles it
//! gives meaning to (their names in files, their colours and glyphs, the
//! node types of the cells that hold them), the node types it adds, the
//! link families it adds, and what it adds to a generated level; and what
//! its body rules do at each step of a tick ([`BodyRules`]), which the
//! tick (`tick.rs`) applies in `PHYSICS.md`'s order.

use crate::level::{Cell, Level, SplitMix64, Tile};
use crate::physics::{Body, Input, Physics, Tiles};

use super::{LinkKind, NodeType};

/// One mechanic of the world, as the stages around the body see it.
#[derive(Debug)]
pub(crate) struct Mechanic {
    /// Its name in the docs ("ladders"). Read by the test that holds the
    /// docs to the registry, as is the next field.
    #[cfg_attr(not(test), allow(dead_code))]
    pub name: &'static str,
    /// The section of `PHYSICS.md` that specifies its body rules.
    #[cfg_attr(not(test), allow(dead_code))]
    pub physics_md: &'static str,
    /// The tiles it gives meaning to.
    pub tiles: &'static [TileSpec],
    /// The node types it adds to the classifier's palette.
    pub nodes: &'static [NodeSpec],
    /// The link families it adds.
    pub families: &'static [Family],
    /// Whether its tiles have body rules of their own (beyond being empty,
    /// solid, one-way or a hazard), and what those rules mean for link
    /// generation; `None` for a mechanic whose tiles do not change what
    /// the body looks up.
    pub tile_rules: Option<TileRules>,
    /// Adds its tiles to a seeded random level
    /// ([`Level::generate_with_mechanics`]), drawing from the one
    /// generator every mechanic shares, in the registry's order.
    pub decorate: Option<fn(&mut Level, &mut SplitMix64)>,
}

/// What a mechanic's tile rules mean for link generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TileRules {
    /// A standing body's feet are on a tile's top, and walking keeps them
    /// on its row. Not with slopes.
    pub flat_ground: bool,
}

/// A kind of tile: how files name it, how pictures show it, and what the
/// classifier calls the cells that hold it.
#[derive(Debug)]
pub(crate) struct TileSpec {
    /// The tile.
    pub tile: Tile,
    /// Its name in rules files, legends and JSON (`one_way`), and the other
    /// spellings rules files may use (`one-way`).
    pub name: &'static str,
    /// Other spellings of [`TileSpec::name`] that rules files accept.
    pub aliases: &'static [&'static str],
    /// Its character in platnav's ASCII levels.
    pub ascii: char,
    /// The tags of a VGLC legend entry that mean it.
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub vglc: &'static [&'static str],
    /// Words in layer, property, class and object names that mean it to
    /// the zero-config conventions of editor maps (`rules::words`).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub words: &'static [&'static str],
    /// A word a name must also hold to mean it (a slope's side: `right`).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub qualifier: Option<&'static str>,
    /// How the rules of editor maps weigh it against other marks.
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub rank: Rank,
    /// Its colour in a PNG mask's default legend.
    #[cfg_attr(not(feature = "png"), allow(dead_code))]
    pub mask: [u8; 3],
    /// Its colour in pictures (`render`).
    pub colour: [u8; 3],
    /// How it is drawn in its cell.
    pub glyph: Glyph,
    /// The node type of a standable cell that holds it (`None`: by its
    /// sides, as any standing cell).
    pub standing: Option<NodeType>,
    /// The node type of a free cell (the agent fits, nothing to stand on)
    /// that holds it (`None`: air or roof).
    pub free: Option<NodeType>,
    /// The node type of a cell where the agent's box would overlap it:
    /// the agent cannot be there at rest (a hazard kills, a jump pad
    /// launches). `None`: the tile does not act on overlap.
    pub overlap: Option<NodeType>,
}

/// Where a tile stands among the marks that may fall on one cell of an
/// editor map (higher wins; the orders differ, each chosen for its case).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rank {
    /// Among the layers that mark one cell: solid over slopes over one-way,
    /// then hazard, jump pad, spring, goal, spawn, ladder and empty.
    pub layer: u8,
    /// Among the marks of one tile (its properties, class and shapes): a
    /// hazard first (a tile marked solid and deadly must never be stood
    /// on), then a slope (a solid tile shaped as a slope is that slope),
    /// a jump pad and a spring (a solid tile that launches is a launcher),
    /// solid, one-way, ladder, goal, spawn.
    pub mark: u8,
    /// Among the tiles a layer or property name means by its words: jump
    /// pad, spring, hazard, one-way ("one-way wall" is one-way), slopes, solid, ladder; 0 for
    /// tiles no word names. Several tiles at the rank a name reaches first
    /// (a slope without its side) leave it to the next.
    pub name: u8,
    /// Among the tiles whose VGLC tags one legend entry holds together:
    /// jump pad, spring, solid, one-way, hazard, ladder, the slopes, goal,
    /// spawn.
    pub vglc: u8,
    /// Among the tiles of a PNG mask's pixels that tie in number within
    /// one tile: jump pad, spring, solid, the slopes, one-way, ladder,
    /// hazard, goal, spawn, empty.
    pub mask: u8,
}

/// How a tile is drawn in its cell, in cell coordinates (`0..1`, y down).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Glyph {
    /// The whole cell.
    Fill,
    /// A triangle with these corners, on the background.
    Triangle([(f32, f32); 3]),
    /// Lines `width` wide between these ends, on the background.
    Lines(&'static [Segment], f32),
}

/// A line between two points of a cell, for [`Glyph::Lines`].
pub(crate) type Segment = ((f32, f32), (f32, f32));

/// A node type of the classifier's palette: its name in JSON, its symbol
/// in text maps, its colour in pictures (unique among node types).
#[derive(Debug)]
pub(crate) struct NodeSpec {
    /// The node type.
    pub node: NodeType,
    /// Its snake-case name in JSON (`"left_edge"`).
    pub name: &'static str,
    /// Its symbol in text maps.
    pub symbol: char,
    /// Its colour.
    pub colour: [u8; 3],
}

/// A [`NodeSpec`], written in one line.
pub(crate) const fn node(
    node: NodeType,
    name: &'static str,
    symbol: char,
    colour: [u8; 3],
) -> NodeSpec {
    NodeSpec {
        node,
        name,
        symbol,
        colour,
    }
}

/// A kind of link: its name in JSON, its letter on the command line's
/// maps, its colour in pictures.
#[derive(Debug)]
pub(crate) struct KindSpec {
    /// The kind.
    pub kind: LinkKind,
    /// Its snake-case name in JSON (`"double_jump"`).
    pub name: &'static str,
    /// Its letter on a path drawn in text.
    pub letter: char,
    /// Its colour (drawn translucent).
    pub colour: [u8; 3],
}

/// A link family a mechanic adds: input programs performed from each
/// standing cell, whose landings become links.
#[derive(Debug)]
pub(crate) struct Family {
    /// The kinds of its links; the first names the family and is its
    /// switch in `LinkOptions`.
    pub kinds: &'static [KindSpec],
    /// Whether its programs can give a link on `level` with `physics`
    /// (its tiles are there).
    pub applies: fn(&Level, &Physics) -> bool,
    /// The most programs it tries from one standing cell.
    pub programs: fn(&Physics) -> usize,
    /// Performs its programs from one standing cell.
    pub generate: fn(&mut dyn Driver),
}

/// What a family's programs drive: the body standing on the family's start
/// cell, in the frame its links are computed in. Each program is performed
/// from the start; a landed flight becomes a link when it is offered and
/// is the best to its cell of its kind.
pub(crate) trait Driver {
    /// The physics profile.
    fn physics(&self) -> &Physics;
    /// The start cell (level coordinates).
    fn from(&self) -> Cell;
    /// The tile of level cell `cell`, `None` off the map; the lookup counts
    /// as read (an edit of that cell rebuilds the start cell's links).
    fn tile(&self, cell: Cell) -> Option<Tile>;
    /// Performs `program` (the input of each tick, given the tick and the
    /// body before it; `None` gives up) from standing on the start until
    /// the body lands after being airborne; true when it landed.
    fn fly(&mut self, program: &mut dyn FnMut(usize, &Body) -> Option<Input>) -> bool;
    /// Settles the flight [`Driver::fly`] has just landed and offers it as
    /// a link of `kind`.
    fn offer(&mut self, kind: LinkKind);
    /// The steering programs of one direction, landed and offered as links
    /// of `kind`: the one that keeps to `program(None, t)`, then at each of
    /// `switches` (ticks, ascending) one branch per entry of `targets`,
    /// performing `program(Some((switch, target)), t)`. Programs share
    /// their prefix: the kept flight is performed once and each branch
    /// leaves it at its switch, exactly as performing each from the start
    /// would.
    fn steered(
        &mut self,
        kind: LinkKind,
        switches: &[usize],
        targets: [i8; 2],
        program: &dyn Fn(Option<(usize, i8)>, usize) -> Input,
    );
}

/// The move at tick `t` of a program that moves `d`, or `b` from tick `k`
/// on when `sched` is `Some((k, b))`: the steering of the families'
/// programs.
pub(crate) fn steering(d: i8, sched: Option<(usize, i8)>, t: usize) -> i8 {
    match sched {
        Some((k, b)) if t >= k => b,
        _ => d,
    }
}

/// The steered programs of each direction `d` in {-1, 0, +1}
/// ([`Driver::steered`]): move `d`, or from a switch tick on idle or `-d`
/// (for `d = 0`, -1 or +1), with `input(move, t)` the input of tick `t`;
/// landed and offered as links of `kind`.
pub(crate) fn steered_each_way(
    drive: &mut dyn Driver,
    kind: LinkKind,
    switches: &[usize],
    input: &dyn Fn(i8, usize) -> Input,
) {
    for d in [-1i8, 0, 1] {
        let targets = if d == 0 { [-1, 1] } else { [0, -d] };
        drive.steered(kind, switches, targets, &|sched, t| {
            input(steering(d, sched, t), t)
        });
    }
}

/// What a mechanic's step 0 did ([`BodyRules::before_tick`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Before {
    /// Nothing: the base steps follow.
    Pass,
    /// It started a jump: steps 2 to 8 follow, step 1's jump done.
    Jumped,
    /// It performed the whole tick: only the bookkeeping that ends every
    /// tick is left.
    Done,
}

/// A mechanic's body rules: the parts of a tick it owns, at their place in
/// `PHYSICS.md`'s order. The tick (`tick.rs`) calls them through
/// [`RuleList`] for every mechanic of the registry's list whose tiles the
/// level may hold; every rule but [`BodyRules::active`] defaults to none.
pub(crate) trait BodyRules {
    /// Whether its tiles change what stops and holds the body (a ladder
    /// top is a platform, a slope has a surface), so that a level that may
    /// hold them takes the extended contact steps (`contact.rs`) instead
    /// of the base rules' and their shortcuts.
    const CONTACT: bool = false;

    /// Whether its rules may apply to a body seeing `level`: it may hold
    /// one of the mechanic's tiles.
    fn active<T: Tiles + ?Sized>(level: &T) -> bool;

    /// Adjusts [`Body::standing`] on `cell`, the start of every link.
    #[inline]
    fn start<T: Tiles + ?Sized>(_body: &mut Body, _level: &T, _cell: Cell) {}

    /// Step 0, before the base steps (`pressed`: jump pressed this tick).
    #[inline]
    fn before_tick<T: Tiles + ?Sized>(
        _body: &mut Body,
        _level: &T,
        _p: &Physics,
        _input: Input,
        _pressed: bool,
    ) -> Before {
        Before::Pass
    }

    /// Whether a press starts a jump in this state where the base rules'
    /// cases do not (a climber jumps off its ladder).
    #[inline]
    fn starts_jump<T: Tiles + ?Sized>(_body: &Body, _level: &T) -> bool {
        false
    }

    /// Step 1: whether a press off the ground is still a ground jump
    /// (coyote time). The jump rules from here on read the body's state
    /// and the profile, not the level, and are asked whatever it holds.
    #[inline]
    fn ground_grace(_body: &Body) -> bool {
        false
    }

    /// Step 1: a ground jump started.
    #[inline]
    fn ground_jumped(_body: &mut Body) {}

    /// Step 1: whether a press that starts no jump is kept (buffered).
    #[inline]
    fn keeps_press(_p: &Physics) -> bool {
        false
    }

    /// Step 1 without a press: whether a kept press jumps on this tick.
    #[inline]
    fn press_due(_body: &Body) -> bool {
        false
    }

    /// Step 1 without a press: a kept press that is due jumps, and is
    /// spent; whether it did.
    #[inline]
    fn release_press(_body: &mut Body) -> bool {
        false
    }

    /// Whether a kept press is waiting, so a tick may jump without a
    /// press (the ground shortcut declines such a tick).
    #[inline]
    fn press_waiting(_body: &Body) -> bool {
        false
    }

    /// Step 9, after the death test, for a body alive at the end of steps
    /// 1 to 8: what its tiles do to the body that touches them (a jump pad
    /// launches it). Whether it launched the body, which counts as a
    /// ground jump for the rules that end the tick.
    #[inline]
    fn touch<T: Tiles + ?Sized>(_body: &mut Body, _level: &T, _p: &Physics, _input: Input) -> bool {
        false
    }

    /// The end of every tick, with whether the body started it grounded
    /// and how step 1 jumped.
    #[inline]
    fn end_tick(_body: &mut Body, _p: &Physics, _was_grounded: bool, _jumped: Jumped) {}

    /// Step 4b, after the fall's cap: what the rule adds to the speeds,
    /// knowing how step 1 jumped (the jump boost).
    #[inline]
    fn after_fall(_body: &mut Body, _p: &Physics, _input: Input, _jumped: Jumped) {}
}

/// How step 1 started a jump, for the rules that end the tick
/// ([`BodyRules::end_tick`]).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Jumped {
    /// A ground jump (on the ground, in coyote time, buffered, or off a
    /// ladder).
    pub ground: bool,
    /// A press that started nothing and is kept ([`BodyRules::keeps_press`]).
    pub buffered: bool,
    /// Any jump started: a ground, wall or air jump.
    pub started: bool,
}

/// A list of [`BodyRules`], `(A, (B, ()))`, applied in order, each only
/// where it is active: the registry's `BodyRuleList`.
pub(crate) trait RuleList {
    /// Whether any rule of the list is active and changes contacts.
    fn contact<T: Tiles + ?Sized>(level: &T) -> bool;
    /// [`BodyRules::start`] of each active rule.
    fn start<T: Tiles + ?Sized>(body: &mut Body, level: &T, cell: Cell);
    /// [`BodyRules::before_tick`] of each active rule, up to the first that
    /// does something.
    fn before_tick<T: Tiles + ?Sized>(
        body: &mut Body,
        level: &T,
        p: &Physics,
        input: Input,
        pressed: bool,
    ) -> Before;
    /// [`BodyRules::starts_jump`] of any active rule.
    fn starts_jump<T: Tiles + ?Sized>(body: &Body, level: &T) -> bool;
    /// [`BodyRules::ground_grace`] of any rule.
    fn ground_grace(body: &Body) -> bool;
    /// [`BodyRules::ground_jumped`] of each rule.
    fn ground_jumped(body: &mut Body);
    /// [`BodyRules::keeps_press`] of any rule.
    fn keeps_press(p: &Physics) -> bool;
    /// [`BodyRules::press_due`] of any rule.
    fn press_due(body: &Body) -> bool;
    /// [`BodyRules::release_press`] of the first rule that releases one.
    fn release_press(body: &mut Body) -> bool;
    /// [`BodyRules::press_waiting`] of any rule.
    fn press_waiting(body: &Body) -> bool;
    /// [`BodyRules::touch`] of each active rule; whether any launched.
    fn touch<T: Tiles + ?Sized>(body: &mut Body, level: &T, p: &Physics, input: Input) -> bool;
    /// [`BodyRules::end_tick`] of each rule.
    fn end_tick(body: &mut Body, p: &Physics, was_grounded: bool, jumped: Jumped);
    /// [`BodyRules::after_fall`] of each rule.
    fn after_fall(body: &mut Body, p: &Physics, input: Input, jumped: Jumped);
}

impl RuleList for () {
    #[inline]
    fn contact<T: Tiles + ?Sized>(_: &T) -> bool {
        false
    }
    #[inline]
    fn start<T: Tiles + ?Sized>(_: &mut Body, _: &T, _: Cell) {}
    #[inline]
    fn before_tick<T: Tiles + ?Sized>(
        _: &mut Body,
        _: &T,
        _: &Physics,
        _: Input,
        _: bool,
    ) -> Before {
        Before::Pass
    }
    #[inline]
    fn starts_jump<T: Tiles + ?Sized>(_: &Body, _: &T) -> bool {
        false
    }
    #[inline]
    fn ground_grace(_: &Body) -> bool {
        false
    }
    #[inline]
    fn ground_jumped(_: &mut Body) {}
    #[inline]
    fn keeps_press(_: &Physics) -> bool {
        false
    }
    #[inline]
    fn press_due(_: &Body) -> bool {
        false
    }
    #[inline]
    fn release_press(_: &mut Body) -> bool {
        false
    }
    #[inline]
    fn press_waiting(_: &Body) -> bool {
        false
    }
    #[inline]
    fn touch<T: Tiles + ?Sized>(_: &mut Body, _: &T, _: &Physics, _: Input) -> bool {
        false
    }
    #[inline]
    fn end_tick(_: &mut Body, _: &Physics, _: bool, _: Jumped) {}
    #[inline]
    fn after_fall(_: &mut Body, _: &Physics, _: Input, _: Jumped) {}
}

impl<A: BodyRules, B: RuleList> RuleList for (A, B) {
    #[inline]
    fn contact<T: Tiles + ?Sized>(level: &T) -> bool {
        (A::CONTACT && A::active(level)) || B::contact(level)
    }

    #[inline]
    fn start<T: Tiles + ?Sized>(body: &mut Body, level: &T, cell: Cell) {
        if A::active(level) {
            A::start(body, level, cell);
        }
        B::start(body, level, cell);
    }

    #[inline]
    fn before_tick<T: Tiles + ?Sized>(
        body: &mut Body,
        level: &T,
        p: &Physics,
        input: Input,
        pressed: bool,
    ) -> Before {
        if A::active(level) {
            let did = A::before_tick(body, level, p, input, pressed);
            if did != Before::Pass {
                return did;
            }
        }
        B::before_tick(body, level, p, input, pressed)
    }

    #[inline]
    fn starts_jump<T: Tiles + ?Sized>(body: &Body, level: &T) -> bool {
        (A::active(level) && A::starts_jump(body, level)) || B::starts_jump(body, level)
    }

    #[inline]
    fn ground_grace(body: &Body) -> bool {
        A::ground_grace(body) || B::ground_grace(body)
    }

    #[inline]
    fn ground_jumped(body: &mut Body) {
        A::ground_jumped(body);
        B::ground_jumped(body);
    }

    #[inline]
    fn keeps_press(p: &Physics) -> bool {
        A::keeps_press(p) || B::keeps_press(p)
    }

    #[inline]
    fn press_due(body: &Body) -> bool {
        A::press_due(body) || B::press_due(body)
    }

    #[inline]
    fn release_press(body: &mut Body) -> bool {
        A::release_press(body) || B::release_press(body)
    }

    #[inline]
    fn press_waiting(body: &Body) -> bool {
        A::press_waiting(body) || B::press_waiting(body)
    }

    #[inline]
    fn touch<T: Tiles + ?Sized>(body: &mut Body, level: &T, p: &Physics, input: Input) -> bool {
        let a = A::active(level) && A::touch(body, level, p, input);
        B::touch(body, level, p, input) || a
    }

    #[inline]
    fn end_tick(body: &mut Body, p: &Physics, was_grounded: bool, jumped: Jumped) {
        A::end_tick(body, p, was_grounded, jumped);
        B::end_tick(body, p, was_grounded, jumped);
    }

    #[inline]
    fn after_fall(body: &mut Body, p: &Physics, input: Input, jumped: Jumped) {
        A::after_fall(body, p, input, jumped);
        B::after_fall(body, p, input, jumped);
    }
}
