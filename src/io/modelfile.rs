//! Saved maps of a body model ([`ModelMap`]): JSON that records the
//! model's name and parameters and the level's fingerprint, and is
//! refused for another model, other parameters or another level.
//!
//! A loaded file is not trusted: its size is bounded, its standing cells
//! must be the model's on the level (found again), every link's ends,
//! kind, program and tape are checked, and every link's tape is performed
//! on the model from its start and must end at rest on its end. A file
//! that fails any check is an error naming what failed; nothing of it is
//! used.

use std::path::Path as FsPath;

use serde::{Deserialize, Serialize};

use crate::io::files::{read_bytes_within, write_atomically};
use crate::level::{Cell, Level, LevelError};
use crate::model::{BodyModel, ModelMap, ModelMapError};

/// The format's name, in every file.
const FORMAT: &str = "platnav-model-map";
/// The format's version.
const VERSION: u32 = 1;
/// The largest file read, in bytes.
const MAX_BYTES: u64 = 1 << 30;

/// Why a model map was not saved or loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ModelFileError {
    /// Reading or writing the file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What failed.
        source: std::io::Error,
    },
    /// The file could not be read (missing, or too big).
    #[error(transparent)]
    Read(#[from] LevelError),
    /// The file is not a model map this version reads.
    #[error("{path}: not a platnav model map: {why}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong.
        why: String,
    },
    /// The map was built for another model, other parameters or another
    /// level.
    #[error("{path}: the map was built for {found}, not {expected}")]
    Mismatch {
        /// The file.
        path: String,
        /// What it was built for.
        found: String,
        /// What it is loaded for.
        expected: String,
    },
    /// A link fails its checks.
    #[error("{path}: link {index} ({from} to {to}): {why}")]
    Link {
        /// The file.
        path: String,
        /// The link's place in the file.
        index: usize,
        /// Its start.
        from: Cell,
        /// Its end.
        to: Cell,
        /// What is wrong.
        why: String,
    },
    /// The reference body's maps are `NavMap`s, saved by
    /// [`crate::io::navfile`].
    #[error("the reference body's map is a NavMap: save it with io::navfile")]
    Reference,
}

/// The file's document.
#[derive(Serialize, Deserialize)]
pub(crate) struct Doc {
    pub format: String,
    pub version: u32,
    pub model: String,
    pub parameters: String,
    pub level: String,
    pub nodes: Vec<[i32; 2]>,
    pub links: Vec<LinkDoc>,
}

/// A link in the file: node indices, the kind's name, the program, the
/// flight's length and the tape as input codes (`move + 1` times 8, plus
/// 4 for jump, 2 for down, 1 for up).
#[derive(Serialize, Deserialize)]
pub(crate) struct LinkDoc {
    pub from: u32,
    pub to: u32,
    pub kind: String,
    pub program: Vec<i32>,
    pub flight: usize,
    pub tape: Vec<u8>,
}

/// Saves `map` to `path` (whole or not at all).
///
/// # Errors
/// [`ModelFileError::Reference`] for the reference body's map,
/// [`ModelFileError::Io`] when the write fails.
pub fn save<M: BodyModel>(map: &ModelMap<M>, path: &FsPath) -> Result<(), ModelFileError> {
    let doc = map
        .to_doc(FORMAT, VERSION)
        .ok_or(ModelFileError::Reference)?;
    let bytes = serde_json::to_vec(&doc).expect("a model map serializes");
    write_atomically(path, &bytes).map_err(|source| ModelFileError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// Loads the map of `level` for `model` saved at `path`, checking it (see
/// the module docs).
///
/// # Errors
/// [`ModelFileError`] naming the file and what failed.
pub fn load<M: BodyModel>(
    path: &FsPath,
    level: &Level,
    model: M,
) -> Result<ModelMap<M>, ModelFileError> {
    let name = path.display().to_string();
    let bytes = read_bytes_within(path, MAX_BYTES)?;
    let format = |why: String| ModelFileError::Format {
        path: name.clone(),
        why,
    };
    let doc: Doc = serde_json::from_slice(&bytes).map_err(|e| format(e.to_string()))?;
    if doc.format != FORMAT || doc.version != VERSION {
        return Err(format(format!(
            "format {:?} version {} (this reads {FORMAT:?} version {VERSION})",
            doc.format, doc.version
        )));
    }
    let built_for = |m: &str, p: &str, l: &str| format!("the {m} model ({p:?}) on level {l}");
    let expected = built_for(&model.name(), &model.parameters(), &fingerprint(level));
    let found = built_for(&doc.model, &doc.parameters, &doc.level);
    if found != expected {
        return Err(ModelFileError::Mismatch {
            path: name,
            found,
            expected,
        });
    }
    ModelMap::from_doc(doc, level, model).map_err(|e| match e {
        DocError::Format(why) => format(why),
        DocError::Link {
            index,
            from,
            to,
            why,
        } => ModelFileError::Link {
            path: name.clone(),
            index,
            from,
            to,
            why,
        },
        DocError::Build(e) => format(e.to_string()),
    })
}

/// The level's fingerprint as files write it.
pub(crate) fn fingerprint(level: &Level) -> String {
    format!("{:016x}", level.fingerprint())
}

/// What [`ModelMap::from_doc`] refuses.
pub(crate) enum DocError {
    Format(String),
    Link {
        index: usize,
        from: Cell,
        to: Cell,
        why: String,
    },
    Build(ModelMapError),
}
