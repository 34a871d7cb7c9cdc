//! The naive builder of links for any body model: the oracle of
//! `ModelMap::build` (`tests/model_maps.rs`).
//!
//! It performs the programs that `src/model/build/programs.rs` lists, the
//! obvious way: every program from tick 0 on a fresh start (no flight
//! shared between a jump and its steering branches), every landing
//! settled (no bound to skip a settle that cannot win), one cell after
//! the other. It keeps per target and kind the link with the fewest
//! ticks, then the first tape in input order.

use std::collections::HashMap;

mod climb;
mod edge;
mod wall;

use platnav::model::BodyModel;
use platnav::{Cell, Input, Level, LinkKind, Tile};

/// Flight, settle, braking and ground limits (ticks), and the settle's
/// tolerance (tiles), as `src/model/build/perform.rs` documents them.
const FLIGHT_LIMIT: usize = 600;
const SETTLE_LIMIT: usize = 240;
const BRAKE_LIMIT: usize = 120;
const GROUND_LIMIT: usize = 120;
const TOLERANCE: f64 = 0.07;

/// A link found by the naive model builder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NaiveModelLink {
    /// Where it starts.
    pub from: Cell,
    /// Where it ends.
    pub to: Cell,
    /// Its kind.
    pub kind: LinkKind,
    /// Its inputs.
    pub tape: Vec<Input>,
}

/// One program: per tick, the input from the tick and whether the body
/// stands, or `None` to give up.
#[derive(Clone, Copy)]
enum Program {
    Run(i8),
    WalkOff(i8, i8),
    Drop,
    /// dir, run-up, hold, switch, second press (flight tick, hold).
    Jump(
        i8,
        usize,
        usize,
        Option<(usize, Input)>,
        Option<(usize, usize)>,
    ),
    /// dir, run-up, hold; then the second jump's hold.
    Hop(i8, usize, usize, usize),
    /// A jump with wall jumps (`wall.rs`).
    Wall(wall::Wall),
    /// An edge take-off (`edge.rs`).
    Edge(edge::Edge),
}

/// Every link of every cell `model` stands on, by start row and column,
/// then target row, column and kind.
pub fn model_links<M: BodyModel>(level: &Level, model: &M) -> Vec<NaiveModelLink> {
    let nodes = standing(level, model);
    let menu = menu(model);
    let rungs = if level.tiles().contains(&Tile::LADDER) {
        climb::rungs(model)
    } else {
        None
    };
    let mut out = Vec::new();
    for &from in &nodes {
        let mut best: HashMap<(Cell, LinkKind), NaiveModelLink> = HashMap::new();
        let climbs = rungs
            .as_ref()
            .map(|r| climb::programs(level, from, r))
            .unwrap_or_default();
        let links = menu
            .iter()
            .map(|p| perform(level, model, from, *p, &nodes))
            .chain(climbs.iter().map(|&c| {
                let (s, tape) = climb::perform(level, model, from, c)?;
                finish(level, model, from, (s, tape), LinkKind::CLIMB, &nodes)
            }));
        for link in links {
            let Some(link) = link else {
                continue;
            };
            let key = (link.to, link.kind);
            let wins = best.get(&key).is_none_or(|b| {
                (link.tape.len(), codes(&link.tape)) < (b.tape.len(), codes(&b.tape))
            });
            if wins {
                best.insert(key, link);
            }
        }
        let mut v: Vec<NaiveModelLink> = best.into_values().collect();
        v.sort_by_key(|l| (l.to.row, l.to.col, l.kind.index()));
        out.extend(v);
    }
    out
}

fn codes(tape: &[Input]) -> Vec<u8> {
    tape.iter()
        .map(|i| {
            (i.move_x + 1) as u8 * 8 + u8::from(i.jump) * 4 + u8::from(i.down) * 2 + u8::from(i.up)
        })
        .collect()
}

