//! `handoff bench atomics`.

use clap::Args;
use handoff_lab::experiments::atomics::{self, Config, Mode};

use crate::cli_bench::BenchOutputArgs;
use crate::common::{allowed_cpus, parse_cores};
use crate::Failure;

/// Flags of `handoff bench atomics`.
#[derive(Debug, Args)]
pub struct AtomicsArgs {
    /// Modes (comma list): acc-sum, acc-min, fetch-add, cas, fetch-add-contended,
    /// cas-contended.
    #[arg(
        long,
        default_value = "acc-sum,acc-min,fetch-add,cas,fetch-add-contended,cas-contended"
    )]
    modes: String,
    /// Accumulate sizes in i64 elements (comma list; default 1,8,64,512,4096,32768).
    #[arg(long)]
    sizes: Option<String>,
    /// Team sizes of the one-word modes (comma list; default 2,3,4).
    #[arg(long)]
    pes: Option<String>,
    /// CPUs the PEs are pinned to, round-robin (a list such as 0-3, or `all`).
    #[arg(long, default_value = "all")]
    cpus: String,
    /// Operations per repetition (accumulates of s elements: this / s, at least 2).
    #[arg(long)]
    iters: Option<u64>,
    /// Timed repetitions per run.
    #[arg(long)]
    reps: Option<u64>,
    /// Runs (a fresh team each).
    #[arg(long)]
    runs: Option<u64>,
    /// Testing: PE 0 skips one operation, which verification must catch (exit 3).
    #[arg(long, hide = true)]
    fault: bool,
    #[command(flatten)]
    out: BenchOutputArgs,
}

fn list(text: &str, flag: &str) -> Result<Vec<usize>, Failure> {
    crate::cli_bench::parse_list(text, flag, "not a count; use e.g. 1,64,4096", |x| {
        x.parse().ok()
    })
}

/// Runs `handoff bench atomics`.
pub fn run(a: AtomicsArgs) -> Result<u8, Failure> {
    a.out.check()?;
    let allowed = allowed_cpus()?;
    let cpus = parse_cores(&a.cpus, &allowed, "--cpus")?;
    let mut cfg = Config::for_report(false);
    cfg.modes = a
        .modes
        .split(',')
        .map(|m| {
            Mode::parse(m.trim()).ok_or_else(|| {
                Failure::usage(format!(
                    "--modes {m}: use some of {}",
                    Mode::ALL.map(Mode::name).join(",")
                ))
            })
        })
        .collect::<Result<_, _>>()?;
    if let Some(s) = &a.sizes {
        cfg.sizes = list(s, "--sizes")?;
    }
    if let Some(p) = &a.pes {
        cfg.pes = list(p, "--pes")?;
    }
    cfg.iters = a.iters.unwrap_or(cfg.iters);
    cfg.reps = a.reps.unwrap_or(cfg.reps);
    cfg.runs = a.runs.unwrap_or(cfg.runs);
    cfg.fault = a.fault;
    cfg.validate()?;
    a.out.run(&cpus, |ctx| atomics::run(ctx, &cfg))
}
