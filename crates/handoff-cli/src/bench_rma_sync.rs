//! `handoff bench rma-sync`.

use clap::Args;
use handoff_lab::bench::registry::run_measured;
use handoff_lab::experiments::rma_sync::{self, Config, Mode};

use crate::cli_bench::{run_ctx, BenchOutputArgs};
use crate::common::{allowed_cpus, install_interrupt_handler, parse_cores};
use crate::{progress, Failure};

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
    /// CPUs the PEs are pinned to, round-robin (a list such as 0-3, or `all`).
    #[arg(long, default_value = "all")]
    cpus: String,
    /// Synchronizations per repetition.
    #[arg(long)]
    iters: Option<u64>,
    /// Timed repetitions per run.
    #[arg(long)]
    reps: Option<u64>,
    /// Runs (a fresh team each).
    #[arg(long)]
    runs: Option<u64>,
    /// Transports to run side by side: shm (handoff's team), mpi-shm and mpi-rma (the MPI
    /// transport under mpiexec with a shared window / MPI RMA calls; needs the `mpi` build).
    #[arg(long, default_value = "shm")]
    transport: String,
    /// Testing: PE 0 puts one wrong value, which verification must catch (exit 3).
    #[arg(long, hide = true)]
    fault: bool,
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
    let format = a.out.check()?;
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
    if let Some(p) = &a.pes {
        cfg.pes = list(p, "--pes")?;
        cfg.ks = (1..cfg.p_max()).collect();
    }
    if let Some(k) = &a.k {
        cfg.ks = list(k, "--k")?;
    }
    cfg.iters = a.iters.unwrap_or(cfg.iters);
    cfg.reps = a.reps.unwrap_or(cfg.reps);
    cfg.runs = a.runs.unwrap_or(cfg.runs);
    cfg.fault = a.fault;
    cfg.transports = crate::mpi_bench::transports("rma-sync", &a.transport)?;
    if let Some(w) = crate::mpi_bench::pes(a.pes.as_deref())? {
        crate::mpi_bench::note_ignored(&[("--cpus", a.cpus.trim() != "all")]);
        cfg.pes = vec![w];
        if a.k.is_none() {
            cfg.ks = (1..w).collect();
        }
    }
    cfg.validate()?;
    install_interrupt_handler();
    let m = crate::common::Machine::detect()?;
    let machine = handoff_lab::machine::detect(&m.calibration);
    let tool = handoff_lab::machine::tool();
    let mut prog = progress::Stderr::new(a.out.quiet);
    let mut ctx = run_ctx(false, &machine, &tool, &cpus, &mut prog)?;
    let res = run_measured(&mut ctx, |ctx| rma_sync::run(ctx, &cfg))?;
    a.out.emit(&res, format)
}
