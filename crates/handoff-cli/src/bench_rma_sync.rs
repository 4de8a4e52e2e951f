//! `handoff bench rma-sync`.

use clap::Args;
use handoff_lab::experiments::rma_sync::{self, Config, Mode};

use crate::cli_bench::{parse_list, TeamArgs};
use crate::Failure;

/// Flags of `handoff bench rma-sync`.
#[derive(Debug, Args)]
pub struct RmaSyncArgs {
    /// Modes (comma list): fence, pscw-ring, pscw-k, lock-exclusive, lock-shared, lock-all,
    /// flush, sync.
    #[arg(
        long,
        default_value = "fence,pscw-ring,pscw-k,lock-exclusive,lock-shared,lock-all,flush,sync"
    )]
    modes: String,
    /// Team sizes (comma list; default 2,3,4,6,8; above the CPU count is oversubscribed).
    #[arg(long)]
    pes: Option<String>,
    /// Group sizes of pscw-k, at the largest --pes (comma list; default 1 … p − 1).
    #[arg(long)]
    k: Option<String>,
    /// Synchronizations per repetition.
    #[arg(long)]
    iters: Option<u64>,
    /// Timed repetitions per run.
    #[arg(long)]
    reps: Option<u64>,
    /// Testing: PE 0 puts one wrong value, which verification must catch (exit 3).
    #[arg(long, hide = true)]
    fault: bool,
    #[command(flatten)]
    team: TeamArgs,
}

/// Runs `handoff bench rma-sync`.
pub fn run(a: RmaSyncArgs) -> Result<u8, Failure> {
    let t = a.team.check("rma-sync", true)?;
    let mut cfg = Config::for_report(false);
    let all = Mode::ALL.map(Mode::name).join(",");
    cfg.modes = parse_list(
        &a.modes,
        "--modes",
        &format!("use some of {all}"),
        Mode::parse,
    )?;
    if let Some(p) = &a.pes {
        cfg.pes = crate::cli_rt::parse_list(p, "--pes", "2,4,8")?;
        cfg.ks = (1..cfg.p_max()).collect();
    }
    if let Some(k) = &a.k {
        cfg.ks = crate::cli_rt::parse_list(k, "--k", "1,2")?;
    }
    cfg.iters = a.iters.unwrap_or(cfg.iters);
    cfg.reps = a.reps.unwrap_or(cfg.reps);
    a.team.apply(&mut cfg.team, &t);
    cfg.team.fault = a.fault;
    if let Some(w) = crate::mpi_bench::pes(a.pes.as_deref())? {
        crate::mpi_bench::note_ignored(&[("--cpus", a.team.cpus.trim() != "all")]);
        cfg.pes = vec![w];
        if a.k.is_none() {
            cfg.ks = (1..w).collect();
        }
    }
    cfg.validate()?;
    a.team.out.run(&t.cpus, |ctx| rma_sync::run(ctx, &cfg))
}
