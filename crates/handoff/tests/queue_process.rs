//! Queues between real processes: 10^7 messages through the SPSC ring and 2 × 2·10^6
//! through each MPSC, with per-producer sequence numbers and checksums (none lost,
//! duplicated, torn or reordered per producer), and dead peers: a consumer killed while the
//! producer waits, a producer killed in the middle of a frame.
//!
//! The children are this test binary re-executed (`handoff_testkit::Kid`), guarded and
//! watched; every wait has a deadline. No test asserts on timing.
#![cfg(all(target_os = "linux", not(loom)))]

use handoff::queue::{ArrayMpsc, FrameQueue, LaneMpsc, QueueError, Spsc};
use handoff::sync::{Patience, Wait};
use handoff::sys::Deadline;
use handoff_testkit::Kid;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const ROLE_ENV: &str = "HANDOFF_QUEUE_TEST_ROLE";
const NAME_ENV: &str = "HANDOFF_QUEUE_TEST_NAME";
const ID_ENV: &str = "HANDOFF_QUEUE_TEST_ID";
const WATCHDOG: Duration = Duration::from_secs(120);
const WAIT_LIMIT: Duration = Duration::from_secs(30);
/// The three-forms test: every wait in it is short or answered at once.
const FORMS_WATCHDOG: Duration = Duration::from_secs(60);
/// SPSC stress: 10^7 8-byte messages.
const SPSC_N: u64 = 10_000_000;
/// MPSC stress: per producer.
const MPSC_N: u64 = 2_000_000;
const CAP: usize = 4096;
const BATCH: usize = 256;
const LANES: usize = 2;

/// One cross-process test at a time (two spinning pairs on 2 CPUs only measure each other).
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

fn role() -> Option<String> {
    std::env::var(ROLE_ENV).ok()
}

fn env(key: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| panic!("child needs {key}"))
}

/// Message `seq` of producer `p`: the producer in the top 8 bits, the sequence number in the
/// next 32, and a checksum of both in the low 24, so a torn or foreign value shows.
fn message(p: u64, seq: u64) -> u64 {
    p << 56 | seq << 24 | check_bits(p, seq)
}

fn check_bits(p: u64, seq: u64) -> u64 {
    (p.wrapping_mul(0x9e37_79b9) ^ seq.wrapping_mul(0x85eb_ca6b)) >> 3 & 0xff_ffff
}

/// Per-producer order checker: the next value of producer `p` must be `message(p, next[p])`.
struct Checker {
    next: Vec<u64>,
    sum: u64,
}

impl Checker {
    fn new(producers: usize) -> Self {
        Checker {
            next: vec![0; producers],
            sum: 0,
        }
    }

    fn see(&mut self, v: u64) -> Result<(), String> {
        let p = (v >> 56) as usize;
        let seq = v >> 24 & 0xffff_ffff;
        if p >= self.next.len() || v & 0xff_ffff != check_bits(p as u64, seq) {
            return Err(format!("torn or foreign value {v:#x}"));
        }
        if seq != self.next[p] {
            return Err(format!(
                "producer {p}: expected message {}, got {seq} (lost, duplicated or reordered)",
                self.next[p]
            ));
        }
        self.next[p] += 1;
        self.sum = self.sum.wrapping_add(v);
        Ok(())
    }
}

/// The sum of every message of producers `0..p` with `n` each (independent of the queue).
fn expected_sum(p: u64, n: u64) -> u64 {
    (0..p)
        .flat_map(|p| (0..n).map(move |s| message(p, s)))
        .fold(0u64, u64::wrapping_add)
}

#[test]
fn checker_catches_loss_duplication_and_tearing() {
    let mut c = Checker::new(2);
    c.see(message(0, 0)).unwrap();
    c.see(message(1, 0)).unwrap();
    assert!(c.see(message(0, 2)).unwrap_err().contains("lost"));
    assert!(c.see(message(1, 0)).unwrap_err().contains("duplicated"));
    assert!(c.see(message(0, 1) ^ 1 << 30).unwrap_err().contains("torn"));
    assert!(c.see(message(5, 0)).unwrap_err().contains("foreign"));
}

