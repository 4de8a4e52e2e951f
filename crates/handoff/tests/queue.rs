//! The queues between threads: values, order, wrap-around at tiny capacities, chunks,
//! frames, aggregation, lane fairness, closing, and bad input. Expected values are worked out
//! by hand or by closed forms (sums of 0..n), never taken from the queues.
#![cfg(all(target_os = "linux", not(loom)))]

use handoff::queue::{
    Aggregator, ArrayMpsc, FrameQueue, LaneMpsc, Messages, QueueError, Side, Spsc,
};
use handoff::sync::Patience;
use handoff_testkit::within;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(20);

/// Capacities 1, 2 and 3: 10 laps of fill-then-drain keep FIFO order through the wrap, and
/// `try_push` reports full exactly at the capacity.
#[test]
fn spsc_tiny_capacities_wrap_around() {
    for cap in 1..=3usize {
        let (mut tx, mut rx) = Spsc::<u32>::new(cap).unwrap();
        let mut next = 0u32;
        let mut want = 0u32;
        for _lap in 0..10 {
            for _ in 0..cap {
                tx.try_push(next).unwrap();
                next += 1;
            }
            assert!(
                matches!(tx.try_push(999), Err(QueueError::Timeout { item: 999, .. })),
                "cap {cap}: full"
            );
            assert_eq!(rx.len(), cap);
            for _ in 0..cap {
                assert_eq!(rx.try_pop().unwrap(), want);
                want += 1;
            }
            assert!(matches!(rx.try_pop(), Err(QueueError::Timeout { .. })));
        }
        assert_eq!(
            (tx.pushed(), rx.popped()),
            (10 * cap as u64, 10 * cap as u64)
        );
    }
}

/// Chunks across the wrap: capacity 3, a chunk of 2 starting at slot 2 is split into runs
/// of 1 and 1.
#[test]
fn spsc_chunks_wrap() {
    let (mut tx, mut rx) = Spsc::<u16>::new(3).unwrap();
    tx.push_slice(&[1, 2]).unwrap();
    let mut out = [0u16; 4];
    assert_eq!(rx.pop_into(&mut out).unwrap(), 2);
    assert_eq!(&out[..2], &[1, 2]);
    // Head and tail now at slot 2.
    let mut c = tx.write_chunk(2).unwrap();
    let (a, b) = c.as_mut_slices();
    assert_eq!((a.len(), b.len()), (1, 1));
    a[0] = 30;
    b[0] = 40;
    c.commit_all();
    let r = rx.read_chunk(8).unwrap();
    assert_eq!(r.as_slices(), (&[30u16][..], &[40u16][..]));
    r.release(1); // keep 40 queued
    assert_eq!(rx.try_pop().unwrap(), 40);
    // A chunk larger than the queue is refused, not waited for forever.
    assert!(matches!(
        tx.write_chunk(4),
        Err(QueueError::InvalidConfig(_))
    ));
    // An uncommitted chunk publishes nothing.
    let _ = tx.write_chunk(1).unwrap();
    assert!(matches!(rx.try_pop(), Err(QueueError::Timeout { .. })));
}

/// A million values between two threads with each strategy: sum (closed form n(n-1)/2) and
/// strict order.
#[test]
fn spsc_threads_in_order_each_strategy() {
    const N: u64 = 200_000;
    for how in handoff_testkit::WAITS {
        let (mut tx, mut rx) = Spsc::<u64>::new(64).unwrap();
        tx.set_patience(Patience::new(how));
        rx.set_patience(Patience::new(how));
        let t = std::thread::spawn(move || {
            let mut buf = [0u64; 7];
            let mut i = 0;
            while i < N {
                if i % 3 == 0 {
                    tx.push_timeout(i, LIMIT).unwrap();
                    i += 1;
                } else {
                    let k = (N - i).min(7) as usize;
                    for (j, b) in buf[..k].iter_mut().enumerate() {
                        *b = i + j as u64;
                    }
                    tx.push_slice_timeout(&buf[..k], LIMIT).unwrap();
                    i += k as u64;
                }
            }
        });
        let mut expect = 0u64;
        let mut sum = 0u64;
        loop {
            match rx.pop_timeout(LIMIT) {
                Ok(v) => {
                    assert_eq!(v, expect, "{how}");
                    expect += 1;
                    sum += v;
                }
                Err(QueueError::Closed {
                    by: Side::Producer, ..
                }) => break,
                Err(e) => panic!("{how}: {e}"),
            }
        }
        t.join().unwrap();
        assert_eq!(sum, N * (N - 1) / 2, "{how}");
    }
}

