//! Live edits: a changed tile rebuilds only the nodes whose links read it.
//!
//! A node's links are a deterministic function of the tiles and standable
//! cells their generation looked up (plus the level's size, and whether it
//! has hazards); the build records those lookups per node (which cells,
//! within a window around the node; their bounding box beyond it). An
//! edit therefore:
//!
//! 1. sets the tiles, and reclassifies the level;
//! 2. collects the *changed cells*: the edited tiles, and every cell whose
//!    standability changed;
//! 3. regenerates the links of every node that read a changed cell, and of
//!    every new node (recording their reads afresh); every other node keeps
//!    its links, tapes and reads, which a fresh build would give it bit
//!    for bit;
//! 4. splices the window of node ids holding every rebuilt, added or
//!    removed node into the link arrays and the search's reduced graph in
//!    place (the nodes before the window keep their ids, those after it
//!    move by the change in count, and the links after it are renumbered
//!    as they move), and bumps [`NavMap::generation`].
//!
//! The search's landmark bounds are repaired, not measured again
//! (measuring takes a few Dijkstra runs over the whole map, tens of
//! milliseconds at 256 x 256 and seconds at 1024 x 1024): the links of the
//! rebuilt nodes are the only new ones, and the landmark table only needs
//! to stay a set of potentials along every link (`crate::landmarks`).
//! Distances from a landmark are lowered where a new link breaks that, and
//! the decrease passed on along links; distances to a landmark the same
//! way backwards, through an index of incoming links built for the edit
//! (on maps of up to [`REVERSE_LINKS`] links; beyond, only at new nodes).
//! A half that cannot be repaired that way, or within a budget, is
//! dropped. Exact search stays exact; [`NavMap::landmark_bounds`] counts
//! the halves still live, and [`NavMap::refresh_bounds`] measures the table
//! again, when a frame has time to spare, or on a clone in the background
//! that then replaces the map.
//!
//! An edit that adds the level's first hazard, ladder or slope, or removes
//! its last one, changes what every body step checks, and rebuilds the
//! whole map; so does
//! the first edit of a map loaded from a file, whose reads were not
//! recorded.

use std::ops::Range;

use super::{Chunk, Edge, Hop, NO_NODE, NavMap};
use crate::classify::Classification;
use crate::graph::landmarks::Landmarks;
use crate::graph::splice::{splice, splice_ends, splice_map};
use crate::level::{Cell, Level, Tile};
use crate::links::{Link, WorkerGuard, links_recorded};
use crate::mechanics::Active;
use crate::physics::reads::Reads;

/// Relaxations an edit's repair of one landmark bound may take at least
/// (a 64th of the nodes on larger maps) before it drops the bound. Most
/// repairs take a few; one in a few edits lowers a region of hundreds to
/// a few thousand nodes. The 64 bounds together take at most about one
/// Dijkstra run, where measuring them again takes 64.
const BOUND_BUDGET: usize = 1024;

/// The most links a map may have for an edit to index them backwards when
/// it repairs distances to the landmarks (about 8 MB, a millisecond; on
/// larger maps a bound it would need that for is dropped instead).
const REVERSE_LINKS: usize = 1 << 20;

/// The node count from which an edit looks for the nodes that read a
/// changed cell on every core the build uses (on smaller maps starting
/// the threads costs more than the scan).
#[cfg(feature = "parallel")]
const PARALLEL_SCAN: usize = 1 << 15;

/// What an edit did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct EditReport {
    /// Tiles whose value changed (an edit setting a tile to what it holds
    /// changes nothing).
    pub tiles_changed: usize,
    /// Cells that became standable or stopped being standable.
    pub standability_changed: usize,
    /// Nodes whose links were generated again.
    pub nodes_rebuilt: usize,
    /// Whether the whole map was rebuilt (see the module documentation).
    pub full_rebuild: bool,
    /// The map's generation after the edit.
    pub generation: u64,
}

/// Why an edit was refused (the map is then unchanged).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EditError {
    /// A cell outside the level.
    #[error("cell {cell} is outside the {width} x {height} level")]
    OffMap {
        /// The cell.
        cell: Cell,
        /// The level's width.
        width: usize,
        /// The level's height.
        height: usize,
    },
    /// A rebuild of the whole map failed.
    #[error(transparent)]
    Build(#[from] crate::graph::BuildError),
}

