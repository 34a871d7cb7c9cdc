//! Paths: the links a search chose and the input tape that performs them;
//! what a map tells about each link ([`LinkInfo`](crate::graph::LinkInfo), [`Links`](crate::graph::Links)); input tapes
//! ([`Tape`](crate::graph::Tape)); and [`replay`], which performs a tape on the reference body.

use crate::graph::memo::LinkMemo;
use crate::graph::{LinkId, NavMap};
use crate::level::{Cell, Level};
use crate::links::{LinkKind, SETTLE_SLACK, settle_tolerance};
use crate::physics::{Body, Input, Physics};

use super::SearchStats;

/// One link of a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PathStep {
    /// The link in the map.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub link: LinkId,
    /// Its kind.
    pub kind: LinkKind,
    /// Its start cell.
    pub from: Cell,
    /// Its end cell.
    pub to: Cell,
    /// Its duration in ticks.
    pub ticks: u32,
}

/// A path the body can perform: replaying [`Path::inputs`] from standing on
/// [`Path::start`] ends alive and standing on [`Path::goal`]. Every path
/// [`find_path`](crate::find_path) returns has been replayed before it is returned.
#[derive(Debug, Clone, PartialEq)]
pub struct Path {
    start: Cell,
    goal: Cell,
    steps: Vec<PathStep>,
    ticks: u32,
    cost: f64,
    inputs: Vec<Input>,
    stats: SearchStats,
}

impl Path {
    pub(crate) fn new(
        start: Cell,
        goal: Cell,
        steps: Vec<PathStep>,
        ticks: u32,
        dt: f64,
        inputs: Vec<Input>,
        stats: SearchStats,
    ) -> Self {
        Self {
            start,
            goal,
            steps,
            ticks,
            cost: f64::from(ticks) * dt,
            inputs,
            stats,
        }
    }

    /// The standing cell the path starts on (after snapping).
    #[must_use]
    pub fn start(&self) -> Cell {
        self.start
    }

    /// The standing cell the path ends on (after snapping).
    #[must_use]
    pub fn goal(&self) -> Cell {
        self.goal
    }

    /// The links, in order.
    #[must_use]
    pub fn steps(&self) -> &[PathStep] {
        &self.steps
    }

    /// Duration in seconds (ticks times `dt`).
    #[must_use]
    pub fn cost(&self) -> f64 {
        self.cost
    }

    /// Duration in ticks; equals `inputs().len()`.
    #[must_use]
    pub fn ticks(&self) -> u32 {
        self.ticks
    }

    /// The per-tick input tape.
    #[must_use]
    pub fn inputs(&self) -> &[Input] {
        &self.inputs
    }

    /// Search counters.
    #[must_use]
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Number of jump presses that took effect along the path.
    #[must_use]
    pub fn jump_count(&self, map: &NavMap) -> u32 {
        self.steps
            .iter()
            .map(|s| u32::from(map.link(s.link).jumps))
            .sum()
    }

    /// Replays the tape from standing on the start and returns the final body.
    #[must_use]
    pub fn replay(&self, level: &Level, physics: &Physics) -> Body {
        replay(level, physics, self.start, &self.inputs)
    }
}

/// Replays a tape from standing on `start`: the body's state after its
/// last input, stepped by the reference physics.
///
/// ```
/// use platnav::search::replay;
/// use platnav::{Cell, Input, Level, Physics};
///
/// let level: Level = "......\n......\n######".parse()?;
/// let physics = Physics::default();
/// // Idle for a second: the body stays where it stood.
/// let body = replay(&level, &physics, Cell::new(2, 1), &[Input::default(); 60]);
/// assert!(body.stands_on(Cell::new(2, 1)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn replay(level: &Level, physics: &Physics, start: Cell, inputs: &[Input]) -> Body {
    let mut body = Body::start(level, start, physics);
    for &i in inputs {
        body.step(level, physics, i);
    }
    body
}

/// Performs a chain of links from standing on `start`: each tape verbatim
/// up to its [`SETTLE_SLACK`] ticks, which hold one corrective nudge when the
/// body is more than the settle tolerance off the cell centre (see
/// [`crate::links`]). Returns the tape, or the first link that did not end at
/// rest within the tolerance of its cell's centre.
///
/// A link already performed from the bit-identical start state takes its
/// outcome from the map's memo ([`memo`](crate::graph::memo)), which holds exactly what
/// performing it computed; every link's end is checked either way.
pub(crate) fn realize(map: &NavMap, start: Cell, links: &[LinkId]) -> Result<Vec<Input>, LinkId> {
    realize_with(map, start, links, Some(map.memo()))
}

