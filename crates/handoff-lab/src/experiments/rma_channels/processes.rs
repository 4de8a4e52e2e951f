//! One run of a point with producers as processes (XConn only: a connection per pair).
//!
//! - Messages: this process creates one named frame queue per connection, starts one
//!   producer process per queue (`handoff __worker rma-channels msg ...`) and consumes with
//!   threads, as `channels` does.
//! - RMA: a team of `2n` PEs (`team::Launch`); PE `p < n` puts into PE `n + p`'s window
//!   with `put_signal`, the consumer checks each slot in place and signals it free.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use handoff::queue::{FrameQueue, QueueError};
use handoff::sys::Deadline;
use handoff::team::{Cmp, SignalOp, Team, TeamError, Transport};
use serde::{Deserialize, Serialize};

use super::super::launcher::{gate_wait, Workers};
use super::super::rt_common::{arg, failed, POINT_DEADLINE};
use super::super::team_mpi::TransportKind;
use super::super::team_run::{self, PeOutput, TeamSpec};
use super::payload::{fill, tag, Seen};
use super::transfer::{self, mean_p99_us, put_len, send_msg, STUCK};
use super::{Layout, Method, Point, RunOut, NAME};
use crate::bench::experiment::{BenchError, RunCtx};

/// Runs `pt` with producer processes.
pub fn run(pt: &Point, ctx: &RunCtx<'_>, cpus: &[usize]) -> Result<RunOut, BenchError> {
    if pt.layout != Layout::Xconn {
        return Err(failed(NAME, "XPYC runs on threads only"));
    }
    match pt.method {
        Method::Msg => run_msg(pt, ctx, cpus),
        Method::Rma => run_rma(pt, ctx, cpus),
    }
}

fn run_id() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

fn run_msg(pt: &Point, ctx: &RunCtx<'_>, cpus: &[usize]) -> Result<RunOut, BenchError> {
    let n = pt.n;
    let qe = |e: QueueError| failed(NAME, e);
    let id = run_id();
    let queues = (0..n)
        .map(|i| FrameQueue::create(&format!("rmach{id}-{i}"), transfer::BUFFER))
        .collect::<Result<Vec<_>, _>>()
        .map_err(qe)?;
    let rxs = queues
        .iter()
        .map(|q| q.consumer().map(Mutex::new))
        .collect::<Result<Vec<_>, _>>()
        .map_err(qe)?;
    let mut w = Workers::new();
    for (p, q) in queues.iter().enumerate() {
        let cpu = cpus
            .get(p % cpus.len().max(1))
            .copied()
            .unwrap_or(usize::MAX);
        w.spawn(
            NAME,
            &ctx.exe,
            &ctx.args,
            &[
                "msg".into(),
                q.name().unwrap_or_default().to_string(),
                pt.size.to_string(),
                pt.per.to_string(),
                p.to_string(),
                cpu.to_string(),
                pt.corrupt_at.map_or("-".into(), |k| k.to_string()),
            ],
        )?;
    }
    w.gate(NAME)?;
    let start = Instant::now();
    let taken = Mutex::new(0);
    let results: Vec<Result<(Seen, Instant), super::threads::RunError>> = std::thread::scope(|s| {
        let hs: Vec<_> = rxs
            .iter()
            .enumerate()
            .map(|(c, rx)| {
                let taken = &taken;
                s.spawn(move || {
                    if !cpus.is_empty() {
                        let _ = handoff::sys::pin_current_thread(cpus[(n + c) % cpus.len()]);
                    }
                    // Producer p writes only to queue p, tagging its transfers as sender p.
                    super::threads::consume_msg(rx, n, pt.size, Some(pt.per), taken, 0)
                })
            })
            .collect();
        hs.into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or(Err(super::threads::RunError::Panicked("consumer")))
            })
            .collect()
    });
    let outs = w.finish(NAME, Instant::now() + POINT_DEADLINE)?;
    let mut out = RunOut {
        seen: Seen::new(n),
        ..RunOut::default()
    };
    let mut end = start;
    for r in results {
        let (s, t) = r.map_err(|e| failed(NAME, e))?;
        out.seen.merge(&s);
        end = end.max(t);
    }
    for (p, text) in outs.iter().enumerate() {
        let v: Vec<f64> = text
            .split_whitespace()
            .filter_map(|x| x.parse().ok())
            .collect();
        if v.len() != 2 {
            return Err(failed(
                NAME,
                format!("producer process {p} printed {text:?}, not its mean and p99"),
            ));
        }
        out.lat_mean_us.push(v[0]);
        out.lat_p99_us.push(v[1]);
    }
    let bytes = (pt.per * n as u64 * pt.size as u64) as f64;
    out.bytes_per_s = bytes / end.duration_since(start).as_secs_f64().max(1e-9);
    Ok(out)
}

