//! One drawing code for every picture of a map: tiles, node types, links
//! along their real trajectories, and paths, drawn through the
//! renderer-agnostic [`DebugDrawer`] trait.
//!
//! Coordinates are in tiles: `x` grows to the right, `y` downward, the
//! top-left corner of cell `(col, row)` is `(col, row)`. A drawer maps tiles
//! to its pixels (the PNG `Canvas` with a scale and a crop, the macroquad
//! visualizer with its camera), so the window and the PNG show the same
//! picture.
//!
//! Every [`NodeType`], [`Tile`] and [`LinkKind`] has one fixed colour
//! ([`node_color`], [`tile_color`], [`link_color`]); no two node types share
//! one, and no node colour is used for anything else, so a picture can be
//! read (and tested) by colour.

#[cfg(feature = "render")]
mod canvas;
mod moving;

#[cfg(feature = "render")]
pub use canvas::{Canvas, Crop, RenderError, RenderOptions, render_map, render_timed};
pub use moving::{
    PLATFORM_COLOR, PLATFORM_MARK_WIDTH, PLATFORM_WAY_ALPHA, PLATFORM_WAY_WIDTH, RideMark,
    draw_platform, draw_platform_way, draw_platforms, draw_timed_map, draw_timed_path, ride_marks,
    timed_bodies, timed_start,
};

use crate::classify::NodeType;
use crate::graph::{LinkId, NavMap, NodeId};
use crate::level::{Cell, Level, Tile};
use crate::links::LinkKind;
use crate::mechanics::{self, seam::Glyph};
use crate::physics::{Body, Physics};
use crate::search;
use crate::search::Path;

/// An 8-bit RGBA colour (straight, not premultiplied, alpha).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgba {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Alpha: 255 is opaque.
    pub a: u8,
}

impl Rgba {
    /// An opaque colour.
    #[must_use]
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Self { r, g, b, a: 255 }
    }

    /// This colour with alpha `a`.
    #[must_use]
    pub const fn with_alpha(self, a: u8) -> Self {
        Self { a, ..self }
    }
}

/// The primitives every picture is made of, in tile coordinates.
///
/// Implement it for a window, an image or a test recorder; the `draw_*`
/// functions of this module do the rest.
pub trait DebugDrawer {
    /// Fills the axis-aligned rectangle with top-left corner `(x, y)`.
    fn fill_rect(&mut self, x: f32, y: f32, w: f32, h: f32, color: Rgba);
    /// A straight line `width` tiles wide.
    fn line(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, width: f32, color: Rgba);
    /// A filled disc.
    fn circle(&mut self, x: f32, y: f32, radius: f32, color: Rgba);
    /// A filled triangle. The default outlines it with thin lines, for
    /// drawers that cannot fill one.
    fn fill_triangle(&mut self, pts: [(f32, f32); 3], color: Rgba) {
        for i in 0..3 {
            let (a, b) = (pts[i], pts[(i + 1) % 3]);
            self.line(a.0, a.1, b.0, b.1, 0.02, color);
        }
    }
}

/// Which layers [`draw_map`] draws, bottom to top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Layers {
    /// The level's tiles.
    pub tiles: bool,
    /// Node types (inset squares in the palette's colours).
    pub nodes: bool,
    /// Every link along its sampled trajectory, coloured by kind.
    pub links: bool,
    /// The path's replayed trajectory.
    pub path: bool,
}

impl Default for Layers {
    /// Every layer.
    fn default() -> Self {
        Self::ALL
    }
}

/// A layer name [`Layers::parse`] does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown layer {0:?} (known: tiles, nodes, links, path)")]
pub struct UnknownLayer(pub String);

impl Layers {
    /// Every layer.
    pub const ALL: Layers = Layers {
        tiles: true,
        nodes: true,
        links: true,
        path: true,
    };

    /// No layer.
    pub const NONE: Layers = Layers {
        tiles: false,
        nodes: false,
        links: false,
        path: false,
    };