impl NavMap {
    /// How many edits have changed this map: 0 when built or loaded, one
    /// more after each [`NavMap::edit`] that changed a tile. A path found
    /// at an older generation may use links that no longer exist.
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Whether an edit dropped some of the search's landmark bounds (see
    /// the module documentation); queries are exact either way.
    #[must_use]
    pub fn bounds_stale(&self) -> bool {
        self.landmarks.stale()
    }

    /// How many of the search's landmark bounds still bound routes after
    /// edits: `(live, measured)`, two per landmark (routes from it and to
    /// it). Equal on a fresh build; [`NavMap::refresh_bounds`] makes them
    /// equal again.
    #[must_use]
    pub fn landmark_bounds(&self) -> (usize, usize) {
        self.landmarks.halves()
    }

    /// Measures the search's landmark bounds again after edits, so that
    /// exact queries are as fast as on a fresh build. Does nothing when
    /// they are current.
    pub fn refresh_bounds(&mut self) {
        if self.landmarks.stale() {
            self.landmarks =
                crate::graph::landmarks::Landmarks::compute(&self.offsets, &self.edges);
        }
    }

    /// Sets one tile and updates the map (see [`NavMap::edit`]).
    ///
    /// # Errors
    /// [`EditError::OffMap`] for a cell outside the level.
    pub fn set_tile(&mut self, cell: Cell, tile: Tile) -> Result<EditReport, EditError> {
        self.edit(&[(cell, tile)])
    }

    /// Sets tiles (one, or a brush of many; a later entry for the same
    /// cell wins) and updates the map in place: only the nodes whose links
    /// read a changed cell are generated again, and the result equals a
    /// fresh build of the edited level, link for link and tape for tape.
    ///
    /// ```
    /// use platnav::{Cell, Level, NavMap, Physics, Tile};
    /// let rows = [".".repeat(40), ".".repeat(40), format!(".S{}G.", ".".repeat(36)), "#".repeat(40)];
    /// let level: Level = rows.join("\n").parse()?;
    /// let mut map = NavMap::build(&level, &Physics::default())?;
    /// // A wall goes up between spawn and goal.
    /// let report = map.edit(&[(Cell::new(20, 2), Tile::SOLID), (Cell::new(20, 1), Tile::SOLID)])?;
    /// assert_eq!(map.generation(), 1);
    /// assert_eq!(report.tiles_changed, 2);
    /// assert_eq!(map.level().get(Cell::new(20, 2)), Some(Tile::SOLID));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`EditError::OffMap`] for a cell outside the level; nothing is
    /// changed then. [`EditError::Build`] cannot happen for a map built or
    /// loaded here (its physics were validated).
    pub fn edit(&mut self, changes: &[(Cell, Tile)]) -> Result<EditReport, EditError> {
        let (width, height) = (self.level.width(), self.level.height());
        if let Some(&(cell, _)) = changes.iter().find(|(c, _)| !self.level.contains(*c)) {
            return Err(EditError::OffMap {
                cell,
                width,
                height,
            });
        }
        // The level and its classification are edited in place (cloning
        // them took half a millisecond at 1024 x 1024), and put back if
        // the edit fails.
        let before: Vec<(Cell, Option<Tile>)> = changes
            .iter()
            .map(|&(c, _)| (c, self.level.get(c)))
            .collect();
        // What every step of the body checks first (PHYSICS.md: hazards,
        // ladders and slopes are looked for only on levels that have them).
        let rules = |l: &crate::level::Level| (l.holds(Tile::HAZARD), Active::of(l));
        let had_rules = rules(&self.level);
        for &(cell, tile) in changes {
            self.level.set(cell, tile);
        }
        let mut changed: Vec<Cell> = before
            .iter()
            .filter(|&&(c, t)| self.level.get(c) != t)
            .map(|&(c, _)| c)
            .collect();
        changed.sort_unstable();
        changed.dedup();
        let tiles_changed = changed.len();
        if tiles_changed == 0 {
            return Ok(EditReport {
                tiles_changed: 0,
                standability_changed: 0,
                nodes_rebuilt: 0,
                full_rebuild: false,
                generation: self.generation,
            });
        }
        let (lo, hi) = bounds(&changed);
        let mut classes = std::mem::replace(&mut self.classes, Classification::empty());
        let standability_changed = classes.update(&self.level, &self.physics, lo, hi);
        let standability_count = standability_changed.len();
        // In the nodes' (row-major) order.
        let flips = standability_changed;
        changed.extend_from_slice(&flips);
        let generation = self.generation + 1;
        let full = had_rules != rules(&self.level) || self.reads.any_unknown();
        let nodes_rebuilt = if full {
            self.rebuild_whole(&before, classes, (lo, hi), generation)?
        } else {
            self.relink(classes, &changed, &flips, generation)
        };
        Ok(EditReport {
            tiles_changed,
            standability_changed: standability_count,
            nodes_rebuilt,
            full_rebuild: full,
            generation,
        })
    }