/// A producer process of a message run: `msg NAME SIZE PER SENDER CPU CORRUPT` (CORRUPT: the
/// transfer whose last byte producer 0 flips, test only, or `-`); prints its mean and p99
/// transfer time in µs.
pub fn msg_worker(args: &[String]) -> Result<(), BenchError> {
    let name: String = arg(NAME, args, 1)?;
    let (size, per, p): (usize, u64, u64) = (
        arg(NAME, args, 2)?,
        arg(NAME, args, 3)?,
        arg(NAME, args, 4)?,
    );
    let cpu: usize = arg(NAME, args, 5)?;
    let corrupt_at: Option<u64> = args.get(6).and_then(|a| a.parse().ok());
    if cpu != usize::MAX {
        let _ = handoff::sys::pin_current_thread(cpu);
    }
    let qe = |e: QueueError| failed(NAME, e);
    let q = FrameQueue::open(
        &name,
        transfer::BUFFER,
        Deadline::after(Duration::from_secs(10)),
    )
    .map_err(qe)?;
    let mut tx = q.producer().map_err(qe)?;
    let mut buf = vec![0u8; size];
    let mut ns = Vec::with_capacity(per as usize);
    gate_wait(NAME)?;
    for k in 0..per {
        fill(&mut buf, tag(p, k));
        if p == 0 && corrupt_at == Some(k) {
            buf[size - 1] ^= 1;
        }
        let t0 = Instant::now();
        send_msg(&mut tx, tag(p, k), &buf).map_err(qe)?;
        ns.push(t0.elapsed().as_nanos() as u64);
    }
    let (m, p99) = mean_p99_us(&mut ns);
    // Dropping the producer closes the queue; the consumer still receives every committed
    // frame before it sees the close.
    drop(tx);
    println!("{m} {p99}");
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
    /// Bound on every wait, seconds.
    pub wait_timeout_s: f64,
    /// Test only: producer 0 flips the last byte of its transfer `corrupt_at`.
    #[serde(default)]
    pub corrupt_at: Option<u64>,
}

impl team_run::PeBody for PeSpec {
    const NAME: &'static str = NAME;
    type Error = TeamError;
    fn wait_timeout(&self) -> Duration {
        Duration::from_secs_f64(self.wait_timeout_s)
    }
    fn run<X: Transport>(&self, team: &Team<X>) -> Result<PeOutput, TeamError> {
        pe_main(team, self)
    }
}

/// Producer PE `p < n` → consumer PE `n + p`. Producer samples: [mean µs, p99 µs];
/// consumer samples: [elapsed s, checked, wrong, transfers, sum of sequence numbers].
fn pe_main<X: Transport>(team: &Team<X>, spec: &PeSpec) -> Result<PeOutput, TeamError> {
    let me = team.rank();
    let window = team.alloc::<u8>(spec.depth * spec.put_len)?;
    let posted = team.alloc::<u64>(spec.depth)?;
    let freed = team.alloc::<u64>(spec.depth)?;
    let mut out = PeOutput {
        rank: me,
        verified: true,
        ..PeOutput::default()
    };
    team.barrier_all()?;
    let depth = spec.depth as u64;
    if me < spec.n {
        let peer = spec.n + me;
        let mut src = vec![0u8; spec.put_len];
        let mut ns = Vec::with_capacity(spec.per as usize);
        for k in 0..spec.per {
            fill(&mut src[..spec.size], tag(me as u64, k));
            if me == 0 && spec.corrupt_at == Some(k) {
                src[spec.size - 1] ^= 1;
            }
            let s = (k % depth) as usize;
            let t0 = Instant::now();
            if k >= depth {
                // The consumer has freed this slot k / depth times once its earlier uses are
                // read (its signal is a Release RMW, our wait an Acquire load).
                team.signal_wait_until(freed.at(s), Cmp::Ge, k / depth)?;
            }
            team.put_signal(
                &window,
                s * spec.put_len,
                &src,
                posted.at(s),
                SignalOp::Set(k + 1),
                peer,
            )?;
            ns.push(t0.elapsed().as_nanos() as u64);
        }
        let (m, p99) = mean_p99_us(&mut ns);
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
        let elapsed = t0.elapsed().as_secs_f64();
        if seen.wrong > 0 {
            out.fail(format!(
                "PE {me}: {} of {} transfers had a wrong byte",
                seen.wrong, seen.checked
            ));
        }
        let (c, sum) = seen.per_sender[sender];
        out.samples = vec![
            elapsed,
            seen.checked as f64,
            seen.wrong as f64,
            c as f64,
            sum as f64,
        ];
    }
    Ok(out)
}

fn run_rma(pt: &Point, ctx: &RunCtx<'_>, cpus: &[usize]) -> Result<RunOut, BenchError> {
    let n = pt.n;
    let len = put_len(pt.size, pt.granularity);
    let depth = transfer::depth(len);
    let spec = PeSpec {
        n,
        size: pt.size,
        put_len: len,
        depth,
        per: pt.per,
        wait_timeout_s: STUCK.as_secs_f64(),
        corrupt_at: pt.corrupt_at,
    };
    let team = TeamSpec {
        exe: ctx.exe.clone(),
        args: ctx.args.clone(),
        experiment: NAME,
        spec: serde_json::to_string(&spec).unwrap_or_default(),
        pes: 2 * n,
        cpus: cpus.to_vec(),
        wait: handoff::sync::Wait::ADAPTIVE,
        heap: depth * len + 2 * depth * 8 + (1 << 16),
        deadline: Duration::from_secs(120),
        label: format!("rma {} B ×{n}", pt.size),
        transport: TransportKind::Shm,
        members: Vec::new(),
    };
    let outs = super::super::launcher::run_team(&team)?;
    let mut out = RunOut {
        seen: Seen::new(n),
        ..RunOut::default()
    };
    let mut slowest: f64 = 0.0;
    for o in &outs {
        let bad = || failed(NAME, format!("PE {} reported {:?}", o.rank, o.samples));
        if o.rank < n {
            let [m, p99] = o.samples[..] else {
                return Err(bad());
            };
            out.lat_mean_us.push(m);
            out.lat_p99_us.push(p99);
        } else {
            let [el, checked, wrong, c, sum] = o.samples[..] else {
                return Err(bad());
            };
            slowest = slowest.max(el);
            out.seen.checked += checked as u64;
            out.seen.wrong += wrong as u64;
            out.seen.per_sender[o.rank - n] = (c as u64, sum as u64);
        }
    }
    let bytes = (pt.per * n as u64 * pt.size as u64) as f64;
    out.bytes_per_s = bytes / slowest.max(1e-9);
    Ok(out)
}
