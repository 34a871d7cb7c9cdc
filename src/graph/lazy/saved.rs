//! A lazy map opened on a saved map (`io::navfile::open_lazy`): a node's
//! links are read from the file, with those of the other nodes of its
//! block, the first time they are needed, instead of generated.
//!
//! Each block is checked as loading a whole map checks its links (see
//! `io::navfile`'s trust model): a block that fails is recorded and its
//! nodes are generated instead, so a damaged file costs time, never a
//! wrong link. The landmark table saved with the map bounds the map's
//! searches while every link taken in agrees with it
//! (`graph/landmarks/saved.rs`); the first that does not drops it.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, Ordering};

use super::{LazyMap, Shared};
use crate::graph::EncodedLink;
use crate::graph::chunk::Chunk;
use crate::graph::landmarks::GoalBound;

/// Reads a saved map's blocks of consecutive nodes.
pub(crate) trait SavedBlocks: Send + Sync {
    /// Nodes a block (the last may hold fewer).
    fn block_nodes(&self) -> usize;

    /// Reads block `b`'s links, in the file's order, each structurally
    /// checked except for its ends, and hands them to `take`; the error
    /// is `take`'s, or says why the block could not be read.
    fn read(
        &self,
        b: usize,
        take: &mut dyn FnMut(&[EncodedLink<'_>]) -> Result<(), String>,
    ) -> Result<(), String>;
}

/// A block not read yet.
const UNREAD: u8 = 0;
/// A block read (or being read).
const TAKEN: u8 = 1;

/// A saved map's blocks, and which have been read.
pub(super) struct Source {
    blocks: Box<dyn SavedBlocks>,
    state: Vec<AtomicU8>,
    refused: Mutex<Vec<String>>,
}

/// What reading a block gave.
pub(super) enum Block {
    /// Its nodes and their links.
    Read(Vec<u32>, Chunk),
    /// It was read before (or is being read).
    Taken,
    /// It failed its checks (recorded); its nodes are to be generated.
    Refused(Vec<u32>),
}

impl Source {
    #[cfg(feature = "serde")]
    fn new(blocks: Box<dyn SavedBlocks>, nodes: usize) -> Self {
        let n = nodes.div_ceil(blocks.block_nodes().max(1));
        Self {
            blocks,
            state: (0..n).map(|_| AtomicU8::new(UNREAD)).collect(),
            refused: Mutex::new(Vec::new()),
        }
    }

    pub(super) fn block_nodes(&self) -> usize {
        self.blocks.block_nodes().max(1)
    }

    pub(super) fn blocks(&self) -> usize {
        self.state.len()
    }

    /// Reads no more blocks (the level was edited: the file is another
    /// level's).
    pub(super) fn close(&self) {
        for s in &self.state {
            s.store(TAKEN, Ordering::Relaxed);
        }
    }

    /// Whether block `b` is still to be read.
    pub(super) fn unread(&self, b: usize) -> bool {
        self.state[b].load(Ordering::Relaxed) == UNREAD
    }
}

/// The nodes of block `b`, `per` nodes a block.
pub(super) fn block_nodes(shared: &Shared, b: usize, per: usize) -> Vec<u32> {
    (b * per..shared.nodes.len().min((b + 1) * per))
        .map(|v| v as u32)
        .collect()
}

/// Reads block `b` of `shared`'s saved map, unless it was read before.
pub(super) fn read_block(shared: &Shared, b: usize) -> Block {
    let Some(source) = &shared.source else {
        return Block::Taken;
    };
    let claimed =
        source.state[b].compare_exchange(UNREAD, TAKEN, Ordering::AcqRel, Ordering::Relaxed);
    if claimed.is_err() {
        return Block::Taken;
    }
    let nodes = block_nodes(shared, b, source.block_nodes());
    let mut chunk = Chunk::default();
    match source
        .blocks
        .read(b, &mut |links| chunk_of(shared, &nodes, links, &mut chunk))
    {
        Ok(()) => Block::Read(nodes, chunk),
        Err(why) => {
            if let Ok(mut refused) = source.refused.lock() {
                refused.push(format!("block {b}: {why}"));
            }
            Block::Refused(nodes)
        }
    }
}

/// Puts the links of a block, whose nodes are `nodes`, into `chunk`: they
/// must leave those nodes in order and end on nodes.
fn chunk_of(
    shared: &Shared,
    nodes: &[u32],
    links: &[EncodedLink<'_>],
    chunk: &mut Chunk,
) -> Result<(), String> {
    let node_of = |c| shared.node_of(c);
    if let Some((i, l)) = links
        .iter()
        .enumerate()
        .find(|(_, l)| node_of(l.head.to).is_none())
    {
        return Err(format!("link {i}: {} is not a standing cell", l.head.to));
    }
    let mut at = 0;
    for &v in nodes {
        let n = links[at..]
            .iter()
            .take_while(|l| node_of(l.from) == Some(v))
            .count();
        chunk.push_encoded(links[at..at + n].iter(), node_of);
        chunk.reads.push_unknown();
        at += n;
    }
    match links.get(at) {
        Some(l) => Err(format!(
            "link {at} leaves {}, not the next node of the block",
            l.from
        )),
        None if chunk.edges.len() != links.len() => Err("a link does not fit a map".into()),
        None => Ok(()),
    }
}

impl LazyMap {
    /// The blocks of the saved map this map was opened on that failed
    /// their checks, and why: their nodes are generated instead (none for
    /// a map not opened on a saved one).
    #[must_use]
    pub fn refused_blocks(&self) -> Vec<String> {
        self.shared
            .source
            .as_ref()
            .and_then(|s| s.refused.lock().ok().map(|r| r.clone()))
            .unwrap_or_default()
    }

    /// A lazy map whose links are read from `blocks` before any is
    /// generated.
    #[cfg(feature = "serde")]
    pub(crate) fn with_saved(
        level: &crate::level::Level,
        physics: &crate::physics::Physics,
        options: &crate::links::LinkOptions,
        blocks: Box<dyn SavedBlocks>,
        bounds: Option<crate::graph::landmarks::Landmarks>,
    ) -> Result<Self, crate::graph::BuildError> {
        let mut map = Self::with_options(level, physics, options)?;
        let nodes = map.shared.nodes.len();
        if let Some(shared) = std::sync::Arc::get_mut(&mut map.shared) {
            shared.source = Some(std::sync::Arc::new(Source::new(blocks, nodes)));
        }
        map.bounds = bounds;
        Ok(map)
    }

    /// Takes in the saved blocks holding those of `nodes` not built yet.
    pub(super) fn read_saved(&mut self, nodes: &[u32]) {
        let Some(source) = self.shared.source.clone() else {
            return;
        };
        let per = source.block_nodes();
        for &v in nodes {
            let b = v as usize / per;
            if !self.store.is_built(v)
                && source.unread(b)
                && let Block::Read(nodes, chunk) = read_block(&self.shared, b)
            {
                self.take_in(&nodes, &chunk);
            }
        }
    }

    /// Takes in every saved block not read yet.
    pub(super) fn read_all_saved(&mut self) {
        let Some(source) = self.shared.source.clone() else {
            return;
        };
        for b in 0..source.blocks() {
            if let Block::Read(nodes, chunk) = read_block(&self.shared, b) {
                self.take_in(&nodes, &chunk);
            }
        }
    }

    /// Takes in the links of `nodes` from `chunk` (those not built yet),
    /// checking them against the saved landmark table; returns how many
    /// nodes were new.
    pub(super) fn take_in(&mut self, nodes: &[u32], chunk: &Chunk) -> usize {
        let added = self.store.absorb(nodes, chunk);
        if added > 0 {
            self.check_bounds(nodes);
        }
        added
    }

    /// Drops the saved landmark table, and says why, when a link of
    /// `nodes` contradicts it: the table then no longer bounds searches.
    pub(super) fn check_bounds(&mut self, nodes: &[u32]) {
        let Some(table) = &self.bounds else { return };
        let bad = nodes.iter().find_map(|&u| {
            self.store.link_ids(u).find_map(|id| {
                let e = self.store.edge(id);
                (!table.consistent_with(u, e.target, u32::from(e.ticks))).then_some((u, e.target))
            })
        });
        if let Some((u, v)) = bad {
            self.bounds = None;
            let (from, to) = (self.shared.nodes[u as usize], self.shared.nodes[v as usize]);
            let why = format!(
                "landmark table: the link {from} -> {to} contradicts it; searches go on without it"
            );
            if let Some(source) = &self.shared.source
                && let Ok(mut refused) = source.refused.lock()
            {
                refused.push(why);
            }
        }
    }

    /// The saved landmark table's bound on the ticks from `node` to the
    /// goal `goal` was prepared for, if the table is in use.
    pub(crate) fn saved_bound(&self, node: u32, goal: &GoalBound) -> u32 {
        self.bounds.as_ref().map_or(0, |t| t.bound_to(node, goal))
    }

    /// The saved landmark table's goal preparation for `goal`, if the
    /// table is in use.
    pub(crate) fn saved_goal(&self, goal: u32) -> Option<GoalBound> {
        self.bounds.as_ref().map(|t| t.goal(goal))
    }

    /// Whether a saved landmark table bounds searches.
    pub(crate) fn has_saved_bounds(&self) -> bool {
        self.bounds.is_some()
    }
}
