//! The platnav ASCII format: one character per tile, top row first, each
//! tile's character declared by its mechanic ([`Tile::to_char`]):
//!
//! | char | tile |
//! |------|------|
//! | `.`  | [`Tile::EMPTY`] |
//! | `#`  | [`Tile::SOLID`] |
//! | `=`  | [`Tile::ONE_WAY`] |
//! | `^`  | [`Tile::HAZARD`] |
//! | `G`  | [`Tile::GOAL`] |
//! | `S`  | [`Tile::SPAWN`] |
//! | `H`  | [`Tile::LADDER`] |
//! | `/`  | [`Tile::SLOPE_RIGHT`] (rises to the right) |
//! | `\`  | [`Tile::SLOPE_LEFT`] (rises to the left) |
//!
//! Every row must have the same width. A trailing newline is optional, and
//! `\r\n` line ends are accepted. [`Level`]'s `Display` writes this format, so
//! parsing and printing round-trip.
//!
//! Lines before the first row that start with `@` set the level's options:
//! `@wrap x` makes its left and right edges meet (`@wrap y`: top and
//! bottom, `@wrap xy`: both; [`Wrap`]), and each `@platform` line places a
//! moving platform ([`Platform`], `PHYSICS.md`, "Moving platforms"):
//!
//! ```text
//! @platform W[xH] X,Y [X,Y ...] speed S [pause P] [offset T] [loop]
//! ```
//!
//! `W` and `H` are its width and height in tiles (`H` 1 when left out),
//! each `X,Y` a point of its top-left corner's path in tiles (x right, y
//! down, decimals allowed), `S` its speed in tiles/s, `P` the ticks it
//! rests at each point (0), `T` the tick of its cycle it starts on (0),
//! and `loop` sends it from its last point straight back to its first
//! (else it goes back and forth). [`LoadedLevel::from_ascii`] keeps the
//! platforms ([`Level::from_ascii`] reads the grid and leaves them), and
//! [`LoadedLevel::to_ascii`] writes them back (`Platform`'s `Display` and
//! `FromStr` are the text after `@platform `).

use std::fmt;
use std::str::FromStr;

use std::path::Path as FsPath;

use crate::io::files::read_text;
use crate::level::{
    Level, LevelError, LoadedLevel, MAX_PLATFORM_POINTS, MAX_PLATFORMS, Platform, PlatformLoop,
    Tile, Wrap, check_size,
};

/// Splits text into rows of characters mapped by `map`, checking the size
/// bound from the line structure before storing any tile.
pub(crate) fn parse_grid(
    text: &str,
    mut map: impl FnMut(char) -> Option<Tile>,
) -> Result<Level, LevelError> {
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    // Drop trailing empty lines (a final newline, or several).
    let mut n = lines.len();
    while n > 0 && lines[n - 1].is_empty() {
        n -= 1;
    }
    let lines = &lines[..n];
    let Some(first) = lines.first() else {
        return Err(LevelError::Empty);
    };
    let width = first.chars().count();
    check_size(width, lines.len())?;
    let mut tiles = Vec::with_capacity(width * lines.len());
    for (i, line) in lines.iter().enumerate() {
        let mut count = 0;
        for (j, ch) in line.chars().enumerate() {
            count += 1;
            if count > width {
                break;
            }
            let tile = map(ch).ok_or(LevelError::UnknownTile {
                ch,
                line: i + 1,
                column: j + 1,
            })?;
            tiles.push(tile);
        }
        let found = line.chars().count();
        if found != width {
            return Err(LevelError::RaggedRow {
                line: i + 1,
                expected: width,
                found,
            });
        }
    }
    Level::new(width, lines.len(), tiles)
}

impl Level {
    /// Parses the platnav ASCII format. `@platform` lines are checked and
    /// left out (a [`Level`] holds no platforms:
    /// [`LoadedLevel::from_ascii`] keeps them).
    ///
    /// # Errors
    /// [`LevelError::UnknownTile`] (with line and column),
    /// [`LevelError::RaggedRow`], [`LevelError::Directive`] (an option line),
    /// [`LevelError::Empty`] or [`LevelError::TooLarge`].
    pub fn from_ascii(text: &str) -> Result<Self, LevelError> {
        parse_ascii(text).map(|(level, _)| level)
    }
}

