//! `channels` (many-core seed 004, Findings 2, 3 and 7): `n` producers and `n` consumers on
//! one queue (XPYC: handoff's shared-array MPMC queue, every consumer thread claiming
//! messages from it with its own CAS) against `n` separate SPSC queues with one producer and one consumer
//! each (XConn). Total messages/s, per-consumer mean latency (min/avg/max over consumers)
//! and p99/p99.9 latency; producers as threads or as processes (consumers are threads of
//! this process).
//!
//! The same total number of messages is split over the producers. Every message carries its
//! producer, sequence number and send time; receivers check every word, and per producer the
//! count and the sum of sequence numbers must come out exact (none lost or duplicated).

use std::time::Instant;

use handoff::queue::{ArrayMpmc, QueueError, Spsc};
use handoff::sys::monotonic_ns;

use super::launcher::{gate_wait, Workers};
use super::queue::ends::{Rx, TransferError, Tx, CAPACITY};
use super::rma_channels::Layout;
use super::rt_common::{
    arg, join_all, open_deadline, pin, quantile, run_id, POINT_DEADLINE, SECTION,
};
use crate::bench::experiment::{
    metric, BenchError, ExperimentInfo, FigureSpec, ReportCost, RunCtx,
};
use crate::bench::{BenchRecord, BenchResults, Checks};

const NAME: &str = "channels";

/// A message: producer << 48 | seq, send time, and a check word.
type Msg = [u64; 4];

fn make(pid: u64, seq: u64) -> Msg {
    let w0 = (pid << 48) | seq;
    [
        w0,
        monotonic_ns(),
        w0.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        !w0,
    ]
}

pub static INFO: ExperimentInfo = ExperimentInfo {
    name: NAME,
    title: "Channels: X producers and consumers on one queue (XPYC) vs X queues (XConn)",
    section: SECTION,
    seed: "Zhang & Jung, communication on many-core accelerators (seed 004), Findings 2, 3, 7",
    what: "n producers stream a fixed total of 32-byte messages to n consumers, either all \
           through one queue (XPYC: handoff's ArrayMpmc, every consumer taking messages with \
           its own CAS) or through n separate SPSC queues (XConn); producers are threads or processes. \
           Total messages/s, each consumer's mean latency (min/avg/max over consumers) and the \
           p99/p99.9 latency over all messages. Every word, and per producer the count and \
           the sum of sequence numbers, are checked.",
    figures: &[
        FigureSpec {
            log_y: false,
            ..vs_n("channels-throughput", "Channels: total messages/s vs n", "msgs_per_s")
        },
        vs_n("channels-p999", "Channels: p99.9 latency (µs) vs n", "lat_p999_us"),
        vs_n(
            "channels-thread-max",
            "Channels: slowest consumer's mean latency (µs) vs n",
            "thread_lat_max_us",
        ),
    ],
    findings,
    run: Some(|ctx| run(&Config::for_report(ctx.quick, ctx.allowed_cpus), ctx)),
    worker: Some(worker),
    report_cost: ReportCost::fixed(7.6, 0.3),
    draw: None,
    report: None,
};

