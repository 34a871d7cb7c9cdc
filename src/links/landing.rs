//! A memo of what follows a landing: where the body comes to
//! rest ([`land_target`]) and the settle onto that cell ([`settle`]), for
//! the links simulated cell by cell. (Template branches keep their own
//! landings; there this memo cost more than it saved.)
//!
//! Both are pure functions of the body's state in its link's [`Frame`],
//! the physics, and the tiles (and standable cells) they look at. Frames
//! make motion translation-invariant to the last bit, so the same landing
//! state recurs across many cells: every fall or jump of the same shape
//! over the same local terrain lands the same way. An entry is keyed on the
//! exact state (and the target, for a settle) and keeps every tile and
//! standable cell the computation read, with what it read; it is served
//! only where all of them read the same again, and then the computation
//! would take exactly the same steps, so a hit returns exactly what
//! computing would. The one input that is not a lookup is the bottom death
//! test (`PHYSICS.md` step 8), which compares `y - h` with the frame's row
//! count: an entry records the largest `y - h` its steps reached and is
//! served only in frames where that does not die, as it did not where it
//! was computed (computations that did die there are not kept).
//!
//! Each worker of a [`super::BuildCache`] keeps its own memo, of at most
//! [`super::BuildCache::memo_budget`] bytes; it starts over when full and
//! when the physics changes.

use std::cell::RefCell;

use super::best::FastMap;
use crate::classify::Classification;
use crate::level::{Cell, Tile};
use crate::mechanics::Active;
use crate::physics::{Body, Frame, Input, Physics, Tiles};

/// The most entries (terrains) kept under one key.
const WAYS: usize = 8;

/// Where a landing is worked out: a link's frame, and the level's
/// standable cells seen from it.
pub(crate) struct InFrame<'a> {
    frame: &'a Frame<'a>,
    classes: &'a Classification,
    /// The memo to serve from and fill (none: always compute).
    memo: Option<&'a MemoSlot>,
}

impl<'a> InFrame<'a> {
    pub fn new(
        frame: &'a Frame<'a>,
        classes: &'a Classification,
        memo: Option<&'a MemoSlot>,
    ) -> Self {
        Self {
            frame,
            classes,
            memo,
        }
    }

    /// Whether a frame cell is standable.
    fn standable(&self, c: Cell) -> bool {
        let c = self.frame.to_level(c);
        self.frame.note(c);
        self.classes.is_standable(c)
    }
}

/// One lookup a computation made, and its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Read {
    col: i32,
    row: i32,
    seen: Seen,
}

/// A lookup's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    Tile(Tile),
    Standable(bool),
}

impl Read {
    /// Which lookup: the cell and whether it asked for standability.
    fn what(&self) -> (i32, i32, bool) {
        (self.col, self.row, matches!(self.seen, Seen::Standable(_)))
    }
}

/// How many of the latest noted lookups a new one is compared with.
const RECENT: usize = 12;

/// A [`Tiles`] that notes every lookup (a repeat of a recent one only
/// once).
struct Recorder<'a, T: ?Sized> {
    inner: &'a T,
    reads: &'a RefCell<Vec<Read>>,
}

impl<T: Tiles + ?Sized> Tiles for Recorder<'_, T> {
    #[inline]
    fn tile_at(&self, col: i64, row: i64) -> Tile {
        let t = self.inner.tile_at(col, row);
        // A lookup beyond 32-bit cells (no level has them) is noted as one
        // no entry is served for.
        let (col, row) = match (i32::try_from(col), i32::try_from(row)) {
            (Ok(c), Ok(r)) => (c, r),
            _ => (i32::MIN, i32::MIN),
        };
        let read = Read {
            col,
            row,
            seen: Seen::Tile(t),
        };
        // A step looks at the few tiles under the box, and the next step at
        // mostly the same ones: a repeat of a recent lookup is not noted
        // again, which leaves far less for `first_of_each` to sort.
        let mut reads = self.reads.borrow_mut();
        let recent = reads.len().saturating_sub(RECENT);
        if !reads[recent..].contains(&read) {
            reads.push(read);
        }
        t
    }
    #[inline]
    fn rows(&self) -> f64 {
        self.inner.rows()
    }
    #[inline]
    fn holds(&self, tile: Tile) -> bool {
        self.inner.holds(tile)
    }
    /// The body's shortcuts make the lookups they decide by, in their
    /// own order: an entry holds every lookup once, in any order, and is
    /// served where each has the same answer, so the computation would
    /// take the same shortcuts there.
    #[inline]
    fn any_order(&self) -> bool {
        self.inner.any_order()
    }
}

/// What an entry holds.
#[derive(Clone)]
enum Out {
    Target(Option<(Cell, u32)>),
    /// The settle's inputs, or `None` when it failed.
    Settle(Option<Box<[Input]>>),
}

struct Entry {
    /// Each distinct lookup with its answer.
    reads: Box<[Read]>,
    /// The largest `y - h` of any step: the entry holds where the bottom
    /// is at least this low.
    low: f64,
    out: Out,
}

