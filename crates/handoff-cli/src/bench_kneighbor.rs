//! `handoff bench kneighbor`.

use clap::Args;
use handoff_lab::experiments::kneighbor::{self, Config, Placement};

use crate::cli_bench::BenchOutputArgs;
use crate::cli_rt::{parse_list, parse_sizes};
use crate::common::{allowed_cpus, parse_cores};
use crate::Failure;

/// Flags of `handoff bench kneighbor`.
#[derive(Debug, Args)]
pub struct KneighborArgs {
    /// PEs on the ring (at least 2k+1).
    #[arg(long, default_value_t = 7)]
    pes: usize,
    /// Neighbours on each side (the seed's example: 1; the issue: 3).
    #[arg(long, default_value_t = 3)]
    k: usize,
    /// Message sizes (comma list, e.g. 64,256,4KiB).
    #[arg(long)]
    sizes: Option<String>,
    /// Placement maps: compact, spread, os (not pinned) (comma list).
    #[arg(long, default_value = "compact,spread")]
    placement: String,
    /// A custom map too: PE i runs on the i-th CPU of this ordered list (mod its length),
    /// e.g. the seed's 0,2,4,6,1,3,5.
    #[arg(long)]
    cpus: Option<String>,
    /// Modes: threads, processes (comma list).
    #[arg(long, default_value = "threads,processes")]
    mode: String,
    /// Timed iterations per repetition.
    #[arg(long)]
    iters: Option<u64>,
    /// Repetitions per run.
    #[arg(long)]
    reps: Option<u64>,
    /// Runs (fresh threads or processes each).
    #[arg(long)]
    runs: Option<u64>,
    #[command(flatten)]
    out: BenchOutputArgs,
}

/// Runs `handoff bench kneighbor`.
pub fn run(a: KneighborArgs) -> Result<u8, Failure> {
    a.out.check()?;
    let allowed = allowed_cpus()?;
    let mut cfg = Config::for_report(false, &allowed);
    cfg.pes = a.pes;
    cfg.k = a.k;
    if let Some(s) = &a.sizes {
        cfg.sizes = parse_sizes(s, "--sizes")?;
    }
    cfg.placements = a
        .placement
        .split(',')
        .filter(|p| !p.trim().is_empty())
        .map(|p| match p.trim() {
            "compact" => Ok(Placement::Compact),
            "spread" => Ok(Placement::Spread),
            "os" => Ok(Placement::Os),
            other => Err(Failure::usage(format!(
                "--placement {other}: use compact, spread or os (and --cpus LIST for a custom map)"
            ))),
        })
        .collect::<Result<_, _>>()?;
    if let Some(list) = &a.cpus {
        let ordered: Vec<usize> = parse_list(list, "--cpus", "0,2,4,6,1,3,5")?;
        // Every CPU must be usable here (the sorted check of the shared parser).
        parse_cores(list, &allowed, "--cpus")?;
        cfg.placements.push(Placement::List(ordered));
    }
    cfg.modes = crate::cli_bench::choices(&a.mode, "--mode")?;
    cfg.iters = a.iters.unwrap_or(cfg.iters);
    cfg.reps = a.reps.unwrap_or(cfg.reps);
    cfg.runs = a.runs.unwrap_or(cfg.runs);
    cfg.validate()?;
    a.out.run(&allowed, |ctx| kneighbor::run(&cfg, ctx))
}
