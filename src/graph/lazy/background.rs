//! The background build: every node's links, generated chunk by chunk on
//! all cores but one and handed to the map as each chunk is done.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::thread::JoinHandle;

use super::Shared;
use super::saved::{Block, block_nodes, read_block};
use super::store::generate_into;
use crate::graph::chunk::Chunk;
use crate::links::{BuildProgress, WorkerGuard};

/// Nodes a background thread generates before handing them over.
const CHUNK: usize = 64;

/// A finished chunk: its nodes, and their links.
pub(super) type Done = (Vec<u32>, Chunk);

/// A running background build.
pub(super) struct Background {
    done: Receiver<Done>,
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

/// The links of the nodes of block `b` (`unit` nodes a block): read from
/// the saved map when the map was opened on one (`None` when a query read
/// them first), else generated.
fn block_links(
    shared: &Shared,
    b: usize,
    unit: usize,
    worker: &mut WorkerGuard<'_>,
) -> Option<Done> {
    let generated = |nodes: Vec<u32>, worker: &mut WorkerGuard<'_>| {
        let mut chunk = Chunk::default();
        for &v in &nodes {
            generate_into(shared, v, &mut chunk, worker);
        }
        (nodes, chunk)
    };
    if shared.source.is_none() {
        return Some(generated(block_nodes(shared, b, unit), worker));
    }
    match read_block(shared, b) {
        Block::Read(nodes, chunk) => Some((nodes, chunk)),
        Block::Refused(nodes) => Some(generated(nodes, worker)),
        Block::Taken => None,
    }
}

impl Background {
    /// Starts building every node of `shared`, in node order.
    pub(super) fn start(shared: &Arc<Shared>) -> Self {
        let n = shared.nodes.len();
        if let Some(p) = &shared.options.progress {
            p.start(n);
        }
        let workers = std::thread::available_parallelism()
            .map_or(1, usize::from)
            .saturating_sub(1)
            .max(1);
        let (tx, done) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        let next = Arc::new(AtomicUsize::new(0));
        let threads = (0..workers)
            .map(|_| {
                let (shared, tx, stop, next) = (
                    Arc::clone(shared),
                    tx.clone(),
                    Arc::clone(&stop),
                    Arc::clone(&next),
                );
                std::thread::spawn(move || {
                    let halted = || {
                        stop.load(Ordering::Relaxed)
                            || shared
                                .options
                                .progress
                                .as_deref()
                                .is_some_and(BuildProgress::is_cancelled)
                    };
                    let mut worker = shared.cache.worker();
                    let unit = shared.source.as_ref().map_or(CHUNK, |s| s.block_nodes());
                    loop {
                        let b = next.fetch_add(1, Ordering::Relaxed);
                        if b * unit >= n || halted() {
                            break;
                        }
                        let done = block_links(&shared, b, unit, &mut worker);
                        if let Some(p) = &shared.options.progress {
                            p.add(n.min((b + 1) * unit) - b * unit);
                        }
                        // The map was dropped: nobody wants the rest.
                        if done.is_some_and(|d| tx.send(d).is_err()) {
                            break;
                        }
                    }
                })
            })
            .collect();
        Self {
            done,
            stop,
            threads,
        }
    }

    /// A finished chunk not yet taken, if any.
    pub(super) fn try_next(&self) -> Option<Done> {
        self.done.try_recv().ok()
    }

    /// Waits for the build to end and returns the chunks not yet taken.
    pub(super) fn finish(mut self) -> Vec<Done> {
        for t in std::mem::take(&mut self.threads) {
            let _ = t.join();
        }
        self.done.try_iter().collect()
    }
}

impl Drop for Background {
    /// A map dropped while its build runs stops the build.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in std::mem::take(&mut self.threads) {
            let _ = t.join();
        }
    }
}
