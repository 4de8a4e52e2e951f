//! One run of a point with producers and consumers as threads of this process, and the
//! consumer threads of a message run whose producers are processes.

use std::sync::{Barrier, Mutex};
use std::time::Instant;

use handoff::queue::{FrameConsumer, FrameQueue, QueueError};

use super::super::rt_common::{join_all, pin};
use super::payload::{tag, Seen};
use super::transfer::{self, produce, put_len, recv_msg, send_msg, STUCK};
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
    /// A producer found no free window slot before its deadline ([`STUCK`]).
    #[error("producer {0}: no free window slot in {STUCK:?}")]
    NoFreeSlot(usize),
    /// A consumer waited past its deadline for a transfer.
    #[error("consumer {consumer}: transfer {transfer} never arrived")]
    NeverArrived { consumer: usize, transfer: u64 },
}

/// Runs `pt` on threads: `n` producers (CPUs round-robin first) and `n` consumers.
pub fn run(pt: &Point, cpus: &[usize]) -> Result<RunOut, RunError> {
    match pt.method {
        Method::Msg => run_msg(pt, cpus),
        Method::Rma => run_rma(pt, cpus),
    }
}

/// Runs `n` producer and `n` consumer threads, pinned and let go together: producer `p`
/// sends its transfers from a buffer of `len` bytes by `send(p, k, buffer, deadline)`
/// ([`produce`]), consumer `c` takes its share by `consume(c)` ([`consumers`]). Throughput
/// is from the first producer's start to the last consumer's end, both taken by the threads
/// themselves (a third thread's clock read could be descheduled past them).
fn run_pairs(
    pt: &Point,
    cpus: &[usize],
    len: usize,
    send: impl Fn(usize, u64, &[u8], Instant) -> Result<(), RunError> + Sync,
    consume: impl Fn(usize) -> Result<Seen, RunError> + Sync,
) -> Result<RunOut, RunError> {
    let n = pt.n;
    let barrier = Barrier::new(2 * n + 1);
    std::thread::scope(|s| {
        let (barrier, send) = (&barrier, &send);
        let producers: Vec<_> = (0..n)
            .map(|p| {
                s.spawn(move || {
                    pin(producer_cpu(cpus, p));
                    let mut buf = vec![0u8; len];
                    barrier.wait();
                    let started = Instant::now();
                    let (p64, size, per, corrupt) = (p as u64, pt.size, pt.per, pt.corrupt_at);
                    let lat = produce(&mut buf, false, size, p64, per, corrupt, |k, b, until| {
                        send(p, k, b, until)
                    })?;
                    Ok::<_, RunError>((started, lat))
                })
            })
            .collect();
        let (seen, end) = consumers(pt, cpus, barrier, consume)?;
        let mut out = RunOut {
            seen,
            ..RunOut::default()
        };
        let mut starts = Vec::new();
        for r in join_all(producers, || RunError::Panicked("producer")) {
            let (t, lat) = r?;
            starts.push(t);
            out.lat_us.push(lat);
        }
        let start = starts.into_iter().min().ok_or(RunError::NothingRan)?;
        out.bytes_per_s = pt.bytes() / end.duration_since(start).as_secs_f64().max(1e-9);
        Ok(out)
    })
}

/// Runs consumer `c` of `pt.n` by `consume(c)` on a thread of its own, pinned as
/// [`consumer_cpu`] and let go by `go` (which this thread passes too, after starting them):
/// what they saw, merged, and when the last one ended (by its own clock).
pub fn consumers(
    pt: &Point,
    cpus: &[usize],
    go: &Barrier,
    consume: impl Fn(usize) -> Result<Seen, RunError> + Sync,
) -> Result<(Seen, Instant), RunError> {
    let n = pt.n;
    std::thread::scope(|s| {
        let consume = &consume;
        let hs: Vec<_> = (0..n)
            .map(|c| {
                s.spawn(move || {
                    pin(consumer_cpu(cpus, n, c));
                    go.wait();
                    Ok::<_, RunError>((consume(c)?, Instant::now()))
                })
            })
            .collect();
        go.wait();
        let (mut seen, mut end) = (Seen::new(n), None);
        for r in join_all(hs, || RunError::Panicked("consumer")) {
            let (s, t) = r?;
            seen.merge(&s);
            end = end.max(Some(t));
        }
        Ok((seen, end.ok_or(RunError::NothingRan)?))
    })
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
    let total = pt.per * n as u64;
    let taken = Mutex::new(0u64);
    let quota = (pt.layout == Layout::Xconn).then_some(pt.per);
    run_pairs(
        pt,
        cpus,
        pt.size,
        |p, k, buf, _| {
            // One connection's send end serves one thread at a time (XPYC: the producers take
            // turns; XConn: the lock is never contended).
            let mut g = txs[p % conns]
                .lock()
                .map_err(|_| RunError::Panicked("producer"))?;
            Ok(send_msg(&mut g, tag(p as u64, k), buf)?)
        },
        |c| consume_msg(&rxs[c % conns], n, pt.size, quota, &taken, total),
    )
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
) -> Result<Seen, RunError> {
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
    Ok(seen)
}

fn run_rma(pt: &Point, cpus: &[usize]) -> Result<RunOut, RunError> {
    let n = pt.n;
    let conns = if pt.layout == Layout::Xconn { n } else { 1 };
    let len = put_len(pt.size, pt.granularity);
    let windows: Vec<Window> = (0..conns)
        .map(|_| Window::new(transfer::depth(len), len))
        .collect();
    // XPYC: the producers share the window's ticket counter, and so do the consumers; XConn:
    // one window each.
    let shared = conns == 1 && n > 1;
    let total = pt.per * n as u64;
    run_pairs(
        pt,
        cpus,
        len,
        |p, k, buf, until| {
            let w = &windows[p % conns];
            let g = if shared { w.next_send_ticket() } else { k };
            w.put_signal(g, buf, tag(p as u64, k), until)
                .map_err(|_| RunError::NoFreeSlot(p))
        },
        |c| {
            let w = &windows[c % conns];
            let mut seen = Seen::new(n);
            let mut k = 0u64;
            loop {
                let g = if shared { w.next_recv_ticket() } else { k };
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
            Ok(seen)
        },
    )
}
