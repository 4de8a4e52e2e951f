//! SPSC throughput of `handoff::queue` beside rtrb and crossbeam's `ArrayQueue`, on two
//! threads with the same placement, in one run.
//!
//! `cargo run --release -p handoff --example queue_bench [MESSAGES] [RUNS] [FILTER]`
//! (defaults 10^7 u64 messages per run, 7 runs; FILTER keeps the rows whose name contains
//! it, e.g. `"one thread"`; `|` separates alternatives). Producer on the first allowed CPU, consumer on the second
//! (unpinned if there is only one); capacity 1024 for every queue; every contender
//! busy-waits the same way (a `spin_loop` hint on full / empty; handoff with `Wait::Spin`),
//! except the rows that name another strategy. The contenders run interleaved (one run of
//! each, in turn), so a slow phase of the machine hits them all. Each run checks the sum of
//! what arrived against the closed form n(n-1)/2.
//!
//! Prints, per contender, the median over runs of millions of messages per second, with
//! the slowest and fastest run, then the handoff/rtrb and handoff/crossbeam ratios: the
//! median (and range) over runs of the ratio within each run.

use crossbeam_queue::ArrayQueue;
use handoff::queue::{ArrayMpsc, LaneMpsc, Spsc};
use handoff::sync::{Patience, Wait};
use std::hint::spin_loop;
use std::sync::Arc;
use std::time::{Duration, Instant};

const CAP: usize = 1024;
const BATCH: usize = 64;

type Run = fn(u64, Option<(usize, usize)>) -> Duration;

fn pin(cpu: Option<usize>) {
    if let Some(c) = cpu {
        handoff::sys::pin_current_thread(c).expect("pin");
    }
}

/// Runs `produce` and `consume` on two pinned threads; returns the consumer's elapsed time
/// (from the start barrier to the last message) after checking its sum.
fn pair<P, C>(n: u64, cpus: Option<(usize, usize)>, produce: P, consume: C) -> Duration
where
    P: FnOnce() + Send + 'static,
    C: FnOnce() -> u64 + Send + 'static,
{
    let start = Arc::new(std::sync::Barrier::new(2));
    let s2 = start.clone();
    let t = std::thread::spawn(move || {
        pin(cpus.map(|c| c.0));
        s2.wait();
        produce();
    });
    pin(cpus.map(|c| c.1));
    start.wait();
    let t0 = Instant::now();
    let sum = consume();
    let el = t0.elapsed();
    t.join().unwrap();
    assert_eq!(sum, n * (n - 1) / 2, "lost or duplicated messages");
    el
}

fn handoff_single(n: u64, cpus: Option<(usize, usize)>) -> Duration {
    let (mut tx, mut rx) = Spsc::<u64>::new(CAP).unwrap();
    tx.set_patience(Patience::new(Wait::Spin));
    rx.set_patience(Patience::new(Wait::Spin));
    pair(
        n,
        cpus,
        move || (0..n).for_each(|i| tx.push(i).unwrap()),
        move || (0..n).map(|_| rx.pop().unwrap()).sum(),
    )
}

/// The same loop as rtrb's row: `try_push` / `try_pop`, a `spin_loop` hint on full / empty.
fn handoff_try(n: u64, cpus: Option<(usize, usize)>) -> Duration {
    let (mut tx, mut rx) = Spsc::<u64>::new(CAP).unwrap();
    pair(
        n,
        cpus,
        move || {
            for i in 0..n {
                while tx.try_push(i).is_err() {
                    spin_loop();
                }
            }
        },
        move || {
            let mut sum = 0;
            for _ in 0..n {
                loop {
                    if let Ok(v) = rx.try_pop() {
                        sum += v;
                        break;
                    }
                    spin_loop();
                }
            }
            sum
        },
    )
}

fn handoff_single_adaptive(n: u64, cpus: Option<(usize, usize)>) -> Duration {
    let (mut tx, mut rx) = Spsc::<u64>::new(CAP).unwrap();
    pair(
        n,
        cpus,
        move || (0..n).for_each(|i| tx.push(i).unwrap()),
        move || (0..n).map(|_| rx.pop().unwrap()).sum(),
    )
}

