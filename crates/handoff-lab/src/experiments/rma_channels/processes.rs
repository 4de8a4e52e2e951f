//! One run of a point with producers as processes.
//!
//! - Messages: this process creates one named frame queue per connection, starts one
//!   producer process per queue (`handoff __worker rma-channels msg ...`) and consumes with
//!   threads, as `channels` does. XConn: n queues, one producer process and one consumer
//!   thread each. XPYC: one queue, one producer process with n threads taking turns at its
//!   send end, n consumer threads taking turns at its receive end.
//! - RMA: XConn: a team of `2n` PEs (`team::Launch`); PE `p < n` puts into PE `n + p`'s
//!   window with `put_signal`, the consumer checks each slot in place and signals it free.
//!   XPYC: a team of 2 PEs with n threads each (`Team` is `Sync`): every producer thread of
//!   PE 0 takes the next ticket of the one connection (a window, its completion signals and
//!   its free counts), every consumer thread of PE 1 the next transfer to check.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Barrier, Mutex};
use std::time::Instant;

use handoff::queue::{FrameQueue, QueueError};
use handoff::team::{Cmp, ShmTransport, SignalOp, Team, TeamError, Transport};
use serde::{Deserialize, Serialize};

use super::super::launcher::{gate_wait, Workers};
use super::super::rt_common::{arg, join_all, open_deadline, pin, run_id, POINT_DEADLINE};
use super::super::team_run::{self, PeOutput, TeamSpec};
use super::payload::{tag, Seen};
use super::threads;
use super::transfer::{self, produce, put_len, send_msg, STUCK};
use super::{consumer_cpu, producer_cpu, Layout, Point, RunOut, NAME};
use crate::bench::experiment::{BenchError, RunCtx};

/// Runs a message point with producer processes.
pub fn run_msg(pt: &Point, ctx: &RunCtx<'_>, cpus: &[usize]) -> Result<RunOut, BenchError> {
    let n = pt.n;
    let xpyc = pt.layout == Layout::Xpyc;
    // XConn: a queue, a producer process and a consumer thread per connection; XPYC: one
    // queue, one producer process of n threads, n consumer threads.
    let (conns, threads) = if xpyc { (1, n) } else { (n, 1) };
    let qe = |e: QueueError| BenchError::failed(NAME, e);
    let id = run_id();
    let queues = (0..conns)
        .map(|i| FrameQueue::create(&format!("rmach{id}-{i}"), transfer::BUFFER))
        .collect::<Result<Vec<_>, _>>()
        .map_err(qe)?;
    let rxs = queues
        .iter()
        .map(|q| q.consumer().map(Mutex::new))
        .collect::<Result<Vec<_>, _>>()
        .map_err(qe)?;
    // Each producer process gets the run's CPUs: its threads pin themselves as producers.
    let cpu_list: Vec<String> = cpus.iter().map(usize::to_string).collect();
    let mut w = Workers::new(NAME, &ctx.exe, &ctx.args);
    for (p, q) in queues.iter().enumerate() {
        w.spawn(&[
            "msg".into(),
            q.name().unwrap_or_default().to_string(),
            pt.size.to_string(),
            pt.per.to_string(),
            p.to_string(),
            cpu_list.join(","),
            pt.corrupt_at.map_or("-".into(), |k| k.to_string()),
            threads.to_string(),
        ])?;
    }
    w.gate()?;
    let start = Instant::now();
    let (taken, total) = (Mutex::new(0), pt.per * n as u64);
    // XConn: producer p writes only to queue p, tagging its transfers as sender p. XPYC: the
    // consumers take turns until `total` are taken.
    let quota = (!xpyc).then_some(pt.per);
    let got = threads::consumers(pt, cpus, &Barrier::new(n + 1), |c| {
        threads::consume_msg(&rxs[c % conns], n, pt.size, quota, &taken, total)
    });
    let outs = w.finish(Instant::now() + POINT_DEADLINE)?;
    let (seen, end) = got.map_err(|e| BenchError::failed(NAME, e))?;
    let mut out = RunOut {
        seen,
        ..RunOut::default()
    };
    for (p, text) in outs.iter().enumerate() {
        let v: Vec<f64> = text
            .split_whitespace()
            .filter_map(|x| x.parse().ok())
            .collect();
        if v.len() != 2 * threads {
            return Err(BenchError::failed(
                NAME,
                format!(
                    "producer process {p} printed {text:?}, not the mean and p99 of its {threads} thread(s)"
                ),
            ));
        }
        out.lat_us.extend(v.chunks_exact(2).map(|t| (t[0], t[1])));
    }
    out.bytes_per_s = pt.bytes() / end.duration_since(start).as_secs_f64().max(1e-9);
    Ok(out)
}

