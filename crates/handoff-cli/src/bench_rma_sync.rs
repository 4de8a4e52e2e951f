//! `handoff bench rma-sync`.

use clap::Args;
use handoff_lab::experiments::rma_sync::{self, Config, Mode};

use crate::cli_bench::{BenchOutputArgs, TeamArgs};
use crate::common::{allowed_cpus, parse_cores};
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
    /// The PEs' wait: spin, spin-yield, block or adaptive.
    #[arg(long, default_value = "adaptive")]
    wait: String,
    /// Testing: PE 0 puts one wrong value, which verification must catch (exit 3).
    #[arg(long, hide = true)]
    fault: bool,
    #[command(flatten)]
    team: TeamArgs,
    #[command(flatten)]
    out: BenchOutputArgs,
}

fn list(text: &str, flag: &str) -> Result<Vec<usize>, Failure> {
    crate::cli_bench::parse_list(text, flag, "not a count; use e.g. 2,4,8", |x| {
        x.parse().ok()
    })
}

/// Runs `handoff bench rma-sync`.
pub fn run(a: RmaSyncArgs) -> Result<u8, Failure> {
    a.out.check()?;
    let allowed = allowed_cpus()?;
    let cpus = parse_cores(&a.team.cpus, &allowed, "--cpus")?;
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
    if let Some(p) = &a.pes {
        cfg.pes = list(p, "--pes")?;
        cfg.ks = (1..cfg.p_max()).collect();
    }
    if let Some(k) = &a.k {
        cfg.ks = list(k, "--k")?;
    }
    cfg.iters = a.iters.unwrap_or(cfg.iters);
    cfg.reps = a.reps.unwrap_or(cfg.reps);
    cfg.runs = a.team.runs.unwrap_or(cfg.runs);
    cfg.fault = a.fault;
    cfg.wait = a.wait.clone();
    cfg.transports = crate::mpi_bench::transports("rma-sync", &a.team.transport)?;
    if let Some(w) = crate::mpi_bench::pes(a.pes.as_deref())? {
        crate::mpi_bench::note_ignored(&[("--cpus", a.team.cpus.trim() != "all")]);
        cfg.pes = vec![w];
        if a.k.is_none() {
            cfg.ks = (1..w).collect();
        }
    }
    cfg.validate()?;
    a.out.run(&cpus, |ctx| rma_sync::run(ctx, &cfg))
}
