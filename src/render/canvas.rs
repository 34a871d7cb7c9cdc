//! The headless [`DebugDrawer`]: a tiny-skia pixmap, saved as PNG.

use std::path::{Path as FsPath, PathBuf};

use tiny_skia::{FillRule, LineCap, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform};

use super::{DebugDrawer, Layers, Rgba, draw_map, draw_timed_map};
use crate::graph::NavMap;
use crate::level::{Cell, Platforms};
use crate::search::Path;
use crate::search::timed::TimedPath;

/// A rectangle of cells, corners included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Crop {
    /// The top-left cell.
    pub min: Cell,
    /// The bottom-right cell.
    pub max: Cell,
}

impl std::fmt::Display for Crop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{},{},{},{}",
            self.min.col, self.min.row, self.max.col, self.max.row
        )
    }
}

/// How [`render_map`] draws.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RenderOptions {
    /// Which layers.
    pub layers: Layers,
    /// Pixels per tile.
    pub scale: u32,
    /// The cells to show; `None` for the whole level.
    pub crop: Option<Crop>,
}

setters!(RenderOptions {
    with_layers => layers: Layers,
    with_scale => scale: u32,
    with_crop => crop: Option<Crop>,
});

impl Default for RenderOptions {
    /// Every layer, 16 pixels per tile, the whole level.
    fn default() -> Self {
        Self {
            layers: Layers::ALL,
            scale: 16,
            crop: None,
        }
    }
}

/// Why a picture was not made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// The scale is 0.
    #[error("scale must be at least 1 pixel per tile")]
    ZeroScale,
    /// The picture would be too big.
    #[error(
        "a {width} x {height} pixel picture is too large (at most {} pixels a side, {} in all)",
        Canvas::MAX_SIDE,
        Canvas::MAX_PIXELS
    )]
    TooLarge {
        /// Width in pixels.
        width: u64,
        /// Height in pixels.
        height: u64,
    },
    /// The crop is empty or reaches off the level.
    #[error("crop {crop} is not inside the {width} x {height} level (or is empty)")]
    BadCrop {
        /// The requested crop.
        crop: Crop,
        /// Level width in cells.
        width: usize,
        /// Level height in cells.
        height: usize,
    },
    /// PNG encoding failed.
    #[error("PNG encoding failed: {0}")]
    Encode(String),
    /// Writing the file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

/// A pixmap drawn in tile coordinates: `scale` pixels per tile, with the
/// cell `origin` at the top-left pixel.
#[derive(Debug, Clone)]
pub struct Canvas {
    pixmap: Pixmap,
    scale: f32,
    origin: (f32, f32),
}

impl Canvas {
    /// The largest width or height of a picture, in pixels.
    pub const MAX_SIDE: u64 = 16_384;
    /// The largest number of pixels of a picture.
    pub const MAX_PIXELS: u64 = 1 << 25;

    /// A transparent canvas `cols` x `rows` tiles large whose top-left pixel
    /// is the corner of cell `origin`.
    ///
    /// # Errors
    /// [`RenderError::ZeroScale`], [`RenderError::TooLarge`].
    pub fn new(cols: u32, rows: u32, scale: u32, origin: Cell) -> Result<Self, RenderError> {
        if scale == 0 {
            return Err(RenderError::ZeroScale);
        }
        let (width, height) = (
            u64::from(cols) * u64::from(scale),
            u64::from(rows) * u64::from(scale),
        );
        let too_large = RenderError::TooLarge { width, height };
        if width > Self::MAX_SIDE || height > Self::MAX_SIDE || width * height > Self::MAX_PIXELS {
            return Err(too_large);
        }
        let pixmap = Pixmap::new(width as u32, height as u32).ok_or(too_large)?;
        Ok(Self {
            pixmap,
            scale: scale as f32,
            origin: (origin.col as f32, origin.row as f32),
        })
    }

