//! The JSON documents of `PHYSICS.md` (paths) and of `platnav links --json`
//! (maps), built from the library's plain data.

use serde_json::{Value, json};

use crate::graph::NavMap;
use crate::level::{Cell, Platform};
use crate::physics::{Input, Physics};
use crate::search::Path;
use crate::search::PathError;
use crate::search::timed::{Place, TimedKind, TimedPath};

fn cell(c: Cell) -> Value {
    json!([c.col, c.row])
}

/// The per-tick `[move, jump, down]` triples of a tape, with a fourth
/// element `1` on ticks that hold up ([`Input::to_elements`]).
#[must_use]
pub fn tape_to_json(inputs: &[Input]) -> Value {
    Value::Array(inputs.iter().map(|i| json!(i.to_elements())).collect())
}

/// Reads a `[[move, jump, down], ...]` tape, each tick optionally with a
/// fourth element, up.
///
/// # Errors
/// A message naming the first bad tick.
pub fn tape_from_json(v: &Value) -> Result<Vec<Input>, String> {
    let arr = v.as_array().ok_or("inputs: not an array")?;
    arr.iter()
        .enumerate()
        .map(|(i, t)| {
            let t = t.as_array().filter(|t| (3..=4).contains(&t.len()));
            let elements = t.and_then(|t| t.iter().map(Value::as_i64).collect::<Option<Vec<_>>>());
            elements
                .and_then(|e| Input::from_elements(&e))
                .ok_or_else(|| {
                    format!("inputs[{i}]: not a [move, jump, down] or [move, jump, down, up] tick")
                })
        })
        .collect()
}

/// A found path in the format at the end of `PHYSICS.md`.
#[must_use]
pub fn path_to_json(path: &Path, physics: &Physics) -> Value {
    json!({
        "found": true,
        "start": cell(path.start()),
        "goal": cell(path.goal()),
        "cost": path.cost(),
        "physics": physics,
        "links": path.steps().iter().map(|s| json!({
            "kind": s.kind.name(),
            "from": cell(s.from),
            "to": cell(s.to),
        })).collect::<Vec<_>>(),
        "inputs": tape_to_json(path.inputs()),
    })
}

/// A path over moving platforms: its start tick and the platforms (as
/// the level gave them, so that the tape can be performed without the
/// level file's reader), its steps and inputs.
#[must_use]
pub fn timed_path_to_json(path: &TimedPath, physics: &Physics, platforms: &[Platform]) -> Value {
    let place = |p: Place| match p {
        Place::Cell(c) => json!({ "cell": cell(c) }),
        Place::Platform { platform, slot } => json!({ "platform": platform, "slot": slot }),
    };
    json!({
        "found": true,
        "start": place(path.start),
        "start_tick": path.start_tick,
        "goal": cell(path.goal),
        "ticks": path.ticks(),
        "physics": physics,
        "platforms": platforms,
        "steps": path.steps.iter().map(|s| json!({
            "kind": match s.kind {
                TimedKind::Link(k) => k.name(),
                TimedKind::Board => "board",
                TimedKind::Leave => "leave",
            },
            "from": place(s.from),
            "to": place(s.to),
            "tick": s.tick,
            "ticks": s.ticks,
        })).collect::<Vec<_>>(),
        "inputs": tape_to_json(&path.inputs),
    })
}

/// `{"found": false, "error": "..."}`.
#[must_use]
pub fn path_error_to_json(err: &PathError) -> Value {
    json!({ "found": false, "error": err.to_string() })
}

/// The whole map: physics, every cell's node type, every link with its tape.
#[must_use]
pub fn map_to_json(map: &NavMap) -> Value {
    let level = map.level();
    let classes = map.classification();
    let mut nodes = Vec::with_capacity(level.width() * level.height());
    for row in 0..level.height() as i32 {
        for col in 0..level.width() as i32 {
            let c = Cell::new(col, row);
            nodes.push(json!({ "cell": cell(c), "type": classes.get(c).name() }));
        }
    }
    let p = map.physics();
    let links: Vec<Value> = map
        .links()
        .map(|l| {
            let tape: Vec<_> = map.inputs(l.id).collect();
            json!({
                "kind": l.kind.name(),
                "from": cell(l.from),
                "to": cell(l.to),
                "cost": l.cost(p),
                "inputs": tape_to_json(&tape),
            })
        })
        .collect();
    json!({ "physics": p, "nodes": nodes, "links": links })
}
