//! The team segment's layout: [`TeamHeader`], one control block per PE (a [`PeCtrl`]
//! followed by the PE's barrier arrival counters, one per PE of the team: `8 p` bytes, so
//! O(p) per PE), then the heap partitions (module docs of [`super`], "The segment"). Every type is `repr(C)`,
//! pointer-free and valid all-zero, so the freshly created (zero-filled) segment is a team
//! of PEs that have not joined yet.
//!
//! # PE states (`PeCtrl::state`)
//!
//! | state | value | set by | a waiting peer |
//! |---|---|---|---|
//! | `SPAWNED` | 0 | zero fill | PE died if its `launch_pid` process is gone |
//! | `JOINED` | 1 | the PE, in `ShmTransport::join` (Release, after its pid) | PE died if its pid is gone |
//! | `FINISHED` | 2 | the PE, in `finish` (after the final barrier) | an error only where a wait still needs it (`watch`) |
//! | `LEFT` | 3 | the PE's drop without `finish` (an error return or a panic) | PE left: error |
//!
//! The launcher writes `launch_pid` (pid and start time) right after spawning each PE.

use super::mapped::HeapBell;
use crate::atomic::{AtomicU32, AtomicU64};
use crate::layout::ShmSafe;
use crate::sync::{Doorbell, Signal};
use crate::sys::ProcessId;

use super::MAX_COUNTERS;

/// The most PEs a team may have: a bound far above any node (ranks travel as `u32`), not
/// the limit that stops a big team in practice. That is memory: the launcher checks that
/// the team segment (about `p * (2.5 KiB + 8 p bytes)` of control blocks plus the heaps,
/// and the attached table's 16 bytes per process) fits what `/dev/shm` and `MemAvailable`
/// allow, and says which limit stops it.
pub const MAX_PES: usize = 1 << 20;

/// `TeamHeader::magic`.
pub(super) const TEAM_MAGIC: u64 = u64::from_le_bytes(*b"HNDTEAM1");
/// `TeamHeader::version`: bump on any layout change.
/// 6: `PeCtrl::waits` (what a PE in a long wait waits for) in what was padding.
/// 5: `PeCtrl::sleeps` (whether the PE's waits may sleep) after `cpu`.
/// 4: `PeCtrl::cpu` (where the PE may run) in what was padding.
/// 3: the barrier arrival counters follow each `PeCtrl`, one per PE of the team (2 had a
/// fixed array of 63 inside it; 2 also gave the heap a range bell and barriers a bell of
/// their own).
pub(super) const TEAM_VERSION: u32 = 6;

/// `PeCtrl::sleeps`: not known yet (the PE has not joined).
pub(super) const SLEEPS_UNKNOWN: u32 = 0;
/// `PeCtrl::sleeps`: the PE's waits may sleep on a bell (they block or adapt).
pub(super) const MAY_SLEEP: u32 = 1;
/// `PeCtrl::sleeps`: the PE's waits never sleep (they spin, or spin and yield).
pub(super) const NEVER_SLEEPS: u32 = 2;

/// `PeCtrl::waits`: not in a wait that has lasted a peer check.
pub(super) const WAITS_NONE: u32 = 0;
/// `PeCtrl::waits`: in a wait on its own heap words or counters (any PE may end it).
pub(super) const WAITS_LOCAL: u32 = u32::MAX;
/// `PeCtrl::waits`: `WAITS_BARRIER | (r + 1)`: in a barrier round waiting for PE `r`'s
/// arrival. Without this bit, `r + 1`: in a wait on PE `r`'s heap words.
pub(super) const WAITS_BARRIER: u32 = 1 << 31;

pub(super) const SPAWNED: u32 = 0;
pub(super) const JOINED: u32 = 1;
pub(super) const FINISHED: u32 = 2;
pub(super) const LEFT: u32 = 3;

/// The head of the segment's payload. Plain fields are written by the launcher before it
/// publishes the segment (`Segment::publish_ready`) and read-only afterwards.
#[repr(C, align(128))]
pub(super) struct TeamHeader {
    pub magic: u64,
    pub version: u32,
    pub size: u32,
    pub heap_len: u64,
    pub heap_stride: u64,
    pub ctrl_offset: u64,
    pub heap_offset: u64,
    pub launcher_pid: u32,
    pub _pad: u32,
    pub launcher_start: u64,
    /// The first PE seen gone, as rank + 1 (0: none yet): set once, by a CAS, by the PE
    /// that leaves or by the first PE that notices a death, so every survivor names the
    /// same PE (the cause) rather than whichever survivor exited first after it.
    pub first_gone: AtomicU32,
    /// A whole-program exit (`Team::global_exit`): `(rank + 1) << 32 | status as u32` of the
    /// first PE that asked for it, 0 if none; set once by a CAS, read by the launcher, whose
    /// exit status it then is.
    pub global_exit: AtomicU64,
}

