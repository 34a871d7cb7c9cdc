//! Image masks: see [`ColorLegend`].
use std::collections::HashMap;
use std::io::Cursor;
use std::path::Path;

use crate::io::files::{read_bytes, read_text};
use crate::level::{Level, LevelError, LoadedLevel, Tile, check_size};
use crate::mechanics;

/// The most pixels an image mask may have (2^25, e.g. 8192 x 4096).
pub const MAX_PIXELS: u64 = 1 << 25;

/// Image masks: a PNG whose pixel colours are tiles.
///
/// A [`ColorLegend`] maps colours to tiles. The default legend is black
/// `#000000` solid, white `#FFFFFF` empty, red `#FF0000` hazard, blue
/// `#0000FF` one-way, green `#00FF00` goal, yellow `#FFFF00` spawn, orange
/// `#FF8000` ladder, magenta `#FF00FF` slope rising to the right and cyan
/// `#00FFFF` slope rising to the left, and any fully transparent pixel is
/// empty. A legend file is a JSON object from `#RRGGBB` or `#RRGGBBAA` to a
/// tile name (`empty`, `solid`, `one_way`, `hazard`, `goal`, `spawn`,
/// `ladder`, `slope_right`, `slope_left`), e.g. `{"#000000": "solid", "#FFFFFF00":
/// "empty"}`. A key with alpha matches only that exact RGBA; a key without
/// alpha matches the colour at any alpha. A pixel whose colour the legend
/// lacks is an error naming the pixel and colour.
///
/// With `pixels_per_tile = n` every `n x n` block of pixels is one tile (the
/// image's sides must be multiples of `n`). The tile is the **majority**
/// tile of its block's pixels; ties go to the stronger tile (solid, slopes
/// (rising right, then left), one-way, ladder, hazard, goal, spawn, empty), so a thin anti-aliased edge does not change
/// a tile, and every pixel must still be in the legend.
///
/// Any PNG colour type and bit depth is read (palette and grey are
/// expanded, 16-bit samples are reduced to 8 bits).
///
/// # Allocation bound
///
/// The header is read first: the tile grid must pass
/// [`check_size`] and the image may have at most
/// [`MAX_PIXELS`] pixels, before any pixel buffer exists. Decoding then
/// allocates the output buffer (at most `MAX_PIXELS * 8` bytes for 16-bit
/// RGBA, 256 MiB; usually 4 bytes a pixel) plus the `png` crate's own
/// buffers, which it bounds by [`png::Limits`] (set to the same size).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColorLegend {
    /// Exact RGBA colours.
    rgba: HashMap<[u8; 4], Tile>,
    /// RGB colours at any alpha.
    rgb: HashMap<[u8; 3], Tile>,
    /// Whether fully transparent pixels are empty when no key matches.
    transparent_empty: bool,
}

impl Default for ColorLegend {
    fn default() -> Self {
        // Each tile's colour as its mechanic declares it.
        let rgb = mechanics::tiles().map(|s| (s.mask, s.tile)).collect();
        Self {
            rgba: HashMap::new(),
            rgb,
            transparent_empty: true,
        }
    }
}

