//! A default (adaptive) wait whose peer stays idle leaves the CPU free: the waiter sleeps.
//!
//! Not a timing test: the bound is functional and generous. A waiting thread that spins (or
//! yields in a loop) is on a CPU or in the run queue all the time, whatever the load, so
//! its run time plus its run-queue time (`/proc/thread-self/schedstat`) is about its wall
//! time; a sleeping one's is a tiny part of it. The test asserts less than half. (The
//! measured figure, well under 1 %, is `examples/wait_bench`'s.)
#![cfg(all(target_os = "linux", not(loom)))]

use handoff::channel::{Channel, ChannelConfig};
use handoff::queue::Spsc;
use handoff::sync::{Flag, NoPeers, Patience, Wait};
use handoff::sys::Deadline;
use handoff_testkit::waiter;
use std::time::{Duration, Instant};

/// How long the peers stay idle.
const IDLE: Duration = Duration::from_millis(1500);

fn limit() -> Option<Deadline> {
    Some(Deadline::after(Duration::from_secs(30)))
}

/// The calling thread's time on a CPU plus its time waiting for one, if the kernel says.
fn busy() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let mut f = s.split_whitespace().map(|x| x.parse::<u64>().ok());
    Some(Duration::from_nanos(f.next()?? + f.next()??))
}

/// Runs `wait` and returns the share of its wall time the thread was running or runnable.
fn busy_share(wait: impl FnOnce()) -> Option<f64> {
    let (b0, t0) = (busy()?, Instant::now());
    wait();
    Some((busy()? - b0).as_secs_f64() / t0.elapsed().as_secs_f64())
}

/// The waits under test, all with `how`, each on its own thread, for peers idle for
/// [`IDLE`]: a pop on an empty queue, a receive on an empty channel, a flag that does not
/// change. Returns each one's busy share.
fn idle_waits(how: Wait) -> Vec<(&'static str, Option<f64>)> {
    let (mut qtx, mut qrx) = Spsc::<u64>::new(16).unwrap();
    let (mut ctx, mut crx) = Channel::anonymous(ChannelConfig::new(64, 2))
        .unwrap()
        .split()
        .unwrap();
    let patience = Patience::new(how).with_timeout(Some(Duration::from_secs(30)));
    qrx.set_patience(patience);
    crx.set_patience(patience);
    let flag = Flag::new();
    std::thread::scope(|s| {
        let q = s.spawn(move || busy_share(|| assert_eq!(qrx.pop().unwrap(), 7)));
        let c = s.spawn(move || busy_share(|| drop(crx.recv().unwrap())));
        let f =
            s.spawn(|| busy_share(|| flag.wait_for(1, &waiter(how, limit(), &NoPeers)).unwrap()));
        std::thread::sleep(IDLE);
        qtx.try_push(7).unwrap();
        ctx.try_loan().unwrap().publish();
        flag.store(1);
        vec![
            ("queue pop", q.join().unwrap()),
            ("channel recv", c.join().unwrap()),
            ("flag wait_for", f.join().unwrap()),
        ]
    })
}

#[test]
fn an_idle_default_wait_leaves_the_cpu_free() {
    if busy().is_none() {
        eprintln!("SKIP: an_idle_default_wait_leaves_the_cpu_free: no /proc/thread-self/schedstat");
        return;
    }
    for (what, share) in idle_waits(Wait::default()) {
        let share = share.expect("schedstat readable");
        assert!(
            share < 0.5,
            "{what}: an adaptive waiter with an idle peer was on a CPU or runnable {:.0} % \
             of the time (it should sleep)",
            share * 100.0
        );
    }
}
