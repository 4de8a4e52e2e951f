//! Removing every stale handoff object of `/dev/shm`: the library's segments and the lab's
//! named semaphores (what `handoff cleanup` runs).

use crate::Result;

/// What [`cleanup_all_stale`] removed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Removed {
    /// Segment names ([`handoff::shm::cleanup_stale`]).
    pub segments: Vec<String>,
    /// Named semaphore names ([`crate::posix_sem::cleanup_stale`]).
    pub semaphores: Vec<String>,
}

/// Removes every stale handoff object: segments and the named semaphores
/// (`sem.handoff-<pid>-...`) of dead processes.
pub fn cleanup_all_stale() -> Result<Removed> {
    Ok(Removed {
        segments: handoff::shm::cleanup_stale()?,
        semaphores: crate::posix_sem::cleanup_stale()?,
    })
}