impl Entry {
    fn bytes(&self) -> usize {
        size_of::<Self>()
            + self.reads.len() * size_of::<Read>()
            + match &self.out {
                Out::Settle(Some(t)) => t.len() * size_of::<Input>(),
                _ => 0,
            }
    }

    fn holds(&self, terrain: &InFrame<'_>) -> bool {
        self.low <= terrain.frame.rows()
            && self.reads.iter().all(|r| match r.seen {
                Seen::Tile(t) => {
                    r.col != i32::MIN
                        && terrain.frame.tile_at(i64::from(r.col), i64::from(r.row)) == t
                }
                Seen::Standable(s) => terrain.standable(Cell::new(r.col, r.row)) == s,
            })
    }
}

/// The exact body state, the settle target (or none), and whether the
/// level has hazards, ladders and slopes (which change the lookups the body
/// makes).
type Key = [u64; 7];

fn key<T: Tiles + ?Sized>(body: &Body, target: Option<Cell>, tiles: &T) -> Key {
    let flags = u64::from(body.grounded)
        | u64::from(body.jump_held_last_tick) << 1
        | u64::from(body.dead) << 2
        | u64::from(tiles.holds(Tile::HAZARD)) << 3
        | u64::from(target.is_some()) << 4
        | u64::from(body.climbing) << 5
        | u64::from(Active::of(tiles).bits()) << 6
        | u64::from(body.launched) << 14
        | u64::from(body.air_jumps_left) << 32;
    let timers = u64::from(body.coyote_left)
        | u64::from(body.boost_tick) << 16
        | u64::from(body.buffer_left) << 32;
    let t = target.map_or(0, |c| {
        u64::from(c.col as u32) << 32 | u64::from(c.row as u32)
    });
    [
        body.x.to_bits(),
        body.y.to_bits(),
        body.vx.to_bits(),
        body.vy.to_bits(),
        flags,
        timers,
        t,
    ]
}

struct Memo {
    physics: Physics,
    map: FastMap<Key, Vec<Entry>>,
    bytes: usize,
}

/// One worker's memo ([`super::BuildCache`]).
pub(crate) struct MemoSlot {
    memo: RefCell<Option<Memo>>,
    /// The most bytes it holds before it starts over.
    budget: usize,
}

impl MemoSlot {
    /// An empty memo of at most `budget` bytes.
    pub fn new(budget: usize) -> Self {
        Self {
            memo: RefCell::new(None),
            budget,
        }
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.memo.borrow().as_ref().map_or(0, |m| m.bytes)
    }

    /// The entry for `key` that holds in `terrain`, if any (starting over
    /// when the memo was for other physics).
    fn find(&self, terrain: &InFrame<'_>, p: &Physics, key: &Key) -> Option<Out> {
        let mut m = self.memo.borrow_mut();
        if m.as_ref().is_none_or(|m| m.physics != *p) {
            *m = Some(Memo {
                physics: p.clone(),
                map: FastMap::default(),
                bytes: 0,
            });
        }
        let m = m.as_ref()?;
        let e = m.map.get(key)?.iter().find(|e| e.holds(terrain))?;
        Some(e.out.clone())
    }

    /// Keeps `entry` under `key` (starting over when full).
    fn keep(&self, key: Key, entry: Entry) {
        if let Some(m) = self.memo.borrow_mut().as_mut() {
            if m.bytes > self.budget {
                m.map.clear();
                m.bytes = 0;
            }
            let list = m.map.entry(key).or_default();
            if list.len() < WAYS {
                m.bytes += entry.bytes() + size_of::<Key>() + 16;
                list.push(entry);
            }
        }
    }
}

/// Runs `compute` through the terrain's memo under `key`: served where an
/// entry's every lookup holds in `terrain`, else computed with lookups
/// noted, and kept. `compute` gets the tiles to step in, the standable test
/// to ask, and where to note the largest `y - h` its steps reach.
fn memoized<'a>(
    terrain: &InFrame<'a>,
    p: &Physics,
    key: Key,
    compute: impl FnOnce(&Recorder<'_, Frame<'a>>, &dyn Fn(Cell) -> bool, &mut f64) -> Out,
) -> Out {
    if let Some(out) = terrain.memo.and_then(|m| m.find(terrain, p, &key)) {
        return out;
    }
    let reads = RefCell::new(Vec::new());
    let rec = Recorder {
        inner: terrain.frame,
        reads: &reads,
    };
    let ask = |c: Cell| {
        let s = terrain.standable(c);
        reads.borrow_mut().push(Read {
            col: c.col,
            row: c.row,
            seen: Seen::Standable(s),
        });
        s
    };
    let mut low = f64::NEG_INFINITY;
    let out = compute(&rec, &ask, &mut low);
    // Kept only when no step died below the bottom (see the module doc);
    // a NaN never compares, and so is never kept.
    if let Some(memo) = terrain.memo
        && low <= terrain.frame.rows()
    {
        let entry = Entry {
            reads: first_of_each(reads.into_inner()).into_boxed_slice(),
            low,
            out: out.clone(),
        };
        memo.keep(key, entry);
    }
    out
}

