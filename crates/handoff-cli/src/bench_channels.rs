//! `handoff bench channels`.

use clap::Args;
use handoff_lab::experiments::channels::{self, Config};

use crate::cli_bench::BenchOutputArgs;
use crate::cli_rt::parse_list;
use crate::Failure;

/// Flags of `handoff bench channels`.
#[derive(Debug, Args)]
pub struct ChannelsArgs {
    /// Values of n = producers = consumers = XConn's queues (comma list).
    #[arg(long)]
    n: Option<String>,
    /// Messages per run in all, split over the producers.
    #[arg(long)]
    count: Option<u64>,
    /// Threads only (no producer processes).
    #[arg(long)]
    threads_only: bool,
    /// CPUs, round-robin over producers then consumers.
    #[arg(long, default_value = "all")]
    cpus: String,
    /// Runs (fresh threads or processes each).
    #[arg(long)]
    runs: Option<u64>,
    #[command(flatten)]
    out: BenchOutputArgs,
}

/// Runs `handoff bench channels`.
pub fn run(a: ChannelsArgs) -> Result<u8, Failure> {
    let (allowed, cpus) = a.out.check_cpus(&a.cpus)?;
    let mut cfg = Config::for_report(false, &cpus);
    if let Some(n) = &a.n {
        cfg.n = parse_list(n, "--n", "1,2,4,6")?;
    }
    cfg.count = a.count.unwrap_or(cfg.count);
    cfg.processes = !a.threads_only;
    cfg.runs = a.runs.unwrap_or(cfg.runs);
    cfg.validate()?;
    a.out.run(&allowed, |ctx| channels::run(&cfg, ctx))
}
