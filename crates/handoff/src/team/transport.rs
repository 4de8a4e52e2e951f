//! [`Transport`]: what a team needs from the machinery that moves its bytes. The team API
//! ([`Team`](super::Team)) is generic over it; [`ShmTransport`](super::ShmTransport) (one
//! shared segment on one node) is the default, and an MPI one-sided transport for teams that
//! span nodes slots in beside it. `handoff_testkit::conformance` is the contract as tests:
//! every transport must pass it.
//!
//! Addresses are (PE, byte offset into that PE's symmetric heap partition); a transport
//! checks them against [`heap_len`](Transport::heap_len) and reports
//! [`TeamError::OutOfBounds`] / [`TeamError::NoSuchPe`], never touches memory outside.
//! Objects and element offsets are the team's business, above this trait.

use super::ops::{AtomicOp, SignalOp};
use super::TeamError;
use crate::sync::{Until, Wait};

/// The mechanism that serves one PE's operations on another ([`Transport::route`]): what an
/// application can expect of that pair's costs. Its [`Display`](std::fmt::Display) is a
/// short stable name (`"shm"`, `"mpi-shm"`, `"mpi-rma"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Route {
    /// Loads and stores on handoff's own shared segment ([`ShmTransport`](super::ShmTransport)):
    /// both PEs on one node. Shown as `"shm"`.
    SharedSegment,
    /// Puts and gets are copies through an MPI shared-memory window that maps the peer's
    /// heap (`MPI_Win_allocate_shared`): both PEs on one node. The transport may still send
    /// signals and atomics through MPI calls. Shown as `"mpi-shm"`.
    MpiSharedWindow,
    /// MPI one-sided calls (`MPI_Put`, `MPI_Get`, accumulates) on a window: the peer may be
    /// on another node, and every operation goes through the MPI library. Shown as
    /// `"mpi-rma"`.
    MpiRma,
}

impl Route {
    /// The short stable name, as [`Display`](std::fmt::Display) writes it.
    pub fn name(self) -> &'static str {
        match self {
            Route::SharedSegment => "shm",
            Route::MpiSharedWindow => "mpi-shm",
            Route::MpiRma => "mpi-rma",
        }
    }

    /// Whether this PE's puts and gets to the peer are plain copies through a mapping of
    /// its heap (both PEs on one node), rather than calls into a communication library.
    pub fn is_load_store(self) -> bool {
        matches!(self, Route::SharedSegment | Route::MpiSharedWindow)
    }
}

impl std::fmt::Display for Route {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The operations a team transport provides. Addresses are (PE, byte offset into its heap partition), as the module docs say.
///
/// Semantics every implementation keeps (the conformance suite checks them):
/// - `put`/`get` are blocking: when `put` returns, the source may be reused; when `get`
///   returns, the destination holds the data. `put_nbi` may return earlier; `quiet` completes
///   it.
/// - `fence` orders this PE's earlier puts, nbi-puts and atomics to each target before its
///   later ones to the same target; `quiet` completes all of them, to every target, before
///   anything this PE does next (OpenSHMEM 1.5 §9.9).
/// - `signal` / `put_signal`: a PE that observes the new signal value (through
///   [`wait_local`](Transport::wait_local) or a local Acquire load) also observes the data put
///   before it. A sleeping waiter on the target is woken.
/// - `counter_add` / `put_counted`: the same for the target's counter `ct`.
/// - Atomics are atomic with respect to every other atomic on the same word from any PE.
/// - `barrier` returns on every listed PE only after all of them called it, and completes
///   (as `quiet`) every put issued before it.
/// - Every wait takes one [`Until`] (made by the team from its
///   [`Patience`](crate::sync::Patience) when the team's call starts: a call made of several
///   waits passes the same one to each), waits with its strategy, and returns
///   [`TeamError::PeerDied`] naming a PE that died or left, instead of hanging, and
///   [`TeamError::Timeout`] after its deadline.
pub trait Transport {
    /// This PE's rank, `0..size()`.
    fn rank(&self) -> usize;
    /// The number of PEs.
    fn size(&self) -> usize;
    /// Bytes in each PE's symmetric heap partition.
    fn heap_len(&self) -> usize;
    /// The wait strategy this PE joined with (`HANDOFF_WAIT`, [`Launch::wait`](super::Launch::wait)):
    /// the default of the team's [`Patience`](crate::sync::Patience). A PE that joined with a
    /// strategy that never sleeps told the others so, and their writers may skip the
    /// wake-ups (`quiet_bells`): the team then refuses a patience whose strategy sleeps.
    fn wait_strategy(&self) -> Wait;
    /// Which mechanism serves this PE's operations on PE `pe` ([`Route`]), or `None` when
    /// `pe` is not a PE of this team (`pe >= size()`). The default is
    /// [`Route::SharedSegment`] for every PE: a transport over one shared segment.
    fn route(&self, pe: usize) -> Option<Route> {
        (pe < self.size()).then_some(Route::SharedSegment)
    }
    /// Whether this PE shares its CPU with another PE of the team: its waits then give the
    /// CPU away at once instead of polling first (`poll_quickly`). The
    /// default: no.
    fn crowded_cpu(&self) -> bool {
        false
    }
    /// Base address of this PE's own heap partition: `heap_len()` bytes, page aligned, valid
    /// as long as the transport. Other PEs write it concurrently (puts), so read it through
    /// atomics or only where the protocol says no put is in flight.
    fn local_heap(&self) -> *mut u8;
    /// Base address of PE `pe`'s heap partition when this PE can load and store it directly
    /// (OpenSHMEM's `shmem_ptr`, MPI's `MPI_Win_shared_query`): `heap_len()` bytes, valid as
    /// long as the transport, written concurrently by other PEs (atomics only). `None` when
    /// `pe` is not a PE of the team or is reached only through the transport's calls. The
    /// default: this PE's own partition only.
    fn peer_heap(&self, pe: usize) -> Option<*mut u8> {
        (pe == self.rank()).then(|| self.local_heap())
    }