/// A producer process of a message run: `msg NAME SIZE PER SENDER CPUS CORRUPT THREADS`:
/// THREADS producer threads (default 1) take turns at the queue's send end, thread `t`
/// sending as sender `SENDER + t` and pinned as that producer is ([`producer_cpu`] of the
/// run's comma list CPUS; empty: unpinned); CORRUPT: the transfer whose last byte sender 0
/// flips, test only, or `-`.
/// Prints each thread's mean and p99 transfer time in µs, one line per thread.
pub fn msg_worker(args: &[String]) -> Result<(), BenchError> {
    let name: String = arg(NAME, args, 1)?;
    let (size, per, first): (usize, u64, u64) = (
        arg(NAME, args, 2)?,
        arg(NAME, args, 3)?,
        arg(NAME, args, 4)?,
    );
    let cpus: Vec<usize> = args
        .get(5)
        .map(|c| c.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_default();
    let corrupt_at: Option<u64> = args.get(6).and_then(|a| a.parse().ok());
    let threads: usize = args.get(7).and_then(|a| a.parse().ok()).unwrap_or(1).max(1);
    let qe = |e: QueueError| BenchError::failed(NAME, e);
    let q = FrameQueue::open(&name, transfer::BUFFER, open_deadline()).map_err(qe)?;
    let tx = Mutex::new(q.producer().map_err(qe)?);
    gate_wait(NAME)?;
    let times: Vec<Result<(f64, f64), BenchError>> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..threads)
            .map(|t| {
                let (tx, cpus) = (&tx, &cpus);
                s.spawn(move || {
                    let p = first + t as u64;
                    pin(producer_cpu(cpus, p as usize));
                    let mut buf = vec![0u8; size];
                    produce(&mut buf, false, size, p, per, corrupt_at, |k, buf, _| {
                        // One send end: the threads take turns (XPYC).
                        let mut g = tx
                            .lock()
                            .map_err(|_| BenchError::failed(NAME, "a producer panicked"))?;
                        send_msg(&mut g, tag(p, k), buf).map_err(qe)
                    })
                })
            })
            .collect();
        join_all(hs, || {
            BenchError::failed(NAME, "a producer thread panicked")
        })
    });
    // Dropping the producer closes the queue; the consumer still receives every committed
    // frame before it sees the close.
    drop(tx);
    let mut lines = String::new();
    for t in times {
        let (m, p99) = t?;
        lines.push_str(&format!("{m} {p99}\n"));
    }
    print!("{lines}");
    Ok(())
}

/// What one PE of an RMA team runs (the worker's JSON spec).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PeSpec {
    /// Connections (= producer PEs = consumer PEs).
    pub n: usize,
    /// Payload bytes.
    pub size: usize,
    /// Bytes each put moves (the size rounded up to the RMA granularity).
    pub put_len: usize,
    /// Window slots.
    pub depth: usize,
    /// Transfers per producer.
    pub per: u64,
    /// Test only: producer 0 flips the last byte of its transfer `corrupt_at`.
    pub corrupt_at: Option<u64>,
    /// XConn: `2n` PEs of one thread; XPYC: 2 PEs of `n` threads each.
    pub layout: Layout,
    /// XPYC: producer thread `t` runs on [`producer_cpu`], consumer thread `t` on
    /// [`consumer_cpu`] of these (empty: where its PE runs).
    pub cpus: Vec<usize>,
}

team_run::pe_body!(PeSpec, pe_main, STUCK);

