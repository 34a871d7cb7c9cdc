//! The compact binary form: its link records, read and written, and the
//! whole-map load.

use std::borrow::Cow;

use super::index::{BLOCK_NODES, Index};
use super::{
    MAGIC, MAX_LINK_TICKS, NAVMAP_FORMAT_VERSION, NavFileError, OLDEST_VERSION, assemble,
    check_prints, check_version, encoded, unpack,
};
use crate::graph::landmarks::Landmarks;
use crate::graph::{EncodedLink, Head, NavMap, NodeId};
use crate::level::{Cell, Level};
use crate::links::LinkKind;
use crate::physics::{Input, Physics};

/// Bytes before the first link record: the magic, the version, the two
/// fingerprints and the link count.
pub(super) const HEADER_BYTES: usize = 8 + 4 + 8 + 8 + 4;

/// The fewest bytes a link record takes: every field, and an empty run
/// list's length (version 1: an empty tape).
const MIN_RECORD_BYTES: usize = 26;

/// The map in the compact binary form: a magic, the version, the
/// fingerprints, the link count, then per link its kind, ends, action
/// ticks, jumps, ticks, and its tape as the byte count of its runs and the
/// runs (see the module docs; integers little-endian); the links leave
/// their nodes in node order, and the index of their blocks ends the file
/// (`index.rs`).
///
/// ```
/// use platnav::io::navfile::{from_bytes, to_bytes};
/// use platnav::{Level, NavMap, Physics};
///
/// let level: Level = "..........\n.S..##..G.\n##########".parse()?;
/// let physics = Physics::default();
/// let map = NavMap::build(&level, &physics)?;
/// let bytes = to_bytes(&map);
/// // Loading checks the file against the level and physics it is for.
/// let loaded = from_bytes(&bytes, &level, &physics)?;
/// assert_eq!(loaded.link_count(), map.link_count());
/// assert!(from_bytes(&bytes, &level, &Physics::agile()).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn to_bytes(map: &NavMap) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + map.link_count() * 40);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&NAVMAP_FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&map.level().fingerprint().to_le_bytes());
    out.extend_from_slice(&map.physics().fingerprint().to_le_bytes());
    out.extend_from_slice(&(map.link_count() as u32).to_le_bytes());
    let nodes = map.node_count();
    let mut index = Index::new(nodes, BLOCK_NODES);
    for v in 0..nodes {
        let node = NodeId(v as u32);
        if v % BLOCK_NODES == 0 {
            index.push(map.link_range(node).start, out.len() as u64);
        }
        for l in map.links_from(node) {
            out.push(l.kind.index() as u8);
            for v in [l.from.col, l.from.row, l.to.col, l.to.row] {
                out.extend_from_slice(&v.to_le_bytes());
            }
            out.extend_from_slice(&l.action_ticks.to_le_bytes());
            out.push(l.jumps);
            out.extend_from_slice(&l.ticks.to_le_bytes());
            // The runs as the map holds them.
            let runs = map.tape_bytes(l.id.index());
            out.extend_from_slice(&(runs.len() as u32).to_le_bytes());
            out.extend_from_slice(runs);
        }
    }
    let links_end = out.len();
    map.landmark_table().write(&mut out);
    index.write(&mut out, links_end);
    out
}

/// Reads the binary form saved for `level` and `physics`.
///
/// # Errors
/// As [`super::from_json`].
pub fn from_bytes(bytes: &[u8], level: &Level, physics: &Physics) -> Result<NavMap, NavFileError> {
    let mut r = Reader::new(bytes);
    let (version, count) = read_header(&mut r, level, physics)?;
    // Version 3 and later end with the index of their blocks.
    let index = if version >= 3 {
        Some(Index::read(bytes, count)?)
    } else {
        None
    };
    let links_end = index.as_ref().map_or(bytes.len(), Index::links_end);
    if count > links_end / MIN_RECORD_BYTES {
        return Err(NavFileError::Malformed(format!(
            "{count} links in {} bytes",
            bytes.len()
        )));
    }
    let mut raw = Vec::with_capacity(count);
    let inputs_of = inputs_of();
    let mut next = 0;
    for i in 0..count {
        if let Some(index) = &index {
            index.check_position(&mut next, i, r.at)?;
        }
        raw.push(read_link(&mut r, i, version, &inputs_of)?);
    }
    if let Some(index) = &index {
        index.check_position(&mut next, count, r.at)?;
    }
    if r.at != links_end {
        return Err(NavFileError::Malformed("trailing bytes".into()));
    }
    // The saved landmark table bounds searches once it agrees with every
    // link (`NavMap::from_encoded` checks), and saves measuring it again.
    let landmarks = match &index {
        Some(index) => Some(
            Landmarks::read(&bytes[index.landmarks()], index.nodes())
                .ok_or_else(|| NavFileError::Malformed("landmark table".into()))?,
        ),
        None => None,
    };
    let map = assemble(raw, level, physics, landmarks)?;
    match index {
        Some(index) if index.nodes() != map.node_count() => Err(NavFileError::Malformed(format!(
            "block index for {} nodes, the level has {}",
            index.nodes(),
            map.node_count()
        ))),
        _ => Ok(map),
    }
}

