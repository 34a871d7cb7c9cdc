//! The background build: every node's links, generated chunk by chunk on
//! all cores but one and handed to the map as each chunk is done.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::thread::JoinHandle;

use super::Shared;
use super::store::generate_into;
use crate::graph::chunk::Chunk;
use crate::links::BuildProgress;

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
                    loop {
                        let lo = next.fetch_add(1, Ordering::Relaxed) * CHUNK;
                        if lo >= n || halted() {
                            break;
                        }
                        let nodes: Vec<u32> = (lo..n.min(lo + CHUNK)).map(|v| v as u32).collect();
                        let mut chunk = Chunk::default();
                        for &v in &nodes {
                            generate_into(&shared, v, &mut chunk, &mut worker);
                        }
                        if let Some(p) = &shared.options.progress {
                            p.add(nodes.len());
                        }
                        // The map was dropped: nobody wants the rest.
                        if tx.send((nodes, chunk)).is_err() {
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
