//! The protocol of [`ArrayMpmc`](super::ArrayMpmc): Vyukov's bounded queue with a stamp per
//! slot (crossbeam-queue's `ArrayQueue`): any number of producers and of consumers, each
//! side claiming positions with a CAS.
//!
//! # Protocol
//!
//! | word | written by | meaning |
//! |---|---|---|
//! | `tail` | producers (CAS +1) | positions claimed by producers so far |
//! | `head` | consumers (CAS +1) | positions claimed by consumers so far |
//! | `slot[i].stamp` | the producer, then the consumer that claimed the slot's position | see below |
//! | `producers`, `joined` | joining (+1 each) and leaving (−1 `producers`) producers | attached now / ever |
//! | `expected` | the creator ([`expect`]) | joins to see before the queue can close (0 means 1) |
//! | `consumers` | joining (+1) and leaving (−1) consumers | attached now |
//! | `consumer_closed` | the last consumer to leave | 1: producers get `Closed` (for good) |
//!
//! Position `p` lives in slot `p % cap`, in lap `p / cap`. A slot's stamp is `2·lap` when
//! it is free for position `lap·cap + i`, and `2·lap + 1` once that position's value is
//! written. All-zero is every slot free for lap 0.
//!
//! - Producer: read `tail = t`; if the slot's stamp is `2·lap(t)`, CAS `tail` from `t` to
//!   `t + 1`; the winner writes the value and stores stamp `2·lap + 1`. A stamp of
//!   `2·lap − 1` (the previous lap's value, not yet consumed) with `tail` still `t` means
//!   full. Anything else: another producer won `t`; retry.
//! - Consumer: read `head = h` (its own guess: the position after its last take); if the
//!   slot's stamp is `2·lap(h) + 1`, CAS `head` from `h` to `h + 1`; the winner reads the
//!   value and stores stamp `2·(lap + 1)` (free for the next lap). A stamp of `2·lap` or
//!   less (not written yet, the slot's previous value still being read, or an old stamp
//!   this consumer's load may still return) with `head` still `h` means empty — or a producer claimed `h` and is still writing (if it died
//!   there, the wait ends with `PeerGone` through the segment's peer check). A larger
//!   stamp: another consumer took `h`; retry from the current `head`.
//! - Closed (for consumers): no producer attached, at least `max(expected, 1)` joins seen,
//!   and `tail == head` (every written value taken). A consumer that finds the queue closed
//!   rings the data bell, and so does one that leaves, so that a consumer asleep with a
//!   stale `head` re-polls.
//!
//! # Memory ordering
//!
//! - SYNC POINT V1: the producer's Release store of `2·lap + 1` in [`push`] pairs with the
//!   consumer's Acquire load of the stamp in [`ArrayCursor::pop`]: the value is visible.
//! - SYNC POINT V2: the consumer's Release store of `2·(lap + 1)` in [`ArrayCursor::pop`]
//!   pairs with the producer's Acquire load of the stamp in [`push`]: the consumer's read
//!   of the old value happens before the next lap's write.
//! - The CASes on `tail` and `head` only make the claim of a position exclusive (Relaxed:
//!   positions never repeat, and the stamp loads carry the data ordering).
//! - `producers` is decremented with Release after a producer's last push and loaded with
//!   Acquire in the consumers' closed verdict; `joined` is incremented with Release after
//!   `producers` and loaded with Acquire before it (a counted join shows as attached);
//!   `consumer_closed` Release / Acquire.
//! - Waits: consumers sleep on `data`, rung by every producer; producers sleep on `space`,
//!   rung by every consumer. Both bells have several ringers, so are always fenced
//!   (`LazyBell::ring_always` / `wait_eager`).
//!
//! The `loom_tests` at the end model-check this code.

use super::doorbell::LazyBell;
use super::index::Position;
use crate::atomic::{spin_hint, AtomicU32, AtomicU64, Ordering};

