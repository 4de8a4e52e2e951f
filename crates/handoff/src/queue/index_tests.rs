//! Unit tests of the SPSC index protocol (expected values worked out by hand).

use super::*;
use crate::sync::NoPeers;

fn poll_free(p: &mut ProducerIndex, ix: &Indices, want: u64) -> Result<Found, WaitError> {
    p.wait_free(ix, want, None, None, &NoPeers)
}
fn poll_avail(c: &mut ConsumerIndex, ix: &Indices, want: u64) -> Result<Found, WaitError> {
    c.wait_available(ix, want, None, None, &NoPeers)
}

/// Capacities 1, 2 and 3, pushed and popped through several laps: the free and committed
/// counts follow `free = cap - (tail - head)` at every step.
#[test]
fn tiny_capacities_wrap_around() {
    for cap in 1..=3u64 {
        let ix = Indices::default();
        let mut p = ProducerIndex::new(cap);
        let mut c = ConsumerIndex::new(cap);
        for lap in 0..5 {
            assert_eq!(
                poll_avail(&mut c, &ix, 1),
                Err(WaitError::Timeout),
                "cap {cap} lap {lap}"
            );
            for k in 0..cap {
                assert_eq!(poll_free(&mut p, &ix, 1), Ok(Found::Ready(cap - k)));
                p.commit(&ix, 1);
            }
            assert_eq!(poll_free(&mut p, &ix, 1), Err(WaitError::Timeout), "full");
            for k in 0..cap {
                assert_eq!(poll_avail(&mut c, &ix, 1), Ok(Found::Ready(cap - k)));
                c.release(&ix, 1);
            }
        }
        assert_eq!((p.tail(), c.head()), (5 * cap, 5 * cap));
    }
}

/// Batches: a want larger than what is there waits; a partial release lets the producer
/// through once enough is free.
#[test]
fn batch_wants() {
    let ix = Indices::default();
    let mut p = ProducerIndex::new(8);
    let mut c = ConsumerIndex::new(8);
    assert_eq!(poll_free(&mut p, &ix, 8), Ok(Found::Ready(8)));
    p.commit(&ix, 6);
    assert_eq!(poll_free(&mut p, &ix, 3), Err(WaitError::Timeout), "2 free");
    assert_eq!(
        poll_avail(&mut c, &ix, 7),
        Err(WaitError::Timeout),
        "6 there"
    );
    assert_eq!(poll_avail(&mut c, &ix, 4), Ok(Found::Ready(6)));
    c.release(&ix, 1);
    assert_eq!(poll_free(&mut p, &ix, 3), Ok(Found::Ready(3)));
    assert_eq!(c.cached_len(), 5);
}

/// The producer closes with items left: the consumer gets them (a partial batch too), then
/// `Closed`, also from a blocking wait.
#[test]
fn consumer_drains_then_sees_close() {
    let ix = Indices::default();
    let mut p = ProducerIndex::new(4);
    let mut c = ConsumerIndex::new(4);
    p.commit(&ix, 2);
    p.close(&ix);
    assert_eq!(
        poll_avail(&mut c, &ix, 3),
        Ok(Found::Ready(2)),
        "partial after close"
    );
    c.release(&ix, 2);
    assert_eq!(poll_avail(&mut c, &ix, 1), Ok(Found::Closed));
    let r = c.wait_available(&ix, 1, Some(Wait::Block), None, &NoPeers);
    assert_eq!(r, Ok(Found::Closed));
}

/// The consumer closes: the producer sees it once it reloads the head (here: at once, for
/// a want the cached copy cannot satisfy), also from a blocking wait.
#[test]
fn producer_sees_consumer_close() {
    let ix = Indices::default();
    let mut p = ProducerIndex::new(2);
    let c = ConsumerIndex::new(2);
    c.close(&ix);
    assert_eq!(
        poll_free(&mut p, &ix, 1),
        Ok(Found::Ready(2)),
        "cached copy: room"
    );
    p.commit(&ix, 2);
    assert_eq!(poll_free(&mut p, &ix, 1), Ok(Found::Closed));
    let r = p.wait_free(&ix, 1, Some(Wait::Block), None, &NoPeers);
    assert_eq!(r, Ok(Found::Closed));
}

#[test]
fn layout_and_zero_init() {
    assert_eq!(std::mem::size_of::<Indices>(), 4 * 128);
    assert_eq!(std::mem::align_of::<Indices>(), 128);
    // SAFETY: all-zero is a valid (empty) ring (see the ShmSafe impl).
    let ix: Indices = unsafe { std::mem::zeroed() };
    let mut c = ConsumerIndex::new(4);
    assert_eq!(poll_avail(&mut c, &ix, 1), Err(WaitError::Timeout));
}

/// Positions no correct peer writes (a damaged or hostile segment) are clamped: the consumer
/// never reads past the capacity, the producer never overwrites what may still be read.
#[test]
fn corrupt_positions_are_clamped() {
    let ix = Indices::default();
    let mut c = ConsumerIndex::new(4);
    ix.tail.0.store(1 << 40, Ordering::Relaxed);
    assert_eq!(
        poll_avail(&mut c, &ix, 1),
        Ok(Found::Ready(4)),
        "at most the capacity"
    );
    let mut p = ProducerIndex::new(4);
    p.commit(&ix, 4);
    ix.head.0.store(99, Ordering::Relaxed); // beyond the tail
    assert_eq!(
        poll_free(&mut p, &ix, 1),
        Err(WaitError::Timeout),
        "no room, no wrap"
    );
}

/// The slip (module docs, "Slip"): a waiting consumer that finds a lone unit at once slips
/// while it believes the producer streams; a slip during which nothing was committed turns
/// that belief off (a late reply: the next lone unit is taken at once), and finding more
/// than one unit at once slips again. Every slip still returns what was committed; a poll
/// (`how = None`) and a blocking wait never slip.
#[test]
fn slipping_follows_the_producer() {
    let ix = Indices::default();
    let mut p = ProducerIndex::new(16);
    let mut c = ConsumerIndex::new(16);
    assert!(
        c.slips(1) && !c.slips(SLIP_UNITS),
        "a new consumer expects a stream"
    );
    p.commit(&ix, 1);
    assert_eq!(poll_avail(&mut c, &ix, 1), Ok(Found::Ready(1)));
    assert!(c.streaming, "a poll does not slip");
    let d = None;
    assert_eq!(
        c.wait_available(&ix, 1, Some(Wait::Block), d, &NoPeers),
        Ok(Found::Ready(1))
    );
    assert!(c.streaming, "a blocking wait does not slip");
    c.release(&ix, 1);
    p.commit(&ix, 1);
    assert_eq!(
        c.wait_available(&ix, 1, Some(Wait::Spin), d, &NoPeers),
        Ok(Found::Ready(1))
    );
    assert!(!c.streaming, "nothing came during the slip");
    assert!(!c.slips(1) && c.slips(2));
    c.release(&ix, 1);
    p.commit(&ix, 2);
    assert_eq!(
        c.wait_available(&ix, 1, Some(Wait::Spin), d, &NoPeers),
        Ok(Found::Ready(2))
    );
    assert!(
        !c.streaming,
        "two at once slipped, and nothing came during it"
    );
    c.release(&ix, 2);
    assert_eq!((p.tail(), c.head()), (4, 4));
}
