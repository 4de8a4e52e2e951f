//! `handoff report`: its flags, then the lab's plan, measurements and report writer.

use crate::common::{
    allowed_cpus, check_memory, install_interrupt_handler, overrides, CommonExchangeArgs, Machine,
    CANCEL,
};
use crate::{progress, Failure};
use clap::Args;
use handoff_lab::bench::ExperimentInfo;
use handoff_lab::experiments::team_mpi::{self, TransportKind};
use handoff_lab::experiments::{c2c, exchange};
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

/// Runs `handoff report`.
pub fn report(args: ReportArgs) -> Result<u8, Failure> {
    if args.plan {
        return print_plan(&args);
    }
    let selected = select_experiments(&args.experiments)?;
    let protocol = protocol(&args)?;
    let transports = TransportKind::parse_list("report", &args.transport)?;
    team_mpi::check_available("report", &transports)?;
    let allowed = allowed_cpus()?;
    let flags = overrides(&args.common, &allowed)?;
    let m = Machine::detect()?;
    let llc = m.topology.last_level_cache_bytes();
    let speed = match protocol {
        plan::Protocol::Budget(_) => measure_speed(&m, &allowed),
        _ => 1.0,
    };
    let req = plan::Request {
        protocol,
        flags: &flags,
        experiments: &selected,
        memory: handoff_lab::experiments::exchange::memory::Room::detect().memory,
        speed,
    };
    let (plan, cfg) = plan::plan(&req, &m.topology, &allowed, llc)?;
    check_memory(&plan.points)?;
    if !args.quiet {
        eprintln!("handoff: report: {}", plan.protocol());
        for n in &plan.notes {
            eprintln!("handoff: note: {n}");
        }
        eprintln!("handoff: {}", plan.estimate_line());
    }
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
    let machine = handoff_lab::machine::detect(&m.calibration);
    let tool = handoff_lab::machine::tool();
    let config = plan::plan_config(&cfg, &plan);
    let mut res = {
        let mut ctx = crate::cli_bench::run_ctx(false, &machine, &tool, &allowed, &mut prog)?;
        handoff_lab::bench::registry::run_measured(&mut ctx, |ctx| {
            exchange::run(
                ctx,
                &config,
                &plan.points,
                &env,
                &known,
                args.stop_after_records,
            )
        })?
    };
    let mut stopped = res.partial;
    let (experiments, failed) = if stopped {
        (Vec::new(), Vec::new())
    } else {
        crate::cli_bench::run_for_report(
            plan.step.others_quick,
            &selected,
            &machine,
            &allowed,
            &mut prog,
            &transports,
            &|i, name| {
                if args.quiet {
                    return;
                }
                let est = plan.others.get(i).map_or(0.0, |o| o.1 * plan.speed);
                eprintln!(
                    "handoff: report: experiment {}/{} {name} (estimated {}); {} of an \
                     estimated {} so far",
                    i + 1,
                    selected.len(),
                    plan::fmt_duration(est),
                    plan::fmt_duration(started.elapsed().as_secs_f64()),
                    plan::fmt_duration(plan.estimate().total_s())
                );
            },
        )?
    };
    stopped |= experiments.iter().any(|e| e.partial);
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
    let busy = handoff_lab::bench::BenchResults::busy_parts(
        std::iter::once(&res).chain(experiments.iter()),
    );
    if let Some(s) = res.report.as_mut() {
        s.busy = busy;
    }
    let files = handoff_lab::report::write_full_report(&res, &experiments, &out)
        .map_err(|e| Failure::runtime(format!("writing the report: {e}")))?;
    if !args.quiet {
        eprintln!(
            "handoff: wrote {} files to {} in {:.0} s (estimated {:.0} s){}",
            files.len(),
            out.display(),
            started.elapsed().as_secs_f64(),
            plan.estimate().total_s(),
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

/// Sample points of the exchange (1 MiB: cross-core spin and futex hand-offs, one of them
/// flushed, and `file` on one core, 30 repetitions; 32 MiB on one core, 4; one run each),
/// whose measured time over their modelled time scales a budget's estimate: the machine's
/// speed now, load included (0.5x-10x). About half a second; 1 (the model) when a point
/// fails or the machine has one CPU.
fn measure_speed(m: &Machine, allowed: &[usize]) -> f64 {
    use exchange::{ExchangeConfig, Mode, Point};
    let (Some(&a), Some(&b)) = (allowed.first(), allowed.get(1)) else {
        return 1.0;
    };
    let point = |mode, consumer_core, flush| Point {
        mode,
        size: 1 << 20,
        producer_core: a,
        consumer_core,
        flush,
        reps: 30,
        warmup: 2,
        runs: 1,
    };
    let points = [
        point(Mode::ThreadsSpin, b, false),
        point(Mode::ProcessesFutex, b, false),
        point(Mode::ProcessesSpin, b, true),
        point(Mode::File, a, false),
        Point {
            size: 32 << 20,
            reps: 4,
            ..point(Mode::ThreadsSpin, a, false)
        },
    ];
    let Ok(env) = m.env(&ExchangeConfig::default()) else {
        return 1.0;
    };
    // The floor beside each record is not wanted here: a stand-in keeps it from being measured.
    let known = [handoff_lab::bench::schema::C2cPair {
        cpu_a: a,
        cpu_b: b,
        placement: String::new(),
        one_way_ns: 1.0,
    }];
    let modelled: f64 = points.iter().map(plan::point_s).sum();
    let (machine, tool) = (handoff_lab::machine::Machine::default(), Default::default());
    let mut silent = handoff_lab::progress::Silent;
    let Ok(mut ctx) = crate::cli_bench::run_ctx(false, &machine, &tool, allowed, &mut silent)
    else {
        return 1.0;
    };
    let t = Instant::now();
    let ok = exchange::run(&mut ctx, &(), &points, &env, &known, None).is_ok_and(|r| !r.partial);
    let measured = t.elapsed().as_secs_f64();
    if ok && modelled > 0.0 {
        (measured / modelled).clamp(0.5, 10.0)
    } else {
        1.0
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

/// The registered experiments `--experiments` names (all of them for `all`, none for
/// `none`), in the registry's order.
fn select_experiments(list: &str) -> Result<Vec<&'static ExperimentInfo>, Failure> {
    let known: Vec<&'static ExperimentInfo> = handoff_lab::bench::registry::EXPERIMENTS
        .iter()
        .copied()
        .filter(|e| e.run.is_some())
        .collect();
    let names = || known.iter().map(|e| e.name).collect::<Vec<_>>().join(", ");
    let wanted: Vec<&str> = match list {
        "all" => return Ok(known),
        "none" | "" => return Ok(Vec::new()),
        _ => list.split(',').map(str::trim).collect(),
    };
    for n in &wanted {
        if !known.iter().any(|e| e.name == *n) {
            return Err(Failure::usage(format!(
                "--experiments: unknown experiment '{n}'; known: all, none, {}",
                names()
            )));
        }
    }
    Ok(known
        .into_iter()
        .filter(|e| wanted.contains(&e.name))
        .collect())
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
    let selected = select_experiments(&args.experiments)?;
    let req = plan::Request {
        protocol: protocol(args)?,
        flags: &flags,
        experiments: &selected,
        // Another machine's plan (--sysfs) cannot know its memory: MAX_BLOCK bounds it.
        memory: match &args.sysfs {
            Some(_) => None,
            None => handoff_lab::experiments::exchange::memory::Room::detect().memory,
        },
        // --plan runs nothing: the cost model's own speed.
        speed: 1.0,
    };
    let (plan, _) = plan::plan(&req, &topology, &allowed, llc)?;
    print!("{}", plan.describe(&topology, &allowed));
    Ok(0)
}
