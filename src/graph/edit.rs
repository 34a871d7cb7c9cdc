//! Live edits: a changed tile rebuilds only the nodes whose links read it.
//!
//! A node's links are a deterministic function of the tiles and standable
//! cells their generation looked up (plus the level's size, and whether it
//! has hazards); the build records the bounding box of those lookups per
//! node ([`crate::links::ReadBox`]). An edit therefore:
//!
//! 1. sets the tiles, and reclassifies the level;
//! 2. collects the *changed cells*: the edited tiles, and every cell whose
//!    standability changed;
//! 3. regenerates the links of every node whose box holds a changed cell,
//!    and of every new node (recording their boxes afresh); every other
//!    node keeps its links, tapes and box, which a fresh build would give
//!    it bit for bit;
//! 4. reassembles the link arrays and the search's reduced graph, and
//!    bumps [`NavMap::generation`].
//!
//! The search's landmark bounds are left out by an edit: measuring them
//! takes a few Dijkstra runs over the whole map, tens of milliseconds at
//! 256 x 256 and seconds at 1024 x 1024, and stale ones would not be
//! admissible. Until [`NavMap::refresh_bounds`] measures them again, exact
//! search runs on the column bound alone: still exact, slower on large
//! maps. A game calls it when a frame has time to spare, or on a clone in
//! the background that then replaces the map.
//!
//! An edit that adds the level's first hazard, ladder or slope, or removes
//! its last one, changes what every body step checks, and rebuilds the
//! whole map; so does
//! the first edit of a map loaded from a file, whose reads were not
//! recorded.

use std::sync::Arc;

use super::{Chunk, Edge, Hop, NO_NODE, NavMap, node_table};
use crate::level::{Cell, Tile};
use crate::links::{Link, ReadBox, Reads, WorkerGuard, links_recorded};

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
    Build(#[from] crate::build::BuildError),
}

impl NavMap {
    /// How many edits have changed this map: 0 when built or loaded, one
    /// more after each [`NavMap::edit`] that changed a tile. A path found
    /// at an older generation may use links that no longer exist.
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Whether an edit left the search's landmark bounds out (see the
    /// module documentation); queries are exact either way.
    #[must_use]
    pub fn bounds_stale(&self) -> bool {
        self.bounds_stale
    }

    /// Measures the search's landmark bounds again after edits, so that
    /// exact queries are as fast as on a fresh build. Does nothing when
    /// they are current.
    pub fn refresh_bounds(&mut self) {
        if self.bounds_stale {
            self.landmarks = crate::landmarks::Landmarks::compute(&self.offsets, &self.edges);
            self.bounds_stale = false;
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
    /// let report = map.edit(&[(Cell::new(20, 2), Tile::Solid), (Cell::new(20, 1), Tile::Solid)])?;
    /// assert_eq!(map.generation(), 1);
    /// assert_eq!(report.tiles_changed, 2);
    /// assert_eq!(map.level().get(Cell::new(20, 2)), Some(Tile::Solid));
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
        let mut level = self.level.clone();
        // What every step of the body checks first (PHYSICS.md: hazards,
        // ladders and slopes are looked for only on levels that have them).
        let rules = |l: &crate::level::Level| (l.has_hazards(), l.has_ladders(), l.has_slopes());
        let had_rules = rules(&level);
        for &(cell, tile) in changes {
            level.set(cell, tile);
        }
        let mut changed: Vec<Cell> = changes
            .iter()
            .map(|&(c, _)| c)
            .filter(|&c| level.get(c) != self.level.get(c))
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
        let mut classes = self.classes.clone();
        let standability_changed = classes.update(&level, &self.physics, lo, hi);
        let nodes: Vec<Cell> = classes.standable_cells().collect();
        let standability_count = standability_changed.len();
        changed.extend(standability_changed);
        let generation = self.generation + 1;
        let full = had_rules != rules(&level) || self.boxes.contains(&ReadBox::ALL);
        if full {
            let mut map = NavMap::build_cached(&level, &self.physics, &self.options, &self.cache)?;
            map.generation = generation;
            let nodes_rebuilt = map.node_count();
            *self = map;
            return Ok(EditReport {
                tiles_changed,
                standability_changed: standability_count,
                nodes_rebuilt,
                full_rebuild: true,
                generation,
            });
        }
        let (lo, hi) = bounds(&changed);
        let touched = |b: &ReadBox| b.meets(lo, hi) && changed.iter().any(|&c| b.contains(c));
        let node_at = node_table(&level, &nodes);
        let node_of = |c: Cell| super::lookup(&node_at, width, height, c);
        // Per new node: its old node when that one's links still hold.
        let keep: Vec<Option<u32>> = nodes
            .iter()
            .map(|&c| {
                self.node(c)
                    .map(|n| n.0)
                    .filter(|&n| !touched(&self.boxes[n as usize]))
            })
            .collect();
        let rebuild: Vec<usize> = (0..nodes.len()).filter(|&i| keep[i].is_none()).collect();
        let (physics, options) = (&self.physics, &self.options);
        let cache = &*self.cache;
        let generate = |worker: &mut WorkerGuard<'_>, &i: &usize| {
            let reads = Reads::default();
            let links = links_recorded(
                &level,
                physics,
                &classes,
                nodes[i],
                options,
                Some(&reads),
                worker,
            );
            (links, reads.get())
        };
        #[cfg(feature = "parallel")]
        let fresh: Vec<_> = {
            use rayon::prelude::*;
            if rebuild.len() > 1 {
                rebuild
                    .par_iter()
                    .map_init(|| cache.worker(), generate)
                    .collect()
            } else {
                let mut worker = cache.worker();
                rebuild.iter().map(|i| generate(&mut worker, i)).collect()
            }
        };
        #[cfg(not(feature = "parallel"))]
        let fresh: Vec<_> = {
            let mut worker = cache.worker();
            rebuild.iter().map(|i| generate(&mut worker, i)).collect()
        };
        let nodes_rebuilt = rebuild.len();
        let (chunk, reduced) = self.patch(&nodes, &keep, fresh, &node_of);
        let options = self.options.clone();
        let physics = self.physics.clone();
        let cache = Arc::clone(&self.cache);
        *self = NavMap::from_chunk(
            level,
            physics,
            classes,
            nodes,
            node_at,
            chunk,
            Some(reduced),
            options,
            false,
            cache,
        );
        self.generation = generation;
        Ok(EditReport {
            tiles_changed,
            standability_changed: standability_count,
            nodes_rebuilt,
            full_rebuild: false,
            generation,
        })
    }