/// Non-solid cells the model stands at rest on at its start and after
/// each of two idle ticks.
fn standing<M: BodyModel>(level: &Level, m: &M) -> Vec<Cell> {
    let mut v = Vec::new();
    for row in 0..level.height() as i32 {
        for col in 0..level.width() as i32 {
            let c = Cell::new(col, row);
            if level.get(c) == Some(Tile::SOLID) {
                continue;
            }
            let mut s = m.start(level, c);
            let mut ok = m.at_rest(&s) && m.standing_cell(&s) == Some(c);
            for _ in 0..2 {
                m.step(level, &mut s, Input::IDLE);
                ok = ok && !m.dead(&s) && m.at_rest(&s) && m.standing_cell(&s) == Some(c);
            }
            if ok {
                v.push(c);
            }
        }
    }
    v
}

/// The probe: ticks to a held jump's apex on open ground (0 when it never
/// rises), the first tick a run reaches its top speed, whether a jump
/// held to the apex, released a tick and pressed again rises again within
/// two ticks, and an edge take-off's walk limit (the ticks to top speed,
/// plus the ticks a tile takes at top speed, plus 1, at most the ground
/// limit; 0 when the run never moves).
fn probe<M: BodyModel>(m: &M) -> (usize, usize, bool, usize) {
    let (w, h) = (96usize, 66usize);
    let mut tiles = vec![Tile::EMPTY; w * h];
    for t in &mut tiles[w * (h - 1)..] {
        *t = Tile::SOLID;
    }
    let level = Level::new(w, h, tiles).unwrap();
    let cell = Cell::new(48, h as i32 - 2);
    let mut s = m.start(&level, cell);
    let (mut apex, mut rose) = (0, false);
    for t in 1..=600 {
        m.step(&level, &mut s, Input::new(0, true, false));
        let vy = m.velocity(&s)[1];
        rose |= vy < 0.0;
        if rose && vy >= 0.0 {
            apex = t;
            break;
        }
    }
    let mut s = m.start(&level, cell);
    let (mut full, mut top) = (0, 0.0);
    for t in 1..=300 {
        m.step(&level, &mut s, Input::new(1, false, false));
        if m.velocity(&s)[0] > top {
            (full, top) = (t, m.velocity(&s)[0]);
        }
    }
    let mut again = false;
    if apex > 0 {
        let mut s = m.start(&level, cell);
        for t in 0..apex + 3 {
            m.step(&level, &mut s, Input::new(0, t != apex, false));
            if t > apex && m.velocity(&s)[1] < 0.0 {
                again = true;
                break;
            }
        }
    }
    let walk = if top > 0.0 {
        let w = full as f64 + (1.0 / (top * m.dt())).ceil() + 1.0;
        if w >= GROUND_LIMIT as f64 {
            GROUND_LIMIT
        } else {
            w as usize
        }
    } else {
        0
    };
    (apex, full, again, walk)
}

