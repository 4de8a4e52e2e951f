//! [`Direct`]: the shared-window path's mapping. When every rank of the team runs on one
//! node, the window is an `MPI_Win_allocate_shared` one and each rank maps every other rank's
//! part (`MPI_Win_shared_query`); then the data path is the core's mapped heap
//! ([`handoff::implementor::MappedHeap`]): the same copies, signal updates, CPU atomics, bounds checks,
//! waits and wake policy as the shared-memory transport's (a writer wakes only the sleepers
//! on what it wrote; the team's loom models check it). MPI's own RMA calls are not used on
//! this path at all, so no word is ever updated by both CPU atomics and MPI atomics. The
//! mixed path maps its node mates' parts the same way, for copies only (its waits poll).
//!
//! This file says where things lie in a rank's part: the control area (`CTRL` bytes: the
//! counters, then the heap bell at [`DOORBELL`]), then the heap, then (from the next page,
//! [`barrier_at`]) the barrier words: the barrier bell on a line of its own, then one arrival
//! counter per rank ([`part_len`]). Waiters name heap bytes by their heap offset and a
//! counter by [`counter_key`], past any heap.
//!
//! # Memory ordering
//!
//! The mapped heap's (its module docs): a put is a plain copy, a signal, counter or atomic a
//! Release (AcqRel) update that pairs with the Acquire load of the waiter's poll, and the
//! bell's `SeqCst` fences decide who sleeps and who is woken. `fence` is a Release fence,
//! `quiet` the mapped heap's (a `SeqCst` fence, then the rings of what was put since), as in
//! `ShmTransport`; barriers are `ShmTransport`'s too (after this rank's `quiet`, the team's
//! dissemination barrier over the ranks' barrier words, [`handoff::implementor::mapped_barrier`]:
//! its Release/Acquire chain orders every rank's earlier stores before every rank's later
//! loads), with no MPI call: no word on this path is written by MPI.

use std::sync::atomic::AtomicU64;
use std::sync::Mutex;

use handoff::implementor::{mapped_barrier, BarrierWords, HeapBell, MappedHeap, Parts};
use handoff::sync::{Doorbell, NoPeers, Until};
use handoff::team::{SignalOp, TeamError, MAX_COUNTERS};

use crate::comm::wait_error;
use crate::rma::Window;

/// Bytes before the heap in each rank's window: the counters (one u64 each), page-padded
/// so the heap starts page aligned when the window does.
pub(crate) const CTRL: usize = 4096;
const _: () = assert!(MAX_COUNTERS * 8 <= CTRL);

/// Where each rank's heap bell lives in its part: in the control area, after the counters,
/// on cache lines of its own.
pub(crate) const DOORBELL: usize = 256;
const _: () = assert!(MAX_COUNTERS * 8 <= DOORBELL);
const _: () = assert!(DOORBELL + std::mem::size_of::<HeapBell>() <= CTRL);
const _: () = assert!(DOORBELL.is_multiple_of(std::mem::align_of::<HeapBell>()));

/// Where the barrier words lie in a rank's part with a heap of `heap_len` bytes: at the
/// first page past the heap (`None` on overflow).
pub(crate) fn barrier_at(heap_len: usize) -> Option<usize> {
    CTRL.checked_add(heap_len)?.checked_next_multiple_of(CTRL)
}

/// The barrier bell's line, before the arrival counters.
const BARRIER_BELL_LINE: usize = 128;
const _: () = assert!(std::mem::size_of::<Doorbell>() <= BARRIER_BELL_LINE);

/// Bytes of one rank's part of the window in a team of `size` ranks with a heap of
/// `heap_len` bytes each: the control area, the heap, the barrier words, in whole pages (a
/// window of 1 MiB + 8 B hung MPICH's RMA path); `None` on overflow.
pub(crate) fn part_len(heap_len: usize, size: usize) -> Option<usize> {
    let words = size.checked_mul(8)?.checked_add(BARRIER_BELL_LINE)?;
    barrier_at(heap_len)?
        .checked_add(words)?
        .checked_next_multiple_of(CTRL)
}