    /// Parses a comma-separated list such as `tiles,nodes,path`.
    ///
    /// # Errors
    /// [`UnknownLayer`] naming the first unknown entry.
    pub fn parse(list: &str) -> Result<Self, UnknownLayer> {
        let mut layers = Self::NONE;
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match name {
                "tiles" => layers.tiles = true,
                "nodes" => layers.nodes = true,
                "links" => layers.links = true,
                "path" => layers.path = true,
                "all" => layers = Self::ALL,
                _ => return Err(UnknownLayer(name.to_string())),
            }
        }
        Ok(layers)
    }
}

/// The background: the colour of [`Tile::EMPTY`] cells.
pub const BACKGROUND: Rgba = Rgba::rgb(24, 26, 33);

/// The colour of a path's trajectory.
pub const PATH_COLOR: Rgba = Rgba::rgb(255, 255, 255);

/// The dark outline under a path's trajectory.
pub const PATH_OUTLINE: Rgba = Rgba::rgb(0, 0, 0);

/// The fixed colour of each node type (the Bosonauts palette), as its
/// mechanic declares it.
#[must_use]
pub fn node_color(t: NodeType) -> Rgba {
    rgb(mechanics::node(t).colour)
}

/// The fixed colour of each tile, as its mechanic declares it.
#[must_use]
pub fn tile_color(t: Tile) -> Rgba {
    rgb(mechanics::tile(t).colour)
}

/// The fixed colour of each link kind (drawn translucent), as its family
/// declares it.
#[must_use]
pub fn link_color(k: LinkKind) -> Rgba {
    rgb(k.colour())
}

fn rgb([r, g, b]: [u8; 3]) -> Rgba {
    Rgba::rgb(r, g, b)
}

/// Draws every tile in [`tile_color`], each by the glyph its mechanic
/// declares: a full cell, or on the background a triangle (a slope's solid
/// part) or lines (a ladder's rails and rungs).
pub fn draw_tiles(d: &mut dyn DebugDrawer, level: &Level) {
    let w = level.width();
    for (i, &t) in level.tiles().iter().enumerate() {
        let (c, r) = ((i % w) as f32, (i / w) as f32);
        draw_tile(d, c, r, t);
    }
}

/// Draws one tile with its top-left corner at `(c, r)` (see [`draw_tiles`]).
pub fn draw_tile(d: &mut dyn DebugDrawer, c: f32, r: f32, t: Tile) {
    let color = tile_color(t);
    let at = |(x, y): (f32, f32)| (c + x, r + y);
    match mechanics::tile(t).glyph {
        Glyph::Fill => d.fill_rect(c, r, 1.0, 1.0, color),
        Glyph::Triangle(corners) => {
            d.fill_rect(c, r, 1.0, 1.0, BACKGROUND);
            d.fill_triangle(corners.map(at), color);
        }
        Glyph::Lines(lines, width) => {
            d.fill_rect(c, r, 1.0, 1.0, BACKGROUND);
            for &(a, b) in lines {
                let ((x0, y0), (x1, y1)) = (at(a), at(b));
                d.line(x0, y0, x1, y1, width, color);
            }
        }
    }
}

/// The inset of a node square from its cell's sides (tiles).
pub const NODE_INSET: f32 = 0.12;

/// Draws the node type of every cell as an inset square in
/// [`node_color`]. Air is not drawn (it is the background), and neither is
/// [`NodeType::BLOCKED`] on solid tiles (only cells the agent does not fit
/// in although they are open are marked blocked).
pub fn draw_nodes(d: &mut dyn DebugDrawer, map: &NavMap) {
    let level = map.level();
    let w = level.width();
    let side = 1.0 - 2.0 * NODE_INSET;
    for (i, &t) in map.classification().types().iter().enumerate() {
        let solid = level.tiles()[i].is_solid();
        if t == NodeType::AIR || (t == NodeType::BLOCKED && solid) {
            continue;
        }
        let (c, r) = ((i % w) as f32, (i / w) as f32);
        d.fill_rect(c + NODE_INSET, r + NODE_INSET, side, side, node_color(t));
    }
}

/// The point drawn for a body: the middle of its box.
fn centre(b: &Body, p: &Physics) -> (f32, f32) {
    (b.x as f32, (b.y - p.h / 2.0) as f32)
}

