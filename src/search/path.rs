//! Paths: the links a search chose and the input tape that performs them;
//! what a map tells about each link ([`LinkInfo`](crate::graph::LinkInfo), [`Links`](crate::graph::Links)); input tapes
//! ([`Tape`](crate::graph::Tape)); and [`replay`], which performs a tape on the reference body.

use crate::graph::memo::LinkMemo;
use crate::graph::{LazyMap, LinkId, NavMap, Tape};
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

/// What performing a chain of links reads from the map that holds them: a
/// [`NavMap`], or a [`LazyMap`](crate::LazyMap) for the links it has
/// generated.
pub(crate) trait Chain {
    /// The level the links were generated on.
    fn level(&self) -> &Level;
    /// The physics they were generated with.
    fn physics(&self) -> &Physics;
    /// Link `id`'s ticks.
    fn ticks(&self, id: LinkId) -> u32;
    /// The cell link `id` ends on.
    fn end(&self, id: LinkId) -> Cell;
    /// Link `id`'s inputs.
    fn tape(&self, id: LinkId) -> Tape<'_>;
}

impl Chain for NavMap {
    fn level(&self) -> &Level {
        NavMap::level(self)
    }
    fn physics(&self) -> &Physics {
        NavMap::physics(self)
    }
    fn ticks(&self, id: LinkId) -> u32 {
        NavMap::ticks(self, id)
    }
    fn end(&self, id: LinkId) -> Cell {
        self.cell(self.target(id))
    }
    fn tape(&self, id: LinkId) -> Tape<'_> {
        self.inputs(id)
    }
}

impl Chain for LazyMap {
    fn level(&self) -> &Level {
        LazyMap::level(self)
    }
    fn physics(&self) -> &Physics {
        LazyMap::physics(self)
    }
    fn ticks(&self, id: LinkId) -> u32 {
        LazyMap::ticks(self, id)
    }
    fn end(&self, id: LinkId) -> Cell {
        self.cell(self.target(id))
    }
    fn tape(&self, id: LinkId) -> Tape<'_> {
        self.inputs(id)
    }
}

/// Performs a chain of links from standing on `start`: each tape verbatim
/// up to its [`SETTLE_SLACK`] ticks, which hold one corrective nudge when the
/// body is more than the settle tolerance off the cell centre (see
/// [`crate::links`]). Returns the tape, or the first link that did not end at
/// rest within the tolerance of its cell's centre.
///
/// A link that fails from where the one before left the body (a knife-edge
/// jump, performable from the centre but not from a hair beside it) is
/// tried again after the other nudges of the previous link's slack: the
/// same ticks, the body a nudge further left or right ([`retry`]).
///
/// A link already performed from the bit-identical start state takes its
/// outcome from the map's memo ([`memo`](crate::graph::memo)), which holds exactly what
/// performing it computed; every link's end is checked either way.
pub(crate) fn realize(map: &NavMap, start: Cell, links: &[LinkId]) -> Result<Vec<Input>, LinkId> {
    realize_with(map, start, links, Some(map.memo()))
}

/// A link performed in a chain: where it started and where its slack
/// begins in the tape, for [`retry`].
#[derive(Clone, Copy)]
struct Performed {
    id: LinkId,
    before: Body,
    slack_at: usize,
    nudge: i8,
}

/// [`realize`], with or without a memo.
pub(super) fn realize_with(
    map: &impl Chain,
    start: Cell,
    links: &[LinkId],
    memo: Option<&LinkMemo>,
) -> Result<Vec<Input>, LinkId> {
    let (level, p) = (map.level(), map.physics());
    let mut body = Body::start(level, start, p);
    let mut tape = Vec::with_capacity(links.iter().map(|&l| map.ticks(l) as usize).sum());
    let mut last: Option<Performed> = None;
    for &id in links {
        let done = match perform(map, id, body, &mut tape, memo) {
            Some(done) => Some(done),
            None => last.and_then(|prev| retry(map, prev, id, &mut tape, memo)),
        };
        let Some((end, performed)) = done else {
            return Err(id);
        };
        body = end;
        last = Some(performed);
    }
    // `body` was driven by exactly `tape` from the start state and checked
    // at every link's end: the loop above is the replay that proves the path.
    debug_assert!(
        links
            .last()
            .is_none_or(|&l| replay(level, p, start, &tape).stands_on(map.end(l)))
    );
    Ok(tape)
}

