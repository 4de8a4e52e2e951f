//! `handoff bench aggregation`.

use clap::Args;
use handoff_lab::experiments::aggregation::{self, Config};

use crate::cli_bench::BenchOutputArgs;
use crate::cli_rt::parse_sizes;
use crate::Failure;

/// Flags of `handoff bench aggregation`.
#[derive(Debug, Args)]
pub struct AggregationArgs {
    /// Message sizes (comma list, 16 B .. 4 KiB).
    #[arg(long)]
    msg_sizes: Option<String>,
    /// Frame sizes (comma list; one message per frame is always measured too).
    #[arg(long)]
    frame_sizes: Option<String>,
    /// Messages per timed block.
    #[arg(long)]
    count: Option<u64>,
    /// CPUs: the consumer on the first, the producer on the second.
    #[arg(long, default_value = "all")]
    cpus: String,
    /// Timed blocks per run.
    #[arg(long)]
    reps: Option<u64>,
    /// Runs (fresh threads each).
    #[arg(long)]
    runs: Option<u64>,
    #[command(flatten)]
    out: BenchOutputArgs,
}

/// Runs `handoff bench aggregation`.
pub fn run(a: AggregationArgs) -> Result<u8, Failure> {
    let (allowed, cpus) = a.out.check_cpus(&a.cpus)?;
    let mut cfg = Config::for_report(false, &cpus);
    if let Some(s) = &a.msg_sizes {
        cfg.msg_sizes = parse_sizes(s, "--msg-sizes")?;
    }
    if let Some(s) = &a.frame_sizes {
        cfg.frame_sizes = parse_sizes(s, "--frame-sizes")?;
    }
    cfg.count = a.count.unwrap_or(cfg.count);
    cfg.reps = a.reps.unwrap_or(cfg.reps);
    cfg.runs = a.runs.unwrap_or(cfg.runs);
    cfg.validate()?;
    a.out.run(&allowed, |ctx| aggregation::run(&cfg, ctx))
}
