//! A lazy map's links, completed, as a [`NavMap`].

use std::sync::Arc;

use super::Shared;
use super::store::{Store, generate_nodes};
use crate::graph::chunk::Chunk;
use crate::graph::{BuildError, NavMap};
use crate::links::BuildProgress;

/// Nodes generated per task when the rest is built.
const CHUNK: usize = 64;

/// Builds every node `store` lacks and assembles the map, its nodes' links
/// in node order as a full build lays them out.
pub(super) fn into_map(shared: Arc<Shared>, mut store: Store) -> Result<NavMap, BuildError> {
    let cancelled = || {
        shared
            .options
            .progress
            .as_deref()
            .is_some_and(BuildProgress::is_cancelled)
    };
    let n = shared.nodes.len() as u32;
    let missing: Vec<u32> = (0..n).filter(|&v| !store.is_built(v)).collect();
    let rest = generate_nodes(&shared, &missing, CHUNK, &cancelled);
    if cancelled() {
        return Err(BuildError::Cancelled);
    }
    for (nodes, chunk) in &rest {
        store.absorb(nodes, chunk);
    }
    drop(rest);
    let mut chunk = Chunk::default();
    for v in 0..n {
        if let Some((links, tapes, place)) = store.node_links(v) {
            chunk.push_node_from(store.links(), links, tapes, place);
        }
    }
    drop(store);
    // The background threads are done: the shared part is ours alone.
    let shared = Arc::unwrap_or_clone(shared);
    Ok(NavMap::from_chunks(
        shared.level,
        shared.physics,
        shared.classes,
        shared.nodes,
        shared.node_at,
        vec![chunk],
        shared.options.with_progress(None),
        shared.cache,
        None,
    ))
}
