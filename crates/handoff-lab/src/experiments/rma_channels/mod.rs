//! `rma-channels` (many-core seed 004, the RMA half: Fig. 3, Fig. 4, Findings 4, 5, 6): the
//! same payloads moved as messages (handoff's byte-frame queue: copy in, copy out, as the
//! seed's `scif_send` / `scif_recv`) and as one-sided puts into a registered window with a
//! completion signal (as `scif_writeto`; `Team::put_signal` between processes), at sizes
//! from 8 B to 4 MiB, optionally at the seed's 4 KiB minimum RMA granularity, with XPYC (n
//! producers and n consumers on one connection) and XConn (n connections of one pair each),
//! on threads and on processes.
//!
//! Every payload carries a pattern derived from (sender, sequence number) that the consumer
//! checks byte for byte; per sender the count and the sum of sequence numbers must come out
//! exact. Records count the transfers checked and the wrong ones.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::rt_common::SECTION;
use crate::bench::experiment::{
    metric, BenchError, ExperimentInfo, FigureSpec, ReportCost, RunCtx,
};
use crate::bench::{BenchRecord, BenchResults, Checks};
use crate::stats::distinct;

mod findings;
pub mod payload;
mod processes;
mod threads;
pub mod transfer;
/// The one-sided window between threads (its slot protocol lives in `handoff-probe`, with
/// its loom models).
pub use handoff_probe::window;

pub use findings::{crossover, findings, Crossover, Verdict};

const NAME: &str = "rma-channels";

/// The seed's minimum RMA granularity.
pub const SEED_GRANULARITY: usize = 4096;
/// The largest payload.
pub const MAX_SIZE: usize = 64 << 20;
/// The most connections / threads per side.
pub const MAX_N: usize = 64;

pub static INFO: ExperimentInfo = ExperimentInfo {
    name: NAME,
    title: "RMA channels: messages vs one-sided puts by size, over one or several connections",
    section: SECTION,
    seed: "Zhang & Jung, communication on many-core accelerators (seed 004), Fig. 3, Fig. 4, \
           Findings 4, 5, 6",
    what: "The same payloads move as messages (byte frames: copied into handoff's frame \
           queue and out of it) and as one-sided puts into a window of the consumer with a \
           completion signal per slot (checked in place, then signalled free); 8 B to 4 MiB, \
           RMA also at the seed's 4 KiB minimum granularity; XPYC (n producers and n \
           consumers on one connection) and XConn (n connections), on threads and on \
           processes, where the puts are the team's put_signal (XPYC: one producer PE of n \
           threads sharing the team, one consumer PE of n threads). Throughput, each producer \
           thread's mean transfer time (min/mean/max over threads) and the worst thread's \
           p99. Every byte is checked against a pattern of (sender, sequence number).",
    figures: &[
        FigureSpec {
            series_prefix: "threads, XConn×1,",
            ..FigureSpec::vs_size(
                "rma-channels-crossover",
                "RMA channels: messages vs puts, one connection (threads), bytes/s",
                "bytes_per_s",
            )
        },
        FigureSpec {
            series_prefix: "processes, XConn",
            ..FigureSpec::vs_size(
                "rma-channels-processes",
                "RMA channels: n connections between processes (XConn), bytes/s",
                "bytes_per_s",
            )
        },
        FigureSpec {
            series_prefix: "processes, XPYC",
            ..FigureSpec::vs_size(
                "rma-channels-processes-xpyc",
                "RMA channels: n threads per process on one connection (XPYC), bytes/s",
                "bytes_per_s",
            )
        },
        FigureSpec {
            series_prefix: "threads, XConn",
            ..FigureSpec::vs_size(
                "rma-channels-thread-max",
                "RMA channels: slowest thread's mean transfer time (µs), XConn on threads",
                "thread_lat_max_us",
            )
        },
    ],
    findings,
    run: Some(|ctx| run(&Config::for_report(ctx.quick, ctx.allowed_cpus), ctx)),
    worker: Some(worker),
    report_cost: ReportCost::fixed(65.0, 0.9),
    draw: None,
    report: None,
};

/// The CPU of producer `p`: `cpus[p % len]` (`None`: unpinned).
pub fn producer_cpu(cpus: &[usize], p: usize) -> Option<usize> {
    (!cpus.is_empty()).then(|| cpus[p % cpus.len()])
}