impl LoadedLevel {
    /// Parses the platnav ASCII format with its moving platforms
    /// (`@platform` lines); the spawn and goals are its `S` and `G` tiles.
    ///
    /// ```
    /// use platnav::level::LoadedLevel;
    ///
    /// let text = "@platform 2 1,1 4,1 speed 3\n......\n......\n######\n";
    /// let loaded = LoadedLevel::from_ascii(text)?;
    /// assert_eq!(loaded.platforms[0].points, vec![[1.0, 1.0], [4.0, 1.0]]);
    /// assert_eq!(loaded.to_ascii(), text);
    /// # Ok::<(), platnav::level::LevelError>(())
    /// ```
    ///
    /// # Errors
    /// As [`Level::from_ascii`]; a malformed `@platform` line, or more than
    /// [`MAX_PLATFORMS`] of them, is a [`LevelError::Directive`] naming its
    /// line.
    pub fn from_ascii(text: &str) -> Result<Self, LevelError> {
        let (level, platforms) = parse_ascii(text)?;
        let mut loaded = LoadedLevel::from_tiles(level);
        loaded.platforms = platforms;
        Ok(loaded)
    }

    /// Loads a platnav ASCII level file with its moving platforms.
    ///
    /// # Errors
    /// As [`LoadedLevel::from_ascii`], wrapped in [`LevelError::File`]
    /// naming the file.
    pub fn load_ascii(path: &FsPath) -> Result<Self, LevelError> {
        let text = read_text(path)?;
        Self::from_ascii(&text).map_err(|e| e.in_file(path))
    }

    /// The level in the platnav ASCII format: its `@wrap` line, a
    /// `@platform` line per platform, then the grid
    /// ([`LoadedLevel::from_ascii`] reads it back).
    #[must_use]
    pub fn to_ascii(&self) -> String {
        let mut out = String::new();
        if self.level.wrap().any() {
            out += &format!("@wrap {}\n", self.level.wrap());
        }
        for p in &self.platforms {
            out += &format!("@platform {p}\n");
        }
        for row in self.level.tiles().chunks(self.level.width()) {
            out.extend(row.iter().map(|t| t.to_char()));
            out.push('\n');
        }
        out
    }
}

/// The grid and platforms of a text in the platnav ASCII format.
fn parse_ascii(text: &str) -> Result<(Level, Vec<Platform>), LevelError> {
    let mut wrap = Wrap::NONE;
    let mut platforms = Vec::new();
    let mut rest = text;
    let mut skipped = 0;
    while let Some(line) = rest.strip_prefix('@') {
        let (line, tail) = line.split_once('\n').unwrap_or((line, ""));
        skipped += 1;
        match directive(line.trim_end_matches('\r'), skipped)? {
            Directive::Wrap(w) => wrap = w,
            Directive::Platform(p) => {
                if platforms.len() >= MAX_PLATFORMS {
                    return Err(LevelError::Directive {
                        line: skipped,
                        message: format!("more than {MAX_PLATFORMS} @platform lines"),
                    });
                }
                platforms.push(p);
            }
        }
        rest = tail;
    }
    let level = parse_grid(rest, Tile::from_char).map_err(|e| below(e, skipped))?;
    Ok((level.with_wrap(wrap), platforms))
}

/// What an option line sets.
enum Directive {
    Wrap(Wrap),
    Platform(Platform),
}

/// The option an `@` line (without its `@`) at 1-based `line` sets:
/// `wrap` or a `platform`.
fn directive(text: &str, line: usize) -> Result<Directive, LevelError> {
    let bad = |message: String| LevelError::Directive { line, message };
    match text.split_once(char::is_whitespace).unwrap_or((text, "")) {
        ("wrap", value) => value
            .parse()
            .map(Directive::Wrap)
            .map_err(|e: crate::level::UnknownWrap| bad(e.to_string())),
        ("platform", value) => value
            .parse()
            .map(Directive::Platform)
            .map_err(|e: BadPlatform| bad(format!("@platform: {}", e.0))),
        _ => Err(bad(format!(
            "unknown option @{} (the ASCII format knows @wrap and @platform)",
            text.chars().take(40).collect::<String>()
        ))),
    }
}

/// Why the text of a `@platform` line is not a platform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadPlatform(pub String);

impl fmt::Display for BadPlatform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadPlatform {}