/// The shared words besides the slots.
#[repr(C)]
#[derive(Debug, Default)]
pub(crate) struct ArrayWords {
    pub(crate) tail: Position,
    pub(crate) head: Position,
    pub(crate) data: LazyBell,
    pub(crate) space: LazyBell,
    pub(crate) control: Members,
}

/// Who is attached.
#[repr(C, align(128))]
#[derive(Debug, Default)]
pub(crate) struct Members {
    pub(crate) producers: AtomicU64,
    pub(crate) joined: AtomicU64,
    pub(crate) consumer_closed: AtomicU32,
    pub(crate) expected: AtomicU64,
    pub(crate) consumers: AtomicU64,
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
    /// Every consumer left.
    Closed,
}

/// Raises the number of producer joins the consumers wait for before the queue can read as
/// closed to `n` (never lowers it).
pub(crate) fn expect(w: &ArrayWords, n: u64) {
    // Relaxed: a setting made before the producers are handed out; read in the consumers'
    // slow path.
    w.control.expected.fetch_max(n, Ordering::Relaxed);
}

/// Registers a producer; `false` if the consumers closed already.
pub(crate) fn join(w: &ArrayWords) -> bool {
    // Relaxed: a count, published by the Release increment of `joined` below.
    w.control.producers.fetch_add(1, Ordering::Relaxed);
    // Release: pairs with the Acquire load in `ArrayCursor::closed`: a consumer that counts
    // this join sees the `producers` increment above.
    w.control.joined.fetch_add(1, Ordering::Release);
    // Acquire: pairs with the Release store in `consumer_leave`.
    w.control.consumer_closed.load(Ordering::Acquire) == 0
}

/// Unregisters a producer after its last push, waking the consumers to see it.
pub(crate) fn leave(w: &ArrayWords) {
    // Release: pairs with the Acquire load in `ArrayCursor::closed`.
    w.control.producers.fetch_sub(1, Ordering::Release);
    w.data.ring_always();
}

/// Whether every consumer left (producers get `Closed`).
pub(crate) fn consumers_gone(w: &ArrayWords) -> bool {
    // Acquire: pairs with the Release store in `consumer_leave`.
    w.control.consumer_closed.load(Ordering::Acquire) != 0
}

/// Registers a consumer (always possible: a consumer may drain a queue whose other
/// consumers all left).
pub(crate) fn consumer_join(w: &ArrayWords) {
    // Relaxed: a count; only its drop to 0 matters (`consumer_leave`).
    w.control.consumers.fetch_add(1, Ordering::Relaxed);
}

/// Unregisters a consumer; the last one closes the queue for producers, for good.
pub(crate) fn consumer_leave(w: &ArrayWords) {
    // AcqRel: the RMWs on `consumers` form one chain; only the last leaver closes.
    if w.control.consumers.fetch_sub(1, Ordering::AcqRel) == 1 {
        // Release: pairs with the Acquire loads in `join` and `push`.
        w.control.consumer_closed.store(1, Ordering::Release);
        w.space.ring_always();
    }
    // Another consumer asleep may hold a stale `head`: its re-poll after this fence sees
    // this consumer's claims (module docs, "Closed").
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
                // Acquire: pairs with the Release store in `consumer_leave`.
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

/// One consumer's position guess and count.
#[derive(Debug)]
pub(crate) struct ArrayCursor {
    /// The position this consumer tries next (the one after its last claim, or the last
    /// `head` it read).
    head: u64,
    cap: u64,
    taken: u64,
}

/// What a pop attempt found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pop<R> {
    /// The value read.
    Got(R),
    /// No producer attached (after the expected joins), nothing claimed and not consumed.
    Closed,
}

impl ArrayCursor {
    pub(crate) fn new(cap: u64) -> Self {
        ArrayCursor {
            head: 0,
            cap,
            taken: 0,
        }
    }

    /// Values this consumer took so far.
    pub(crate) fn taken(&self) -> u64 {
        self.taken
    }

