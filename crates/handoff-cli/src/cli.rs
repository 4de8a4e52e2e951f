//! Argument parsing and dispatch. The lab does the work; this file only turns flags into its
//! configurations and its results into files and exit codes.

use crate::cli_report::{self, ReportArgs};
use crate::common::{allowed_cpus, overrides, parse_cores, CommonExchangeArgs};
use crate::Failure;
use clap::{Args, Parser, Subcommand};
use handoff_lab::experiments::exchange::{self, ExchangeConfig};
use std::path::{Path, PathBuf};

/// Measure how fast two processes (or two threads) on this machine hand data to each other.
///
/// Start with `handoff report`: it characterizes the machine and writes a report with plots
/// and a recommendation. `handoff bench NAME` runs one experiment.
#[derive(Debug, Parser)]
#[command(name = "handoff", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Characterize this machine: c2c floor, exchange per CPU, size sweep, cache effects;
    /// writes results, plots, report.md and index.html into one folder.
    Report(ReportArgs),
    /// Run one experiment.
    #[command(subcommand)]
    Bench(Bench),
    /// Re-draw every plot from a results file.
    Plot {
        /// A results.json written by `report` or `bench exchange --format json`, or a
        /// `bench c2c --format json` file (drawn as a heatmap).
        results: PathBuf,
        /// Output folder (default: the results file's folder).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Compare results files: ratio B/A of means with a 95% CI per matched record; a change
    /// counts only when the CI excludes 1 and it exceeds the noise threshold.
    ///
    /// `compare A.json B.json`, or, for a regression gate, several invocations per side:
    /// `compare A1.json A2.json A3.json --vs B1.json B2.json B3.json` (the CI is then over
    /// invocations). Records whose c2c floor moved between A and B are inconclusive, never
    /// FAIL. Exit codes: 0 ok, 1 when --fail-above is exceeded, 2 usage error or bad input
    /// file, 3 nothing matched or another runtime error.
    Compare {
        /// The baseline file(s) A, then (without --vs) the file B to compare against it.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// The files of side B (one per invocation); the positional files are then all A.
        #[arg(long, num_args = 1.., value_name = "B.json")]
        vs: Vec<PathBuf>,
        /// Exit with 1 when a ratio B/A (CI lower bound) exceeds this, e.g. 1.10.
        #[arg(long, value_name = "RATIO")]
        fail_above: Option<f64>,
        /// Changes smaller than this fraction are noise: never slower or faster (0.05 = 5%).
        #[arg(long, value_name = "FRACTION", default_value_t = handoff_lab::bench::verdict::DEFAULT_NOISE_THRESHOLD)]
        noise_threshold: f64,
        /// With one file on a side, a difference counts only beyond this factor: the drift
        /// between invocations of the same binary (2-3x on a shared VM). 1 trusts one
        /// invocation's runs (a quiet bare-metal machine).
        #[arg(long, value_name = "FACTOR", default_value_t = handoff_lab::bench::verdict::SINGLE_INVOCATION_DRIFT)]
        drift: f64,
        /// table or json.
        #[arg(long, default_value = "table")]
        format: String,
    },
    /// Remove shared-memory segments left behind by handoff processes that died.
    Cleanup,
    /// Start a team of N processes (PEs) of PROGRAM that join one handoff team:
    /// `handoff run -n 4 -- ./my_pe_program ARGS`. Exit codes: 0 all PEs ok, 2 bad usage,
    /// 3 launcher failure, 4 a PE exited non-zero, 5 a PE was killed, 126/127 PROGRAM not
    /// executable / not found.
    Run(crate::run::RunArgs),
    /// Internal: a worker process of a cross-process experiment.
    #[command(name = "__worker", hide = true)]
    Worker {
        /// The experiment.
        experiment: String,
        /// Its arguments (exchange: one JSON spec).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

#[derive(Debug, Subcommand)]
enum Bench {
    /// The source paper's experiment: a producer fills a block, a consumer sums it, in
    /// lock-step, between threads or processes, per mode, size, consumer CPU and cache state.
    Exchange(ExchangeArgs),
    /// The hardware floor: one cache line bounced between every pair of CPUs (one-way ns).
    C2c(C2cArgs),
    /// Charm++'s private variables: per-thread counters in thread-local storage vs a shared
    /// array (false sharing) vs a padded array; ns per access vs threads.
    PrivateVars(crate::bench_private_vars::PrivateVarsArgs),
    /// Counting puts (seed 003): half round trip between 2 PEs, put + fence + flag vs
    /// put-with-signal vs counting put vs one cache line, per size and placement.
    Pingpong(crate::bench_pingpong::PingpongArgs),
    /// Counting puts (seed 003): all-to-all bandwidth per PE and per node, synchronized by a
    /// barrier, by fence + flags, or by counting puts, over sizes and team sizes.
    Alltoall(crate::bench_alltoall::AlltoallArgs),
    /// Counting puts (seed 003): PRK's pipelined synch_p2p stencil, boundary values sent by
    /// fence + flag, put-with-signal or counting puts; strong and weak scaling, MFLOP/s.
    Stencil(crate::bench_stencil::StencilArgs),
    /// Charm++'s allocator test: every thread allocates 100,000 blocks then frees them;
    /// system malloc vs mimalloc, µs per allocate+free vs threads.
    Malloc(crate::bench_malloc::MallocArgs),
    /// Charm++'s kNeighbor: PEs on a ring exchange messages with k neighbours per side;
    /// µs per iteration vs size, per placement map (compact, spread, a CPU list).
    Kneighbor(crate::bench_kneighbor::KneighborArgs),
    /// handoff's queues vs rtrb, crossbeam and a locked queue: messages/s and round trip vs
    /// message size, SPSC and MPSC, threads and processes.
    Queue(crate::bench_queue::QueueArgs),
    /// The many-core seed's aggregation: message size × frame size → messages/s and
    /// latency median/p99/p99.9.
    Aggregation(crate::bench_aggregation::AggregationArgs),
    /// The many-core seed's channels: X producers and consumers on one queue (XPYC) vs X
    /// queues of one pair each (XConn); throughput, per-thread and tail latency.
    Channels(crate::bench_channels::ChannelsArgs),
    /// The many-core seed's RMA half: the same payloads as messages and as one-sided puts
    /// with a signal, 8 B .. 4 MiB, XPYC and XConn; the message-vs-RMA crossover.
    RmaChannels(crate::bench_rma_channels::RmaChannelsArgs),
    /// foMPI's one-sided synchronization modes on the team's epochs (fence, PSCW, locks,
    /// flush, sync): µs per synchronization vs PEs, with fitted performance models.
    RmaSync(crate::bench_rma_sync::RmaSyncArgs),
    /// foMPI's atomics on the team: accumulate Sum / Min of s elements, fetch-add and
    /// compare-and-swap on one remote word, uncontended and contended.
    Atomics(crate::bench_atomics::AtomicsArgs),
    /// foMPI's message rate: ns per put in a batch of puts with one completion, vs size.
    Msgrate(crate::bench_msgrate::SizesArgs),
    /// foMPI's overlap: how much of put_nbi a computation before its quiet hides, vs size.
    Overlap(crate::bench_msgrate::SizesArgs),
}

#[derive(Debug, Args)]
struct ExchangeArgs {
    #[command(flatten)]
    common: CommonExchangeArgs,
    /// The producer's CPU.
    #[arg(long, default_value_t = 0)]
    producer_core: usize,
    /// Repetitions discarded before measuring, per run.
    #[arg(long, default_value_t = 10)]
    warmup: u32,
    /// Flush the block from every cache after writing it (clflushopt + sfence), excluded from
    /// the metrics and reported as flush_us.
    #[arg(long)]
    flush_cache: bool,
    /// Where `file` mode writes (default: the system temp dir).
    #[arg(long)]
    file_dir: Option<PathBuf>,
    #[command(flatten)]
    out: crate::cli_bench::BenchOutputArgs,
    /// Slow producer: sleep this many microseconds before each fill (to watch what a waiting
    /// consumer costs in CPU).
    #[arg(long, default_value_t = 0, hide = true)]
    producer_delay_us: u64,
    /// Test only: a deliberate fault, skip-fill@REP (a stale block) or producer-sigbus@REP.
    #[arg(long, hide = true)]
    fault: Option<exchange::fault::Fault>,
}

#[derive(Debug, Args)]
struct C2cArgs {
    /// CPUs to measure between: a list such as 0-3,8, or `all`.
    #[arg(long, default_value = "all")]
    cores: String,
    /// Samples per pair (each the mean of --round-trips round trips).
    #[arg(long, default_value_t = 100)]
    samples: u32,
    /// Round trips per sample.
    #[arg(long, default_value_t = 1000)]
    round_trips: u32,
    #[command(flatten)]
    out: crate::cli_bench::BenchOutputArgs,
}

/// Runs the command; `Ok(exit code)`.
pub fn run(cli: Cli) -> Result<u8, Failure> {
    match cli.command {
        Command::Worker { experiment, args } => crate::cli_bench::worker(&experiment, &args),
        Command::Bench(Bench::Exchange(a)) => bench_exchange(a),
        Command::Bench(Bench::C2c(a)) => bench_c2c(a),
        Command::Bench(Bench::PrivateVars(a)) => crate::bench_private_vars::run(a),
        Command::Bench(Bench::Pingpong(a)) => {
            crate::mpi_bench::run("pingpong", || crate::bench_pingpong::run(a))
        }
        Command::Bench(Bench::Alltoall(a)) => {
            crate::mpi_bench::run("alltoall", || crate::bench_alltoall::run(a))
        }
        Command::Bench(Bench::Stencil(a)) => {
            crate::mpi_bench::run("stencil", || crate::bench_stencil::run(a))
        }
        Command::Bench(Bench::Malloc(a)) => crate::bench_malloc::run(a),
        Command::Bench(Bench::Kneighbor(a)) => crate::bench_kneighbor::run(a),
        Command::Bench(Bench::Queue(a)) => crate::bench_queue::run(a),
        Command::Bench(Bench::Aggregation(a)) => crate::bench_aggregation::run(a),
        Command::Bench(Bench::Channels(a)) => crate::bench_channels::run(a),
        Command::Bench(Bench::RmaChannels(a)) => crate::bench_rma_channels::run(a),
        Command::Bench(Bench::RmaSync(a)) => {
            crate::mpi_bench::run("rma-sync", || crate::bench_rma_sync::run(a))
        }
        Command::Bench(Bench::Atomics(a)) => crate::bench_atomics::run(a),
        Command::Bench(Bench::Msgrate(a)) => crate::bench_msgrate::run(a, false),
        Command::Bench(Bench::Overlap(a)) => crate::bench_msgrate::run(a, true),
        Command::Report(a) => cli_report::report(a),
        Command::Plot { results, out } => plot(&results, out.as_deref()),
        Command::Compare {
            files,
            vs,
            fail_above,
            noise_threshold,
            drift,
            format,
        } => compare(&files, &vs, (fail_above, noise_threshold, drift), &format),
        Command::Cleanup => cleanup(),
        Command::Run(a) => crate::run::run(a),
    }
}

fn bench_exchange(a: ExchangeArgs) -> Result<u8, Failure> {
    let allowed = allowed_cpus()?;
    let mut cfg = ExchangeConfig {
        consumer_cores: allowed.clone(),
        producer_core: a.producer_core,
        warmup: a.warmup,
        flush_cache: vec![a.flush_cache],
        producer_delay_us: a.producer_delay_us,
        fault: a.fault,
        ..ExchangeConfig::default()
    };
    if let Some(d) = a.file_dir {
        cfg.file_dir = d;
    }
    cfg.apply(&overrides(&a.common, &allowed)?)?;
    cfg.validate(&allowed)?;
    a.out.check()?;
    let plan = exchange::report_plan::ExchangePlan::of_config(cfg)?;
    a.out.run(&allowed, |ctx| plan.run(ctx, &plan.cfg, None))
}

fn bench_c2c(a: C2cArgs) -> Result<u8, Failure> {
    a.out.check()?;
    let cpus = parse_cores(&a.cores, &allowed_cpus()?, "--cores")?;
    a.out.run(&cpus, |ctx| {
        handoff_lab::experiments::c2c::run(ctx, &cpus, a.samples, a.round_trips)
    })
}

fn plot(results: &Path, out: Option<&Path>) -> Result<u8, Failure> {
    let dir = match out {
        Some(d) => d.to_path_buf(),
        None => results
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf(),
    };
    // The input is read and checked before anything is created; an output folder that
    // cannot be made is bad usage (2), as `bench -o` to an unwritable place is.
    let res = crate::cli_bench::load(results)?;
    let written = handoff_lab::report::write_figures(&res, Some(results), &dir).map_err(|e| {
        use handoff_lab::report::ReportError;
        match e {
            ReportError::CreateDir { .. } => Failure::usage(format!("--out: {e}")),
            ReportError::Input(_) => Failure::usage(e.to_string()),
            _ => Failure::runtime(e.to_string()),
        }
    })?;
    for f in written.files {
        if f.extension().is_some_and(|x| x == "png" || x == "svg") {
            println!("{}", f.display());
        }
    }
    Ok(0)
}

fn compare(
    files: &[PathBuf],
    vs: &[PathBuf],
    (fail_above, noise, drift): (Option<f64>, f64, f64),
    format: &str,
) -> Result<u8, Failure> {
    if !matches!(format, "table" | "json") {
        return Err(Failure::usage(format!(
            "--format {format}: use table or json"
        )));
    }
    let (a, b) = match (files, vs.is_empty()) {
        ([a, b], true) => (std::slice::from_ref(a), std::slice::from_ref(b)),
        (_, true) => {
            return Err(Failure::usage(format!(
                "compare takes A.json B.json, or A1.json A2.json ... --vs B1.json B2.json ... \
                 (got {} file(s) and no --vs)",
                files.len()
            )))
        }
        (a, false) => (a, vs),
    };
    crate::cli_bench::compare(a, b, (fail_above, noise, drift), format)
}

fn cleanup() -> Result<u8, Failure> {
    let removed =
        handoff_probe::cleanup::cleanup_all_stale().map_err(|e| Failure::runtime(e.to_string()))?;
    if removed.segments.is_empty() && removed.semaphores.is_empty() {
        println!("no stale handoff segments");
    }
    for name in removed.segments {
        println!("removed {name}");
    }
    for name in removed.semaphores {
        println!("removed semaphore {name}");
    }
    Ok(0)
}
