//! The climb programs of a model that climbs ladders, the obvious way:
//! each performed from a fresh start, as `src/model/build/climb.rs`
//! documents them.

use platnav::model::BodyModel;
use platnav::{Cell, Input, Level, Tile};

use super::GROUND_LIMIT;

/// Rows an off program may climb first.
const RUNGS: usize = 64;
/// Ticks a climb program may take.
const CLIMB_LIMIT: usize = 4_000;

/// A climb program.
#[derive(Clone, Copy, Debug)]
pub(super) enum Climb {
    /// `up` (true) or `down` held until standing again.
    Whole(bool),
    /// `up` or `down` for the ticks, then the jump moving the direction.
    Off(bool, usize, i8),
    /// Direction, jump held; then `up` alone, or one tick of it and the
    /// jump moving the direction.
    Catch(i8, bool, Option<i8>),
}

fn up() -> Input {
    Input::IDLE.with_up(true)
}

fn down() -> Input {
    Input::new(0, false, true)
}

fn held(going_up: bool) -> Input {
    if going_up { up() } else { down() }
}

/// Ticks of holding `up` until the feet rise `n` rows, and of holding
/// `down` until they sink `n` rows, `n` = 1, 2, ... (at most [`RUNGS`]),
/// on a ladder in column 4 of a level 9 wide and `RUNGS + 4` high (rows 1
/// to the floor): `None` when the model never climbs going up.
pub(super) fn rungs<M: BodyModel>(m: &M) -> Option<(Vec<usize>, Vec<usize>)> {
    let (w, h) = (9usize, RUNGS + 4);
    let mut tiles = vec![Tile::EMPTY; w * h];
    for (i, t) in tiles.iter_mut().enumerate() {
        let (col, row) = (i % w, i / w);
        if row == h - 1 {
            *t = Tile::SOLID;
        } else if col == 4 && row >= 1 {
            *t = Tile::LADDER;
        }
    }
    let level = Level::new(w, h, tiles).ok()?;
    let ups = table(m, &level, Cell::new(4, h as i32 - 2), up(), -1.0);
    if ups.is_empty() {
        return None;
    }
    let downs = table(m, &level, Cell::new(4, 0), down(), 1.0);
    Some((ups, downs))
}

fn table<M: BodyModel>(m: &M, level: &Level, at: Cell, input: Input, dir: f64) -> Vec<usize> {
    let mut s = m.start(level, at);
    let start_y = m.feet(&s)[1];
    let (mut v, mut ever) = (Vec::new(), false);
    let mut tick = 0;
    while tick < CLIMB_LIMIT && v.len() < RUNGS {
        tick += 1;
        m.step(level, &mut s, input);
        if m.dead(&s) {
            break;
        }
        let climbing = m.climbing(&s);
        ever = ever || climbing;
        let rows = (m.feet(&s)[1] - start_y) * dir;
        while v.len() < RUNGS && rows >= v.len() as f64 + 1.0 - 1e-9 {
            v.push(tick);
        }
        if (ever && !climbing) || (!ever && tick >= GROUND_LIMIT) {
            break;
        }
    }
    if ever { v } else { Vec::new() }
}

/// The climb programs from `from`, in the library's order.
pub(super) fn programs(level: &Level, from: Cell, rungs: &(Vec<usize>, Vec<usize>)) -> Vec<Climb> {
    let is_ladder = |col: i32, row: i32| level.get(Cell::new(col, row)) == Some(Tile::LADDER);
    let mut v = Vec::new();
    // Up from the feet tile, then down from the tile under it.
    for (going_up, ticks, row, dr) in [
        (true, &rungs.0, from.row, -1),
        (false, &rungs.1, from.row + 1, 1),
    ] {
        if !is_ladder(from.col, row) {
            continue;
        }
        v.push(Climb::Whole(going_up));
        let mut n = 0;
        while is_ladder(from.col, row + dr * n as i32) {
            n += 1;
        }
        for &t in ticks.iter().take(n.min(RUNGS)) {
            v.push(Climb::Off(going_up, t, -1));
            v.push(Climb::Off(going_up, t, 1));
        }
    }
    let mut near = false;
    for dr in -4..=1 {
        for dc in -3..=3 {
            near |= is_ladder(from.col + dc, from.row + dr);
        }
    }
    if near {
        for d in [-1i8, 1] {
            for jump in [false, true] {
                v.push(Climb::Catch(d, jump, None));
                v.push(Climb::Catch(d, jump, Some(-1)));
                v.push(Climb::Catch(d, jump, Some(1)));
            }
        }
    }
    v
}

/// A body performing a climb: its state, its tape, and whether it has
/// left the ground (climbing counts).
struct Body<S> {
    s: S,
    tape: Vec<Input>,
    left: bool,
}

impl<S> Body<S> {
    /// One tick; `None` when the body dies.
    fn step<M: BodyModel<State = S>>(&mut self, level: &Level, m: &M, i: Input) -> Option<()> {
        m.step(level, &mut self.s, i);
        self.tape.push(i);
        self.left = self.left || m.standing_cell(&self.s).is_none();
        (!m.dead(&self.s)).then_some(())
    }

    fn stands_again<M: BodyModel<State = S>>(&self, m: &M) -> bool {
        self.left && m.standing_cell(&self.s).is_some()
    }

    /// Holds `i` until the body stands again after leaving the ground.
    fn until_down<M: BodyModel<State = S>>(
        &mut self,
        level: &Level,
        m: &M,
        i: Input,
    ) -> Option<()> {
        while self.tape.len() < CLIMB_LIMIT {
            self.step(level, m, i)?;
            if self.stands_again(m) {
                return Some(());
            }
            if !self.left && self.tape.len() >= GROUND_LIMIT {
                return None;
            }
        }
        None
    }
}

/// Performs `c` from standing on `from`: the end state and the tape, when
/// the body stands again as the program asks.
pub(super) fn perform<M: BodyModel>(
    level: &Level,
    m: &M,
    from: Cell,
    c: Climb,
) -> Option<(M::State, Vec<Input>)> {
    let mut b = Body {
        s: m.start(level, from),
        tape: Vec::new(),
        left: false,
    };
    match c {
        Climb::Whole(going_up) => b.until_down(level, m, held(going_up))?,
        Climb::Off(going_up, ticks, d) => {
            for _ in 0..ticks {
                b.step(level, m, held(going_up))?;
                if b.stands_again(m) {
                    return None;
                }
            }
            if !m.climbing(&b.s) {
                return None;
            }
            b.until_down(level, m, Input::new(d, true, false))?;
        }
        Climb::Catch(d, jump, then) => {
            let reach = Input::new(d, jump, false).with_up(true);
            loop {
                if b.tape.len() >= CLIMB_LIMIT {
                    return None;
                }
                b.step(level, m, reach)?;
                if b.stands_again(m) {
                    return None;
                }
                if m.climbing(&b.s) {
                    break;
                }
                if !b.left && b.tape.len() >= GROUND_LIMIT {
                    return None;
                }
            }
            match then {
                None => b.until_down(level, m, up())?,
                Some(e) => {
                    b.step(level, m, up())?;
                    if b.stands_again(m) {
                        return None;
                    }
                    b.until_down(level, m, Input::new(e, true, false))?;
                }
            }
        }
    }
    Some((b.s, b.tape))
}
