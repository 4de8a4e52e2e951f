//! Loom models of the header's two protocols, on the same functions the real segment calls
//! (the segment itself cannot be built under loom). Payload / header fields are modelled as
//! loom `UnsafeCell`s (plain memory), so a missing happens-before edge is a loom failure.

use super::ready::{abandon_ready_word, await_ready_word, publish_ready_word, ReadyWait};
use super::table::{
    claim_slot, depart_slot, read_entry, read_slot, release_slot, Slot, LEFT, OBSERVER, PANICKED,
};
use super::INITIALIZING;
use crate::atomic::{AtomicU32, AtomicU64};
use crate::sys::ProcessId;
use loom::cell::UnsafeCell;
use loom::sync::Arc;

/// Two fake processes (the models never ask the OS about them).
fn a() -> ProcessId {
    ProcessId::new(10, 11)
}
fn b() -> ProcessId {
    ProcessId::new(20, 22)
}

fn table(n: usize) -> Vec<Slot> {
    (0..n)
        .map(|_| Slot {
            pid: AtomicU32::new(0),
            state: AtomicU32::new(0),
            start_time: AtomicU64::new(0),
        })
        .collect()
}

fn never_dead(_: &ProcessId) -> bool {
    false
}

/// The creator writes a plain header/payload word and publishes; an opener blocked on the
/// futex (no deadline) must wake (a lost wake-up is a loom deadlock) and read the word
/// without a race. Dropping after publishing abandons nothing.
#[test]
fn loom_ready_publish_wakes_opener_and_shows_payload() {
    loom::model(|| {
        let seg = Arc::new((AtomicU32::new(INITIALIZING), UnsafeCell::new(0u64)));
        let creator = {
            let seg = seg.clone();
            loom::thread::spawn(move || {
                // SAFETY: no opener reads the payload before READY (that is the model).
                seg.1.with_mut(|p| unsafe { *p = 42 });
                assert!(publish_ready_word(&seg.0));
                assert!(!abandon_ready_word(&seg.0), "drop after publish is a no-op");
            })
        };
        assert_eq!(await_ready_word(&seg.0, None, || false), ReadyWait::Ready);
        // SAFETY: READY was seen with Acquire; the creator writes the payload only before.
        assert_eq!(seg.1.with(|p| unsafe { *p }), 42);
        creator.join().unwrap();
    });
}

/// A creator that gives up before publishing: a blocked opener wakes with `Abandoned`,
/// and a late publish cannot resurrect the segment.
#[test]
fn loom_ready_abandon_wakes_opener() {
    loom::model(|| {
        let ready = Arc::new(AtomicU32::new(INITIALIZING));
        let creator = {
            let ready = ready.clone();
            loom::thread::spawn(move || {
                assert!(abandon_ready_word(&ready));
                assert!(!publish_ready_word(&ready));
            })
        };
        assert_eq!(
            await_ready_word(&ready, None, || false),
            ReadyWait::Abandoned
        );
        creator.join().unwrap();
    });
}

/// Two processes claim concurrently while a third reads a slot: distinct slots, each
/// holder reads back its own identity, a reader never sees a torn (pid, start time)
/// pair, and releasing frees the table.
#[test]
fn loom_slots_concurrent_claims_are_distinct() {
    loom::model(|| {
        let t = Arc::new(table(2));
        let claimer = |me: ProcessId| {
            let t = t.clone();
            loom::thread::spawn(move || {
                let i = claim_slot(&t, me, 0, never_dead).expect("two slots for two claimers");
                assert_eq!(read_slot(&t[i]), Some(me));
                i
            })
        };
        let (ta, tb) = (claimer(a()), claimer(b()));
        let seen = read_slot(&t[0]);
        let in_progress = |p: ProcessId| Some(ProcessId::new(p.pid, 0));
        assert!(
            seen.is_none()
                || [Some(a()), Some(b()), in_progress(a()), in_progress(b())].contains(&seen),
            "torn slot {seen:?}"
        );
        let (ia, ib) = (ta.join().unwrap(), tb.join().unwrap());
        assert_ne!(ia, ib);
        release_slot(&t[ia]);
        release_slot(&t[ib]);
        assert!(t.iter().all(|s| read_slot(s).is_none()));
    });
}

