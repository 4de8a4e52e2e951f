//! The multi-consumer array queue ([`ArrayMpmc`]) and producers that join late
//! (`expect_producers`, for [`ArrayMpmc`] and [`LaneMpsc`]): between threads, and 2 producer
//! × 2 consumer processes with per-producer sequence numbers and checksums (none lost,
//! duplicated or torn; each consumer sees each producer's messages in order).
//!
//! Cross-process children are this test binary re-executed (`handoff_testkit::Kid`), guarded
//! and watched; every wait has a deadline. No test asserts on timing.
#![cfg(all(target_os = "linux", not(loom)))]

use handoff::queue::{ArrayMpmc, ArrayMpsc, LaneMpsc, QueueError, Side};
use handoff::sys::Deadline;
use handoff_testkit::Kid;
use std::time::Duration;

const ROLE_ENV: &str = "HANDOFF_MPMC_TEST_ROLE";
const NAME_ENV: &str = "HANDOFF_MPMC_TEST_NAME";
const ID_ENV: &str = "HANDOFF_MPMC_TEST_ID";
const WATCHDOG: Duration = Duration::from_secs(120);
const WAIT_LIMIT: Duration = Duration::from_secs(30);

/// Message `seq` of producer `p`: the producer in the top 8 bits, the sequence number in the
/// next 32, a checksum of both in the low 24 (a torn or foreign value shows).
fn message(p: u64, seq: u64) -> u64 {
    p << 56 | seq << 24 | check_bits(p, seq)
}

fn check_bits(p: u64, seq: u64) -> u64 {
    (p.wrapping_mul(0x9e37_79b9) ^ seq.wrapping_mul(0x85eb_ca6b)) >> 3 & 0xff_ffff
}

/// What one consumer saw: per producer the count, the last sequence number + 1 (each
/// consumer must see a producer's messages in increasing order) and a wrapping sum.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Seen {
    count: Vec<u64>,
    next: Vec<u64>,
    sum: u64,
}

impl Seen {
    fn new(producers: usize) -> Seen {
        Seen {
            count: vec![0; producers],
            next: vec![0; producers],
            sum: 0,
        }
    }

    fn see(&mut self, v: u64) -> Result<(), String> {
        let p = (v >> 56) as usize;
        let seq = v >> 24 & 0xffff_ffff;
        if p >= self.count.len() || v & 0xff_ffff != check_bits(p as u64, seq) {
            return Err(format!("torn or foreign value {v:#x}"));
        }
        if seq < self.next[p] {
            return Err(format!(
                "producer {p}: message {seq} after {} (duplicated or reordered)",
                self.next[p] - 1
            ));
        }
        self.next[p] = seq + 1;
        self.count[p] += 1;
        self.sum = self.sum.wrapping_add(v);
        Ok(())
    }

    /// Sums what several consumers saw.
    fn merge(all: &[Seen]) -> (Vec<u64>, u64) {
        let mut count = vec![0; all[0].count.len()];
        let mut sum = 0u64;
        for s in all {
            count.iter_mut().zip(&s.count).for_each(|(c, x)| *c += x);
            sum = sum.wrapping_add(s.sum);
        }
        (count, sum)
    }
}

/// The sum of every message of producers `0..p` with `n` each (independent of the queue).
fn expected_sum(p: u64, n: u64) -> u64 {
    (0..p)
        .flat_map(|p| (0..n).map(move |s| message(p, s)))
        .fold(0u64, u64::wrapping_add)
}

#[test]
fn seen_catches_duplication_tearing_and_loss() {
    let mut s = Seen::new(2);
    s.see(message(0, 0)).unwrap();
    s.see(message(0, 3)).unwrap(); // a gap is another consumer's share
    assert!(s.see(message(0, 3)).unwrap_err().contains("duplicated"));
    assert!(s.see(message(1, 1) ^ 1 << 30).unwrap_err().contains("torn"));
    assert!(s.see(message(7, 0)).unwrap_err().contains("foreign"));
    // Loss shows in the merged count and sum: producer 0 sent 0..4, only 0 and 3 arrived.
    let (count, sum) = Seen::merge(&[s]);
    assert_eq!(count, vec![2, 0]);
    assert_ne!(sum, expected_sum(1, 4));
}

/// Pops until `Closed`; what this consumer saw.
fn drain(rx: &mut handoff::queue::ArrayConsumer<u64>, producers: usize) -> Seen {
    let mut seen = Seen::new(producers);
    let mut buf = [0u64; 7];
    loop {
        match rx.pop_into_timeout(&mut buf, WAIT_LIMIT) {
            Ok(n) => buf[..n].iter().try_for_each(|&v| seen.see(v)).unwrap(),
            Err(QueueError::Closed {
                by: Side::Producer, ..
            }) => return seen,
            Err(e) => panic!("after {:?}: {e}", seen.count),
        }
    }
}