    /// The link arrays of the edited map, and its reduced graph: per new
    /// node in order, the links of its old node when `keep` names one
    /// (copied node by node, their targets renumbered), else its `fresh`
    /// links.
    ///
    /// A kept node's targets are all still standable: its landings read
    /// their standability, so a change there would have rebuilt it. Its
    /// links keep their order, so its hops are the old ones, renumbered.
    fn patch(
        &self,
        nodes: &[Cell],
        keep: &[Option<u32>],
        fresh: Vec<(Vec<Link>, ReadBox)>,
        node_of: &impl Fn(Cell) -> Option<u32>,
    ) -> (Chunk, (Vec<u32>, Vec<Hop>)) {
        // Old node id to new.
        let mut remap = vec![NO_NODE; self.nodes.len()];
        for (i, &c) in nodes.iter().enumerate() {
            if let Some(n) = self.node(c) {
                remap[n.0 as usize] = i as u32;
            }
        }
        let mut chunk = Chunk {
            counts: Vec::with_capacity(nodes.len()),
            edges: Vec::with_capacity(self.edges.len() + 256),
            action: Vec::with_capacity(self.edges.len() + 256),
            tape_lens: Vec::with_capacity(self.edges.len() + 256),
            tapes: Vec::with_capacity(self.tapes.len() + 4096),
            boxes: Vec::with_capacity(nodes.len()),
        };
        let mut hop_at = Vec::with_capacity(nodes.len() + 1);
        hop_at.push(0u32);
        let mut hops = Vec::with_capacity(self.hops.len() + 256);
        let mut order = Vec::new();
        let mut fresh = fresh.into_iter();
        for old in keep {
            let first = chunk.edges.len() as u32;
            let whole = match *old {
                Some(n) => {
                    let n = n as usize;
                    let (a, b) = (self.offsets[n] as usize, self.offsets[n + 1] as usize);
                    let whole = self.edges[a..b]
                        .iter()
                        .all(|e| remap[e.target as usize] != NO_NODE);
                    if whole {
                        chunk.edges.extend(self.edges[a..b].iter().map(|e| Edge {
                            target: remap[e.target as usize],
                            ..*e
                        }));
                        chunk.action.extend_from_slice(&self.action[a..b]);
                        let at = &self.tape_at[a..=b];
                        chunk.tape_lens.extend(at.windows(2).map(|w| w[1] - w[0]));
                        chunk
                            .tapes
                            .extend_from_slice(&self.tapes[at[0] as usize..at[b - a] as usize]);
                    } else {
                        debug_assert!(false, "a kept link lost its target");
                        for l in a..b {
                            let e = self.edges[l];
                            let target = remap[e.target as usize];
                            if target == NO_NODE {
                                continue;
                            }
                            chunk.edges.push(Edge { target, ..e });
                            chunk.action.push(self.action[l]);
                            chunk.tape_lens.push(self.tape_at[l + 1] - self.tape_at[l]);
                            let (ta, tb) = (self.tape_at[l] as usize, self.tape_at[l + 1] as usize);
                            chunk.tapes.extend_from_slice(&self.tapes[ta..tb]);
                        }
                    }
                    chunk.counts.push(chunk.edges.len() as u32 - first);
                    chunk.boxes.push(self.boxes[n]);
                    if whole {
                        let (ha, hb) = (self.hop_at[n] as usize, self.hop_at[n + 1] as usize);
                        hops.extend(self.hops[ha..hb].iter().map(|h| Hop {
                            target: remap[h.target as usize],
                            link: h.link - a as u32 + first,
                            ..*h
                        }));
                    }
                    whole
                }
                None => {
                    let (links, b) = fresh.next().expect("one generation per rebuilt node");
                    chunk.push_node(links, node_of);
                    chunk.boxes.push(b);
                    false
                }
            };
            if !whole {
                let ids = first..chunk.edges.len() as u32;
                super::reduce_node(ids, &chunk.edges, nodes, &mut order, &mut hops);
            }
            hop_at.push(hops.len() as u32);
        }
        (chunk, (hop_at, hops))
    }
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