/// A figure of `metric` against n (linear x).
const fn vs_n(id: &'static str, title: &'static str, metric: &'static str) -> FigureSpec {
    FigureSpec {
        x_label: "producers = consumers (n)",
        x_is_size: false,
        log_x: false,
        ..FigureSpec::vs_size(id, title, metric)
    }
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct Config {
    /// Values of n (producers = consumers = queues of XConn).
    pub n: Vec<usize>,
    /// Messages per run in all (split over the producers).
    pub count: u64,
    /// Also with producer processes.
    pub processes: bool,
    /// Runs (fresh threads or processes each).
    pub runs: u64,
    /// CPUs, round-robin over producers then consumers.
    pub cpus: Vec<usize>,
}

impl Config {
    /// The report's plan: n = 1, 2, 4, 6; threads and processes.
    pub fn for_report(quick: bool, cpus: &[usize]) -> Config {
        Config {
            n: if quick { vec![1, 4] } else { vec![1, 2, 4, 6] },
            count: if quick { 100_000 } else { 400_000 },
            processes: true,
            runs: if quick { 2 } else { 4 },
            cpus: cpus.to_vec(),
        }
    }

    pub fn validate(&self) -> Result<(), BenchError> {
        let bad = |m: &str| BenchError::usage(NAME, m);
        if self.n.is_empty() || self.n.iter().any(|&n| n == 0 || n > 64) {
            return Err(bad("--n: counts from 1 to 64, e.g. 1,2,4,6"));
        }
        let max = self.n.iter().max().copied().unwrap_or(1) as u64;
        if self.count < max || self.count >= 1 << 47 || self.runs == 0 {
            return Err(bad(
                "--count needs at least one message per producer; --runs at least 1",
            ));
        }
        if self.cpus.is_empty() {
            return Err(bad("no CPU to run on"));
        }
        Ok(())
    }
}

/// What each consumer saw.
#[derive(Debug, Default, Clone)]
struct Seen {
    /// Per producer: messages and the sum of their sequence numbers.
    per_producer: Vec<(u64, u64)>,
    /// Latencies in µs (every message).
    lat_us: Vec<f64>,
    ok: bool,
}

impl Seen {
    fn new(producers: usize) -> Seen {
        Seen {
            per_producer: vec![(0, 0); producers],
            lat_us: Vec::new(),
            ok: true,
        }
    }

    fn take(&mut self, m: &Msg, now: u64) {
        let (pid, seq) = ((m[0] >> 48) as usize, m[0] & ((1 << 48) - 1));
        let good = m[2] == m[0].wrapping_mul(0x9E37_79B9_7F4A_7C15)
            && m[3] == !m[0]
            && pid < self.per_producer.len();
        self.ok &= good;
        if good {
            self.per_producer[pid].0 += 1;
            self.per_producer[pid].1 += seq;
        }
        self.lat_us.push(now.saturating_sub(m[1]) as f64 / 1e3);
    }
}

fn produce(tx: &mut dyn Tx<Msg>, pid: u64, n: u64) -> Result<(), TransferError> {
    for seq in 0..n {
        tx.send(make(pid, seq))?;
    }
    Ok(())
}

/// The `n` consumers of one run, once its producers are started: XConn: consumer `c` takes
/// its `per` messages from `spsc[c]`; XPYC: each takes from `array` until it is closed and
/// drained. Returns total messages/s and what each consumer saw.
fn consume(
    cfg: &Config,
    n: usize,
    per: u64,
    spsc: Vec<handoff::queue::Consumer<Msg>>,
    array: Option<handoff::queue::ArrayConsumer<Msg>>,
) -> Result<(f64, Vec<Seen>), BenchError> {
    let total = per * n as u64;
    let t0 = Instant::now();
    let seen: Vec<Result<Seen, TransferError>> = std::thread::scope(|s| {
        let mut hs = Vec::new();
        let mut spsc = spsc.into_iter();
        for c in 0..n {
            let cpu = cfg.cpus[(n + c) % cfg.cpus.len()];
            let mine = spsc.next();
            // Each XPYC consumer joins the one queue (a clone is another consumer).
            let shared = array.clone();
            hs.push(s.spawn(move || -> Result<Seen, TransferError> {
                pin(cpu);
                let mut seen = Seen::new(n);
                if let Some(mut rx) = mine {
                    for _ in 0..per {
                        let m = rx.recv()?;
                        seen.take(&m, monotonic_ns());
                    }
                    return Ok(seen);
                }
                let Some(mut rx) = shared else {
                    return Ok(seen);
                };
                // Until every producer left and the queue is drained.
                loop {
                    match rx.recv() {
                        Ok(m) => seen.take(&m, monotonic_ns()),
                        Err(TransferError::Queue(QueueError::Closed { .. })) => return Ok(seen),
                        Err(e) => return Err(e),
                    }
                }
            }));
        }
        drop(array);
        join_all(hs, || {
            QueueError::InvalidConfig("a consumer panicked".into()).into()
        })
    });
    let elapsed = t0.elapsed().as_secs_f64();
    let seen = seen
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| BenchError::failed(NAME, e))?;
    Ok((total as f64 / elapsed, seen))
}