/// Child: pushes `n` messages as producer `id` in batches of `BATCH`.
fn produce_batches(n: u64, id: u64, mut push: impl FnMut(&[u64])) {
    let mut buf = [0u64; BATCH];
    let mut seq = 0;
    while seq < n {
        let k = (n - seq).min(BATCH as u64) as usize;
        for (j, b) in buf[..k].iter_mut().enumerate() {
            *b = message(id, seq + j as u64);
        }
        push(&buf[..k]);
        seq += k as u64;
    }
}

fn spawn(test: &str, role: &str, name: &str, id: u64) -> Kid {
    Kid::spawn(
        test,
        ROLE_ENV,
        role,
        &[(NAME_ENV, name.to_string()), (ID_ENV, id.to_string())],
        WATCHDOG,
    )
}

/// 10^7 messages from a child process through a 4096-slot ring, in batches: every one
/// arrives once, in order, whole; then the producer's close.
#[test]
fn spsc_ten_million_between_processes() {
    const TEST: &str = "spsc_ten_million_between_processes";
    if role().as_deref() == Some("producer") {
        let d = Deadline::after(WAIT_LIMIT);
        let q = Spsc::<u64>::open(&env(NAME_ENV), CAP, d).unwrap();
        let mut tx = q.producer().unwrap();
        produce_batches(SPSC_N, 0, |b| tx.push_slice_timeout(b, WAIT_LIMIT).unwrap());
        return;
    }
    let _s = serial();
    let q = Spsc::<u64>::create("q-spsc-1e7", CAP).unwrap();
    let mut rx = q.consumer().unwrap();
    let mut kid = spawn(TEST, "producer", q.name().unwrap(), 0);
    let t0 = Instant::now();
    let mut check = Checker::new(1);
    loop {
        match rx.read_chunk_timeout(BATCH, WAIT_LIMIT) {
            Ok(c) => {
                let (a, b) = c.as_slices();
                a.iter().chain(b).try_for_each(|&v| check.see(v)).unwrap();
            }
            Err(QueueError::Closed { .. }) => break,
            Err(e) => panic!("after {:?}: {e}", check.next),
        }
    }
    let el = t0.elapsed();
    kid.wait_success();
    assert_eq!(check.next, vec![SPSC_N]);
    assert_eq!(check.sum, expected_sum(1, SPSC_N));
    println!(
        "SPSC: {SPSC_N} messages between processes in {el:?} ({:.1} ns per message)",
        el.as_nanos() as f64 / SPSC_N as f64
    );
}

/// The child of the three-forms test: fills a 2-slot ring with `push` and `push_timeout`;
/// while it is full, `try_push`, a short `push_timeout` and `push` with a short default
/// timeout each hand their value back in `Timeout`; then `push` waits for the parent's
/// pops, and once the parent closed, `push` hands the value back in `Closed`.
fn child_three_forms() {
    let q = Spsc::<u64>::open(&env(NAME_ENV), 2, Deadline::after(WAIT_LIMIT)).unwrap();
    let mut tx = q.producer().unwrap();
    let patient = Patience::new(Wait::ADAPTIVE).with_timeout(Some(WAIT_LIMIT));
    tx.set_patience(patient);
    tx.push(message(0, 0)).unwrap();
    tx.push_timeout(message(0, 1), WAIT_LIMIT).unwrap();
    let back = |r: Result<(), QueueError<u64>>, v: u64| match r {
        Err(QueueError::Timeout { item, .. }) => assert_eq!(item, v, "the value handed back"),
        r => panic!("a full queue answered {r:?}"),
    };
    // No default timeout: a `try_` or `_timeout` form that waited with it would hang (and
    // fail the parent's watchdog).
    tx.set_patience(Patience::new(Wait::Block));
    back(tx.try_push(77), 77);
    back(tx.push_timeout(78, Duration::from_millis(5)), 78);
    tx.set_patience(Patience::new(Wait::Block).with_timeout(Some(Duration::from_millis(5))));
    back(tx.push(79), 79);
    println!("full");
    tx.set_patience(patient);
    tx.push(message(0, 2)).unwrap(); // waits for the parent's pop
    let mut seq = 3;
    loop {
        match tx.push(message(0, seq)) {
            Ok(()) => seq += 1,
            Err(QueueError::Closed { item, .. }) => {
                assert_eq!(item, message(0, seq), "the value handed back");
                break;
            }
            Err(e) => panic!("{e}"),
        }
    }
}