    /// Copies `src` into PE `pe`'s heap at `offset` (blocking).
    fn put(&self, pe: usize, offset: usize, src: &[u8]) -> Result<(), TeamError>;
    /// Starts copying `src` into PE `pe`'s heap at `offset`; completed by [`quiet`](Self::quiet).
    fn put_nbi(&self, pe: usize, offset: usize, src: &[u8]) -> Result<(), TeamError> {
        self.put(pe, offset, src)
    }
    /// Copies PE `pe`'s heap bytes at `offset` into `dst` (blocking).
    fn get(&self, pe: usize, offset: usize, dst: &mut [u8]) -> Result<(), TeamError>;
    /// Orders earlier puts and atomics to each PE before later ones to the same PE.
    fn fence(&self);
    /// Completes every earlier put, nbi-put and atomic to every PE.
    fn quiet(&self);

    /// A 64-bit atomic on PE `pe`'s word at `offset` (8-byte aligned); returns the old value.
    fn atomic64(&self, pe: usize, offset: usize, op: AtomicOp<u64>) -> Result<u64, TeamError>;
    /// [`atomic64`](Self::atomic64) on a word that no PE sleeps on: a protocol's private word
    /// whose waiters poll it but sleep on another word that the protocol rings itself (the
    /// epoch lock word: its waiters sleep on their own `wake` word). A transport may skip
    /// waking sleepers for it; the default is `atomic64`.
    fn atomic64_unwatched(
        &self,
        pe: usize,
        offset: usize,
        op: AtomicOp<u64>,
    ) -> Result<u64, TeamError> {
        self.atomic64(pe, offset, op)
    }
    /// A 32-bit atomic on PE `pe`'s word at `offset` (4-byte aligned); returns the old value.
    fn atomic32(&self, pe: usize, offset: usize, op: AtomicOp<u32>) -> Result<u32, TeamError>;

    /// Updates PE `pe`'s signal word at `sig` (8-byte aligned) after everything this PE put
    /// to `pe` before, and wakes its waiters.
    fn signal(&self, pe: usize, sig: usize, op: SignalOp) -> Result<(), TeamError>;
    /// [`signal`](Self::signal), but waking `pe`'s sleepers on the word may be left to the
    /// caller's [`ring_signal`](Self::ring_signal) of the same word, which it must make
    /// before it waits for anything itself (a sleeper on the word may sleep until then).
    /// Lets a protocol poll for its partner while the update travels, instead of first
    /// waiting for the wake-up's fence (the epochs' fence). The default is `signal`.
    fn signal_unrung(&self, pe: usize, sig: usize, op: SignalOp) -> Result<(), TeamError> {
        self.signal(pe, sig, op)
    }
    /// Wakes PE `pe`'s sleepers on signal word `sig` after a
    /// [`signal_unrung`](Self::signal_unrung) of it. The default does nothing (the default
    /// `signal_unrung` woke them).
    fn ring_signal(&self, pe: usize, sig: usize) -> Result<(), TeamError> {
        let _ = (pe, sig);
        Ok(())
    }
    /// `put` then `signal`, the signal seen only after the data (a counting put).
    fn put_signal(
        &self,
        pe: usize,
        offset: usize,
        src: &[u8],
        sig: usize,
        op: SignalOp,
    ) -> Result<(), TeamError> {
        self.put(pe, offset, src)?;
        self.signal(pe, sig, op)
    }

