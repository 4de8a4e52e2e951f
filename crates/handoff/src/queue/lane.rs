//! The lane protocol of the per-producer MPSC ([`LaneMpsc`](super::LaneMpsc)): producers
//! join by claiming a free lane and leave by closing it; the consumer drains every lane in
//! turn and frees the closed ones for the next joiner. Each lane is an SPSC ring run by
//! `index`; all producers wake the consumer on one shared doorbell.
//!
//! # Protocol
//!
//! | word | written by | meaning |
//! |---|---|---|
//! | `lane.state` | a joining producer (CAS [`FREE`] → [`ACTIVE`]), the consumer (→ [`FREE`]) | who owns the lane |
//! | `lane.ix` | producer / consumer as in `index` | the lane's ring positions |
//! | `control.joined` | joining producers (+1) | producers that ever joined |
//! | `control.expected` | the creator ([`expect`]) | joins to see before the queue can close (0 means 1) |
//! | `control.consumer_closed` | the consumer, when it closes | 1: joining fails with `Closed` |
//! | `bell` | — | the consumer sleeps here; every producer rings it (always fenced: `LazyBell::ring_always`, `wait_eager`) |
//!
//! - Join: the first lane whose `state` CASes from `FREE` to `ACTIVE`; its positions are
//!   0 (never used, or reset by the consumer before it freed the lane).
//! - Leave: close the lane's tail (`index`), ringing the shared bell.
//! - Consumer: polls the lanes from the one after the last it took from (round-robin). A
//!   lane whose producer closed and which is drained is reset (`tail = head = 0`) and freed
//!   (`state = FREE`). With nothing to take, every lane free, and at least
//!   `max(expected, 1)` joins seen, the queue reads as closed (no producer attached *now*: a
//!   later joiner makes pops succeed again; `expected` keeps the queue open for producers
//!   that join late).
//!
//! # Memory ordering
//!
//! - Data and positions: `index`'s SYNC POINTs A and B, per lane.
//! - SYNC POINT L: the consumer's Release store of `FREE` in [`LaneCursor::recycle`]
//!   pairs with the joiner's Acquire CAS in [`join`]: the reset positions (Relaxed stores
//!   before it) are what the joiner sees, and the consumer's reads of the old producer's
//!   data happen before the joiner writes.
//! - `joined` is incremented with Release after the joiner's CAS on its lane and loaded
//!   with Acquire before the consumer's loads of the lane states in its closed verdict: a
//!   join it counted is a lane it sees `ACTIVE` (or freed after that producer left).
//! - `consumer_closed` is stored with Release before the consumer closes each lane's head,
//!   and loaded with Acquire by joiners after their CAS.
//!
//! The `loom_tests` at the end model-check this code.

use super::index::{ConsumerIndex, Found, Indices, Position};
use crate::atomic::{AtomicU32, AtomicU64, Ordering};

/// `state` of a lane nobody owns.
pub(crate) const FREE: u32 = 0;
/// `state` of a lane a producer joined (also while the consumer drains it after a leave).
pub(crate) const ACTIVE: u32 = 1;

/// The queue-wide words.
#[repr(C, align(128))]
#[derive(Debug, Default)]
pub(crate) struct Control {
    pub(crate) joined: AtomicU64,
    pub(crate) consumer_closed: AtomicU32,
    pub(crate) expected: AtomicU64,
}

/// One lane's shared words: its owner state and its ring positions.
#[repr(C)]
#[derive(Debug, Default)]
pub(crate) struct Lane {
    pub(crate) state: Position,
    pub(crate) ix: Indices,
}

// SAFETY: repr(C) of atomics and ShmSafe parts: pointer-free, all-zero = free empty lane.
#[cfg(not(loom))]
unsafe impl crate::layout::ShmSafe for Lane {}
// SAFETY: as for Lane: atomics only, all-zero = nobody joined, consumer open.
#[cfg(not(loom))]
unsafe impl crate::layout::ShmSafe for Control {}

/// Why a join failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum JoinError {
    /// Every lane is owned.
    NoFreeLane,
    /// The consumer closed the queue.
    Closed,
}

/// Raises the number of joins the consumer waits for before the queue can read as closed
/// to `n` (never lowers it).
pub(crate) fn expect(control: &Control, n: u64) {
    // Relaxed: a setting made before the producers are handed out; read in the consumer's
    // slow path.
    control.expected.fetch_max(n, Ordering::Relaxed);
}