/// Draws a sampled trajectory as a polyline through the bodies' centres.
/// A tick that crosses the seam of a level that wraps (a step of a tile or
/// more, which no tick moves) is left out rather than drawn across it.
pub fn draw_trajectory(
    d: &mut dyn DebugDrawer,
    bodies: &[Body],
    physics: &Physics,
    width: f32,
    color: Rgba,
) {
    for pair in bodies.windows(2) {
        let (x0, y0) = centre(&pair[0], physics);
        let (x1, y1) = centre(&pair[1], physics);
        if (x1 - x0).abs() >= 1.0 || (y1 - y0).abs() >= 1.0 {
            continue;
        }
        if (x0, y0) != (x1, y1) {
            d.line(x0, y0, x1, y1, width, color);
        }
    }
}

/// Draws one link along its canonical trajectory ([`trajectory`](crate::search::trajectory)).
pub fn draw_link(d: &mut dyn DebugDrawer, map: &NavMap, link: LinkId, width: f32, alpha: u8) {
    let traj = search::trajectory(map, link);
    let physics = map.physics();
    let kind = map.link(link).kind;
    draw_trajectory(d, &traj, physics, width, link_color(kind).with_alpha(alpha));
}

/// Width of link lines in [`draw_links`] (tiles).
pub const LINK_WIDTH: f32 = 0.06;

/// Opacity of links in [`draw_links`].
pub const LINK_ALPHA: u8 = 90;

/// Draws every link of the map, coloured by kind and translucent.
pub fn draw_links(d: &mut dyn DebugDrawer, map: &NavMap) {
    for id in 0..map.link_count() as u32 {
        draw_link(d, map, LinkId(id), LINK_WIDTH, LINK_ALPHA);
    }
}

/// Draws the links leaving `node` opaque and thicker (hover highlight).
pub fn draw_links_from(d: &mut dyn DebugDrawer, map: &NavMap, node: NodeId) {
    for link in map.links_from(node) {
        draw_link(d, map, link.id, 2.5 * LINK_WIDTH, 255);
        let (x, y) = (link.to.col as f32 + 0.5, link.to.row as f32 + 0.5);
        d.circle(x, y, 0.15, link_color(link.kind));
    }
}

/// Width of the path line in [`draw_path`] (tiles).
pub const PATH_WIDTH: f32 = 0.16;

/// Draws a path: its tape replayed from standing on its start (the motion
/// the body really performs), a dot at each link end, and rings at the
/// start and goal.
pub fn draw_path(d: &mut dyn DebugDrawer, level: &Level, physics: &Physics, path: &Path) {
    let mut body = Body::start(level, path.start(), physics);
    let mut bodies = Vec::with_capacity(path.inputs().len() + 1);
    bodies.push(body);
    for &input in path.inputs() {
        body.step(level, physics, input);
        bodies.push(body);
    }
    draw_trajectory(d, &bodies, physics, 2.0 * PATH_WIDTH, PATH_OUTLINE);
    draw_trajectory(d, &bodies, physics, PATH_WIDTH, PATH_COLOR);
    for s in path.steps() {
        let (x, y) = (s.to.col as f32 + 0.5, s.to.row as f32 + 0.5);
        d.circle(x, y, 0.14, link_color(s.kind));
    }
    for (cell, color) in [
        (path.start(), Rgba::rgb(80, 255, 80)),
        (path.goal(), Rgba::rgb(255, 80, 80)),
    ] {
        let (x, y) = (cell.col as f32 + 0.5, cell.row as f32 + 0.5);
        d.circle(x, y, 0.35, PATH_COLOR);
        d.circle(x, y, 0.25, color);
    }
}

/// Draws a body's box, filled.
pub fn draw_body(d: &mut dyn DebugDrawer, body: &Body, physics: &Physics, color: Rgba) {
    d.fill_rect(
        (body.x - physics.w / 2.0) as f32,
        (body.y - physics.h) as f32,
        physics.w as f32,
        physics.h as f32,
        color,
    );
}

