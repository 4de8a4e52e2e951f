//! `handoff report`: its flags, then the lab's plan, measurements and report writer.

use crate::common::{
    allowed_cpus, check_memory, install_interrupt_handler, overrides, results, CommonExchangeArgs,
    Machine, CANCEL,
};
use crate::{progress, Failure};
use clap::Args;
use handoff_lab::experiments::c2c;
use handoff_lab::experiments::team_mpi::{self, TransportKind};
use handoff_lab::progress::Progress;
use handoff_lab::report::plan;
use std::path::{Path, PathBuf};
use std::time::Instant;

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

/// Runs `handoff report`.
pub fn report(args: ReportArgs) -> Result<u8, Failure> {
    if args.plan {
        return print_plan(&args);
    }
    let selected = select_experiments(&args.experiments)?;
    let transports = TransportKind::parse_list("report", &args.transport)?;
    team_mpi::check_available("report", &transports)?;
    let allowed = allowed_cpus()?;
    let flags = overrides(&args.common, &allowed)?;
    let m = Machine::detect()?;
    let llc = m.topology.last_level_cache_bytes();
    let (plan, cfg) = plan::plan(args.quick, &flags, &m.topology, &allowed, llc)?;
    check_memory(&plan.points)?;
    let started_at = plan::rfc3339(plan::now_unix());
    let out = match &args.out {
        Some(d) => d.clone(),
        None => {
            let host = handoff_probe::topology::MachineInfo::detect().hostname;
            plan::default_out_dir(Path::new("."), &host, &plan::civil_date(plan::now_unix()))
        }
    };
    // A folder this run creates goes again if the run fails before writing into it.
    let _made = RemoveIfEmpty((!out.exists()).then(|| out.clone()));
    // --out names a folder holding an earlier report: its generated files go, so no stale plot
    // survives beside the new results.json.
    let cleared = plan::prepare_out_dir(&out)?;
    if !cleared.is_empty() {
        eprintln!(
            "handoff: {} holds an earlier report: removed its {} generated file(s) (results.json, plots, CSVs, report.md, index.html)",
            out.display(),
            cleared.len()
        );
    }
    install_interrupt_handler();
    let started = Instant::now();
    let mut prog = progress::Stderr::new(args.quiet);
    let cancel = &CANCEL;
    let mut known = Vec::new();
    if !plan.c2c_pairs.is_empty() {
        prog.begin(plan.c2c_pairs.len(), "c2c matrix");
        known = c2c::measure(
            &plan.c2c_pairs,
            &handoff_probe::floor::C2cOptions::default(),
            &m.topology,
            cancel,
            &mut |_, _| {},
        )?;
        for _ in 0..known.len() {
            prog.advance("c2c");
        }
        prog.end();
    }
    let env = m.env(&cfg)?;
    let outcome = crate::common::run_exchange(
        &plan.points,
        &env,
        &known,
        &mut prog,
        args.stop_after_records,
    )?;
    let mut stopped = outcome.0.stopped.is_some();
    let machine = handoff_lab::machine::detect(&m.calibration);
    let (experiments, failed) = if stopped {
        (Vec::new(), Vec::new())
    } else {
        crate::cli_bench::run_for_report(
            args.quick,
            &|name: &str| selected.iter().any(|s| s == name),
            &machine,
            &allowed,
            &mut prog,
            &transports,
        )?
    };
    stopped |= experiments.iter().any(|e| e.partial);
    let config = plan::plan_config(&cfg, &plan);
    let mut res = results(&m, &config, outcome);
    res.report = Some(plan.settings(
        args.quick,
        std::env::args().collect::<Vec<_>>().join(" "),
        started_at,
        started.elapsed().as_secs_f64(),
    ));
    res.elapsed_s = res.report.as_ref().and_then(|s| s.elapsed_s);
    if let Some(s) = res.report.as_mut() {
        s.notes.extend(
            failed
                .iter()
                .map(|f| format!("left out after a failure: {f}")),
        );
    }
    let files = handoff_lab::report::write_full_report(&res, &experiments, &out)
        .map_err(|e| Failure::runtime(format!("writing the report: {e}")))?;
    if !args.quiet {
        eprintln!(
            "handoff: wrote {} files to {} in {:.0} s{}",
            files.len(),
            out.display(),
            started.elapsed().as_secs_f64(),
            if stopped {
                " (partial: the run was stopped early)"
            } else {
                ""
            }
        );
    }
    // The report's first screen (busy warning first), then the page with the details.
    let rec = handoff_lab::report::recommend::recommend(&res);
    for line in handoff_lab::report::headline::first_screen(&res, &rec, &experiments).terminal() {
        println!("- {line}");
    }
    println!("Details: {}", out.join("index.html").display());
    Ok(match crate::signals::received().filter(|_| stopped) {
        Some(sig) => {
            eprintln!(
                "handoff: {}; the report holds what was measured before it",
                crate::signals::describe(sig)
            );
            crate::signals::exit_code(sig)
        }
        None => 0,
    })
}

/// Removes the report folder it holds when dropped, if the folder is still empty: a report
/// that failed before writing anything leaves no empty folder behind (issue #40). A folder
/// with files in it, or one that was there before the run, stays.
struct RemoveIfEmpty(Option<PathBuf>);

impl Drop for RemoveIfEmpty {
    fn drop(&mut self) {
        if let Some(dir) = &self.0 {
            // Fails (and does nothing) unless the folder is empty.
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// The registered experiments `--experiments` names (all of them for `all`, none for `none`).
fn select_experiments(list: &str) -> Result<Vec<String>, Failure> {
    let known: Vec<&str> = handoff_lab::bench::registry::EXPERIMENTS
        .iter()
        .filter(|e| e.run.is_some())
        .map(|e| e.name)
        .collect();
    match list {
        "all" => return Ok(known.iter().map(|s| s.to_string()).collect()),
        "none" | "" => return Ok(Vec::new()),
        _ => {}
    }
    list.split(',')
        .map(|n| {
            let n = n.trim();
            if known.contains(&n) {
                Ok(n.to_string())
            } else {
                Err(Failure::usage(format!(
                    "--experiments: unknown experiment '{n}'; known: all, none, {}",
                    known.join(", ")
                )))
            }
        })
        .collect()
}

/// `handoff report --plan [--sysfs DIR]`: the plan and its estimate, nothing run.
fn print_plan(args: &ReportArgs) -> Result<u8, Failure> {
    let topology = match &args.sysfs {
        Some(dir) => handoff_probe::topology::Topology::from_sysfs(dir)
            .map_err(|e| Failure::usage(format!("report: --sysfs {}: {e}", dir.display())))?,
        None => Machine::detect()?.topology,
    };
    let allowed = match &args.sysfs {
        Some(_) => topology.cpu_ids(),
        None => allowed_cpus()?,
    };
    let flags = overrides(&args.common, &allowed)?;
    let llc = topology.last_level_cache_bytes();
    let (plan, _) = plan::plan(args.quick, &flags, &topology, &allowed, llc)?;
    print!("{}", plan.describe(&topology, &allowed));
    Ok(0)
}
