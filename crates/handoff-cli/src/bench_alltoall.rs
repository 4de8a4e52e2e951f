//! `handoff bench alltoall`.

use clap::Args;
use handoff_lab::bench::registry::run_measured;
use handoff_lab::experiments::alltoall::{self, Config, Method};
use handoff_lab::experiments::team_run;

use crate::cli_bench::{parse_list, run_ctx, BenchOutputArgs};
use crate::common::{allowed_cpus, install_interrupt_handler, parse_cores};
use crate::{progress, Failure};

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
    /// CPUs the PEs are pinned to, PE r on the (r mod n)-th (a list such as 0-3, or `all`).
    #[arg(long, default_value = "all")]
    cpus: String,
    /// Rounds per sample for small messages.
    #[arg(long)]
    rounds: Option<u64>,
    /// Samples per run.
    #[arg(long)]
    samples: Option<u64>,
    /// Runs (a fresh team each).
    #[arg(long)]
    runs: Option<u64>,
    /// The PEs' wait: spin, spin-yield, block or adaptive.
    #[arg(long, default_value = "adaptive")]
    wait: String,
    /// Transports to run side by side: shm (handoff's team), mpi-shm and mpi-rma (the MPI
    /// transport under mpiexec with a shared window / MPI RMA calls; needs the `mpi` build).
    #[arg(long, default_value = "shm")]
    transport: String,
    /// Test only: skip-put@N (in round N PE 1 skips its put to PE 0) or exit@N (PE 1 dies).
    #[arg(long, hide = true)]
    fault: Option<String>,
    #[command(flatten)]
    out: BenchOutputArgs,
}

/// Runs `handoff bench alltoall`.
pub fn run(a: AlltoallArgs) -> Result<u8, Failure> {
    let format = a.out.check()?;
    let allowed = allowed_cpus()?;
    let cpus = parse_cores(&a.cpus, &allowed, "--cpus")?;
    let mut cfg = Config::for_report(false, &cpus);
    cfg.methods = parse_list(
        &a.method,
        "--method",
        "use barrier, fence-flags or counting",
        Method::parse,
    )?;
    if let Some(s) = &a.sizes {
        cfg.sizes = crate::cli_rt::parse_sizes(s, "--sizes")?;
    }
    if let Some(p) = &a.pes {
        cfg.pes = parse_list(p, "--pes", "not a count; use e.g. 2,4", |x| x.parse().ok())?;
    }
    cfg.rounds = a.rounds.unwrap_or(cfg.rounds);
    cfg.samples = a.samples.unwrap_or(cfg.samples);
    cfg.runs = a.runs.unwrap_or(cfg.runs);
    cfg.wait = a.wait.clone();
    cfg.transports = crate::mpi_bench::transports("alltoall", &a.transport)?;
    if let Some(w) = crate::mpi_bench::pes(a.pes.as_deref())? {
        crate::mpi_bench::note_ignored(&[("--cpus", a.cpus.trim() != "all")]);
        cfg.pes = vec![w];
    }
    if let Some(f) = &a.fault {
        cfg.fault = Some(team_run::parse_fault("alltoall", &["skip-put", "exit"], f)?);
    }
    cfg.validate()?;
    install_interrupt_handler();
    let m = crate::common::Machine::detect()?;
    let machine = handoff_lab::machine::detect(&m.calibration);
    let tool = handoff_lab::machine::tool();
    let mut prog = progress::Stderr::new(a.out.quiet);
    let mut ctx = run_ctx(false, &machine, &tool, &allowed, &mut prog)?;
    let res = run_measured(&mut ctx, |ctx| alltoall::run(&cfg, ctx))?;
    a.out.emit(&res, format)
}