    /// Rebuilds the whole edited map, as generation `generation`, and
    /// returns its node count. When the build fails, puts back the tiles
    /// `before` the edit and the classification (`classes`, updated again
    /// over `lo`-`hi`), and the map is as it was.
    fn rebuild_whole(
        &mut self,
        before: &[(Cell, Option<Tile>)],
        mut classes: Classification,
        (lo, hi): (Cell, Cell),
        generation: u64,
    ) -> Result<usize, EditError> {
        let built = NavMap::build_cached(&self.level, &self.physics, &self.options, &self.cache);
        let mut map = match built {
            Ok(map) => map,
            Err(e) => {
                for &(c, t) in before.iter().rev() {
                    if let Some(t) = t {
                        self.level.set(c, t);
                    }
                }
                classes.update(&self.level, &self.physics, lo, hi);
                self.classes = classes;
                return Err(e.into());
            }
        };
        map.generation = generation;
        let nodes_rebuilt = map.node_count();
        *self = map;
        Ok(nodes_rebuilt)
    }

    /// Updates the map in place (steps 3 and 4 of the module
    /// documentation), as generation `generation`, with the edited level's
    /// classification `classes`: `changed` holds the edited cells and then
    /// `flips`, those whose standability changed. Returns the nodes
    /// rebuilt.
    fn relink(
        &mut self,
        classes: Classification,
        changed: &[Cell],
        flips: &[Cell],
        generation: u64,
    ) -> usize {
        let rect = bounds(changed);
        let touched = self.touched(rect, changed);
        let (window, cells) = self.window(&classes, &touched, flips);
        // Per window node: its old node, rebuilt or kept.
        let olds: Vec<Option<u32>> = cells.iter().map(|&c| self.node(c).map(|n| n.0)).collect();
        // Per window node: its old node when that one's links still hold.
        let keep: Vec<Option<u32>> = olds
            .iter()
            .map(|o| o.filter(|&n| touched.binary_search(&(n as usize)).is_err()))
            .collect();
        let rebuild: Vec<Cell> = cells
            .iter()
            .zip(&keep)
            .filter(|(_, k)| k.is_none())
            .map(|(&c, _)| c)
            .collect();
        let fresh = self.generate(&self.level, &classes, &rebuild);
        self.splice_window(
            window.clone(),
            &cells,
            (&olds, &keep),
            fresh,
            &classes,
            !flips.is_empty(),
        );
        let budget = BOUND_BUDGET.max(self.nodes.len() / 64);
        let relinked: Vec<bool> = keep.iter().map(Option::is_none).collect();
        self.landmarks.repair(
            window.start,
            &olds,
            &relinked,
            &self.offsets,
            &self.edges,
            (budget, REVERSE_LINKS),
        );
        self.classes = classes;
        self.memo = crate::graph::memo::LinkMemo::new(self.edges.len());
        self.labels = crate::graph::pool::ScratchPool::default();
        self.generation = generation;
        rebuild.len()
    }

