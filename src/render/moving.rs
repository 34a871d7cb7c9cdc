//! Moving platforms and paths in time (`PHYSICS.md`, "Moving platforms"):
//! each platform's way over its cycle and where it is on a tick, and a
//! timed path's trajectory, performed tick by tick with the platforms
//! where they are on each tick, with marks where it boards and leaves
//! them.

use super::{
    DebugDrawer, Layers, PATH_COLOR, PATH_OUTLINE, PATH_WIDTH, Rgba, centre, draw_ground,
    draw_overlays, draw_trajectory, link_color,
};
use crate::graph::NavMap;
use crate::level::{Cell, Level, Moving, PlatformLoop, Platforms};
use crate::physics::{Body, Physics};
use crate::search::timed::{Place, TimedKind, TimedPath};

/// The colour of a moving platform: filled where it is on the drawn tick,
/// translucent for its way, outlined where a path boards or leaves it.
pub const PLATFORM_COLOR: Rgba = Rgba::rgb(250, 100, 80);

/// Width of a platform's way (the line its middle follows over a cycle)
/// and of the outlines of its ends (tiles).
pub const PLATFORM_WAY_WIDTH: f32 = 0.08;

/// Opacity of a platform's way and of the outlines at its ends.
pub const PLATFORM_WAY_ALPHA: u8 = 140;

/// Width of the outline of a platform where a path boards or leaves it
/// (tiles).
pub const PLATFORM_MARK_WIDTH: f32 = 0.1;

/// Outlines the rectangle with top-left corner `(x, y)`.
fn outline(d: &mut dyn DebugDrawer, (x, y): (f32, f32), (w, h): (f32, f32), width: f32, c: Rgba) {
    let (x1, y1) = (x + w, y + h);
    d.line(x, y, x1, y, width, c);
    d.line(x1, y, x1, y1, width, c);
    d.line(x1, y1, x, y1, width, c);
    d.line(x, y1, x, y, width, c);
}

/// A platform's top-left corner and size on tick `tick`, in tiles.
fn platform_box(m: &Moving, tick: u64) -> ((f32, f32), (f32, f32)) {
    let [x, y] = m.at(tick);
    let size = (m.platform.width as f32, m.platform.height as f32);
    ((x as f32, y as f32), size)
}

/// Draws one platform's way over its cycle: a thin translucent line that
/// its middle follows through the points of its path (back to the first
/// for a platform that loops), and its outline at each point. A platform
/// that stays (one point) has no way.
pub fn draw_platform_way(d: &mut dyn DebugDrawer, m: &Moving) {
    let points = &m.platform.points;
    if points.len() < 2 {
        return;
    }
    let color = PLATFORM_COLOR.with_alpha(PLATFORM_WAY_ALPHA);
    let (w, h) = (m.platform.width as f32, m.platform.height as f32);
    let middle = |p: &[f64; 2]| (p[0] as f32 + w / 2.0, p[1] as f32 + h / 2.0);
    let mut way: Vec<(f32, f32)> = points.iter().map(middle).collect();
    if m.platform.looped == PlatformLoop::Loop {
        way.push(way[0]);
    }
    for pair in way.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        d.line(x0, y0, x1, y1, PLATFORM_WAY_WIDTH, color);
    }
    for p in points {
        outline(
            d,
            (p[0] as f32, p[1] as f32),
            (w, h),
            PLATFORM_WAY_WIDTH / 2.0,
            color,
        );
    }
}

/// Draws one platform where it is on tick `tick`: a rectangle filled in
/// [`PLATFORM_COLOR`], edged in the path's dark outline.
pub fn draw_platform(d: &mut dyn DebugDrawer, m: &Moving, tick: u64) {
    let ((x, y), (w, h)) = platform_box(m, tick);
    d.fill_rect(x, y, w, h, PLATFORM_COLOR);
    outline(d, (x, y), (w, h), 0.05, PATH_OUTLINE);
}

/// Draws every platform of a level: each one's way over its cycle
/// ([`draw_platform_way`]), then each one where it is on tick `tick`
/// ([`draw_platform`]), so that no way is drawn over a platform.
pub fn draw_platforms(d: &mut dyn DebugDrawer, platforms: &Platforms, tick: u64) {
    for m in platforms.all() {
        draw_platform_way(d, m);
    }
    for m in platforms.all() {
        draw_platform(d, m, tick);
    }
}

