//! Landmark lower bounds (ALT) for the search.
//!
//! For a few *landmark* nodes `L`, the map keeps the route ticks from `L` to
//! every node and from every node to `L`. By the triangle inequality, for
//! any nodes `v` and `t`:
//!
//! - `d(v, t) >= d(L, t) - d(L, v)` and
//! - `d(v, t) >= d(v, L) - d(t, L)`,
//!
//! so the largest of these over the landmarks is a lower bound on the ticks
//! from `v` to `t`. It is consistent (it changes by at most a link's ticks
//! along a link), stays a lower bound when a search forbids kinds, caps
//! jumps or bans links (those only remove routes), and on platformer maps,
//! where routes climb and detour, it is far tighter than horizontal distance.
mod compute;
#[cfg(test)]
mod edit_tests;
mod repair;
mod saved;
#[cfg(test)]
mod tests;

#[cfg(test)]
use crate::graph::edge::Edge;

/// No route.
const FAR: u32 = u32::MAX;

/// No route, in a [`Narrow`] block.
const FAR16: u16 = u16::MAX;

/// Route ticks from and to a few landmark nodes, per node: in [`Narrow`]
/// blocks when every route to or from a landmark is shorter than
/// [`FAR16`] ticks (every map of a few hundred cells a side), else in
/// [`Block`]s. Exactly one of the two is non-empty, unless the map has
/// fewer than two nodes.
#[derive(Debug, Clone, Default)]
pub(crate) struct Landmarks {
    /// Per node, its ticks from and to every landmark, in one aligned
    /// block.
    blocks: Vec<Block>,
    /// The same in half the bytes.
    narrow: Vec<Narrow>,
    /// Landmarks whose `from` half an edit dropped (bit `l`): it bounds
    /// nothing until the table is measured again.
    dead_from: u32,
    /// The same for the `to` halves.
    dead_to: u32,
}

/// The most landmarks a map keeps. More landmarks tighten the bound, and
/// each adds 4 or 8 bytes per node; 32 keeps the table near the size of the
/// links themselves. Random queries on `Level::generate(n, n, 42)` expand
/// about 160 nodes (n = 256), 460 (512) and 2,500 (1024) with 32 landmarks
/// in the largest component, against 1,040, 3,900 and 15,900 with 8 picked
/// over the whole graph.
const MAX_LANDMARKS: usize = 32;

/// One node's landmark distances: `from[l]` ticks from landmark `l` to the
/// node, `to[l]` ticks from the node to landmark `l` ([`FAR`] when there is
/// no route, and in the slots of landmarks a small map does not pick, which
/// then bound nothing). One aligned 256-byte block, so a bound reads four
/// whole cache lines per node and its fixed-width loop compiles to vector
/// code.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(256))]
struct Block {
    from: [u32; MAX_LANDMARKS],
    to: [u32; MAX_LANDMARKS],
}

/// A [`Block`] in 16 bits per distance (128 bytes, two cache lines): half
/// the memory, so more of the table stays in cache during a search. `from`
/// holds [`FAR16`] for no route; `to` holds the ticks plus one, and 0 for
/// no route, so that with the goal prepared ([`GoalBound`]) both halves of
/// the bound are saturating differences with no test, which compile to
/// vector code.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(128))]
struct Narrow {
    from: [u16; MAX_LANDMARKS],
    to1: [u16; MAX_LANDMARKS],
}

/// No route from the goal to a landmark, in [`GoalBound::to1`]: at least
/// every [`Narrow::to1`], so the saturating difference is 0.
const FAR_GOAL: u16 = u16::MAX;

/// A goal's landmark distances, prepared once per search so that
/// [`Landmarks::bound_to`] needs no test on the goal's side: `from` holds 0
/// where the goal is unreachable from the landmark, `to` keeps [`FAR`] where
/// the goal cannot reach it (both then bound nothing).
///
/// For a narrow table, `from16` holds the goal's `d(L, t)` (0 for no
/// route, below every [`FAR16`] `d(L, v)`) and `to1` its `d(t, L) + 1`
/// ([`FAR_GOAL`] for no route), as in [`Narrow::to1`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct GoalBound {
    from: [u32; MAX_LANDMARKS],
    to: [u32; MAX_LANDMARKS],
    from16: [u16; MAX_LANDMARKS],
    to1: [u16; MAX_LANDMARKS],
}

impl Landmarks {
    /// Node `v`'s distances from and to the landmarks as 32-bit values
    /// ([`FAR`] for no route), if `v` is in the table.
    fn raw(&self, v: u32) -> Option<([u32; MAX_LANDMARKS], [u32; MAX_LANDMARKS])> {
        let wide = |d: u16| if d == FAR16 { FAR } else { u32::from(d) };
        match self.narrow.get(v as usize) {
            Some(b) => Some((
                b.from.map(wide),
                b.to1.map(|d| d.checked_sub(1).map_or(FAR, u32::from)),
            )),
            None => self.blocks.get(v as usize).map(|b| (b.from, b.to)),
        }
    }

