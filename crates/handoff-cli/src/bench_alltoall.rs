//! `handoff bench alltoall`.

use clap::Args;
use handoff_lab::experiments::alltoall::{self, Config};
use handoff_lab::experiments::team_run;

use crate::cli_bench::{choices, TeamArgs};
use crate::Failure;

/// Flags of `handoff bench alltoall`.
#[derive(Debug, Args)]
pub struct AlltoallArgs {
    /// Methods: barrier, fence-flags, counting (comma list).
    #[arg(long, default_value = "barrier,fence-flags,counting")]
    method: String,
    /// Bytes each PE puts to each other PE per round, multiples of 8 (comma list such as
    /// 8,4K,1M; default 8 B to 1 MiB).
    #[arg(long)]
    sizes: Option<String>,
    /// Team sizes (comma list; default 2, every CPU, twice the CPUs).
    #[arg(long)]
    pes: Option<String>,
    /// Rounds per sample for small messages.
    #[arg(long)]
    rounds: Option<u64>,
    /// Samples per run.
    #[arg(long)]
    samples: Option<u64>,
    /// Test only: skip-put@N (in round N PE 1 skips its put to PE 0) or exit@N (PE 1 dies).
    #[arg(long, hide = true)]
    fault: Option<String>,
    #[command(flatten)]
    team: TeamArgs,
}

/// Runs `handoff bench alltoall`.
pub fn run(a: AlltoallArgs) -> Result<u8, Failure> {
    let t = a.team.check("alltoall", true)?;
    let mut cfg = Config::for_report(false, &t.cpus);
    cfg.methods = choices(&a.method, "--method")?;
    if let Some(s) = &a.sizes {
        cfg.sizes = crate::cli_rt::parse_sizes(s, "--sizes")?;
    }
    if let Some(p) = &a.pes {
        cfg.pes = crate::cli_rt::parse_list(p, "--pes", "2,4")?;
    }
    cfg.rounds = a.rounds.unwrap_or(cfg.rounds);
    cfg.samples = a.samples.unwrap_or(cfg.samples);
    a.team.apply(&mut cfg.team, &t);
    if a.pes.is_none() && a.team.spins() {
        // The default team sizes go to twice the CPUs, where spinning cannot work: asked to
        // spin without --pes, run the sizes that can (an explicit --pes is refused instead).
        cfg.pes.retain(|&p| p <= t.cpus.len());
    }
    if let Some(w) = crate::mpi_bench::pes(a.pes.as_deref())? {
        crate::mpi_bench::note_ignored(&[("--cpus", a.team.cpus.trim() != "all")]);
        cfg.pes = vec![w];
    }
    if let Some(f) = &a.fault {
        cfg.team.fault = Some(team_run::parse_fault("alltoall", &["skip-put", "exit"], f)?);
    }
    cfg.validate()?;
    a.team.out.run(&t.allowed, |ctx| alltoall::run(&cfg, ctx))
}
