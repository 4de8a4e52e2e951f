//! A one-sided window between threads of one process: a registered region of `depth` slots
//! that producers write directly (one copy, no receive-side copy) and consumers read in
//! place, each slot with a completion signal — the protocol of `Team::put_signal` (copy into
//! the target's memory, then a Release store of the signal word, waited on with Acquire).
//! The lab's `rma-channels` experiment measures it between threads; it lives here, on the
//! probe's atomics facade, so the loom models below check the code the experiment runs.
//!
//! Per slot `s`:
//! - `free[s]` = the ticket that may write it next (starts at `s`; the consumer of ticket
//!   `g` stores `g + depth` once it has read the slot);
//! - `posted[s]` = `g + 1` once ticket `g`'s payload and header are in the slot.
//!
//! Tickets are handed out in order (one counter per side of the window,
//! [`Window::next_send_ticket`] and [`Window::next_recv_ticket`]), so slot `g % depth`
//! belongs to ticket `g` from the moment `free` says so until the consumer releases it.

use std::cell::UnsafeCell;
use std::time::Instant;

use crate::atomic::{spin_hint, yield_now, AtomicU64, Ordering};

/// A waiting end gave up (the peer is stuck or gone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimedOut;

/// Who touches a slot's bytes, for loom: a `loom::cell::UnsafeCell<()>` per slot, entered
/// around every write and read of the slot, so loom reports a race when a write and a read
/// (or two writes) of one slot are not ordered by happens-before. Nothing (zero-sized) in a
/// normal build.
struct SlotAccess {
    #[cfg(loom)]
    cell: loom::cell::UnsafeCell<()>,
}

impl SlotAccess {
    fn new() -> SlotAccess {
        SlotAccess {
            #[cfg(loom)]
            cell: loom::cell::UnsafeCell::new(()),
        }
    }

    #[inline]
    fn writing<R>(&self, f: impl FnOnce() -> R) -> R {
        #[cfg(loom)]
        return self.cell.with_mut(|_| f());
        #[cfg(not(loom))]
        f()
    }

    #[inline]
    fn reading<R>(&self, f: impl FnOnce() -> R) -> R {
        #[cfg(loom)]
        return self.cell.with(|_| f());
        #[cfg(not(loom))]
        f()
    }
}

/// The window.
pub struct Window {
    data: Box<[UnsafeCell<u64>]>,
    slot_bytes: usize,
    depth: u64,
    access: Box<[SlotAccess]>,
    head: Box<[AtomicU64]>,
    posted: Box<[AtomicU64]>,
    free: Box<[AtomicU64]>,
    send_ticket: AtomicU64,
    recv_ticket: AtomicU64,
}

// SAFETY: the slots' bytes are only touched through `put_signal` (by the one holder of a
// ticket whose slot `free` handed over) and `get` (by the one holder of the ticket whose
// slot `posted` published); the hand-over words are atomics with Release/Acquire, so no two
// threads access a slot's bytes at once and each sees the other's completed writes (the
// loom models below check it).
unsafe impl Sync for Window {}

impl Window {
    /// A window of `depth` (at least 1) slots of `slot_bytes` (rounded up to 8) each.
    pub fn new(depth: usize, slot_bytes: usize) -> Window {
        assert!(depth >= 1, "a window needs a slot");
        let words = slot_bytes.div_ceil(8).max(1);
        let atomics = |f: &dyn Fn(u64) -> u64| -> Box<[AtomicU64]> {
            (0..depth as u64).map(|s| AtomicU64::new(f(s))).collect()
        };
        Window {
            data: (0..depth * words).map(|_| UnsafeCell::new(0)).collect(),
            slot_bytes: words * 8,
            depth: depth as u64,
            access: (0..depth).map(|_| SlotAccess::new()).collect(),
            head: atomics(&|_| 0),
            posted: atomics(&|_| 0),
            free: atomics(&|s| s),
            send_ticket: AtomicU64::new(0),
            recv_ticket: AtomicU64::new(0),
        }
    }