    /// Width in pixels.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.pixmap.width()
    }

    /// Height in pixels.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.pixmap.height()
    }

    /// The pixel at `(x, y)` (straight alpha), `None` off the canvas.
    #[must_use]
    pub fn pixel(&self, x: u32, y: u32) -> Option<Rgba> {
        self.pixmap.pixel(x, y).map(|p| {
            let c = p.demultiply();
            Rgba {
                r: c.red(),
                g: c.green(),
                b: c.blue(),
                a: c.alpha(),
            }
        })
    }

    /// The pixel at the centre of `cell`, `None` off the canvas.
    #[must_use]
    pub fn pixel_at_cell(&self, cell: Cell) -> Option<Rgba> {
        let x = (cell.col as f32 - self.origin.0 + 0.5) * self.scale;
        let y = (cell.row as f32 - self.origin.1 + 0.5) * self.scale;
        if x < 0.0 || y < 0.0 {
            return None;
        }
        self.pixel(x as u32, y as u32)
    }

    /// Every pixel, row-major (straight alpha).
    pub fn pixels(&self) -> impl Iterator<Item = Rgba> + '_ {
        (0..self.height())
            .flat_map(move |y| (0..self.width()).filter_map(move |x| self.pixel(x, y)))
    }

    /// Every pixel as RGBA bytes (straight alpha), row-major: ready for a
    /// GPU texture.
    #[must_use]
    pub fn to_rgba8(&self) -> Vec<u8> {
        self.pixels().flat_map(|c| [c.r, c.g, c.b, c.a]).collect()
    }

    /// The picture as PNG bytes.
    ///
    /// # Errors
    /// [`RenderError::Encode`].
    pub fn encode_png(&self) -> Result<Vec<u8>, RenderError> {
        self.pixmap
            .encode_png()
            .map_err(|e| RenderError::Encode(e.to_string()))
    }

    /// Writes the PNG to `path` atomically: to a temporary file beside it,
    /// then renamed, so a failure never leaves a half-written picture.
    ///
    /// # Errors
    /// [`RenderError::Encode`], [`RenderError::Io`].
    pub fn save_png(&self, path: &FsPath) -> Result<(), RenderError> {
        let bytes = self.encode_png()?;
        crate::io::files::write_atomically(path, &bytes).map_err(|source| RenderError::Io {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Fills a path, anti-aliased.
    fn fill(&mut self, path: &tiny_skia::Path, color: Rgba) {
        self.pixmap.fill_path(
            path,
            &paint(color, true),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }

    fn px(&self, x: f32, y: f32) -> (f32, f32) {
        (
            (x - self.origin.0) * self.scale,
            (y - self.origin.1) * self.scale,
        )
    }
}

fn paint(color: Rgba, anti_alias: bool) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(color.r, color.g, color.b, color.a);
    p.anti_alias = anti_alias;
    p
}

impl DebugDrawer for Canvas {
    fn fill_rect(&mut self, x: f32, y: f32, w: f32, h: f32, color: Rgba) {
        let (x0, y0) = self.px(x, y);
        if let Some(r) = Rect::from_xywh(x0, y0, w * self.scale, h * self.scale) {
            self.pixmap
                .fill_rect(r, &paint(color, false), Transform::identity(), None);
        }
    }

    fn line(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, width: f32, color: Rgba) {
        let (a, b) = (self.px(x0, y0), self.px(x1, y1));
        let mut pb = PathBuilder::new();
        pb.move_to(a.0, a.1);
        pb.line_to(b.0, b.1);
        if let Some(path) = pb.finish() {
            let stroke = Stroke {
                width: (width * self.scale).max(1.0),
                line_cap: LineCap::Round,
                ..Stroke::default()
            };
            self.pixmap.stroke_path(
                &path,
                &paint(color, true),
                &stroke,
                Transform::identity(),
                None,
            );
        }
    }

    fn fill_triangle(&mut self, pts: [(f32, f32); 3], color: Rgba) {
        let mut pb = PathBuilder::new();
        let p = pts.map(|(x, y)| self.px(x, y));
        pb.move_to(p[0].0, p[0].1);
        pb.line_to(p[1].0, p[1].1);
        pb.line_to(p[2].0, p[2].1);
        pb.close();
        if let Some(path) = pb.finish() {
            self.fill(&path, color);
        }
    }

    fn circle(&mut self, x: f32, y: f32, radius: f32, color: Rgba) {
        let (cx, cy) = self.px(x, y);
        if let Some(path) = PathBuilder::from_circle(cx, cy, (radius * self.scale).max(0.5)) {
            self.fill(&path, color);
        }
    }
}

/// Draws the selected layers of `map` (and `path`) on a new canvas.
///
/// # Errors
/// [`RenderError::BadCrop`], [`RenderError::ZeroScale`],
/// [`RenderError::TooLarge`].
pub fn render_map(
    map: &NavMap,
    path: Option<&Path>,
    options: &RenderOptions,
) -> Result<Canvas, RenderError> {
    let mut canvas = blank(map, options)?;
    draw_map(&mut canvas, map, path, options.layers);
    Ok(canvas)
}

/// Draws the selected layers of `map` on a level with moving
/// `platforms` on a new canvas: the platforms' ways and where they are on
/// tick `tick` with the tiles, and `path`, a path in time from a cell,
/// performed with the platforms moving
/// ([`draw_timed_map`](super::draw_timed_map)).
///
/// # Errors
/// [`RenderError::BadCrop`], [`RenderError::ZeroScale`],
/// [`RenderError::TooLarge`].
pub fn render_timed(
    map: &NavMap,
    platforms: &Platforms,
    tick: u64,
    path: Option<&TimedPath>,
    options: &RenderOptions,
) -> Result<Canvas, RenderError> {
    let mut canvas = blank(map, options)?;
    draw_timed_map(&mut canvas, map, platforms, tick, path, options.layers);
    Ok(canvas)
}

/// A transparent canvas for `options`' crop of `map`'s level.
fn blank(map: &NavMap, options: &RenderOptions) -> Result<Canvas, RenderError> {
    let (w, h) = (map.level().width(), map.level().height());
    let crop = options.crop.unwrap_or(Crop {
        min: Cell::new(0, 0),
        max: Cell::new(w as i32 - 1, h as i32 - 1),
    });
    let inside = crop.min.col >= 0
        && crop.min.row >= 0
        && crop.min.col <= crop.max.col
        && crop.min.row <= crop.max.row
        && (crop.max.col as usize) < w
        && (crop.max.row as usize) < h;
    if !inside {
        return Err(RenderError::BadCrop {
            crop,
            width: w,
            height: h,
        });
    }
    let cols = (crop.max.col - crop.min.col + 1) as u32;
    let rows = (crop.max.row - crop.min.row + 1) as u32;
    Canvas::new(cols, rows, options.scale, crop.min)
}
