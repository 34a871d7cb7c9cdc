//! Watching and stopping a map build: [`BuildProgress`].

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// A build's progress, shared with whoever watches it: counts of standing
/// cells done and to do, and a flag that cancels the build.
///
/// Put one in [`crate::LinkOptions::progress`] (it is an `Arc`, so the
/// watcher keeps a clone), start [`crate::NavMap::build_with`] on another
/// thread, and read [`BuildProgress::done`] and [`BuildProgress::total`]
/// from the watching thread (an editor's UI, a progress bar). After
/// [`BuildProgress::cancel`] the build stops within about one standing
/// cell's work per thread and returns [`BuildError::Cancelled`](crate::BuildError::Cancelled), never a
/// partial map.
///
/// ```
/// use std::sync::Arc;
/// use platnav::{BuildError, BuildProgress, Level, LinkOptions, NavMap, Physics};
///
/// let level: Level = "..........\n..........\n###....###".parse()?;
/// let progress = Arc::new(BuildProgress::new());
/// let options = LinkOptions::default().with_progress(Some(Arc::clone(&progress)));
/// let map = NavMap::build_with(&level, &Physics::default(), &options)?;
/// assert_eq!(progress.done(), map.node_count());
/// assert_eq!(progress.total(), map.node_count());
///
/// progress.cancel();
/// let again = NavMap::build_with(&level, &Physics::default(), &options);
/// assert!(matches!(again, Err(BuildError::Cancelled)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct BuildProgress {
    done: AtomicUsize,
    total: AtomicUsize,
    cancelled: AtomicBool,
}

impl BuildProgress {
    /// Nothing done yet, not cancelled.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Standing cells whose links are generated so far.
    #[must_use]
    pub fn done(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }

    /// Standing cells the current build generates links for (0 until it
    /// has classified the level).
    #[must_use]
    pub fn total(&self) -> usize {
        self.total.load(Ordering::Relaxed)
    }

    /// `done / total`, 0 before the total is known.
    #[must_use]
    pub fn fraction(&self) -> f64 {
        let total = self.total();
        if total == 0 {
            0.0
        } else {
            self.done() as f64 / total as f64
        }
    }

    /// Asks the build to stop; it returns [`BuildError::Cancelled`](crate::BuildError::Cancelled). A
    /// build started after this is cancelled at once.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether [`BuildProgress::cancel`] was called.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// Starts counting a build of `total` cells.
    pub(crate) fn start(&self, total: usize) {
        self.done.store(0, Ordering::Relaxed);
        self.total.store(total, Ordering::Relaxed);
    }

    /// Counts `n` more cells done.
    pub(crate) fn add(&self, n: usize) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }
}

/// Two handles are equal when they are the same handle: options holding
/// clones of one `Arc` compare equal.
impl PartialEq for BuildProgress {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for BuildProgress {}
