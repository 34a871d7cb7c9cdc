//! Saved nav maps: JSON and a compact binary form.
//!
//! A file holds the links of one map (kinds, ends, jump counts, input tapes)
//! with a format version and the fingerprints of the level and physics it
//! was built for. Node types are not stored: they are recomputed from the
//! level, which the caller supplies. Loading checks the version and both
//! fingerprints, so a map saved for another level or physics is an error,
//! never a wrong answer.
//!
//! # Trust model
//!
//! Loading checks a file's *structure*: the format, version and
//! fingerprints; every link's kind, its ends (standable cells of the given
//! level), its tick counts (a tape of at least the settle slack, at most
//! [`MAX_LINK_TICKS`], an action phase inside it) and every tape byte. It
//! does not replay the tapes, which is what made loading as slow as
//! building: a link's tape is first performed when a path uses it, and
//! [`find_path`](crate::find_path) performs every path's whole tape on the reference
//! body before returning it, banning a link that fails and searching again.
//! So a tampered tape can make a query slower, or fail with
//! [`crate::PathError::ReplanLimit`], but can never yield a path that does
//! not replay. A file also cannot lie about a link's cost: its ticks are its
//! tape's length. [`verify`] replays every tape at once (and
//! recounts its jumps), for callers that want a bad file refused up front,
//! as `platnav links --map FILE --verify` does.
//!
//! Allocation is bounded by the input: the file size (from disk, at most
//! [`max_file_bytes`] for the level: [`MAP_BYTES_PER_CELL`] a cell of it,
//! and never less than [`crate::io::files::MAX_FILE_BYTES`]), at most
//! [`MAX_LINKS_PER_NODE`] links per standable cell, and at most
//! [`MAX_LINK_TICKS`] ticks per link.
//!
//! An input's code is `up * 12 + (move + 1) * 4 + jump * 2 + down`. JSON
//! writes one letter per tick (`'a' + code`, `'a'` to `'x'`), so a 60-tick
//! link is a 60-character string. The binary form (version 2 on) stores a tape
//! as the map holds it in memory, as runs of one input: a byte of the code
//! (high nibble) and the run's length less one (low nibble), or for codes
//! 12 and up the byte `0xF0 | (length - 1)` and then the code; a link of 60
//! ticks takes about six bytes. Version 1 binary files, one code byte per
//! tick, still load. Files written before `up` existed hold only the codes
//! 0 to 11, which read the same. Version 3 ends with the map's landmark
//! table, used once it agrees with every link (`graph/landmarks/saved.rs`),
//! and an index of the links' blocks (`index.rs`), through which
//! [`open_lazy`] reads one block of nodes at a time.

mod binary;
mod index;
mod open;

pub use binary::{from_bytes, to_bytes};
pub use open::{open_lazy, open_lazy_with};

use std::borrow::Cow;
use std::path::Path as FsPath;

use serde::{Deserialize, Serialize};

use crate::graph::landmarks::Landmarks;
use crate::graph::{EncodedLink, Head, NavMap};
use crate::level::{Cell, Level};
use crate::links::{LinkKind, SETTLE_SLACK};
use crate::physics::{Input, Physics};

/// The format version this build writes; it reads this one and versions
/// 1 (whose binary tapes hold one byte per tick) and 2 (without the block
/// index); their JSON is the same.
pub const NAVMAP_FORMAT_VERSION: u32 = 3;

/// The oldest format version this build reads.
const OLDEST_VERSION: u32 = 1;

/// How many bytes a saved map may take per cell of its level (see
/// [`max_file_bytes`]): a generous multiple of what a built map needs
/// (about 100 bytes a cell in the binary form, 350 in JSON, on generated
/// levels).
pub const MAP_BYTES_PER_CELL: u64 = 1024;

/// The most links a saved map may hold per standable cell.
pub const MAX_LINKS_PER_NODE: usize = 4096;

/// The longest link tape a saved map may hold (ticks): what a map stores
/// a link's ticks in. A link at 1,000 ticks a second may last 18 s of
/// action and settle (`PHYSICS.md`, "Link generation bounds").
pub const MAX_LINK_TICKS: usize = u16::MAX as usize;

