//! Building a map: from a level, from a cache, from links, from chunks.

use std::sync::Arc;

use super::chunk::Chunk;
#[cfg(feature = "serde")]
use super::chunk::EncodedLink;
use super::landmarks::Landmarks;
use super::memo::LinkMemo;
use super::{NavMap, lookup, node_table, reduce};
use crate::classify::Classification;
use crate::level::{Cell, Level};
use crate::links::{BuildCache, BuildProgress, Link, LinkOptions, links_and_reads};
use crate::physics::{Physics, PhysicsError};

/// Why [`crate::NavMap::build_with`] returned no map.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The physics profile fails [`crate::Physics::validate`].
    #[error(transparent)]
    Physics(#[from] PhysicsError),
    /// [`BuildProgress::cancel`](crate::BuildProgress::cancel) was called during the build.
    #[error("the build was cancelled")]
    Cancelled,
}

impl NavMap {
    /// Classifies the level and generates every link kind.
    ///
    /// The work is linear in the level's standing cells: each costs at
    /// most [`LinkOptions::max_steps_per_cell`] steps of the body.
    ///
    /// ```
    /// use platnav::{Cell, Level, NavMap, Physics};
    ///
    /// let level: Level = "..........\n.S..##..G.\n##########".parse()?;
    /// let map = NavMap::build(&level, &Physics::default())?;
    /// assert_eq!(map.node_count(), 8, "every floor cell but the block's two");
    /// // The block is jumped over: links lead from its left to its right.
    /// assert!(map.node(Cell::new(1, 1)).is_some());
    /// assert!(map.link_count() > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`BuildError::Physics`] when `physics` fails [`Physics::validate`].
    pub fn build(level: &Level, physics: &Physics) -> Result<Self, BuildError> {
        Self::build_with(level, physics, &LinkOptions::default())
    }

    /// As [`NavMap::build`], generating only the link kinds `options`
    /// enables, with its jump programs, and reporting to its
    /// [`LinkOptions::progress`].
    ///
    /// # Errors
    /// [`BuildError::Physics`] when `physics` fails [`Physics::validate`];
    /// [`BuildError::Cancelled`] when the progress handle was cancelled
    /// before or during the build.
    pub fn build_with(
        level: &Level,
        physics: &Physics,
        options: &LinkOptions,
    ) -> Result<Self, BuildError> {
        Self::build_cached(level, physics, options, &Arc::new(BuildCache::new()))
    }

    /// As [`NavMap::build_with`], generating links with `cache`: what it
    /// holds from earlier builds (jump templates for this physics, grown
    /// branches, landings) is reused, and what this build learns is kept
    /// there. The map is the same with a cold cache or a warm one; the
    /// build is faster warm. The map keeps `cache` for its edits.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use platnav::{BuildCache, LinkOptions, NavMap, Physics, Level};
    ///
    /// let cache = Arc::new(BuildCache::new());
    /// let physics = Physics::default();
    /// let a: Level = "..........\n.S......G.\n##########".parse()?;
    /// let b: Level = "..........\n.S..#...G.\n##########".parse()?;
    /// let first = NavMap::build_cached(&a, &physics, &LinkOptions::default(), &cache)?;
    /// // The second build reuses the templates the first one made.
    /// let second = NavMap::build_cached(&b, &physics, &LinkOptions::default(), &cache)?;
    /// assert!(cache.memory_bytes() > 0);
    /// assert_eq!(second.link_count(), NavMap::build(&b, &physics)?.link_count());
    /// # drop(first);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`NavMap::build_with`].
    pub fn build_cached(
        level: &Level,
        physics: &Physics,
        options: &LinkOptions,
        cache: &Arc<BuildCache>,
    ) -> Result<Self, BuildError> {
        physics.validate()?;
        let progress = options.progress.as_deref();
        let cancelled = || progress.is_some_and(BuildProgress::is_cancelled);
        if cancelled() {
            return Err(BuildError::Cancelled);
        }
        let classes = Classification::new(level, physics);
        let nodes: Vec<Cell> = classes.standable_cells().collect();
        if let Some(progress) = progress {
            progress.start(nodes.len());
        }
        let node_at = node_table(level, &nodes);
        let node_of = |c: Cell| lookup(&node_at, level.width(), level.height(), c);
        // Each node's links are compacted as soon as they are generated, so
        // the uncompressed links of only a few nodes exist at a time.
        let compact = |range: &[Cell]| {
            let mut chunk = Chunk::default();
            let mut worker = cache.worker();
            for &c in range {
                if cancelled() {
                    break;
                }
                let generated = links_and_reads(level, physics, &classes, c, options, &mut worker);
                chunk.push_generated(generated, node_of);
                if let Some(progress) = progress {
                    progress.add(1);
                }
            }
            chunk
        };
        #[cfg(feature = "parallel")]
        let chunks: Vec<Chunk> = {
            use rayon::prelude::*;
            nodes
                .par_chunks(task_len(nodes.len()))
                .map(compact)
                .collect()
        };
        #[cfg(not(feature = "parallel"))]
        let chunks: Vec<Chunk> = nodes.chunks(TASK_NODES).map(compact).collect();
        if cancelled() {
            return Err(BuildError::Cancelled);
        }
        let options = options.clone().with_progress(None);
        Ok(Self::from_chunks(
            level.clone(),
            physics.clone(),
            classes,
            nodes,
            node_at,
            chunks,
            options,
            Arc::clone(cache),
            None,
        ))
    }