/// The CPU of consumer `c` of `n`: the one after the producers' (`cpus[(n + c) % len]`),
/// but never producer `c`'s when there are two CPUs or more, so that every pair crosses
/// CPUs as a single pair does. (Round robin alone puts pair `c` of 2 on 2 CPUs on one CPU,
/// where its data stays in that CPU's cache: n pairs / one pair would then measure the
/// placement, not the connections.)
pub fn consumer_cpu(cpus: &[usize], n: usize, c: usize) -> Option<usize> {
    let len = cpus.len();
    if len == 0 {
        return None;
    }
    let mut i = (n + c) % len;
    if len > 1 && cpus[i] == cpus[c % len] {
        i = (i + 1) % len;
    }
    Some(cpus[i])
}

/// How the payload moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Messages: copy in, copy out.
    Msg,
    /// One-sided puts with a completion signal.
    Rma,
}

/// One connection shared by all, or one per pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Layout {
    /// n producers and n consumers on one connection.
    #[serde(rename = "XPYC")]
    Xpyc,
    /// n connections of one producer and one consumer.
    #[serde(rename = "XConn")]
    Xconn,
}

impl Layout {
    /// "XPYC" or "XConn".
    pub fn name(self) -> &'static str {
        match self {
            Layout::Xpyc => "XPYC",
            Layout::Xconn => "XConn",
        }
    }

    /// Parses `xpyc` / `xconn` (any case).
    pub fn parse(s: &str) -> Option<Layout> {
        match s.to_ascii_lowercase().as_str() {
            "xpyc" => Some(Layout::Xpyc),
            "xconn" => Some(Layout::Xconn),
            _ => None,
        }
    }
}

/// One measured point.
#[derive(Debug, Clone)]
pub struct Point {
    /// Producers on processes (else threads).
    pub processes: bool,
    pub layout: Layout,
    pub n: usize,
    pub method: Method,
    /// RMA granularity (8: none).
    pub granularity: usize,
    /// Payload bytes.
    pub size: usize,
    /// Transfers per producer.
    pub per: u64,
    /// Test only: producer 0 sends transfer `corrupt_at` with a flipped byte.
    pub corrupt_at: Option<u64>,
}

impl Point {
    /// "msg", "rma" or "rma 4K" (granularity in the seed's unit).
    pub fn method_label(&self) -> String {
        match (self.method, self.granularity) {
            (Method::Msg, _) => "msg".into(),
            (Method::Rma, g) if g <= 8 => "rma".into(),
            (Method::Rma, g) if g % 1024 == 0 => format!("rma {}K", g / 1024),
            (Method::Rma, g) => format!("rma {g}B"),
        }
    }

    /// Payload bytes of one run (every producer's transfers).
    pub fn bytes(&self) -> f64 {
        (self.per * self.n as u64 * self.size as u64) as f64
    }

    /// "threads" or "processes".
    pub fn mode(&self) -> &'static str {
        if self.processes {
            "processes"
        } else {
            "threads"
        }
    }

    /// "threads, XConn×1, msg".
    pub fn series(&self) -> String {
        let (mode, layout, n) = (self.mode(), self.layout.name(), self.n);
        format!("{mode}, {layout}×{n}, {}", self.method_label())
    }
}

/// What one run of a point measured.
#[derive(Debug, Clone, Default)]
pub struct RunOut {
    /// Payload bytes per second (all connections).
    pub bytes_per_s: f64,
    /// Each producer's mean and p99 transfer time, µs.
    pub lat_us: Vec<(f64, f64)>,
    /// What the consumers checked.
    pub seen: payload::Seen,
}

#[derive(Debug, Clone, Serialize)]
pub struct Config {
    /// Payload sizes in bytes.
    pub sizes: Vec<usize>,
    /// More sizes run on the crossover's connection only (one connection, threads, or
    /// processes when threads are off), to place the crossover between two of them.
    pub crossover_sizes: Vec<usize>,
    /// RMA granularities (8: every size as is; 4096: the seed's minimum).
    pub granularities: Vec<usize>,
    /// Values of n.
    pub n: Vec<usize>,
    /// Values of n with producer processes (empty: `n`).
    pub processes_n: Vec<usize>,
    pub layouts: Vec<Layout>,
    /// Run on threads.
    pub threads: bool,
    /// Run with producer processes.
    pub processes: bool,
    /// Payload bytes per run of a point (split over the producers).
    pub bytes: u64,
    /// The most transfers per run of a point.
    pub max_transfers: u64,
    pub runs: u64,
    /// CPUs: producers round robin, consumers after them, each pair across two CPUs
    /// ([`consumer_cpu`]).
    pub cpus: Vec<usize>,
    /// Test only: producer 0 sends this transfer with a flipped byte.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corrupt_at: Option<u64>,
}