    /// The window of node ids an edit rewrites, and the cells of its nodes
    /// after the edit: every `touched` node, and every node added or
    /// removed (the cells in `flips`, whose standability changed). The
    /// nodes before the window keep their ids and links; those after it
    /// keep their links, their ids moved by the change in count.
    fn window(
        &self,
        classes: &Classification,
        touched: &[usize],
        flips: &[Cell],
    ) -> (Range<usize>, Vec<Cell>) {
        let (mut lo, mut hi) = (usize::MAX, 0);
        for &n in touched {
            (lo, hi) = (lo.min(n), hi.max(n + 1));
        }
        for &c in flips {
            let at = self.nodes.partition_point(|&x| row_major(x) < row_major(c));
            let end = at + usize::from(self.node(c).is_some());
            (lo, hi) = (lo.min(at), hi.max(end));
        }
        if lo > hi {
            (lo, hi) = (0, 0);
        }
        let mut cells: Vec<Cell> = self.nodes[lo..hi]
            .iter()
            .copied()
            .filter(|&c| classes.is_standable(c))
            .collect();
        cells.extend(flips.iter().copied().filter(|&c| classes.is_standable(c)));
        cells.sort_unstable_by_key(|&c| row_major(c));
        (lo..hi, cells)
    }

    /// The old nodes whose links read one of `changed` (whose bounding
    /// rectangle is `rect`), in order. Every node's box is looked at: a
    /// millisecond at 1024 x 1024, so on large maps on every core the
    /// build uses.
    fn touched(&self, rect: (Cell, Cell), changed: &[Cell]) -> Vec<usize> {
        let is_touched = |&n: &usize| self.reads.touched(n, rect, changed);
        #[cfg(feature = "parallel")]
        if self.nodes.len() >= PARALLEL_SCAN {
            use rayon::prelude::*;
            return (0..self.nodes.len())
                .into_par_iter()
                .filter(is_touched)
                .collect();
        }
        (0..self.nodes.len()).filter(is_touched).collect()
    }