/// Producer PE `p < n` → consumer PE `n + p`. Producer samples: [mean µs, p99 µs];
/// consumer samples: [elapsed s, checked, wrong, then per sender: transfers, sum of
/// sequence numbers].
fn pe_main<X: Transport>(team: &Team<X>, spec: &PeSpec) -> Result<PeOutput, TeamError> {
    let me = team.rank();
    let window = team.alloc::<u8>(spec.depth * spec.put_len)?;
    let posted = team.alloc::<u64>(spec.depth)?;
    let freed = team.alloc::<u64>(spec.depth)?;
    let mut out = PeOutput::of(me);
    team.barrier_all()?;
    let depth = spec.depth as u64;
    if me < spec.n {
        let peer = spec.n + me;
        let mut src = vec![0u8; spec.put_len];
        let (size, per, corrupt, p) = (spec.size, spec.per, spec.corrupt_at, me as u64);
        let (m, p99) = produce(&mut src, false, size, p, per, corrupt, |k, src, _| {
            let s = (k % depth) as usize;
            if k >= depth {
                // The consumer has freed this slot k / depth times once its earlier uses are
                // read (its signal is a Release RMW, our wait an Acquire load).
                team.signal_wait_until(freed.at(s), Cmp::Ge, k / depth)?;
            }
            team.put_signal(
                &window,
                s * spec.put_len,
                src,
                posted.at(s),
                SignalOp::Set(k + 1),
                peer,
            )
        })?;
        out.samples = vec![m, p99];
    } else {
        let sender = me - spec.n;
        let mut seen = Seen::new(spec.n);
        let t0 = Instant::now();
        for k in 0..spec.per {
            let s = (k % depth) as usize;
            team.signal_wait_until(posted.at(s), Cmp::Ge, k + 1)?;
            let off = s * spec.put_len;
            let bytes = &team.local(&window)[off..off + spec.size];
            // One producer per connection: the consumer knows whose transfer k it is.
            seen.take(tag(sender as u64, k), bytes);
            team.signal(freed.at(s), SignalOp::Add(1), sender)?;
        }
        consumed(&mut out, t0.elapsed().as_secs_f64(), &seen);
    }
    Ok(out)
}

/// A consumer PE's output: its samples (see [`pe_main`]), failed when a transfer was wrong.
fn consumed(out: &mut PeOutput, elapsed: f64, seen: &Seen) {
    if seen.wrong > 0 {
        out.fail(format!(
            "PE {}: {} of {} transfers had a wrong byte",
            out.rank, seen.wrong, seen.checked
        ));
    }
    out.samples = vec![elapsed, seen.checked as f64, seen.wrong as f64];
    for &(c, sum) in &seen.per_sender {
        out.samples.extend([c as f64, sum as f64]);
    }
}

/// A worker PE of an XPYC RMA run: joins the shared-memory team (whose `Team` is `Sync`, so
/// the PE's threads share it) and prints its output line.
pub fn xpyc_worker(spec: &PeSpec) -> Result<(), BenchError> {
    let mut team =
        Team::from_env().map_err(|e| BenchError::failed(NAME, format!("joining the team: {e}")))?;
    team.set_patience(team.patience().with_timeout(Some(STUCK)))
        .map_err(|e| team_run::pe_failed(NAME, e))?;
    let out = pe_xpyc(&team, spec).map_err(|e| team_run::pe_failed(NAME, e))?;
    team_run::finish(NAME, team, &out)
}

/// Why a PE of the XPYC run failed: a team operation, or one of its threads panicked.
#[derive(Debug, thiserror::Error)]
enum XpycError {
    #[error(transparent)]
    Team(#[from] TeamError),
    #[error("a {0} thread panicked")]
    ThreadPanicked(&'static str),
}

/// XPYC between two PEs: PE 0's `n` producer threads → one connection → PE 1's `n` consumer
/// threads. A window slot is the transfer's 8-byte tag followed by its `put_len` bytes;
/// ticket `g` (taken in turn by the threads of each side) uses slot `g % depth`. Producer
/// samples: [mean µs, p99 µs] per thread; consumer samples as [`pe_main`]'s.
fn pe_xpyc(team: &Team<ShmTransport>, spec: &PeSpec) -> Result<PeOutput, XpycError> {
    let me = team.rank();
    let (n, depth) = (spec.n, spec.depth as u64);
    let stride = 8 + spec.put_len;
    let window = team.alloc::<u8>(spec.depth * stride)?;
    let posted = team.alloc::<u64>(spec.depth)?;
    let freed = team.alloc::<u64>(spec.depth)?;
    let mut out = PeOutput::of(me);
    team.barrier_all()?;
    // Each side's tickets: a plain counter shared by the PE's threads (Relaxed: it only
    // hands out numbers; the slot's data is ordered by the signals).
    let ticket = AtomicU64::new(0);
    let total = spec.per * n as u64;
    let (window, posted, freed, ticket) = (&window, &posted, &freed, &ticket);
    if me == 0 {
        let times: Vec<Result<(f64, f64), XpycError>> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..n)
                .map(|t| {
                    s.spawn(move || {
                        pin(producer_cpu(&spec.cpus, t));
                        let mut src = vec![0u8; stride];
                        let (size, per, corrupt) = (spec.size, spec.per, spec.corrupt_at);
                        produce(&mut src, true, size, t as u64, per, corrupt, |_, src, _| {
                            let g = ticket.fetch_add(1, Ordering::Relaxed);
                            let slot = (g % depth) as usize;
                            if g >= depth {
                                // Every earlier use of the slot is read: the consumers' frees
                                // (Release RMWs) pair with this Acquire wait.
                                team.signal_wait_until(freed.at(slot), Cmp::Ge, g / depth)?;
                            }
                            team.put_signal(
                                window,
                                slot * stride,
                                src,
                                posted.at(slot),
                                SignalOp::Set(g + 1),
                                1,
                            )?;
                            Ok(())
                        })
                    })
                })
                .collect();
            join_all(hs, || XpycError::ThreadPanicked("producer"))
        });
        for t in times {
            let (m, p99) = t?;
            out.samples.extend([m, p99]);
        }
    } else {
        let t0 = Instant::now();
        let seen: Vec<Result<Seen, XpycError>> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..n)
                .map(|c| {
                    s.spawn(move || {
                        pin(consumer_cpu(&spec.cpus, n, c));
                        let mut seen = Seen::new(n);
                        loop {
                            let g = ticket.fetch_add(1, Ordering::Relaxed);
                            if g >= total {
                                break;
                            }
                            let slot = (g % depth) as usize;
                            // The producer's put_signal (Release) of ticket g pairs with
                            // this Acquire wait.
                            team.signal_wait_until(posted.at(slot), Cmp::Ge, g + 1)?;
                            let at = slot * stride;
                            let b = &team.local(window)[at..at + 8 + spec.size];
                            let tg = u64::from_le_bytes(b[..8].try_into().unwrap_or([0xFF; 8]));
                            seen.take(tg, &b[8..]);
                            team.signal(freed.at(slot), SignalOp::Add(1), 0)?;
                        }
                        Ok(seen)
                    })
                })
                .collect();
            join_all(hs, || XpycError::ThreadPanicked("consumer"))
        });
        let elapsed = t0.elapsed().as_secs_f64();
        let mut all = Seen::new(n);
        for s in seen {
            all.merge(&s?);
        }
        consumed(&mut out, elapsed, &all);
    }
    Ok(out)
}

