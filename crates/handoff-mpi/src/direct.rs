//! [`Direct`]: the shared-window path. When every rank of the team runs on one node, the
//! window is an `MPI_Win_allocate_shared` one and each rank maps every other rank's part
//! (`MPI_Win_shared_query`); then puts are copies into the target's part, and signals,
//! counters and atomics are the CPU atomics of `handoff::team` (`apply_signal`,
//! `apply_atomic64/32`: the word protocol the shared-memory transport uses and the team's
//! loom models check). MPI's own RMA calls are not used on this path at all, so no word is
//! ever updated by both CPU atomics and MPI atomics.
//!
//! # Memory ordering
//!
//! - A put is a plain copy; the signal or counter update after it is a Release store/RMW
//!   (`apply_signal`), which pairs with the Acquire load every wait polls with
//!   (`load_signal`, the team's waits): a waiter that sees the signal sees the data.
//! - Atomics are `AcqRel` hardware RMWs on the target word (`apply_atomic64/32`).
//! - Every update of a peer's words (put, signal, counter, atomic) then rings that peer's
//!   [`RangeBell`] (in its window's control area) for the bytes it wrote, as on
//!   `ShmTransport`: a waiter that named the bytes it waits on (`wait_local_on`, counter
//!   waits) is woken only by writes to them, a writer whose target sleeps on other words
//!   pays a fence and one load and no system call, and a waiter that named nothing is woken
//!   by every write. The bell's own SeqCst pairing (see `handoff::sync::RangeBell`, whose
//!   loom models check it) decides who sleeps and who wakes. Ranges are displacements in
//!   the rank's part of the window (control area, then heap).
//! - `fence` is a Release fence (earlier copies before any later store seen by a peer),
//!   `quiet` a SeqCst fence, as in `ShmTransport`; barriers are `MPI_Win_sync`, the MPI
//!   barrier, `MPI_Win_sync` — the pattern MPI-3.1 §11.2.3 gives for shared windows.

use std::sync::atomic::{AtomicU32, AtomicU64};

use handoff::sync::{NoPeers, RangeBell, Wait};
use handoff::sys::Deadline;
use handoff::team::{AtomicOp, SignalOp, TeamError};

use crate::rma::Window;

/// Where each rank's range bell lives in its part: in the control area, after the counters,
/// on cache lines of its own.
pub(crate) const DOORBELL: usize = 256;
const _: () = assert!(handoff::team::MAX_COUNTERS * 8 <= DOORBELL);
const _: () = assert!(DOORBELL + std::mem::size_of::<RangeBell>() <= 4096);
const _: () = assert!(DOORBELL.is_multiple_of(std::mem::align_of::<RangeBell>()));

/// Every part of a shared window, mapped here, by the world rank of its owner.
pub(crate) struct Direct {
    /// Per world rank: the base of its part (`len` bytes), null for ranks outside the
    /// window's communicator (other nodes, on the mixed path).
    parts: Vec<*mut u8>,
    len: usize,
}

impl Direct {
    /// Maps parts of the shared window `win` (each at least `len` bytes): for each
    /// `(i, rank)` of `members`, the part of the window communicator's rank `i` as world rank
    /// `rank`'s, in a job of `size` ranks.
    pub(crate) fn new(
        win: &Window,
        members: impl IntoIterator<Item = (usize, usize)>,
        size: usize,
        len: usize,
    ) -> Result<Direct, TeamError> {
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
        Ok(Direct { parts, len })
    }

    /// Whether `pe`'s part is mapped here.
    pub(crate) fn maps(&self, pe: usize) -> bool {
        self.parts.get(pe).is_some_and(|p| !p.is_null())
    }

    /// The base of `pe`'s part (`len` bytes) when it is mapped here.
    pub(crate) fn part(&self, pe: usize) -> Option<*mut u8> {
        self.parts.get(pe).copied().filter(|p| !p.is_null())
    }

    /// The address of byte `disp` of `pe`'s part; the caller checked `disp + n <= len`
    /// and that `pe`'s part is mapped.
    fn at(&self, pe: usize, disp: usize, n: usize) -> *mut u8 {
        debug_assert!(disp + n <= self.len && self.maps(pe));
        // SAFETY: `disp + n` is within the `len` bytes of `pe`'s mapped part (checked by the
        // transport against the heap and control sizes, and `maps(pe)`).
        unsafe { self.parts[pe].add(disp) }
    }

    fn bell(&self, pe: usize) -> &RangeBell {
        // SAFETY: the bell lies in `pe`'s control area (DOORBELL + its size is below the
        // control area's 4096 bytes, DOORBELL a multiple of its alignment; parts are
        // 128-byte aligned: asserted above); all-zero (the window is zeroed at creation) is
        // a valid bell with no sleepers, a ShmSafe repr(C) type of atomics meant to be
        // shared between processes.
        unsafe {
            &*self
                .at(pe, DOORBELL, std::mem::size_of::<RangeBell>())
                .cast::<RangeBell>()
        }
    }

    /// Wakes `pe`'s sleepers on bytes `[disp, disp + n)` of its part (after the write; the
    /// bell's SeqCst fence orders the write before its load of the sleepers).
    fn ring(&self, pe: usize, disp: usize, n: usize) {
        self.bell(pe).ring_range(disp as u64, (disp + n) as u64);
    }

