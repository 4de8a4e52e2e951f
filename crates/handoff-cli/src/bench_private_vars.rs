//! `handoff bench private-vars`.

use clap::Args;
use handoff_lab::experiments::private_vars::{self, Config};

use crate::cli_bench::BenchOutputArgs;
use crate::Failure;

/// Flags of `handoff bench private-vars`.
#[derive(Debug, Args)]
pub struct PrivateVarsArgs {
    /// Methods: tls, shared-array, padded-array (comma list).
    #[arg(long, default_value = "tls,shared-array,padded-array")]
    method: String,
    /// Thread counts (comma list; default 1, 2, 4 … up to twice the CPUs).
    #[arg(long)]
    threads: Option<String>,
    /// CPUs to pin the threads to, round-robin (a list such as 0-3,8, or `all`).
    #[arg(long, default_value = "all")]
    cpus: String,
    /// Increments per thread per repetition.
    #[arg(long)]
    accesses: Option<u64>,
    /// Repetitions per run.
    #[arg(long)]
    reps: Option<u64>,
    /// Runs (fresh threads each).
    #[arg(long)]
    runs: Option<u64>,
    #[command(flatten)]
    out: BenchOutputArgs,
}

/// Runs `handoff bench private-vars`.
pub fn run(a: PrivateVarsArgs) -> Result<u8, Failure> {
    let (_, cpus) = a.out.check_cpus(&a.cpus)?;
    let mut cfg = Config::for_report(false, &cpus);
    cfg.methods = crate::cli_bench::choices(&a.method, "--method")?;
    if let Some(t) = &a.threads {
        cfg.threads = crate::cli_rt::parse_list(t, "--threads", "1,2,4")?;
    }
    cfg.accesses = a.accesses.unwrap_or(cfg.accesses);
    cfg.reps = a.reps.unwrap_or(cfg.reps);
    cfg.runs = a.runs.unwrap_or(cfg.runs);
    cfg.validate()?;
    a.out.run(&cpus, |ctx| private_vars::run(&cfg, ctx))
}
