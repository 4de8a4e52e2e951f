//! The Rust side of `examples/python/bench.py` (a benchmark, not a test): the producer both
//! consumers receive from, and the Rust consumer the Python one is compared with.
//!
//! ```text
//! bench_peer produce NAME BYTES REPS WAIT   creates a one-block channel, prints "name=<full>";
//!                                           per rep: loan, fill, pause 200 µs (the consumer
//!                                           is waiting by then), stamp, publish
//! bench_peer consume NAME BYTES REPS WAIT   per rep: receive, latency = now - stamp, read =
//!                                           time to sum the block's f64s; prints one JSON line
//! ```
//!
//! Block layout: f64 words; word 0 holds the publish time (CLOCK_MONOTONIC ns, as u64 bits),
//! word 1 the rep, word j >= 2 the value j * 0.5 (so the sum of words 2.. has a closed form).

use std::time::{Duration, Instant};

use handoff::channel::{Channel, ChannelConfig};
use handoff::sync::{Patience, Wait};
use handoff::sys::monotonic_ns;
use handoff::sys::Deadline;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// Sum of f64s with 8 independent accumulators (vectorizes; numpy's `sum` does the same).
fn sum(xs: &[f64]) -> f64 {
    let mut acc = [0.0f64; 8];
    let chunks = xs.chunks_exact(8);
    let rest = chunks.remainder();
    for c in chunks {
        for k in 0..8 {
            acc[k] += c[k];
        }
    }
    acc.iter().sum::<f64>() + rest.iter().sum::<f64>()
}

/// Closed form of the sum of words 2..n: 0.5 * (sum of j for j in 2..n).
fn expected_tail(n: usize) -> f64 {
    let n = n as f64;
    0.5 * (n * (n - 1.0) / 2.0 - 1.0)
}

fn median(v: &mut [u64]) -> u64 {
    v.sort_unstable();
    v[v.len() / 2]
}

fn produce(name: &str, bytes: usize, reps: u64, how: Wait) -> Res<()> {
    let chan = Channel::create(name, ChannelConfig::new(bytes, 1))?;
    println!("name={}", chan.name().unwrap_or(name));
    let mut tx = chan.producer()?;
    tx.set_patience(Patience::new(how).with_timeout(Some(Duration::from_secs(60))));
    for rep in 0..reps {
        let mut blk = tx.loan()?;
        let w = blk.as_mut_slice::<f64>();
        w[1] = rep as f64;
        for (j, x) in w.iter_mut().enumerate().skip(2) {
            *x = j as f64 * 0.5;
        }
        std::thread::sleep(Duration::from_micros(200));
        w[0] = f64::from_bits(monotonic_ns());
        blk.publish();
    }
    // Wait for the consumer to take the last block before the channel goes.
    let _ = tx.loan();
    Ok(())
}

fn consume(name: &str, bytes: usize, reps: u64, how: Wait) -> Res<()> {
    let chan = Channel::open(
        name,
        ChannelConfig::new(bytes, 1),
        Deadline::after(Duration::from_secs(10)),
    )?;
    let mut rx = chan.consumer()?;
    rx.set_patience(Patience::new(how).with_timeout(Some(Duration::from_secs(60))));
    let (mut lat, mut read) = (Vec::new(), Vec::new());
    for rep in 0..reps {
        let got = rx.recv()?;
        let now = monotonic_ns();
        let w = got.as_slice::<f64>();
        lat.push(now.saturating_sub(w[0].to_bits()));
        let t = Instant::now();
        let s = std::hint::black_box(sum(std::hint::black_box(w)));
        read.push(t.elapsed().as_nanos() as u64);
        let tail = s - w[0] - w[1];
        if w[1] != rep as f64 || (tail - expected_tail(w.len())).abs() > 1e-6 * tail.abs().max(1.0)
        {
            return Err(format!("rep {rep}: block {} with sum {tail}", w[1]).into());
        }
    }
    // Warm-up: the first 10% are dropped.
    let skip = (reps / 10) as usize;
    println!(
        "{{\"consumer\": \"rust\", \"bytes\": {bytes}, \"latency_ns\": {}, \"read_ns\": {}}}",
        median(&mut lat[skip..]),
        median(&mut read[skip..])
    );
    Ok(())
}

fn main() -> Res<()> {
    let a: Vec<String> = std::env::args().collect();
    if a.len() != 6 {
        return Err("usage: bench_peer produce|consume NAME BYTES REPS WAIT".into());
    }
    let (bytes, reps, how): (usize, u64, Wait) = (a[3].parse()?, a[4].parse()?, a[5].parse()?);
    match a[1].as_str() {
        "produce" => produce(&a[2], bytes, reps, how),
        "consume" => consume(&a[2], bytes, reps, how),
        m => Err(format!("unknown mode {m}: produce or consume").into()),
    }
}