/// The state a timed path starts from, as [`find_path_timed`] plans it:
/// standing on its start cell; or, for a path that starts on a platform,
/// at rest on the middle of the tile of its width the path names, where
/// the platform is on the path's start tick.
///
/// [`find_path_timed`]: crate::search::timed::find_path_timed
#[must_use]
pub fn timed_start(
    level: &Level,
    physics: &Physics,
    platforms: &Platforms,
    path: &TimedPath,
) -> Body {
    match path.start {
        Place::Cell(c) => Body::start(level, c, physics),
        Place::Platform { platform, slot } => {
            let mut body = Body::standing(Cell::new(0, 0), physics);
            if let Some(m) = platforms.all().get(platform as usize) {
                let [x, y] = m.at(path.start_tick);
                body.x = x + f64::from(slot) + 0.5;
                body.y = y;
            }
            body
        }
    }
}

/// The body's state on every tick of a timed path: `start` on the path's
/// start tick, then after each input, each tick performed with
/// [`Body::step_moving`] and the platforms where they are on it (the
/// motion the body really performs).
#[must_use]
pub fn timed_bodies(
    level: &Level,
    physics: &Physics,
    platforms: &Platforms,
    start: &Body,
    path: &TimedPath,
) -> Vec<Body> {
    let mut body = *start;
    let mut bodies = Vec::with_capacity(path.inputs.len() + 1);
    bodies.push(body);
    for (i, &input) in path.inputs.iter().enumerate() {
        body.step_moving(level, platforms, path.start_tick + i as u64, physics, input);
        bodies.push(body);
    }
    bodies
}

/// Where a performed timed path boards or leaves a platform.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RideMark {
    /// True where it boards, false where it leaves.
    pub boards: bool,
    /// The platform's index in the level's list.
    pub platform: usize,
    /// The tick: the first the body rides the platform (boarding), or the
    /// last (leaving).
    pub tick: u64,
    /// The body's state on that tick.
    pub body: Body,
}

/// The ticks where the bodies of a timed path ([`timed_bodies`], the first
/// on tick `start_tick`) start or stop riding a platform
/// ([`Body::riding`]), in order.
#[must_use]
pub fn ride_marks(
    bodies: &[Body],
    physics: &Physics,
    platforms: &Platforms,
    start_tick: u64,
) -> Vec<RideMark> {
    let riding: Vec<Option<usize>> = bodies
        .iter()
        .enumerate()
        .map(|(i, b)| b.riding(platforms, start_tick + i as u64, physics))
        .collect();
    let mut marks = Vec::new();
    for i in 1..riding.len() {
        let (before, now) = (riding[i - 1], riding[i]);
        if before == now {
            continue;
        }
        if let Some(platform) = before {
            marks.push(RideMark {
                boards: false,
                platform,
                tick: start_tick + (i - 1) as u64,
                body: bodies[i - 1],
            });
        }
        if let Some(platform) = now {
            marks.push(RideMark {
                boards: true,
                platform,
                tick: start_tick + i as u64,
                body: bodies[i],
            });
        }
    }
    marks
}

