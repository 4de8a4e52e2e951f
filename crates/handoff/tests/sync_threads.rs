//! The sync primitives placed in a segment and used by threads; deadlines; and every kind of
//! nonsense the API must refuse with a clear error instead of a panic or a hang.
#![cfg(all(target_os = "linux", not(loom)))]

use handoff::shm::{Segment, SegmentError, ShmSafe};
use handoff::sync::WaitError;
use handoff::sync::MAX_PARTIES;
use handoff::sync::{Barrier, Flag, NoPeers, Semaphore, Signal, Wait};
use handoff::sys::Deadline;
use handoff::sys::Error as SysError;
use handoff_testkit::waiter;
use std::time::Duration;

#[repr(C)]
struct Shared {
    ping: Flag,
    pong: Flag,
    count: Signal,
    sem: Semaphore,
    barrier: Barrier,
}

// SAFETY: repr(C) of ShmSafe primitives only: pointer-free, valid when zeroed, atomics.
unsafe impl ShmSafe for Shared {}

fn limit() -> Option<Deadline> {
    Some(Deadline::after(Duration::from_secs(20)))
}

#[test]
fn zero_party_barrier_and_other_nonsense_is_refused() {
    assert!(matches!(Barrier::new(0), Err(SysError::InvalidArgument(_))));
    assert!(matches!(
        Barrier::new(MAX_PARTIES + 1),
        Err(SysError::InvalidArgument(_))
    ));
    let seg = Segment::anonymous(std::mem::size_of::<Shared>()).unwrap();
    let sh: &Shared = seg.get(0).unwrap();
    assert!(matches!(
        sh.barrier.init(0),
        Err(SysError::InvalidArgument(_))
    ));
    assert_eq!(
        sh.barrier.parties(),
        1,
        "a refused init leaves the barrier as it was"
    );

    let full = Semaphore::new(u32::MAX);
    let err = full.post().unwrap_err();
    assert!(matches!(err, SysError::InvalidArgument(_)), "{err}");
    assert_eq!(full.value(), u32::MAX);

    for bad in ["", "sleep", "adaptive:", "adaptive:-1us", "adaptive:1h"] {
        assert!(
            matches!(bad.parse::<Wait>(), Err(SysError::InvalidArgument(_))),
            "{bad:?}"
        );
    }

    // A primitive at a misaligned or out-of-range offset is refused by the segment.
    assert!(matches!(
        seg.get::<Flag>(64),
        Err(SegmentError::Misaligned { .. })
    ));
    assert!(matches!(
        seg.get::<Flag>(seg.payload_len()),
        Err(SegmentError::OutOfBounds { .. })
    ));
}

#[test]
fn deadlines_expire_with_timeout_and_never_hide_a_true_condition() {
    let past = Some(Deadline::at_ns(0));
    let f = Flag::new();
    let s = Signal::new();
    let sem = Semaphore::new(0);
    let b = Barrier::new(2).unwrap();
    for how in handoff_testkit::WAITS {
        assert_eq!(
            f.wait_change(0, &waiter(how, past, &NoPeers)),
            Err(WaitError::Timeout)
        );
        assert_eq!(
            s.wait_until(1, &waiter(how, past, &NoPeers)),
            Err(WaitError::Timeout)
        );
        assert_eq!(
            sem.wait(&waiter(how, past, &NoPeers)),
            Err(WaitError::Timeout)
        );
        assert_eq!(
            b.wait(&waiter(how, past, &NoPeers)),
            Err(WaitError::Timeout)
        );
    }
    // A condition that already holds wins over an expired deadline.
    f.store(3);
    s.add(1);
    sem.post().unwrap();
    let lone = Barrier::new(1).unwrap();
    for how in handoff_testkit::WAITS {
        assert_eq!(f.wait_change(0, &waiter(how, past, &NoPeers)), Ok(3));
        assert_eq!(s.wait_until(1, &waiter(how, past, &NoPeers)), Ok(1));
        assert!(lone.wait(&waiter(how, past, &NoPeers)).unwrap().is_leader());
    }
    assert_eq!(sem.wait(&waiter(Wait::Block, past, &NoPeers)), Ok(()));
}

/// Primitives in a (memfd) segment, shared by threads: a ping-pong per strategy that also
/// goes through the signal, the semaphore and the barrier.
#[test]
fn primitives_in_a_segment_between_threads() {
    const ROUNDS: u32 = 500;
    let seg = Segment::anonymous(std::mem::size_of::<Shared>()).unwrap();
    let sh: &Shared = seg.get(0).unwrap();
    sh.barrier.init(2).unwrap();
    let two_cpus = std::thread::available_parallelism().map_or(1, |n| n.get()) >= 2;
    for how in handoff_testkit::WAITS {
        if how == Wait::Spin && !two_cpus {
            eprintln!("SKIP: primitives_in_a_segment_between_threads (Spin part): one CPU");
            continue;
        }
        let base = sh.ping.load();
        std::thread::scope(|s| {
            s.spawn(|| {
                for i in 1..=ROUNDS {
                    let v = sh
                        .ping
                        .wait_change(base + i - 1, &waiter(how, limit(), &seg))
                        .unwrap();
                    assert_eq!(v, base + i);
                    sh.count.add(1);
                    sh.sem.post().unwrap();
                    sh.barrier.wait(&waiter(how, limit(), &seg)).unwrap();
                    sh.pong.store(v);
                }
            });
            for i in 1..=ROUNDS {
                let c = sh.count.load();
                sh.ping.store(base + i);
                assert_eq!(
                    sh.count.wait_until(c + 1, &waiter(how, limit(), &seg)),
                    Ok(c + 1)
                );
                sh.sem.wait(&waiter(how, limit(), &seg)).unwrap();
                sh.barrier.wait(&waiter(how, limit(), &seg)).unwrap();
                sh.pong
                    .wait_for(base + i, &waiter(how, limit(), &seg))
                    .unwrap();
            }
        });
        assert_eq!(sh.sem.value(), 0, "{how}");
    }
}