fn menu<M: BodyModel>(m: &M) -> Vec<Program> {
    let mut v = vec![Program::Drop];
    for d in [-1i8, 1] {
        v.push(Program::Run(d));
        for s in [d, 0, -d] {
            v.push(Program::WalkOff(d, s));
        }
    }
    let (apex, full, air_jump, walk) = probe(m);
    if apex == 0 {
        return v;
    }
    let pick = |c: &[usize], max: usize| {
        let mut t: Vec<usize> = c.iter().copied().filter(|&t| t >= 1 && t <= max).collect();
        t.sort_unstable();
        t.dedup();
        t
    };
    let holds = pick(&[2, 4, 7, 11, 16, apex], apex);
    let switches = pick(&[3, 8, apex / 2, apex, apex + apex / 2], 4 * apex);
    let mut air: Vec<Input> = Vec::new();
    for i in m.inputs() {
        let a = Input::new(i.move_x, false, i.down);
        if !air.contains(&a) {
            air.push(a);
        }
    }
    for d in [-1i8, 0, 1] {
        let mut run_ups = if d == 0 {
            vec![0]
        } else {
            vec![0, full / 2, full]
        };
        run_ups.dedup();
        for &r in &run_ups {
            for &h in &holds {
                v.push(Program::Jump(d, r, h, None, None));
                if d != 0 {
                    for &h2 in &holds {
                        v.push(Program::Hop(d, r, h, h2));
                    }
                }
                for &k in &switches {
                    for &a in &air {
                        if a != Input::new(d, false, false) {
                            v.push(Program::Jump(d, r, h, Some((k, a)), None));
                        }
                    }
                }
            }
        }
    }
    if air_jump {
        for d in [-1i8, 0, 1] {
            let run_ups: std::collections::BTreeSet<usize> =
                if d == 0 { [0].into() } else { [0, full].into() };
            for r in run_ups {
                for t2 in pick(&[apex / 2, apex, apex + apex / 2], 3 * apex) {
                    for h2 in pick(&[4, apex], apex) {
                        let h = apex.min(t2.saturating_sub(1)).max(1);
                        v.push(Program::Jump(d, r, h, None, Some((t2, h2))));
                        for &a in &air {
                            if a != Input::new(d, false, false) {
                                let k = t2 + apex / 2;
                                v.push(Program::Jump(d, r, h, Some((k, a)), Some((t2, h2))));
                            }
                        }
                    }
                }
            }
        }
    }
    v.extend(
        edge::programs(walk, &holds, &switches)
            .into_iter()
            .map(Program::Edge),
    );
    if wall::lifts(m, apex) {
        v.extend(wall::programs(apex, full).into_iter().map(Program::Wall));
    }
    v
}

/// Performs `p` from `from`; its link, if it lands, settles and ends on
/// another node.
fn perform<M: BodyModel>(
    level: &Level,
    m: &M,
    from: Cell,
    p: Program,
    nodes: &[Cell],
) -> Option<NaiveModelLink> {
    let mut s = m.start(level, from);
    let mut tape = Vec::new();
    let kind = match p {
        Program::Run(d) => {
            let next = Cell::new(from.col + i32::from(d), from.row);
            settle(level, m, &mut s, &mut tape, next).then_some(())?;
            LinkKind::RUN
        }
        Program::WalkOff(d, steer) => {
            fly(level, m, &mut s, &mut tape, 0, |_, _, air| {
                Some(Input::new(if air { steer } else { d }, false, false))
            })?;
            LinkKind::FALL
        }
        Program::Drop => {
            fly(level, m, &mut s, &mut tape, 0, |_, _, air| {
                Some(if air {
                    Input::IDLE
                } else {
                    Input::new(0, false, true)
                })
            })?;
            LinkKind::DROP
        }
        Program::Jump(d, run_up, hold, switch, second) => {
            jump(
                level,
                m,
                &mut s,
                &mut tape,
                (d, run_up, hold, switch, second),
            )?;
            if second.is_some() {
                LinkKind::DOUBLE_JUMP
            } else {
                LinkKind::JUMP
            }
        }
        Program::Hop(d, run_up, hold, again) => {
            jump(level, m, &mut s, &mut tape, (d, run_up, hold, None, None))?;
            jump(level, m, &mut s, &mut tape, (d, 0, again, None, None))?;
            LinkKind::JUMP
        }
        Program::Wall(w) => {
            (s, tape) = wall::perform(level, m, from, w)?;
            LinkKind::WALL_JUMP
        }
        Program::Edge(e) => {
            (s, tape) = edge::walks(level, m, from, e)?;
            let (d, _, _, _, hold, switch) = e;
            jump(level, m, &mut s, &mut tape, (d, 0, hold, switch, None))?;
            LinkKind::JUMP
        }
    };
    finish(level, m, from, (s, tape), kind, nodes)
}