    /// Takes the value at the queue's head with `read` (given the slot index) if it is
    /// written; `None` if not (yet), `Some(Closed)` if it never will be.
    #[inline]
    pub(crate) fn pop<S: Stamps + ?Sized, R>(
        &mut self,
        w: &ArrayWords,
        slots: &S,
        read: impl FnOnce(usize) -> R,
    ) -> Option<Pop<R>> {
        let mut h = self.head;
        loop {
            let (lap, i) = (h / self.cap, (h % self.cap) as usize);
            // Acquire: SYNC POINT V1, pairs with the Release store in `push`.
            let s = slots.stamp(i).load(Ordering::Acquire);
            if s == 2 * lap + 1 {
                // Relaxed: the CAS only makes the claim exclusive (module docs).
                match w
                    .head
                    .0
                    .compare_exchange_weak(h, h + 1, Ordering::Relaxed, Ordering::Relaxed)
                {
                    Ok(_) => {
                        let v = read(i);
                        // Release: SYNC POINT V2, pairs with the Acquire load in `push`.
                        slots.stamp(i).store(2 * lap + 2, Ordering::Release);
                        self.head = h + 1;
                        self.taken += 1;
                        // Several consumers ring this bell: always (doorbell, "Several
                        // ringers").
                        w.space.ring_always();
                        return Some(Pop::Got(v));
                    }
                    Err(now) => h = now,
                }
            } else if s <= 2 * lap {
                // Not written for this lap yet (or an older stamp this consumer has no
                // reason yet to see past: nothing orders its load after the last write).
                // Relaxed: a re-read of the guess; the stamps carry the ordering.
                let now = w.head.0.load(Ordering::Relaxed);
                if now == h {
                    self.head = h;
                    if !self.closed(w, h) {
                        return None;
                    }
                    // Wake the other consumers: their re-poll after this fence sees `head`.
                    w.data.ring_always();
                    return Some(Pop::Closed);
                }
                h = now;
            } else {
                // Another consumer took `h` (its stamp store, Acquired above, follows its
                // CAS on `head`, so the load below reads past `h`).
                h = w.head.0.load(Ordering::Relaxed);
            }
        }
    }

