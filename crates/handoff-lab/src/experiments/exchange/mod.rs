//! `bench exchange`: the process-boundary experiment of the source paper.
//!
//! A producer writes a block of 32-bit integers, a consumer sums it and checks the sum, in
//! lock-step, for every mode (threads or processes; spin, futex, adaptive, semaphore, condvar,
//! pipe, file), block size, consumer CPU and cache state. Each run uses a fresh pair of
//! threads or processes; processes are this binary re-executed as hidden workers
//! ([`worker::worker_main`]). Raw clock ticks are recorded in the shared segment and converted
//! in the parent with one calibration.

mod class_table;
pub mod config;
pub mod cost;
pub mod error;
pub mod fault;
pub mod figures;
pub mod lockstep;
pub mod memory;
pub mod mode;
pub mod pipe;
pub mod recommend;
pub mod record;
pub mod report_plan;
pub mod roles;
pub mod samples;
pub mod sections;
mod single;
mod tables;
pub mod worker;

pub use config::{ConfigError, ExchangeConfig};
pub use error::RunError;
pub use mode::{Mode, ModeError, ModeInfo, Parties, WaitKind, MODES};

use crate::bench::experiment::{no_findings, BenchError, ExperimentInfo, ReportCost, RunCtx};
use crate::bench::schema::C2cPair;
use crate::bench::{BenchRecord, BenchResults};
use crate::stats;
use handoff::channel::{Channel, ChannelConfig};
use handoff::shm::Segment;
use handoff::sync::Wait;
use handoff::sys::Deadline;
use handoff_probe::clock::{Calibration, Clock};
use handoff_probe::topology::Topology;
use lockstep::{ChannelLockStep, CondvarLockStep, OneShot};
use record::{time_metric, ExchangeRecord as _, PointKey};
use roles::{ConsumerLoop, LockStep, ProducerLoop};
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// The registry entry: `handoff bench exchange`; `handoff report` runs its plan
/// ([`report_plan`]) first: it leads the report (the recommendation rests on it); its workers
/// are `handoff __worker exchange SPEC`.
pub static INFO: ExperimentInfo = ExperimentInfo {
    name: record::NAME,
    title: "Exchange",
    section: "Exchange",
    seed: "the process-boundary paper (issue 4)",
    what: "A producer fills a block, a consumer sums it and checks the sum, in lock-step, per \
           mode, size, consumer CPU and cache state.",
    figures: &[],
    findings: no_findings,
    run: Some(report_plan::run),
    worker: Some(worker_body),
    report_cost: ReportCost::planned(report_plan::report_plan, report_plan::speed),
    draw: Some(figures::draw),
    report: Some(sections::part),
};

fn worker_body(args: &[String]) -> Result<(), BenchError> {
    let failed = |e: RunError| match e.noticed_peer() {
        true => BenchError::PeerGone {
            experiment: record::NAME,
            message: e.to_string(),
        },
        false => BenchError::failed(record::NAME, e),
    };
    match args {
        [spec] => worker::worker_main(spec).map_err(failed),
        _ => Err(BenchError::usage(
            record::NAME,
            "the exchange worker takes one JSON spec",
        )),
    }
}

/// One measured configuration: one record of the results (and one entry of the report
/// plan in `results.json`).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Point {
    pub mode: Mode,
    /// Block bytes.
    pub size: usize,
    pub producer_core: usize,
    /// Consumer CPU (= producer CPU for single-thread modes).
    pub consumer_core: usize,
    /// Flush the block after writing.
    pub flush: bool,
    /// Measured repetitions per run.
    pub reps: u32,
    /// Discarded repetitions per run.
    pub warmup: u32,
    pub runs: u32,
}

impl Point {
    /// A short label for progress lines and errors.
    pub fn label(&self) -> String {
        format!(
            "{} {} {}->{}{}",
            self.mode,
            crate::units::format_size(self.size),
            self.producer_core,
            self.consumer_core,
            if self.flush { " flushed" } else { "" }
        )
    }

    /// Repetitions per run, warm-up included.
    pub fn total_reps(&self) -> usize {
        self.reps as usize + self.warmup as usize
    }
}