/// Performs link `id` from `body`, appending its inputs to `tape`: the end
/// state, when it stands at rest on the link's target within the settle
/// tolerance of its centre; else `None`, with `tape` as it was.
fn perform(
    map: &impl Chain,
    id: LinkId,
    mut body: Body,
    tape: &mut Vec<Input>,
    memo: Option<&LinkMemo>,
) -> Option<(Body, Performed)> {
    let (level, p) = (map.level(), map.physics());
    let tol = settle_tolerance(p) + 1e-9;
    let to = map.end(id);
    let verbatim = map.ticks(id).saturating_sub(SETTLE_SLACK) as usize;
    let target_x = f64::from(to.col) + 0.5;
    let (before, start_len) = (body, tape.len());
    let nudge = if let Some((end, nudge)) = memo.and_then(|m| m.get(id.0, &body)) {
        extend_runs(tape, map, id, verbatim);
        body = end;
        nudge
    } else {
        for input in map.tape(id).take(verbatim) {
            body.step(level, p, input);
            tape.push(input);
        }
        let nudge = nudge_toward(&body, target_x, tol);
        for k in 0..SETTLE_SLACK {
            body.step(level, p, slack_input(k, nudge));
        }
        if let Some(m) = memo {
            m.put(id.0, &before, &body, nudge);
        }
        nudge
    };
    let slack_at = tape.len();
    tape.extend((0..SETTLE_SLACK).map(|k| slack_input(k, nudge)));
    if !body.stands_on(to) || body.vx != 0.0 || (body.x - target_x).abs() > tol {
        tape.truncate(start_len);
        return None;
    }
    let performed = Performed {
        id,
        before,
        slack_at,
        nudge,
    };
    Some((body, performed))
}

/// The nudge the slack holds: a push toward `target_x` when the body is at
/// rest more than `tol` from it.
pub(super) fn nudge_toward(body: &Body, target_x: f64, tol: f64) -> i8 {
    let err = target_x - body.x;
    if body.vx == 0.0 && err.abs() > tol {
        if err > 0.0 { 1 } else { -1 }
    } else {
        0
    }
}

/// Link `id` failed from where `prev` left the body: performs `prev`'s
/// slack with each other nudge (the body then rests up to one and a half
/// nudges off its centre, still on its cell and at rest) and `id` from
/// there, rewriting `prev`'s slack in `tape` for the first that works.
/// The tape keeps its ticks: a nudge is one of the slack's.
fn retry(
    map: &impl Chain,
    prev: Performed,
    id: LinkId,
    tape: &mut Vec<Input>,
    memo: Option<&LinkMemo>,
) -> Option<(Body, Performed)> {
    let (level, p) = (map.level(), map.physics());
    let mut settled = prev.before;
    let verbatim = map.ticks(prev.id).saturating_sub(SETTLE_SLACK) as usize;
    for input in map.tape(prev.id).take(verbatim) {
        settled.step(level, p, input);
    }
    let to = map.end(prev.id);
    for nudge in [-1, 0, 1].into_iter().filter(|&n| n != prev.nudge) {
        let mut body = settled;
        for k in 0..SETTLE_SLACK {
            body.step(level, p, slack_input(k, nudge));
        }
        let off = (body.x - (f64::from(to.col) + 0.5)).abs();
        if !body.stands_on(to) || body.vx != 0.0 || off > 3.0 * settle_tolerance(p) + 1e-9 {
            continue;
        }
        if let Some(done) = perform(map, id, body, tape, memo) {
            for k in 0..SETTLE_SLACK {
                tape[prev.slack_at + k as usize] = slack_input(k, nudge);
            }
            return Some(done);
        }
    }
    None
}

/// Appends the first `n` inputs of link `id`'s tape, run by run.
fn extend_runs(tape: &mut Vec<Input>, map: &impl Chain, id: LinkId, mut n: usize) {
    for (input, len) in map.tape(id).runs() {
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
pub(super) fn slack_input(k: u32, nudge: i8) -> Input {
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

    /// SMB 1-1 with the `smb` preset, (22,4) to (169,8): one link of the
    /// route misses from where the link before leaves the body, and is
    /// performed after another nudge of that link's slack.
    #[cfg(feature = "serde")]
    #[test]
    fn a_link_that_misses_from_the_chain_is_performed_after_another_nudge() {
        use std::path::Path as FsPath;
        let dir = FsPath::new(env!("CARGO_MANIFEST_DIR")).join("levels/smb");
        let legend = crate::formats::VglcLegend::load(&dir.join("legend.json")).unwrap();
        let level = Level::load_vglc(&dir.join("mario-1-1.txt"), &legend).unwrap();
        let map = NavMap::build(&level, &Physics::smb()).unwrap();
        let (s, g) = (
            map.node(Cell::new(22, 4)).unwrap(),
            map.node(Cell::new(169, 8)).unwrap(),
        );
        let opts = SearchOptions::default();
        let route = crate::search::search_route(&map, s, g, &opts, &[])
            .unwrap()
            .0
            .unwrap();
        // Without retries: some link misses.
        let mut body = Body::start(&level, map.cell(s), map.physics());
        let mut tape = Vec::new();
        let missed = route
            .links
            .iter()
            .any(|&id| match perform(&map, id, body, &mut tape, None) {
                Some((end, _)) => {
                    body = end;
                    false
                }
                None => true,
            });
        assert!(missed, "every link performed without a retry");
        let tape = realize_with(&map, map.cell(s), &route.links, None).unwrap();
        assert_eq!(tape.len() as u32, route.ticks);
        assert!(replay(&level, map.physics(), map.cell(s), &tape).stands_on(map.cell(g)));
    }

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