/// Outlines one cell (for cursors and markers).
pub fn draw_cell_outline(d: &mut dyn DebugDrawer, cell: Cell, width: f32, color: Rgba) {
    let (x0, y0) = (cell.col as f32, cell.row as f32);
    let (x1, y1) = (x0 + 1.0, y0 + 1.0);
    d.line(x0, y0, x1, y0, width, color);
    d.line(x1, y0, x1, y1, width, color);
    d.line(x1, y1, x0, y1, width, color);
    d.line(x0, y1, x0, y0, width, color);
}

/// The colour of the edges of a level that meet ([`draw_seams`]).
pub const SEAM_COLOR: Rgba = Rgba::rgb(0, 200, 255);

/// Marks the edges of a level that wrap: dashes along each, a dash per
/// cell, so a reader sees where leaving one side enters the other.
pub fn draw_seams(d: &mut dyn DebugDrawer, level: &Level) {
    let (w, h) = (level.width() as f32, level.height() as f32);
    let wrap = level.wrap();
    if wrap.x {
        for r in 0..level.height() {
            let y = r as f32 + 0.25;
            d.line(0.05, y, 0.05, y + 0.5, 0.1, SEAM_COLOR);
            d.line(w - 0.05, y, w - 0.05, y + 0.5, 0.1, SEAM_COLOR);
        }
    }
    if wrap.y {
        for c in 0..level.width() {
            let x = c as f32 + 0.25;
            d.line(x, 0.05, x + 0.5, 0.05, 0.1, SEAM_COLOR);
            d.line(x, h - 0.05, x + 0.5, h - 0.05, 0.1, SEAM_COLOR);
        }
    }
}

/// Draws the selected layers of a map, bottom to top: tiles (with the
/// seams of a level that wraps), nodes, links, path (the path layer only
/// when a path is given).
pub fn draw_map(d: &mut dyn DebugDrawer, map: &NavMap, path: Option<&Path>, layers: Layers) {
    draw_ground(d, map, layers);
    draw_overlays(d, map, layers);
    if let (true, Some(p)) = (layers.path, path) {
        draw_path(d, map.level(), map.physics(), p);
    }
}

/// The bottom of [`draw_map`]: the tiles and seams, or with no tiles
/// layer the background.
fn draw_ground(d: &mut dyn DebugDrawer, map: &NavMap, layers: Layers) {
    if layers.tiles {
        draw_tiles(d, map.level());
        draw_seams(d, map.level());
    } else {
        let (w, h) = (map.level().width() as f32, map.level().height() as f32);
        d.fill_rect(0.0, 0.0, w, h, BACKGROUND);
    }
}

/// The middle of [`draw_map`]: nodes and links, as selected.
fn draw_overlays(d: &mut dyn DebugDrawer, map: &NavMap, layers: Layers) {
    if layers.nodes {
        draw_nodes(d, map);
    }
    if layers.links {
        draw_links(d, map);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_node_type_has_its_own_colour() {
        let mut seen = std::collections::HashSet::new();
        for t in NodeType::ALL {
            assert!(seen.insert(node_color(t)), "{t:?} shares a colour");
        }
        for t in [Tile::EMPTY, Tile::SOLID, Tile::ONE_WAY, Tile::HAZARD] {
            assert!(!seen.contains(&tile_color(t)), "{t:?} looks like a node");
        }
        for k in LinkKind::ALL {
            assert!(!seen.contains(&link_color(k)), "{k:?} looks like a node");
        }
        assert!(!seen.contains(&PATH_COLOR));
        assert!(!seen.contains(&PLATFORM_COLOR));
        for t in [Tile::EMPTY, Tile::SOLID, Tile::ONE_WAY, Tile::HAZARD] {
            assert_ne!(tile_color(t), PLATFORM_COLOR, "{t:?} looks like a platform");
        }
        for k in LinkKind::ALL {
            assert_ne!(link_color(k), PLATFORM_COLOR, "{k:?} looks like a platform");
        }
    }

    #[test]
    fn layers_parse_names_and_reject_unknown_ones() {
        let l = Layers::parse("tiles, path").unwrap();
        assert!(l.tiles && l.path && !l.nodes && !l.links);
        assert_eq!(Layers::parse("all").unwrap(), Layers::ALL);
        assert_eq!(
            Layers::parse("tiles,lnks"),
            Err(UnknownLayer("lnks".into()))
        );
    }
}
