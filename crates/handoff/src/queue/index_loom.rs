//! Loom models of the SPSC index protocol: the real `ProducerIndex` / `ConsumerIndex` code
//! over units in loom's `UnsafeCell`, so a missing happens-before is reported as a race and
//! a lost wake-up as a deadlock.

use super::*;
use crate::sync::NoPeers;
use loom::cell::UnsafeCell;
use loom::sync::Arc;

struct Model {
    ix: Indices,
    units: Vec<UnsafeCell<u64>>,
}

fn model(cap: usize) -> Arc<Model> {
    Arc::new(Model {
        ix: Indices::default(),
        units: (0..cap).map(|_| UnsafeCell::new(0)).collect(),
    })
}

/// Two items through a ring of 1 with blocking waits on both sides: the producer must wait
/// for a release before it overwrites the unit (SYNC POINT B), the consumer sees each item's
/// bytes (A), a sleeping side is woken (doorbell, lazily armed), and the close arrives after
/// the data.
#[test]
fn loom_spsc_two_items_through_one_unit() {
    loom::model(|| {
        let m = model(1);
        let m2 = m.clone();
        let t = loom::thread::spawn(move || {
            let mut p = ProducerIndex::new(1);
            for v in [11u64, 22] {
                let f = p.wait_free(&m2.ix, 1, Some(Wait::Block), None, &NoPeers);
                assert!(matches!(f, Ok(Found::Ready(_))), "{f:?}");
                let i = (p.tail() % m2.units.len() as u64) as usize;
                // SAFETY (model): the protocol gives the producer this unit; loom reports a
                // race if it does not.
                m2.units[i].with_mut(|u| unsafe { *u = v });
                p.commit(&m2.ix, 1);
            }
            p.close(&m2.ix);
        });
        let mut c = ConsumerIndex::new(m.units.len() as u64);
        for want in [11u64, 22] {
            let f = c.wait_available(&m.ix, 1, Some(Wait::Block), None, &NoPeers);
            assert!(matches!(f, Ok(Found::Ready(_))), "{f:?}");
            let i = (c.head() % m.units.len() as u64) as usize;
            // SAFETY (model): as above, for the consumer's turn.
            let got = m.units[i].with(|u| unsafe { *u });
            assert_eq!(got, want);
            c.release(&m.ix, 1);
        }
        let end = c.wait_available(&m.ix, 1, Some(Wait::Block), None, &NoPeers);
        assert_eq!(end, Ok(Found::Closed));
        t.join().unwrap();
    });
}

/// A batch of two committed at once is read as a batch (the consumer waits for both).
#[test]
fn loom_spsc_batch_commit() {
    loom::model(|| {
        let m = model(2);
        let m2 = m.clone();
        let t = loom::thread::spawn(move || {
            let mut p = ProducerIndex::new(2);
            assert_eq!(
                p.wait_free(&m2.ix, 2, Some(Wait::Block), None, &NoPeers),
                Ok(Found::Ready(2))
            );
            for (i, v) in [5u64, 6].into_iter().enumerate() {
                // SAFETY (model): both units are the producer's until the commit.
                m2.units[i].with_mut(|u| unsafe { *u = v });
            }
            p.commit(&m2.ix, 2);
        });
        let mut c = ConsumerIndex::new(m.units.len() as u64);
        let f = c.wait_available(&m.ix, 2, Some(Wait::Block), None, &NoPeers);
        assert_eq!(f, Ok(Found::Ready(2)));
        // SAFETY (model): both units were committed.
        let sum: u64 = m.units.iter().map(|u| u.with(|p| unsafe { *p })).sum();
        assert_eq!(sum, 11);
        c.release(&m.ix, 2);
        t.join().unwrap();
    });
}

/// A consumer that closes while the producer sleeps on a full ring wakes it with `Closed`.
#[test]
fn loom_spsc_consumer_close_wakes_producer() {
    loom::model(|| {
        let m = model(1);
        let m2 = m.clone();
        let t = loom::thread::spawn(move || {
            let mut p = ProducerIndex::new(1);
            p.commit(&m2.ix, 1); // the ring is now full
            p.wait_free(&m2.ix, 1, Some(Wait::Block), None, &NoPeers)
        });
        ConsumerIndex::new(m.units.len() as u64).close(&m.ix);
        assert_eq!(t.join().unwrap(), Ok(Found::Closed));
    });
}

/// The consumer waits with the default (adaptive) wait, so it slips (module docs, "Slip")
/// when it finds a unit at its first look or within its first polls: the slip's extra
/// reload must still return every unit, in order, with its bytes (A), and the close after
/// them; a consumer asleep after a failed slip-free wait is still woken.
#[test]
fn loom_spsc_slipping_consumer() {
    loom::model(|| {
        let m = model(2);
        let m2 = m.clone();
        let t = loom::thread::spawn(move || {
            let mut p = ProducerIndex::new(2);
            for v in [7u64, 8] {
                let f = p.wait_free(&m2.ix, 1, Some(Wait::Block), None, &NoPeers);
                assert!(matches!(f, Ok(Found::Ready(_))), "{f:?}");
                let i = (p.tail() % m2.units.len() as u64) as usize;
                // SAFETY (model): the protocol gives the producer this unit.
                m2.units[i].with_mut(|u| unsafe { *u = v });
                p.commit(&m2.ix, 1);
            }
            p.close(&m2.ix);
        });
        let mut c = ConsumerIndex::new(m.units.len() as u64);
        for want in [7u64, 8] {
            let f = c.wait_available(&m.ix, 1, Some(Wait::ADAPTIVE), None, &NoPeers);
            assert!(matches!(f, Ok(Found::Ready(_))), "{f:?}");
            let i = (c.head() % m.units.len() as u64) as usize;
            // SAFETY (model): committed, as the wait reported.
            let got = m.units[i].with(|u| unsafe { *u });
            assert_eq!(got, want);
            c.release(&m.ix, 1);
        }
        let end = c.wait_available(&m.ix, 1, Some(Wait::ADAPTIVE), None, &NoPeers);
        assert_eq!(end, Ok(Found::Closed));
        t.join().unwrap();
    });
}