/// A consumer blocked on an empty queue is woken by the push (watchdog, not a timing).
#[test]
fn spsc_blocked_consumer_is_woken() {
    let (mut tx, mut rx) = Spsc::<u8>::new(1).unwrap();
    let t = std::thread::spawn(move || rx.pop());
    std::thread::sleep(Duration::from_millis(20));
    tx.push(7).unwrap();
    let got = within("blocked pop", Duration::from_secs(10), move || {
        t.join().unwrap()
    });
    assert_eq!(got.unwrap(), 7);
}

/// Closing: the consumer drains then sees `Closed`; a producer whose consumer left sees
/// `Closed` once the queue looks full; deadlines give `Timeout`.
#[test]
fn spsc_close_and_timeout() {
    let (mut tx, mut rx) = Spsc::<u32>::new(2).unwrap();
    assert!(matches!(
        rx.pop_timeout(Duration::from_millis(5)),
        Err(QueueError::Timeout { .. })
    ));
    tx.push(5).unwrap();
    drop(tx);
    assert_eq!(rx.pop().unwrap(), 5);
    assert!(matches!(
        rx.pop(),
        Err(QueueError::Closed {
            by: Side::Producer,
            ..
        })
    ));

    let (mut tx, rx) = Spsc::<u32>::new(2).unwrap();
    drop(rx);
    assert!(tx.is_closed());
    let mut closed = false;
    for i in 0..3 {
        match tx.push(i) {
            Ok(()) => {}
            Err(QueueError::Closed {
                by: Side::Consumer, ..
            }) => closed = true,
            Err(e) => panic!("{e}"),
        }
    }
    assert!(closed, "at the latest when the queue looks full");
}

/// Bad input gets an error, never a panic.
#[test]
fn bad_configurations_are_refused() {
    assert!(matches!(
        Spsc::<u64>::new(0),
        Err(QueueError::InvalidConfig(_))
    ));
    assert!(matches!(
        Spsc::<()>::new(4),
        Err(QueueError::InvalidConfig(_))
    ));
    assert!(matches!(
        Spsc::<u64>::new(usize::MAX / 4),
        Err(QueueError::InvalidConfig(_))
    ));
    assert!(matches!(
        FrameQueue::new(0),
        Err(QueueError::InvalidConfig(_))
    ));
    assert!(matches!(
        LaneMpsc::<u64>::on_heap(0, 4),
        Err(QueueError::InvalidConfig(_))
    ));
    assert!(matches!(
        LaneMpsc::<u64>::on_heap(2, 0),
        Err(QueueError::InvalidConfig(_))
    ));
    assert!(matches!(
        ArrayMpsc::<u64>::on_heap(0),
        Err(QueueError::InvalidConfig(_))
    ));
    let e = Spsc::<u64>::new(0).unwrap_err();
    assert!(e.to_string().contains("capacity of at least 1"), "{e}");
    // Each side once.
    let q = Spsc::<u64>::on_heap(4).unwrap();
    let _p = q.producer().unwrap();
    assert!(matches!(
        q.producer(),
        Err(QueueError::RoleTaken {
            role: Side::Producer,
            ..
        })
    ));
}

/// Frames of many sizes through a small ring (64 bytes: forces PAD records at the wrap);
/// the largest frame (56 bytes) fits, one byte more is `TooBig`.
#[test]
fn frames_of_every_size_through_a_small_ring() {
    let (mut tx, mut rx) = FrameQueue::new(64).unwrap();
    assert_eq!(tx.max_frame(), 56);
    assert!(matches!(
        tx.loan(57),
        Err(QueueError::TooBig {
            what: "frame",
            len: 57,
            max: 56
        })
    ));
    let t = std::thread::spawn(move || {
        for i in 0..2_000usize {
            let len = i % 57;
            let mut f = tx.loan_timeout(len, LIMIT).unwrap();
            for (j, b) in f.iter_mut().enumerate() {
                *b = (i + j) as u8;
            }
            f.commit();
        }
        tx.send_timeout(b"last", LIMIT).unwrap();
    });
    for i in 0..2_000usize {
        let f = rx.recv_timeout(LIMIT).unwrap();
        assert_eq!(f.seq(), i as u64);
        assert_eq!(f.len(), i % 57, "frame {i}");
        assert!(
            f.iter().enumerate().all(|(j, &b)| b == (i + j) as u8),
            "frame {i}"
        );
    }
    assert_eq!(&*rx.recv_timeout(LIMIT).unwrap(), b"last");
    t.join().unwrap();
    assert!(matches!(rx.recv(), Err(QueueError::Closed { .. })));
}