const MAGIC: &[u8; 8] = b"PLATNAV\0";
const FORMAT_NAME: &str = "platnav-navmap";

/// Why a saved map could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum NavFileError {
    /// The file could not be written.
    #[error("{0}")]
    Io(#[source] std::io::Error),
    /// The file could not be read.
    #[error("{0}")]
    Read(#[source] crate::level::LevelError),
    /// The content is not a platnav map: what is wrong with it.
    #[error("not a platnav nav map: {0}")]
    Malformed(String),
    /// The content is not JSON, or not a map's JSON.
    #[error("not a platnav nav map: {0}")]
    Json(#[source] serde_json::Error),
    /// The content is not UTF-8 (a JSON map must be).
    #[error("not a platnav nav map: {0}")]
    Utf8(#[source] std::str::Utf8Error),
    /// The map could not be written as JSON.
    #[error("could not write the map as JSON: {0}")]
    Encode(#[source] serde_json::Error),
    /// A different format version.
    #[error(
        "nav map format version {found}, this build reads versions {OLDEST_VERSION} to {NAVMAP_FORMAT_VERSION}"
    )]
    Version {
        /// The file's version.
        found: u32,
    },
    /// The map was built for another level.
    #[error(
        "nav map was built for another level (fingerprint {found:016x}, this level is {expected:016x})"
    )]
    LevelMismatch {
        /// The file's level fingerprint.
        found: u64,
        /// The given level's.
        expected: u64,
    },
    /// The map was built for other physics.
    #[error(
        "nav map was built for other physics (fingerprint {found:016x}, these physics are {expected:016x})"
    )]
    PhysicsMismatch {
        /// The file's physics fingerprint.
        found: u64,
        /// The given physics'.
        expected: u64,
    },
    /// A link that is out of bounds or that the body does not perform.
    #[error("link {index}: {reason}")]
    BadLink {
        /// Index of the link in the file.
        index: usize,
        /// What is wrong.
        reason: String,
    },
    /// The physics are invalid.
    #[error("{0}")]
    Physics(#[from] crate::physics::PhysicsError),
    /// An error in a named file.
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: std::path::PathBuf,
        /// The error.
        #[source]
        source: Box<NavFileError>,
    },
}

#[derive(Serialize, Deserialize)]
struct JsonLink {
    kind: LinkKind,
    from: [i32; 2],
    to: [i32; 2],
    action_ticks: u32,
    jumps: u8,
    inputs: String,
}

#[derive(Serialize, Deserialize)]
struct JsonMap {
    format: String,
    version: u32,
    level_fingerprint: String,
    physics_fingerprint: String,
    width: usize,
    height: usize,
    physics: Physics,
    links: Vec<JsonLink>,
}

/// Stored tapes only hold inputs with a code (see `graph::tape`).
fn pack(i: Input) -> u8 {
    crate::graph::tape::code(i).unwrap_or(0)
}

fn unpack(b: u8) -> Option<Input> {
    crate::graph::tape::decode(b)
}

/// The run-length encoding of inputs decoded from a file (every one has a
/// code).
fn encoded(inputs: &[Input]) -> Cow<'static, [u8]> {
    let mut out = Vec::new();
    crate::graph::tape::encode(inputs, &mut out);
    Cow::Owned(out)
}

/// The map as JSON (see the module docs).
///
/// # Errors
/// [`NavFileError::Encode`] if serialization fails.
pub fn to_json(map: &NavMap) -> Result<String, NavFileError> {
    let doc = JsonMap {
        format: FORMAT_NAME.into(),
        version: NAVMAP_FORMAT_VERSION,
        level_fingerprint: format!("{:016x}", map.level().fingerprint()),
        physics_fingerprint: format!("{:016x}", map.physics().fingerprint()),
        width: map.level().width(),
        height: map.level().height(),
        physics: map.physics().clone(),
        links: map
            .links()
            .map(|l| JsonLink {
                kind: l.kind,
                from: l.from.into(),
                to: l.to.into(),
                action_ticks: l.action_ticks,
                jumps: l.jumps,
                inputs: map
                    .inputs(l.id)
                    .map(|i| char::from(b'a' + pack(i)))
                    .collect(),
            })
            .collect(),
    };
    serde_json::to_string(&doc).map_err(NavFileError::Encode)
}

