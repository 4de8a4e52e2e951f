//! `handoff bench atomics`.

use clap::Args;
use handoff_lab::experiments::atomics::{self, Config};

use crate::cli_bench::{choices, TeamArgs};
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
    /// Operations per repetition (accumulates of s elements: this / s, at least 2).
    #[arg(long)]
    iters: Option<u64>,
    /// Timed repetitions per run.
    #[arg(long)]
    reps: Option<u64>,
    /// Testing: PE 0 skips one operation, which verification must catch (exit 3).
    #[arg(long, hide = true)]
    fault: bool,
    #[command(flatten)]
    team: TeamArgs,
}

/// Runs `handoff bench atomics`.
pub fn run(a: AtomicsArgs) -> Result<u8, Failure> {
    let t = a.team.check("atomics", false)?;
    let mut cfg = Config::for_report(false);
    cfg.modes = choices(&a.modes, "--modes")?;
    if let Some(s) = &a.sizes {
        cfg.sizes = crate::cli_rt::parse_list(s, "--sizes", "1,64,4096")?;
    }
    if let Some(p) = &a.pes {
        cfg.pes = crate::cli_rt::parse_list(p, "--pes", "2,4")?;
    }
    cfg.iters = a.iters.unwrap_or(cfg.iters);
    cfg.reps = a.reps.unwrap_or(cfg.reps);
    a.team.apply(&mut cfg.team, &t);
    cfg.team.fault = a.fault;
    cfg.validate()?;
    a.team.out.run(&t.cpus, |ctx| atomics::run(ctx, &cfg))
}