/// A platform as the text after `@platform `:
/// `W[xH] X,Y [X,Y ...] speed S [pause P] [offset T] [loop]`.
impl FromStr for Platform {
    type Err = BadPlatform;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = |m: String| BadPlatform(m);
        let usage = "W[xH] X,Y [X,Y ...] speed S [pause P] [offset T] [loop]";
        let mut words = s.split_whitespace().peekable();
        let size = words
            .next()
            .ok_or_else(|| bad(format!("no size (expected {usage})")))?;
        let (w, h) = size.split_once('x').unwrap_or((size, "1"));
        let side = |v: &str| {
            v.parse::<u32>()
                .ok()
                .filter(|n| (1..=64).contains(n))
                .ok_or_else(|| bad(format!("size {size:?} (W or WxH, each 1 to 64 tiles)")))
        };
        let (width, height) = (side(w)?, side(h)?);
        let mut points = Vec::new();
        while let Some(p) = words.next_if(|w| w.contains(',')) {
            if points.len() == MAX_PLATFORM_POINTS {
                return Err(bad(format!("more than {MAX_PLATFORM_POINTS} points")));
            }
            let coord = |v: &str| v.parse::<f64>().ok().filter(|x| x.is_finite());
            let xy = p
                .split_once(',')
                .and_then(|(x, y)| Some([coord(x)?, coord(y)?]));
            points.push(xy.ok_or_else(|| bad(format!("point {p:?} (expected X,Y in tiles)")))?);
        }
        if points.is_empty() {
            return Err(bad(format!("no point after the size (expected {usage})")));
        }
        let (mut speed, mut pause, mut offset, mut looped) = (None, None, None, None);
        while let Some(key) = words.next() {
            let mut value = |what: &str| {
                words
                    .next()
                    .ok_or_else(|| bad(format!("{key} needs {what}")))
            };
            let twice = || bad(format!("{key} given twice"));
            match key {
                "speed" => {
                    let v = value("a speed in tiles/s")?;
                    let x = v
                        .parse::<f64>()
                        .ok()
                        .filter(|x| x.is_finite() && *x > 0.0)
                        .ok_or_else(|| bad(format!("speed {v:?} (tiles/s, above 0)")))?;
                    speed.replace(x).map_or(Ok(()), |_| Err(twice()))?;
                }
                "pause" => {
                    let v = value("a number of ticks")?;
                    let x = v
                        .parse::<u32>()
                        .map_err(|_| bad(format!("pause {v:?} (ticks)")))?;
                    pause.replace(x).map_or(Ok(()), |_| Err(twice()))?;
                }
                "offset" => {
                    let v = value("a number of ticks")?;
                    let x = v
                        .parse::<u64>()
                        .map_err(|_| bad(format!("offset {v:?} (ticks)")))?;
                    offset.replace(x).map_or(Ok(()), |_| Err(twice()))?;
                }
                "loop" => looped
                    .replace(PlatformLoop::Loop)
                    .map_or(Ok(()), |_| Err(twice()))?,
                other => {
                    return Err(bad(format!(
                        "unknown word {:?} (expected {usage})",
                        other.chars().take(40).collect::<String>()
                    )));
                }
            }
        }
        Ok(Platform {
            width,
            height,
            points,
            speed: speed.ok_or_else(|| bad(format!("no speed (expected {usage})")))?,
            pause: pause.unwrap_or(0),
            looped: looped.unwrap_or(PlatformLoop::BackAndForth),
            offset: offset.unwrap_or(0),
        })
    }
}

/// The text of a `@platform` line after `@platform ` (what `FromStr`
/// reads: numbers as Rust writes them, so that they read back exactly).
impl fmt::Display for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.width)?;
        if self.height != 1 {
            write!(f, "x{}", self.height)?;
        }
        for [x, y] in &self.points {
            write!(f, " {x},{y}")?;
        }
        write!(f, " speed {}", self.speed)?;
        if self.pause != 0 {
            write!(f, " pause {}", self.pause)?;
        }
        if self.offset != 0 {
            write!(f, " offset {}", self.offset)?;
        }
        if self.looped == PlatformLoop::Loop {
            write!(f, " loop")?;
        }
        Ok(())
    }
}

/// `e`, a grid error, with its line moved down past `skipped` option lines.
fn below(e: LevelError, skipped: usize) -> LevelError {
    match e {
        LevelError::UnknownTile { ch, line, column } => LevelError::UnknownTile {
            ch,
            line: line + skipped,
            column,
        },
        LevelError::RaggedRow {
            line,
            expected,
            found,
        } => LevelError::RaggedRow {
            line: line + skipped,
            expected,
            found,
        },
        e => e,
    }
}

impl FromStr for Level {
    type Err = LevelError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Level::from_ascii(s)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.wrap().any() {
            writeln!(f, "@wrap {}", self.wrap())?;
        }
        for row in self.tiles().chunks(self.width()) {
            let line: String = row.iter().map(|t| t.to_char()).collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

impl Level {
    /// Loads a platnav ASCII level file (the format of this module's docs;
    /// [`load_level`](crate::formats::load_level) reads every format).
    ///
    /// ```
    /// use platnav::{Cell, Level, Tile};
    ///
    /// let level = Level::load("levels/demo.txt".as_ref())?;
    /// assert_eq!((level.width(), level.height()), (48, 19));
    /// assert_eq!(level.get(Cell::new(0, 0)), Some(Tile::SOLID));
    /// // A missing file is an error that names it.
    /// let missing = Level::load("levels/nowhere.txt".as_ref()).unwrap_err();
    /// assert!(missing.to_string().contains("levels/nowhere.txt"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// Any [`LevelError`], wrapped in [`LevelError::File`] naming the file.
    pub fn load(path: &FsPath) -> Result<Self, LevelError> {
        let text = read_text(path)?;
        text.parse().map_err(|e: LevelError| e.in_file(path))
    }
}
