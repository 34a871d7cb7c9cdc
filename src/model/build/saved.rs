//! A model map to and from its saved document (`io::modelfile`): the
//! programs and tapes as numbers, and the checks a loaded map passes.

use super::climb::{CLIMB_LIMIT, Climb};
use super::edge::Edge;
use super::perform::{FLIGHT_LIMIT, GROUND_LIMIT, SETTLE_LIMIT};
use super::programs::{Jump, Program};
use super::wall::WallJump;
use super::{ModelLink, ModelMap, ModelMapError, index_of, input_code, standing_cells};
use crate::io::modelfile::{Doc, DocError, LinkDoc, fingerprint};
use crate::level::{Cell, Level};
use crate::mechanics::LinkKind;
use crate::model::BodyModel;
use crate::physics::Input;

/// The longest tape a link can have: a flight and a settle.
const MAX_TAPE: usize = FLIGHT_LIMIT + SETTLE_LIMIT;

impl<M: BodyModel> ModelMap<M> {
    /// The map's document, `None` for the reference body's own map.
    pub(crate) fn to_doc(&self, format: &str, version: u32) -> Option<Doc> {
        if self.native.is_some() {
            return None;
        }
        let index = |c: &Cell| self.node_at[c];
        let links = self
            .links
            .iter()
            .map(|l| LinkDoc {
                from: index(&l.from),
                to: index(&l.to),
                kind: l.kind.name().into(),
                program: encode(&l.program.expect("a generic link has its program")),
                flight: l.flight,
                tape: l.tape.iter().map(|&i| input_code(i)).collect(),
            })
            .collect();
        Some(Doc {
            format: format.into(),
            version,
            model: self.model.name(),
            parameters: self.model.parameters(),
            level: fingerprint(&self.level),
            nodes: self.nodes.iter().map(|c| [c.col, c.row]).collect(),
            links,
        })
    }

    /// The map of a loaded document, checked link by link.
    pub(crate) fn from_doc(doc: Doc, level: &Level, model: M) -> Result<Self, DocError> {
        if level.wrap().any() {
            return Err(DocError::Build(ModelMapError::Wraps));
        }
        let nodes = standing_cells(level, &model);
        let saved: Vec<Cell> = doc.nodes.iter().map(|&[c, r]| Cell::new(c, r)).collect();
        if saved != nodes {
            return Err(DocError::Format(format!(
                "its {} standing cells are not the model's {} on this level",
                saved.len(),
                nodes.len()
            )));
        }
        let node_at = index_of(&nodes);
        let mut links = Vec::with_capacity(doc.links.len());
        let mut last = 0;
        for (index, l) in doc.links.into_iter().enumerate() {
            let link = check(level, &model, &nodes, index, l, last)?;
            last = node_at[&link.from] as usize;
            links.push(link);
        }
        Ok(Self::assemble(level, model, nodes, links, None))
    }
}

/// Link `index` of a document, checked: its ends, kind, program and tape,
/// its start not before `last` (links come in node order), and its tape
/// performed on the model from its start to rest on its end.
fn check<M: BodyModel>(
    level: &Level,
    model: &M,
    nodes: &[Cell],
    index: usize,
    l: LinkDoc,
    last: usize,
) -> Result<ModelLink, DocError> {
    let node = |i: u32| nodes.get(i as usize).copied();
    let (Some(from), Some(to)) = (node(l.from), node(l.to)) else {
        let bad = if node(l.from).is_none() { l.from } else { l.to };
        return Err(DocError::Format(format!(
            "link {index} names node {bad}, past the map's {} nodes",
            nodes.len()
        )));
    };
    let fail = |why: &str| DocError::Link {
        index,
        from,
        to,
        why: why.into(),
    };
    if (l.from as usize) < last {
        return Err(fail("it is out of node order"));
    }
    if from == to {
        return Err(fail("it ends where it starts"));
    }
    let program = decode(&l.program).ok_or_else(|| fail("its program is not one of the menu's"))?;
    let kind = LinkKind::from_name(&l.kind).filter(|&k| k == program.kind());
    let kind = kind.ok_or_else(|| fail("its kind is not its program's"))?;
    if l.tape.is_empty() || l.tape.len() > MAX_TAPE || l.flight > l.tape.len() {
        return Err(fail("its tape's length is out of bounds"));
    }
    let tape: Vec<Input> = l
        .tape
        .iter()
        .map(|&c| input(c))
        .collect::<Option<_>>()
        .ok_or_else(|| fail("its tape holds a code that is no input"))?;
    let mut s = model.start(level, from);
    for &i in &tape {
        model.step(level, &mut s, i);
    }
    if model.dead(&s) || !model.at_rest(&s) || model.standing_cell(&s) != Some(to) {
        return Err(fail("its tape does not end at rest on its end"));
    }
    Ok(ModelLink {
        kind,
        from,
        to,
        tape,
        flight: l.flight,
        program: Some(program),
    })
}