impl Config {
    /// The report's plan (and the command's defaults). Quick: 64 B, 4 KiB, 256 KiB; n = 1,
    /// 2 on threads, 1 on processes; 5 runs of at most 8 MiB. Full: 8 B .. 4 MiB, and on the
    /// crossover's connection also 16 KiB, 128 KiB .. 512 KiB and 2 MiB; n = 1, 2, 4, 6; 5
    /// runs of at most 32 MiB.
    pub fn for_report(quick: bool, cpus: &[usize]) -> Config {
        Config {
            sizes: if quick {
                vec![64, 4 << 10, 256 << 10]
            } else {
                vec![8, 64, 512, 4 << 10, 64 << 10, 1 << 20, 4 << 20]
            },
            crossover_sizes: if quick {
                Vec::new()
            } else {
                vec![16 << 10, 128 << 10, 256 << 10, 512 << 10, 2 << 20]
            },
            granularities: vec![8, SEED_GRANULARITY],
            n: if quick { vec![1, 2] } else { vec![1, 2, 4, 6] },
            processes_n: if quick { vec![1] } else { Vec::new() },
            layouts: vec![Layout::Xpyc, Layout::Xconn],
            threads: true,
            processes: true,
            bytes: if quick { 8 << 20 } else { 32 << 20 },
            max_transfers: if quick { 5000 } else { 20_000 },
            runs: 5,
            cpus: cpus.to_vec(),
            corrupt_at: None,
        }
    }

    pub fn validate(&self) -> Result<(), BenchError> {
        let bad = |m: &str| BenchError::usage(NAME, m);
        if !all_of(&self.sizes, &self.crossover_sizes, |s| {
            (1..=MAX_SIZE).contains(&s)
        }) {
            return Err(bad(&format!(
                "--sizes: payloads from 1 byte to {} MiB, e.g. 8,4K,1M",
                MAX_SIZE >> 20
            )));
        }
        if !all_of(&self.granularities, &[], |g| {
            g.is_power_of_two() && g <= 1 << 20
        }) {
            return Err(bad(
                "--rma-granularity: powers of two from 1 byte to 1 MiB, e.g. 8,4K",
            ));
        }
        if !all_of(&self.n, &self.processes_n, |n| (1..=MAX_N).contains(&n)) {
            return Err(bad(&format!("--n: counts from 1 to {MAX_N}, e.g. 1,2,4,6")));
        }
        if self.layouts.is_empty() {
            return Err(bad("--layout: xpyc, xconn or both"));
        }
        if !self.threads && !self.processes {
            return Err(bad(
                "--threads-only and --processes-only exclude each other",
            ));
        }
        if self.runs == 0 || self.max_transfers == 0 || self.bytes == 0 {
            return Err(bad("--runs, --transfers and --bytes must be at least 1"));
        }
        if self.cpus.is_empty() {
            return Err(bad("no CPU to run on"));
        }
        Ok(())
    }

    /// Transfers per producer at `size` with `n` producers: `bytes` split over them, at most
    /// `max_transfers` in all, at least 4 each.
    pub fn per(&self, size: usize, n: usize) -> u64 {
        let by_bytes = self.bytes / (size as u64 * n as u64);
        by_bytes.min(self.max_transfers / n as u64).max(4)
    }

    /// Every point, in run order: threads then processes; per layout, n, size: messages, RMA,
    /// then RMA at each coarser granularity where it moves more than the payload. The points
    /// of one (mode, layout, n, size) are consecutive: [`run`] interleaves their runs.
    pub fn points(&self) -> Vec<Point> {
        let mut v = Vec::new();
        let grans = distinct(self.granularities.iter().copied());
        let plain = grans.iter().any(|&g| g <= 8);
        let modes = [(false, self.threads), (true, self.processes)];
        for (processes, _) in modes.into_iter().filter(|&(_, on)| on) {
            for &layout in &self.layouts {
                let ns = if processes && !self.processes_n.is_empty() {
                    &self.processes_n
                } else {
                    &self.n
                };
                for &n in ns {
                    // The crossover is judged on one connection, threads first.
                    let crossing = layout == Layout::Xconn && n == 1 && processes != self.threads;
                    let sizes = if crossing {
                        distinct(self.sizes.iter().chain(&self.crossover_sizes).copied())
                    } else {
                        self.sizes.clone()
                    };
                    for &size in &sizes {
                        let base = Point {
                            processes,
                            layout,
                            n,
                            method: Method::Msg,
                            granularity: 1,
                            size,
                            per: self.per(size, n),
                            corrupt_at: self.corrupt_at,
                        };
                        v.push(base.clone());
                        for &g in &grans {
                            if plain
                                && g > 8
                                && transfer::put_len(size, g) == transfer::put_len(size, 8)
                            {
                                continue;
                            }
                            v.push(Point {
                                method: Method::Rma,
                                granularity: g,
                                ..base.clone()
                            });
                        }
                    }
                }
            }
        }
        v
    }
}

