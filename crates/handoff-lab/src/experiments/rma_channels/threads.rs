//! One run of a point with producers and consumers as threads of this process, and the
//! consumer threads of a message run whose producers are processes.

use std::sync::{Barrier, Mutex};
use std::time::{Duration, Instant};

use handoff::queue::{FrameConsumer, FrameQueue, QueueError};

use super::super::rt_common::pin;
use super::payload::{fill, tag, Seen};
use super::transfer::{self, mean_p99_us, put_len, recv_msg, send_msg, STUCK};
use super::window::Window;
use super::{consumer_cpu, producer_cpu, Layout, Method, Point, RunOut};

/// Why a run on threads could not finish (the data checks are counted, not errors).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A producer or consumer thread panicked (its lock is poisoned, or its join failed).
    #[error("a {0} panicked")]
    Panicked(&'static str),
    /// The point had no producer or consumer.
    #[error("no producer or consumer ran")]
    NothingRan,
    /// The message queue failed (creating it, or a loan or receive timed out).
    #[error("message queue: {0}")]
    Queue(#[from] QueueError),
    /// A producer found no free window slot before its deadline.
    #[error("producer {producer}: no free window slot in {after:?}")]
    NoFreeSlot { producer: usize, after: Duration },
    /// A consumer waited past its deadline for a transfer.
    #[error("consumer {consumer}: transfer {transfer} never arrived")]
    NeverArrived { consumer: usize, transfer: u64 },
}

/// What a producer thread returns: when it started and its transfer times (ns).
type Times = Result<(Instant, Vec<u64>), RunError>;

/// Runs `pt` on threads: `n` producers (CPUs round-robin first) and `n` consumers.
pub fn run(pt: &Point, cpus: &[usize]) -> Result<RunOut, RunError> {
    match pt.method {
        Method::Msg => run_msg(pt, cpus),
        Method::Rma => run_rma(pt, cpus),
    }
}

/// The source buffer of producer `p`'s transfer `k`: the pattern over `size` bytes, zero
/// padding up to `len` (the RMA granularity).
fn source(buf: &mut [u8], pt: &Point, p: u64, k: u64) {
    fill(&mut buf[..pt.size], tag(p, k));
    if p == 0 && pt.corrupt_at == Some(k) {
        buf[pt.size - 1] ^= 1;
    }
}

fn join_all(
    producers: Vec<std::thread::ScopedJoinHandle<'_, Times>>,
    consumers: Vec<std::thread::ScopedJoinHandle<'_, Result<(Seen, Instant), RunError>>>,
    n: usize,
    bytes: f64,
) -> Result<RunOut, RunError> {
    let mut out = RunOut {
        seen: Seen::new(n),
        ..RunOut::default()
    };
    let mut ends = Vec::new();
    for h in consumers {
        let (s, t) = h.join().map_err(|_| RunError::Panicked("consumer"))??;
        out.seen.merge(&s);
        ends.push(t);
    }
    let mut starts = Vec::new();
    for h in producers {
        let (t, ns) = h.join().map_err(|_| RunError::Panicked("producer"))??;
        starts.push(t);
        let (m, p99) = mean_p99_us(&ns);
        out.lat_mean_us.push(m);
        out.lat_p99_us.push(p99);
    }
    // From the first producer's start to the last consumer's end (both taken by the threads
    // themselves: a third thread's clock read could be descheduled past them).
    let (Some(start), Some(end)) = (starts.into_iter().min(), ends.into_iter().max()) else {
        return Err(RunError::NothingRan);
    };
    out.bytes_per_s = bytes / end.duration_since(start).as_secs_f64().max(1e-9);
    Ok(out)
}

fn run_msg(pt: &Point, cpus: &[usize]) -> Result<RunOut, RunError> {
    let n = pt.n;
    let conns = if pt.layout == Layout::Xconn { n } else { 1 };
    let mut txs = Vec::new();
    let mut rxs = Vec::new();
    for _ in 0..conns {
        let (tx, rx) = FrameQueue::new(transfer::BUFFER)?;
        txs.push(Mutex::new(tx));
        rxs.push(Mutex::new(rx));
    }
    let barrier = Barrier::new(2 * n + 1);
    let total = pt.per * n as u64;
    let taken = Mutex::new(0u64);
    std::thread::scope(|s| {
        let (txs, rxs, barrier, taken) = (&txs, &rxs, &barrier, &taken);
        let mut producers = Vec::new();
        for p in 0..n {
            producers.push(s.spawn(move || -> Times {
                pin(producer_cpu(cpus, p));
                let tx = &txs[p % conns];
                let mut buf = vec![0u8; pt.size];
                let mut ns = Vec::with_capacity(pt.per as usize);
                barrier.wait();
                let started = Instant::now();
                for k in 0..pt.per {
                    source(&mut buf, pt, p as u64, k);
                    let t0 = Instant::now();
                    // One connection's send end serves one thread at a time (XPYC: the
                    // producers take turns; XConn: the lock is never contended).
                    let mut g = tx.lock().map_err(|_| RunError::Panicked("producer"))?;
                    send_msg(&mut g, tag(p as u64, k), &buf)?;
                    drop(g);
                    ns.push(t0.elapsed().as_nanos() as u64);
                }
                Ok((started, ns))
            }));
        }
        let mut consumers = Vec::new();
        for c in 0..n {
            consumers.push(s.spawn(move || {
                pin(consumer_cpu(cpus, n, c));
                barrier.wait();
                let rx = &rxs[c % conns];
                let quota = (pt.layout == Layout::Xconn).then_some(pt.per);
                consume_msg(rx, n, pt.size, quota, taken, total)
            }));
        }
        barrier.wait();
        join_all(producers, consumers, n, (total * pt.size as u64) as f64)
    })
}

/// A consumer of messages: takes `quota` messages from `rx`, or (XPYC, `quota` None) keeps
/// taking until `taken` reaches `total`; copies each out and checks it.
pub fn consume_msg(
    rx: &Mutex<FrameConsumer>,
    senders: usize,
    size: usize,
    quota: Option<u64>,
    taken: &Mutex<u64>,
    total: u64,
) -> Result<(Seen, Instant), RunError> {
    let mut seen = Seen::new(senders);
    let mut buf = vec![0u8; size];
    let mut mine = 0u64;
    loop {
        if quota.is_some_and(|q| mine == q) {
            break;
        }
        let mut g = rx.lock().map_err(|_| RunError::Panicked("consumer"))?;
        if quota.is_none() {
            let mut t = taken.lock().map_err(|_| RunError::Panicked("consumer"))?;
            if *t == total {
                break;
            }
            *t += 1;
        }
        let got = recv_msg(&mut g, &mut buf)?;
        drop(g);
        seen.take(got, &buf);
        mine += 1;
    }
    Ok((seen, Instant::now()))
}

fn run_rma(pt: &Point, cpus: &[usize]) -> Result<RunOut, RunError> {
    let n = pt.n;
    let conns = if pt.layout == Layout::Xconn { n } else { 1 };
    let len = put_len(pt.size, pt.granularity);
    let windows: Vec<Window> = (0..conns)
        .map(|_| Window::new(transfer::depth(len), len))
        .collect();
    let barrier = Barrier::new(2 * n + 1);
    let total = pt.per * n as u64;
    std::thread::scope(|s| {
        let (windows, barrier) = (&windows, &barrier);
        let mut producers = Vec::new();
        for p in 0..n {
            producers.push(s.spawn(move || -> Times {
                pin(producer_cpu(cpus, p));
                let w = &windows[p % conns];
                let mut buf = vec![0u8; len];
                let mut ns = Vec::with_capacity(pt.per as usize);
                barrier.wait();
                let started = Instant::now();
                for k in 0..pt.per {
                    source(&mut buf, pt, p as u64, k);
                    let t0 = Instant::now();
                    let until = t0 + STUCK;
                    // XPYC: the producers share the window's ticket counter; XConn: one each.
                    let g = if conns == 1 && n > 1 {
                        w.next_send_ticket()
                    } else {
                        k
                    };
                    w.put_signal(g, &buf, tag(p as u64, k), until)
                        .map_err(|_| RunError::NoFreeSlot {
                            producer: p,
                            after: STUCK,
                        })?;
                    ns.push(t0.elapsed().as_nanos() as u64);
                }
                Ok((started, ns))
            }));
        }
        let mut consumers = Vec::new();
        for c in 0..n {
            consumers.push(s.spawn(move || -> Result<(Seen, Instant), RunError> {
                pin(consumer_cpu(cpus, n, c));
                let w = &windows[c % conns];
                let mut seen = Seen::new(n);
                barrier.wait();
                let mut k = 0u64;
                loop {
                    let g = if conns == 1 && n > 1 {
                        w.next_recv_ticket()
                    } else {
                        k
                    };
                    if g >= if conns == 1 { total } else { pt.per } {
                        break;
                    }
                    let until = Instant::now() + STUCK;
                    w.get(g, pt.size, until, |t, b| seen.take(t, b))
                        .map_err(|_| RunError::NeverArrived {
                            consumer: c,
                            transfer: g,
                        })?;
                    k += 1;
                }
                Ok((seen, Instant::now()))
            }));
        }
        barrier.wait();
        join_all(producers, consumers, n, (total * pt.size as u64) as f64)
    })
}