/// Each of the three forms of `push` (in the child) and `pop` across processes: `try_`
/// answers at once, `_timeout` and a short default timeout end with `Timeout`, a full
/// queue hands the value back, the waiting forms move what the other process sends. Every
/// wait is bounded, and the test runs under a watchdog: a form that ignores its timeout
/// fails instead of hanging.
#[test]
fn spsc_push_and_pop_in_their_three_forms_between_processes() {
    const TEST: &str = "spsc_push_and_pop_in_their_three_forms_between_processes";
    if role().as_deref() == Some("three-forms") {
        return child_three_forms();
    }
    let _s = serial();
    handoff_testkit::within(TEST, FORMS_WATCHDOG, || {
        let q = Spsc::<u64>::create("q-forms", 2).unwrap();
        let mut rx = q.consumer().unwrap();
        let empty = |r: Result<u64, QueueError>| {
            assert!(
                matches!(
                    r,
                    Err(QueueError::Timeout {
                        what: "element",
                        ..
                    })
                ),
                "{r:?}"
            )
        };
        rx.set_patience(Patience::new(Wait::Block)); // no default timeout (see the child)
        empty(rx.try_pop());
        empty(rx.pop_timeout(Duration::from_millis(5)));
        rx.set_patience(Patience::new(Wait::Spin).with_timeout(Some(Duration::from_millis(5))));
        empty(rx.pop());
        let mut kid = spawn(TEST, "three-forms", q.name().unwrap(), 0);
        kid.expect_line("full"); // nothing is popped before: the ring stays full
        assert_eq!(rx.try_pop().unwrap(), message(0, 0));
        assert_eq!(rx.try_pop().unwrap(), message(0, 1));
        // The waiting forms wait for what the child pushes once there is room.
        rx.set_patience(Patience::new(Wait::ADAPTIVE).with_timeout(Some(WAIT_LIMIT)));
        assert_eq!(rx.pop().unwrap(), message(0, 2));
        assert_eq!(rx.pop_timeout(WAIT_LIMIT).unwrap(), message(0, 3));
        drop(rx); // the child's next pushes find the queue closed
        kid.wait_success();
    });
}

/// Two child producers into one MPSC of each design; per-producer order and the checksum.
fn mpsc_between_processes(test: &str, lanes: bool) {
    if role().as_deref() == Some("producer") {
        let d = Deadline::after(WAIT_LIMIT);
        let id: u64 = env(ID_ENV).parse().unwrap();
        if lanes {
            let q = LaneMpsc::<u64>::open(&env(NAME_ENV), LANES, CAP, d).unwrap();
            let mut tx = q.producer().unwrap();
            produce_batches(MPSC_N, id, |b| {
                tx.push_slice_timeout(b, WAIT_LIMIT).unwrap()
            });
        } else {
            let q = ArrayMpsc::<u64>::open(&env(NAME_ENV), CAP, d).unwrap();
            let mut tx = q.producer().unwrap();
            produce_batches(MPSC_N, id, |b| {
                b.iter()
                    .for_each(|&v| tx.push_timeout(v, WAIT_LIMIT).unwrap())
            });
        }
        return;
    }
    let _s = serial();
    let mut check = Checker::new(2);
    let mut buf = [0u64; BATCH];
    let t0 = Instant::now();
    let mut pop_all = |pop: &mut dyn FnMut(&mut [u64]) -> Result<usize, QueueError>| {
        while check.next.iter().sum::<u64>() < 2 * MPSC_N {
            let n = pop(&mut buf).unwrap_or_else(|e| panic!("after {:?}: {e}", check.next));
            buf[..n].iter().try_for_each(|&v| check.see(v)).unwrap();
        }
    };
    let mut kids;
    if lanes {
        let q = LaneMpsc::<u64>::create("q-lanes", LANES, CAP).unwrap();
        let mut rx = q.consumer().unwrap();
        kids = [0, 1].map(|id| spawn(test, "producer", q.name().unwrap(), id));
        pop_all(&mut |b| rx.pop_into_timeout(b, WAIT_LIMIT));
        kids.iter_mut().for_each(Kid::wait_success);
    } else {
        let q = ArrayMpsc::<u64>::create("q-array", CAP).unwrap();
        let mut rx = q.consumer().unwrap();
        kids = [0, 1].map(|id| spawn(test, "producer", q.name().unwrap(), id));
        pop_all(&mut |b| rx.pop_into_timeout(b, WAIT_LIMIT));
        kids.iter_mut().for_each(Kid::wait_success);
    }
    let el = t0.elapsed();
    assert_eq!(check.next, vec![MPSC_N, MPSC_N]);
    assert_eq!(check.sum, expected_sum(2, MPSC_N));
    println!(
        "{}: 2 x {MPSC_N} messages between processes in {el:?}",
        if lanes { "LaneMpsc" } else { "ArrayMpsc" }
    );
}

