//! The protocol of [`ArrayMpsc`](super::ArrayMpsc): Vyukov's bounded queue with a stamp per
//! slot (crossbeam-queue's `ArrayQueue`), here with a single consumer.
//!
//! # Protocol
//!
//! | word | written by | meaning |
//! |---|---|---|
//! | `tail` | producers (CAS +1) | positions claimed so far |
//! | `head` | the consumer | positions consumed so far (for `len` and the closed verdict) |
//! | `slot[i].stamp` | the producer that claimed the slot's position, then the consumer | see below |
//! | `producers`, `joined` | joining (+1 each) and leaving (−1 `producers`) producers | attached now / ever |
//! | `consumer_closed` | the consumer, when it closes | 1: producers get `Closed` |
//!
//! Position `p` lives in slot `p % cap`, in lap `p / cap`. A slot's stamp is `2·lap` when
//! it is free for position `lap·cap + i`, and `2·lap + 1` once that position's value is
//! written. All-zero is every slot free for lap 0.
//!
//! - Producer: read `tail = t`; if the slot's stamp is `2·lap(t)`, CAS `tail` from `t` to
//!   `t + 1`; the winner writes the value and stores stamp `2·lap + 1`. A stamp of
//!   `2·lap − 1` (the previous lap's value, not yet consumed) with `tail` still `t` means
//!   full. Anything else: another producer won `t`; retry.
//! - Consumer at `head = h`: stamp `2·lap(h) + 1` → read the value, store stamp
//!   `2·(lap + 1)` (free for the next lap), `head = h + 1`. Otherwise empty, or a producer
//!   claimed `h` and is still writing (if it died there, the consumer's wait ends with
//!   `PeerGone` through the segment's peer check).
//!
//! # Memory ordering
//!
//! - SYNC POINT V1: the producer's Release store of `2·lap + 1` in [`push`] pairs with the
//!   consumer's Acquire load of the stamp in [`ArrayCursor::pop`]: the value is visible.
//! - SYNC POINT V2: the consumer's Release store of `2·(lap + 1)` in [`ArrayCursor::pop`]
//!   pairs with the producer's Acquire load of the stamp in [`push`]: the consumer's read
//!   of the old value happens before the next lap's write.
//! - The CAS on `tail` only makes the claim of a position exclusive (Relaxed: positions
//!   never repeat, and the stamp loads carry the data ordering).
//! - `producers` is decremented with Release after a producer's last push and loaded with
//!   Acquire in the consumer's closed verdict; `consumer_closed` Release / Acquire.
//! - Waits: the consumer sleeps on `data`, rung by every producer (so always fenced:
//!   `Doorbell::ring_always` / `wait_eager`); producers sleep on `space`, rung by the
//!   consumer alone (lazily armed, `wait_shared`).
//!
//! The `loom_tests` at the end model-check this code.

use super::doorbell::Doorbell;
use super::index::Position;
use crate::atomic::{spin_hint, AtomicU32, AtomicU64, Ordering};

/// The shared words besides the slots.
#[repr(C)]
#[derive(Debug, Default)]
pub(crate) struct ArrayWords {
    pub(crate) tail: Position,
    pub(crate) head: Position,
    pub(crate) data: Doorbell,
    pub(crate) space: Doorbell,
    pub(crate) control: Members,
}

/// Who is attached.
#[repr(C, align(128))]
#[derive(Debug, Default)]
pub(crate) struct Members {
    pub(crate) producers: AtomicU64,
    pub(crate) joined: AtomicU64,
    pub(crate) consumer_closed: AtomicU32,
}

// SAFETY: repr(C) of atomics and ShmSafe parts: pointer-free, all-zero = empty, nobody
// attached.
#[cfg(not(loom))]
unsafe impl crate::layout::ShmSafe for ArrayWords {}

/// Access to the slots' stamps (the values are the caller's).
pub(crate) trait Stamps {
    /// The stamp of slot `i` (< capacity).
    fn stamp(&self, i: usize) -> &AtomicU64;
}