    /// The links of the nodes on `cells` in the edited `level`, with what
    /// each read, generated on every core the build uses.
    fn generate(
        &self,
        level: &Level,
        classes: &Classification,
        cells: &[Cell],
    ) -> Vec<(Vec<Link>, Reads)> {
        let (physics, options) = (&self.physics, &self.options);
        let generate = |worker: &mut WorkerGuard<'_>, &c: &Cell| {
            let reads = Reads::new(c);
            let links = links_recorded(level, physics, classes, c, options, Some(&reads), worker);
            (links, reads)
        };
        #[cfg(feature = "parallel")]
        if cells.len() > 1 {
            use rayon::prelude::*;
            return cells
                .par_iter()
                .map_init(|| self.cache.worker(), generate)
                .collect();
        }
        let mut worker = self.cache.worker();
        cells.iter().map(|c| generate(&mut worker, c)).collect()
    }

    /// Puts the window's nodes (on `cells`, their old nodes `olds`, their
    /// links kept or `fresh` as `keep` says) in place of the nodes of
    /// `window`, in the node table, in every per-node and per-link array
    /// and in the landmark table (not yet repaired); `ids_moved` when
    /// nodes were added or removed.
    fn splice_window(
        &mut self,
        window: Range<usize>,
        cells: &[Cell],
        (olds, keep): (&[Option<u32>], &[Option<u32>]),
        fresh: Vec<(Vec<Link>, Reads)>,
        classes: &Classification,
        ids_moved: bool,
    ) {
        let (width, height) = (self.level.width(), self.level.height());
        let Range { start: lo, end: hi } = window;
        // Old id to new: the same before the window, moved by the change in
        // count after it, looked up inside it (none for a removed node).
        let moved = (cells.len() as u32).wrapping_sub((hi - lo) as u32);
        let inside = self.window_ids(lo..hi, cells);
        let (lo32, hi32) = (lo as u32, hi as u32);
        let remap = |t: u32| {
            if t >= hi32 {
                t.wrapping_add(moved)
            } else if t >= lo32 {
                inside[(t - lo32) as usize]
            } else {
                t
            }
        };
        // The nodes. The cell table is renumbered with the arrays, below;
        // until then a cell's new node is its place among the window's
        // cells, or its old node renumbered.
        let removed: Vec<Cell> = self.nodes[lo..hi]
            .iter()
            .copied()
            .filter(|&c| !classes.is_standable(c))
            .collect();
        splice(&mut self.nodes, lo..hi, cells);
        let node_of = |c: Cell| match cells.binary_search_by_key(&row_major(c), |&x| row_major(x)) {
            Ok(i) => Some((lo + i) as u32),
            Err(_) => super::lookup(&self.node_at, width, height, c)
                .map(remap)
                .filter(|&n| n != NO_NODE),
        };
        let (links, hops) = (
            self.offsets[lo] as usize..self.offsets[hi] as usize,
            self.hop_at[lo] as usize..self.hop_at[hi] as usize,
        );
        // The landmark rows depend on neither the window's links nor the
        // arrays: they move (22 MB at 1024 x 1024) while the links are
        // gathered.
        let mut landmarks = std::mem::take(&mut self.landmarks);
        let (chunk, hop_counts, new_hops) = self.gather_window(
            (&mut landmarks, olds),
            lo..hi,
            keep,
            fresh,
            (&remap, &node_of),
            links.start as u32,
        );
        self.landmarks = landmarks;
        let shift = (chunk.edges.len() as u32).wrapping_sub(links.len() as u32);
        // The window's tapes go after all the others, and the ones they
        // replace are left behind: the tapes after the window stay put.
        let replaced: usize = links.clone().map(|l| self.tape_bytes(l).len()).sum();
        let starts = self.tape_starts(&chunk);
        // The nodes whose ids changed: those of the window, and all after
        // it when their count changed.
        let renumbered = if moved == 0 {
            lo + cells.len()
        } else {
            self.nodes.len()
        };
        self.splice_tails(
            (lo..hi, links, hops),
            (&chunk, &starts, &hop_counts, &new_hops),
            (&removed, renumbered),
            (ids_moved, shift),
            &remap,
        );
        debug_assert!(
            (self.hop_at.clone(), self.hops.clone())
                == super::reduce(&self.offsets, &self.edges, &self.nodes),
            "patched hops differ"
        );
        self.tape_garbage += replaced;
        if self.tape_garbage > self.tapes.len() / 2 {
            self.compact_tapes();
        }
    }

    /// Lays the window's new links, tapes, hops and reads (`chunk`, the
    /// tapes' `starts`, the hops and their counts per node) in place of
    /// those of the nodes, links and hops `window`, `links` and `hops`,
    /// and points the cell table at the new ids of the nodes of
    /// `nodes[window.start..renumbered]`, and at none for the `removed`
    /// nodes' cells. `ids_moved` when nodes were added or removed, `shift`
    /// the change in link count, `remap` old node ids to new.
    fn splice_tails(
        &mut self,
        (window, links, hops): (Range<usize>, Range<usize>, Range<usize>),
        (chunk, starts, hop_counts, new_hops): (&Chunk, &[u32], &[u32], &[Hop]),
        (removed, renumbered): (&[Cell], usize),
        (ids_moved, shift): (bool, u32),
        remap: &(impl Fn(u32) -> u32 + Sync),
    ) {
        let (width, height) = (self.level.width(), self.level.height());
        let Range { start: lo, end: hi } = window;
        let lo32 = lo as u32;
        // Links and hops outside the window point to nodes whose ids may
        // have moved, and the links the hops after the window name moved by
        // the change in link count: the items after the window are
        // renumbered as they move (one pass over them, not two), those
        // before it in place. On the largest maps these tails are most of
        // an edit's time, so they move on two threads, about half the
        // bytes each (at 1024 x 1024: links, tape ends, actions, reads and
        // the cell table, 50 MB; hops and tapes, 41 MB, the hops' renumbering
        // being the dearer).
        let NavMap {
            edges,
            action,
            tapes: tape_bytes,
            tape_at,
            offsets,
            hops: hop_list,
            hop_at,
            reads,
            nodes,
            node_at,
            ..
        } = self;
        let slot = |c: Cell| super::index(width, height, c).expect("a node lies on the level");
        let first_half = || {
            splice_edges(edges, links.clone(), &chunk.edges, (lo32, ids_moved), remap);
            splice(action, links.clone(), &chunk.action);
            reads.splice(lo..hi, &chunk.reads);
            renumber_cells(node_at, nodes, removed, (lo, renumbered), &slot);
        };
        let second_half = || {
            append_tapes(tape_bytes, &chunk.tapes);
            splice(tape_at, links.clone(), starts);
            splice_ends(offsets, lo..hi, &chunk.counts);
            let renumber = (lo32, ids_moved, shift);
            splice_hops(hop_list, hops.clone(), new_hops, renumber, remap);
            splice_ends(hop_at, lo..hi, hop_counts);
        };
        #[cfg(feature = "parallel")]
        rayon::join(first_half, second_half);
        #[cfg(not(feature = "parallel"))]
        {
            // By value: one half may be `FnOnce`, the other `FnMut`.
            fn run(half: impl FnOnce()) {
                half();
            }
            run(first_half);
            run(second_half);
        }
    }

    /// Per old node of `window`, its new id: its place among the window's
    /// `cells` (which hold the nodes after the edit), or [`NO_NODE`] when
    /// it was removed.
    fn window_ids(&self, window: Range<usize>, cells: &[Cell]) -> Vec<u32> {
        let Range { start: lo, end: hi } = window;
        let mut inside = vec![NO_NODE; hi - lo];
        for (i, &c) in cells.iter().enumerate() {
            if let Some(n) = self.node(c) {
                inside[n.0 as usize - lo] = (lo + i) as u32;
            }
        }
        inside
    }

    /// [`NavMap::window_links`] (see there for `keep`, `fresh`, `ids` and
    /// `first`), while the rows of `landmarks` for the nodes of `window`
    /// (whose old nodes are `olds`) are spliced, on another thread when
    /// the build is parallel.
    fn gather_window(
        &self,
        (landmarks, olds): (&mut Landmarks, &[Option<u32>]),
        window: Range<usize>,
        keep: &[Option<u32>],
        fresh: Vec<(Vec<Link>, Reads)>,
        ids: (
            &(impl Fn(u32) -> u32 + Sync),
            &(impl Fn(Cell) -> Option<u32> + Sync),
        ),
        first: u32,
    ) -> (Chunk, Vec<u32>, Vec<Hop>) {
        let gather = || self.window_links(keep, fresh, ids, first);
        #[cfg(feature = "parallel")]
        {
            rayon::join(gather, || landmarks.splice_rows(window, olds)).0
        }
        #[cfg(not(feature = "parallel"))]
        {
            landmarks.splice_rows(window, olds);
            gather()
        }
    }

    /// Where each of the window's new tapes (`chunk`'s) will start once
    /// they are appended after every other tape. The tapes are laid end to
    /// end again first when the appended tapes would end past `u32` offsets.
    fn tape_starts(&mut self, chunk: &Chunk) -> Vec<u32> {
        if u32::try_from(self.tapes.len() + chunk.tapes.len()).is_err() {
            self.compact_tapes();
        }
        let mut at = self.tapes.len() as u32;
        chunk
            .tape_lens
            .iter()
            .map(|&n| {
                at += n;
                at - n
            })
            .collect()
    }

    /// Link `l`'s tape, in `tapes`.
    fn tape_bytes(&self, l: usize) -> &[u8] {
        let runs = &self.tapes[self.tape_at[l] as usize..];
        &runs[..crate::graph::tape::byte_len(runs, usize::from(self.edges[l].ticks))]
    }

    /// Lays the tapes end to end again, in link order, dropping the bytes
    /// edits left behind (once they are half of them: each edit leaves a
    /// few kilobytes, so this comes seldom and costs a pass over the tapes).
    fn compact_tapes(&mut self) {
        let live = self.tapes.len() - self.tape_garbage;
        let mut tapes = Vec::with_capacity(live + live / 8);
        for l in 0..self.tape_at.len() {
            let tape = self.tape_bytes(l);
            let at = tapes.len() as u32;
            tapes.extend_from_slice(tape);
            self.tape_at[l] = at;
        }
        self.tapes = tapes;
        self.tape_garbage = 0;
    }

    /// The link arrays of the window's nodes, their hop counts and their
    /// hops, in order: per node, the links of its old node when `keep`
    /// names one (copied, their targets renumbered by `remap`), else its
    /// `fresh` links (their targets' new nodes by `node_of`). `first` is
    /// the window's first link id.
    ///
    /// A kept node's targets are all still standable: its landings read
    /// their standability, so a change there would have rebuilt it. Its
    /// links keep their order, so its hops are the old ones, renumbered.
    fn window_links(
        &self,
        keep: &[Option<u32>],
        fresh: Vec<(Vec<Link>, Reads)>,
        (remap, node_of): (&impl Fn(u32) -> u32, &impl Fn(Cell) -> Option<u32>),
        first: u32,
    ) -> (Chunk, Vec<u32>, Vec<Hop>) {
        let mut chunk = Chunk::default();
        let mut hop_counts = Vec::with_capacity(keep.len());
        let mut hops = Vec::new();
        let mut order = Vec::new();
        let mut fresh = fresh.into_iter();
        for old in keep {
            let at = chunk.edges.len() as u32;
            let hops_before = hops.len();
            let whole = match *old {
                Some(n) => {
                    let n = n as usize;
                    let (a, b) = (self.offsets[n] as usize, self.offsets[n + 1] as usize);
                    let whole = self.edges[a..b].iter().all(|e| remap(e.target) != NO_NODE);
                    debug_assert!(whole, "a kept link lost its target");
                    if whole {
                        // The node's links, actions and tapes lie end to
                        // end: copied a slice at a time.
                        chunk.edges.extend(self.edges[a..b].iter().map(|e| Edge {
                            target: remap(e.target),
                            ..*e
                        }));
                        chunk.action.extend_from_slice(&self.action[a..b]);
                        for l in a..b {
                            let tape = self.tape_bytes(l);
                            chunk.tape_lens.push(tape.len() as u32);
                            chunk.tapes.extend_from_slice(tape);
                        }
                    } else {
                        for l in a..b {
                            let e = self.edges[l];
                            let target = remap(e.target);
                            if target == NO_NODE {
                                continue;
                            }
                            chunk.edges.push(Edge { target, ..e });
                            chunk.action.push(self.action[l]);
                            let tape = self.tape_bytes(l);
                            chunk.tape_lens.push(tape.len() as u32);
                            chunk.tapes.extend_from_slice(tape);
                        }
                    }
                    chunk.counts.push(chunk.edges.len() as u32 - at);
                    chunk.reads.push_from(&self.reads, n);
                    if whole {
                        let (ha, hb) = (self.hop_at[n] as usize, self.hop_at[n + 1] as usize);
                        hops.extend(self.hops[ha..hb].iter().map(|h| Hop {
                            target: remap(h.target),
                            link: h.link - a as u32 + first + at,
                            ..*h
                        }));
                    }
                    whole
                }
                None => {
                    let (links, reads) = fresh.next().expect("one generation per rebuilt node");
                    chunk.push_node(links, node_of);
                    chunk.reads.push(&reads);
                    false
                }
            };
            if !whole {
                let ids = at..chunk.edges.len() as u32;
                super::reduce_node(ids, &chunk.edges, &self.nodes, &mut order, &mut hops);
                for h in &mut hops[hops_before..] {
                    h.link += first;
                }
            }
            hop_counts.push((hops.len() - hops_before) as u32);
        }
        (chunk, hop_counts, hops)
    }
}