// SAFETY: repr(C) integers and two atomics, no pointers, all-zero valid (and rejected by the
// magic); the plain fields are written before the segment is published, read-only after.
unsafe impl ShmSafe for TeamHeader {}

/// A process identity other processes may read while it is written: pid and start time.
#[repr(C)]
pub(super) struct PidCell {
    pub pid: AtomicU32,
    pub _pad: AtomicU32,
    pub start: AtomicU64,
}

impl PidCell {
    /// Stores `id`. The start time first, then the pid with Release (pairs with the Acquire
    /// load of the pid in `get`), so a reader that sees the pid sees its start time.
    pub fn set(&self, id: ProcessId) {
        self.start
            .store(id.start_time, crate::atomic::Ordering::Relaxed);
        // Release: pairs with the Acquire load in `get`.
        self.pid.store(id.pid, crate::atomic::Ordering::Release);
    }

    /// The stored identity, if any.
    pub fn get(&self) -> Option<ProcessId> {
        // Acquire: pairs with the Release store in `set`.
        let pid = self.pid.load(crate::atomic::Ordering::Acquire);
        (pid != 0).then(|| ProcessId::new(pid, self.start.load(crate::atomic::Ordering::Relaxed)))
    }
}

/// One PE's control block: everything other PEs signal it through, outside its heap. Its
/// barrier arrival counters follow it in the segment (see [`Plan::ctrl_stride`]).
#[repr(C, align(128))]
pub(super) struct PeCtrl {
    /// `SPAWNED`, `JOINED`, `FINISHED` or `LEFT` (module docs).
    pub state: AtomicU32,
    /// Where the PE may run, written by the PE when it joins, before `state` (its Release
    /// store publishes it): CPU + 1 when pinned to one CPU, else `shared_cpu::UNPINNED`
    /// (see `team::shared_cpu`).
    pub cpu: AtomicU32,
    /// Whether the PE's waits may sleep on a bell: [`SLEEPS_UNKNOWN`] (zero fill) until the
    /// PE has joined, then [`MAY_SLEEP`] or [`NEVER_SLEEPS`] (its wait strategy spins), written
    /// once by the PE with Release after its `JOINED` CAS. A team whose PEs all never sleep
    /// needs no wake-ups: its writers skip the bells (`ShmParts::must_ring`).
    pub sleeps: AtomicU32,
    /// What the PE waits for, once a wait of its has lasted a peer check (`WAITS_*`):
    /// written by the PE's watch (`watch`), read by the launcher to say who waits for whom
    /// when the team's timeout passes. A diagnostic: Relaxed, ordered with nothing.
    pub waits: AtomicU32,
    /// Written by the launcher after the spawn.
    pub launch_pid: PidCell,
    /// Written by the PE when it joins.
    pub pid: PidCell,
    /// The heap's bell: waits on this PE's heap words sleep here, saying which bytes they
    /// wait on; puts, atomics and signals ring the bytes they wrote
    /// ([`crate::sync::rangebell`]).
    pub bell: HeapBell,
    /// The barrier's bell: barrier waits sleep here, and only barrier arrivals ring it (a
    /// put never wakes a PE waiting in a barrier).
    pub arrive: ArriveBell,
    /// Counting-put counters (`ct_create`).
    pub counters: [Signal; MAX_COUNTERS],
    /// Collective agreement: `agree_seq[seq % 2]` then `agree_val[seq % 2]`.
    pub agree: [Agree; 2],
    // Then, at offset `size_of::<PeCtrl>()` of the block, the barrier arrivals:
    // `[AtomicU64; size]`, `arrivals[s]` counting the barrier rounds PE `s` signalled to
    // this PE (`arrivals_at`).
}

/// The barrier arrivals' doorbell, on a line of its own.
#[repr(C, align(128))]
pub(super) struct ArriveBell {
    pub bell: Doorbell,
}

/// One collective-agreement record.
#[repr(C)]
pub(super) struct Agree {
    pub seq: AtomicU64,
    pub value: AtomicU64,
}

// SAFETY: repr(C) of atomics, ShmSafe primitives (Signal, Doorbell, HeapBell) and arrays of them; no
// pointers; all-zero is a PE that has not joined, with no sleepers, counters at 0.
unsafe impl ShmSafe for PeCtrl {}

/// Sizes of a team segment's payload for `size` PEs with `heap_len` heap bytes each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Plan {
    pub ctrl_offset: usize,
    /// Bytes from one PE's control block to the next: the `PeCtrl` and its `size` arrival
    /// counters, rounded up to 128 bytes.
    pub ctrl_stride: usize,
    pub heap_offset: usize,
    pub heap_stride: usize,
    pub payload_len: usize,
}