/// What a push attempt found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Push {
    /// Written at this position.
    Done(u64),
    /// Every slot holds a value not yet consumed.
    Full,
    /// The consumer closed the queue.
    Closed,
}

/// Registers a producer; `false` if the consumer closed already.
pub(crate) fn join(w: &ArrayWords) -> bool {
    // Relaxed: counts; the consumer's Acquire load of `producers` pairs with `leave`.
    w.control.producers.fetch_add(1, Ordering::Relaxed);
    w.control.joined.fetch_add(1, Ordering::Relaxed);
    // Acquire: pairs with the Release store in `ArrayCursor::close`.
    w.control.consumer_closed.load(Ordering::Acquire) == 0
}

/// Unregisters a producer after its last push, waking the consumer to see it.
pub(crate) fn leave(w: &ArrayWords) {
    // Release: pairs with the Acquire load in `ArrayCursor::closed`.
    w.control.producers.fetch_sub(1, Ordering::Release);
    w.data.ring_always();
}

/// One push attempt of `write` (given the slot index) into a queue of `cap` slots.
#[inline]
pub(crate) fn push<S: Stamps + ?Sized>(
    w: &ArrayWords,
    slots: &S,
    cap: u64,
    write: impl FnOnce(usize),
) -> Push {
    // Relaxed: a guess, confirmed by the CAS below.
    let mut t = w.tail.0.load(Ordering::Relaxed);
    loop {
        let (lap, i) = (t / cap, (t % cap) as usize);
        // Acquire: SYNC POINT V2, pairs with the Release store in `ArrayCursor::pop`.
        let s = slots.stamp(i).load(Ordering::Acquire);
        if s == 2 * lap {
            // Relaxed: the CAS only makes the claim exclusive (module docs).
            match w
                .tail
                .0
                .compare_exchange_weak(t, t + 1, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => {
                    write(i);
                    // Release: SYNC POINT V1, pairs with the Acquire load in
                    // `ArrayCursor::pop`.
                    slots.stamp(i).store(2 * lap + 1, Ordering::Release);
                    // Several producers ring this bell: always (doorbell, "Several ringers").
                    w.data.ring_always();
                    return Push::Done(t);
                }
                Err(now) => t = now,
            }
        } else if s.wrapping_add(1) == 2 * lap {
            let now = w.tail.0.load(Ordering::Relaxed);
            if now == t {
                // Acquire: pairs with the Release store in `ArrayCursor::close`.
                if w.control.consumer_closed.load(Ordering::Acquire) != 0 {
                    return Push::Closed;
                }
                return Push::Full;
            }
            t = now;
        } else {
            spin_hint();
            t = w.tail.0.load(Ordering::Relaxed);
        }
    }
}

/// The consumer's position.
#[derive(Debug)]
pub(crate) struct ArrayCursor {
    head: u64,
    cap: u64,
}

/// What a pop attempt found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pop<R> {
    /// The value read.
    Got(R),
    /// No producer attached (after one had), nothing claimed and not consumed.
    Closed,
}

impl ArrayCursor {
    pub(crate) fn new(cap: u64) -> Self {
        ArrayCursor { head: 0, cap }
    }

    /// Positions consumed so far.
    pub(crate) fn head(&self) -> u64 {
        self.head
    }

