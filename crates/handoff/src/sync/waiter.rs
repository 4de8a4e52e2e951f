//! [`Waiter`]: the waiting side's per-process handle on the primitives in shared memory.
//!
//! A [`Flag`](super::Flag), [`Signal`](super::Signal), [`Semaphore`](super::Semaphore) or
//! [`Barrier`](super::Barrier) lives in a segment that several processes map, so it cannot
//! hold one process's waiting policy. The waiting side holds it instead, in a `Waiter` (as
//! iceoryx2 waits on a separate object): its [`Patience`] (strategy and default timeout) and
//! the peers whose death ends a wait (a segment, or [`NoPeers`] between threads). Each wait
//! then has the library's three forms, e.g. `flag.wait_for(v, &waiter)` (the waiter's
//! patience), `flag.wait_for_timeout(v, d, &waiter)` (at most `d`, the waiter's strategy)
//! and `flag.try_wait_for(v)` (no wait: [`WaitError::Timeout`](super::WaitError::Timeout) at
//! once).

use std::fmt;

use super::{NoPeers, Patience, PeerWatch};

/// How one process waits on the primitives: a [`Patience`] and the peers to watch.
///
/// `Waiter::new(Patience::default())` waits adaptively without a timeout, watching no peers
/// (threads); [`watching`](Self::watching) watches a segment's processes.
pub struct Waiter<'p, P: PeerWatch + ?Sized = NoPeers> {
    patience: Patience,
    peers: &'p P,
}

impl Waiter<'static, NoPeers> {
    /// A waiter with `patience` that watches no peers (threads of one process).
    pub const fn new(patience: Patience) -> Self {
        Waiter {
            patience,
            peers: &NoPeers,
        }
    }
}

impl Default for Waiter<'static, NoPeers> {
    fn default() -> Self {
        Waiter::new(Patience::default())
    }
}

impl<'p, P: PeerWatch + ?Sized> Waiter<'p, P> {
    /// A waiter with the default patience that ends a wait when one of `peers` dies.
    pub fn watching(peers: &'p P) -> Self {
        Waiter {
            patience: Patience::default(),
            peers,
        }
    }

    /// The same peers with `patience`.
    pub fn with_patience(self, patience: Patience) -> Self {
        Waiter { patience, ..self }
    }

    /// How its waits wait: strategy and default timeout.
    pub fn patience(&self) -> Patience {
        self.patience
    }

    /// Sets how its waits wait (the `_timeout` forms keep the strategy).
    pub fn set_patience(&mut self, patience: Patience) {
        self.patience = patience;
    }

    /// The peers it watches.
    pub fn peers(&self) -> &'p P {
        self.peers
    }
}

// By hand: a derive would ask `P: Copy`, and the waiter only holds `&P`.
impl<P: PeerWatch + ?Sized> Clone for Waiter<'_, P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P: PeerWatch + ?Sized> Copy for Waiter<'_, P> {}

impl<P: PeerWatch + ?Sized> fmt::Debug for Waiter<'_, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Waiter")
            .field("patience", &self.patience)
            .finish_non_exhaustive()
    }
}

/// The tests' old-style wait arguments as a waiter: `how`, a deadline (its time left becomes
/// the default timeout: an expired one polls once) and the peers.
#[cfg(any(test, loom))]
pub(crate) fn w<P: PeerWatch + ?Sized>(
    how: super::Wait,
    deadline: Option<crate::sys::Deadline>,
    peers: &P,
) -> Waiter<'_, P> {
    Waiter::watching(peers)
        .with_patience(Patience::new(how).with_timeout(deadline.map(|d| d.remaining())))
}