fn handoff_chunks(n: u64, cpus: Option<(usize, usize)>) -> Duration {
    let (mut tx, mut rx) = Spsc::<u64>::new(CAP).unwrap();
    tx.set_patience(Patience::new(Wait::Spin));
    rx.set_patience(Patience::new(Wait::Spin));
    pair(
        n,
        cpus,
        move || {
            // In place, as rtrb's `write_chunk_uninit` + `fill_from_iter` below.
            let mut i = 0;
            while i < n {
                let k = (n - i).min(BATCH as u64) as usize;
                let mut c = tx.write_chunk(k).unwrap();
                let (a, b) = c.as_mut_slices();
                for (j, slot) in a.iter_mut().chain(b.iter_mut()).enumerate() {
                    *slot = i + j as u64;
                }
                c.commit_all();
                i += k as u64;
            }
        },
        move || {
            let (mut got, mut sum) = (0, 0u64);
            while got < n {
                let c = rx.read_chunk(BATCH).unwrap();
                let (a, b) = c.as_slices();
                sum += a.iter().chain(b).sum::<u64>();
                got += c.len() as u64;
            }
            sum
        },
    )
}

fn rtrb_single(n: u64, cpus: Option<(usize, usize)>) -> Duration {
    let (mut tx, mut rx) = rtrb::RingBuffer::<u64>::new(CAP);
    pair(
        n,
        cpus,
        move || {
            for i in 0..n {
                while tx.push(i).is_err() {
                    spin_loop();
                }
            }
        },
        move || {
            let mut sum = 0;
            for _ in 0..n {
                loop {
                    if let Ok(v) = rx.pop() {
                        sum += v;
                        break;
                    }
                    spin_loop();
                }
            }
            sum
        },
    )
}

fn rtrb_chunks(n: u64, cpus: Option<(usize, usize)>) -> Duration {
    let (mut tx, mut rx) = rtrb::RingBuffer::<u64>::new(CAP);
    pair(
        n,
        cpus,
        move || {
            let mut i = 0;
            while i < n {
                let k = (n - i).min(BATCH as u64) as usize;
                match tx.write_chunk_uninit(k) {
                    Ok(c) => {
                        let pushed = c.fill_from_iter(i..i + k as u64);
                        i += pushed as u64;
                    }
                    Err(_) => spin_loop(),
                }
            }
        },
        move || {
            let (mut got, mut sum) = (0, 0u64);
            while got < n {
                let k = rx.slots().min(BATCH);
                if k == 0 {
                    spin_loop();
                    continue;
                }
                let c = rx.read_chunk(k).unwrap();
                let (a, b) = c.as_slices();
                sum += a.iter().chain(b).sum::<u64>();
                got += k as u64;
                c.commit_all();
            }
            sum
        },
    )
}

fn crossbeam_array(n: u64, cpus: Option<(usize, usize)>) -> Duration {
    let q = Arc::new(ArrayQueue::<u64>::new(CAP));
    let q2 = q.clone();
    pair(
        n,
        cpus,
        move || {
            for i in 0..n {
                while q2.push(i).is_err() {
                    spin_loop();
                }
            }
        },
        move || {
            let mut sum = 0;
            for _ in 0..n {
                loop {
                    if let Some(v) = q.pop() {
                        sum += v;
                        break;
                    }
                    spin_loop();
                }
            }
            sum
        },
    )
}

fn handoff_array_mpsc(n: u64, cpus: Option<(usize, usize)>) -> Duration {
    let q = ArrayMpsc::<u64>::on_heap(CAP).unwrap();
    let mut tx = q.producer().unwrap();
    let mut rx = q.consumer().unwrap();
    tx.set_patience(Patience::new(Wait::Spin));
    rx.set_patience(Patience::new(Wait::Spin));
    pair(
        n,
        cpus,
        move || (0..n).for_each(|i| tx.push(i).unwrap()),
        move || (0..n).map(|_| rx.pop().unwrap()).sum(),
    )
}

fn handoff_lane_mpsc(n: u64, cpus: Option<(usize, usize)>) -> Duration {
    let q = LaneMpsc::<u64>::on_heap(1, CAP).unwrap();
    let mut tx = q.producer().unwrap();
    let mut rx = q.consumer().unwrap();
    tx.set_patience(Patience::new(Wait::Spin));
    rx.set_patience(Patience::new(Wait::Spin));
    pair(
        n,
        cpus,
        move || (0..n).for_each(|i| tx.push(i).unwrap()),
        move || (0..n).map(|_| rx.pop().unwrap()).sum(),
    )
}