/// The bell key of counter `ct`: past the end of any heap (a heap is far below 2^62 bytes),
/// so a counter's waiter is woken by updates of its counter only.
pub(crate) fn counter_key(ct: usize) -> u64 {
    (1 << 62) + 8 * ct as u64
}

/// Every part of a shared window mapped here, by the world rank of its owner: the base of
/// its part (`CTRL` + the heap's bytes), null for ranks outside the window's communicator
/// (other nodes, on the mixed path).
pub(crate) struct DirectParts {
    parts: Vec<*mut u8>,
}

// SAFETY: `Direct::new` checked that each non-null part holds at least CTRL + heap_len bytes
// at a page-aligned base (so the heap at CTRL is too), of a shared window every rank of the
// node maps and that lives as long as the transport (the window is freed after the `Direct`
// is dropped); the bell at DOORBELL lies in the control area (asserted above) of that part.
unsafe impl Parts for DirectParts {
    #[inline]
    fn heap(&self, pe: usize) -> Option<*mut u8> {
        let p = *self.parts.get(pe)?;
        (!p.is_null()).then(|| p.wrapping_add(CTRL))
    }

    fn bell(&self, pe: usize) -> &HeapBell {
        // SAFETY: asked only for a mapped part (`Parts`' contract); the bell lies in its
        // control area at a multiple of its alignment (parts are page aligned); all-zero
        // (the window is zeroed at creation) is a valid bell with no sleepers, a ShmSafe
        // repr(C) type of atomics meant to be shared between processes.
        unsafe { &*self.parts[pe].add(DOORBELL).cast::<HeapBell>() }
    }
}

/// The parts of a shared window mapped here, and the mapped heap over them.
pub(crate) struct Direct {
    heap: MappedHeap<DirectParts>,
    /// Where the barrier words lie in each part ([`barrier_at`]).
    barrier_at: usize,
    /// This rank's barrier arrivals consumed so far, per sender rank (see
    /// [`mapped_barrier`]); a lock, as the PE's threads may call a barrier.
    seen: Mutex<Vec<u64>>,
}

impl Direct {
    /// Maps parts of the shared window `win` (each at least `CTRL + heap_len` bytes): for
    /// each `(i, rank)` of `members`, the part of the window communicator's rank `i` as world
    /// rank `rank`'s, in a job of `size` ranks.
    pub(crate) fn new(
        win: &Window,
        members: impl IntoIterator<Item = (usize, usize)>,
        size: usize,
        heap_len: usize,
    ) -> Result<Direct, TeamError> {
        let (Some(len), Some(barrier_at)) = (part_len(heap_len, size), barrier_at(heap_len)) else {
            return Err(TeamError::InvalidArgument(format!(
                "a heap of {heap_len} bytes is too large"
            )));
        };
        let mut parts = vec![std::ptr::null_mut(); size];
        for (i, rank) in members {
            let (base, bytes) = win.shared_query(i)?;
            if base.is_null() || bytes < len || !(base as usize).is_multiple_of(128) {
                return Err(TeamError::Transport {
                    transport: "MPI",
                    call: "MPI_Win_shared_query",
                    what: format!(
                        "rank {rank}'s part of the shared window is {bytes} bytes at {base:p}, \
                         want {len} bytes 128-byte aligned (its owner aligned it in its own \
                         mapping; this MPI library maps it at another offset in a page); run \
                         with HANDOFF_MPI_WINDOW=rma"
                    ),
                });
            }
            parts[rank] = base;
        }
        Ok(Direct {
            heap: MappedHeap::new(DirectParts { parts }, size, heap_len),
            barrier_at,
            seen: Mutex::new(vec![0; size]),
        })
    }

