//! `handoff bench msgrate` and `handoff bench overlap` (two small foMPI experiments with the
//! same flags: sizes, repetitions, runs).

use clap::Args;
use handoff_lab::experiments::{msgrate, overlap};

use crate::cli_bench::BenchOutputArgs;
use crate::common::{allowed_cpus, parse_cores};
use crate::Failure;

/// Flags of `handoff bench msgrate` / `overlap`.
#[derive(Debug, Args)]
pub struct SizesArgs {
    /// Put sizes in bytes (comma list; K/M suffixes allowed, e.g. 8,4K,1M).
    #[arg(long)]
    sizes: Option<String>,
    /// CPUs the PEs are pinned to, round-robin (a list such as 0-1, or `all`).
    #[arg(long, default_value = "all")]
    cpus: String,
    /// msgrate: puts per batch (one quiet each).
    #[arg(long)]
    puts: Option<u64>,
    /// Timed repetitions per run.
    #[arg(long)]
    reps: Option<u64>,
    /// Runs (a fresh team each).
    #[arg(long)]
    runs: Option<u64>,
    /// Testing: corrupt the last put, which verification must catch (exit 3).
    #[arg(long, hide = true)]
    fault: bool,
    #[command(flatten)]
    out: BenchOutputArgs,
}

fn sizes(text: &str) -> Result<Vec<usize>, Failure> {
    crate::cli_rt::parse_sizes(text, "--sizes")
}

/// Runs `handoff bench msgrate` (`overlap == false`) or `handoff bench overlap`.
pub fn run(a: SizesArgs, is_overlap: bool) -> Result<u8, Failure> {
    a.out.check()?;
    let allowed = allowed_cpus()?;
    let cpus = parse_cores(&a.cpus, &allowed, "--cpus")?;
    let size_list = a.sizes.as_deref().map(sizes).transpose()?;
    if is_overlap {
        let mut cfg = overlap::Config::for_report(false);
        cfg.sizes = size_list.unwrap_or(cfg.sizes);
        cfg.reps = a.reps.unwrap_or(cfg.reps);
        cfg.runs = a.runs.unwrap_or(cfg.runs);
        cfg.fault = a.fault;
        cfg.validate()?;
        a.out.run(&cpus, |ctx| overlap::run(ctx, &cfg))
    } else {
        let mut cfg = msgrate::Config::for_report(false);
        cfg.sizes = size_list.unwrap_or(cfg.sizes);
        cfg.puts = a.puts.unwrap_or(cfg.puts);
        cfg.reps = a.reps.unwrap_or(cfg.reps);
        cfg.runs = a.runs.unwrap_or(cfg.runs);
        cfg.fault = a.fault;
        cfg.validate()?;
        a.out.run(&cpus, |ctx| msgrate::run(ctx, &cfg))
    }
}