    /// Whether the expected producers joined and left with nothing written past `head = h`.
    fn closed(&self, w: &ArrayWords, h: u64) -> bool {
        // `joined` first, with Acquire: pairs with the Release increment in `join`, so every
        // join counted here shows in `producers` below (unless that producer left). Relaxed
        // `expected`: set before the producers were handed out.
        w.control.joined.load(Ordering::Acquire)
            >= w.control.expected.load(Ordering::Relaxed).max(1)
            // Acquire: pairs with the Release decrement in `leave`: the leavers' claims (CAS
            // on `tail`, before their leave) are visible to the `tail` load below.
            && w.control.producers.load(Ordering::Acquire) == 0
            && w.tail.0.load(Ordering::Relaxed) == h
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
        let r = m.w.space.wait_eager(
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

    /// A consumer's life: pops (sleeping on the data bell) until `Closed`.
    fn consume(m: &Model) -> Vec<u64> {
        let mut c = ArrayCursor::new(m.stamps.len() as u64);
        let mut got = Vec::new();
        loop {
            let r = m.w.data.wait_eager(
                || {
                    c.pop(&m.w, m, |i| {
                        // SAFETY (model): the stamp said the value is written, and the CAS
                        // on `head` gave this consumer the slot.
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
        assert_eq!(c.taken(), got.len() as u64);
        got
    }

    /// Two producers, one slot, one consumer: one producer finds the queue full and sleeps
    /// until the consumer frees the slot (V2); the consumer sees both values (V1), then
    /// `Closed`.
    #[test]
    fn loom_array_two_producers_one_slot() {
        loom::model(|| {
            let m = model(1);
            consumer_join(&m.w);
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
            let mut got = consume(&m);
            got.sort_unstable();
            assert_eq!(got, vec![1, 2]);
            ta.join().unwrap();
            tb.join().unwrap();
        });
    }

    /// Two producers and two consumers, racing without waits (bounded steps, so that the
    /// four threads stay explorable; the sleeping and waking is the other models'): each
    /// producer pushes one value into two slots, each consumer makes two pop attempts, then
    /// the main thread drains what is left. Every value is taken exactly once (the CAS on
    /// `head`), whole (V1), and the queue then reads as closed.
    #[test]
    fn loom_array_two_producers_two_consumers() {
        // One preemption: a slot taken twice needs only one (two consumers between the load
        // of `head` and its CAS); two took 7 minutes of CI's 2 CPUs for four threads.
        let mut b = loom::model::Builder::new();
        b.preemption_bound = Some(1);
        b.check(|| {
            let m = model(2);
            consumer_join(&m.w);
            consumer_join(&m.w);
            assert!(join(&m.w) && join(&m.w));
            let take = |m: &Model, c: &mut ArrayCursor| {
                c.pop(&m.w, m, |i| {
                    // SAFETY (model): the stamp said the value is written, and the CAS on
                    // `head` gave this consumer the slot.
                    m.values[i].with(|p| unsafe { *p })
                })
            };
            let producer = |m: Arc<Model>, v: u64| {
                loom::thread::spawn(move || {
                    let r = push(&m.w, &*m, 2, |i| {
                        // SAFETY (model): the CAS gave this producer the slot.
                        m.values[i].with_mut(|p| unsafe { *p = v })
                    });
                    assert!(matches!(r, Push::Done(_)), "{r:?}");
                    leave(&m.w);
                })
            };
            let consumer = |m: Arc<Model>| {
                loom::thread::spawn(move || {
                    let mut c = ArrayCursor::new(2);
                    let mut got = Vec::new();
                    for _ in 0..2 {
                        if let Some(Pop::Got(v)) = take(&m, &mut c) {
                            got.push(v);
                        }
                    }
                    got
                })
            };
            let ts = [producer(m.clone(), 1), producer(m.clone(), 2)];
            let (ca, cb) = (consumer(m.clone()), consumer(m.clone()));
            let mut got = ca.join().unwrap();
            got.extend(cb.join().unwrap());
            ts.into_iter().for_each(|t| t.join().unwrap());
            let mut c = ArrayCursor::new(2);
            let end = loop {
                match take(&m, &mut c) {
                    Some(Pop::Got(v)) => got.push(v),
                    other => break other,
                }
            };
            assert_eq!(end, Some(Pop::Closed));
            got.sort_unstable();
            assert_eq!(got, vec![1, 2]);
        });
    }

    /// One producer, two consumers sleeping on the data bell: the one that does not get the
    /// value is woken and sees `Closed` (no consumer asleep forever with a stale `head`).
    #[test]
    fn loom_array_second_consumer_wakes_to_closed() {
        loom::model(|| {
            let m = model(1);
            consumer_join(&m.w);
            consumer_join(&m.w);
            assert!(join(&m.w));
            let (a, c) = (m.clone(), m.clone());
            let ta = loom::thread::spawn(move || {
                produce(&a, 1);
                leave(&a.w);
            });
            let tc = loom::thread::spawn(move || {
                let got = consume(&c);
                consumer_leave(&c.w);
                got
            });
            let mut got = consume(&m);
            consumer_leave(&m.w);
            got.extend(tc.join().unwrap());
            assert_eq!(got, vec![1]);
            ta.join().unwrap();
        });
    }

    /// A queue told to expect two producers stays open after the first left: the consumer
    /// gets the second's value, then `Closed`.
    #[test]
    fn loom_array_expected_producers_keep_it_open() {
        loom::model(|| {
            let m = model(1);
            expect(&m.w, 2);
            consumer_join(&m.w);
            assert!(join(&m.w));
            produce(&m, 1);
            leave(&m.w);
            let b = m.clone();
            let tb = loom::thread::spawn(move || {
                assert!(join(&b.w));
                produce(&b, 2);
                leave(&b.w);
            });
            assert_eq!(consume(&m), vec![1, 2]);
            tb.join().unwrap();
        });
    }
}
