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
//! bottom, `@wrap xy`: both; [`Wrap`]).

use std::fmt;
use std::str::FromStr;

use std::path::Path as FsPath;

use crate::io::files::read_text;
use crate::level::{Level, LevelError, Tile, Wrap, check_size};

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
    /// Parses the platnav ASCII format.
    ///
    /// # Errors
    /// [`LevelError::UnknownTile`] (with line and column),
    /// [`LevelError::RaggedRow`], [`LevelError::Empty`] or
    /// [`LevelError::TooLarge`].
    pub fn from_ascii(text: &str) -> Result<Self, LevelError> {
        let mut wrap = Wrap::NONE;
        let mut rest = text;
        let mut skipped = 0;
        while let Some(line) = rest.strip_prefix('@') {
            let (line, tail) = line.split_once('\n').unwrap_or((line, ""));
            skipped += 1;
            wrap = directive(line.trim_end_matches('\r'), skipped)?;
            rest = tail;
        }
        let level = parse_grid(rest, Tile::from_char).map_err(|e| below(e, skipped))?;
        Ok(level.with_wrap(wrap))
    }
}

/// The option an `@` line (without its `@`) at 1-based `line` sets: the
/// only one is `wrap`.
fn directive(text: &str, line: usize) -> Result<Wrap, LevelError> {
    let bad = |message: String| LevelError::Directive { line, message };
    match text.split_once(char::is_whitespace) {
        Some(("wrap", value)) => value
            .parse()
            .map_err(|e: crate::level::UnknownWrap| bad(e.to_string())),
        _ => Err(bad(format!(
            "unknown option @{} (the ASCII format knows @wrap)",
            text.chars().take(40).collect::<String>()
        ))),
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
