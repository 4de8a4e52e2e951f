//! `handoff bench queue`.

use clap::Args;
use handoff_lab::experiments::queue::{self, Config, Kind};

use crate::cli_bench::{parse_list, BenchOutputArgs};
use crate::cli_rt::parse_sizes;
use crate::Failure;

/// Flags of `handoff bench queue`.
#[derive(Debug, Args)]
pub struct QueueArgs {
    /// Queues: spsc, rtrb, crossbeam, lanes, array, locked (comma list); also spsc-spin
    /// (handoff's SPSC ring waiting with --wait spin instead of the default wait, threads
    /// only: beside spsc, the default-vs-spin rows).
    #[arg(long, default_value = "spsc,rtrb,crossbeam,lanes,array,locked")]
    queues: String,
    /// Message sizes: 8, 16, 32, 64, 128, 256, 512 or 1024 bytes (comma list).
    #[arg(long)]
    sizes: Option<String>,
    /// Producers of the MPSC lines.
    #[arg(long)]
    producers: Option<usize>,
    /// Threads only (no cross-process lines).
    #[arg(long)]
    threads_only: bool,
    /// Messages per timed block.
    #[arg(long)]
    count: Option<u64>,
    /// Round trips per timed block.
    #[arg(long)]
    rtt_iters: Option<u64>,
    /// CPUs: the consumer on the first, producers round-robin from the second.
    #[arg(long, default_value = "all")]
    cpus: String,
    /// Timed blocks per run.
    #[arg(long)]
    reps: Option<u64>,
    /// Runs (fresh threads or processes each).
    #[arg(long)]
    runs: Option<u64>,
    /// Test hook: corrupt one message (verification must fail, exit 3).
    #[arg(long, hide = true)]
    fault: bool,
    #[command(flatten)]
    out: BenchOutputArgs,
}

/// Runs `handoff bench queue`.
pub fn run(a: QueueArgs) -> Result<u8, Failure> {
    let (allowed, cpus) = a.out.check_cpus(&a.cpus)?;
    let mut cfg = Config::for_report(false, &cpus);
    cfg.kinds = parse_list(
        &a.queues,
        "--queues",
        "use spsc, spsc-spin, rtrb, crossbeam, lanes, array or locked",
        Kind::parse,
    )?;
    if let Some(s) = &a.sizes {
        cfg.sizes = parse_sizes(s, "--sizes")?;
    }
    cfg.producers = a.producers.unwrap_or(cfg.producers);
    cfg.processes = !a.threads_only;
    cfg.count = a.count.unwrap_or(cfg.count);
    cfg.rtt_iters = a.rtt_iters.unwrap_or(cfg.rtt_iters);
    cfg.reps = a.reps.unwrap_or(cfg.reps);
    cfg.runs = a.runs.unwrap_or(cfg.runs);
    cfg.fault = a.fault;
    cfg.validate()?;
    a.out.run(&allowed, |ctx| queue::run(&cfg, ctx))
}
