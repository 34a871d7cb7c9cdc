//! An exhaustive search of the body's states: from standing on a start
//! cell, breadth-first over every input on every tick. It knows nothing of
//! links or programs, so what it reaches is what the body can do, and a
//! map must hold it.
//!
//! Every input the level can tell apart is tried on every tick: `move` in
//! -1, 0, +1 and `jump` held or not; `down` held or not where the level has
//! one-way platforms or ladders, and `up` where it has ladders. Each state
//! is expanded once, on the first tick it is reached; a state that
//! [`Merge`] says is one already reached is dropped. With [`Merge::Exact`]
//! (every field, floats by their bits) the dropped states have the same
//! futures, but the states grow about tenfold every four ticks: a budget
//! runs out within half a second of motion. [`Merge::Buckets`] also drops
//! states within a bucket of position and speed of one reached before,
//! which keeps the search to a few hundred thousand states a level. Every
//! state it keeps is still one a real input sequence reaches, so every
//! cell it reports is reachable; what it gives up is completeness (a
//! route only a dropped state leads to is not followed), and the first
//! tick it reports for a cell is an upper bound on the fastest.

use std::collections::{BTreeMap, HashSet};

use platnav::{Body, Cell, Input, Level, Physics, Tile};

/// What an exhaustive search reached.
#[derive(Debug, Clone)]
pub struct Reached {
    /// Every cell the body came to rest on (standing on it, grounded,
    /// `vx == 0`, alive), with the first tick it did.
    pub cells: BTreeMap<Cell, u32>,
    /// States expanded.
    pub states: usize,
    /// Ticks searched: every input sequence of up to this many ticks was
    /// followed to its end.
    pub ticks: u32,
    /// The search ran out of states to expand before the budget: `cells`
    /// is every rest cell the body can reach, with any input sequence.
    pub complete: bool,
}

/// The inputs `level` can tell apart.
fn inputs(level: &Level) -> Vec<Input> {
    let ladders = level.holds(Tile::LADDER);
    let flags = |on: bool| if on { &[false, true][..] } else { &[false][..] };
    let (downs, ups) = (flags(ladders || level.holds(Tile::ONE_WAY)), flags(ladders));
    let mut out = Vec::new();
    for move_x in [-1i8, 0, 1] {
        for jump in [false, true] {
            for &down in downs {
                for &up in ups {
                    out.push(Input::new(move_x, jump, down).with_up(up));
                }
            }
        }
    }
    out
}

/// How finely [`search`] tells states apart.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Merge {
    /// Two states are one only when they agree bit for bit.
    Exact,
    /// Also when their positions fall in the same `1 / cells` of a tile
    /// and their speeds in the same `1 / speeds` tile/s (the rest
    /// agreeing): the first state reached stands for the others.
    Buckets {
        /// Position buckets per tile.
        cells: u32,
        /// Speed buckets per tile/s.
        speeds: f64,
    },
}

impl Merge {
    /// Buckets of `1 / cells` tile, and of the least speed change a tick
    /// can make with `p` (its accelerations and gravity times `dt`), so
    /// that a body speeding up does not stay in the bucket it left.
    #[must_use]
    pub fn buckets(p: &Physics, cells: u32) -> Self {
        let least = [p.ground_accel, p.air_accel, p.gravity]
            .into_iter()
            .filter(|&a| a > 0.0)
            .fold(f64::INFINITY, f64::min)
            * p.dt;
        let speeds = if least.is_finite() { 1.0 / least } else { 1.0 };
        Merge::Buckets { cells, speeds }
    }
}

/// A body's state as a key: every field, floats by their bits or their
/// buckets.
fn key(b: &Body, merge: Merge) -> [u64; 6] {
    let (x, y, vx, vy) = match merge {
        Merge::Exact => (b.x.to_bits(), b.y.to_bits(), b.vx.to_bits(), b.vy.to_bits()),
        Merge::Buckets { cells, speeds } => {
            let q = |v: f64, n: f64| (v * n).floor() as i64 as u64;
            let cells = f64::from(cells);
            (
                q(b.x, cells),
                q(b.y, cells),
                q(b.vx, speeds),
                q(b.vy, speeds),
            )
        }
    };
    let flags = u64::from(b.grounded)
        | u64::from(b.jump_held_last_tick) << 1
        | u64::from(b.dead) << 2
        | u64::from(b.climbing) << 3
        | u64::from(b.launched) << 4;
    [
        x,
        y,
        vx,
        vy,
        flags | u64::from(b.air_jumps_left) << 8,
        u64::from(b.coyote_left) | u64::from(b.boost_tick) << 16 | u64::from(b.buffer_left) << 32,
    ]
}

/// Breadth-first over every input sequence from standing on `start`
/// (`Body::start`), until no new state is left or `budget` states have
/// been expanded (checked between ticks, so `ticks` counts whole ticks).
#[must_use]
pub fn search(
    level: &Level,
    physics: &Physics,
    start: Cell,
    merge: Merge,
    budget: usize,
) -> Reached {
    let inputs = inputs(level);
    let body = Body::start(level, start, physics);
    let mut seen = HashSet::from([key(&body, merge)]);
    let mut frontier = vec![body];
    let mut cells = BTreeMap::from([(start, 0)]);
    let mut states = 0usize;
    let mut tick = 0u32;
    while !frontier.is_empty() && states < budget {
        let mut next = Vec::new();
        for b in &frontier {
            states += 1;
            for &input in &inputs {
                let mut n = *b;
                n.step(level, physics, input);
                if n.dead || !seen.insert(key(&n, merge)) {
                    continue;
                }
                if n.vx == 0.0
                    && let Some(c) = n.standing_cell()
                {
                    cells.entry(c).or_insert(tick + 1);
                }
                next.push(n);
            }
        }
        frontier = next;
        tick += 1;
    }
    Reached {
        cells,
        states,
        ticks: tick,
        complete: frontier.is_empty(),
    }
}