    /// A map from already validated links with encoded tapes (a saved
    /// map's), in any order; their runs are kept as they are, so no tape
    /// is decoded.
    #[cfg(feature = "serde")]
    pub(crate) fn from_encoded(
        level: Level,
        physics: Physics,
        classes: Classification,
        nodes: Vec<Cell>,
        links: &[EncodedLink<'_>],
        landmarks: Option<Landmarks>,
    ) -> Self {
        let node_at = node_table(&level, &nodes);
        let node_of = |c: Cell| lookup(&node_at, level.width(), level.height(), c);
        // Each link's node, then the links in node order (a stable sort
        // keeps a node's links in the order given).
        let mut order: Vec<(u32, u32)> = links
            .iter()
            .enumerate()
            .filter_map(|(i, l)| Some((node_of(l.from)?, i as u32)))
            .collect();
        order.sort_by_key(|&(node, _)| node);
        let mut chunk = Chunk::default();
        let mut at = 0;
        for node in 0..nodes.len() as u32 {
            let end = at + order[at..].partition_point(|&(n, _)| n == node);
            let group = order[at..end].iter().map(|&(_, i)| &links[i as usize]);
            chunk.push_encoded(group, node_of);
            // What these links read is unknown: the first edit rebuilds
            // every node.
            chunk.reads.push_unknown();
            at = end;
        }
        Self::from_chunk(level, physics, classes, (nodes, node_at), chunk, landmarks)
    }

    /// A map from each node's links (`per_node[i]` leave `nodes[i]`).
    pub(crate) fn assemble(
        level: Level,
        physics: Physics,
        classes: Classification,
        nodes: Vec<Cell>,
        per_node: Vec<Vec<Link>>,
    ) -> Self {
        let node_at = node_table(&level, &nodes);
        let mut chunk = Chunk::default();
        for group in per_node {
            chunk.push_node(group, |c| {
                lookup(&node_at, level.width(), level.height(), c)
            });
            // What these links read is unknown: the first edit rebuilds
            // every node.
            chunk.reads.push_unknown();
        }
        Self::from_chunk(level, physics, classes, (nodes, node_at), chunk, None)
    }

    /// The map of one chunk of links read or put together outside a build
    /// (default options, a cache of its own), with `landmarks` as its
    /// bounds when they agree with the links.
    fn from_chunk(
        level: Level,
        physics: Physics,
        classes: Classification,
        (nodes, node_at): (Vec<Cell>, Vec<u32>),
        chunk: Chunk,
        landmarks: Option<Landmarks>,
    ) -> Self {
        Self::from_chunks(
            level,
            physics,
            classes,
            nodes,
            node_at,
            vec![chunk],
            LinkOptions::default(),
            Arc::new(BuildCache::new()),
            landmarks,
        )
    }

    /// The map of `chunks` (each node's links, in node order), with its
    /// landmark bounds measured, or `known` when it agrees with the links
    /// (a saved table; see `landmarks/saved.rs`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn from_chunks(
        level: Level,
        physics: Physics,
        classes: Classification,
        nodes: Vec<Cell>,
        node_at: Vec<u32>,
        chunks: Vec<Chunk>,
        options: LinkOptions,
        cache: Arc<BuildCache>,
        known: Option<Landmarks>,
    ) -> Self {
        let Chunk {
            counts,
            edges,
            action,
            tape_lens,
            tapes,
            reads,
        } = Chunk::concat(chunks);
        let links = edges.len();
        let mut offsets = Vec::with_capacity(nodes.len() + 1);
        offsets.push(0u32);
        let mut at = 0u32;
        offsets.extend(counts.iter().map(|&n| {
            at += n;
            at
        }));
        let mut at = 0u32;
        let tape_at: Vec<u32> = tape_lens
            .iter()
            .map(|&n| {
                at += n;
                at - n
            })
            .collect();
        debug_assert_eq!(offsets.len(), nodes.len() + 1);
        debug_assert_eq!(reads.len(), nodes.len());
        let landmarks = known
            .filter(|t| t.consistent(&offsets, &edges))
            .unwrap_or_else(|| Landmarks::compute(&offsets, &edges));
        let (hop_at, hops) = reduce(&offsets, &edges, &nodes);
        let ticks_per_col = crate::physics::ticks_per_col(&physics);
        Self {
            level,
            physics,
            classes,
            nodes,
            node_at,
            offsets,
            edges,
            hop_at,
            hops,
            action,
            tape_at,
            tapes,
            tape_garbage: 0,
            landmarks,
            ticks_per_col,
            memo: LinkMemo::new(links),
            labels: crate::graph::pool::ScratchPool::default(),
            reads,
            options,
            generation: 0,
            cache,
        }
    }
}

/// The most nodes a build task generates.
const TASK_NODES: usize = 64;

/// Nodes a build task generates on a level of `nodes` standing cells:
/// [`TASK_NODES`], or fewer on a small level, so that every core gets a few
/// tasks: a room of a few dozen cells, where slopes can cost milliseconds
/// a cell, would otherwise build on one core. The links do not depend on
/// how the nodes are split: each node's are generated alone.
#[cfg(feature = "parallel")]
fn task_len(nodes: usize) -> usize {
    nodes
        .div_ceil(4 * rayon::current_num_threads())
        .clamp(1, TASK_NODES)
}