#[test]
fn lane_mpsc_two_producer_processes() {
    mpsc_between_processes("lane_mpsc_two_producer_processes", true);
}

#[test]
fn array_mpsc_two_producer_processes() {
    mpsc_between_processes("array_mpsc_two_producer_processes", false);
}

/// One producer of either MPSC kind, as the clean-leave test drives it: `push(v, None)` tries
/// once, `push(v, Some(t))` waits up to `t`.
type Push = Box<dyn FnMut(u64, Option<Duration>) -> Result<(), QueueError<u64>>>;
/// The consumer of either MPSC kind: `pop_into_timeout`.
type Pop = Box<dyn FnMut(&mut [u64], Duration) -> Result<usize, QueueError>>;
/// The clean-leave test's ring: small, so one producer fills it.
const SMALL: usize = 8;

fn open_producer(lanes: bool) -> Push {
    let (name, d) = (env(NAME_ENV), Deadline::after(WAIT_LIMIT));
    if lanes {
        let mut tx = LaneMpsc::<u64>::open(&name, LANES, SMALL, d)
            .unwrap()
            .producer()
            .unwrap();
        Box::new(move |v, t| match t {
            Some(t) => tx.push_timeout(v, t),
            None => tx.try_push(v),
        })
    } else {
        let mut tx = ArrayMpsc::<u64>::open(&name, SMALL, d)
            .unwrap()
            .producer()
            .unwrap();
        Box::new(move |v, t| match t {
            Some(t) => tx.push_timeout(v, t),
            None => tx.try_push(v),
        })
    }
}

/// A producer process that pushed and left cleanly (its segment dropped: a departure
/// record) ends no other wait: not the other producer's, waiting for room on a full ring,
/// nor the consumer's, waiting for that producer's last message; once both left, the
/// consumer sees `Closed`. (Before, both waits ended with `PeerGone` naming the producer
/// that had finished: a rare failure of the two-producer tests.)
fn clean_leave_ends_no_other_wait(test: &str, lanes: bool) {
    match role().as_deref() {
        Some("leaver") => {
            open_producer(lanes)(message(0, 0), Some(WAIT_LIMIT)).unwrap();
            return;
        }
        Some("stayer") => {
            let mut push = open_producer(lanes);
            let mut seq = 0;
            while push(message(1, seq), None).is_ok() {
                seq += 1;
            }
            println!("full {seq}");
            // Waits for room for many peer checks (the consumer pops 300 ms later) with the
            // leaver's departure record in the table.
            push(message(1, seq), Some(WAIT_LIMIT)).unwrap();
            std::thread::sleep(Duration::from_millis(300)); // the consumer waits meanwhile
            push(message(1, seq + 1), Some(WAIT_LIMIT)).unwrap();
            return;
        }
        _ => {}
    }
    let _s = serial();
    let (name, mut pop): (String, Pop) = if lanes {
        let q = LaneMpsc::<u64>::create("q-leave-lanes", LANES, SMALL).unwrap();
        q.expect_producers(2);
        let mut rx = q.consumer().unwrap();
        let name = q.name().unwrap().to_string();
        (name, Box::new(move |b, t| rx.pop_into_timeout(b, t)))
    } else {
        let q = ArrayMpsc::<u64>::create("q-leave-array", SMALL).unwrap();
        q.expect_producers(2);
        let mut rx = q.consumer().unwrap();
        let name = q.name().unwrap().to_string();
        (name, Box::new(move |b, t| rx.pop_into_timeout(b, t)))
    };
    spawn(test, "leaver", &name, 0).wait_success();
    let mut stayer = spawn(test, "stayer", &name, 1);
    let full: u64 = stayer.expect_line("full ").parse().unwrap();
    std::thread::sleep(Duration::from_millis(300)); // the stayer waits for room meanwhile
    let mut check = Checker::new(2);
    let mut buf = [0u64; SMALL];
    while check.next != [1, full + 2] {
        let n = pop(&mut buf, WAIT_LIMIT).unwrap_or_else(|e| panic!("after {:?}: {e}", check.next));
        buf[..n].iter().try_for_each(|&v| check.see(v)).unwrap();
    }
    let end = pop(&mut buf, WAIT_LIMIT);
    assert!(matches!(end, Err(QueueError::Closed { .. })), "{end:?}");
    stayer.wait_success();
}

