//! Scratch space a value keeps between uses: a [`ScratchPool`] holds a few
//! sets, one taken per use running at once and put back after, so repeated
//! uses allocate nothing. The pool does not know what it holds (the map's
//! search labels, for one), which keeps the owner independent of the code
//! that uses the scratch.

use std::any::Any;
use std::sync::{Mutex, MutexGuard};

/// Something a [`ScratchPool`] can hold.
pub(crate) trait Scratch: Any + Send {
    /// Heap bytes it holds.
    fn bytes(&self) -> usize;
}

/// Up to [`ScratchPool::MAX_KEPT`] sets of scratch space.
#[derive(Default)]
pub(crate) struct ScratchPool(Mutex<Vec<Box<dyn Scratch>>>);

impl ScratchPool {
    /// Sets kept at most: one per thread using the owner at once, up to
    /// this many.
    pub const MAX_KEPT: usize = 8;

    /// A poisoned lock still holds whole sets: every update is one push or
    /// pop.
    fn kept(&self) -> MutexGuard<'_, Vec<Box<dyn Scratch>>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A kept set of type `T`, if any is free.
    pub fn take<T: Scratch>(&self) -> Option<Box<T>> {
        let mut kept = self.kept();
        let at = kept
            .iter()
            .rposition(|s| (**s).type_id() == std::any::TypeId::of::<T>())?;
        let any: Box<dyn Any> = kept.swap_remove(at);
        any.downcast::<T>().ok()
    }

    /// Keeps `set` for a later use (dropped when the pool is full).
    pub fn put(&self, set: Box<dyn Scratch>) {
        let mut kept = self.kept();
        if kept.len() < Self::MAX_KEPT {
            kept.push(set);
        }
    }

    /// Heap bytes held by the kept sets.
    pub fn bytes(&self) -> usize {
        self.kept().iter().map(|s| s.bytes()).sum()
    }
}

impl Clone for ScratchPool {
    /// A clone keeps nothing: it is scratch space.
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl std::fmt::Debug for ScratchPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ScratchPool")
    }
}