    /// Takes the value at `head` with `read` (given the slot index) if it is written;
    /// `None` if not (yet), `Some(Closed)` if it never will be.
    #[inline]
    pub(crate) fn pop<S: Stamps + ?Sized, R>(
        &mut self,
        w: &ArrayWords,
        slots: &S,
        read: impl FnOnce(usize) -> R,
    ) -> Option<Pop<R>> {
        let (lap, i) = (self.head / self.cap, (self.head % self.cap) as usize);
        // Acquire: SYNC POINT V1, pairs with the Release store in `push`.
        if slots.stamp(i).load(Ordering::Acquire) != 2 * lap + 1 {
            return self.closed(w).then_some(Pop::Closed);
        }
        let v = read(i);
        // Release: SYNC POINT V2, pairs with the Acquire load in `push`.
        slots.stamp(i).store(2 * lap + 2, Ordering::Release);
        self.head += 1;
        // Relaxed: `head` is informative (len, closed verdict); slots carry the ordering.
        w.head.0.store(self.head, Ordering::Relaxed);
        w.space.ring();
        Some(Pop::Got(v))
    }

    /// Whether every producer left (after one joined) with nothing claimed past `head`.
    fn closed(&self, w: &ArrayWords) -> bool {
        // Acquire: pairs with the Release decrement in `leave`: the leaver's claims (CAS on
        // `tail`, before its leave) are visible to the `tail` load below.
        w.control.producers.load(Ordering::Acquire) == 0
            && w.control.joined.load(Ordering::Relaxed) > 0
            && w.tail.0.load(Ordering::Relaxed) == self.head
    }

    /// Closes the consumer's side: producers see `Closed` when they find the queue full.
    pub(crate) fn close(&self, w: &ArrayWords) {
        // Release: pairs with the Acquire loads in `join` and `push`.
        w.control.consumer_closed.store(1, Ordering::Release);
        w.space.ring();
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use crate::sync::wait::Wait;
    use crate::sync::NoPeers;
    use loom::cell::UnsafeCell;
    use loom::sync::Arc;

    struct Model {
        w: ArrayWords,
        stamps: Vec<AtomicU64>,
        values: Vec<UnsafeCell<u64>>,
    }

    impl Stamps for Model {
        fn stamp(&self, i: usize) -> &AtomicU64 {
            &self.stamps[i]
        }
    }

    fn model(cap: usize) -> Arc<Model> {
        Arc::new(Model {
            w: ArrayWords::default(),
            stamps: (0..cap).map(|_| AtomicU64::new(0)).collect(),
            values: (0..cap).map(|_| UnsafeCell::new(0)).collect(),
        })
    }

    fn produce(m: &Model, v: u64) {
        let r = m.w.space.wait_shared(
            || match push(&m.w, m, m.stamps.len() as u64, |i| {
                // SAFETY (model): the CAS gave this producer the slot.
                m.values[i].with_mut(|p| unsafe { *p = v })
            }) {
                Push::Full => None,
                r => Some(r),
            },
            Wait::Block,
            None,
            &NoPeers,
        );
        assert!(matches!(r, Ok(Push::Done(_))), "{r:?}");
    }

    /// Two producers, one slot: one of them finds the queue full and sleeps until the
    /// consumer frees the slot (V2); the consumer sees both values (V1), then `Closed`.
    #[test]
    fn loom_array_two_producers_one_slot() {
        loom::model(|| {
            let m = model(1);
            assert!(join(&m.w) && join(&m.w));
            let (a, b) = (m.clone(), m.clone());
            let ta = loom::thread::spawn(move || {
                produce(&a, 1);
                leave(&a.w);
            });
            let tb = loom::thread::spawn(move || {
                produce(&b, 2);
                leave(&b.w);
            });
            let mut c = ArrayCursor::new(1);
            let mut got = Vec::new();
            loop {
                let r = m.w.data.wait_eager(
                    || {
                        c.pop(&m.w, &*m, |i| {
                            // SAFETY (model): the stamp said the value is written.
                            m.values[i].with(|p| unsafe { *p })
                        })
                    },
                    Wait::Block,
                    None,
                    &NoPeers,
                );
                match r.unwrap() {
                    Pop::Got(v) => got.push(v),
                    Pop::Closed => break,
                }
            }
            got.sort_unstable();
            assert_eq!(got, vec![1, 2]);
            ta.join().unwrap();
            tb.join().unwrap();
        });
    }
}