/// `commit_len` sends a shorter frame; a dropped loan sends nothing.
#[test]
fn frame_commit_len_and_abandoned_loan() {
    let (mut tx, mut rx) = FrameQueue::new(256).unwrap();
    let mut f = tx.loan(100).unwrap();
    f[..3].copy_from_slice(b"abc");
    f.commit_len(3);
    let _ = tx.loan(10).unwrap();
    tx.send(b"z").unwrap();
    assert_eq!(&*rx.try_recv().unwrap(), b"abc");
    assert_eq!(&*rx.try_recv().unwrap(), b"z");
    assert!(matches!(rx.try_recv(), Err(QueueError::Timeout { .. })));
}

/// Aggregation: frames fill up (3 messages of 4+8 bytes in a 40-byte frame: 36 used, the
/// 4th starts a new frame), `flush` sends a partial one, and the receiver unpacks in place.
#[test]
fn aggregator_packs_flushes_and_unpacks() {
    let (tx, mut rx) = FrameQueue::new(1024).unwrap();
    let mut agg = Aggregator::new(tx, 40, None).unwrap();
    assert_eq!(agg.max_message(), 36);
    for i in 0..4u64 {
        agg.push(&i.to_le_bytes()).unwrap();
    }
    assert_eq!(agg.pending(), 1);
    let f = rx.try_recv().expect("first frame sent when full");
    let got: Vec<u64> = f
        .messages()
        .map(|m| u64::from_le_bytes(m.try_into().unwrap()))
        .collect();
    assert_eq!(got, vec![0, 1, 2]);
    drop(f);
    assert!(
        matches!(rx.try_recv(), Err(QueueError::Timeout { .. })),
        "the 4th waits"
    );
    assert_eq!(agg.flush(), 1);
    let f = rx.try_recv().unwrap();
    assert_eq!(f.len(), 12);
    assert_eq!(f.messages().next().unwrap(), &3u64.to_le_bytes());
    drop(f);
    // Odd sizes are padded to 4; empty messages are messages too.
    agg.push(b"hello").unwrap();
    agg.push(b"").unwrap();
    agg.push(b"world!!").unwrap();
    let tx = agg.into_inner();
    let f = rx.try_recv().unwrap();
    let msgs: Vec<&[u8]> = f.messages().collect();
    assert_eq!(msgs, vec![&b"hello"[..], b"", b"world!!"]);
    drop(f);
    drop(tx);
    // Too big, and malformed input stops the iterator without a panic.
    let (tx, _rx) = FrameQueue::new(1024).unwrap();
    let mut agg = Aggregator::new(tx, 40, None).unwrap();
    assert!(matches!(
        agg.push(&[0; 37]),
        Err(QueueError::TooBig {
            what: "message",
            ..
        })
    ));
    let mut m = Messages::new(&[200, 0, 0, 0, 1, 2]);
    assert_eq!(m.next(), None);
    assert!(m.is_malformed());
}

/// The deadline flush: a frame older than `max_delay` is sent by the next push or by
/// `poll`.
#[test]
fn aggregator_deadline_flush() {
    let (tx, mut rx) = FrameQueue::new(1024).unwrap();
    let mut agg = Aggregator::new(tx, 512, Some(Duration::from_millis(50))).unwrap();
    agg.push(b"a").unwrap();
    assert!(!agg.poll(), "younger than 50 ms");
    assert!(matches!(rx.try_recv(), Err(QueueError::Timeout { .. })));
    std::thread::sleep(Duration::from_millis(80));
    assert!(agg.poll(), "older than 50 ms: poll sends it");
    assert_eq!(agg.pending(), 0);
    agg.push(b"b").unwrap();
    std::thread::sleep(Duration::from_millis(80));
    agg.push(b"c").unwrap(); // the age check on push sends "b", "c"
    assert_eq!(agg.pending(), 0);
    let mut all = Vec::new();
    while let Ok(f) = rx.try_recv() {
        all.extend(f.messages().map(<[u8]>::to_vec));
    }
    assert_eq!(all, vec![b"a".to_vec(), b"b".to_vec(), b"c".to_vec()]);
}

