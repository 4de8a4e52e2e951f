//! The mapped heap's wake policy: which sleepers a write wakes, and with or without the
//! writer's fence. Written once for both transports that map their peers' heaps (the
//! shared-memory transport and MPI's shared window) and compiled under `cfg(loom)` too, so
//! the team's loom model of put-with-signal (`loom_tests.rs`) runs this code.
//!
//! The rule (`DESIGN.md`, "Waiting"): a writer wakes only the sleepers on what it wrote, and
//! pays one shared load and no system call when nobody sleeps there.
//!
//! - A signal or an atomic rings its word's bytes with the bell's `SeqCst` fence
//!   ([`RangeBell::ring_range`]): its waiter is never missed.
//! - A put-with-signal rings the signal fenced and the data unfenced (one fenced range when
//!   both lie within a cache line, [`LINE_HULL`]): a waiter on the signal is never missed, a
//!   waiter on the data bytes is woken too, or at the writer's next `quiet`.
//! - A plain put rings unfenced and records its bytes in [`Pending`]; the writer's `quiet`
//!   (a `SeqCst` fence, then [`ring_pending`]) rings them all, so a waiter on plainly put
//!   data is woken by the put or by the writer's `quiet`, never waits out a sleep slice.
//! - When no PE of the team ever sleeps (the transport says so), writers skip the bells.
//!
//! # Memory ordering
//!
//! The pairing of the writer's `SeqCst` fence (inside `ring_range`, or the `quiet`'s) with
//! the sleeper's is [`RangeBell`]'s (its module docs); the data's visibility is the signal's
//! Release update and the waiter's Acquire load (`ops::apply_signal`/`load_signal`). The
//! unfenced ring's second load of `sleepers` in [`ring_put_signal`] follows the first ring's
//! fence, so it is ordered after the data's copy as well.

#![cfg_attr(loom, allow(dead_code))] // most callers (the mapped heap) are not built under loom

use crate::atomic::{AtomicU64, Ordering};
use crate::sync::{CpuHint, RangeBell};
use crate::team::ops::{apply_signal, SignalOp};

/// One PE's heap bell: its range bell and the CPU of its last ringer (on a line of its own,
/// after the bell's), in shared memory.
#[repr(C, align(128))]
#[derive(Debug, Default)]
pub struct HeapBell {
    pub(crate) bell: RangeBell,
    pub(crate) ringer: CpuHint,
}

// SAFETY: repr(C) of two ShmSafe types (atomics only, no pointers); all-zero is a bell with
// no sleepers and an unknown ringer.
#[cfg(not(loom))]
unsafe impl crate::layout::ShmSafe for HeapBell {}

impl HeapBell {
    /// A bell with no sleepers.
    pub fn new() -> Self {
        HeapBell::default()
    }

    /// Wakes every sleeper (a peer left: every wait must look at its peers now).
    pub fn ring_all(&self) {
        self.bell.ring_all();
    }

    /// Notes this CPU as the last ringer's when a ring woke someone (a waker's hint).
    #[inline]
    fn woke(&self, n: usize) {
        if n > 0 {
            self.ringer.note();
        }
    }
}

/// `put_signal` rings data and signal as one range when they lie within this many bytes.
pub(crate) const LINE_HULL: u64 = 64;

/// The bytes put to one target since the writer's last `quiet` that no fenced ring covered
/// yet (`lo >= hi`: none).
#[derive(Debug)]
pub(crate) struct Pending {
    lo: AtomicU64,
    hi: AtomicU64,
}

impl Pending {
    pub(crate) fn new() -> Self {
        Pending {
            lo: AtomicU64::new(u64::MAX),
            hi: AtomicU64::new(0),
        }
    }

