//! `private-vars` (Charm++ seed 002, "Handling processor private variables"): per-thread
//! counters kept in thread-local storage, in one shared array (neighbours share a cache line:
//! false sharing), or in a cache-padded array — ns per access against the number of threads.
//!
//! Every method runs the same instructions (a relaxed load and store of an `AtomicU64`, what a
//! plain `var[rank]++` compiles to, kept data-race free); only where the counter lives
//! differs. Threads are pinned round-robin over the allowed CPUs (more threads than CPUs share
//! them). Each repetition starts all threads at a barrier and times the slowest; every
//! counter is checked against the exact number of increments at the end of a run.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Barrier;
use std::time::Instant;

use super::rt_common;
use crate::bench::experiment::{
    metric, BenchError, ExperimentInfo, FigureSpec, ReportCost, RunCtx,
};
use crate::bench::findings::{at_least_if, most_threads_with_a_cpu, run_means};
use crate::bench::{BenchRecord, BenchResults, Checks, Finding};

const NAME: &str = "private-vars";

pub static INFO: ExperimentInfo = ExperimentInfo {
    name: NAME,
    title: "Private variables: thread-local vs shared array vs padded array",
    section: "Runtime queues (Charm++, many-core)",
    seed: "Mei et al., Charm++ on multicore (seed 002), \"Handling processor private variables\"",
    what: "Each thread increments its own counter; the counter lives in thread-local storage \
           (`tls`), in one array indexed by thread (`shared-array`, neighbours share a cache \
           line) or in a 128-byte padded array (`padded-array`). Time per access, slowest \
           thread, against threads (pinned round-robin); every counter is checked at the end.",
    figures: &[FigureSpec {
        x_label: "threads",
        x_is_size: false,
        log_x: false,
        ..FigureSpec::vs_size(
            "private_vars",
            "Private variables: ns per access vs threads",
            "access_ns",
        )
    }],
    findings,
    run: Some(|ctx| run(&Config::for_report(ctx.quick, ctx.allowed_cpus), ctx)),
    worker: None,
    report_cost: ReportCost::fixed(0.5, 0.1),
    draw: None,
    report: None,
};