/// Puts the window's links `with` in place of the links `links` of
/// `edges`. When node ids moved (`ids_moved`), their targets are
/// renumbered by `remap` as they move, and so are, in place, those of the
/// links before the window that point into it or past it (at node `lo` or
/// after).
#[inline]
fn splice_edges(
    edges: &mut Vec<Edge>,
    links: Range<usize>,
    with: &[Edge],
    (lo, ids_moved): (u32, bool),
    remap: &impl Fn(u32) -> u32,
) {
    if ids_moved {
        // Only the few links into or past the window change: a
        // store to every link would write the whole head back.
        for e in &mut edges[..links.start] {
            if e.target >= lo {
                e.target = remap(e.target);
            }
        }
        splice_map(edges, links, with, |e| Edge {
            target: remap(e.target),
            ..e
        });
    } else {
        splice(edges, links, with);
    }
}

/// Puts the window's hops `with` in place of the hops `hops` of
/// `hop_list`. When node ids moved (`ids_moved`), the hops' targets are
/// renumbered by `remap` (those before the window in place, when they
/// point at node `lo` or after), and the links the hops after the window
/// name move by `shift`, the change in link count, as they move.
#[inline]
fn splice_hops(
    hop_list: &mut Vec<Hop>,
    hops: Range<usize>,
    with: &[Hop],
    (lo, ids_moved, shift): (u32, bool, u32),
    remap: &impl Fn(u32) -> u32,
) {
    if ids_moved {
        for h in &mut hop_list[..hops.start] {
            if h.target >= lo {
                h.target = remap(h.target);
            }
        }
    }
    if ids_moved || shift != 0 {
        splice_map(hop_list, hops, with, |h| Hop {
            target: remap(h.target),
            link: h.link.wrapping_add(shift),
            ..h
        });
    } else {
        splice(hop_list, hops, with);
    }
}