/// Whether `list` has a value and every value of it and of `more` passes `ok`.
fn all_of(list: &[usize], more: &[usize], ok: impl Fn(usize) -> bool) -> bool {
    !list.is_empty() && list.iter().chain(more).all(|&v| ok(v))
}

/// What the runs of one point measured so far.
#[derive(Default)]
struct Acc {
    m: [Vec<Vec<f64>>; 5],
    checked: u64,
    wrong: u64,
    failed: bool,
}

impl Acc {
    fn add(&mut self, pt: &Point, out: &RunOut, notes: &mut Vec<String>) {
        self.checked += out.seen.checked;
        self.wrong += out.seen.wrong;
        if !out.seen.complete(pt.per) {
            self.failed = true;
            notes.push(format!(
                "{} {} B: data FAILED verification ({} of {} transfers wrong, or some lost \
                 or duplicated)",
                pt.series(),
                pt.size,
                out.seen.wrong,
                out.seen.checked
            ));
        }
        let means: Vec<f64> = out.lat_us.iter().map(|l| l.0).collect();
        self.m[0].push(vec![out.bytes_per_s]);
        self.m[1].push(vec![means.iter().copied().fold(f64::INFINITY, f64::min)]);
        self.m[2].push(vec![crate::stats::mean(&means)]);
        self.m[3].push(vec![means.iter().copied().fold(0.0, f64::max)]);
        self.m[4].push(vec![out.lat_us.iter().map(|l| l.1).fold(0.0, f64::max)]);
    }

    fn record(self, pt: &Point, runs: u64) -> Result<BenchRecord, BenchError> {
        let verified = !self.failed;
        let m = &self.m;
        Ok(
            BenchRecord::new(pt.series(), pt.size as f64, runs, pt.per, verified)
                .param("mode", pt.mode())
                .param("layout", pt.layout.name())
                .param("n", pt.n)
                .param("method", pt.method_label())
                .param("granularity", pt.granularity)
                .param("size_bytes", pt.size)
                .param("transfers_per_producer", pt.per)
                // Lost or duplicated transfers count as wrong too (`verified` is false then).
                .checked(Checks {
                    item: "transfers".into(),
                    checked: self.checked,
                    wrong: if verified {
                        self.wrong
                    } else {
                        self.wrong.max(1)
                    },
                })
                .metric("bytes_per_s", metric(NAME, "B/s", true, &m[0])?)
                .metric("thread_lat_min_us", metric(NAME, "µs", false, &m[1])?)
                .metric("thread_lat_mean_us", metric(NAME, "µs", false, &m[2])?)
                .metric("thread_lat_max_us", metric(NAME, "µs", false, &m[3])?)
                .metric("lat_p99_us", metric(NAME, "µs", false, &m[4])?),
        )
    }
}

fn one_run(pt: &Point, cfg: &Config, ctx: &RunCtx<'_>) -> Result<RunOut, BenchError> {
    match (pt.processes, pt.method) {
        (true, Method::Msg) => processes::run_msg(pt, ctx, &cfg.cpus),
        (true, Method::Rma) => processes::run_rma(pt, ctx, &cfg.cpus),
        (false, _) => threads::run(pt, &cfg.cpus)
            .map_err(|e| BenchError::failed(NAME, format!("{}: {e}", pt.series()))),
    }
}