/// One thread pushes 64 then pops 64, over and over: the code path without cache-line
/// transfers. Returns the time for `n` push + pop pairs.
fn handoff_one_thread(n: u64, _: Option<(usize, usize)>) -> Duration {
    let (mut tx, mut rx) = Spsc::<u64>::new(CAP).unwrap();
    tx.set_patience(Patience::new(Wait::Spin));
    rx.set_patience(Patience::new(Wait::Spin));
    let t0 = Instant::now();
    let mut sum = 0u64;
    let mut i = 0;
    while i < n {
        let k = (n - i).min(64);
        for j in i..i + k {
            tx.push(j).unwrap();
        }
        for _ in 0..k {
            sum += rx.pop().unwrap();
        }
        i += k;
    }
    let el = t0.elapsed();
    assert_eq!(sum, n * (n - 1) / 2);
    el
}

fn rtrb_one_thread(n: u64, _: Option<(usize, usize)>) -> Duration {
    let (mut tx, mut rx) = rtrb::RingBuffer::<u64>::new(CAP);
    let t0 = Instant::now();
    let mut sum = 0u64;
    let mut i = 0;
    while i < n {
        let k = (n - i).min(64);
        for j in i..i + k {
            tx.push(j).unwrap();
        }
        for _ in 0..k {
            sum += rx.pop().unwrap();
        }
        i += k;
    }
    let el = t0.elapsed();
    assert_eq!(sum, n * (n - 1) / 2);
    el
}

/// Paired ratios printed after the table: (numerator row, denominator row, label).
const RATIOS: [(usize, usize, &str); 10] = [
    (0, 1, "handoff/rtrb, push/pop, two threads"),
    (6, 1, "handoff adaptive/rtrb, push/pop, two threads"),
    (0, 2, "handoff/crossbeam, push/pop, two threads"),
    (3, 1, "handoff/rtrb, try_push/try_pop, two threads"),
    (4, 5, "handoff/rtrb, chunks of 64, two threads"),
    (10, 11, "handoff/rtrb, one thread (code path)"),
    (12, 13, "handoff/crossbeam, one thread (code path)"),
    (14, 11, "handoff ArrayMpsc/rtrb, one thread (code path)"),
    (15, 11, "handoff LaneMpsc/rtrb, one thread (code path)"),
    (16, 1, "handoff/rtrb, try_, errors forgotten, two threads"),
];

fn crossbeam_one_thread(n: u64, _: Option<(usize, usize)>) -> Duration {
    let q = ArrayQueue::<u64>::new(CAP);
    let t0 = Instant::now();
    let mut sum = 0u64;
    let mut i = 0;
    while i < n {
        let k = (n - i).min(64);
        for j in i..i + k {
            q.push(j).unwrap();
        }
        for _ in 0..k {
            sum += q.pop().unwrap();
        }
        i += k;
    }
    let el = t0.elapsed();
    assert_eq!(sum, n * (n - 1) / 2);
    el
}

/// One thread pushes 64 then pops 64 through an `ArrayMpsc` with one producer and one
/// consumer: its code path without cache-line transfers.
fn handoff_array_one_thread(n: u64, _: Option<(usize, usize)>) -> Duration {
    let q = ArrayMpsc::<u64>::on_heap(CAP).unwrap();
    let mut tx = q.producer().unwrap();
    let mut rx = q.consumer().unwrap();
    tx.set_patience(Patience::new(Wait::Spin));
    rx.set_patience(Patience::new(Wait::Spin));
    let t0 = Instant::now();
    let mut sum = 0u64;
    let mut i = 0;
    while i < n {
        let k = (n - i).min(64);
        for j in i..i + k {
            tx.push(j).unwrap();
        }
        for _ in 0..k {
            sum += rx.pop().unwrap();
        }
        i += k;
    }
    let el = t0.elapsed();
    assert_eq!(sum, n * (n - 1) / 2);
    el
}

/// As `handoff_array_one_thread`, through a `LaneMpsc` with one lane.
fn handoff_lane_one_thread(n: u64, _: Option<(usize, usize)>) -> Duration {
    let q = LaneMpsc::<u64>::on_heap(1, CAP).unwrap();
    let mut tx = q.producer().unwrap();
    let mut rx = q.consumer().unwrap();
    tx.set_patience(Patience::new(Wait::Spin));
    rx.set_patience(Patience::new(Wait::Spin));
    let t0 = Instant::now();
    let mut sum = 0u64;
    let mut i = 0;
    while i < n {
        let k = (n - i).min(64);
        for j in i..i + k {
            tx.push(j).unwrap();
        }
        for _ in 0..k {
            sum += rx.pop().unwrap();
        }
        i += k;
    }
    let el = t0.elapsed();
    assert_eq!(sum, n * (n - 1) / 2);
    el
}