/// Points the cell table `node_at` (at a cell's `slot`) at the nodes' new
/// ids: at none for the `removed` nodes' cells, and at its id for each of
/// `nodes[from..to]` (the nodes from the window on whose ids changed).
#[inline]
fn renumber_cells(
    node_at: &mut [u32],
    nodes: &[Cell],
    removed: &[Cell],
    (from, to): (usize, usize),
    slot: &impl Fn(Cell) -> usize,
) {
    for &c in removed {
        node_at[slot(c)] = NO_NODE;
    }
    for (i, &c) in nodes.iter().enumerate().take(to).skip(from) {
        node_at[slot(c)] = i as u32;
    }
}

/// Appends the window's tapes `new` to the tapes.
#[inline]
fn append_tapes(tapes: &mut Vec<u8>, new: &[u8]) {
    if tapes.capacity() - tapes.len() < new.len() {
        // Room for many edits' tapes: growing copies every tape.
        tapes.reserve_exact(new.len() + tapes.len() / 8);
    }
    tapes.extend_from_slice(new);
}

/// A cell's place in the nodes' order: row by row, top row first.
fn row_major(c: Cell) -> (i32, i32) {
    (c.row, c.col)
}

/// The corners of the smallest rectangle holding `cells` (not empty).
fn bounds(cells: &[Cell]) -> (Cell, Cell) {
    let mut lo = cells[0];
    let mut hi = cells[0];
    for c in cells {
        lo = Cell::new(lo.col.min(c.col), lo.row.min(c.row));
        hi = Cell::new(hi.col.max(c.col), hi.row.max(c.row));
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Physics;
    use crate::level::SplitMix64;

    /// Edits leave the tapes they replace behind and lay them end to end
    /// again once those are half the bytes; the links' tapes stay those of
    /// a fresh build throughout.
    #[test]
    fn tapes_left_behind_are_dropped_and_every_tape_stays_a_fresh_builds() {
        let level: Level = include_str!("../../levels/demo.txt").parse().unwrap();
        let p = Physics::agile();
        let mut map = NavMap::build(&level, &p).unwrap();
        let mut rng = SplitMix64::new(3);
        let (mut compactions, mut most) = (0, 0);
        for _ in 0..40 {
            let c = Cell::new(
                1 + rng.below(level.width() as u64 - 2) as i32,
                1 + rng.below(level.height() as u64 - 2) as i32,
            );
            let tile = if map.level().get(c) == Some(Tile::EMPTY) {
                Tile::SOLID
            } else {
                Tile::EMPTY
            };
            let before = map.tape_garbage;
            let report = map.edit(&[(c, tile)]).unwrap();
            assert!(!report.full_rebuild);
            assert!(map.tape_garbage <= map.tapes.len() / 2);
            if map.tape_garbage < before {
                compactions += 1;
            }
            most = most.max(map.tape_garbage);
        }
        assert!(
            compactions > 0 && most > 0,
            "{compactions} compactions, {most} bytes left at most"
        );
        let fresh = NavMap::build(map.level(), &p).unwrap();
        assert_eq!(map.link_count(), fresh.link_count());
        for (a, b) in map.links().zip(fresh.links()) {
            assert_eq!(a, b);
            let tape = |m: &NavMap| m.inputs(a.id).collect::<Vec<_>>();
            assert_eq!(tape(&map), tape(&fresh));
        }
    }
}
