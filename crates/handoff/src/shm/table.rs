//! The attached-process table of a segment header: who is attached, in which role, and who
//! left. See the parent module's docs ("Peers that leave") for the rule the table serves.
//!
//! One [`Slot`] per process: claimed by a CAS of its pid word from 0, then the role is
//! written and the start time stored with `Release`. A *peer* that detaches keeps its slot
//! as a departure record (state bit [`LEFT`], plus [`PANICKED`] when it detached while
//! unwinding); an *observer* frees its slot. Records and dead processes' slots are
//! reclaimed (start time CAS to 0, then the pid word freed) when the table runs full, when
//! the same process attaches again, or by [`super::Segment::forget_departed`].

use super::Result;
use super::SegmentError;
use crate::atomic::{AtomicU32, AtomicU64, Ordering};
use crate::sys::{mem, ProcessId};

/// Slots in the attached-process table (creator included) unless the creator asks for
/// another number ([`super::SegmentOptions::slots`]): enough for channels and queues, which
/// serve a few processes. A team segment has one slot per PE plus the launcher's.
pub const DEFAULT_SLOTS: usize = 64;

/// Slot state bit: the holder is an observer (its departure never ends anyone's wait).
pub(super) const OBSERVER: u32 = 1;
/// Slot state bit: the holder detached (dropped its segment); the slot is a departure record.
pub(super) const LEFT: u32 = 2;
/// Slot state bit: the holder detached while its thread was panicking.
pub(super) const PANICKED: u32 = 4;

/// One entry of the attached-process table; same layout as [`ProcessId`], with the state
/// bits where `ProcessId` has padding.
#[repr(C)]
pub(super) struct Slot {
    /// Claimed by CAS from 0; 0 = free.
    pub(super) pid: AtomicU32,
    /// [`OBSERVER`], [`LEFT`], [`PANICKED`] bits; written by the holder only (the role
    /// before the start time's Release store, the departure bits last), reset to 0 by
    /// whoever frees the slot before it frees the pid word.
    pub(super) state: AtomicU32,
    /// Written after the pid is claimed; 0 while a claim is in progress.
    pub(super) start_time: AtomicU64,
}

/// How a peer left a segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DepartureKind {
    /// It dropped its [`super::Segment`] (e.g. returned early with an error, then exited).
    Detached,
    /// It dropped its segment while unwinding from a panic.
    Panicked,
    /// It exited or was killed while still attached.
    Died,
}

/// A peer that left the segment (see [`super::Segment::departed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Departure {
    /// The process that left.
    pub process: ProcessId,
    /// How it left.
    pub kind: DepartureKind,
}

/// A table entry: who holds the slot and its state bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Entry {
    pub(super) id: ProcessId,
    pub(super) state: u32,
}

impl Entry {
    /// How this entry's peer left, if it did; observers never count.
    pub(super) fn departure(&self) -> Option<DepartureKind> {
        if self.state & OBSERVER != 0 {
            None
        } else if self.state & PANICKED != 0 {
            Some(DepartureKind::Panicked)
        } else if self.state & LEFT != 0 {
            Some(DepartureKind::Detached)
        } else if gone(&self.id) {
            Some(DepartureKind::Died)
        } else {
            None
        }
    }

    /// Whether the process is still attached (neither detached nor gone).
    pub(super) fn attached(&self) -> bool {
        self.state & LEFT == 0 && !gone(&self.id)
    }
}

/// Whether a table entry's process is gone; a start time of 0 means its claim is still in
/// progress, so only the pid can be checked.
pub(super) fn gone(p: &ProcessId) -> bool {
    if p.start_time == 0 {
        mem::pid_is_gone(p.pid)
    } else {
        !p.is_alive()
    }
}

/// A consistent (pid, start time) snapshot of a slot, `None` if free (for the loom models).
#[cfg(all(test, loom))]
pub(super) fn read_slot(s: &Slot) -> Option<ProcessId> {
    read_entry(s).map(|e| e.id)
}