/// The input of an [`input_code`], if it is one.
fn input(c: u8) -> Option<Input> {
    (c < 24).then(|| Input::new((c / 8) as i8 - 1, c & 4 != 0, c & 2 != 0).with_up(c & 1 != 0))
}

/// A steering switch as two numbers (-1, -1 for none).
fn encode_switch(switch: Option<(usize, Input)>) -> [i32; 2] {
    switch.map_or([-1, -1], |(k, a)| [k as i32, input_code(a).into()])
}

/// A program as numbers: a tag, then its fields.
fn encode(p: &Program) -> Vec<i32> {
    let n = |t: usize| t as i32;
    match *p {
        Program::Edge(e) => {
            let [k, air] = encode_switch(e.jump.switch);
            let j = &e.jump;
            vec![
                9,
                j.dir.into(),
                n(e.walk),
                e.back.into(),
                n(e.early),
                n(j.hold),
                k,
                air,
            ]
        }
        Program::Run { dir } => vec![0, dir.into()],
        Program::WalkOff { dir, steer } => vec![1, dir.into(), steer.into()],
        Program::Drop => vec![2],
        Program::Jump(j) => {
            let [k, air] = encode_switch(j.switch);
            let (t2, h2) = j.again.map_or((-1, -1), |(t, h)| (n(t), n(h)));
            vec![3, j.dir.into(), n(j.run_up), n(j.hold), k, air, t2, h2]
        }
        Program::Hop(a, b) => vec![4, a.dir.into(), n(a.run_up), n(a.hold), n(b.hold)],
        Program::Climb(Climb::Whole { up }) => vec![5, up.into()],
        Program::Climb(Climb::Off { up, ticks, dir }) => vec![6, up.into(), n(ticks), dir.into()],
        Program::Climb(Climb::Catch { dir, jump, off }) => {
            vec![7, dir.into(), jump.into(), off.map_or(-2, i32::from)]
        }
        Program::Wall(w) => vec![
            8,
            w.dir.into(),
            n(w.run_up),
            n(w.hold),
            n(w.delay),
            w.back_after.map_or(-1, n),
            n(w.hold2),
            w.max_walls.into(),
        ],
    }
}

/// The program of [`encode`]'s numbers, if they make one whose ticks
/// stay within a flight.
fn decode(v: &[i32]) -> Option<Program> {
    let dir = |x: i32| (-1..=1).contains(&x).then_some(x as i8);
    let flag = |x: i32| (0..=1).contains(&x).then_some(x == 1);
    let ticks = |x: i32| usize::try_from(x).ok().filter(|&t| t <= FLIGHT_LIMIT);
    let jump = |d: i32, r: i32, h: i32| {
        Some(Jump {
            dir: dir(d)?,
            run_up: ticks(r)?,
            hold: ticks(h)?,
            switch: None,
            again: None,
        })
    };
    let again = |t2: i32, h2: i32| match (t2, h2) {
        (-1, -1) => Some(None),
        _ => Some(Some((ticks(t2)?, ticks(h2)?))),
    };
    let switch = |k: i32, a: i32| match (k, a) {
        (-1, -1) => Some(None),
        _ => Some(Some((ticks(k)?, input(u8::try_from(a).ok()?)?))),
    };
    Some(match *v {
        [0, d] => Program::Run { dir: dir(d)? },
        [1, d, s] => Program::WalkOff {
            dir: dir(d)?,
            steer: dir(s)?,
        },
        [2] => Program::Drop,
        [3, d, r, h, k, a, t2, h2] => Program::Jump(Jump {
            switch: switch(k, a)?,
            again: again(t2, h2)?,
            ..jump(d, r, h)?
        }),
        [4, d, r, h, h2] => Program::Hop(jump(d, r, h)?, jump(d, 0, h2)?),
        [5, up] => Program::Climb(Climb::Whole { up: flag(up)? }),
        [6, up, t, d] => Program::Climb(Climb::Off {
            up: flag(up)?,
            ticks: usize::try_from(t).ok().filter(|&t| t <= CLIMB_LIMIT)?,
            dir: dir(d)?,
        }),
        [7, d, j, off] => Program::Climb(Climb::Catch {
            dir: dir(d)?,
            jump: flag(j)?,
            off: if off == -2 { None } else { Some(dir(off)?) },
        }),
        [8, d, r, h, delay, back, h2, walls] => Program::Wall(WallJump {
            dir: dir(d)?,
            run_up: ticks(r)?,
            hold: ticks(h)?,
            delay: ticks(delay)?,
            back_after: if back == -1 { None } else { Some(ticks(back)?) },
            hold2: ticks(h2)?,
            max_walls: u8::try_from(walls).ok()?,
        }),
        [9, d, w, back, early, h, k, a] => Program::Edge(Edge {
            walk: usize::try_from(w).ok().filter(|&w| w <= GROUND_LIMIT)?,
            back: flag(back)?,
            early: usize::try_from(early).ok().filter(|&e| e <= 1)?,
            jump: Jump {
                switch: switch(k, a)?,
                ..jump(d, 0, h)?
            },
        }),
        _ => return None,
    })
}