    /// `pe`'s barrier words (`pe`'s part mapped here).
    fn barrier_words(&self, pe: usize) -> BarrierWords<'_> {
        let part = self.heap.parts().parts[pe];
        assert!(!part.is_null(), "rank {pe}'s part is not mapped here");
        let size = self.heap.size();
        // SAFETY: `new` checked that the part holds `part_len(heap_len, size)` bytes at a
        // page-aligned base: from `barrier_at` (a multiple of the page) a line for the bell,
        // then `size` u64 counters (8-byte aligned), all inside it; the window lives as long
        // as `self`, was zeroed at creation (all-zero: no arrivals, no sleepers) and every
        // rank maps it shared: atomics and a process-shared Doorbell are the way to touch it.
        unsafe {
            let at = part.add(self.barrier_at);
            BarrierWords {
                bell: &*at.cast::<Doorbell>(),
                arrivals: std::slice::from_raw_parts(
                    at.add(BARRIER_BELL_LINE).cast::<AtomicU64>(),
                    size,
                ),
            }
        }
    }

    /// The team's barrier over the world ranks `set` (sorted, containing `me`, every part
    /// mapped here: the shared-window path), waiting as `until` says (module docs).
    pub(crate) fn barrier(&self, me: usize, set: &[usize], until: Until) -> Result<(), TeamError> {
        if let Some(&pe) = set.iter().find(|&&pe| !self.maps(pe)) {
            return Err(TeamError::NoSuchPe {
                pe,
                size: self.heap.size(),
            });
        }
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        mapped_barrier(me, set, &mut seen, |pe| self.barrier_words(pe), until)
            .map_err(|e| wait_error(e, "a barrier"))
    }

    /// The mapped heap: puts, gets, signals and atomics by heap offset, checked.
    pub(crate) fn heap(&self) -> &MappedHeap<DirectParts> {
        &self.heap
    }

    /// Whether `pe`'s part is mapped here.
    pub(crate) fn maps(&self, pe: usize) -> bool {
        self.heap.parts().heap(pe).is_some()
    }

    /// The base of `pe`'s part (`CTRL` + heap bytes) when it is mapped here.
    pub(crate) fn part(&self, pe: usize) -> Option<*mut u8> {
        self.heap.parts().heap(pe).map(|h| h.wrapping_sub(CTRL))
    }

    /// Counter `ct` of `pe` (mapped here, `ct` < MAX_COUNTERS).
    fn counter(&self, pe: usize, ct: usize) -> Result<&AtomicU64, TeamError> {
        if ct >= MAX_COUNTERS {
            return Err(TeamError::CounterLimit { max: MAX_COUNTERS });
        }
        let part = self.part(pe).ok_or(TeamError::NoSuchPe {
            pe,
            size: self.heap.size(),
        })?;
        // SAFETY: the control area at the part's base holds MAX_COUNTERS u64 words (8-byte
        // aligned: the part is page aligned), shared by every rank: atomics are the way to
        // touch them.
        Ok(unsafe { &*part.add(ct * 8).cast::<AtomicU64>() })
    }

    /// Updates `pe`'s counter `ct` (Release), then wakes its waiters.
    pub(crate) fn counter_update(
        &self,
        pe: usize,
        ct: usize,
        op: SignalOp,
    ) -> Result<(), TeamError> {
        let w = self.counter(pe, ct)?;
        self.heap.signal_word(pe, w, counter_key(ct), op);
        Ok(())
    }

    /// A counting put: `src` to `pe`'s heap at `offset`, then counter `ct` + 1, one ring.
    pub(crate) fn put_counted(
        &self,
        pe: usize,
        offset: usize,
        src: &[u8],
        ct: usize,
    ) -> Result<(), TeamError> {
        let w = self.counter(pe, ct)?;
        self.heap
            .put_signal_word(pe, offset, src, w, counter_key(ct), SignalOp::Add(1))
    }

    /// Waits on this rank's (`me`) own words: `poll` loads them with Acquire; sleeps on its
    /// bell per `until` as a waiter on bell keys `range` (heap offsets or a [`counter_key`];
    /// `None`: on anything), woken by the peers' updates of those words.
    pub(crate) fn wait(
        &self,
        me: usize,
        range: Option<(u64, u64)>,
        poll: &mut dyn FnMut() -> Option<usize>,
        until: Until,
        what: &'static str,
    ) -> Result<usize, TeamError> {
        // No peer table here: a dead rank ends the whole MPI job (crate docs).
        self.heap
            .wait(me, range, poll, until, &NoPeers, |_| None, what)
            .map_err(|e| wait_error(e, what))
    }
}
