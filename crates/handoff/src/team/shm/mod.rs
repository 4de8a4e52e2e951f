//! [`ShmTransport`]: the team transport over one shared segment on one node. A put is a
//! copy into the target's partition of the mapped segment; an atomic is a hardware RMW on
//! the mapped word; waits poll this PE's own words and sleep on its heap's
//! [`RangeBell`](crate::sync::RangeBell), naming the bytes they wait on when they can. A put,
//! atomic or signal wakes only the sleepers whose bytes it wrote (and the sleepers that could
//! not name theirs); a writer whose target sleeps on other words pays one shared load and no
//! system call. Signals and atomics ring with the bell's fence; a plain put checks without
//! it, and the writer's `quiet` (or barrier) rings, fenced, everything it put since, so a
//! waiter on plainly put data is woken by the put or by the writer's `quiet`, never waits out
//! a sleep slice. Barriers sleep on a bell of their own, rung only by barrier arrivals. In a
//! team whose PEs all spin (no PE's wait strategy sleeps: `PeCtrl::sleeps`), nobody ever
//! sleeps on a heap bell, and writers skip the heap bells altogether (`must_ring`).
//!
//! Peers are watched through the PE states of [`super::layout`]: a PE that died (or left
//! without `finalize`) ends every other PE's wait with [`TeamError::PeerDied`] naming it.
//!
//! One job per file: this one is the mapping (the segment, where each PE's heap, bell and
//! control block lie: [`ShmParts`]); `join` joins a team from the environment, `hints` keeps
//! the team verdicts a PE decides once (does it share its CPU, may anyone sleep), `ops`
//! implements the [`Transport`](super::Transport) trait. The data path itself (bounds,
//! copies, signals, atomics, the wake policy) is the mapped-heap core's
//! ([`super::mapped`]), shared with MPI's shared window.

mod hints;
mod join;
mod ops;

use std::sync::atomic::{AtomicBool, AtomicU8};
use std::sync::Mutex;

use super::layout::*;
use super::mapped::{HeapBell, MappedHeap, Parts};
#[cfg(feature = "implementor")] // only the implementors' methods name it
use super::TeamError;
use crate::atomic::{AtomicU64, Ordering};
use crate::shm::Segment;
use crate::sync::Wait;
use crate::sys::ProcessId;

/// The shared-memory transport: this PE's view of the team segment.
pub struct ShmTransport {
    seg: Segment,
    pub(super) rank: usize,
    pub(super) size: usize,
    /// Every PE's heap partition in the mapping: the data path.
    heap: MappedHeap<ShmParts>,
    /// This PE's heap partition, in the mapping (which neither moves nor goes while `seg`
    /// lives): kept because deriving it in the waits cost ~1 ns of a put-signal hand-off
    /// (`line_hop -n 1`, issue #23 session 10).
    local: *mut u8,
    wait: Wait,
    pub(super) launcher: ProcessId,
    /// Barrier arrivals consumed so far, per sender rank.
    /// (A barrier is a collective: one thread of the PE at a time; the lock only makes
    /// the transport `Sync`.)
    seen: Mutex<Vec<u64>>,
    finished: AtomicBool,
    /// Whether this PE shares its CPU with another PE of the team (adaptive waits then
    /// yield instead of pausing: the peer they wait for is likely runnable on their own
    /// CPU): `hints::UNDECIDED` until `shared_cpu::shares_cpu` could tell, then
    /// `hints::SHARED` or `hints::ALONE`.
    crowded: AtomicU8,
    /// This PE's affinity mask when it joined.
    mask: Vec<usize>,
    /// How many other PEs' liveness peer checks have read, counting round the team from
    /// our right neighbour (`TeamWatch::scan`).
    pub(super) scan_next: std::sync::atomic::AtomicUsize,
}

/// Where the team segment's plan puts each PE's heap partition and control block (with its
/// heap bell), in this process's mapping of it.
#[derive(Debug)]
pub(super) struct ShmParts {
    /// The segment's payload (the header at offset 0), mapped as long as the transport lives.
    base: *mut u8,
    size: usize,
    /// PE 0's heap partition: computed once, as every hand-off call needs it on its critical
    /// path.
    heap0: *mut u8,
    heap_stride: usize,
    ctrl_offset: usize,
    ctrl_stride: usize,
    /// Whether writes to other PEs' heaps must ring their bells: `BELLS_UNDECIDED` until
    /// every PE has said whether its waits may sleep (`PeCtrl::sleeps`), then `BELLS_RING`
    /// or, when none may, `BELLS_QUIET` (`hints`, `must_ring`).
    bells: AtomicU8,
}

impl ShmParts {
    fn ctrl(&self, rank: usize) -> &PeCtrl {
        // SAFETY: rank < size (callers check); `join` validated that the plan's `size`
        // control blocks from ctrl_offset lie in the payload, mapped as long as `self`.
        unsafe { ctrl_at(self.base, self.ctrl_offset, self.ctrl_stride, rank) }
    }
}

// SAFETY: `join` validated the plan against the segment: for pe < size, `heap0 + pe *
// heap_stride` is the base of PE pe's partition (heap_len <= heap_stride bytes, page
// aligned, in the MAP_SHARED payload every PE maps, as long as the transport lives), and
// PE pe's control block (with its heap bell) lies in the same mapping.
unsafe impl Parts for ShmParts {
    #[inline]
    fn heap(&self, pe: usize) -> Option<*mut u8> {
        // Every PE's partition lies in the one segment every PE maps.
        Some(self.heap0.wrapping_add(pe * self.heap_stride))
    }
    #[inline]
    fn bell(&self, pe: usize) -> &HeapBell {
        &self.ctrl(pe).bell
    }
    #[inline]
    fn must_ring(&self) -> bool {
        self.rings_bells()
    }
}