fn hex(s: &str) -> Option<Vec<u8>> {
    let s = s.strip_prefix('#')?;
    if !(s.len() == 6 || s.len() == 8) || !s.is_ascii() {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

impl ColorLegend {
    /// The largest legend file accepted, in bytes (1 MiB).
    pub const MAX_BYTES: usize = 1 << 20;

    /// Parses a colour legend JSON object (`{"#RRGGBB": "solid", ...}`).
    ///
    /// # Errors
    /// [`LevelError::Legend`] for malformed JSON, a key that is not
    /// `#RRGGBB`/`#RRGGBBAA`, or an unknown tile name.
    pub fn from_json(text: &str) -> Result<Self, LevelError> {
        if text.len() > Self::MAX_BYTES {
            return Err(LevelError::Limit {
                what: "legend file size in bytes",
                value: text.len() as u64,
                limit: Self::MAX_BYTES as u64,
            });
        }
        let raw: HashMap<String, Tile> =
            serde_json::from_str(text).map_err(|e| LevelError::Legend(e.to_string()))?;
        let mut legend = Self {
            rgba: HashMap::new(),
            rgb: HashMap::new(),
            transparent_empty: false,
        };
        for (key, tile) in raw {
            match hex(&key).as_deref() {
                Some(&[r, g, b]) => {
                    legend.rgb.insert([r, g, b], tile);
                }
                Some(&[r, g, b, a]) => {
                    legend.rgba.insert([r, g, b, a], tile);
                }
                _ => {
                    return Err(LevelError::Legend(format!(
                        "key {key:?} is not a colour like \"#RRGGBB\" or \"#RRGGBBAA\""
                    )));
                }
            }
        }
        Ok(legend)
    }

    /// Reads a colour legend file.
    ///
    /// # Errors
    /// As [`ColorLegend::from_json`], wrapped with the file name.
    pub fn load(path: &Path) -> Result<Self, LevelError> {
        let text = read_text(path)?;
        Self::from_json(&text).map_err(|e| e.in_file(path))
    }

    /// The tile for one RGBA pixel, if the legend defines it.
    #[must_use]
    pub fn get(&self, px: [u8; 4]) -> Option<Tile> {
        self.rgba
            .get(&px)
            .or_else(|| self.rgb.get(&[px[0], px[1], px[2]]))
            .copied()
            .or((self.transparent_empty && px[3] == 0).then_some(Tile::EMPTY))
    }
}

/// Tie-break strength among the pixels of one tile (higher wins), as
/// the tile's mechanic ranks it.
fn strength(t: Tile) -> u8 {
    mechanics::tile(t).rank.mask
}

fn img(e: impl std::fmt::Display) -> LevelError {
    LevelError::Image(e.to_string())
}

impl LoadedLevel {
    /// Loads a PNG mask (see [`ColorLegend`] for the legend and `pixels_per_tile`).
    ///
    /// # Errors
    /// Any [`LevelError`], wrapped in [`LevelError::File`] naming the image.
    pub fn load_png(
        path: &Path,
        legend: &ColorLegend,
        pixels_per_tile: u32,
    ) -> Result<Self, LevelError> {
        let bytes = read_bytes(path)?;
        Self::from_png_bytes(&bytes, legend, pixels_per_tile).map_err(|e| e.in_file(path))
    }

    /// Reads a PNG mask held in memory. Spawn and goals come from the
    /// spawn and goal tiles.
    ///
    /// # Errors
    /// [`LevelError::Image`] for an undecodable PNG or bad
    /// `pixels_per_tile`, [`LevelError::UnknownColor`],
    /// [`LevelError::Limit`] or [`LevelError::TooLarge`] for oversized
    /// images.
    pub fn from_png_bytes(
        bytes: &[u8],
        legend: &ColorLegend,
        pixels_per_tile: u32,
    ) -> Result<Self, LevelError> {
        if pixels_per_tile == 0 {
            return Err(img("pixels per tile must be at least 1"));
        }
        let limits = png::Limits {
            bytes: (MAX_PIXELS * 8) as usize,
        };
        let mut decoder = png::Decoder::new_with_limits(Cursor::new(bytes), limits);
        let (w, h) = {
            let info = decoder.read_header_info().map_err(img)?;
            (info.width, info.height)
        };
        let pixels = u64::from(w) * u64::from(h);
        if pixels > MAX_PIXELS {
            return Err(LevelError::Limit {
                what: "image pixels",
                value: pixels,
                limit: MAX_PIXELS,
            });
        }
        let n = pixels_per_tile;
        if w % n != 0 || h % n != 0 {
            return Err(img(format!(
                "image of {w} x {h} pixels is not a whole number of {n} x {n}-pixel tiles"
            )));
        }
        let (tw, th) = ((w / n) as usize, (h / n) as usize);
        check_size(tw, th)?;
        decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = decoder.read_info().map_err(img)?;
        let size = reader
            .output_buffer_size()
            .ok_or_else(|| img("image too large for this platform"))?;
        let mut buf = vec![0u8; size];
        let out = reader.next_frame(&mut buf).map_err(img)?;
        let (ct, _) = reader.output_color_type();
        let channels = ct.samples();
        let stride = out.line_size;
        let pixel = |x: u32, y: u32| -> [u8; 4] {
            let i = y as usize * stride + x as usize * channels;
            let p = &buf[i..i + channels];
            match p.len() {
                1 => [p[0], p[0], p[0], 255],
                2 => [p[0], p[0], p[0], p[1]],
                3 => [p[0], p[1], p[2], 255],
                _ => [p[0], p[1], p[2], p[3]],
            }
        };
        let mut tiles = Vec::with_capacity(tw * th);
        for ty in 0..th as u32 {
            for tx in 0..tw as u32 {
                let mut counts = [0u32; Tile::COUNT];
                for y in ty * n..(ty + 1) * n {
                    for x in tx * n..(tx + 1) * n {
                        let px = pixel(x, y);
                        let t = legend.get(px).ok_or_else(|| LevelError::UnknownColor {
                            color: format!("#{:02X}{:02X}{:02X}{:02X}", px[0], px[1], px[2], px[3]),
                            x,
                            y,
                        })?;
                        counts[t.index()] += 1;
                    }
                }
                let best = Tile::ALL
                    .into_iter()
                    .max_by_key(|&t| (counts[t.index()], strength(t)))
                    .unwrap_or(Tile::EMPTY);
                tiles.push(best);
            }
        }
        Ok(LoadedLevel::from_tiles(Level::new(tw, th, tiles)?))
    }
}
