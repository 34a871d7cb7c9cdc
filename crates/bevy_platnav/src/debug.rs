//! Gizmo debug drawing through platnav's own drawing code
//! ([`platnav::render`]): the pictures the CLI renders and the visualizer
//! shows, over the game's world.

use bevy::gizmos::gizmos::GizmoBuffer;
use bevy::math::Isometry2d;
use bevy::prelude::*;
use platnav::render::{self, DebugDrawer, Rgba};

use crate::agent::{NavAgent, NavBody, NavFollower, ReferenceMotion};
use crate::level::{NavLevel, NavProfile};
use crate::platform::NavPlatforms;
use crate::transform::NavTransform;

/// What [`NavDebugPlugin`] draws; `enabled` is the switch.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct NavDebug {
    /// Draw at all (on by default).
    pub enabled: bool,
    /// Whose map to draw nodes and links of: `None` for the first profile.
    pub profile: Option<NavProfile>,
    /// Each standing cell's node type, in the Bosonauts palette.
    pub nodes: bool,
    /// Every link along its trajectory, coloured by kind (many lines on a
    /// large level).
    pub links: bool,
    /// Each agent's path, replayed from its tape (over moving platforms,
    /// performed with them).
    pub paths: bool,
    /// The moving platforms ([`NavPlatforms`]): each one's way, and where
    /// it is on the current tick.
    pub platforms: bool,
    /// The box of every body with [`ReferenceMotion`].
    pub bodies: bool,
}

impl Default for NavDebug {
    /// Enabled: nodes, paths, platforms and bodies; links off.
    fn default() -> Self {
        Self {
            enabled: true,
            profile: None,
            nodes: true,
            links: false,
            paths: true,
            platforms: true,
            bodies: true,
        }
    }
}

/// Draws nav maps, paths and bodies with gizmos (in `Update`, while
/// [`NavDebug::enabled`]). Needs Bevy's gizmo plugin (in `DefaultPlugins`
/// with the `bevy_gizmos` feature) and a camera to be seen.
#[derive(Debug, Default, Clone, Copy)]
pub struct NavDebugPlugin;

impl Plugin for NavDebugPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<NavDebug>()
            .add_systems(Update, draw.run_if(|d: Res<NavDebug>| d.enabled));
    }
}

/// A [`DebugDrawer`] over Bevy's gizmos (a [`Gizmos`] system parameter,
/// which derefs to a [`GizmoBuffer`], or a retained `GizmoAsset`'s buffer):
/// platnav's tile coordinates are placed in the world through a
/// [`NavTransform`]. Gizmos draw outlines, so filled rectangles and discs
/// are outlined; line widths are the gizmo config's.
pub struct GizmoDrawer<'a, Config: GizmoConfigGroup = DefaultGizmoConfigGroup, Clear = ()>
where
    Clear: 'static + Send + Sync,
{
    gizmos: &'a mut GizmoBuffer<Config, Clear>,
    place: NavTransform,
}

impl<'a, Config: GizmoConfigGroup, Clear: 'static + Send + Sync> GizmoDrawer<'a, Config, Clear> {
    /// Draws on `gizmos`, placing tiles through `place`.
    pub fn new(gizmos: &'a mut GizmoBuffer<Config, Clear>, place: NavTransform) -> Self {
        Self { gizmos, place }
    }
}

fn color(c: Rgba) -> Color {
    Color::srgba_u8(c.r, c.g, c.b, c.a)
}

impl<Config: GizmoConfigGroup, Clear: 'static + Send + Sync> DebugDrawer
    for GizmoDrawer<'_, Config, Clear>
{
    fn fill_rect(&mut self, x: f32, y: f32, w: f32, h: f32, c: Rgba) {
        let centre = self
            .place
            .to_world(f64::from(x + w / 2.0), f64::from(y + h / 2.0));
        let size = Vec2::new(w, h) * self.place.tile_size;
        self.gizmos
            .rect_2d(Isometry2d::from_translation(centre), size, color(c));
    }

    fn line(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, _width: f32, c: Rgba) {
        let a = self.place.to_world(f64::from(x0), f64::from(y0));
        let b = self.place.to_world(f64::from(x1), f64::from(y1));
        self.gizmos.line_2d(a, b, color(c));
    }

    fn circle(&mut self, x: f32, y: f32, radius: f32, c: Rgba) {
        let centre = self.place.to_world(f64::from(x), f64::from(y));
        self.gizmos.circle_2d(
            Isometry2d::from_translation(centre),
            radius * self.place.tile_size,
            color(c),
        );
    }
}