/// Runs an RMA point with producer PEs.
pub fn run_rma(pt: &Point, ctx: &RunCtx<'_>, cpus: &[usize]) -> Result<RunOut, BenchError> {
    let n = pt.n;
    let xpyc = pt.layout == Layout::Xpyc;
    let len = put_len(pt.size, pt.granularity);
    let depth = transfer::depth(len);
    // XPYC: 2 PEs (n threads each), a slot carries the 8-byte tag too; XConn: 2n PEs.
    let (producers, stride) = if xpyc { (1, 8 + len) } else { (n, len) };
    let spec = PeSpec {
        n,
        size: pt.size,
        put_len: len,
        depth,
        per: pt.per,
        corrupt_at: pt.corrupt_at,
        layout: pt.layout,
        cpus: cpus.to_vec(),
    };
    let label = format!("rma {} B {}×{n}", pt.size, pt.layout.name());
    let team = TeamSpec {
        // PE r on cpus[r]: XConn: producers, then their consumers; XPYC: the PEs start where
        // their first threads run (each thread then pins itself).
        cpus: if cpus.is_empty() {
            Vec::new()
        } else {
            (0..producers)
                .filter_map(|p| producer_cpu(cpus, p))
                .chain((0..producers).filter_map(|c| consumer_cpu(cpus, n, c)))
                .collect()
        },
        heap: depth * stride + 2 * depth * 8 + (1 << 16),
        ..TeamSpec::new(ctx, NAME, &spec, 2 * producers, label)
    };
    let outs = super::super::launcher::run_team(&team)?;
    let mut out = RunOut {
        seen: Seen::new(n),
        ..RunOut::default()
    };
    let mut slowest: f64 = 0.0;
    for o in &outs {
        let bad = || BenchError::failed(NAME, format!("PE {} reported {:?}", o.rank, o.samples));
        if o.rank < producers {
            if o.samples.len() != 2 * n / producers {
                return Err(bad());
            }
            out.lat_us
                .extend(o.samples.chunks_exact(2).map(|t| (t[0], t[1])));
        } else {
            let [el, checked, wrong, ref per @ ..] = o.samples[..] else {
                return Err(bad());
            };
            if per.len() != 2 * n {
                return Err(bad());
            }
            slowest = slowest.max(el);
            out.seen.checked += checked as u64;
            out.seen.wrong += wrong as u64;
            for (s, cs) in out.seen.per_sender.iter_mut().zip(per.chunks_exact(2)) {
                s.0 += cs[0] as u64;
                s.1 += cs[1] as u64;
            }
        }
    }
    out.bytes_per_s = pt.bytes() / slowest.max(1e-9);
    Ok(out)
}
