//! The default wait (`Wait::ADAPTIVE`) against spinning (`Wait::Spin`), side by side in one
//! run, and what an idle wait costs — issue 23's "adaptive as fast as spinning when the
//! peer is quick, and the CPU free when it is not".
//!
//! `cargo run --release -p handoff --example wait_bench [ROUND_TRIPS] [RUNS] [IDLE_SECS]`
//! (defaults 20000 round trips per run, 7 runs, 5 s idle; `IDLE_SECS` 0 skips the idle part).
//!
//! 1. **Quick peer.** Two threads pinned to the first two allowed CPUs bounce a value back
//!    and forth (a round trip is two hand-offs) through a `queue::Spsc<u64>` pair, a
//!    `channel` pair (64-byte blocks) and a `sync::Flag` pair; each with `Spin` and with
//!    `ADAPTIVE`, alternating (spin first in even runs, adaptive first in odd ones) so that
//!    a slow phase of the machine hits both. Prints the median µs per round trip with the
//!    range, and the median (range) over runs of adaptive / spin within each run.
//! 2. **Idle peer.** A thread per primitive waits with `ADAPTIVE` for a peer that stays
//!    idle `IDLE_SECS` seconds (a pop on an empty queue, a receive on an empty channel, a
//!    flag that does not change), all at once; prints each waiter's CPU time
//!    (`CLOCK_THREAD_CPUTIME_ID`) as a percentage of the wall time.
//!
//! The header prints the machine's measured futex wake-up cost (which bounds the adaptive
//! spin), whether more threads are runnable than CPUs now, and the load average.

use handoff::channel::{Channel, ChannelConfig};
use handoff::queue::Spsc;
use handoff::sync::{measure_wake_cost, oversubscribed_now};
use handoff::sync::{Flag, Patience, Wait, Waiter};
use handoff::sys::{allowed_cpus, pin_current_thread};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

/// A round-trip benchmark: `n` round trips with `how`, the two sides pinned to `cpus`;
/// returns µs per round trip.
type Rtt = fn(u64, Wait, Option<(usize, usize)>) -> f64;

/// Waits with `how`, each for at most a minute (a watchdog, not a measurement).
fn patience(how: Wait) -> Patience {
    Patience::new(how).with_timeout(Some(Duration::from_secs(60)))
}

fn pin(cpu: Option<usize>) {
    if let Some(c) = cpu {
        pin_current_thread(c).expect("pin");
    }
}

/// Runs `echo` on a second thread pinned to `cpus.1` and `ping` here (pinned to `cpus.0`)
/// after a common start; returns µs per round trip of `ping`.
fn pair(
    n: u64,
    cpus: Option<(usize, usize)>,
    ping: impl FnOnce() + Send,
    echo: impl FnOnce() + Send,
) -> f64 {
    let start = Barrier::new(2);
    std::thread::scope(|s| {
        s.spawn(|| {
            pin(cpus.map(|c| c.1));
            start.wait();
            echo();
        });
        pin(cpus.map(|c| c.0));
        start.wait();
        let t0 = Instant::now();
        ping();
        t0.elapsed().as_secs_f64() * 1e6 / n as f64
    })
}

fn queue_rtt(n: u64, how: Wait, cpus: Option<(usize, usize)>) -> f64 {
    let (mut tx, mut rx_back) = Spsc::<u64>::new(64).unwrap();
    let (mut tx_back, mut rx) = Spsc::<u64>::new(64).unwrap();
    let p = patience(how);
    tx.set_patience(p);
    rx.set_patience(p);
    tx_back.set_patience(p);
    rx_back.set_patience(p);
    pair(
        n,
        cpus,
        move || {
            for i in 0..n {
                tx.push(i).unwrap();
                assert_eq!(rx.pop().unwrap(), i);
            }
        },
        move || {
            for _ in 0..n {
                let v = rx_back.pop().unwrap();
                tx_back.push(v).unwrap();
            }
        },
    )
}

fn channel_rtt(n: u64, how: Wait, cpus: Option<(usize, usize)>) -> f64 {
    let cfg = ChannelConfig::new(64, 2);
    let (mut tx, mut rx_back) = Channel::anonymous(cfg).unwrap().split().unwrap();
    let (mut tx_back, mut rx) = Channel::anonymous(cfg).unwrap().split().unwrap();
    let p = patience(how);
    tx.set_patience(p);
    rx.set_patience(p);
    tx_back.set_patience(p);
    rx_back.set_patience(p);
    pair(
        n,
        cpus,
        move || {
            for i in 0..n {
                let mut b = tx.loan().unwrap();
                b.as_mut_slice::<u64>()[0] = i;
                b.publish();
                let got = rx.recv().unwrap();
                assert_eq!(got.as_slice::<u64>()[0], i);
            }
        },
        move || {
            for _ in 0..n {
                let got = rx_back.recv().unwrap();
                let mut b = tx_back.loan().unwrap();
                b.as_mut_slice::<u64>()[0] = got.as_slice::<u64>()[0];
                drop(got);
                b.publish();
            }
        },
    )
}