/// Every point of a configuration, in the order they run: size, cache state, consumer, then
/// mode innermost, so the modes compared at one size and placement run next to each other in
/// time (a host that moves vCPUs between them cannot pass for a mode difference).
pub fn plan(cfg: &ExchangeConfig) -> Vec<Point> {
    let mut points = Vec::new();
    for &size in &cfg.sizes {
        for &flush in &cfg.flush_cache {
            for &consumer_core in &cfg.consumer_cores {
                for &mode in &cfg.modes {
                    let p = Point {
                        mode,
                        size,
                        producer_core: cfg.producer_core,
                        consumer_core,
                        flush,
                        reps: cfg.reps,
                        warmup: cfg.warmup,
                        runs: cfg.runs,
                    };
                    push_point(&mut points, p);
                }
            }
        }
    }
    points
}

/// Adds `p` to `points`, a single-thread mode on the producer's CPU, unless a point of its
/// mode, size, consumer and cache state is there (a single-thread mode runs once per size
/// and cache state).
pub(crate) fn push_point(points: &mut Vec<Point>, mut p: Point) {
    if p.mode.is_single_thread() {
        p.consumer_core = p.producer_core;
    }
    let key = |q: &Point| (q.mode, q.size, q.consumer_core, q.flush);
    if !points.iter().any(|q| key(q) == key(&p)) {
        points.push(p);
    }
}

/// What every point needs from its surroundings.
pub struct Env<'a> {
    /// How to start a worker: this executable with these arguments (`["__worker"]`), then
    /// the experiment's name and the worker spec ([`super::launcher::spawn_worker`]).
    pub launcher: (PathBuf, Vec<OsString>),
    /// Set by Ctrl-C: stop as soon as possible.
    pub cancel: &'a AtomicBool,
    pub rig: &'a Rig,
    /// What the points' runs read of the configuration: `--file-dir`, the slow producer's
    /// delay, the test fault (hidden `--fault`; see [`fault`]).
    pub cfg: &'a ExchangeConfig,
    /// The fill and sum kernel (`--kernel`).
    pub kernel: crate::kernels::Kernel,
    /// Measures the c2c floor of a CPU pair just before each cross-CPU record (normally
    /// [`super::floor::adjacent_c2c`]; a test double in tests); `None` when it could not.
    pub adjacent_floor: fn(usize, usize) -> Option<f64>,
}

/// Everything an exchange measurement needs from the machine: the clock, its calibration
/// and the topology (`bench exchange` and `handoff report`).
pub struct Rig {
    pub clock: Clock,
    /// Its calibration (converts the workers' ticks).
    pub calibration: Calibration,
    /// Placement classes.
    pub topology: Topology,
}

impl Rig {
    /// Detects the clock and the topology.
    pub fn detect() -> Result<Rig, handoff::Error> {
        let clock = Clock::detect();
        Ok(Rig {
            clock,
            calibration: clock.calibration(),
            topology: Topology::detect()?,
        })
    }

    /// The surroundings of `cfg`'s points on this rig; workers start through `launcher`,
    /// Ctrl-C arrives through `cancel`.
    pub fn env<'a>(
        &'a self,
        cfg: &'a ExchangeConfig,
        cancel: &'a AtomicBool,
        launcher: (PathBuf, Vec<OsString>),
    ) -> Result<Env<'a>, crate::kernels::KernelError> {
        Ok(Env {
            launcher,
            cancel,
            rig: self,
            cfg,
            kernel: crate::kernels::Kernel::choose(&cfg.kernel)?,
            adjacent_floor: super::floor::adjacent_c2c,
        })
    }
}

/// The raw outcome of one run, in ticks.
pub(crate) struct RunData {
    write: Vec<u64>,
    flush: Vec<u64>,
    done: Vec<u64>,
    start: Vec<u64>,
    read: Vec<u64>,
    cpu_ns: u64,
    wall_ticks: u64,
    verified_reps: u64,
}

impl RunData {
    fn from_slots(slots: &samples::SampleSlots<'_>) -> RunData {
        let get = |a: &[std::sync::atomic::AtomicU64]| -> Vec<u64> {
            a.iter().map(|x| x.load(Ordering::Relaxed)).collect()
        };
        RunData {
            write: get(slots.write),
            flush: get(slots.flush),
            done: get(slots.done),
            start: get(slots.start),
            read: get(slots.read),
            cpu_ns: slots.consumer_usage[0].load(Ordering::Relaxed),
            wall_ticks: slots.consumer_usage[1].load(Ordering::Relaxed),
            verified_reps: slots.verified_reps.load(Ordering::Relaxed),
        }
    }
}

