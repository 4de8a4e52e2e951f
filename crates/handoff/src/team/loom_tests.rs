//! Loom models of the team's protocols, on the real functions the shared-memory transport
//! calls: `ops::apply_signal` / `ops::load_signal` with the PE's `Doorbell` (put-with-signal),
//! `Signal` as a PE's counter (counting puts), `ops::any_from` under a doorbell wait
//! (`wait_until_any`). The barrier's model is in `barrier.rs`. Payloads are loom
//! `UnsafeCell`s, so a missing happens-before is a reported race, and a lost wake-up a
//! deadlock.

use super::ops::{any_from, apply_signal, load_signal, SignalOp};
use crate::atomic::AtomicU64;
use crate::sync::{Doorbell, NoPeers, Signal, Wait};
use loom::cell::UnsafeCell;
use loom::sync::Arc;

/// What `ShmTransport::put_signal` does to the target: copy, then `apply_signal`, then ring.
fn put_signal(payload: &UnsafeCell<u64>, v: u64, sig: &AtomicU64, op: SignalOp, bell: &Doorbell) {
    // SAFETY: the model's only writer of the payload before the signal.
    payload.with_mut(|p| unsafe { *p = v });
    apply_signal(sig, op);
    bell.ring();
}

/// Put-with-signal, both ops, blocking waiter: the waiter that sees the signal sees the
/// payload, and is woken.
#[test]
fn loom_team_put_signal_orders_data_before_signal() {
    for op in [SignalOp::Set(1), SignalOp::Add(1)] {
        loom::model(move || {
            let s = Arc::new((UnsafeCell::new(0u64), AtomicU64::new(0), Doorbell::new()));
            let s2 = s.clone();
            let t = loom::thread::spawn(move || put_signal(&s2.0, 42, &s2.1, op, &s2.2));
            let seen =
                s.2.wait(
                    || Some(load_signal(&s.1)).filter(|v| *v >= 1),
                    Wait::Block,
                    None,
                    &NoPeers,
                    None,
                )
                .unwrap();
            assert_eq!(seen, 1);
            // SAFETY: ordered after the writer's store by the signal (what loom checks).
            assert_eq!(s.0.with(|p| unsafe { *p }), 42);
            t.join().unwrap();
        });
    }
}

/// Counting puts from two PEs into one receiver's counter (`Signal::add` after the copy):
/// `ct_wait(2)` returns only after both payloads are visible.
#[test]
fn loom_team_counter_two_senders() {
    loom::model(|| {
        let s = Arc::new((UnsafeCell::new(0u64), UnsafeCell::new(0u64), Signal::new()));
        let ts: Vec<_> = (0..2)
            .map(|k| {
                let s = s.clone();
                loom::thread::spawn(move || {
                    let cell = if k == 0 { &s.0 } else { &s.1 };
                    // SAFETY: each sender writes only its own cell.
                    cell.with_mut(|p| unsafe { *p = k + 10 });
                    s.2.add(1);
                })
            })
            .collect();
        assert_eq!(s.2.wait_until(2, Wait::Block, None, &NoPeers), Ok(2));
        // SAFETY: both writes happen before the adds the wait saw.
        assert_eq!(
            s.0.with(|p| unsafe { *p }) + s.1.with(|p| unsafe { *p }),
            21
        );
        for t in ts {
            t.join().unwrap();
        }
    });
}

/// `wait_until_any` over two signal words set by two PEs: the waiter (blocking) wakes for
/// whichever comes first and sees that one's payload; a second call from the rotated start
/// finds the other.
#[test]
fn loom_team_wait_any_two_signals() {
    loom::model(|| {
        let s = Arc::new((
            [UnsafeCell::new(0u64), UnsafeCell::new(0u64)],
            [AtomicU64::new(0), AtomicU64::new(0)],
            Doorbell::new(),
        ));
        let ts: Vec<_> = (0..2)
            .map(|k| {
                let s = s.clone();
                loom::thread::spawn(move || {
                    put_signal(&s.0[k], 7 + k as u64, &s.1[k], SignalOp::Set(1), &s.2)
                })
            })
            .collect();
        let mut got = Vec::new();
        for start in 0..2 {
            let i =
                s.2.wait(
                    || any_from(start, 2, |i| !got.contains(&i) && load_signal(&s.1[i]) == 1),
                    Wait::Block,
                    None,
                    &NoPeers,
                    None,
                )
                .unwrap();
            // SAFETY: ordered after writer i's payload store by its signal.
            assert_eq!(s.0[i].with(|p| unsafe { *p }), 7 + i as u64);
            got.push(i);
        }
        got.sort_unstable();
        assert_eq!(got, [0, 1]);
        for t in ts {
            t.join().unwrap();
        }
    });
}
