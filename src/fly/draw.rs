//! Pictures of free space: its triangles, its outline and paths, through
//! the same [`DebugDrawer`] as every other picture.

use super::{FlyPath, FreeSpace};
use crate::render::{DebugDrawer, PATH_OUTLINE, Rgba};

/// The fill of the free space (translucent green).
pub const FREE_COLOR: Rgba = Rgba {
    r: 60,
    g: 200,
    b: 120,
    a: 70,
};

/// The triangles' edges: the mesh the search walks.
pub const MESH_COLOR: Rgba = Rgba {
    r: 120,
    g: 230,
    b: 170,
    a: 90,
};

/// A flying agent's path (cyan).
pub const FLY_PATH_COLOR: Rgba = Rgba::rgb(60, 220, 255);

/// The outline where free space meets obstacles.
const OUTLINE_COLOR: Rgba = Rgba::rgb(90, 255, 160);

/// Draws the free space: its triangles filled, their edges (the
/// navigation mesh), and its outline where it meets obstacles. Units are
/// the free space's own (tiles for levels).
pub fn draw_free_space(d: &mut dyn DebugDrawer, space: &FreeSpace, mesh: bool) {
    for t in space.triangles() {
        d.fill_triangle(t.map(|p| (p.x as f32, p.y as f32)), FREE_COLOR);
    }
    if mesh {
        for [a, b, c] in space.triangles() {
            for (p, q) in [(a, b), (b, c), (c, a)] {
                d.line(
                    p.x as f32, p.y as f32, q.x as f32, q.y as f32, 0.03, MESH_COLOR,
                );
            }
        }
    }
    for (p, q) in space.boundary_edges() {
        d.line(
            p.x as f32,
            p.y as f32,
            q.x as f32,
            q.y as f32,
            0.06,
            OUTLINE_COLOR,
        );
    }
}

/// Draws a path: a thick line through its corners, a dot at each corner,
/// rings at the start and goal.
pub fn draw_fly_path(d: &mut dyn DebugDrawer, path: &FlyPath, width: f32) {
    for (w, color) in [(2.0 * width, PATH_OUTLINE), (width, FLY_PATH_COLOR)] {
        for s in path.points.windows(2) {
            let (a, b) = (s[0], s[1]);
            d.line(a.x as f32, a.y as f32, b.x as f32, b.y as f32, w, color);
        }
    }
    for p in &path.points {
        d.circle(p.x as f32, p.y as f32, 1.2 * width, FLY_PATH_COLOR);
    }
    for (p, c) in [
        (path.start(), Rgba::rgb(80, 255, 80)),
        (path.goal(), Rgba::rgb(255, 80, 80)),
    ] {
        d.circle(
            p.x as f32,
            p.y as f32,
            2.5 * width,
            Rgba::rgb(255, 255, 255),
        );
        d.circle(p.x as f32, p.y as f32, 1.8 * width, c);
    }
}
