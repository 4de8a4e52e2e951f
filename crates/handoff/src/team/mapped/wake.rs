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
/// yet: one word, so that a put notes its bytes with at most one read-modify-write and a
/// `quiet` takes them with one swap.
///
/// The word holds the range's first and end unit (`lo >> shift`, `hi` rounded up), 32 bits
/// each (start high, end low), in units of `1 << shift` bytes, the smallest that numbers
/// every byte of the heap in 32 bits (1 byte up to a 4 GiB heap; a unit's rounding only
/// widens the range). 0 is the empty range. A put outside the range widens it by at least
/// its own span (never past the heap), so a stream of puts at rising or falling offsets
/// (`osu_oshm_put_mr`, a pipelined halo) pays the read-modify-write — a locked instruction,
/// which waits until the copy's stores have left the store buffer — log2(n) times for n
/// puts, not n times. A wider range only costs a `quiet` a spurious wake-up of a sleeper on
/// bytes nobody wrote, which re-polls and sleeps again (a range is already the hull of the
/// puts, gaps included).
#[derive(Debug)]
pub(crate) struct Pending {
    range: AtomicU64,
    /// Bytes per unit, log2.
    shift: u32,
    /// The heap's end, in units (the widening's bound).
    end: u64,
}

/// Low 32 bits of a [`Pending`] word: the end unit.
const END_MASK: u64 = 0xffff_ffff;

impl Pending {
    /// The empty record of puts into a heap of `heap_len` bytes.
    pub(crate) fn new(heap_len: u64) -> Self {
        let mut shift = 0;
        while heap_len.div_ceil(1 << shift) > END_MASK {
            shift += 1;
        }
        Pending {
            range: AtomicU64::new(0),
            shift,
            end: heap_len.div_ceil(1 << shift),
        }
    }

    /// Widens the range to cover `[lo, hi)` (within the heap): one local load
    /// when it already does.
    #[inline]
    pub(crate) fn cover(&self, lo: u64, hi: u64) {
        if lo >= hi {
            return; // an empty put wrote nothing
        }
        // Shifts, not a division (`div_ceil` by a power of two that is not a constant is
        // one); `hi` is at most the heap's length, far below 2^63.
        let (l, h) = (lo >> self.shift, (hi + (1 << self.shift) - 1) >> self.shift);
        // Relaxed: only this PE's `quiet` reads the word, after its SeqCst fence (a put of
        // another thread of this PE is ordered against it by the caller, as any put).
        let mut cur = self.range.load(Ordering::Relaxed);
        loop {
            let (cl, ch) = (cur >> 32, cur & END_MASK);
            if cur != 0 && cl <= l && h <= ch {
                return;
            }
            let new = if cur == 0 {
                (l << 32) | h
            } else {
                // Widen by at least the current span on each side that grows.
                let span = ch - cl;
                let nl = if l < cl {
                    l.min(cl.saturating_sub(span))
                } else {
                    cl
                };
                let nh = if h > ch {
                    h.max(ch.saturating_add(span).min(self.end))
                } else {
                    ch
                };
                (nl << 32) | nh
            };
            match self
                .range
                .compare_exchange_weak(cur, new, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return,
                Err(now) => cur = now,
            }
        }
    }

    /// Takes the range in bytes (leaving it empty), if not empty.
    #[inline]
    pub(crate) fn take(&self) -> Option<(u64, u64)> {
        // Relaxed: as in `cover`; no read-modify-write when nothing was put.
        if self.range.load(Ordering::Relaxed) == 0 {
            return None;
        }
        let w = self.range.swap(0, Ordering::Relaxed);
        (w != 0).then(|| ((w >> 32) << self.shift, (w & END_MASK) << self.shift))
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

#[cfg(all(test, not(loom)))]
mod tests {
    use super::Pending;

    /// The record takes exactly the first put's bytes, nothing when nothing was put, and
    /// is empty after a take; an empty put records nothing.
    #[test]
    fn pending_records_the_puts_and_empties_on_take() {
        let p = Pending::new(1 << 20);
        assert_eq!(p.take(), None);
        p.cover(100, 100);
        assert_eq!(p.take(), None);
        p.cover(4096, 6144);
        p.cover(5000, 5008); // inside: no change
        assert_eq!(p.take(), Some((4096, 6144)));
        assert_eq!(p.take(), None);
        p.cover(0, 8);
        assert_eq!(p.take(), Some((0, 8)));
    }

    /// A stream of puts at rising offsets (osu_oshm_put_mr: 500 puts of 2 KiB, each to
    /// the next 2 KiB) changes the word about log2(500) times, not 500 times (each change
    /// is a locked instruction on the put's path), and the range covers every put and
    /// stays in the heap; falling offsets likewise.
    #[test]
    fn pending_widens_by_doubling_on_a_stream_of_puts() {
        for rising in [true, false] {
            let heap = 1u64 << 20;
            let p = Pending::new(heap);
            let (n, size) = (500u64, 2048u64);
            let mut changes = 0;
            let mut last = 0;
            for i in 0..n {
                let lo = if rising { i * size } else { (n - 1 - i) * size };
                p.cover(lo, lo + size);
                let w = p.range.load(std::sync::atomic::Ordering::Relaxed);
                if w != last {
                    changes += 1;
                    last = w;
                }
            }
            assert!(
                changes <= 10,
                "rising {rising}: {changes} changes for {n} puts"
            );
            let (lo, hi) = p.take().unwrap();
            assert!(lo == 0 && hi >= n * size && hi <= heap, "{lo}..{hi}");
        }
    }

    /// Past 4 GiB the word counts in units of 2, 4, ... bytes, rounding outward.
    #[test]
    fn pending_rounds_outward_in_a_huge_heap() {
        // 16 GiB: units of 8 bytes (its end, 2^32 units of 4, does not fit in 32 bits).
        let p = Pending::new(1 << 34);
        p.cover(4097, 4099);
        assert_eq!(p.take(), Some((4096, 4104)));
        p.cover((1 << 34) - 3, 1 << 34);
        assert_eq!(p.take(), Some(((1 << 34) - 8, 1 << 34)));
        // 4 GiB − 1 byte still counts bytes.
        let p = Pending::new((1 << 32) - 1);
        p.cover(4097, 4099);
        assert_eq!(p.take(), Some((4097, 4099)));
    }
}
