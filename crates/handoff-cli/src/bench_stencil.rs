//! `handoff bench stencil`.

use clap::Args;
use handoff_lab::experiments::stencil::{self, Config};
use handoff_lab::experiments::team_run;

use crate::cli_bench::{choices, TeamArgs};
use crate::Failure;

/// Flags of `handoff bench stencil`.
#[derive(Debug, Args)]
pub struct StencilArgs {
    /// Methods: fence-flag, put-signal, counting-put (comma list).
    #[arg(long, default_value = "fence-flag,put-signal,counting-put")]
    method: String,
    /// Strong scaling: the grid MxN (e.g. 4000x1000), or `none`.
    #[arg(long)]
    grid: Option<String>,
    /// Strong scaling: team sizes (comma list; default 1, 2, every CPU, twice the CPUs).
    #[arg(long)]
    pes: Option<String>,
    /// Weak scaling: row counts M (comma list), or `none`.
    #[arg(long)]
    weak_m: Option<String>,
    /// Weak scaling: columns N.
    #[arg(long)]
    weak_n: Option<usize>,
    /// Weak scaling: PEs (default: every CPU).
    #[arg(long)]
    weak_pes: Option<usize>,
    /// Iterations per run (the first is a warm-up).
    #[arg(long)]
    iterations: Option<u64>,
    /// Test only: wrong-value@ROW (PE 0 sends that row's boundary off by one once) or
    /// exit@ROW (PE 1 dies there).
    #[arg(long, hide = true)]
    fault: Option<String>,
    #[command(flatten)]
    team: TeamArgs,
}

fn parse_grid(text: &str) -> Option<(usize, usize)> {
    let (m, n) = text.split_once(['x', 'X'])?;
    Some((m.trim().parse().ok()?, n.trim().parse().ok()?))
}

/// Runs `handoff bench stencil`.
pub fn run(a: StencilArgs) -> Result<u8, Failure> {
    let t = a.team.check("stencil", true)?;
    let mut cfg = Config::for_report(false, &t.cpus);
    cfg.methods = choices(&a.method, "--method")?;
    match a.grid.as_deref().map(str::trim) {
        None => {}
        Some("none") => cfg.strong = None,
        Some(g) => {
            cfg.strong = Some(parse_grid(g).ok_or_else(|| {
                Failure::usage(format!("--grid {g}: expected MxN, e.g. 4000x1000"))
            })?)
        }
    }
    if let Some(p) = &a.pes {
        cfg.strong_pes = crate::cli_rt::parse_list(p, "--pes", "1,2,4")?;
    }
    match a.weak_m.as_deref().map(str::trim) {
        None => {}
        Some("none") => cfg.weak_m.clear(),
        Some(w) => cfg.weak_m = crate::cli_rt::parse_list(w, "--weak-m", "1000,4000")?,
    }
    cfg.weak_n = a.weak_n.unwrap_or(cfg.weak_n);
    cfg.weak_pes = a.weak_pes.unwrap_or(cfg.weak_pes);
    cfg.iterations = a.iterations.unwrap_or(cfg.iterations);
    a.team.apply(&mut cfg.team, &t);
    if a.team.spins() {
        // The default team sizes go to twice the CPUs, where spinning cannot work: asked to
        // spin, run the default sizes that can (explicit --pes/--weak-pes are refused instead).
        if a.pes.is_none() {
            cfg.strong_pes.retain(|&p| p <= t.cpus.len());
        }
        if a.weak_pes.is_none() {
            cfg.weak_pes = cfg.weak_pes.min(t.cpus.len());
        }
    }
    if let Some(w) = crate::mpi_bench::pes(a.pes.as_deref())? {
        crate::mpi_bench::note_ignored(&[("--cpus", a.team.cpus.trim() != "all")]);
        if a.weak_pes.is_some_and(|p| p != w) {
            return Err(Failure::usage(format!(
                "--weak-pes: under mpirun the job's {w} ranks are the team; drop it"
            )));
        }
        cfg.strong_pes = vec![w];
        cfg.weak_pes = w;
    }
    if let Some(f) = &a.fault {
        cfg.team.fault = Some(team_run::parse_fault(
            "stencil",
            &["wrong-value", "exit"],
            f,
        )?);
    }
    cfg.validate()?;
    a.team.out.run(&t.allowed, |ctx| stencil::run(&cfg, ctx))
}
