//! The edge take-offs of a model, the obvious way, as
//! `src/model/build/edge.rs` documents them: every program's walks
//! performed again from a fresh start.

use platnav::model::BodyModel;
use platnav::{Cell, Input, Level};

/// Direction, walk limit, back-up, ticks early, hold, steering switch.
pub(super) type Edge = (i8, usize, bool, usize, usize, Option<(usize, Input)>);

/// The programs, for walks of at most `walk` ticks.
pub(super) fn programs(walk: usize, holds: &[usize], switches: &[usize]) -> Vec<Edge> {
    let mut v = Vec::new();
    if walk == 0 {
        return v;
    }
    for d in [-1i8, 1] {
        for back in [false, true] {
            for early in [0, 1] {
                for &h in holds {
                    v.push((d, walk, back, early, h, None));
                    for &k in switches {
                        for a in [Input::IDLE, Input::new(-d, false, false)] {
                            v.push((d, walk, back, early, h, Some((k, a))));
                        }
                    }
                }
            }
        }
    }
    v
}

/// The first tick (from 0) after which `m`, holding `input` from `s`,
/// stands on no cell or is dead, within `walk` ticks; with the feet's x
/// after it.
fn leaves<M: BodyModel>(
    level: &Level,
    m: &M,
    mut s: M::State,
    input: Input,
    walk: usize,
) -> Option<(usize, f64)> {
    for t in 0..walk {
        m.step(level, &mut s, input);
        if m.dead(&s) || m.standing_cell(&s).is_none() {
            return Some((t, m.feet(&s)[0]));
        }
    }
    None
}

/// The walks of `e` from standing on `from`: the state and tape at the
/// jump's press.
pub(super) fn walks<M: BodyModel>(
    level: &Level,
    m: &M,
    from: Cell,
    (d, walk, back, early, _, _): Edge,
) -> Option<(M::State, Vec<Input>)> {
    let (away, toward) = (Input::new(-d, false, false), Input::new(d, false, false));
    let start = m.start(level, from);
    let mut b = 0;
    if back {
        let (big_b, _) = leaves(level, m, start.clone(), away, walk)?;
        let x0 = m.feet(&start)[0];
        let lowest = if big_b > 8 { big_b - 8 } else { 1 };
        let mut found = None;
        let mut candidate = big_b;
        while candidate > lowest {
            candidate -= 1;
            let mut s = start.clone();
            for _ in 0..candidate {
                m.step(level, &mut s, away);
            }
            if let Some((_, x)) = leaves(level, m, s, toward, walk)
                && (x - x0) * f64::from(d) > 0.0
            {
                found = Some(candidate);
                break;
            }
        }
        b = found?;
    }
    let mut s = start;
    let mut tape = Vec::new();
    for _ in 0..b {
        m.step(level, &mut s, away);
        tape.push(away);
        if m.dead(&s) {
            return None;
        }
    }
    let (l, _) = leaves(level, m, s.clone(), toward, walk)?;
    if l < early {
        return None;
    }
    for _ in 0..l - early {
        m.step(level, &mut s, toward);
        tape.push(toward);
        if m.dead(&s) {
            return None;
        }
    }
    Some((s, tape))
}