/// Lane fairness: three producers fill their lanes (capacity 4) before the consumer runs;
/// single pops then take the lanes strictly in turn: 0, 1, 2, 0, 1, 2, ...
#[test]
fn lanes_are_drained_round_robin() {
    let q = LaneMpsc::<u32>::on_heap(3, 4).unwrap();
    let mut ps: Vec<_> = (0..3).map(|_| q.producer().unwrap()).collect();
    assert!(matches!(
        q.producer(),
        Err(QueueError::NoFreeLane { max: 3, .. })
    ));
    for (k, p) in ps.iter_mut().enumerate() {
        assert_eq!(p.lane(), k);
        for i in 0..4 {
            p.push(100 * k as u32 + i).unwrap();
        }
    }
    let mut c = q.consumer().unwrap();
    assert_eq!(c.producers(), 3);
    let got: Vec<u32> = (0..12).map(|_| c.try_pop().unwrap()).collect();
    assert_eq!(
        got,
        vec![0, 100, 200, 1, 101, 201, 2, 102, 202, 3, 103, 203]
    );
    // Batches: one lane per call, in turn.
    for p in &mut ps {
        p.push_slice(&[1, 2]).unwrap();
    }
    let mut buf = [0u32; 8];
    for _ in 0..3 {
        assert_eq!(c.pop_into(&mut buf).unwrap(), 2);
    }
    // Leave and rejoin: the consumer drains and recycles the lane first.
    drop(ps.remove(1));
    assert!(matches!(c.try_pop(), Err(QueueError::Timeout { .. })));
    let mut p = q.producer().unwrap();
    assert_eq!(p.lane(), 1, "the freed lane is reused");
    p.push(55).unwrap();
    assert_eq!(c.pop_timeout(LIMIT).unwrap(), 55);
    drop((p, ps));
    assert!(matches!(
        c.pop_timeout(LIMIT),
        Err(QueueError::Closed {
            by: Side::Producer,
            ..
        })
    ));
}

/// Several producer threads on each MPSC: per-producer order and the total sum (closed form).
#[test]
fn mpsc_threads_per_producer_order() {
    const P: u64 = 3;
    const N: u64 = 50_000;
    fn check(got: &mut [u64; P as usize], v: u64) {
        let (p, seq) = ((v >> 32) as usize, v & 0xffff_ffff);
        assert_eq!(seq, got[p], "producer {p}: out of order");
        got[p] += 1;
    }
    // Lanes.
    let q = LaneMpsc::<u64>::on_heap(P as usize, 16).unwrap();
    let mut c = q.consumer().unwrap();
    let ts: Vec<_> = (0..P)
        .map(|p| {
            let mut tx = q.producer().unwrap();
            std::thread::spawn(move || {
                for i in 0..N {
                    tx.push_timeout(p << 32 | i, LIMIT).unwrap();
                }
            })
        })
        .collect();
    let mut got = [0u64; P as usize];
    for _ in 0..P * N {
        check(&mut got, c.pop_timeout(LIMIT).unwrap());
    }
    ts.into_iter().for_each(|t| t.join().unwrap());
    assert_eq!(got, [N; P as usize]);
    // Array.
    let q = ArrayMpsc::<u64>::on_heap(16).unwrap();
    let mut c = q.consumer().unwrap();
    let ts: Vec<_> = (0..P)
        .map(|p| {
            let mut tx = q.producer().unwrap();
            std::thread::spawn(move || {
                for i in 0..N {
                    tx.push_timeout(p << 32 | i, LIMIT).unwrap();
                }
            })
        })
        .collect();
    let mut got = [0u64; P as usize];
    let mut buf = [0u64; 5];
    loop {
        match c.pop_into_timeout(&mut buf, LIMIT) {
            Ok(n) => buf[..n].iter().for_each(|&v| check(&mut got, v)),
            Err(QueueError::Closed { .. }) => break,
            Err(e) => panic!("{e}"),
        }
    }
    ts.into_iter().for_each(|t| t.join().unwrap());
    assert_eq!(got, [N; P as usize]);
}

/// Array MPSC: tiny capacities wrap; full is reported; a closed consumer is seen when full.
#[test]
fn array_tiny_capacities_and_close() {
    for cap in 1..=3usize {
        let q = ArrayMpsc::<u32>::on_heap(cap).unwrap();
        let mut tx = q.producer().unwrap();
        let mut rx = q.consumer().unwrap();
        let mut want = 0;
        for lap in 0..10u32 {
            for k in 0..cap as u32 {
                tx.try_push(lap * 10 + k).unwrap();
            }
            assert!(
                matches!(tx.try_push(0), Err(QueueError::Timeout { item: 0, .. })),
                "full at {cap}"
            );
            for k in 0..cap as u32 {
                assert_eq!(rx.try_pop().unwrap(), lap * 10 + k);
                want += 1;
            }
            assert!(matches!(rx.try_pop(), Err(QueueError::Timeout { .. })));
        }
        assert_eq!(rx.popped(), want);
        drop(rx);
        for _ in 0..cap {
            let _ = tx.try_push(1);
        }
        assert!(matches!(
            tx.try_push(1),
            Err(QueueError::Closed {
                by: Side::Consumer,
                ..
            })
        ));
    }
}