/// The payload layout, or `None` on overflow.
pub(super) fn plan(size: usize, heap_len: usize) -> Option<Plan> {
    let page = crate::sys::page_size();
    if u32::try_from(size).is_err() {
        return None;
    }
    let ctrl_offset = std::mem::size_of::<TeamHeader>().next_multiple_of(128);
    let arrivals = size
        .checked_mul(std::mem::size_of::<AtomicU64>())?
        .checked_next_multiple_of(128)?;
    let ctrl_stride = std::mem::size_of::<PeCtrl>().checked_add(arrivals)?;
    let ctrl_end = ctrl_offset.checked_add(size.checked_mul(ctrl_stride)?)?;
    let heap_offset = ctrl_end.checked_next_multiple_of(page)?;
    let heap_stride = heap_len.max(1).checked_next_multiple_of(page)?;
    let payload_len = heap_offset.checked_add(heap_stride.checked_mul(size)?)?;
    Some(Plan {
        ctrl_offset,
        ctrl_stride,
        heap_offset,
        heap_stride,
        payload_len,
    })
}

/// PE `rank`'s control block in a team payload at `payload`.
///
/// # Safety
/// `payload` is the (page-aligned) payload of a team segment laid out by [`plan`] with
/// this `ctrl_offset` and `ctrl_stride`, mapped for the returned lifetime, and
/// `rank < size`.
pub(super) unsafe fn ctrl_at<'a>(
    payload: *mut u8,
    ctrl_offset: usize,
    ctrl_stride: usize,
    rank: usize,
) -> &'a PeCtrl {
    // SAFETY: per the contract, the block lies in the mapping at a 128-byte aligned offset
    // (ctrl_offset and ctrl_stride are multiples of 128) of a page-aligned payload;
    // PeCtrl is ShmSafe (valid for any state other PEs leave it in).
    unsafe { &*payload.add(ctrl_offset + rank * ctrl_stride).cast() }
}

/// PE `rank`'s barrier arrival counters (one per PE of the team, `size` of them).
///
/// # Safety
/// As for [`ctrl_at`], and `size` is the team size the plan was made for.
pub(super) unsafe fn arrivals_at<'a>(
    payload: *mut u8,
    ctrl_offset: usize,
    ctrl_stride: usize,
    rank: usize,
    size: usize,
) -> &'a [AtomicU64] {
    let at = ctrl_offset + rank * ctrl_stride + std::mem::size_of::<PeCtrl>();
    // SAFETY: per the contract, `plan` reserved `size` counters (8-byte aligned: PeCtrl's
    // size is a multiple of 128) after the PeCtrl within the stride, in the mapping;
    // atomics are valid for any bytes.
    unsafe { std::slice::from_raw_parts(payload.add(at).cast(), size) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_sizes_and_zero_init() {
        assert_eq!(std::mem::align_of::<PeCtrl>(), 128);
        assert_eq!(std::mem::size_of::<PeCtrl>() % 128, 0);
        assert_eq!(std::mem::size_of::<TeamHeader>(), 128);
        // SAFETY: all-zero is valid for PeCtrl (the ShmSafe impl's promise).
        let c: Box<PeCtrl> = unsafe { Box::new(std::mem::zeroed()) };
        assert_eq!(c.state.load(crate::atomic::Ordering::Relaxed), SPAWNED);
        assert!(c.pid.get().is_none());
        assert_eq!(c.waits.load(crate::atomic::Ordering::Relaxed), WAITS_NONE);
        assert_eq!(
            c.sleeps.load(crate::atomic::Ordering::Relaxed),
            SLEEPS_UNKNOWN
        );
        assert_eq!(c.counters[3].load(), 0);
        // Hand-computed for 4 PEs, 1 MiB each, 4 KiB pages: ctrl at 128, heap at the first
        // page boundary after 128 + 4 * size_of::<PeCtrl>().
        let p = plan(4, 1 << 20).unwrap();
        assert_eq!(p.ctrl_offset, 128);
        // 4 counters of 8 bytes, rounded up to a 128-byte line.
        assert_eq!(p.ctrl_stride, std::mem::size_of::<PeCtrl>() + 128);
        assert_eq!(p.heap_stride, 1 << 20);
        assert_eq!(p.heap_offset % 4096, 0);
        assert!(p.heap_offset >= 128 + 4 * p.ctrl_stride);
        assert_eq!(p.payload_len, p.heap_offset + 4 * (1 << 20));
        assert_eq!(plan(usize::MAX / 2, usize::MAX / 2), None);
        // O(p) per PE: 1024 PEs have 8 KiB of counters each, the whole control area is
        // under 12 MiB (1024 * (size_of::<PeCtrl>() + 8192)).
        let big = plan(1024, 4096).unwrap();
        assert_eq!(big.ctrl_stride, std::mem::size_of::<PeCtrl>() + 8192);
        assert!(big.heap_offset < 12 << 20, "{}", big.heap_offset);
        assert_eq!(plan(1 << 33, 1), None, "more PEs than a u32 rank holds");
    }
}