/// Reads a JSON map saved for `level` and `physics`.
///
/// # Errors
/// [`NavFileError`]: malformed content, another version, a level or
/// physics mismatch, or a link the body does not perform.
pub fn from_json(text: &str, level: &Level, physics: &Physics) -> Result<NavMap, NavFileError> {
    let doc: JsonMap = serde_json::from_str(text).map_err(NavFileError::Json)?;
    if doc.format != FORMAT_NAME {
        return Err(NavFileError::Malformed(format!("format {:?}", doc.format)));
    }
    check_version(doc.version)?;
    let hex = |s: &str| {
        u64::from_str_radix(s, 16)
            .map_err(|_| NavFileError::Malformed(format!("fingerprint {s:?}")))
    };
    check_prints(
        hex(&doc.level_fingerprint)?,
        hex(&doc.physics_fingerprint)?,
        level,
        physics,
    )?;
    if doc.physics != *physics {
        return Err(NavFileError::PhysicsMismatch {
            found: doc.physics.fingerprint(),
            expected: physics.fingerprint(),
        });
    }
    let raw = doc
        .links
        .into_iter()
        .enumerate()
        .map(|(index, l)| {
            let inputs = l
                .inputs
                .bytes()
                .map(|b| b.checked_sub(b'a').and_then(unpack))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| NavFileError::BadLink {
                    index,
                    reason: "inputs hold a character outside 'a'..='x'".into(),
                })?;
            Ok(EncodedLink {
                from: l.from.into(),
                head: Head {
                    kind: l.kind,
                    to: l.to.into(),
                    ticks: inputs.len() as u32,
                    action_ticks: l.action_ticks,
                    jumps: l.jumps,
                },
                tape: encoded(&inputs),
            })
        })
        .collect::<Result<Vec<_>, NavFileError>>()?;
    assemble(raw, level, physics, None)
}

/// The largest saved map [`load`] reads for `level`: [`MAP_BYTES_PER_CELL`]
/// a cell, and at least [`crate::io::files::MAX_FILE_BYTES`].
#[must_use]
pub fn max_file_bytes(level: &Level) -> u64 {
    let cells = (level.width() as u64).saturating_mul(level.height() as u64);
    cells
        .saturating_mul(MAP_BYTES_PER_CELL)
        .max(crate::io::files::MAX_FILE_BYTES)
}

/// Saves the map: binary for a `.pnav` file, JSON otherwise, with
/// [`crate::io::files::write_atomically`], so a failed save leaves no half-written map.
///
/// # Errors
/// [`NavFileError::File`] with the I/O or encoding error.
pub fn save(map: &NavMap, path: &FsPath) -> Result<(), NavFileError> {
    let bytes = if path.extension().is_some_and(|e| e == "pnav") {
        to_bytes(map)
    } else {
        to_json(map)
            .map_err(|e| NavFileError::File {
                path: path.to_path_buf(),
                source: Box::new(e),
            })?
            .into_bytes()
    };
    crate::io::files::write_atomically(path, &bytes).map_err(|e| NavFileError::File {
        path: path.to_path_buf(),
        source: Box::new(NavFileError::Io(e)),
    })
}

/// Loads a map saved by [`save`] for `level` and `physics`
/// (binary for `.pnav`, JSON otherwise).
///
/// # Errors
/// [`NavFileError::File`] naming the file.
pub fn load(path: &FsPath, level: &Level, physics: &Physics) -> Result<NavMap, NavFileError> {
    let wrap = |e: NavFileError| NavFileError::File {
        path: path.to_path_buf(),
        source: Box::new(e),
    };
    let bytes = crate::io::files::read_bytes_within(path, max_file_bytes(level))
        .map_err(|e| wrap(NavFileError::Read(e)))?;
    if path.extension().is_some_and(|e| e == "pnav") {
        from_bytes(&bytes, level, physics).map_err(wrap)
    } else {
        let text = std::str::from_utf8(&bytes).map_err(|e| wrap(NavFileError::Utf8(e)))?;
        from_json(text, level, physics).map_err(wrap)
    }
}