/// One slot, two processes: at most one holds it at a time (each holder writes plain
/// per-slot data; loom reports a race if two hold it or the release -> claim hand-over
/// lacks a happens-before edge), a full table gives `None`, and the slot ends free.
#[test]
fn loom_slots_release_hands_over_exclusively() {
    loom::model(|| {
        let shared = Arc::new((table(1), UnsafeCell::new(0u32)));
        let user = |me: ProcessId| {
            let shared = shared.clone();
            loom::thread::spawn(move || {
                let Some(i) = claim_slot(&shared.0, me, 0, never_dead) else {
                    return false;
                };
                // SAFETY: the slot is ours until `release_slot`; loom checks exclusivity.
                shared.1.with_mut(|p| unsafe { *p = me.pid });
                assert_eq!(read_slot(&shared.0[i]), Some(me));
                release_slot(&shared.0[i]);
                true
            })
        };
        let (ta, tb) = (user(a()), user(b()));
        let (got_a, got_b) = (ta.join().unwrap(), tb.join().unwrap());
        assert!(
            got_a || got_b,
            "the first claimer always finds the slot free"
        );
        assert_eq!(read_slot(&shared.0[0]), None);
    });
}

/// A peer leaves a departure record while another process, finding the table full,
/// reclaims it as an observer and a third reads the slot: the reader never sees the
/// newcomer's start time without its role (the role is written before the Release
/// store of the start time), and the slot ends as exactly one of the two outcomes.
#[test]
fn loom_slots_departure_seen_and_reclaimed() {
    loom::model(|| {
        let t = Arc::new(table(1));
        assert_eq!(claim_slot(&t, a(), 0, never_dead), Some(0));
        let leaver = {
            let t = t.clone();
            loom::thread::spawn(move || depart_slot(&t[0], true))
        };
        let claimer = {
            let t = t.clone();
            loom::thread::spawn(move || claim_slot(&t, b(), OBSERVER, never_dead))
        };
        if let Some(e) = read_entry(&t[0]) {
            if e.id == b() {
                assert_eq!(e.state, OBSERVER, "start time visible without the role");
            }
            if e.id == a() {
                assert!(e.state == 0 || e.state == LEFT | PANICKED, "{e:?}");
            }
        }
        leaver.join().unwrap();
        let claimed = claimer.join().unwrap();
        let end = read_entry(&t[0]).expect("the slot is held");
        match claimed {
            Some(0) => assert_eq!((end.id, end.state), (b(), OBSERVER)),
            None => assert_eq!((end.id, end.state), (a(), LEFT | PANICKED)),
            other => panic!("claimed {other:?}"),
        }
    });
}

/// A full table whose only entry is dead: two concurrent claimers reclaim it exactly once
/// (one wins, the other finds the table full).
#[test]
fn loom_slots_dead_entry_reclaimed_once() {
    loom::model(|| {
        let t = Arc::new(table(1));
        let dead = ProcessId::new(9, 99);
        assert_eq!(claim_slot(&t, dead, 0, never_dead), Some(0));
        let is_dead = move |p: &ProcessId| *p == dead;
        let claimer = |me: ProcessId| {
            let t = t.clone();
            loom::thread::spawn(move || claim_slot(&t, me, 0, is_dead))
        };
        let (ta, tb) = (claimer(a()), claimer(b()));
        let (ga, gb) = (ta.join().unwrap(), tb.join().unwrap());
        let winner = match (ga, gb) {
            (Some(0), None) => a(),
            (None, Some(0)) => b(),
            other => panic!("reclaimed {other:?}"),
        };
        assert_eq!(read_slot(&t[0]), Some(winner));
    });
}