/// [`realize`], with or without a memo.
fn realize_with(
    map: &NavMap,
    start: Cell,
    links: &[LinkId],
    memo: Option<&LinkMemo>,
) -> Result<Vec<Input>, LinkId> {
    let (level, p) = (map.level(), map.physics());
    let tol = settle_tolerance(p) + 1e-9;
    let mut body = Body::start(level, start, p);
    let mut tape = Vec::with_capacity(links.iter().map(|&l| map.ticks(l) as usize).sum());
    for &id in links {
        let ticks = map.ticks(id);
        let to = map.cell(map.target(id));
        let verbatim = ticks.saturating_sub(SETTLE_SLACK) as usize;
        let target_x = f64::from(to.col) + 0.5;
        let nudge = if let Some((end, nudge)) = memo.and_then(|m| m.get(id.0, &body)) {
            extend_runs(&mut tape, map, id, verbatim);
            body = end;
            nudge
        } else {
            let before = body;
            for input in map.inputs(id).take(verbatim) {
                body.step(level, p, input);
                tape.push(input);
            }
            let err = target_x - body.x;
            let nudge = if body.vx == 0.0 && err.abs() > tol {
                if err > 0.0 { 1 } else { -1 }
            } else {
                0
            };
            for k in 0..SETTLE_SLACK {
                body.step(level, p, slack_input(k, nudge));
            }
            if let Some(m) = memo {
                m.put(id.0, &before, &body, nudge);
            }
            nudge
        };
        tape.extend((0..SETTLE_SLACK).map(|k| slack_input(k, nudge)));
        if !body.stands_on(to) || body.vx != 0.0 || (body.x - target_x).abs() > tol {
            return Err(id);
        }
    }
    // `body` was driven by exactly `tape` from the start state and checked
    // at every link's end: the loop above is the replay that proves the path.
    debug_assert!(
        links
            .last()
            .is_none_or(|&l| replay(level, p, start, &tape).stands_on(map.cell(map.target(l))))
    );
    Ok(tape)
}

/// Appends the first `n` inputs of link `id`'s tape, run by run.
fn extend_runs(tape: &mut Vec<Input>, map: &NavMap, id: LinkId, mut n: usize) {
    for (input, len) in map.inputs(id).runs() {
        let len = len.min(n);
        tape.extend(std::iter::repeat_n(input, len));
        n -= len;
        if n == 0 {
            break;
        }
    }
}

/// The input of settle-slack tick `k`: the nudge (push toward the centre)
/// on the first, idle otherwise.
fn slack_input(k: u32, nudge: i8) -> Input {
    if k == 0 && nudge != 0 {
        Input::new(nudge, false, false)
    } else {
        Input::IDLE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::NodeId;
    use crate::{SearchOptions, level::SplitMix64};

    #[test]
    fn memoised_replay_is_bit_identical_to_stepping_every_link() {
        let level = Level::generate(64, 64, 42).unwrap();
        let map = NavMap::build(&level, &Physics::default()).unwrap();
        let mut rng = SplitMix64::new(3);
        let n = map.node_count() as u64;
        let mut routes = Vec::new();
        while routes.len() < 120 {
            let (a, b) = (NodeId(rng.below(n) as u32), NodeId(rng.below(n) as u32));
            if let Ok((Some(route), _)) =
                crate::search::search_route(&map, a, b, &SearchOptions::default(), &[])
            {
                routes.push((map.cell(a), route.links));
            }
        }
        // Twice over the same routes: the second pass is served by the memo.
        for pass in 0..2 {
            let before = crate::search::replay_memo_counts(&map);
            for (start, links) in &routes {
                let stepped = realize_with(&map, *start, links, None);
                assert_eq!(realize(&map, *start, links), stepped);
                if let Ok(tape) = &stepped {
                    let end = replay(&level, map.physics(), *start, tape);
                    let last = links.last().map(|&l| map.cell(map.target(l)));
                    assert!(last.is_none_or(|c| end.stands_on(c)));
                }
            }
            let (hits, misses) = crate::search::replay_memo_counts(&map);
            let (hits, misses) = (hits - before.0, misses - before.1);
            // The second pass finds what the first stored, but for entries
            // a colliding one replaced (the table is direct-mapped).
            if pass == 1 {
                assert!(hits > 2 * misses, "{hits} hits, {misses} misses");
            }
        }
    }
}
