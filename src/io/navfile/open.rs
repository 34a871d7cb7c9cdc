//! Opening a saved map as a [`LazyMap`]: the header and the block index
//! are read and checked at once, a block of links when a query first needs
//! one of its nodes (`graph/lazy/saved.rs`).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path as FsPath;
use std::sync::Mutex;

use super::binary::{HEADER_BYTES, Reader, inputs_of, read_header, read_link};
use super::index::Index;
use super::{MAX_LINKS_PER_NODE, NavFileError, check_head, max_file_bytes};
use crate::graph::landmarks::Landmarks;
use crate::graph::{EncodedLink, LazyMap, SavedBlocks};
use crate::level::{Level, LevelError};
use crate::links::LinkOptions;
use crate::physics::Physics;

/// Opens the binary map saved at `path` for `level` and `physics` as a
/// [`LazyMap`] that reads each node's links from the file, a block of
/// nodes at a time, the first time a query needs them: a huge world's map
/// answers its first query without loading the rest. The file's links are
/// checked as [`super::load`] checks them, a block when it is read; a block
/// that fails is generated instead and reported by
/// [`LazyMap::refused_blocks`]. After an edit the file is no longer read.
///
/// The landmark table saved with the map bounds the map's searches, as on
/// the map it was saved from, as long as every link taken in agrees with
/// it; the first that does not drops it (reported as a refusal). A table
/// altered where no query has looked yet can make a path costlier than the
/// cheapest, never one that does not replay: load the whole map where
/// costs must not depend on the file.
///
/// ```
/// use platnav::io::navfile;
/// use platnav::{Cell, Level, NavMap, Physics, SearchOptions, find_path};
///
/// let level: Level = "..........\n..........\n.S..##..G.\n##########".parse()?;
/// let physics = Physics::default();
/// let map = NavMap::build(&level, &physics)?;
/// let file = std::env::temp_dir().join(format!("open-lazy-{}.pnav", std::process::id()));
/// navfile::save(&map, &file)?;
/// let mut lazy = navfile::open_lazy(&file, &level, &physics)?;
/// let opts = SearchOptions::default();
/// let (from, to) = (Cell::new(1, 2), Cell::new(8, 2));
/// let path = lazy.find_path(from, to, &opts)?;
/// assert_eq!(path.ticks(), find_path(&map, from, to, &opts)?.ticks());
/// # std::fs::remove_file(&file)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`NavFileError::File`] naming the file: it cannot be read, is larger
/// than [`max_file_bytes`], is not a binary map of version 3 or later, was
/// saved for another level or physics, or its index is malformed.
pub fn open_lazy(path: &FsPath, level: &Level, physics: &Physics) -> Result<LazyMap, NavFileError> {
    open_lazy_with(path, level, physics, &LinkOptions::default())
}

/// As [`open_lazy`], generating the nodes the file does not give with
/// `options` (whose progress handle counts and cancels the background
/// build, which reads the file's blocks).
///
/// # Errors
/// As [`open_lazy`].
pub fn open_lazy_with(
    path: &FsPath,
    level: &Level,
    physics: &Physics,
    options: &LinkOptions,
) -> Result<LazyMap, NavFileError> {
    open(path, level, physics, options).map_err(|e| NavFileError::File {
        path: path.to_path_buf(),
        source: Box::new(e),
    })
}

fn open(
    path: &FsPath,
    level: &Level,
    physics: &Physics,
    options: &LinkOptions,
) -> Result<LazyMap, NavFileError> {
    let read_err = |e: std::io::Error| NavFileError::Read(LevelError::Io(e));
    let mut file = File::open(path).map_err(read_err)?;
    let len = file.metadata().map_err(read_err)?.len();
    let limit = max_file_bytes(level);
    if len > limit {
        return Err(NavFileError::Read(LevelError::Limit {
            what: "file size in bytes",
            value: len,
            limit,
        }));
    }
    let head = read_at(&mut file, 0, HEADER_BYTES.min(len as usize)).map_err(read_err)?;
    let (version, count) = read_header(&mut Reader::new(&head), level, physics)?;
    if version < 3 {
        return Err(NavFileError::Malformed(format!(
            "a version {version} map has no block index to open it lazily: save it again"
        )));
    }
    let tail = read_at(&mut file, len.saturating_sub(8), 8.min(len as usize)).map_err(read_err)?;
    let start = Index::start_of(&tail, len)?;
    let cells = (level.width() as u64).saturating_mul(level.height() as u64);
    if len - start > 24 + 12 * cells {
        return Err(NavFileError::Malformed(format!(
            "a block index of {} bytes for {cells} cells",
            len - start
        )));
    }
    let trailer = read_at(&mut file, start, (len - start) as usize).map_err(read_err)?;
    let index = Index::parse(&trailer, start, count)?;
    let nodes = index.nodes();
    let table = index.landmarks();
    let table = read_at(&mut file, table.start as u64, table.len()).map_err(read_err)?;
    let bounds = Landmarks::read(&table, nodes)
        .ok_or_else(|| NavFileError::Malformed("landmark table".into()))?;
    physics.validate()?;
    let saved = SavedFile {
        file: Mutex::new(file),
        index,
        version,
    };
    let map = LazyMap::with_saved(level, physics, options, Box::new(saved), Some(bounds))
        .map_err(|e| NavFileError::Malformed(e.to_string()))?;
    if nodes != map.node_count() {
        return Err(NavFileError::Malformed(format!(
            "block index for {nodes} nodes, the level has {}",
            map.node_count()
        )));
    }
    Ok(map)
}

/// `n` bytes of `file` from offset `at`.
fn read_at(file: &mut File, at: u64, n: usize) -> std::io::Result<Vec<u8>> {
    let mut buf = vec![0; n];
    file.seek(SeekFrom::Start(at))?;
    file.read_exact(&mut buf)?;
    Ok(buf)
}

/// A saved map on disk, read a block at a time.
struct SavedFile {
    file: Mutex<File>,
    index: Index,
    version: u32,
}

impl SavedBlocks for SavedFile {
    fn block_nodes(&self) -> usize {
        self.index.block_nodes()
    }

    fn read(
        &self,
        b: usize,
        take: &mut dyn FnMut(&[EncodedLink<'_>]) -> Result<(), String>,
    ) -> Result<(), String> {
        let (links, bytes) = self.index.block(b);
        if links.len() > self.index.block_nodes() * MAX_LINKS_PER_NODE {
            return Err(format!("{} links", links.len()));
        }
        let buf = {
            let mut file = self.file.lock().map_err(|_| "the file is unusable")?;
            read_at(&mut file, bytes.start, (bytes.end - bytes.start) as usize)
                .map_err(|e| e.to_string())?
        };
        let mut r = Reader::new(&buf);
        let inputs_of = inputs_of();
        let mut out = Vec::with_capacity(links.len());
        for i in links {
            let link = read_link(&mut r, i, self.version, &inputs_of)
                .and_then(|l| check_head(i, &l.head).map(|()| l))
                .map_err(|e| e.to_string())?;
            out.push(link);
        }
        if r.at != buf.len() {
            return Err(format!(
                "its links take {} of its {} bytes",
                r.at,
                buf.len()
            ));
        }
        take(&out)
    }
}