/// Replays every link's tape on the reference body, checking that it
/// takes the body from its source to standing still on its target with
/// the jumps it claims: the check loading leaves to each link's first
/// use (see the module's trust model). A map built here always passes.
///
/// # Errors
/// [`NavFileError::BadLink`] naming the first link, in id order, whose
/// tape does not perform it.
pub fn verify(map: &NavMap) -> Result<(), NavFileError> {
    let (level, physics) = (map.level(), map.physics());
    for (index, l) in map.links().enumerate() {
        let bad = |reason: String| NavFileError::BadLink { index, reason };
        let (end, jumps) = crate::links::perform(level, physics, l.from, map.inputs(l.id), |_| {});
        let body = crate::links::in_level(level, l.from, &end);
        if body.dead || !body.stands_on(l.to) || body.vx != 0.0 {
            return Err(bad(format!(
                "its tape does not take the body from {} to {}",
                l.from, l.to
            )));
        }
        if jumps != u32::from(l.jumps) {
            return Err(bad(format!(
                "it claims {} jumps but its tape makes {jumps}",
                l.jumps
            )));
        }
    }
    Ok(())
}

fn check_version(found: u32) -> Result<(), NavFileError> {
    if (OLDEST_VERSION..=NAVMAP_FORMAT_VERSION).contains(&found) {
        Ok(())
    } else {
        Err(NavFileError::Version { found })
    }
}

fn check_prints(
    level_print: u64,
    physics_print: u64,
    level: &Level,
    physics: &Physics,
) -> Result<(), NavFileError> {
    if level_print != level.fingerprint() {
        return Err(NavFileError::LevelMismatch {
            found: level_print,
            expected: level.fingerprint(),
        });
    }
    if physics_print != physics.fingerprint() {
        return Err(NavFileError::PhysicsMismatch {
            found: physics_print,
            expected: physics.fingerprint(),
        });
    }
    Ok(())
}

/// Checks a link's tick counts: a tape of at least the settle slack and
/// at most [`MAX_LINK_TICKS`], its action phase inside it, no more jumps
/// than ticks.
fn check_head(index: usize, head: &Head) -> Result<(), NavFileError> {
    let bad = |reason: String| NavFileError::BadLink { index, reason };
    let ticks = head.ticks as usize;
    if ticks > MAX_LINK_TICKS
        || ticks < SETTLE_SLACK as usize
        || head.action_ticks as usize > ticks - SETTLE_SLACK as usize
    {
        return Err(bad(format!(
            "{ticks} ticks with {} action ticks",
            head.action_ticks
        )));
    }
    if usize::from(head.jumps) > ticks {
        return Err(bad(format!("{} jumps in {ticks} ticks", head.jumps)));
    }
    Ok(())
}

/// Validates raw links against the level (bounds, standable ends, tick
/// counts; not their tapes: see the module's trust model) and builds the
/// map.
fn assemble(
    raw: Vec<EncodedLink<'_>>,
    level: &Level,
    physics: &Physics,
    landmarks: Option<Landmarks>,
) -> Result<NavMap, NavFileError> {
    physics.validate()?;
    let classes = crate::classify::Classification::new(level, physics);
    let nodes: Vec<Cell> = classes.standable_cells().collect();
    if raw.len() > nodes.len().saturating_mul(MAX_LINKS_PER_NODE) {
        return Err(NavFileError::Malformed(format!(
            "{} links for {} standable cells",
            raw.len(),
            nodes.len()
        )));
    }
    for (index, r) in raw.iter().enumerate() {
        let bad = |reason: String| NavFileError::BadLink { index, reason };
        if !classes.is_standable(r.from) || !classes.is_standable(r.head.to) {
            return Err(bad(format!(
                "{} -> {} does not join standable cells",
                r.from, r.head.to
            )));
        }
        check_head(index, &r.head)?;
    }
    Ok(NavMap::from_encoded(
        level.clone(),
        physics.clone(),
        classes,
        nodes,
        &raw,
        landmarks,
    ))
}
