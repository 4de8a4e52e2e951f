//! `handoff bench malloc`.

use clap::Args;
use handoff_lab::experiments::malloc::{self, Config};

use crate::cli_bench::BenchOutputArgs;
use crate::cli_rt::parse_list;
use crate::Failure;

/// Flags of `handoff bench malloc`.
#[derive(Debug, Args)]
pub struct MallocArgs {
    /// Allocators: system, mimalloc (comma list).
    #[arg(long, default_value = "system,mimalloc")]
    allocator: String,
    /// Thread counts (comma list; default 1, 2, 4 … up to twice the CPUs).
    #[arg(long)]
    threads: Option<String>,
    /// Block size in bytes (8 B .. 1 MiB).
    #[arg(long)]
    size: Option<String>,
    /// Allocations per thread per repetition (the seed: 100000).
    #[arg(long)]
    count: Option<usize>,
    /// CPUs to pin the threads to, round-robin (a list such as 0-3,8, or `all`).
    #[arg(long, default_value = "all")]
    cpus: String,
    /// Repetitions per run.
    #[arg(long)]
    reps: Option<u64>,
    /// Runs (fresh threads each).
    #[arg(long)]
    runs: Option<u64>,
    /// Test only: corrupt@N overwrites a byte of block N (thread 0, first repetition).
    #[arg(long, hide = true)]
    fault: Option<String>,
    #[command(flatten)]
    out: BenchOutputArgs,
}

/// Runs `handoff bench malloc`.
pub fn run(a: MallocArgs) -> Result<u8, Failure> {
    let (allowed, cpus) = a.out.check_cpus(&a.cpus)?;
    let mut cfg = Config::for_report(false, &cpus);
    cfg.allocators = crate::cli_bench::choices(&a.allocator, "--allocator")?;
    if let Some(t) = &a.threads {
        cfg.threads = parse_list(t, "--threads", "1,2,4")?;
    }
    if let Some(s) = &a.size {
        cfg.size = handoff_lab::units::parse_size(s)
            .map_err(|e| Failure::usage(format!("--size: {e}")))?;
    }
    cfg.count = a.count.unwrap_or(cfg.count);
    cfg.reps = a.reps.unwrap_or(cfg.reps);
    cfg.runs = a.runs.unwrap_or(cfg.runs);
    if let Some(f) = &a.fault {
        cfg.fault = Some(handoff_lab::experiments::team_run::parse_fault(
            "malloc",
            &["corrupt"],
            f,
        )?);
    }
    cfg.validate()?;
    a.out.run(&allowed, |ctx| malloc::run(&cfg, ctx))
}