impl std::fmt::Debug for ShmTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShmTransport")
            .field("segment", &self.seg.name())
            .field("rank", &self.rank)
            .field("size", &self.size)
            .field("heap_len", &self.heap.heap_len())
            .field("wait", &self.wait)
            .finish_non_exhaustive()
    }
}

impl ShmTransport {
    /// Maps `len` bytes of this PE's own heap partition, from heap offset `offset`, at
    /// address `addr` as well (a second view of the same shared pages: what is stored
    /// through one address is read through the other and by every PE's `get`), replacing
    /// whatever `addr` held. handoff-shmem puts a program's static data into the heap this way.
    ///
    /// # Safety
    /// `offset`, `len` and `addr` are page aligned (checked); the old contents of
    /// `[addr, addr + len)` are lost, so the caller copied what it keeps into the partition
    /// first; no Rust reference points into that range and no other thread touches it
    /// during the call.
    #[cfg(feature = "implementor")]
    pub unsafe fn map_local_at(
        &self,
        offset: usize,
        len: usize,
        addr: *mut u8,
    ) -> Result<(), TeamError> {
        let src = self.heap.check(
            self.rank,
            offset,
            len,
            crate::sys::page_size(),
            "map_local_at",
        )?;
        // SAFETY: `check` proved the range lies in our partition of the segment, a
        // MAP_SHARED mapping that lives as long as `self`; the rest is the caller's promise.
        unsafe { crate::sys::alias::alias_shared(src, len, addr)? };
        Ok(())
    }

    /// A second view of this PE's whole heap partition at an address aligned to `align` (a
    /// power of two, at least a page), so offsets aligned to `align` are aligned addresses
    /// in that view on every PE. The view stays mapped until the process ends.
    #[cfg(feature = "implementor")]
    pub fn local_view_aligned(&self, align: usize) -> Result<*mut u8, TeamError> {
        let stride = self.heap.parts().heap_stride;
        let dst = crate::sys::alias::reserve_aligned(stride, align)?;
        // SAFETY: the partition is `heap_stride` page-aligned bytes of the MAP_SHARED
        // segment (page aligned payload, page aligned heap offset and stride); `dst` is a
        // fresh reservation of that length that nothing references.
        unsafe { crate::sys::alias::alias_shared(self.local, stride, dst)? };
        Ok(dst)
    }

    pub(super) fn ctrl(&self, rank: usize) -> &PeCtrl {
        self.heap.parts().ctrl(rank)
    }

    /// PE `rank`'s barrier arrival counters, one per PE.
    pub(super) fn arrivals(&self, rank: usize) -> &[AtomicU64] {
        let p = self.heap.parts();
        // SAFETY: as in `ShmParts::ctrl`, for the counters the plan puts after each control
        // block.
        unsafe { arrivals_at(p.base, p.ctrl_offset, p.ctrl_stride, rank, self.size) }
    }

    pub(super) fn header(&self) -> &TeamHeader {
        // SAFETY: `join` validated the header at payload offset 0 (page aligned, in bounds);
        // TeamHeader is ShmSafe.
        unsafe { &*self.seg.as_ptr().cast() }
    }

    /// Ends the whole team with `status` (OpenSHMEM's `shmem_global_exit`): records the
    /// status for the launcher (which then exits with it), then ends every other PE at once
    /// (`SIGKILL`: they stop where they are, without reporting this PE as gone), and marks
    /// this PE as not leaving in error. The caller then exits the process with `status`.
    pub fn global_exit(&self, status: i32) {
        let word = ((self.rank as u64 + 1) << 32) | u64::from(status as u32);
        // Release: pairs with the Acquire load in `Running::wait` (the launcher reads it
        // after reaping the PEs). A second caller keeps the first record.
        let _ = self.header().global_exit.compare_exchange(
            0,
            word,
            Ordering::Release,
            Ordering::Relaxed,
        );
        for r in (0..self.size).filter(|&r| r != self.rank) {
            if let Some(id) = self.ctrl(r).pid.get() {
                // A PE already gone (ESRCH) needs nothing.
                let _ = id.kill(crate::sys::UnixSignal::Kill);
            }
        }
        self.finished
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// The segment's name (for the launcher's and tests' messages).
    pub fn segment_name(&self) -> Option<&str> {
        self.seg.name()
    }
}

impl Drop for ShmTransport {
    fn drop(&mut self) {
        if !self.finished.load(std::sync::atomic::Ordering::Relaxed) {
            // Release: pairs with the Acquire load in `is_gone`.
            self.ctrl(self.rank).state.store(LEFT, Ordering::Release);
            // Release: pairs with the Acquire load in `TeamWatch::check` (first to leave).
            let _ = self.header().first_gone.compare_exchange(
                0,
                self.rank as u32 + 1,
                Ordering::Release,
                Ordering::Relaxed,
            );
            for pe in 0..self.size {
                let c = self.ctrl(pe);
                c.bell.ring_all();
                c.arrive.bell.ring();
            }
        }
    }
}

// SAFETY: the transport owns its mapping (Segment is Send), its own state is atomics and a
// Mutex, and its two raw pointers point into that mapping (immutable, valid as long as it
// lives), so moving it to another thread is sound.
unsafe impl Send for ShmTransport {}
// SAFETY: every access to the shared mapping through `&self` is an atomic operation or a
// copy the OpenSHMEM memory model leaves to the program (puts and gets to user-chosen
// offsets, as between processes); the transport's own fields are atomics, a Mutex, or
// immutable after `join`. So threads of one PE may share it (SHMEM_THREAD_MULTIPLE).
unsafe impl Sync for ShmTransport {}