/// Claims a free lane for a new producer; returns its number.
pub(crate) fn join(lanes: &[Lane], control: &Control) -> Result<usize, JoinError> {
    for (i, lane) in lanes.iter().enumerate() {
        // Acquire (success): SYNC POINT L, pairs with the Release store of FREE in
        // `LaneCursor::recycle`. Relaxed on failure: nothing was claimed.
        let won = lane
            .state
            .0
            .compare_exchange(
                u64::from(FREE),
                u64::from(ACTIVE),
                Ordering::Acquire,
                Ordering::Relaxed,
            )
            .is_ok();
        if won {
            // Release: pairs with the Acquire load in `LaneCursor::closed`: a consumer that
            // counts this join sees the lane claimed.
            control.joined.fetch_add(1, Ordering::Release);
            // Acquire: pairs with the Release store in `LaneCursor::close`.
            if control.consumer_closed.load(Ordering::Acquire) != 0 {
                return Err(JoinError::Closed);
            }
            return Ok(i);
        }
    }
    Err(JoinError::NoFreeLane)
}

/// What a consumer poll found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Take {
    /// Lane `lane` has `n` units from unit number `head` on.
    Ready { lane: usize, head: u64, n: u64 },
    /// Nothing to take, every lane free, and a producer had joined.
    Closed,
}

/// The consumer's view of every lane.
#[derive(Debug)]
pub(crate) struct LaneCursor {
    /// Units per lane.
    cap: u64,
    idx: Vec<ConsumerIndex>,
    /// The lane to look at first next time.
    next: usize,
}

impl LaneCursor {
    pub(crate) fn new(lanes: usize, capacity: u64) -> Self {
        LaneCursor {
            cap: capacity,
            idx: (0..lanes).map(|_| ConsumerIndex::new(capacity)).collect(),
            next: 0,
        }
    }

    /// Looks at each lane once, starting after the last one taken from; `None` if nothing
    /// is there (and the queue is not closed). Recycles drained closed lanes on the way.
    pub(crate) fn poll(&mut self, lanes: &[Lane], control: &Control) -> Option<Take> {
        let k = lanes.len();
        for step in 0..k {
            let i = (self.next + step) % k;
            match self.idx[i].available(&lanes[i].ix, 1) {
                Some(Found::Ready(n)) => {
                    self.next = (i + 1) % k;
                    return Some(Take::Ready {
                        lane: i,
                        head: self.idx[i].head(),
                        n,
                    });
                }
                Some(Found::Closed) => self.recycle(&lanes[i], i),
                None => {}
            }
        }
        self.closed(lanes, control).then_some(Take::Closed)
    }

    /// Whether the expected producers joined and every lane is free now.
    fn closed(&self, lanes: &[Lane], control: &Control) -> bool {
        // Acquire: pairs with the Release increment in `join` (module docs). Relaxed
        // `expected`: set before the producers were handed out. Relaxed states: a snapshot
        // verdict ("no producer now"); the data itself is ordered per lane by `index`.
        control.joined.load(Ordering::Acquire) >= control.expected.load(Ordering::Relaxed).max(1)
            && lanes
                .iter()
                .all(|l| l.state.0.load(Ordering::Relaxed) == u64::from(FREE))
    }

    /// Resets a drained, closed lane and frees it for the next joiner.
    fn recycle(&mut self, lane: &Lane, i: usize) {
        // Relaxed: published by the Release store of FREE below (SYNC POINT L).
        lane.ix.tail.0.store(0, Ordering::Relaxed);
        lane.ix.head.0.store(0, Ordering::Relaxed);
        self.idx[i] = ConsumerIndex::new(self.cap);
        // Release: SYNC POINT L, pairs with the Acquire CAS in `join`.
        lane.state.0.store(u64::from(FREE), Ordering::Release);
    }

    /// Releases `n` units of lane `lane` (read after a `Take::Ready`), waking its producer.
    #[inline]
    pub(crate) fn release(&mut self, lanes: &[Lane], lane: usize, n: u64) {
        self.idx[lane].release(&lanes[lane].ix, n);
    }