    /// `t`'s distances prepared for [`Landmarks::bound_to`]; a goal off the
    /// table bounds nothing.
    pub fn goal(&self, t: u32) -> GoalBound {
        let mut g = GoalBound {
            from: [0; MAX_LANDMARKS],
            to: [FAR; MAX_LANDMARKS],
            from16: [0; MAX_LANDMARKS],
            to1: [FAR_GOAL; MAX_LANDMARKS],
        };
        if let Some((from, to)) = self.raw(t) {
            g.from = from.map(|lt| if lt == FAR { 0 } else { lt });
            g.to = to;
            // In a narrow table every finite distance is below FAR16.
            g.from16 = g.from.map(|d| u16::try_from(d).unwrap_or(0));
            g.to1 = to.map(|d| u16::try_from(d.saturating_add(1)).unwrap_or(FAR_GOAL));
            // A dropped half bounds nothing: its goal side is the one of a
            // goal no landmark route meets.
            for l in 0..MAX_LANDMARKS {
                if self.dead_from >> l & 1 != 0 {
                    (g.from[l], g.from16[l]) = (0, 0);
                }
                if self.dead_to >> l & 1 != 0 {
                    (g.to[l], g.to1[l]) = (FAR, FAR_GOAL);
                }
            }
        }
        g
    }

    /// A lower bound on the ticks of any route from `v` to the goal `g`
    /// (0 for a node off the table): the largest, over the landmarks, of
    /// `d(L, t) - d(L, v)` and `d(v, L) - d(t, L)` where both terms are
    /// routes. Branch-free: a [`FAR`] `d(L, v)` exceeds every prepared
    /// `d(L, t)` and a [`FAR`] `d(t, L)` every finite `d(v, L)`, so their
    /// saturating differences are 0; only a [`FAR`] `d(v, L)` needs a mask.
    #[inline]
    pub fn bound_to(&self, v: u32, g: &GoalBound) -> u32 {
        if let Some(b) = self.narrow.get(v as usize) {
            // A FAR16 `d(L, v)` exceeds every prepared `d(L, t)`; a missing
            // `d(v, L)` is 0 below every prepared `d(t, L) + 1`; a missing
            // `d(t, L)` is FAR_GOAL, at least every `d(v, L) + 1`. The
            // differences saturate at 0, where the bound starts anyway, so
            // the loop runs in 16-bit lanes (eight to an SSE2 register).
            let mut best = 0u16;
            for l in 0..MAX_LANDMARKS {
                best = best.max(g.from16[l].saturating_sub(b.from[l]));
                best = best.max(b.to1[l].saturating_sub(g.to1[l]));
            }
            u32::from(best)
        } else if let Some(b) = self.blocks.get(v as usize) {
            bound_of(b.from, b.to, FAR, g)
        } else {
            0
        }
    }

    /// Whether the table proves that no route leads from `v` to `t`: some
    /// landmark is reachable from `t` but not from `v` (a route from `v`
    /// to `t` would go on to it). False proves nothing.
    pub fn separated(&self, v: u32, t: u32) -> bool {
        match (self.raw(v), self.raw(t)) {
            (Some((_, v_to)), Some((_, t_to))) => (0..MAX_LANDMARKS)
                .any(|l| self.dead_to >> l & 1 == 0 && v_to[l] == FAR && t_to[l] != FAR),
            _ => false,
        }
    }

    /// A lower bound on the ticks of any route from `v` to `t` (the tests'
    /// shorthand for [`Landmarks::bound_to`] a prepared goal).
    #[cfg(test)]
    pub fn bound(&self, v: u32, t: u32) -> u32 {
        self.bound_to(v, &self.goal(t))
    }

    /// Heap bytes held.
    pub fn bytes(&self) -> usize {
        self.blocks.capacity() * size_of::<Block>() + self.narrow.capacity() * size_of::<Narrow>()
    }

    /// Whether an edit dropped a half of the table, or left it unmeasured
    /// (see [`Landmarks::repair`]).
    pub fn stale(&self) -> bool {
        self.dead_from | self.dead_to != 0
    }

    /// The landmark halves that bound routes: `(live, measured)`.
    pub fn halves(&self) -> (usize, usize) {
        let measured = if self.narrow.is_empty() && self.blocks.is_empty() && !self.stale() {
            0
        } else {
            2 * MAX_LANDMARKS
        };
        let dead = (self.dead_from.count_ones() + self.dead_to.count_ones()) as usize;
        (measured.saturating_sub(dead), measured)
    }
}

impl Block {
    /// A node no landmark route meets.
    const NONE: Self = Self {
        from: [FAR; MAX_LANDMARKS],
        to: [FAR; MAX_LANDMARKS],
    };
}

impl Narrow {
    /// A node no landmark route meets.
    const NONE: Self = Self {
        from: [FAR16; MAX_LANDMARKS],
        to1: [0; MAX_LANDMARKS],
    };
}

/// [`Landmarks::bound_to`] for one node's distances, `far` marking no
/// route in `to`.
#[inline]
fn bound_of(from: [u32; MAX_LANDMARKS], to: [u32; MAX_LANDMARKS], far: u32, g: &GoalBound) -> u32 {
    let mut best = 0;
    for l in 0..MAX_LANDMARKS {
        let f = g.from[l].saturating_sub(from[l]);
        let t = if to[l] == far {
            0
        } else {
            to[l].saturating_sub(g.to[l])
        };
        best = best.max(f).max(t);
    }
    best
}