/// Draws a path in time ([`TimedPath`]): its inputs performed tick by
/// tick from `start` (`None`: from [`timed_start`]) with the platforms
/// moving ([`timed_bodies`]), as a thick white line through the body's
/// middle; a dot in the link's colour at the end of each link of the
/// map; where it boards a platform, the platform outlined where it is on
/// that tick and a disc of [`PLATFORM_COLOR`] ringed in white at the
/// feet; where it leaves one, the platform outlined on that tick and a
/// hollow ring of [`PLATFORM_COLOR`] at the feet; and rings at the start and
/// the goal, as [`draw_path`](super::draw_path) draws them.
pub fn draw_timed_path(
    d: &mut dyn DebugDrawer,
    level: &Level,
    physics: &Physics,
    platforms: &Platforms,
    path: &TimedPath,
    start: Option<&Body>,
) {
    let start = start
        .copied()
        .unwrap_or_else(|| timed_start(level, physics, platforms, path));
    let bodies = timed_bodies(level, physics, platforms, &start, path);
    let marks = ride_marks(&bodies, physics, platforms, path.start_tick);
    for m in &marks {
        if let Some(platform) = platforms.all().get(m.platform) {
            let (at, size) = platform_box(platform, m.tick);
            outline(d, at, size, PLATFORM_MARK_WIDTH, PLATFORM_COLOR);
        }
    }
    draw_trajectory(d, &bodies, physics, 2.0 * PATH_WIDTH, PATH_OUTLINE);
    draw_trajectory(d, &bodies, physics, PATH_WIDTH, PATH_COLOR);
    for s in &path.steps {
        if let (TimedKind::Link(kind), Place::Cell(c)) = (s.kind, s.to) {
            let (x, y) = (c.col as f32 + 0.5, c.row as f32 + 0.5);
            d.circle(x, y, 0.14, link_color(kind));
        }
    }
    for m in &marks {
        let (x, y) = (m.body.x as f32, m.body.y as f32);
        if m.boards {
            d.circle(x, y, 0.3, PATH_COLOR);
            d.circle(x, y, 0.2, PLATFORM_COLOR);
        } else {
            d.circle(x, y, 0.3, PLATFORM_COLOR);
            d.circle(x, y, 0.16, PATH_OUTLINE);
        }
    }
    let from = match path.start {
        Place::Cell(c) => (c.col as f32 + 0.5, c.row as f32 + 0.5),
        Place::Platform { .. } => centre(&start, physics),
    };
    let goal = (path.goal.col as f32 + 0.5, path.goal.row as f32 + 0.5);
    for ((x, y), color) in [
        (from, Rgba::rgb(80, 255, 80)),
        (goal, Rgba::rgb(255, 80, 80)),
    ] {
        d.circle(x, y, 0.35, PATH_COLOR);
        d.circle(x, y, 0.25, color);
    }
}

/// Draws the selected layers of a map on a level with moving platforms,
/// bottom to top: tiles (with the seams of a level that wraps) and the
/// platforms, their ways and where they are on tick `tick`
/// ([`draw_platforms`], drawn with the tiles layer), nodes, links, and
/// the path in time (the path layer only when a path is given; see
/// [`draw_timed_path`], from [`timed_start`]).
pub fn draw_timed_map(
    d: &mut dyn DebugDrawer,
    map: &NavMap,
    platforms: &Platforms,
    tick: u64,
    path: Option<&TimedPath>,
    layers: Layers,
) {
    draw_ground(d, map, layers);
    if layers.tiles {
        draw_platforms(d, platforms, tick);
    }
    draw_overlays(d, map, layers);
    if let (true, Some(p)) = (layers.path, path) {
        draw_timed_path(d, map.level(), map.physics(), platforms, p, None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Platform;

    /// Records the rectangles filled in one colour.
    #[derive(Default)]
    struct Fills(Vec<[f32; 4]>);

    impl DebugDrawer for Fills {
        fn fill_rect(&mut self, x: f32, y: f32, w: f32, h: f32, color: Rgba) {
            if color == PLATFORM_COLOR {
                self.0.push([x, y, w, h]);
            }
        }
        fn line(&mut self, _: f32, _: f32, _: f32, _: f32, _: f32, _: Rgba) {}
        fn circle(&mut self, _: f32, _: f32, _: f32, _: Rgba) {}
    }

    #[test]
    fn each_platform_is_filled_where_it_is_on_the_tick() {
        let lift = Platform {
            width: 3,
            height: 1,
            points: vec![[2.0, 5.0], [6.0, 5.0]],
            speed: 3.0,
            pause: 0,
            looped: PlatformLoop::BackAndForth,
            offset: 0,
        };
        let platforms = Platforms::new(vec![lift], 1.0 / 60.0).unwrap();
        for (tick, x) in [(0, 2.0), (40, 4.0), (80, 6.0), (120, 4.0)] {
            let mut d = Fills::default();
            draw_platforms(&mut d, &platforms, tick);
            assert_eq!(d.0, [[x, 5.0, 3.0, 1.0]], "tick {tick}");
        }
    }
}