fn one_run(
    cfg: &Config,
    layout: Layout,
    processes: bool,
    n: usize,
    ctx: &RunCtx<'_>,
) -> Result<(f64, Vec<Seen>), BenchError> {
    let per = cfg.count / n as u64;
    let qe = |e: QueueError| BenchError::failed(NAME, e);
    let cpu = |p: usize| cfg.cpus[p % cfg.cpus.len()];
    if processes {
        let id = run_id();
        let mut w = Workers::new(NAME, &ctx.exe, &ctx.args);
        // XConn: n SPSC queues; XPYC: one ArrayMpmc, open to the consumers until all n
        // producer processes joined and left. They stay open until the workers are done.
        let (kind, spsc, array) = match layout {
            Layout::Xconn => {
                let qs = (0..n)
                    .map(|i| Spsc::<Msg>::create(&format!("ch{id}-{i}"), CAPACITY))
                    .collect::<Result<Vec<_>, _>>();
                ("spsc", qs.map_err(qe)?, None)
            }
            Layout::Xpyc => {
                let q = ArrayMpmc::<Msg>::create(&format!("ch{id}"), CAPACITY).map_err(qe)?;
                q.expect_producers(n as u64);
                ("array", Vec::new(), Some(q))
            }
        };
        let rxs = spsc.iter().map(|q| q.consumer()).collect::<Result<_, _>>();
        let rx = array.as_ref().map(|q| q.consumer()).transpose();
        let (rxs, rx) = (rxs.map_err(qe)?, rx.map_err(qe)?);
        let names: Vec<Option<&str>> = match &array {
            Some(q) => vec![q.name(); n],
            None => spsc.iter().map(|q| q.name()).collect(),
        };
        for (p, name) in names.into_iter().enumerate() {
            w.spawn(&[
                kind.into(),
                name.unwrap_or_default().into(),
                per.to_string(),
                p.to_string(),
                cpu(p).to_string(),
            ])?;
        }
        // Every producer joins before any starts (a queue whose producers all left is closed).
        w.gate()?;
        let out = consume(cfg, n, per, rxs, rx)?;
        w.finish(Instant::now() + POINT_DEADLINE)?;
        return Ok(out);
    }
    let (mut txs, mut rxs_s, mut rx_a) = (Vec::<Box<dyn Tx<Msg>>>::new(), Vec::new(), None);
    match layout {
        Layout::Xconn => {
            for _ in 0..n {
                let (tx, rx) = Spsc::<Msg>::new(CAPACITY).map_err(qe)?;
                txs.push(Box::new(tx));
                rxs_s.push(rx);
            }
        }
        Layout::Xpyc => {
            let q = ArrayMpmc::<Msg>::on_heap(CAPACITY).map_err(qe)?;
            for _ in 0..n {
                txs.push(Box::new(q.producer().map_err(qe)?));
            }
            rx_a = Some(q.consumer().map_err(qe)?);
        }
    }
    std::thread::scope(|s| {
        let mut hs = Vec::new();
        for (p, mut tx) in txs.into_iter().enumerate() {
            hs.push(s.spawn(move || {
                pin(cpu(p));
                produce(&mut *tx, p as u64, per)
            }));
        }
        let out = consume(cfg, n, per, rxs_s, rx_a);
        for h in hs {
            h.join()
                .map_err(|_| BenchError::failed(NAME, "a producer panicked"))?
                .map_err(|e| BenchError::failed(NAME, e))?;
        }
        out
    })
}

/// A producer process: `spsc|array NAME N PID CPU`.
fn worker(args: &[String]) -> Result<(), BenchError> {
    let kind: String = arg(NAME, args, 0)?;
    let name: String = arg(NAME, args, 1)?;
    let (n, pid): (u64, u64) = (arg(NAME, args, 2)?, arg(NAME, args, 3)?);
    pin(arg::<usize>(NAME, args, 4)?);
    let qe = |e: QueueError| BenchError::failed(NAME, e);
    let open = open_deadline();
    if kind == "spsc" {
        let q = Spsc::<Msg>::open(&name, CAPACITY, open).map_err(qe)?;
        let mut tx = q.producer().map_err(qe)?;
        gate_wait(NAME)?;
        produce(&mut tx, pid, n).map_err(|e| BenchError::failed(NAME, e))
    } else {
        let q = ArrayMpmc::<Msg>::open(&name, CAPACITY, open).map_err(qe)?;
        let mut tx = q.producer().map_err(qe)?;
        gate_wait(NAME)?;
        // Leaves when done: a clean departure ends no consumer's wait for the others.
        produce(&mut tx, pid, n).map_err(|e| BenchError::failed(NAME, e))
    }
}

