//! The index that ends a binary map (version 3 on): where the links of
//! each block of [`BLOCK_NODES`] consecutive nodes start, so that a lazy
//! map can read one block without the rest of the file.
//!
//! After the links comes the map's landmark table
//! (`graph/landmarks/saved.rs`), then, at offset `T`, the index: the node
//! count (u32), the nodes a block (u32), the offset where the links end and
//! the table starts (u64), then per block the index of its first link
//! (u32) and that link's byte offset in the file (u64); the file's last 8
//! bytes are `T`. A block's links run to the next block's first, the last
//! block's to the end of the links.

use std::ops::Range;

use super::NavFileError;
use super::binary::{HEADER_BYTES, Reader};

/// Nodes a block holds in the maps this build writes (the background
/// build's unit too).
pub(crate) const BLOCK_NODES: usize = 64;

/// The most nodes a block of a file may hold.
const MAX_BLOCK_NODES: usize = 4096;

/// Bytes a block's entry takes.
const ENTRY_BYTES: usize = 4 + 8;

/// The blocks of a binary map.
#[derive(Debug)]
pub(super) struct Index {
    nodes: usize,
    block_nodes: usize,
    /// Per block, its first link.
    firsts: Vec<u32>,
    /// Per block, its first link's byte offset.
    offsets: Vec<u64>,
    /// Where the links end and the landmark table starts.
    links_end: u64,
    /// Where the index starts: the end of the landmark table.
    start: u64,
    links: usize,
}

fn malformed(what: impl std::fmt::Display) -> NavFileError {
    NavFileError::Malformed(format!("block index: {what}"))
}

impl Index {
    /// An empty index for `nodes` nodes, `block_nodes` a block.
    pub(super) fn new(nodes: usize, block_nodes: usize) -> Self {
        Self {
            nodes,
            block_nodes,
            firsts: Vec::new(),
            offsets: Vec::new(),
            links_end: 0,
            start: 0,
            links: 0,
        }
    }

    /// Records the next block: its first link and that link's offset.
    pub(super) fn push(&mut self, first: u32, offset: u64) {
        self.firsts.push(first);
        self.offsets.push(offset);
    }

    /// Appends the index to `out`, which holds the header, the links
    /// (to byte `links_end`) and the landmark table.
    pub(super) fn write(&self, out: &mut Vec<u8>, links_end: usize) {
        let start = out.len() as u64;
        out.extend_from_slice(&(self.nodes as u32).to_le_bytes());
        out.extend_from_slice(&(self.block_nodes as u32).to_le_bytes());
        out.extend_from_slice(&(links_end as u64).to_le_bytes());
        for (&first, &offset) in self.firsts.iter().zip(&self.offsets) {
            out.extend_from_slice(&first.to_le_bytes());
            out.extend_from_slice(&offset.to_le_bytes());
        }
        out.extend_from_slice(&start.to_le_bytes());
    }

    /// Where the index of a file of `len` bytes starts, from its last 8
    /// bytes `tail`.
    pub(super) fn start_of(tail: &[u8], len: u64) -> Result<u64, NavFileError> {
        let start = Reader::new(tail).u64()?;
        let fits = start >= HEADER_BYTES as u64 && start.checked_add(24).is_some_and(|e| e <= len);
        if !fits {
            return Err(malformed(format!("starts at byte {start} of {len}")));
        }
        Ok(start)
    }

    /// The index of a whole file in memory holding `links` links.
    pub(super) fn read(bytes: &[u8], links: usize) -> Result<Self, NavFileError> {
        let len = bytes.len() as u64;
        let tail = bytes.get(bytes.len().saturating_sub(8)..).unwrap_or(&[]);
        let start = Self::start_of(tail, len)?;
        Self::parse(&bytes[start as usize..], start, links)
    }

    /// Parses the index `bytes` (to the end of the file), which starts at
    /// byte `start`, of a file holding `links` links, and checks that its
    /// blocks tile the links.
    pub(super) fn parse(bytes: &[u8], start: u64, links: usize) -> Result<Self, NavFileError> {
        let mut r = Reader::new(bytes);
        let (nodes, block_nodes) = (r.u32()? as usize, r.u32()? as usize);
        if !(1..=MAX_BLOCK_NODES).contains(&block_nodes) {
            return Err(malformed(format!("{block_nodes} nodes a block")));
        }
        let links_end = r.u64()?;
        let blocks = nodes.div_ceil(block_nodes);
        if bytes.len() != 16 + blocks * ENTRY_BYTES + 8 {
            return Err(malformed(format!(
                "{} bytes for {blocks} blocks",
                bytes.len()
            )));
        }
        if !(HEADER_BYTES as u64..=start).contains(&links_end) {
            return Err(malformed(format!("links end at byte {links_end}")));
        }
        let mut index = Self::new(nodes, block_nodes);
        for _ in 0..blocks {
            index.push(r.u32()?, r.u64()?);
        }
        index.links_end = links_end;
        index.start = start;
        index.links = links;
        index.check()?;
        Ok(index)
    }

    /// The blocks start at the first link and the links' first byte, in
    /// order, within the links.
    fn check(&self) -> Result<(), NavFileError> {
        if self.firsts.is_empty() {
            return if self.links == 0 && self.links_end == HEADER_BYTES as u64 {
                Ok(())
            } else {
                Err(malformed("links but no blocks"))
            };
        }
        let ordered = |v: &[u64]| v.windows(2).all(|w| w[0] <= w[1]);
        let firsts: Vec<u64> = self.firsts.iter().map(|&f| u64::from(f)).collect();
        let ok = firsts[0] == 0
            && self.offsets[0] == HEADER_BYTES as u64
            && ordered(&firsts)
            && ordered(&self.offsets)
            && firsts.last().is_some_and(|&f| f <= self.links as u64)
            && self.offsets.last().is_some_and(|&o| o <= self.links_end);
        if ok {
            Ok(())
        } else {
            Err(malformed("blocks out of order or past the links"))
        }
    }

    /// Where the links end.
    pub(super) fn links_end(&self) -> usize {
        self.links_end as usize
    }

    /// The bytes of the landmark table.
    pub(super) fn landmarks(&self) -> Range<usize> {
        self.links_end as usize..self.start as usize
    }

    /// Nodes the file was written for.
    pub(super) fn nodes(&self) -> usize {
        self.nodes
    }

    /// Nodes a block.
    pub(super) fn block_nodes(&self) -> usize {
        self.block_nodes
    }

    /// Checks that link `link`, whose record starts at byte `at`, starts
    /// where the index says, if a block starts with it; `next` is the
    /// first block not checked yet (links are checked in order, from 0).
    pub(super) fn check_position(
        &self,
        next: &mut usize,
        link: usize,
        at: usize,
    ) -> Result<(), NavFileError> {
        while let Some(&first) = self.firsts.get(*next) {
            if first as usize > link {
                break;
            }
            let b = *next;
            if first as usize != link || self.offsets[b] != at as u64 {
                return Err(malformed(format!(
                    "block {b} starts at byte {}, link {link} at {at}",
                    self.offsets[b]
                )));
            }
            *next += 1;
        }
        Ok(())
    }

    /// Block `b`'s links and the bytes they take.
    pub(super) fn block(&self, b: usize) -> (Range<usize>, Range<u64>) {
        let next = |v: &[u32], end: usize| v.get(b + 1).map_or(end, |&x| x as usize);
        let links = self.firsts[b] as usize..next(&self.firsts, self.links);
        let end = self.offsets.get(b + 1).copied().unwrap_or(self.links_end);
        (links, self.offsets[b]..end)
    }
}