    /// Adds `n` to PE `pe`'s counter `ct` after everything this PE put to `pe` before, and
    /// wakes its waiters.
    fn counter_add(&self, pe: usize, ct: usize, n: u64) -> Result<(), TeamError>;
    /// `put` then `counter_add(pe, ct, 1)`: the seed's counting put.
    fn put_counted(
        &self,
        pe: usize,
        offset: usize,
        src: &[u8],
        ct: usize,
    ) -> Result<(), TeamError> {
        self.put(pe, offset, src)?;
        self.counter_add(pe, ct, 1)
    }
    /// This PE's counter `ct` (Acquire).
    fn counter_get(&self, ct: usize) -> u64;
    /// Sets this PE's counter `ct` (the receiver manages its counters).
    fn counter_set(&self, ct: usize, value: u64);
    /// Waits until this PE's counter `ct` is at least `target`; returns the value seen.
    fn counter_wait(&self, ct: usize, target: u64, until: Until) -> Result<u64, TeamError>;

    /// Waits until `poll` (which reads this PE's own heap words with Acquire loads) returns
    /// `Some`, with `until`'s strategy, woken by the signals and atomics other PEs send
    /// here. `what` names the wait in a timeout error.
    fn wait_local(
        &self,
        poll: &mut dyn FnMut() -> Option<usize>,
        until: Until,
        what: &'static str,
    ) -> Result<usize, TeamError>;

    /// [`wait_local`](Self::wait_local) for a poll that reads only this PE's heap bytes
    /// `[offset, offset + len)`: a transport that can (the shared-memory one) then wakes the
    /// waiter only for writes to those bytes, not for every write to this PE. The default
    /// waits as `wait_local`.
    fn wait_local_on(
        &self,
        offset: usize,
        len: usize,
        poll: &mut dyn FnMut() -> Option<usize>,
        until: Until,
        what: &'static str,
    ) -> Result<usize, TeamError> {
        let _ = (offset, len);
        self.wait_local(poll, until, what)
    }

    /// Waits until `poll` returns `Some`, where `poll` reads PE `pe`'s heap bytes
    /// `[offset, offset + len)` (through remote atomics or loads: a lock word held by another
    /// PE), woken by writes to those bytes. The shared-memory transport sleeps on `pe`'s heap
    /// bell as a waiter on those bytes; the default, with no bell, polls under `until`'s
    /// strategy (`poll_until`: the spin budget, then short sleeps) until its
    /// deadline.
    fn wait_remote_on(
        &self,
        pe: usize,
        offset: usize,
        len: usize,
        poll: &mut dyn FnMut() -> Option<usize>,
        until: Until,
        what: &'static str,
    ) -> Result<usize, TeamError> {
        if pe == self.rank() {
            return self.wait_local_on(offset, len, poll, until, what);
        }
        // Nobody rings for these words here: the wait policy's polling wait (spin budget,
        // then short sleeps with a poll after each).
        crate::sync::poll_until(poll, until, &crate::sync::NoPeers)
            .map_err(|_| TeamError::Timeout { what })
    }

    /// A barrier over `ranks` (sorted, distinct, containing this PE), completing earlier puts.
    fn barrier(&self, ranks: &[usize], until: Until) -> Result<(), TeamError>;
    /// Collective over all PEs: call `seq` (1, 2, ... in order) with `value`; returns
    /// [`TeamError::Mismatch`] on every PE if any PE passed another value.
    fn agree(&self, seq: u64, value: u64, until: Until) -> Result<(), TeamError>;
    /// Marks this PE as finished normally (after a final barrier): its exit no longer
    /// counts as a death for the other PEs' waits.
    fn finish(&self);
}