fn flag_rtt(n: u64, how: Wait, cpus: Option<(usize, usize)>) -> f64 {
    let (ping, pong) = (Flag::new(), Flag::new());
    pair(
        n,
        cpus,
        || {
            for i in 1..=n as u32 {
                ping.store(i);
                pong.wait_for(i, &Waiter::new(patience(how))).unwrap();
            }
        },
        || {
            for i in 1..=n as u32 {
                ping.wait_for(i, &Waiter::new(patience(how))).unwrap();
                pong.store(i);
            }
        },
    )
}

/// Median, min and max.
fn stats(v: &[f64]) -> (f64, f64, f64) {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

fn thread_cpu() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Runs `wait` on a fresh thread; returns its CPU time over the wall time, in percent.
fn idle_cpu(wait: impl FnOnce() + Send) -> f64 {
    std::thread::scope(|s| {
        s.spawn(|| {
            let (c0, t0) = (thread_cpu(), Instant::now());
            wait();
            100.0 * (thread_cpu() - c0).as_secs_f64() / t0.elapsed().as_secs_f64()
        })
        .join()
        .unwrap()
    })
}

/// Each primitive's waiter's CPU %, waiting `idle` for a peer that then answers.
fn idle_waiters(idle: Duration) -> Vec<(&'static str, f64)> {
    let (mut qtx, mut qrx) = Spsc::<u64>::new(64).unwrap();
    let (mut ctx, mut crx) = Channel::anonymous(ChannelConfig::new(64, 2))
        .unwrap()
        .split()
        .unwrap();
    let flag = Arc::new(Flag::new());
    let f2 = flag.clone();
    let how = Wait::ADAPTIVE;
    qrx.set_patience(patience(how));
    crx.set_patience(patience(how));
    std::thread::scope(|s| {
        let q = s.spawn(move || idle_cpu(move || assert_eq!(qrx.pop().unwrap(), 1)));
        let c = s.spawn(move || idle_cpu(move || drop(crx.recv().unwrap())));
        let f =
            s.spawn(move || idle_cpu(move || f2.wait_for(1, &Waiter::new(patience(how))).unwrap()));
        std::thread::sleep(idle);
        qtx.try_push(1).unwrap();
        ctx.try_loan().unwrap().publish();
        flag.store(1);
        vec![
            ("queue pop (Spsc)", q.join().unwrap()),
            ("channel recv", c.join().unwrap()),
            ("flag wait_for", f.join().unwrap()),
        ]
    })
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args
        .next()
        .map_or(20_000, |a| a.parse().expect("ROUND_TRIPS"));
    let runs: usize = args.next().map_or(7, |a| a.parse().expect("RUNS"));
    let idle: u64 = args.next().map_or(5, |a| a.parse().expect("IDLE_SECS"));
    let cpus = allowed_cpus().unwrap_or_default();
    let place = (cpus.len() >= 2).then(|| (cpus[0], cpus[1]));
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "load average {}; {} allowed CPUs; oversubscribed now: {}",
        load.split_whitespace()
            .take(4)
            .collect::<Vec<_>>()
            .join(" "),
        cpus.len(),
        oversubscribed_now()
    );
    match measure_wake_cost() {
        Some(c) => println!(
            "futex wake-up: {:.1} µs across CPUs, {:.1} µs on one CPU -> adaptive spin budget {:.1} µs",
            c.cross_cpu.as_secs_f64() * 1e6,
            c.same_cpu.as_secs_f64() * 1e6,
            c.spin_budget().as_secs_f64() * 1e6
        ),
        None => println!("futex wake-up: not measured (default budget 20 µs)"),
    }
    println!("{n} round trips per run, {runs} runs, sides on CPUs {place:?}");
    let kinds: [(&str, Rtt); 3] = [
        ("queue (Spsc<u64>)", queue_rtt),
        ("channel (64 B blocks)", channel_rtt),
        ("flag", flag_rtt),
    ];
    // Per kind: µs per round trip with spin, with adaptive.
    let mut rtt = vec![(Vec::new(), Vec::new()); kinds.len()];
    for run in 0..runs {
        for (k, (_, f)) in kinds.iter().enumerate() {
            if run % 2 == 0 {
                rtt[k].0.push(f(n, Wait::Spin, place));
                rtt[k].1.push(f(n, Wait::ADAPTIVE, place));
            } else {
                rtt[k].1.push(f(n, Wait::ADAPTIVE, place));
                rtt[k].0.push(f(n, Wait::Spin, place));
            }
        }
    }
    println!(
        "{:<24} {:>22} {:>22} {:>26}",
        "hand-off", "spin µs/RTT (range)", "adaptive µs/RTT", "adaptive/spin (runs)"
    );
    for ((name, _), (spin, adaptive)) in kinds.iter().zip(&rtt) {
        let (s, s0, s1) = stats(spin);
        let (a, a0, a1) = stats(adaptive);
        let ratios: Vec<f64> = adaptive.iter().zip(spin).map(|(a, s)| a / s).collect();
        let (r, r0, r1) = stats(&ratios);
        println!(
            "{name:<24} {s:>7.3} ({s0:.3}-{s1:.3}) {a:>7.3} ({a0:.3}-{a1:.3}) {r:>9.2}x ({r0:.2}-{r1:.2})"
        );
    }
    if idle > 0 {
        println!("idle peer for {idle} s, default (adaptive) wait: waiter CPU time / wall time");
        for (name, pct) in idle_waiters(Duration::from_secs(idle)) {
            println!("{name:<24} {pct:>6.2} %");
        }
    }
}