/// Measures one point: `runs` fresh pairs, each `warmup + reps` repetitions; `None` when
/// Ctrl-C (or a stop request) cut it short. A failed run (a worker died, a sum was wrong, a
/// deadline passed) is an error naming the point and the run.
pub fn run_point(p: &Point, env: &Env<'_>) -> Result<Option<BenchRecord>, BenchError> {
    let failed = |run: u32, e: RunError| {
        BenchError::failed(record::NAME, format!("{}, run {run}: {e}", p.label()))
    };
    let cal = &env.rig.calibration;
    let w = p.warmup as usize;
    let (mut read, mut latency, mut write, mut flush) = (vec![], vec![], vec![], vec![]);
    let mut anomalies = 0u64;
    let mut cpu_pct = Vec::new();
    // What a run learns about its mode: the pipe's capacity (pipe mode).
    let mut pipe_size = None;
    // The blocks whose sum the consumer checked, and those it did not reach (a failed check
    // ends the run with an error; this catches a consumer that stopped checking).
    let mut checks = crate::bench::Checks::of("blocks");
    for run in 1..=p.runs {
        if env.cancel.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let data = match run_once(p, env, &mut pipe_size) {
            Ok(data) => data,
            Err(_) if env.cancel.load(Ordering::Relaxed) => return Ok(None),
            Err(e) => return Err(failed(run, e)),
        };
        let reps = data.read.len() as u64;
        checks.add(
            data.verified_reps.min(reps),
            reps.saturating_sub(data.verified_reps),
        );
        let us = |t: &[u64]| -> Vec<f64> { t[w..].iter().map(|&x| cal.to_ns(x) / 1e3).collect() };
        let lat: Vec<f64> = (w..data.done.len())
            .map(|i| cal.delta_ns(data.done[i], data.start[i]) / 1e3)
            .collect();
        anomalies += lat.iter().filter(|&&l| l < 0.0).count() as u64;
        let wall_ns = cal.to_ns(data.wall_ticks);
        if wall_ns > 0.0 {
            cpu_pct.push(100.0 * data.cpu_ns as f64 / wall_ns);
        }
        read.push(us(&data.read));
        latency.push(lat);
        write.push(us(&data.write));
        flush.push(us(&data.flush));
    }
    let timed = |s: &[Vec<f64>], spread, zero_ok| {
        time_metric(s, spread, zero_ok).map_err(|e| failed(p.runs, RunError::from(e)))
    };
    let placement = env.rig.topology.placement(p.producer_core, p.consumer_core);
    let key = PointKey {
        mode: p.mode.as_str(),
        size_bytes: p.size as u64,
        producer_core: p.producer_core,
        consumer_core: p.consumer_core,
        placement: placement.as_str(),
        flush_cache: p.flush,
    };
    // A read or write of a small block can be faster than the clock's resolution; a latency
    // cannot.
    let mut b = key
        .record(p.runs as u64, p.reps as u64, checks.verified())
        .metric(record::READ, timed(&read, true, true)?)
        .metric(record::LATENCY, timed(&latency, true, false)?)
        .metric(record::WRITE, timed(&write, false, true)?);
    if p.flush {
        b = b.metric(record::FLUSH, timed(&flush, false, true)?);
    }
    b.checks = Some(checks);
    let info = &mut b.info;
    let wait = p.mode.wait_kind(p.producer_core == p.consumer_core);
    info.insert("wait".into(), wait.as_str().into());
    info.insert("clock_anomalies".into(), anomalies.into());
    let cpu = if !p.mode.is_single_thread() && !cpu_pct.is_empty() {
        stats::mean(&cpu_pct)
    } else {
        100.0
    };
    info.insert("consumer_cpu_pct".into(), cpu.into());
    info.insert("kernel".into(), env.kernel.name().into());
    if let Some(fs) = (p.mode == Mode::File)
        .then(|| handoff_probe::fsinfo::filesystem_type(&env.cfg.file_dir).ok())
        .flatten()
    {
        info.insert("filesystem".into(), fs.into());
    }
    if let Some(size) = pipe_size {
        info.insert("pipe_size_bytes".into(), size.into());
    }
    Ok(Some(b))
}