super::named::named_enum! {
    /// Where the counters live.
    pub enum Method {
        /// `thread_local!`.
        Tls = "tls",
        /// `[AtomicU64; n]`, 8 bytes apart.
        SharedArray = "shared-array",
        /// One 128-byte aligned slot per thread.
        PaddedArray = "padded-array",
    }
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct Config {
    pub methods: Vec<Method>,
    /// Thread counts.
    pub threads: Vec<usize>,
    /// Increments per thread per repetition.
    pub accesses: u64,
    /// Repetitions per run.
    pub reps: u64,
    /// Runs (fresh threads each).
    pub runs: u64,
    /// CPUs to pin to, round-robin.
    pub cpus: Vec<usize>,
}

impl Config {
    /// The report's plan: threads 1, 2, … up to 2× the CPUs (doubling), every method.
    pub fn for_report(quick: bool, cpus: &[usize]) -> Config {
        Config {
            methods: Method::ALL.to_vec(),
            threads: rt_common::doubling_to(2 * cpus.len().max(1)),
            accesses: if quick { 200_000 } else { 1_000_000 },
            reps: if quick { 5 } else { 10 },
            runs: if quick { 2 } else { 3 },
            cpus: cpus.to_vec(),
        }
    }

    pub fn validate(&self) -> Result<(), BenchError> {
        let bad = |m: String| BenchError::usage(NAME, m);
        if self.methods.is_empty() {
            return Err(bad(
                "no method: use --method tls,shared-array,padded-array".into()
            ));
        }
        if self.threads.is_empty() || self.threads.contains(&0) {
            return Err(bad(
                "--threads needs counts of at least 1, e.g. 1,2,4".into()
            ));
        }
        if let Some(t) = self.threads.iter().find(|&&t| t > 1024) {
            return Err(bad(format!("--threads {t}: at most 1024 threads")));
        }
        if self.accesses == 0 || self.reps == 0 || self.runs == 0 {
            return Err(bad(
                "--accesses, --reps and --runs must be at least 1".into()
            ));
        }
        if self.cpus.is_empty() {
            return Err(bad("no CPU to run on".into()));
        }
        if self.accesses > MAX_ACCESSES {
            return Err(bad(format!(
                "--accesses {}: at most {MAX_ACCESSES} per repetition (seconds of work; use \
                 --reps for more)",
                self.accesses
            )));
        }
        if self.reps > MAX_REPS || self.runs > MAX_REPS {
            return Err(bad(format!("--reps and --runs: at most {MAX_REPS}")));
        }
        Ok(())
    }
}

#[repr(align(128))]
struct Padded(AtomicU64);

thread_local! {
    static TLS_COUNTER: AtomicU64 = const { AtomicU64::new(0) };
}

/// Most increments per thread per repetition (about a second at 1 ns each).
pub const MAX_ACCESSES: u64 = 1 << 30;
/// Most repetitions per run, and runs.
pub const MAX_REPS: u64 = 100_000;
/// Increments between two looks at the cancel flag (about a millisecond).
const CHUNK: u64 = 1 << 20;

/// `bump` in chunks of [`CHUNK`], stopping early once `cancel` is set (Ctrl-C is seen
/// within milliseconds even for the largest counts). The flag is read before the first
/// chunk too: the repetitions left after a Ctrl-C then cost two barrier waits each, not a
/// chunk each (1,000 of them took 13 s in an unoptimized build).
fn bump_until_cancelled(c: &AtomicU64, n: u64, cancel: &AtomicBool) {
    let mut left = n;
    while left > 0 && !cancel.load(Ordering::Relaxed) {
        let k = left.min(CHUNK);
        bump(c, k);
        left -= k;
    }
}

#[inline(never)]
fn bump(c: &AtomicU64, n: u64) {
    for _ in 0..n {
        // Load + store, not an RMW: what `var[rank]++` is; the counter is this thread's alone.
        let v = c.load(Ordering::Relaxed);
        c.store(v + 1, Ordering::Relaxed);
    }
}

/// One run: fresh threads, `reps` timed repetitions; returns ns per access (slowest thread)
/// per repetition and the counters checked (one per thread) and found wrong.
fn one_run(
    cfg: &Config,
    method: Method,
    threads: usize,
    cancel: &AtomicBool,
) -> (Vec<f64>, [u64; 2]) {
    let shared: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
    let padded: Vec<Padded> = (0..threads).map(|_| Padded(AtomicU64::new(0))).collect();
    let start = Barrier::new(threads + 1);
    let done = Barrier::new(threads + 1);
    let mut samples = Vec::with_capacity(cfg.reps as usize);
    let (checked, wrong) = (AtomicU64::new(0), AtomicU64::new(0));
    std::thread::scope(|s| {
        for t in 0..threads {
            let (shared, padded, start, done) = (&shared, &padded, &start, &done);
            let (checked, wrong) = (&checked, &wrong);
            let cpu = cfg.cpus[t % cfg.cpus.len()];
            s.spawn(move || {
                super::rt_common::pin(cpu);
                TLS_COUNTER.with(|tls| {
                    tls.store(0, Ordering::Relaxed);
                    // This thread's counter: its thread-local's, or its slot of an array.
                    let c = match method {
                        Method::Tls => tls,
                        Method::SharedArray => &shared[t],
                        Method::PaddedArray => &padded[t].0,
                    };
                    for _ in 0..cfg.reps {
                        start.wait();
                        bump_until_cancelled(c, cfg.accesses, cancel);
                        done.wait();
                    }
                    // A cancelled run stops short: its counts are not checked.
                    if cancel.load(Ordering::Relaxed) {
                        return;
                    }
                    checked.fetch_add(1, Ordering::Relaxed);
                    if c.load(Ordering::Relaxed) != cfg.accesses * cfg.reps {
                        wrong.fetch_add(1, Ordering::Relaxed);
                    }
                })
            });
        }
        for _ in 0..cfg.reps {
            start.wait();
            let t0 = Instant::now();
            done.wait();
            let ns = t0.elapsed().as_nanos() as f64;
            if !cancel.load(Ordering::Relaxed) || samples.is_empty() {
                samples.push(ns / cfg.accesses as f64);
            }
        }
    });
    (samples, [checked.into_inner(), wrong.into_inner()])
}

/// Runs `cfg`; stops early (partial) when `ctx.cancel` is set.
pub fn run(cfg: &Config, ctx: &mut RunCtx<'_>) -> Result<BenchResults, BenchError> {
    cfg.validate()?;
    let points: Vec<(usize, Method)> = cfg
        .threads
        .iter()
        .flat_map(|&t| cfg.methods.iter().map(move |&m| (t, m)))
        .collect();
    let mut res = ctx.run_points(NAME, cfg, &points, |ctx, res, &(threads, method)| {
        let mut per_run = Vec::new();
        let mut checks = Checks::of("counters");
        for _ in 0..cfg.runs {
            let (s, [c, w]) = one_run(cfg, method, threads, ctx.cancel);
            checks.add(c, w);
            per_run.push(s);
        }
        let m = metric(NAME, "ns", false, &per_run)?;
        res.records.push(
            BenchRecord::new(method.name(), threads as f64, cfg.runs, cfg.reps, false)
                .checked(checks)
                .param("method", method.name())
                .param("threads", threads)
                .metric("access_ns", m),
        );
        Ok(Some(format!("{} × {threads}", method.name())))
    })?;
    let why = "their time includes waiting for a CPU";
    rt_common::note_oversubscribed(&mut res.notes, &cfg.threads, cfg.cpus.len(), why);
    Ok(res)
}

/// The seed's claim: the array costs several times the thread-local access (5–130× there),
/// checked at the largest thread count that still has a CPU per thread (≥ 2).
fn findings(res: &BenchResults) -> Vec<Finding> {
    let runs_of = |series: &str, t: f64| run_means(res, series, t, "access_ns");
    let Some(t) = most_threads_with_a_cpu(res) else {
        return vec![crate::bench::findings::judge(
            "a shared per-thread array costs several times thread-local storage (seed: 5–130×)",
            "shared-array / tls",
            None,
            2.0,
        )];
    };
    let mut out = Vec::new();
    out.extend(at_least_if(
        &format!(
            "a shared per-thread array costs at least 2× thread-local storage at {t} threads (seed: 5–130×)"
        ),
        "shared-array / tls",
        runs_of("shared-array", t),
        runs_of("tls", t),
        2.0,
    ));
    out.extend(at_least_if(
        &format!("padding the array removes the cost (shared / padded ≥ 2× at {t} threads)"),
        "shared-array / padded-array",
        runs_of("shared-array", t),
        runs_of("padded-array", t),
        2.0,
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_counter_is_checked() {
        let cfg = Config {
            methods: Method::ALL.to_vec(),
            threads: vec![3],
            accesses: 1000,
            reps: 3,
            runs: 1,
            cpus: vec![0],
        };
        let cancel = AtomicBool::new(false);
        for m in Method::ALL {
            let (samples, [checked, wrong]) = one_run(&cfg, m, 3, &cancel);
            assert_eq!(samples.len(), 3);
            assert_eq!((checked, wrong), (3, 0), "{m:?}: one counter per thread");
            assert!(samples.iter().all(|s| *s > 0.0));
        }
    }

    #[test]
    fn report_plan_doubles_up_to_twice_the_cpus() {
        assert_eq!(Config::for_report(true, &[0, 1]).threads, vec![1, 2, 4]);
        assert_eq!(
            Config::for_report(true, &[0, 1, 2]).threads,
            vec![1, 2, 4, 6]
        );
        assert!(Config {
            threads: vec![0],
            ..Config::for_report(true, &[0])
        }
        .validate()
        .is_err());
    }
}
