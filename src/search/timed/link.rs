//! A map link performed in time: from the body's real state on its tick,
//! with the platforms where they are, it must end at rest on its cell as
//! it promises. A planner forecasts it from its way with no platform
//! about, which only a platform that comes near can change.

use std::sync::Arc;

use super::memo::{Memo, Touched};
use super::menu::{first_meeting, near_cycle};
use super::world::World;
use crate::graph::{LinkId, NavMap};
use crate::links::{SETTLE_SLACK, settle_tolerance};
use crate::physics::{Body, Input};
use crate::search::path::{nudge_toward, slack_input};

/// Where a link ended at rest, with the inputs that took it there.
pub(crate) type Ended = Option<(Body, Vec<Input>)>;

/// A link's way with no platform about, from one state.
pub(crate) struct LinkWay {
    /// The body's state before each tick, and after the last.
    states: Vec<Body>,
    /// Where it ended.
    ended: Arc<Ended>,
    /// The platforms whose cycle it comes near.
    near: Vec<usize>,
}

/// Performs link `link` of `map` from `body` on tick `tick`: its state
/// and inputs when it ends at rest within the settle tolerance of its
/// cell's middle, as the link promises; `None` when it does not.
pub(super) fn perform_link(
    map: &NavMap,
    world: &World<'_>,
    link: LinkId,
    body: Body,
    tick: u64,
) -> Ended {
    let mut at = tick;
    performed(map, world, link, body, |b, input| {
        world.step(b, at, input);
        at += 1;
    })
}

/// [`perform_link`], stepping the body with `step(body, input)`.
fn performed(
    map: &NavMap,
    world: &World<'_>,
    link: LinkId,
    mut body: Body,
    mut step: impl FnMut(&mut Body, Input),
) -> Ended {
    let to = map.cell(map.target(link));
    let verbatim = map.ticks(link).saturating_sub(SETTLE_SLACK) as usize;
    let mut inputs: Vec<Input> = map.inputs(link).take(verbatim).collect();
    for &input in &inputs {
        step(&mut body, input);
    }
    let tol = settle_tolerance(world.physics) + 1e-9;
    let target = f64::from(to.col) + 0.5;
    let nudge = nudge_toward(&body, target, tol);
    for k in 0..SETTLE_SLACK {
        let input = slack_input(k, nudge);
        step(&mut body, input);
        inputs.push(input);
    }
    let rests = body.stands_on(to) && body.vx == 0.0 && (body.x - target).abs() <= tol;
    rests.then_some((body, inputs))
}

/// Where link `link` goes from `body` on tick `tick`, as `memo` forecasts
/// it: its way with no platform about (kept from the first state it was
/// asked from) where no platform comes near it on those ticks, else as
/// it was performed on a tick of the same phase of the platforms it met,
/// else performed now (and kept).
pub(super) fn forecast_link(
    map: &NavMap,
    world: &World<'_>,
    memo: &Memo,
    link: LinkId,
    body: Body,
    tick: u64,
) -> Arc<Ended> {
    let way = memo.ways.get(&link, 0).unwrap_or_else(|| {
        let way = Arc::new(way(map, world, link, body));
        let bytes = way.states.len() * size_of::<Body>();
        memo.ways.put(link, 1, 0, way.clone(), bytes);
        way
    });
    if first_meeting(world, &way.states, tick, &way.near).is_none() {
        return way.ended.clone();
    }
    if let Some(ended) = memo.links.get(&link, tick) {
        return ended;
    }
    let touched = Touched::new(world.platforms.len());
    let noting = world.noting(&touched);
    let ended = Arc::new(perform_link(map, &noting, link, body, tick));
    if let Some(m) = touched.modulus(world.platforms) {
        let bytes = ended
            .as_ref()
            .as_ref()
            .map_or(0, |e| e.1.len() * size_of::<Input>());
        memo.links.put(link, m, tick, ended.clone(), bytes);
    }
    ended
}

/// Link `link`'s way from `body` with no platform about.
fn way(map: &NavMap, world: &World<'_>, link: LinkId, body: Body) -> LinkWay {
    let (level, p) = (world.level, world.physics);
    let mut states = vec![body];
    let ended = performed(map, world, link, body, |b, input| {
        b.step(level, p, input);
        states.push(*b);
    });
    let near = (0..world.platforms.len())
        .filter(|&k| near_cycle(world, &states, k))
        .collect();
    LinkWay {
        states,
        ended: Arc::new(ended),
        near,
    }
}