/// Runs `cfg`; stops early (partial) on `ctx.cancel`.
pub fn run(cfg: &Config, ctx: &mut RunCtx<'_>) -> Result<BenchResults, BenchError> {
    cfg.validate()?;
    let mut config = serde_json::to_value(cfg).unwrap_or_default();
    // Each run of a point sits next to a run of the other points of its size (see below).
    config["interleaved"] = serde_json::Value::Bool(true);
    let mut res = BenchResults::new(NAME, ctx.machine.clone(), ctx.tool.clone(), config);
    let started = Instant::now();
    let points = cfg.points();
    ctx.progress.begin(points.len(), NAME);
    // The points of one (mode, layout, n, size) run in turns, one run of each per round, so
    // a change of the machine's load falls on messages and puts alike (their ratio is then
    // judged per round, see `findings`).
    let key = |p: &Point| (p.processes, p.layout, p.n, p.size);
    for group in points.chunk_by(|a, b| key(a) == key(b)) {
        if ctx.stopped(&mut res, points.len()) {
            break;
        }
        let mut acc: Vec<Acc> = group.iter().map(|_| Acc::default()).collect();
        for _ in 0..cfg.runs {
            for (pt, a) in group.iter().zip(&mut acc) {
                let out = one_run(pt, cfg, ctx)?;
                a.add(pt, &out, &mut res.notes);
            }
        }
        for (pt, a) in group.iter().zip(acc) {
            res.records.push(a.record(pt, cfg.runs)?);
            ctx.progress
                .advance(&format!("{} {} B", pt.series(), pt.size));
        }
    }
    ctx.progress.end();
    let most = 2 * cfg.n.iter().max().copied().unwrap_or(1);
    res.notes.push(format!(
        "transfer time = one producer's send (messages) or put + signal (RMA), waiting for \
         room included; {most} threads or processes on {} CPUs at the largest n{}",
        cfg.cpus.len(),
        if most > cfg.cpus.len() {
            " (oversubscribed)"
        } else {
            ""
        }
    ));
    res.notes.push(
        "RMA between threads uses the window protocol of put_signal in one address space \
         (copy into the slot, Release store of its signal); between processes the team's \
         put_signal. XPYC between processes: one producer process (messages) or PE (RMA) \
         with n threads sharing one connection to n consumer threads (RMA: one PE; the \
         team is shared by its threads, and a window slot carries the 8-byte tag too)."
            .into(),
    );
    res.elapsed_s = Some(started.elapsed().as_secs_f64());
    Ok(res)
}

/// The report's recommendation on messages vs puts by size, from an `rma-channels` result
/// (`None` for another experiment or too few sizes).
pub fn recommendation(res: &BenchResults) -> Option<String> {
    if res.experiment != NAME {
        return None;
    }
    let c = crossover(res)?;
    let fmt = |b: usize| crate::units::format_size(b);
    let first = c.by_size.first()?.0;
    let last = c.by_size.last()?.0;
    let head = format!(
        "Messages or puts ({}, measured {}–{})",
        c.on,
        fmt(first),
        fmt(last)
    );
    Some(match c.verdict() {
        Verdict::Between { msg_up_to, rma_from, estimate, rma_below } => format!(
            "{head}: below about {} send messages (handoff::queue / channel), above it put into a team window with put_signal (handoff::team) — messages were faster at {}, puts at {} (95% intervals){}.",
            findings::approx_size(estimate), fmt(msg_up_to), fmt(rma_from), findings::below_text(&rma_below)
        ),
        Verdict::RmaFrom(n) if n == first && c.by_size.iter().all(|x| x.2 == findings::Side::Rma) => format!(
            "{head}: put into a team window with put_signal (handoff::team) at every measured size — it moved more bytes/s than messages through a queue from {} on.",
            fmt(n)
        ),
        Verdict::RmaFrom(n) => format!(
            "{head}: from {} on put into a team window with put_signal (handoff::team); messages (handoff::queue / channel) were faster at no size, and at some sizes the two were not told apart.",
            fmt(n)
        ),
        Verdict::MsgEverywhere => format!(
            "{head}: send messages (handoff::queue / channel) — they moved more bytes/s than puts at every measured size."
        ),
        Verdict::Inconclusive(why) => format!(
            "{head}: no crossover size can be named here — {why}; choose by API (see the rma-channels section)."
        ),
    })
}

/// A worker process: `msg ...` (a message producer) or a team PE's JSON spec.
fn worker(args: &[String]) -> Result<(), BenchError> {
    if args.first().map(String::as_str) == Some("msg") {
        return processes::msg_worker(args);
    }
    // XPYC's PEs run several threads on one team: the shared-memory team (Sync) only.
    let spec: Option<processes::PeSpec> = args.first().and_then(|a| serde_json::from_str(a).ok());
    match spec {
        Some(spec) if spec.layout == Layout::Xpyc => processes::xpyc_worker(&spec),
        _ => super::launcher::worker_main::<processes::PeSpec>(args),
    }
}

#[cfg(test)]
mod tests;
