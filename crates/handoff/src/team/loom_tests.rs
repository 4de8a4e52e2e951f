//! Loom models of the team's protocols, on the real functions the transports that map
//! their peers' heaps call (`ShmTransport` and MPI's shared window, through the mapped-heap
//! core): put-with-signal is `mapped::wake::put_signal_with` — the copy, `ops::apply_signal`,
//! then the heap's `RangeBell` rung for the signal word (fenced) and the data (unfenced, or
//! one fenced range within a line), each ring skipped after one load when nobody sleeps —
//! against waiters asleep on the signal's bytes, on the data's bytes, or on a set of signal
//! words with `ops::any_from` (`wait_until_any`); `Signal` as a PE's counter (counting puts).
//! The barrier's model is in `barrier.rs`. Payloads are loom `UnsafeCell`s, so a missing
//! happens-before is a reported race, and a lost wake-up a deadlock.

use super::mapped::wake::put_signal_with;
use super::mapped::HeapBell;
use super::ops::{any_from, load_signal, SignalOp};
use crate::atomic::{AtomicU64, Ordering};
use crate::sync::waiter::w;
use crate::sync::{NoPeers, Signal, Until, Wait};
use loom::cell::UnsafeCell;
use loom::sync::Arc;

/// Heap offsets of a model's data word and signal word: within one line (`put_line`: one
/// fenced ring of both) or a line apart (the signal rung fenced, then the data unfenced).
const LAYOUTS: [(u64, u64); 2] = [(0, 8), (128, 0)];

/// What `MappedHeap::put_signal` does to the target PE, on the model's heap: copy `v` to
/// the payload (heap bytes at `data`), then the signal word (at `sig`), then the rings.
fn put_signal(
    payload: &UnsafeCell<u64>,
    v: u64,
    sig: &AtomicU64,
    op: SignalOp,
    bell: &HeapBell,
    (data, sig_at): (u64, u64),
) {
    put_signal_with(
        // SAFETY: the model's only writer of the payload before the signal.
        || payload.with_mut(|p| unsafe { *p = v }),
        sig,
        op,
        Some(bell),
        (data, data + 8),
        (sig_at, sig_at + 8),
    );
}

/// Put-with-signal, both ops, both layouts, a blocking waiter asleep on the signal word's
/// bytes (`signal_wait_until`): the waiter that sees the signal sees the payload, and is
/// woken (a lost wake-up is a deadlock).
#[test]
fn loom_team_put_signal_wakes_the_signal_sleeper() {
    for layout in LAYOUTS {
        for op in [SignalOp::Set(1), SignalOp::Add(1)] {
            loom::model(move || {
                let s = Arc::new((UnsafeCell::new(0u64), AtomicU64::new(0), HeapBell::new()));
                let s2 = s.clone();
                let t =
                    loom::thread::spawn(move || put_signal(&s2.0, 42, &s2.1, op, &s2.2, layout));
                let sig = layout.1;
                let seen =
                    s.2.bell
                        .wait(
                            Some((sig, sig + 8)),
                            || Some(load_signal(&s.1)).filter(|v| *v >= 1),
                            Until {
                                wait: Wait::Block,
                                deadline: None,
                            },
                            &NoPeers,
                            None,
                            0,
                        )
                        .unwrap();
                assert_eq!(seen, 1);
                // SAFETY: ordered after the writer's store by the signal (what loom checks).
                assert_eq!(s.0.with(|p| unsafe { *p }), 42);
                t.join().unwrap();
            });
        }
    }
}

/// Put-with-signal to a waiter asleep on the *data* word's bytes (OpenSHMEM's `wait_until`
/// on a variable that a put-with-signal writes): the data's ring may be the unfenced one,
/// after the signal's fenced ring, and must still wake it. The data word is an atomic here
/// (the waiter polls it, as `wait_until` does).
#[test]
fn loom_team_put_signal_wakes_the_data_sleeper() {
    for layout in LAYOUTS {
        loom::model(move || {
            let s = Arc::new((AtomicU64::new(0), AtomicU64::new(0), HeapBell::new()));
            let s2 = s.clone();
            let t = loom::thread::spawn(move || {
                let (data, sig) = layout;
                put_signal_with(
                    // Relaxed: the copy of the real code, a plain store.
                    || s2.0.store(42, Ordering::Relaxed),
                    &s2.1,
                    SignalOp::Set(1),
                    Some(&s2.2),
                    (data, data + 8),
                    (sig, sig + 8),
                )
            });
            let data = layout.0;
            let seen =
                s.2.bell
                    .wait(
                        Some((data, data + 8)),
                        // Relaxed: the waiter needs the value only, nothing it announces.
                        || Some(s.0.load(Ordering::Relaxed)).filter(|v| *v == 42),
                        Until::forever(Wait::Block),
                        &NoPeers,
                        None,
                        0,
                    )
                    .unwrap();
            assert_eq!(seen, 42);
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
        assert_eq!(s.2.wait_until(2, &w(Wait::Block, None, &NoPeers)), Ok(2));
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

/// `wait_until_any` over two adjacent signal words set by two PEs' put-with-signal: the
/// waiter (blocking, asleep on the words' bytes, as `wait_until_any` is) wakes for whichever
/// comes first and sees that one's payload; a second call from the rotated start finds the
/// other.
#[test]
fn loom_team_wait_any_two_signals() {
    loom::model(|| {
        let s = Arc::new((
            [UnsafeCell::new(0u64), UnsafeCell::new(0u64)],
            [AtomicU64::new(0), AtomicU64::new(0)],
            HeapBell::new(),
        ));
        let ts: Vec<_> = (0..2)
            .map(|k| {
                let s = s.clone();
                loom::thread::spawn(move || {
                    // PE k's data at heap bytes 16k, its signal word at 128 + 8k.
                    let layout = (16 * k as u64, 128 + 8 * k as u64);
                    put_signal(
                        &s.0[k],
                        7 + k as u64,
                        &s.1[k],
                        SignalOp::Set(1),
                        &s.2,
                        layout,
                    )
                })
            })
            .collect();
        let mut got = Vec::new();
        for start in 0..2 {
            let i =
                s.2.bell
                    .wait(
                        Some((128, 144)),
                        || any_from(start, 2, |i| !got.contains(&i) && load_signal(&s.1[i]) == 1),
                        Until {
                            wait: Wait::Block,
                            deadline: None,
                        },
                        &NoPeers,
                        None,
                        0,
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