    /// Widens the range to cover `[lo, hi)`: two local loads when it already does.
    #[inline]
    fn cover(&self, lo: u64, hi: u64) {
        // Relaxed: only this PE's `quiet` reads these, after its SeqCst fence.
        if self.lo.load(Ordering::Relaxed) > lo {
            self.lo.fetch_min(lo, Ordering::Relaxed);
        }
        if self.hi.load(Ordering::Relaxed) < hi {
            self.hi.fetch_max(hi, Ordering::Relaxed);
        }
    }

    /// Takes the range (leaving it empty), if not empty.
    fn take(&self) -> Option<(u64, u64)> {
        // Relaxed: as in `cover`.
        if self.hi.load(Ordering::Relaxed) == 0 {
            return None;
        }
        let lo = self.lo.swap(u64::MAX, Ordering::Relaxed);
        let hi = self.hi.swap(0, Ordering::Relaxed);
        (lo < hi).then_some((lo, hi))
    }
}

/// After a signal or an atomic wrote bytes `[lo, hi)` under `bell`: wakes their sleepers,
/// fenced.
#[inline]
pub(crate) fn ring_written(bell: &HeapBell, lo: u64, hi: u64) {
    bell.woke(bell.bell.ring_range(lo, hi));
}

/// After a plain put of bytes `[lo, hi)` under `bell`: records them for the writer's next
/// `quiet` and wakes their sleepers without the fence (a sleeper registering at this instant
/// is woken by that `quiet`).
#[inline]
pub(crate) fn ring_put(bell: &HeapBell, pending: &Pending, lo: u64, hi: u64) {
    pending.cover(lo, hi);
    bell.woke(bell.bell.ring_range_unfenced(lo, hi));
}

/// After a put-with-signal of data `data` and signal word `sig` (byte ranges) under `bell`:
/// one fenced ring when both lie within a line, else the signal fenced and the data after it
/// unfenced (the second load of `sleepers` follows the first ring's fence). No `pending`
/// entry: the fence orders the copy too. Out of line: the inlined hand-off stays small where
/// no PE may sleep.
#[inline(never)]
pub(crate) fn ring_put_signal(bell: &HeapBell, data: (u64, u64), sig: (u64, u64)) {
    let (lo, hi) = (data.0.min(sig.0), data.1.max(sig.1));
    let woke = if hi - lo <= LINE_HULL {
        // Data and signal within a line (`put_line`): one range; a sleeper on the bytes
        // between is woken spuriously at worst.
        bell.bell.ring_range(lo, hi)
    } else {
        bell.bell.ring_range(sig.0, sig.1) + bell.bell.ring_range_unfenced(data.0, data.1)
    };
    bell.woke(woke);
}

/// Rings, under each target's bell, the bytes put there since the last call: call it after
/// a `SeqCst` fence (the `quiet`'s), which is the rings' fence and pairs with the sleepers'.
pub(crate) fn ring_pending<'a>(targets: impl Iterator<Item = (&'a Pending, &'a HeapBell)>) {
    for (pending, bell) in targets {
        if let Some((lo, hi)) = pending.take() {
            bell.woke(bell.bell.ring_range_unfenced(lo, hi));
        }
    }
}

/// A put-with-signal on one target whose pieces the caller resolved and checked: `copy`
/// writes the data (bytes `data`), then the signal word `word` (bytes `sig`) is updated
/// (Release, `apply_signal`), then the sleepers under `bell` are woken
/// ([`ring_put_signal`]); `bell` is `None` when no PE of the team ever sleeps (the ring is
/// skipped). The mapped heap's `put_signal` and the loom model both run it.
#[inline(always)]
pub(crate) fn put_signal_with(
    copy: impl FnOnce(),
    word: &AtomicU64,
    op: SignalOp,
    bell: Option<&HeapBell>,
    data: (u64, u64),
    sig: (u64, u64),
) {
    copy();
    // Release inside: pairs with the Acquire `load_signal` of the target's wait.
    apply_signal(word, op);
    if let Some(b) = bell {
        ring_put_signal(b, data, sig);
    }
}
