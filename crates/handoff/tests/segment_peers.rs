//! Peers that leave a segment (see `handoff::shm`, "Peers that leave"): a peer that panics,
//! or drops its segment and exits with an error, ends the waits watching the segment with
//! `PeerGone` naming it; an observer that dies or leaves ends nothing; a peer that
//! publishes and then leaves ends nothing either.
//!
//! Children are this test binary re-executed (guarded, watched). The parent's waits have a
//! 20 s deadline as a watchdog: a missed departure shows as `Timeout`, never as a hang.
#![cfg(all(target_os = "linux", not(loom)))]

use handoff::shm::{DepartureKind, OpenOptions, Segment};
use handoff::sync::WaitError;
use handoff::sync::{Flag, PeerWatch, Wait};
use handoff::sys::Deadline;
use handoff_probe::proc::die_with_parent;
use handoff_testkit::{waiter, Kid};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

const ROLE_ENV: &str = "HANDOFF_PEERS_TEST_ROLE";
const NAME_ENV: &str = "HANDOFF_PEERS_TEST_NAME";
const WATCHDOG: Duration = Duration::from_secs(20);

fn unique(tag: &str) -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    format!("p-{tag}-{}", N.fetch_add(1, Ordering::Relaxed))
}

fn deadline() -> Option<Deadline> {
    Some(Deadline::after(WATCHDOG))
}

/// In a child: its role, after arranging to die with the parent.
fn child_role() -> Option<String> {
    let role = std::env::var(ROLE_ENV).ok()?;
    die_with_parent().unwrap();
    Some(role)
}

fn child_open(observer: bool) -> Segment {
    let name = std::env::var(NAME_ENV).unwrap();
    let opts = OpenOptions::new().observer(observer);
    Segment::open_with(&name, Deadline::after(WATCHDOG), &opts).unwrap()
}

/// A published segment holding one [`Flag`] (0 = nothing happened yet).
fn flag_segment(tag: &str) -> Segment {
    let seg = Segment::create(&unique(tag), std::mem::size_of::<Flag>()).unwrap();
    seg.publish_ready();
    seg
}

fn flag(seg: &Segment) -> &Flag {
    seg.get::<Flag>(0).unwrap()
}

fn spawn(test: &str, role: &str, seg: &Segment) -> Kid {
    let name = seg.name().unwrap().to_string();
    // No backtrace for the deliberate panic: it is expected, not a failure to read.
    let vars = [(NAME_ENV, name), ("RUST_BACKTRACE", "0".to_string())];
    Kid::spawn(test, ROLE_ENV, role, &vars, WATCHDOG)
}

/// The child's exit status (it must exit on its own within the watchdog).
fn exit_code(kid: &mut Kid) -> Option<i32> {
    let status = kid
        .guard()
        .wait_deadline(Deadline::after(WATCHDOG))
        .unwrap()
        .expect("the child should have exited");
    status.code()
}

/// The parent waits on a flag nobody sets, watching the segment: the peer's departure must
/// end the wait, in every strategy that sleeps or spins.
fn every_wait_ends_with(seg: &Segment, pid: u32) {
    for how in handoff_testkit::WAITS {
        let r = flag(seg).wait_for(1, &waiter(how, deadline(), seg));
        assert_eq!(r, Err(WaitError::PeerGone { pid }), "{how}");
    }
}

#[test]
fn panicking_peer_ends_waits() {
    if let Some(role) = child_role() {
        assert_eq!(role, "panic");
        let seg = child_open(false);
        println!("ATTACHED");
        // Unwinds through `seg`'s drop: a departure record marked panicked.
        let _keep = &seg;
        panic!("deliberate panic of a peer (expected by the parent test)");
    }
    let seg = flag_segment("panic");
    let mut kid = spawn("panicking_peer_ends_waits", "panic", &seg);
    kid.expect_line("ATTACHED");
    let child = kid.pid();
    every_wait_ends_with(&seg, child);
    assert_ne!(exit_code(&mut kid), Some(0));
    let gone: Vec<(u32, DepartureKind)> = seg
        .departed()
        .iter()
        .map(|d| (d.process.pid, d.kind))
        .collect();
    assert_eq!(gone, vec![(child, DepartureKind::Panicked)]);
}

#[test]
fn peer_that_drops_and_exits_1_ends_waits() {
    if let Some(role) = child_role() {
        assert_eq!(role, "drop-exit");
        let seg = child_open(false);
        println!("ATTACHED");
        drop(seg);
        std::process::exit(1);
    }
    let seg = flag_segment("dropexit");
    let mut kid = spawn("peer_that_drops_and_exits_1_ends_waits", "drop-exit", &seg);
    kid.expect_line("ATTACHED");
    let child = kid.pid();
    every_wait_ends_with(&seg, child);
    assert_eq!(exit_code(&mut kid), Some(1));
    let gone: Vec<(u32, DepartureKind)> = seg
        .departed()
        .iter()
        .map(|d| (d.process.pid, d.kind))
        .collect();
    assert_eq!(gone, vec![(child, DepartureKind::Detached)]);
    assert!(seg.attached().is_empty(), "{:?}", seg.attached());
    // A supervisor that replaced the worker forgets the record: waits work again.
    assert_eq!(seg.forget_departed().len(), 1);
    assert_eq!(seg.check_peers(), Ok(()));
}

#[test]
fn peer_that_publishes_then_leaves_ends_nothing() {
    if let Some(role) = child_role() {
        assert_eq!(role, "publish-leave");
        let seg = child_open(false);
        flag(&seg).store(1);
        drop(seg);
        return;
    }
    let seg = flag_segment("publish");
    let mut kid = spawn(
        "peer_that_publishes_then_leaves_ends_nothing",
        "publish-leave",
        &seg,
    );
    assert_eq!(exit_code(&mut kid), Some(0));
    // The child left, but what we wait for happened first.
    assert!(seg.check_peers().is_err(), "the departure is recorded");
    for how in handoff_testkit::WAITS {
        assert_eq!(
            flag(&seg).wait_for(1, &waiter(how, deadline(), &seg)),
            Ok(()),
            "{how}"
        );
    }
}

#[test]
fn observer_that_dies_or_leaves_ends_nothing() {
    if let Some(role) = child_role() {
        let seg = child_open(true);
        println!("ATTACHED");
        match role.as_str() {
            "observer-park" => loop {
                std::thread::sleep(Duration::from_secs(1));
            },
            "observer-exit" => {
                drop(seg);
                std::process::exit(1);
            }
            other => panic!("unknown role {other}"),
        }
    }
    let seg = flag_segment("observer");
    let test = "observer_that_dies_or_leaves_ends_nothing";
    let mut killed = spawn(test, "observer-park", &seg);
    killed.expect_line("ATTACHED");
    let mut leaver = spawn(test, "observer-exit", &seg);
    leaver.expect_line("ATTACHED");
    killed.kill();
    assert_eq!(exit_code(&mut leaver), Some(1));
    assert_eq!(seg.check_peers(), Ok(()));
    assert!(seg.departed().is_empty(), "{:?}", seg.departed());
    // A later wait of the living parties (here a thread sets the flag) succeeds.
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(20));
            flag(&seg).store(1);
        });
        assert_eq!(
            flag(&seg).wait_for(1, &waiter(Wait::Block, deadline(), &seg)),
            Ok(())
        );
    });
}
