//! `handoff bench msgrate` and `handoff bench overlap` (two small foMPI experiments with the
//! same flags: sizes, repetitions, and the team flags).

use clap::Args;
use handoff_lab::experiments::{msgrate, overlap};

use crate::cli_bench::TeamArgs;
use crate::cli_rt::parse_sizes;
use crate::Failure;

/// Flags of `handoff bench msgrate` / `overlap`.
#[derive(Debug, Args)]
pub struct SizesArgs {
    /// Put sizes in bytes (comma list; K/M suffixes allowed, e.g. 8,4K,1M).
    #[arg(long)]
    sizes: Option<String>,
    /// msgrate: puts per batch (one quiet each).
    #[arg(long)]
    puts: Option<u64>,
    /// Timed repetitions per run.
    #[arg(long)]
    reps: Option<u64>,
    /// Testing: corrupt the last put, which verification must catch (exit 3).
    #[arg(long, hide = true)]
    fault: bool,
    #[command(flatten)]
    team: TeamArgs,
}

/// Runs `handoff bench msgrate` (`overlap == false`) or `handoff bench overlap`.
pub fn run(a: SizesArgs, is_overlap: bool) -> Result<u8, Failure> {
    let name = if is_overlap { "overlap" } else { "msgrate" };
    let t = a.team.check(name, false)?;
    let sizes = a.sizes.as_deref().map(|s| parse_sizes(s, "--sizes"));
    let sizes = sizes.transpose()?;
    if is_overlap {
        let mut cfg = overlap::Config::for_report(false);
        cfg.sizes = sizes.unwrap_or(cfg.sizes);
        cfg.reps = a.reps.unwrap_or(cfg.reps);
        cfg.team.fault = a.fault;
        a.team.apply(&mut cfg.team, &t);
        cfg.validate()?;
        a.team.out.run(&t.cpus, |ctx| overlap::run(ctx, &cfg))
    } else {
        let mut cfg = msgrate::Config::for_report(false);
        cfg.sizes = sizes.unwrap_or(cfg.sizes);
        cfg.puts = a.puts.unwrap_or(cfg.puts);
        cfg.reps = a.reps.unwrap_or(cfg.reps);
        cfg.team.fault = a.fault;
        a.team.apply(&mut cfg.team, &t);
        cfg.validate()?;
        a.team.out.run(&t.cpus, |ctx| msgrate::run(ctx, &cfg))
    }
}
