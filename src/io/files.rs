//! Reading untrusted files with a size bound, and writing files whole or
//! not at all: what the loaders and saved maps share.

use std::path::Path as FsPath;

use crate::level::LevelError;

/// The largest level file the path-based loaders read, in bytes (64 MiB).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Reads a file's bytes with the [`MAX_FILE_BYTES`] bound, naming the file
/// in every error.
///
/// # Errors
/// [`LevelError::File`] for a missing, unreadable or oversized file.
pub fn read_bytes(path: &FsPath) -> Result<Vec<u8>, LevelError> {
    read_bytes_within(path, MAX_FILE_BYTES)
}

/// [`read_bytes`] with the bound `limit` instead: for files whose size
/// follows from something already trusted, as a saved map's follows from
/// its level.
///
/// # Errors
/// [`LevelError::File`] for a missing, unreadable or oversized file.
pub fn read_bytes_within(path: &FsPath, limit: u64) -> Result<Vec<u8>, LevelError> {
    use std::io::Read;
    let wrap = |e: LevelError| e.in_file(path);
    let too_big = |value: u64| {
        wrap(LevelError::Limit {
            what: "file size in bytes",
            value,
            limit,
        })
    };
    let file = std::fs::File::open(path).map_err(|e| wrap(LevelError::Io(e)))?;
    let len = file.metadata().map_or(0, |m| m.len());
    if len > limit {
        return Err(too_big(len));
    }
    // Sized to the file as it is (at most `limit`): growing by doubling
    // would hold up to twice the file, and for a huge saved map that is
    // the load's peak.
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| wrap(LevelError::Io(e)))?;
    if bytes.len() as u64 > limit {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Reads a file that a level refers to (a tileset or template): as
/// [`read_bytes`], but only a regular file, so a hostile map cannot point at
/// a device such as `/dev/stdin` and block the load.
#[cfg(any(feature = "tiled", feature = "ldtk"))]
pub(crate) fn read_referenced(path: &FsPath) -> Result<Vec<u8>, LevelError> {
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => {
            Err(LevelError::Io(std::io::Error::other("not a regular file")).in_file(path))
        }
        _ => read_bytes(path),
    }
}

/// [`read_referenced`] for a file that must be UTF-8 text.
#[cfg(any(feature = "tiled", feature = "ldtk"))]
pub(crate) fn read_referenced_text(path: &FsPath) -> Result<String, LevelError> {
    String::from_utf8(read_referenced(path)?).map_err(|_| {
        LevelError::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "not UTF-8 text",
        ))
        .in_file(path)
    })
}

/// Writes `bytes` to `path` whole or not at all: to a hidden temporary file
/// beside it, then renamed over it, so a failed write never leaves a
/// half-written file behind.
///
/// # Errors
/// The I/O error of the write or the rename (the temporary file is removed).
pub fn write_atomically(path: &FsPath, bytes: &[u8]) -> std::io::Result<()> {
    let name = path.file_name().map_or_else(
        || std::ffi::OsString::from("out"),
        std::ffi::OsStr::to_os_string,
    );
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(&name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let result = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Reads a text file with the [`MAX_FILE_BYTES`] bound, naming the file in
/// every error.
///
/// # Errors
/// [`LevelError::File`] for a missing, unreadable, oversized or non-UTF-8 file.
pub fn read_text(path: &FsPath) -> Result<String, LevelError> {
    let wrap = |e: LevelError| e.in_file(path);
    let bytes = read_bytes(path)?;
    String::from_utf8(bytes).map_err(|e| {
        wrap(LevelError::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )))
    })
}