/// Each distinct lookup once (a repeat has the same answer: the terrain
/// does not change during a computation).
fn first_of_each(mut reads: Vec<Read>) -> Vec<Read> {
    reads.sort_unstable_by_key(Read::what);
    reads.dedup_by_key(|r| r.what());
    reads
}

/// [`land_target`](super::settle::land_target) in `terrain`, through the memo.
pub(crate) fn land_target(terrain: &InFrame<'_>, p: &Physics, body: &Body) -> Option<(Cell, u32)> {
    let key = key(body, None, terrain.frame);
    match memoized(terrain, p, key, |tiles, ask, low| {
        Out::Target(crate::links::settle::land_target_low(
            tiles, p, body, ask, low,
        ))
    }) {
        Out::Target(t) => t,
        Out::Settle(_) => None,
    }
}

/// [`super::settle`] in `terrain`, through the memo: the inputs appended
/// to `tape`, or false when the settle fails (and then `tape` is as it
/// was).
pub(crate) fn settle(
    terrain: &InFrame<'_>,
    p: &Physics,
    body: &Body,
    target: Cell,
    tape: &mut Vec<Input>,
) -> bool {
    let key = key(body, Some(target), terrain.frame);
    match memoized(terrain, p, key, |tiles, _, low| {
        let (mut b, mut inputs) = (*body, Vec::with_capacity(32));
        let ok = crate::links::settle::settle_low(tiles, p, &mut b, target, &mut inputs, low);
        Out::Settle(ok.then(|| inputs.into_boxed_slice()))
    }) {
        Out::Settle(Some(inputs)) => {
            tape.extend_from_slice(&inputs);
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

    /// A rest cell with braking ticks, whether the settle succeeded, and
    /// its inputs.
    type Landing = (Option<(Cell, u32)>, bool, Vec<Input>);

    /// A body that just landed running right, in the frame of the cell it
    /// started from.
    fn landed(p: &Physics) -> Body {
        Body {
            vx: p.run_speed,
            ..Body::standing(Cell::new(0, 0), p)
        }
    }

    /// Where the body comes to rest and its settle onto frame cell (2, 0),
    /// simulated directly; a failed settle's inputs are never used.
    fn direct(terrain: &InFrame<'_>, p: &Physics, body: &Body) -> Landing {
        let t = crate::links::settle::land_target(terrain.frame, p, body, |c| terrain.standable(c));
        let mut tape = Vec::new();
        let mut b = *body;
        let ok = crate::links::settle::settle(terrain.frame, p, &mut b, Cell::new(2, 0), &mut tape);
        if !ok {
            tape.clear();
        }
        (t, ok, tape)
    }

    /// The same through the memo.
    fn memo(terrain: &InFrame<'_>, p: &Physics, body: &Body) -> Landing {
        let t = land_target(terrain, p, body);
        let mut tape = Vec::new();
        let ok = settle(terrain, p, body, Cell::new(2, 0), &mut tape);
        (t, ok, tape)
    }

    fn entries(slot: &MemoSlot) -> usize {
        slot.memo
            .borrow()
            .as_ref()
            .map_or(0, |m| m.map.values().map(Vec::len).sum())
    }

    /// Served where every read holds, recomputed where one does not: the
    /// same answers as computing directly either way.
    #[test]
    fn serves_only_where_the_terrain_it_read_holds() {
        let p = Physics::default();
        // Row 3 stands on a floor; a pit two cells right of column 5 on the
        // lower floor, none on the upper; the same floor at columns 2 and 20.
        let level: Level = "\
##############################
#............................#
#............................#
#............................#
###########################..#
#............................#
#............................#
#............................#
#####.########################
"
        .parse()
        .unwrap();
        let classes = Classification::new(&level, &p);
        let body = landed(&p);
        let frames = [(2, 3), (20, 3), (3, 7)].map(|(c, r)| Frame::new(&level, Cell::new(c, r)));
        let slot = MemoSlot::new(16 << 20);
        let [a, b, pit] = frames
            .each_ref()
            .map(|f| InFrame::new(f, &classes, Some(&slot)));
        let first = memo(&a, &p, &body);
        assert_eq!(first, direct(&a, &p, &body));
        assert!(first.1, "the settle on flat ground succeeds");
        let kept = entries(&slot);
        assert_eq!(kept, 2, "a landing and a settle kept");
        // Same terrain around another cell: served, nothing new kept.
        assert_eq!(memo(&b, &p, &body), direct(&b, &p, &body));
        assert_eq!(entries(&slot), kept);
        // A pit under the settle: a read differs, so computed and kept.
        let there = memo(&pit, &p, &body);
        assert_eq!(there, direct(&pit, &p, &body));
        assert_ne!(there, first, "the pit changes the outcome");
        assert!(entries(&slot) > kept);
    }
}