/// Checks that every producer's `per` messages arrived exactly once, intact: the messages
/// received are the items checked; each one missing or extra is wrong, a producer whose
/// sequence numbers do not add up (with the right count) adds one, and so does a consumer
/// that saw a corrupt message.
fn verify(seen: &[Seen], n: usize, per: u64, checks: &mut Checks) {
    let want_sum = per * per.saturating_sub(1) / 2;
    let corrupt = seen.iter().filter(|s| !s.ok).count() as u64;
    checks.add(0, corrupt);
    for p in 0..n {
        let (c, sum) = seen.iter().fold((0, 0), |(c, s), x| {
            (c + x.per_producer[p].0, s + x.per_producer[p].1)
        });
        let wrong = if c != per {
            c.abs_diff(per)
        } else {
            u64::from(sum != want_sum)
        };
        checks.add(c, wrong);
    }
}

/// Runs `cfg`; stops early (partial) on `ctx.cancel`.
pub fn run(cfg: &Config, ctx: &mut RunCtx<'_>) -> Result<BenchResults, BenchError> {
    cfg.validate()?;
    let mut points = Vec::new();
    for processes in [false, true] {
        if processes && !cfg.processes {
            continue;
        }
        for layout in [Layout::Xpyc, Layout::Xconn] {
            points.extend(cfg.n.iter().map(|&n| (processes, layout, n)));
        }
    }
    let mut res = ctx.run_points(NAME, cfg, &points, |ctx, res, &(processes, layout, n)| {
        let mut m: [Vec<Vec<f64>>; 6] = Default::default();
        let mut checks = Checks::of("messages");
        for _ in 0..cfg.runs {
            let (rate, seen) = one_run(cfg, layout, processes, n, ctx)?;
            verify(&seen, n, cfg.count / n as u64, &mut checks);
            let means: Vec<f64> = seen
                .iter()
                .filter(|s| !s.lat_us.is_empty())
                .map(|s| crate::stats::mean(&s.lat_us))
                .collect();
            let mut all: Vec<f64> = seen.into_iter().flat_map(|s| s.lat_us).collect();
            all.sort_by(f64::total_cmp);
            m[0].push(vec![rate]);
            m[1].push(vec![means.iter().copied().fold(f64::INFINITY, f64::min)]);
            m[2].push(vec![crate::stats::mean(&means)]);
            m[3].push(vec![means.iter().copied().fold(0.0, f64::max)]);
            m[4].push(vec![quantile(&all, 0.99)]);
            m[5].push(vec![quantile(&all, 0.999)]);
        }
        let mode = if processes { "processes" } else { "threads" };
        let series = format!("{}, {mode}", layout.name());
        res.records.push(
            BenchRecord::new(series.clone(), n as f64, cfg.runs, 1, false)
                .checked(checks)
                .param("layout", layout.name())
                .param("mode", mode)
                .param("n", n)
                .metric("msgs_per_s", metric(NAME, "msg/s", true, &m[0])?)
                .metric("thread_lat_min_us", metric(NAME, "µs", false, &m[1])?)
                .metric("thread_lat_avg_us", metric(NAME, "µs", false, &m[2])?)
                .metric("thread_lat_max_us", metric(NAME, "µs", false, &m[3])?)
                .metric("lat_p99_us", metric(NAME, "µs", false, &m[4])?)
                .metric("lat_p999_us", metric(NAME, "µs", false, &m[5])?),
        );
        Ok(Some(format!("{series}, n = {n}")))
    })?;
    res.notes.push(format!(
        "{} messages of 32 B per run in all; latency = send to receipt at full load (includes the queue ahead); {} threads on {} CPUs at the largest n",
        cfg.count,
        2 * cfg.n.iter().max().copied().unwrap_or(1),
        cfg.cpus.len()
    ));
    Ok(res)
}

mod findings;
use findings::findings;

#[cfg(test)]
mod tests;