/// The link of a program performed from `from` to state `s` by `tape`:
/// settled on the cell braking alone brings it to rest on, when that is
/// another node.
fn finish<M: BodyModel>(
    level: &Level,
    m: &M,
    from: Cell,
    (mut s, mut tape): (M::State, Vec<Input>),
    kind: LinkKind,
    nodes: &[Cell],
) -> Option<NaiveModelLink> {
    // Where braking alone brings it to rest.
    let mut b = s.clone();
    let mut to = None;
    for _ in 0..BRAKE_LIMIT {
        if m.at_rest(&b) {
            to = m.standing_cell(&b);
            break;
        }
        m.step(level, &mut b, Input::IDLE);
        if m.dead(&b) || m.standing_cell(&b).is_none() {
            break;
        }
    }
    let to = to?;
    if to == from || !nodes.contains(&to) {
        return None;
    }
    settle(level, m, &mut s, &mut tape, to).then_some(())?;
    Some(NaiveModelLink {
        from,
        to,
        kind,
        tape,
    })
}

/// A jump's direction, run-up, hold, steering switch and second press.
type JumpSpec = (
    i8,
    usize,
    usize,
    Option<(usize, Input)>,
    Option<(usize, usize)>,
);

/// A jump: direction, run-up, hold, steering switch and second press.
fn jump<M: BodyModel>(
    level: &Level,
    m: &M,
    s: &mut M::State,
    tape: &mut Vec<Input>,
    (d, run_up, hold, switch, second): JumpSpec,
) -> Option<()> {
    fly(level, m, s, tape, run_up, |t, stands, _| {
        if t < run_up {
            return stands.then(|| Input::new(d, false, false));
        }
        let ft = t - run_up;
        let mut i = match switch {
            Some((k, a)) if ft >= k => a,
            _ => Input::new(d, false, false),
        };
        let again = second.is_some_and(|(t2, h2)| ft >= t2 && ft < t2 + h2);
        i.jump = ft < hold || again;
        Some(i)
    })
}

/// Gives `input(tick, stands, left the ground)`, the tick counted from
/// the call, until the body stands again after leaving the ground; `None` when it dies, gives up, is
/// still on the ground [`GROUND_LIMIT`] ticks after its `run_up`, or
/// flies past the limit.
fn fly<M: BodyModel>(
    level: &Level,
    m: &M,
    s: &mut M::State,
    tape: &mut Vec<Input>,
    run_up: usize,
    input: impl Fn(usize, bool, bool) -> Option<Input>,
) -> Option<()> {
    let mut air = false;
    let origin = tape.len();
    while tape.len() < FLIGHT_LIMIT {
        let t = tape.len() - origin;
        let i = input(t, m.standing_cell(s).is_some(), air)?;
        m.step(level, s, i);
        tape.push(i);
        if m.dead(s) {
            return None;
        }
        let stands = m.standing_cell(s).is_some();
        if air && stands {
            return Some(());
        }
        air |= !stands;
        if !air && tape.len() - origin >= run_up + GROUND_LIMIT {
            return None;
        }
    }
    None
}

/// Brings the body to rest within the tolerance of `cell`'s middle,
/// standing on it.
fn settle<M: BodyModel>(
    level: &Level,
    m: &M,
    s: &mut M::State,
    tape: &mut Vec<Input>,
    cell: Cell,
) -> bool {
    let mid = f64::from(cell.col) + 0.5;
    for _ in 0..SETTLE_LIMIT {
        let x = m.feet(s)[0];
        if m.at_rest(s) && (x - mid).abs() <= TOLERANCE {
            return m.standing_cell(s) == Some(cell);
        }
        let dir: i8 = if mid > x { 1 } else { -1 };
        let toward = Input::new(dir, false, false);
        let input = if m.velocity(s)[0] * f64::from(dir) < 0.0 {
            toward
        } else {
            let mut b = s.clone();
            for _ in 0..BRAKE_LIMIT {
                if m.velocity(&b)[0] == 0.0 {
                    break;
                }
                m.step(level, &mut b, Input::IDLE);
            }
            if (mid - m.feet(&b)[0]) * f64::from(dir) > TOLERANCE {
                toward
            } else {
                Input::IDLE
            }
        };
        m.step(level, s, input);
        tape.push(input);
        if m.dead(s) {
            return false;
        }
    }
    false
}