/// 3 producer threads and 3 consumer threads on 5 slots (many wrap-arounds, full and empty
/// often): every message is taken once, whole, and every consumer ends with `Closed`.
#[test]
fn mpmc_threads_deliver_each_message_once() {
    const P: usize = 3;
    const N: u64 = 20_000;
    let q = ArrayMpmc::<u64>::on_heap(5).unwrap();
    let first = q.consumer().unwrap();
    let consumers: Vec<_> = (0..P)
        .map(|i| {
            let mut rx = if i == 0 {
                first.clone()
            } else {
                q.consumer().unwrap()
            };
            std::thread::spawn(move || {
                let s = drain(&mut rx, P);
                assert_eq!(rx.popped(), s.count.iter().sum::<u64>());
                s
            })
        })
        .collect();
    drop(first); // the clones keep the queue open for the producers
    let producers: Vec<_> = (0..P as u64)
        .map(|p| {
            let mut tx = q.producer().unwrap();
            std::thread::spawn(move || {
                for seq in 0..N {
                    tx.push_timeout(message(p, seq), WAIT_LIMIT).unwrap();
                }
            })
        })
        .collect();
    producers.into_iter().for_each(|t| t.join().unwrap());
    let seen: Vec<Seen> = consumers.into_iter().map(|t| t.join().unwrap()).collect();
    let (count, sum) = Seen::merge(&seen);
    assert_eq!(count, vec![N; P]);
    assert_eq!(sum, expected_sum(P as u64, N));
}

/// Producers see `Closed` only once the last consumer left, also when consumers leave one
/// by one; a consumer joining afterwards still drains what is queued.
#[test]
fn mpmc_closes_to_producers_when_the_last_consumer_leaves() {
    let q = ArrayMpsc::<u32>::on_heap(2).unwrap(); // the old name is the same queue
    let mut tx = q.producer().unwrap();
    let (a, b) = (q.consumer().unwrap(), q.consumer().unwrap());
    tx.try_push(1).unwrap();
    tx.try_push(2).unwrap();
    drop(a);
    assert!(
        matches!(tx.try_push(3), Err(QueueError::Timeout { item: 3, .. })),
        "full, but one consumer is left"
    );
    drop(b);
    assert!(matches!(
        tx.try_push(3),
        Err(QueueError::Closed {
            by: Side::Consumer,
            ..
        })
    ));
    assert!(matches!(
        q.producer(),
        Err(QueueError::Closed {
            by: Side::Consumer,
            ..
        })
    ));
    let mut late = q.consumer().unwrap();
    assert_eq!(late.try_pop().unwrap(), 1);
    assert_eq!(late.try_pop().unwrap(), 2);
    assert!(matches!(late.try_pop(), Err(QueueError::Timeout { .. })));
}

/// Told to expect 2 producers, an array queue is not closed when the first leaves before
/// the second joined (it was, with the old "closed once all who joined left"); with the
/// default (1) it is, as documented.
#[test]
fn array_late_producer_keeps_the_queue_open_when_expected() {
    let q = ArrayMpmc::<u64>::on_heap(4).unwrap();
    q.expect_producers(2);
    let mut rx = q.consumer().unwrap();
    let mut p1 = q.producer().unwrap();
    p1.push_timeout(10, WAIT_LIMIT).unwrap();
    drop(p1);
    assert_eq!(rx.try_pop().unwrap(), 10);
    assert!(
        matches!(rx.try_pop(), Err(QueueError::Timeout { .. })),
        "the second producer is expected"
    );
    assert!(matches!(
        rx.pop_timeout(Duration::from_millis(20)),
        Err(QueueError::Timeout { .. })
    ));
    let t = {
        let q = q.clone();
        std::thread::spawn(move || q.producer().unwrap().push_timeout(20, WAIT_LIMIT))
    };
    assert_eq!(rx.pop_timeout(WAIT_LIMIT).unwrap(), 20);
    t.join().unwrap().unwrap();
    assert!(matches!(
        rx.pop_timeout(WAIT_LIMIT),
        Err(QueueError::Closed {
            by: Side::Producer,
            ..
        })
    ));
    // The default: closed as soon as the one producer that joined left.
    let q = ArrayMpmc::<u64>::on_heap(4).unwrap();
    let mut rx = q.consumer().unwrap();
    drop(q.producer().unwrap());
    assert!(matches!(rx.try_pop(), Err(QueueError::Closed { .. })));
}

