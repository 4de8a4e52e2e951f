//! The mapped-heap core: the data path of every transport that maps its peers' heaps into
//! this process — the shared-memory transport ([`ShmTransport`](super::ShmTransport), one
//! segment) and MPI's shared window (`handoff-mpi`, `MPI_Win_allocate_shared`). Written once
//! here: bounds checks, copies, signal updates, atomics, waits on a PE's heap bell, and one
//! wake policy (`wake`: a writer wakes only the sleepers on what it wrote).
//!
//! A transport says where each PE's heap and bell lie ([`Parts`]) and owns the mapping; a
//! [`MappedHeap`] over those parts does the rest. Heap bytes are named by their offset in
//! the heap, on the bell as well ("keys"); a transport may ring words outside the heap (its
//! counters) under keys past the heap's end ([`MappedHeap::signal_word`]).
//!
//! # Memory ordering
//!
//! - A put is a plain copy; the signal or atomic after it is a Release update
//!   (`ops::apply_signal`, `apply_atomic64/32`) that pairs with the Acquire load of the
//!   waiter's poll (`ops::load_signal`): a waiter that sees the signal sees the data.
//! - Waking is `wake`'s (its module docs); the bell's `SeqCst` fences decide who sleeps and
//!   who is woken ([`RangeBell`](crate::sync::RangeBell)).
//! - `fence` is a Release fence (the transports'), `quiet` a `SeqCst` fence then the rings of
//!   what was put since ([`MappedHeap::quiet`]).

#[cfg(not(loom))]
mod heap;
pub(crate) mod wake;

#[cfg(not(loom))]
pub use heap::MappedHeap;
pub use wake::HeapBell;

#[cfg(not(loom))]
use crate::sync::{Doorbell, NoPeers, Until, WaitError};

/// One PE's barrier words where a transport mapped them: its arrival counters (one per
/// sender rank of the team, all-zero at the start) and the bell that only barrier arrivals
/// ring.
#[cfg(not(loom))]
pub struct BarrierWords<'a> {
    /// `arrivals[s]`: the barrier rounds PE `s` signalled to this PE (written only by `s`).
    pub arrivals: &'a [std::sync::atomic::AtomicU64],
    /// Where this PE's barrier waits sleep.
    pub bell: &'a Doorbell,
}

/// The shared-memory transport's barrier (dissemination, or a hub when the members
/// outnumber the CPUs, over the members' arrival counters, waiting on their barrier bells;
/// the protocol and its memory ordering are in `team::barrier`) for another transport that
/// maps its PEs' barrier words (MPI's shared window): PE `me` waits as `until` says until
/// every PE of `set` (sorted, containing `me`) arrived. `seen` is this PE's count of arrivals consumed per sender rank, kept by the
/// caller between barriers; `words(pe)` are PE `pe`'s mapped barrier words. No peer watch:
/// the caller's deadline ends a wait for a PE that never arrives.
#[cfg(not(loom))]
pub fn barrier<'a>(
    me: usize,
    set: &[usize],
    seen: &mut [u64],
    words: impl Fn(usize) -> BarrierWords<'a>,
    until: Until,
) -> Result<(), WaitError> {
    let node = |pe: usize| {
        let w = words(pe);
        super::barrier::Node {
            arrivals: w.arrivals,
            bell: w.bell,
        }
    };
    // No CPU hint of the transport's: each round's wait takes its sender's CPU from the
    // arrival word (`team::barrier`).
    super::barrier::run(
        me,
        set,
        seen,
        node,
        until.wait,
        until.deadline,
        &NoPeers,
        None,
    )
}

/// Where a transport mapped each PE's heap and bell.
///
/// # Safety
///
/// For every `pe` below the `size` the [`MappedHeap`] is made with, `heap(pe)` is `None` or
/// the base of the `heap_len` bytes of PE `pe`'s heap, 8-byte aligned, mapped shared,
/// readable and writable for as long as the implementor lives, and the same bytes every
/// other PE maps as `pe`'s heap; when it is `Some`, `bell(pe)` is PE `pe`'s heap bell, in
/// memory shared the same way (every PE rings it and `pe` sleeps on it).
pub unsafe trait Parts {
    /// The base of PE `pe`'s heap (`pe` < size), `None` when it is not mapped here.
    fn heap(&self, pe: usize) -> Option<*mut u8>;
    /// PE `pe`'s heap bell (only asked for a PE whose heap is mapped here).
    fn bell(&self, pe: usize) -> &HeapBell;
    /// Whether a write to a PE's heap must ring its bell: `false` only when no PE of the team
    /// ever sleeps on one (every wait spins).
    #[inline]
    fn must_ring(&self) -> bool {
        true
    }
}