/// Reads and checks the header; returns the version and the link count.
pub(super) fn read_header(
    r: &mut Reader<'_>,
    level: &Level,
    physics: &Physics,
) -> Result<(u32, usize), NavFileError> {
    if r.take(8)? != MAGIC {
        return Err(NavFileError::Malformed("bad magic".into()));
    }
    let version = r.u32()?;
    check_version(version)?;
    let (lp, pp) = (r.u64()?, r.u64()?);
    check_prints(lp, pp, level, physics)?;
    Ok((version, r.u32()? as usize))
}

/// Each byte's input (the codes' inputs; the other bytes are refused
/// before they are looked up).
pub(super) fn inputs_of() -> [Input; 256] {
    std::array::from_fn(|b| u8::try_from(b).ok().and_then(unpack).unwrap_or_default())
}

/// Reads link `index`'s record, checking its kind, its length (at most
/// [`MAX_LINK_TICKS`]) and its tape bytes; the rest of its tick counts
/// (`check_head`) and its ends are checked where the links are gathered
/// (`assemble`, or a block read lazily).
pub(super) fn read_link<'a>(
    r: &mut Reader<'a>,
    index: usize,
    version: u32,
    inputs_of: &[Input; 256],
) -> Result<EncodedLink<'a>, NavFileError> {
    let bad = |reason: String| NavFileError::BadLink { index, reason };
    let kind = LinkKind::ALL
        .get(usize::from(r.u8()?))
        .copied()
        .ok_or_else(|| bad("unknown kind".into()))?;
    let from = Cell::new(r.i32()?, r.i32()?);
    let to = Cell::new(r.i32()?, r.i32()?);
    let action_ticks = r.u32()?;
    let jumps = r.u8()?;
    let n = r.u32()? as usize;
    if n > MAX_LINK_TICKS {
        return Err(bad(format!("{n} ticks exceeds {MAX_LINK_TICKS}")));
    }
    let tape = if version == OLDEST_VERSION {
        tape_v1(r.take(n)?, inputs_of).map(|inputs| encoded(&inputs))
    } else {
        let len = r.u32()? as usize;
        let runs = r.take(len)?;
        crate::graph::tape::is_exact(runs, n).then_some(Cow::Borrowed(runs))
    };
    let tape = tape.ok_or_else(|| bad("bad input byte".into()))?;
    let head = Head {
        kind,
        to,
        ticks: n as u32,
        action_ticks,
        jumps,
    };
    Ok(EncodedLink { from, head, tape })
}

/// A version 1 tape, one code byte per tick.
fn tape_v1(tape: &[u8], inputs_of: &[Input; 256]) -> Option<Vec<Input>> {
    let ok = tape.iter().all(|&b| b < crate::graph::tape::CODES);
    ok.then(|| tape.iter().map(|&b| inputs_of[usize::from(b)]).collect())
}

/// Reads little-endian fields, erring on a truncated file.
pub(super) struct Reader<'a> {
    bytes: &'a [u8],
    /// The next byte's offset in the file.
    pub(super) at: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, at: 0 }
    }

    pub(super) fn take(&mut self, n: usize) -> Result<&'a [u8], NavFileError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end =
            end.ok_or_else(|| NavFileError::Malformed(format!("truncated at byte {}", self.at)))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    pub(super) fn u8(&mut self) -> Result<u8, NavFileError> {
        Ok(self.take(1)?[0])
    }
    pub(super) fn u32(&mut self) -> Result<u32, NavFileError> {
        let mut b = [0; 4];
        b.copy_from_slice(self.take(4)?);
        Ok(u32::from_le_bytes(b))
    }
    pub(super) fn i32(&mut self) -> Result<i32, NavFileError> {
        Ok(self.u32()? as i32)
    }
    pub(super) fn u64(&mut self) -> Result<u64, NavFileError> {
        let mut b = [0; 8];
        b.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(b))
    }
}