    /// Bytes of a slot (the `slot_bytes` asked for, rounded up to 8).
    pub fn slot_bytes(&self) -> usize {
        self.slot_bytes
    }

    /// The next ticket to send, for producers sharing the window (XPYC); a lone producer may
    /// number its puts 0, 1, 2, … itself. Relaxed: the ticket only has to be unique, the
    /// slot's hand-over is ordered by `free` and `posted`.
    pub fn next_send_ticket(&self) -> u64 {
        self.send_ticket.fetch_add(1, Ordering::Relaxed)
    }

    /// The next ticket to receive, for consumers sharing the window (XPYC). Relaxed, as
    /// [`Window::next_send_ticket`].
    pub fn next_recv_ticket(&self) -> u64 {
        self.recv_ticket.fetch_add(1, Ordering::Relaxed)
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
        // Acquire: pairs with the consumer's Release store of `free` in `get` — its reads of
        // the slot's previous payload are done before we overwrite it.
        wait_until(|| self.free[s].load(Ordering::Acquire) == g, until)?;
        self.access[s].writing(|| {
            // SAFETY: `free[s] == g` hands slot s to ticket g's one holder (tickets are
            // unique) until it publishes through `posted`; `src` is at most `slot_bytes`
            // long (asserted) and is the caller's memory, not the window's, so the ranges
            // do not overlap.
            unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), self.slot_ptr(g), src.len()) };
        });
        self.head[s].store(tag, Ordering::Relaxed);
        // Release: publishes the payload and header to the consumer's Acquire load of
        // `posted` in `get`.
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
        let r = self.access[s].reading(|| {
            // SAFETY: `posted[s] == g + 1` means ticket g's producer finished writing
            // (Acquire above) and no producer writes slot s again until we store
            // `free[s] = g + depth` below; `len` is clamped to the slot.
            let bytes =
                unsafe { std::slice::from_raw_parts(self.slot_ptr(g), len.min(self.slot_bytes)) };
            f(tag, bytes)
        });
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
            spin_hint();
        } else {
            yield_now();
            if i.is_multiple_of(256) && Instant::now() > until {
                return Err(TimedOut);
            }
        }
    }
}

#[cfg(all(test, not(loom)))]
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

    #[test]
    fn tickets_are_handed_out_in_order() {
        let w = Window::new(2, 8);
        assert_eq!((w.next_send_ticket(), w.next_send_ticket()), (0, 1));
        assert_eq!(w.next_recv_ticket(), 0);
        assert_eq!(w.slot_bytes(), 8);
    }
}

/// Loom models of the window, on the `put_signal` / `get` the experiment runs: the slots'
/// bytes are entered through loom's `UnsafeCell` (`SlotAccess`), so a write and a read of a
/// slot not ordered by the `posted` / `free` hand-over is reported as a race.
#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use loom::sync::Arc;
    use std::time::Duration;

    fn far() -> Instant {
        Instant::now() + Duration::from_secs(3600)
    }

    /// One producer, one consumer, 2 slots, 3 tickets: ticket 2 reuses slot 0 (wrap-around),
    /// so the producer's write of it must wait for the consumer's read of ticket 0. Every
    /// get sees its own ticket's header and payload.
    #[test]
    fn loom_window_one_producer_one_consumer_wraps() {
        loom::model(|| {
            let w = Arc::new(Window::new(2, 8));
            let producer = {
                let w = w.clone();
                loom::thread::spawn(move || {
                    for g in 0..3u64 {
                        w.put_signal(g, &[g as u8 + 1; 8], 100 + g, far()).unwrap();
                    }
                })
            };
            for g in 0..3u64 {
                let (tag, bytes) = w.get(g, 8, far(), |t, b| (t, b.to_vec())).unwrap();
                assert_eq!(tag, 100 + g);
                assert_eq!(bytes, vec![g as u8 + 1; 8], "ticket {g}");
            }
            producer.join().unwrap();
        });
    }
}
