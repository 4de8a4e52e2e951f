//! `handoff bench pingpong`.

use clap::Args;
use handoff_lab::experiments::pingpong::{self, Config};
use handoff_lab::experiments::team_run;

use crate::cli_bench::{choices, parse_list, TeamArgs};
use crate::Failure;

/// Flags of `handoff bench pingpong`.
#[derive(Debug, Args)]
pub struct PingpongArgs {
    /// Methods: fence-flag, put-signal, counting-put, line (comma list).
    #[arg(long, default_value = "fence-flag,put-signal,counting-put,line")]
    method: String,
    /// Message sizes, multiples of 8 bytes (comma list such as 8,4K,1M; default 8 B to 4 MiB).
    #[arg(long)]
    sizes: Option<String>,
    /// Placement classes to run (comma list such as same-core,same-package, or `all`).
    #[arg(long, default_value = "all")]
    placement: String,
    /// Round trips per sample for small messages.
    #[arg(long)]
    round_trips: Option<u64>,
    /// Samples per run.
    #[arg(long)]
    samples: Option<u64>,
    /// Test only: skip-put@N (PE 0 sends message N without the data) or exit@N (PE 1 dies).
    #[arg(long, hide = true)]
    fault: Option<String>,
    #[command(flatten)]
    team: TeamArgs,
}

/// Runs `handoff bench pingpong`.
pub fn run(a: PingpongArgs) -> Result<u8, Failure> {
    let t = a.team.check("pingpong", true)?;
    let mut cfg = Config::for_report(false, &t.cpus);
    cfg.methods = choices(&a.method, "--method")?;
    if let Some(s) = &a.sizes {
        cfg.sizes = crate::cli_rt::parse_sizes(s, "--sizes")?;
    }
    if a.placement.trim() != "all" {
        let known: Vec<String> = cfg.placements.iter().map(|p| p.class.clone()).collect();
        let wanted = parse_list(
            &a.placement,
            "--placement",
            &format!(
                "not a placement class of these CPUs; use one of {}",
                known.join(", ")
            ),
            |c| known.iter().any(|k| k == c).then(|| c.to_string()),
        )?;
        cfg.placements.retain(|p| wanted.contains(&p.class));
    } else if a.team.spins() {
        // The default placements include both PEs on one CPU, where spinning cannot work:
        // asked to spin without --placement, run the others (naming one is refused instead).
        cfg.placements.retain(|p| p.cpus[0] != p.cpus[1]);
    }
    cfg.round_trips = a.round_trips.unwrap_or(cfg.round_trips);
    cfg.samples = a.samples.unwrap_or(cfg.samples);
    a.team.apply(&mut cfg.team, &t);
    cfg.warmup = cfg.warmup.min(cfg.round_trips);
    if crate::mpi_bench::world().is_some() {
        crate::mpi_bench::note_ignored(&[
            ("--placement", a.placement.trim() != "all"),
            ("--cpus", a.team.cpus.trim() != "all"),
        ]);
        cfg.placements = vec![pingpong::PairPlacement {
            class: pingpong::MPIRUN.into(),
            cpus: [0, 1],
        }];
    }
    if let Some(f) = &a.fault {
        cfg.team.fault = Some(team_run::parse_fault("pingpong", &["skip-put", "exit"], f)?);
    }
    cfg.validate()?;
    a.team.out.run(&t.allowed, |ctx| pingpong::run(&cfg, ctx))
}