    /// Closes the consumer's side: joiners and every lane's producer see `Closed`.
    pub(crate) fn close(&self, lanes: &[Lane], control: &Control) {
        // Release: pairs with the Acquire load in `join`.
        control.consumer_closed.store(1, Ordering::Release);
        for (i, lane) in lanes.iter().enumerate() {
            self.idx[i].close(&lane.ix);
        }
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use crate::atomic::AtomicU64;
    use crate::queue::doorbell::LazyBell;
    use crate::queue::index::ProducerIndex;
    use crate::sync::wait::Wait;
    use crate::sync::NoPeers;
    use loom::cell::UnsafeCell;
    use loom::sync::Arc;

    struct Model {
        lanes: Vec<Lane>,
        control: Control,
        bell: LazyBell,
        /// One unit per lane (capacity 1).
        units: Vec<UnsafeCell<u64>>,
        taken: AtomicU64,
    }

    fn model(k: usize) -> Arc<Model> {
        Arc::new(Model {
            lanes: (0..k).map(|_| Lane::default()).collect(),
            control: Control::default(),
            bell: LazyBell::default(),
            units: (0..k).map(|_| UnsafeCell::new(0)).collect(),
            taken: AtomicU64::new(0),
        })
    }

    /// A producer's life: join, push `vals` through a lane of capacity 1, leave.
    fn produce(m: &Model, vals: &[u64]) {
        let lane = loop {
            match join(&m.lanes, &m.control) {
                Ok(l) => break l,
                Err(JoinError::NoFreeLane) => loom::thread::yield_now(),
                Err(e) => panic!("{e:?}"),
            }
        };
        let ix = &m.lanes[lane].ix;
        let mut p = ProducerIndex::new(1);
        for &v in vals {
            let f = p.wait_free(ix, 1, Some(Wait::Block), None, &NoPeers);
            assert_eq!(f, Ok(Found::Ready(1)));
            // SAFETY (model): the lane's only unit is the producer's now.
            m.units[lane].with_mut(|u| unsafe { *u = v });
            p.commit_ringing(ix, 1, &m.bell);
        }
        p.close_ringing(ix, &m.bell);
    }

    /// The consumer takes `n` values, blocking on the shared bell (and yielding while the
    /// queue reads as closed between two producers).
    fn consume(m: &Model, c: &mut LaneCursor, n: usize) -> Vec<u64> {
        let mut got = Vec::new();
        while got.len() < n {
            let t = m
                .bell
                .wait_eager(|| c.poll(&m.lanes, &m.control), Wait::Block, None, &NoPeers)
                .unwrap();
            let Take::Ready { lane, n: k, .. } = t else {
                // No producer attached at this moment: the next one has not joined yet.
                loom::thread::yield_now();
                continue;
            };
            assert_eq!(k, 1);
            // SAFETY (model): committed by the lane's producer (SYNC POINT A).
            got.push(m.units[lane].with(|u| unsafe { *u }));
            c.release(&m.lanes, lane, 1);
            m.taken.fetch_add(1, Ordering::Relaxed);
        }
        got
    }

    /// Two producers on two lanes, one value each; the consumer gets both, then (both
    /// left) `Closed`.
    #[test]
    fn loom_lanes_two_producers_then_closed() {
        loom::model(|| {
            let m = model(2);
            let (a, b) = (m.clone(), m.clone());
            let ta = loom::thread::spawn(move || produce(&a, &[1]));
            let tb = loom::thread::spawn(move || produce(&b, &[2]));
            let mut c = LaneCursor::new(2, 1);
            let mut got = consume(&m, &mut c, 2);
            got.sort_unstable();
            assert_eq!(got, vec![1, 2]);
            ta.join().unwrap();
            tb.join().unwrap();
            let end =
                m.bell
                    .wait_eager(|| c.poll(&m.lanes, &m.control), Wait::Block, None, &NoPeers);
            assert_eq!(end, Ok(Take::Closed));
        });
    }

    /// One lane, two producers in turn: the second can join only after the consumer drained
    /// and recycled the first's lane (SYNC POINT L), and its value is read whole.
    #[test]
    fn loom_lanes_recycled_lane_is_reused() {
        loom::model(|| {
            let m = model(1);
            let (a, b) = (m.clone(), m.clone());
            let ta = loom::thread::spawn(move || {
                produce(&a, &[7]);
                produce(&a, &[8]);
            });
            let mut c = LaneCursor::new(1, 1);
            assert_eq!(consume(&m, &mut c, 2), vec![7, 8]);
            ta.join().unwrap();
            drop(b);
        });
    }
}