#[test]
fn lane_mpsc_clean_leave_ends_no_other_wait() {
    clean_leave_ends_no_other_wait("lane_mpsc_clean_leave_ends_no_other_wait", true);
}

#[test]
fn array_mpsc_clean_leave_ends_no_other_wait() {
    clean_leave_ends_no_other_wait("array_mpsc_clean_leave_ends_no_other_wait", false);
}

/// A consumer process killed while the producer waits on a full ring: `PeerGone` naming
/// it, not a hang.
#[test]
fn killed_consumer_is_reported_to_the_producer() {
    const TEST: &str = "killed_consumer_is_reported_to_the_producer";
    if role().as_deref() == Some("consumer") {
        let d = Deadline::after(WAIT_LIMIT);
        let q = Spsc::<u64>::open(&env(NAME_ENV), 8, d).unwrap();
        let _rx = q.consumer().unwrap();
        println!("attached");
        std::thread::sleep(WATCHDOG); // never reads; killed by the parent
        return;
    }
    let _s = serial();
    let q = Spsc::<u64>::create("q-kill-c", 8).unwrap();
    let mut tx = q.producer().unwrap();
    let mut kid = spawn(TEST, "consumer", q.name().unwrap(), 0);
    kid.expect_line("attached");
    let pid = kid.pid();
    kid.kill();
    let err = (0..100)
        .try_for_each(|i| tx.push_timeout(i, WAIT_LIMIT))
        .unwrap_err();
    assert!(
        matches!(err, QueueError::PeerGone { pid: p } if p == pid),
        "{err}"
    );
    assert!(err.to_string().contains(&pid.to_string()), "{err}");
}

/// A producer process killed in the middle of a frame (loaned, half written, never
/// committed): the consumer gets the frames before it, then `PeerGone`, never the torn
/// frame.
#[test]
fn producer_killed_mid_frame_is_reported_not_delivered() {
    const TEST: &str = "producer_killed_mid_frame_is_reported_not_delivered";
    if role().as_deref() == Some("producer") {
        let d = Deadline::after(WAIT_LIMIT);
        let q = FrameQueue::open(&env(NAME_ENV), 4096, d).unwrap();
        let mut tx = q.producer().unwrap();
        tx.send_timeout(b"whole", WAIT_LIMIT).unwrap();
        let mut f = tx.loan_timeout(1000, WAIT_LIMIT).unwrap();
        f[..500].fill(0xee);
        println!("mid-frame");
        std::thread::sleep(WATCHDOG); // killed here, the frame never committed
        f.commit();
        return;
    }
    let _s = serial();
    let q = FrameQueue::create("q-kill-frame", 4096).unwrap();
    let mut rx = q.consumer().unwrap();
    let mut kid = spawn(TEST, "producer", q.name().unwrap(), 0);
    kid.expect_line("mid-frame");
    let pid = kid.pid();
    kid.kill();
    assert_eq!(&*rx.recv_timeout(WAIT_LIMIT).unwrap(), b"whole");
    let err = rx.recv_timeout(WAIT_LIMIT).unwrap_err();
    assert!(
        matches!(err, QueueError::PeerGone { pid: p } if p == pid),
        "{err}"
    );
}