/// The body colour of [`NavDebug::bodies`].
const BODY: Rgba = Rgba::rgb(255, 255, 255);

fn draw(
    debug: Res<NavDebug>,
    nav: Option<Res<NavLevel>>,
    platforms: Option<Res<NavPlatforms>>,
    place: Res<NavTransform>,
    agents: Query<(&NavAgent, &NavFollower)>,
    bodies: Query<(&NavBody, &ReferenceMotion)>,
    mut gizmos: Gizmos,
) {
    let Some(nav) = nav else { return };
    let mut d = GizmoDrawer::new(&mut gizmos, *place);
    let profile = debug.profile.or_else(|| nav.profiles().next());
    if let Some(map) = profile.and_then(|p| nav.map(p)) {
        if debug.nodes {
            render::draw_nodes(&mut d, map);
        }
        if debug.links {
            render::draw_links(&mut d, map);
        }
    }
    let moving = platforms.as_deref().filter(|p| !p.platforms().is_empty());
    if debug.platforms
        && let Some(p) = moving
    {
        render::draw_platforms(&mut d, p.platforms(), p.tick());
    }
    if debug.paths {
        for (agent, follow) in &agents {
            let Some(map) = nav.map(agent.profile) else {
                continue;
            };
            if let (true, Some(p), Some(path)) = (follow.is_timed(), moving, follow.timed().path())
            {
                let (level, physics) = (map.level(), map.physics());
                render::draw_timed_path(&mut d, level, physics, p.platforms(), path, None);
            } else if let Some(path) = follow.follower().path() {
                render::draw_path(&mut d, map.level(), map.physics(), path);
            }
        }
    }
    if debug.bodies {
        for (body, motion) in &bodies {
            if motion.0.index() < nav.profiles().len() {
                render::draw_body(&mut d, body, nav.physics(motion.0), BODY);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tile coordinates land where the transform puts them, in the
    /// colours platnav gives them.
    #[test]
    fn gizmo_drawer_places_tiles_in_the_world() {
        let mut buffer = GizmoBuffer::<DefaultGizmoConfigGroup, ()>::new();
        let mut d = GizmoDrawer::new(&mut buffer, NavTransform::pixels(10.0, 5));
        // The cell (1, 4), the level's bottom row: world x 10..20, y 0..10.
        render::draw_cell_outline(&mut d, platnav::Cell::new(1, 4), 0.1, Rgba::rgb(255, 0, 0));
        let p = &buffer.list_positions;
        assert_eq!(p.len(), 8, "four lines");
        assert!(
            p.iter()
                .all(|p| (p.x == 10.0 || p.x == 20.0) && (p.y == 0.0 || p.y == 10.0)),
            "{p:?}"
        );
        // Top-left (1, 4) in tiles is (10, 10) in the world, y up.
        assert_eq!(p[0], Vec3::new(10.0, 10.0, 0.0));
        assert_eq!(p[1], Vec3::new(20.0, 10.0, 0.0));
        assert!(buffer.list_colors.iter().all(|c| *c == LinearRgba::RED));
        // A disc's outline is a strip around its world centre.
        let mut buffer = GizmoBuffer::<DefaultGizmoConfigGroup, ()>::new();
        GizmoDrawer::new(&mut buffer, NavTransform::pixels(10.0, 5)).circle(1.5, 4.5, 0.5, BODY);
        let ring = &buffer.strip_positions;
        assert!(ring.len() > 8);
        for q in ring.iter().filter(|q| q.is_finite()) {
            let r = (q.truncate() - Vec2::new(15.0, 5.0)).length();
            assert!((r - 5.0).abs() < 1e-3, "{q}");
        }
    }
}