/// A deadline for one run: generous, so only a stuck run hits it.
fn run_deadline(p: &Point, delay_us: u64) -> Deadline {
    let reps = p.total_reps() as u64;
    // 50 MB/s is far below any memory or pipe bandwidth; plus a fixed 30 s for start-up.
    let per_rep_us = p.size as u64 / 50 + delay_us + 1000;
    Deadline::after(Duration::from_secs(30) + Duration::from_micros(reps * per_rep_us))
}

fn run_once(p: &Point, env: &Env<'_>, pipe_size: &mut Option<u64>) -> Result<RunData, RunError> {
    match p.mode {
        Mode::SingleThread | Mode::File => single::single_thread(p, env),
        Mode::ThreadsSpin | Mode::ThreadsBlocking => threads(p, env),
        _ => worker::run_processes(p, env, pipe_size),
    }
}

/// Runs `f` on a thread pinned to `cpu` (so the caller's own affinity is untouched).
fn on_cpu<T: Send>(
    cpu: usize,
    f: impl FnOnce() -> Result<T, RunError> + Send,
) -> Result<T, RunError> {
    std::thread::scope(|s| {
        s.spawn(|| {
            handoff::sys::pin_current_thread(cpu)?;
            f()
        })
        .join()
        .unwrap_or(Err(RunError::Panicked("the measuring thread")))
    })
}

/// The block of one run: the only block of a 1-block channel (the paper's lock-step).
fn block_channel(size: usize) -> ChannelConfig {
    ChannelConfig::new(size, 1)
}

/// One party of a threads run: pins itself, runs `body`, and tells the other party when it
/// failed (the channel closes by itself when the party's end drops; the condvar mode watches
/// `failed`).
fn party(
    core: usize,
    failed: &AtomicBool,
    body: impl FnOnce() -> Result<(), RunError>,
) -> Result<(), RunError> {
    let r = handoff::sys::pin_current_thread(core)
        .map_err(RunError::from)
        .and_then(|()| body());
    if r.is_err() {
        failed.store(true, Ordering::Relaxed);
    }
    r
}

fn threads(p: &Point, env: &Env<'_>) -> Result<RunData, RunError> {
    let layout = samples::Layout::new(p.total_reps());
    let seg = Segment::anonymous(layout.payload_len())?;
    let slots = layout.slots(&seg)?;
    let (mut tx, mut rx) = Channel::anonymous(block_channel(p.size))?.split()?;
    let deadline = run_deadline(p, env.cfg.producer_delay_us);
    // The consumer's wait in the channel: spin, or spin-yield when both share a CPU.
    let wait = match p.mode.wait_kind(p.producer_core == p.consumer_core) {
        WaitKind::SpinYield => Wait::SpinYield,
        _ => Wait::Spin,
    };
    let failed = AtomicBool::new(false);
    let (full, free) = (OneShot::default(), OneShot::default());
    let clock = env.rig.clock;
    let sync = || -> Box<dyn LockStep + Send + '_> {
        match p.mode {
            Mode::ThreadsBlocking => Box::new(CondvarLockStep {
                full: &full,
                free: &free,
                deadline,
                abort: &failed,
            }),
            _ => Box::new(ChannelLockStep::new(wait, deadline)),
        }
    };
    let (mut sync_p, mut sync_c) = (sync(), sync());
    let (slots, failed) = (&slots, &failed);
    let (prod, cons) = std::thread::scope(|s| {
        let c = s.spawn(move || {
            party(p.consumer_core, failed, || {
                ConsumerLoop {
                    clock: &clock,
                    warmup: p.warmup,
                    kernel: env.kernel,
                }
                .run(&mut rx, &mut *sync_c, slots)
            })
            // `rx` drops here: a producer still waiting sees the channel closed.
        });
        let pr = s.spawn(move || {
            party(p.producer_core, failed, || {
                ProducerLoop {
                    clock: &clock,
                    flush: p.flush,
                    delay_us: env.cfg.producer_delay_us,
                    kernel: env.kernel,
                    fault: env.cfg.fault,
                }
                .run(&mut tx, &mut *sync_p, slots)
            })
        });
        let join = |h: std::thread::ScopedJoinHandle<'_, Result<(), RunError>>, who| {
            h.join().unwrap_or(Err(RunError::Panicked(who)))
        };
        (
            join(pr, "the producer thread"),
            join(c, "the consumer thread"),
        )
    });
    // Report the first real failure, not the partner's "gave up".
    match (prod, cons) {
        (Ok(()), Ok(())) => Ok(RunData::from_slots(slots)),
        (Err(e), Ok(())) | (Ok(()), Err(e)) => Err(e),
        (Err(a), Err(b)) => Err(if a.noticed_peer() { b } else { a }),
    }
}

