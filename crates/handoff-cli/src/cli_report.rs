//! `handoff report`: its flags; the lab conducts the report ([`conduct`]).

use crate::common::{
    allowed_cpus, install_interrupt_handler, launcher, overrides, CommonExchangeArgs, CANCEL,
};
use crate::{progress, Failure};
use clap::Args;
use handoff_lab::bench::registry;
use handoff_lab::experiments::exchange;
use handoff_lab::experiments::team_mpi::{self, TransportKind};
use handoff_lab::report::{conduct, plan};
use std::path::PathBuf;

/// `handoff report` flags.
#[derive(Debug, Args)]
pub struct ReportArgs {
    #[command(flatten)]
    pub common: CommonExchangeArgs,
    /// Output folder (default: handoff-report-HOST-DATE).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// A shorter run (under a minute on 2 CPUs): fewer repetitions, runs and sizes.
    #[arg(long)]
    pub quick: bool,
    /// The time the report may take, e.g. 300s, 10min, 1h (default 5min): the plan picks
    /// the most repetitions whose estimate fits, always sweeping past the last-level cache.
    #[arg(long, value_name = "DURATION")]
    pub budget: Option<String>,
    /// The seeds' own protocols: 100 repetitions x 5 runs at every exchange point and every
    /// experiment's full plan, however long the estimate.
    #[arg(long)]
    pub full: bool,
    /// No progress on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Which experiments beside exchange to run: `all` (default), `none`, or a comma list of
    /// names (see `handoff bench --help`).
    #[arg(long, default_value = "all", value_name = "LIST")]
    pub experiments: String,
    /// Transports the team experiments (pingpong, alltoall, stencil, rma-sync) run side by
    /// side: shm (default), mpi-shm, mpi-rma (the MPI transport under mpiexec; needs the
    /// `mpi` build and mpiexec on PATH), e.g. `--experiments pingpong --transport shm,mpi-rma`.
    #[arg(long, default_value = "shm")]
    pub transport: String,
    /// Print the measurement plan (consumers per placement class, points, c2c pairs) and its
    /// estimated duration, and run nothing.
    #[arg(long)]
    pub plan: bool,
    /// With --plan: plan for the machine a sysfs tree describes (a directory laid out like
    /// /sys: devices/system/cpu, devices/system/node) instead of this one.
    #[arg(long, value_name = "DIR", requires = "plan")]
    pub sysfs: Option<PathBuf>,
    /// Stop after this many exchange records and write a partial report (for tests).
    #[arg(long, hide = true)]
    pub stop_after_records: Option<usize>,
}

/// Runs `handoff report`: the lab conducts it ([`conduct::conduct`]); this prints its first
/// screen.
pub fn report(args: ReportArgs) -> Result<u8, Failure> {
    if args.plan {
        return print_plan(&args);
    }
    let experiments =
        registry::select(&args.experiments).map_err(|e| Failure::usage(e.to_string()))?;
    let protocol = protocol(&args)?;
    let transports = TransportKind::parse_list("report", &args.transport)?;
    team_mpi::check_available("report", &transports)?;
    let allowed = allowed_cpus()?;
    let flags = overrides(&args.common, &allowed)?;
    install_interrupt_handler();
    let opts = conduct::Options {
        protocol,
        flags,
        experiments,
        transports,
        out: args.out.clone(),
        allowed,
        launcher: launcher()?,
        cancel: &CANCEL,
        command_line: std::env::args().collect::<Vec<_>>().join(" "),
        stop_after_records: args.stop_after_records,
    };
    let mut prog = progress::Stderr::new(args.quiet);
    let outcome = conduct::conduct(&opts, &mut prog)?;
    for line in &outcome.first_screen {
        println!("- {line}");
    }
    println!("Details: {}", outcome.dir.join("index.html").display());
    Ok(
        match crate::signals::received().filter(|_| outcome.stopped) {
            Some(sig) => {
                eprintln!(
                    "handoff: {}; the report holds what was measured before it",
                    crate::signals::describe(sig)
                );
                crate::signals::exit_code(sig)
            }
            None => 0,
        },
    )
}

impl From<conduct::ConductError> for Failure {
    fn from(e: conduct::ConductError) -> Failure {
        match e {
            conduct::ConductError::Usage(m) => Failure::usage(m),
            conduct::ConductError::Failed(m) => Failure::runtime(m),
            conduct::ConductError::Bench(e) => Failure::from(e),
        }
    }
}

/// `--quick`, `--budget DURATION` (default 5 min) or `--full`.
fn protocol(args: &ReportArgs) -> Result<plan::Protocol, Failure> {
    let given = [
        (args.quick, "--quick"),
        (args.budget.is_some(), "--budget"),
        (args.full, "--full"),
    ];
    let flags: Vec<&str> = given.iter().filter(|g| g.0).map(|g| g.1).collect();
    if flags.len() > 1 {
        return Err(Failure::usage(format!(
            "report: {} are alternatives: give one of --quick, --budget DURATION, --full",
            flags.join(" and ")
        )));
    }
    Ok(if args.quick {
        plan::Protocol::Quick
    } else if args.full {
        plan::Protocol::Full
    } else {
        let budget = match &args.budget {
            Some(b) => plan::parse_budget(b)
                .map_err(|e| Failure::usage(format!("report: --budget: {e}")))?,
            None => plan::DEFAULT_BUDGET_S,
        };
        plan::Protocol::Budget(budget)
    })
}

/// `handoff report --plan [--sysfs DIR]`: the plan and its estimate, nothing run.
fn print_plan(args: &ReportArgs) -> Result<u8, Failure> {
    let topology = match &args.sysfs {
        Some(dir) => handoff_probe::topology::Topology::from_sysfs(dir)
            .map_err(|e| Failure::usage(format!("report: --sysfs {}: {e}", dir.display())))?,
        None => handoff_probe::topology::Topology::detect()
            .map_err(|e| Failure::runtime(format!("reading the CPU topology: {e}")))?,
    };
    let allowed = match &args.sysfs {
        Some(_) => topology.cpu_ids(),
        None => allowed_cpus()?,
    };
    let flags = overrides(&args.common, &allowed)?;
    let selected =
        registry::select(&args.experiments).map_err(|e| Failure::usage(e.to_string()))?;
    let req = plan::Request {
        protocol: protocol(args)?,
        flags: &flags,
        experiments: &selected,
        // Another machine's plan (--sysfs) cannot know its memory: MAX_BLOCK bounds it.
        memory: match &args.sysfs {
            Some(_) => None,
            None => exchange::memory::Room::detect().memory,
        },
        // --plan runs nothing: the cost model's own speed.
        speed: 1.0,
        stop_after_records: None,
        for_run: false,
    };
    let plan = plan::plan(&req, &topology, &allowed).map_err(|e| match e {
        handoff_lab::bench::BenchError::Usage { message, .. } => Failure::usage(message),
        e => Failure::from(e),
    })?;
    print!("{}", plan.describe(&topology, &allowed));
    Ok(0)
}