/// A consistent snapshot of a slot with its state bits, `None` if free.
pub(super) fn read_entry(s: &Slot) -> Option<Entry> {
    loop {
        // Acquire: pairs with the Release store of 0 in `release_slot` / `reclaim` (a free
        // slot), and through the claimer's CAS (a read-modify-write in that release
        // sequence) makes their reset of `state` visible.
        let pid = s.pid.load(Ordering::Acquire);
        if pid == 0 {
            return None;
        }
        // Acquire: pairs with the Release store of the start time in `claim_slot`, so the
        // role written before it is visible.
        let start = s.start_time.load(Ordering::Acquire);
        // Acquire: pairs with the Release stores / fetch_or of `state` in `claim_slot`,
        // `depart_slot`, `reclaim` and `release_slot`: each writer changed `pid` or
        // `start_time` before its state store, so if this load sees a newer holder's state,
        // the re-check below sees the newer pid or start time and reads again (a seqlock
        // re-check needs that edge; without it a reader could pair a's pid with b's role).
        let state = s.state.load(Ordering::Acquire);
        // Re-check: if the slot changed hands meanwhile, the start time and state may
        // belong to another process; read again.
        if s.pid.load(Ordering::Relaxed) == pid && s.start_time.load(Ordering::Relaxed) == start {
            return Some(Entry {
                id: ProcessId::new(pid, start),
                state,
            });
        }
    }
}

/// Attached-table protocol: gives a slot back (start time and state first, then the pid).
pub(super) fn release_slot(s: &Slot) {
    s.start_time.store(0, Ordering::Relaxed);
    // Release: pairs with the Acquire load of `state` in `read_entry` (see there).
    s.state.store(0, Ordering::Release);
    // Release: pairs with the Acquire CAS in `claim_slot`, so the next holder's start time
    // and role stores are ordered after our resets of them.
    s.pid.store(0, Ordering::Release);
}

/// Leaves a departure record in our slot instead of freeing it (a peer detaching).
pub(super) fn depart_slot(s: &Slot, panicking: bool) {
    let bits = if panicking { LEFT | PANICKED } else { LEFT };
    // Release: pairs with the Acquire load of `state` in `read_entry`.
    s.state.fetch_or(bits, Ordering::Release);
}

/// Frees the slot held by `p` (a dead process or a departure record) unless someone else
/// reclaimed it first: whoever resets its start time first owns the reclaim.
pub(super) fn reclaim(s: &Slot, p: ProcessId) -> bool {
    if p.start_time == 0
        || s.start_time
            .compare_exchange(p.start_time, 0, Ordering::Relaxed, Ordering::Relaxed)
            .is_err()
    {
        return false;
    }
    // Release: pairs with the Acquire load of `state` in `read_entry` (see there).
    s.state.store(0, Ordering::Release);
    // Release: pairs with the Acquire CAS in `claim_slot` (and the Acquire load in
    // `read_entry`).
    s.pid.store(0, Ordering::Release);
    true
}

/// Attached-table protocol: claims a free slot of `slots` for `me` with state bits `role`
/// (CAS of the pid word from 0), reclaiming slots of processes `is_dead` says are gone, and
/// departure records, if none is free. `None` when every slot is held by a live process.
pub(super) fn claim_slot(
    slots: &[Slot],
    me: ProcessId,
    role: u32,
    is_dead: impl Fn(&ProcessId) -> bool,
) -> Option<usize> {
    for pass in 0..2 {
        for (i, s) in slots.iter().enumerate() {
            if pass == 1 {
                if let Some(e) = read_entry(s) {
                    if e.state & LEFT != 0 || is_dead(&e.id) {
                        reclaim(s, e.id);
                    }
                }
            }
            // Acquire: pairs with the Release store of 0 in `release_slot` / `reclaim`.
            if s.pid
                .compare_exchange(0, me.pid, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
            {
                // Release: pairs with the Acquire load of `state` in `read_entry` (see
                // there).
                s.state.store(role, Ordering::Release);
                // Release: pairs with the Acquire load of the start time in `read_entry`
                // (which then also sees the role).
                s.start_time.store(me.start_time, Ordering::Release);
                return Some(i);
            }
        }
    }
    None
}

/// Claims a slot of a header's attached table for `me` (dead processes' slots and
/// departure records are reclaimed when the table is full). Our own earlier departure
/// records are cleared first: we are back.
pub(super) fn claim_table_slot(slots: &[Slot], me: ProcessId, role: u32) -> Result<usize> {
    for s in slots {
        if let Some(e) = read_entry(s) {
            if e.id == me && e.state & LEFT != 0 {
                reclaim(s, e.id);
            }
        }
    }
    claim_slot(slots, me, role, |p| !p.is_alive())
        .ok_or(SegmentError::TableFull { slots: slots.len() })
}