/// A process-unique counter for segment and semaphore names.
pub(crate) fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The exchange's run (`bench exchange`, `handoff report`): the c2c floor of every distinct
/// CPU pair of `matrix` (the report's c2c matrix) and of `points` not in `known`, then every
/// point through the lab's run loop
/// ([`RunCtx::run_points`]), each cross-CPU record with the floor measured just before it;
/// the results of `config`, the pairs in [`BenchResults::c2c`], the records grouped by mode.
/// Ctrl-C, or `stop_after` records, end it early with partial results; a failed run is an
/// error.
pub fn run(
    ctx: &mut RunCtx<'_>,
    config: &impl serde::Serialize,
    points: &[Point],
    env: &Env<'_>,
    (matrix, known): (&[(usize, usize)], &[C2cPair]),
    stop_after: Option<usize>,
) -> Result<BenchResults, BenchError> {
    let failed = |e: &dyn std::fmt::Display| BenchError::failed(record::NAME, e);
    let cross = points
        .iter()
        .filter(|p| p.producer_core != p.consumer_core)
        .map(|p| (p.producer_core, p.consumer_core));
    let ordered = |a: usize, b: usize| (a.min(b), a.max(b));
    let known_pairs: Vec<_> = known.iter().map(|k| ordered(k.cpu_a, k.cpu_b)).collect();
    let pairs = stats::distinct(
        matrix
            .iter()
            .copied()
            .chain(cross)
            .map(|(a, b)| ordered(a, b))
            .filter(|p| !known_pairs.contains(p)),
    );
    let mut c2c = known.to_vec();
    if !pairs.is_empty() {
        let opts = handoff_probe::floor::C2cOptions::default();
        let measured =
            super::c2c::measure(&pairs, &opts, &env.rig.topology, env.cancel, ctx.progress)
                .map_err(|e| failed(&e))?;
        c2c.extend(measured.into_iter().map(|m| m.pair));
    }
    let mut res = ctx.run_points(record::NAME, config, points, |_, res, p| {
        if stop_after.is_some_and(|n| res.records.len() >= n) {
            res.partial = true;
            res.stopped_early = Some(format!(
                "stopped on request after {} of {} records",
                res.records.len(),
                points.len()
            ));
            return Ok(None);
        }
        // The floor next to the record, not only at the start: the host may move vCPUs during
        // a long run, and a latency must be compared with the floor of its own moment. When
        // it fails the record carries none, and readers fall back to the run's matrix
        // (`record::ExchangeResults::floor_for`), which says it is not from the record's moment.
        let adjacent_floor = (p.producer_core != p.consumer_core)
            .then(|| (env.adjacent_floor)(p.producer_core, p.consumer_core))
            .flatten();
        // Cut short: the loop sees Ctrl-C next and marks the results partial.
        let Some(mut rec) = run_point(p, env)? else {
            return Ok(None);
        };
        rec.c2c_one_way_ns = adjacent_floor;
        res.records.push(rec);
        Ok(Some(p.label()))
    })?;
    // Measured interleaved (see `plan`); presented grouped by mode.
    res.records.sort_by_key(|r| {
        (
            r.mode().parse::<Mode>().ok(),
            r.size_bytes(),
            r.flush_cache(),
            r.consumer_core(),
        )
    });
    res.c2c = c2c;
    record::add_notes(&mut res);
    Ok(res)
}

#[cfg(test)]
mod tests;
