//! The one-sided window of `rma-channels` between threads of one process: a registered
//! region of `depth` slots that producers write directly (one copy, no receive-side copy)
//! and consumers read in place, each slot with a completion signal — the protocol of
//! `Team::put_signal` (copy into the target's memory, then a Release store of the signal
//! word, waited on with Acquire), which between processes the team runs itself.
//!
//! Per slot `s`:
//! - `free[s]` = the ticket that may write it next (starts at `s`; the consumer of ticket
//!   `g` stores `g + depth` once it has checked the slot);
//! - `posted[s]` = `g + 1` once ticket `g`'s payload and header are in the slot.
//!
//! Tickets are handed out in order (one counter per side of the window), so slot `g % depth`
//! belongs to ticket `g` from the moment `free` says so until the consumer releases it.

use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// A waiting end gave up (the peer is stuck or gone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimedOut;

/// The window.
pub struct Window {
    data: Box<[UnsafeCell<u64>]>,
    slot_bytes: usize,
    depth: u64,
    head: Box<[AtomicU64]>,
    posted: Box<[AtomicU64]>,
    free: Box<[AtomicU64]>,
    /// Next ticket to send (XPYC: shared by the producers).
    pub send_ticket: AtomicU64,
    /// Next ticket to receive (XPYC: shared by the consumers).
    pub recv_ticket: AtomicU64,
}

// SAFETY: the slots' bytes are only touched through `put` (by the one holder of a ticket
// whose slot `free` handed over) and `read` (by the one holder of the ticket whose slot
// `posted` published); the hand-over words are atomics with Release/Acquire, so no two
// threads access a slot's bytes at once and each sees the other's completed writes.
unsafe impl Sync for Window {}

impl Window {
    /// A window of `depth` slots of `slot_bytes` (rounded up to 8) each.
    pub fn new(depth: usize, slot_bytes: usize) -> Window {
        let words = slot_bytes.div_ceil(8).max(1);
        let atomics = |f: &dyn Fn(u64) -> u64| -> Box<[AtomicU64]> {
            (0..depth as u64).map(|s| AtomicU64::new(f(s))).collect()
        };
        Window {
            data: (0..depth * words).map(|_| UnsafeCell::new(0)).collect(),
            slot_bytes: words * 8,
            depth: depth as u64,
            head: atomics(&|_| 0),
            posted: atomics(&|_| 0),
            free: atomics(&|s| s),
            send_ticket: AtomicU64::new(0),
            recv_ticket: AtomicU64::new(0),
        }
    }

    fn slot_ptr(&self, g: u64) -> *mut u8 {
        let words = self.slot_bytes / 8;
        let s = (g % self.depth) as usize;
        // SAFETY: s < depth, so the offset stays inside `data` (depth * words cells); the
        // pointer comes from the whole slice, so it may address the slot's `words` cells,
        // and UnsafeCell::raw_get makes writing through it permitted.
        unsafe { UnsafeCell::raw_get(self.data.as_ptr().add(s * words)).cast::<u8>() }
    }

    /// Ticket `g` writes `src` (at most a slot) into its slot with header `tag`, then
    /// signals it: waits until the slot is free.
    pub fn put_signal(&self, g: u64, src: &[u8], tag: u64, until: Instant) -> Result<(), TimedOut> {
        assert!(src.len() <= self.slot_bytes, "a put larger than its slot");
        let s = (g % self.depth) as usize;
        // Acquire: pairs with the consumer's Release store in `release` — its reads of the
        // slot's previous payload are done before we overwrite it.
        wait_until(|| self.free[s].load(Ordering::Acquire) == g, until)?;
        // SAFETY: `free[s] == g` hands slot s to ticket g's one holder (tickets are unique)
        // until it publishes through `posted`; `src` is at most `slot_bytes` long (asserted)
        // and is the caller's memory, not the window's, so the ranges do not overlap.
        unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), self.slot_ptr(g), src.len()) };
        self.head[s].store(tag, Ordering::Relaxed);
        // Release: publishes the payload and header to the consumer's Acquire load in `get`.
        self.posted[s].store(g + 1, Ordering::Release);
        Ok(())
    }

    /// Ticket `g` waits for its slot and lends `len` bytes of it and its header to `f`, in
    /// place; then frees the slot for ticket `g + depth`.
    pub fn get<R>(
        &self,
        g: u64,
        len: usize,
        until: Instant,
        f: impl FnOnce(u64, &[u8]) -> R,
    ) -> Result<R, TimedOut> {
        let s = (g % self.depth) as usize;
        // Acquire: pairs with the producer's Release store of `posted` in `put_signal`.
        wait_until(|| self.posted[s].load(Ordering::Acquire) == g + 1, until)?;
        let tag = self.head[s].load(Ordering::Relaxed);
        // SAFETY: `posted[s] == g + 1` means ticket g's producer finished writing (Acquire
        // above) and no producer writes slot s again until we store `free[s] = g + depth`
        // below; `len` is clamped to the slot.
        let bytes =
            unsafe { std::slice::from_raw_parts(self.slot_ptr(g), len.min(self.slot_bytes)) };
        let r = f(tag, bytes);
        // Release: our reads of the slot happen before the next producer's Acquire load of
        // `free` in `put_signal`.
        self.free[s].store(g + self.depth, Ordering::Release);
        Ok(r)
    }
}

/// Spins, then yields (more threads than CPUs must still progress), until `cond` or `until`.
pub fn wait_until(mut cond: impl FnMut() -> bool, until: Instant) -> Result<(), TimedOut> {
    let mut i: u32 = 0;
    loop {
        if cond() {
            return Ok(());
        }
        i = i.wrapping_add(1);
        if i < 64 {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
            if i.is_multiple_of(256) && Instant::now() > until {
                return Err(TimedOut);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn slots_pass_in_ticket_order_and_wrap() {
        let w = Window::new(2, 16);
        let until = Instant::now() + Duration::from_secs(10);
        std::thread::scope(|s| {
            s.spawn(|| {
                for g in 0..100u64 {
                    let b = [g as u8; 16];
                    w.put_signal(g, &b, g, until).unwrap();
                }
            });
            for g in 0..100u64 {
                let (tag, ok) = w
                    .get(g, 16, until, |t, b| (t, b.iter().all(|&x| x == g as u8)))
                    .unwrap();
                assert_eq!(tag, g);
                assert!(ok, "slot of ticket {g}");
            }
        });
    }

    #[test]
    fn a_missing_put_times_out() {
        let w = Window::new(1, 8);
        let r = w.get(0, 8, Instant::now() + Duration::from_millis(20), |_, _| ());
        assert_eq!(r, Err(TimedOut));
    }
}