/// `handoff_try` with each `Err` forgotten instead of dropped: the same calls, without the
/// call to `QueueError`'s drop glue that the caller makes per failed poll (it is not
/// inlined: the enum has `String` variants), to show what that drop costs the loop.
fn handoff_try_forget(n: u64, cpus: Option<(usize, usize)>) -> Duration {
    let (mut tx, mut rx) = Spsc::<u64>::new(CAP).unwrap();
    pair(
        n,
        cpus,
        move || {
            for i in 0..n {
                while let Err(e) = tx.try_push(i) {
                    std::mem::forget(e);
                    spin_loop();
                }
            }
        },
        move || {
            let mut sum = 0;
            for _ in 0..n {
                loop {
                    match rx.try_pop() {
                        Ok(v) => {
                            sum += v;
                            break;
                        }
                        Err(e) => std::mem::forget(e),
                    }
                    spin_loop();
                }
            }
            sum
        },
    )
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args
        .next()
        .map_or(10_000_000, |a| a.parse().expect("MESSAGES"));
    let runs: usize = args.next().map_or(7, |a| a.parse().expect("RUNS"));
    let filter = args.next().unwrap_or_default();
    let cpus = handoff::sys::allowed_cpus().unwrap_or_default();
    let place = (cpus.len() >= 2).then(|| (cpus[0], cpus[1]));
    let contenders: [(&str, Run); 17] = [
        ("handoff Spsc push/pop (spin)", handoff_single),
        ("rtrb push/pop (spin)", rtrb_single),
        ("crossbeam ArrayQueue push/pop (spin)", crossbeam_array),
        ("handoff Spsc try_push/try_pop (spin)", handoff_try),
        ("handoff Spsc chunks of 64 (spin)", handoff_chunks),
        ("rtrb chunks of 64 (spin)", rtrb_chunks),
        ("handoff Spsc push/pop (adaptive)", handoff_single_adaptive),
        ("handoff ArrayMpsc, 1 producer (spin)", handoff_array_mpsc),
        ("handoff LaneMpsc, 1 producer (spin)", handoff_lane_mpsc),
        ("handoff Spsc push/pop (spin), again", handoff_single),
        ("handoff Spsc, one thread (code path)", handoff_one_thread),
        ("rtrb, one thread (code path)", rtrb_one_thread),
        ("handoff Spsc, one thread, again", handoff_one_thread),
        ("crossbeam, one thread (code path)", crossbeam_one_thread),
        (
            "handoff ArrayMpsc, one thread (code path)",
            handoff_array_one_thread,
        ),
        (
            "handoff LaneMpsc, one thread (code path)",
            handoff_lane_one_thread,
        ),
        (
            "handoff Spsc try_push/try_pop, errors forgotten (spin)",
            handoff_try_forget,
        ),
    ];
    let chosen = |name: &str| filter.is_empty() || filter.split('|').any(|f| name.contains(f));
    println!(
        "{n} u64 messages per run, {runs} runs, capacity {CAP}, producer/consumer on CPUs {place:?}"
    );
    let mut rates: Vec<Vec<f64>> = vec![Vec::new(); contenders.len()];
    for _ in 0..runs {
        for (k, (name, run)) in contenders.iter().enumerate() {
            if chosen(name) {
                let el = run(n, place);
                rates[k].push(n as f64 / el.as_secs_f64() / 1e6);
            }
        }
    }
    let median = |r: &[f64]| {
        let mut r = r.to_vec();
        r.sort_by(f64::total_cmp);
        (r[r.len() / 2], r[0], r[r.len() - 1])
    };
    println!(
        "{:<40} {:>10} {:>10} {:>10}",
        "queue", "median", "min", "max"
    );
    for ((name, _), r) in contenders.iter().zip(&rates) {
        if !r.is_empty() {
            let (m, lo, hi) = median(r);
            println!("{name:<40} {m:>10.1} {lo:>10.1} {hi:>10.1}   Mmsg/s");
        }
    }
    // Each run's ratio between two rows that ran back to back, then the median and range of
    // those ratios: a slow phase of the machine hits both sides of a ratio.
    for (a, b, label) in RATIOS {
        if rates[a].is_empty() || rates[b].is_empty() {
            continue;
        }
        let r: Vec<f64> = rates[a].iter().zip(&rates[b]).map(|(x, y)| x / y).collect();
        let (m, lo, hi) = median(&r);
        println!("{label:<44} {m:>6.2}x  (runs {lo:.2}x .. {hi:.2}x)");
    }
}