/// The same for the lane queue.
#[test]
fn lanes_late_producer_keeps_the_queue_open_when_expected() {
    let q = LaneMpsc::<u64>::on_heap(2, 4).unwrap();
    q.expect_producers(2);
    q.expect_producers(1); // never lowers
    let mut rx = q.consumer().unwrap();
    let mut p1 = q.producer().unwrap();
    p1.push_timeout(10, WAIT_LIMIT).unwrap();
    drop(p1);
    assert_eq!(rx.try_pop().unwrap(), 10);
    assert!(
        matches!(rx.try_pop(), Err(QueueError::Timeout { .. })),
        "the second producer is expected"
    );
    let t = {
        let q = q.clone();
        std::thread::spawn(move || q.producer().unwrap().push_timeout(20, WAIT_LIMIT))
    };
    assert_eq!(rx.pop_timeout(WAIT_LIMIT).unwrap(), 20);
    t.join().unwrap().unwrap();
    assert!(matches!(
        rx.pop_timeout(WAIT_LIMIT),
        Err(QueueError::Closed {
            by: Side::Producer,
            ..
        })
    ));
    let q = LaneMpsc::<u64>::on_heap(2, 4).unwrap();
    let mut rx = q.consumer().unwrap();
    drop(q.producer().unwrap());
    assert!(matches!(rx.try_pop(), Err(QueueError::Closed { .. })));
}

const PROC_N: u64 = 1_000_000;

fn spawn(test: &str, role: &str, name: &str, id: u64) -> Kid {
    Kid::spawn(
        test,
        ROLE_ENV,
        role,
        &[(NAME_ENV, name.to_string()), (ID_ENV, id.to_string())],
        WATCHDOG,
    )
}

fn env(key: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| panic!("child needs {key}"))
}

/// 2 producer processes × 10^6 messages into one 1024-slot array queue, 2 consumer
/// processes taking them: merged, every message exactly once (counts and checksum), each
/// consumer seeing each producer's messages in order, none torn.
#[test]
fn mpmc_two_producer_and_two_consumer_processes() {
    const TEST: &str = "mpmc_two_producer_and_two_consumer_processes";
    const CAP: usize = 1024;
    match std::env::var(ROLE_ENV).as_deref() {
        Ok("producer") => {
            let q =
                ArrayMpmc::<u64>::open(&env(NAME_ENV), CAP, Deadline::after(WAIT_LIMIT)).unwrap();
            let id: u64 = env(ID_ENV).parse().unwrap();
            let mut tx = q.producer().unwrap();
            for seq in 0..PROC_N {
                tx.push_timeout(message(id, seq), WAIT_LIMIT).unwrap();
            }
            // Leaves at once: a clean departure must not end the consumers' waits for the
            // other producer.
            return;
        }
        Ok("consumer") => {
            let q =
                ArrayMpmc::<u64>::open(&env(NAME_ENV), CAP, Deadline::after(WAIT_LIMIT)).unwrap();
            let mut rx = q.consumer().unwrap();
            println!("joined");
            let s = drain(&mut rx, 2);
            println!("seen {} {} {}", s.count[0], s.count[1], s.sum);
            return;
        }
        _ => {}
    }
    let q = ArrayMpmc::<u64>::create("q-mpmc", CAP).unwrap();
    q.expect_producers(2);
    let name = q.name().unwrap().to_string();
    let mut consumers = [0, 1].map(|id| spawn(TEST, "consumer", &name, id));
    // Both consumers attached before any producer runs: none finds the queue closed to it.
    consumers.iter_mut().for_each(|k| {
        k.expect_line("joined");
    });
    let mut producers = [0, 1].map(|id| spawn(TEST, "producer", &name, id));
    let seen: Vec<Seen> = consumers
        .iter_mut()
        .map(|k| {
            let line = k.expect_line("seen ");
            let f: Vec<u64> = line.split(' ').map(|x| x.parse().unwrap()).collect();
            Seen {
                count: f[..2].to_vec(),
                next: vec![0; 2],
                sum: f[2],
            }
        })
        .collect();
    producers.iter_mut().for_each(Kid::wait_success);
    consumers.iter_mut().for_each(Kid::wait_success);
    let (count, sum) = Seen::merge(&seen);
    assert_eq!(count, vec![PROC_N, PROC_N]);
    assert_eq!(sum, expected_sum(2, PROC_N));
    println!(
        "ArrayMpmc: 2 x {PROC_N} messages, 2 producer and 2 consumer processes; consumers took {:?}",
        seen.iter()
            .map(|s| s.count.iter().sum::<u64>())
            .collect::<Vec<_>>()
    );
}