    /// Copies `src` into `pe`'s part at `disp`, then wakes `pe`'s sleepers on those bytes.
    pub(crate) fn put(&self, pe: usize, disp: usize, src: &[u8]) {
        self.copy_in(pe, disp, src);
        self.ring(pe, disp, src.len());
    }

    /// [`put`](Self::put) then [`signal`](Self::signal), ringing once (the data's and the
    /// signal's bytes, after the signal): a waiter woken before its signal changed would
    /// only go back to sleep.
    pub(crate) fn put_signal(&self, pe: usize, disp: usize, src: &[u8], sig: usize, op: SignalOp) {
        self.copy_in(pe, disp, src);
        // Release inside: pairs with the Acquire `load_signal` of the target's wait.
        handoff::team::apply_signal(self.word64(pe, sig), op);
        let (lo, hi) = (disp.min(sig), (disp + src.len()).max(sig + 8));
        self.ring(pe, lo, hi - lo);
    }

    /// Copies `src` into `pe`'s part at `disp`, without a wake-up (the mixed path, whose
    /// waits poll).
    pub(crate) fn copy_in(&self, pe: usize, disp: usize, src: &[u8]) {
        let dst = self.at(pe, disp, src.len());
        // SAFETY: `dst` has room for `src.len()` bytes (checked range) and is shared memory,
        // never the caller's `src` (a Rust borrow). Concurrent readers see the bytes in any
        // order; the signal after the copy publishes them (a Release update here; on the
        // mixed path `MPI_Win_sync` then an MPI accumulate, see `mixed`).
        unsafe { std::ptr::copy(src.as_ptr(), dst, src.len()) };
    }

    /// Waits on this rank's (`me`) own words: `poll` loads them with Acquire; sleeps on
    /// this rank's bell per `how` as a waiter on bytes `range` of its part (`None`: on
    /// anything), woken by the peers' updates of those bytes.
    pub(crate) fn wait(
        &self,
        me: usize,
        range: Option<(usize, usize)>,
        poll: &mut dyn FnMut() -> Option<usize>,
        how: Wait,
        deadline: Option<Deadline>,
        what: &'static str,
    ) -> Result<usize, TeamError> {
        // No peer table here: a dead rank ends the whole MPI job (crate docs). The adaptive
        // learning's site: the range's address when there is one, else the wait's name.
        let site = match range {
            Some((lo, _)) => (self.parts[me] as usize).wrapping_add(lo),
            None => what.as_ptr() as usize,
        };
        let range = range.map(|(lo, hi)| (lo as u64, hi as u64));
        self.bell(me)
            .wait(range, poll, how, deadline, &NoPeers, None, site)
            .map_err(|e| match e {
                handoff::sync::WaitError::Timeout => TeamError::Timeout { what },
                other => TeamError::Transport {
                    transport: "MPI",
                    call: "wait",
                    what: other.to_string(),
                },
            })
    }

    /// Copies `pe`'s bytes at `disp` into `dst`.
    pub(crate) fn get(&self, pe: usize, disp: usize, dst: &mut [u8]) {
        let src = self.at(pe, disp, dst.len());
        // SAFETY: as in `put`, the other way round; `dst` is our exclusive borrow.
        unsafe { std::ptr::copy(src, dst.as_mut_ptr(), dst.len()) };
    }

    fn word64(&self, pe: usize, disp: usize) -> &AtomicU64 {
        // SAFETY: an 8-byte aligned word (checked by the transport; parts are 128-byte
        // aligned) inside `pe`'s mapped part, shared by every rank: atomics are the way
        // to touch it.
        unsafe { &*self.at(pe, disp, 8).cast::<AtomicU64>() }
    }

    /// Updates `pe`'s signal word at `disp` (Release, after the copies before it).
    pub(crate) fn signal(&self, pe: usize, disp: usize, op: SignalOp) {
        // Release inside: pairs with the Acquire `load_signal` of the target's wait.
        handoff::team::apply_signal(self.word64(pe, disp), op);
        self.ring(pe, disp, 8);
    }

    /// A 64-bit atomic on `pe`'s word at `disp`; the old value.
    pub(crate) fn atomic64(&self, pe: usize, disp: usize, op: AtomicOp<u64>) -> u64 {
        // AcqRel inside: pairs with the previous and next RMW or load of the word.
        let old = handoff::team::apply_atomic64(self.word64(pe, disp), op);
        if op.wrote(old) {
            self.ring(pe, disp, 8);
        }
        old
    }

    /// A 32-bit atomic on `pe`'s word at `disp`; the old value.
    pub(crate) fn atomic32(&self, pe: usize, disp: usize, op: AtomicOp<u32>) -> u32 {
        // SAFETY: a 4-byte aligned word inside `pe`'s part, as in `word64`.
        let w = unsafe { &*self.at(pe, disp, 4).cast::<AtomicU32>() };
        // AcqRel inside, as in `atomic64`.
        let old = handoff::team::apply_atomic32(w, op);
        if op.wrote(old) {
            self.ring(pe, disp, 4);
        }
        old
    }
}
