//! `handoff report`, conducted by the lab: the plan and its estimate (shown before anything
//! runs), the exchange with the c2c matrix, every other selected experiment through the
//! registry, the busy warning, and the folder written. The CLI parses the flags, calls
//! [`conduct`] and prints the first screen it returns.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::plan::{self, Protocol};
use crate::bench::experiment::{BenchError, ExperimentInfo, RunCtx, TransportKind};
use crate::bench::registry;
use crate::bench::schema::C2cPair;
use crate::bench::BenchResults;
use crate::experiments::exchange::{self, memory, Launcher, Mode, Overrides, Point, Rig};
use crate::machine::{Machine, Tool};
use crate::progress::{Progress, Silent};

/// What `handoff report` was asked for.
pub struct Options<'a> {
    /// `--quick`, `--budget DURATION` or `--full`.
    pub protocol: Protocol,
    /// The exchange flags the user gave (`--mode`, `--size`, ...).
    pub flags: Overrides,
    /// The experiments that run after the exchange (`--experiments`).
    pub experiments: Vec<&'static ExperimentInfo>,
    /// The transports of the team experiments (`--transport`).
    pub transports: Vec<TransportKind>,
    /// `--out`, else `handoff-report-HOST-DATE` here.
    pub out: Option<PathBuf>,
    /// The CPUs this process may use.
    pub allowed: Vec<usize>,
    /// How to start worker processes: this executable with these arguments before an
    /// experiment's name (this binary's hidden worker command).
    pub launcher: (PathBuf, Vec<std::ffi::OsString>),
    /// Set by Ctrl-C (or SIGTERM): stop and write what was measured.
    pub cancel: &'a AtomicBool,
    /// The command line, for the report's settings.
    pub command_line: String,
    /// Stop after this many exchange records (tests).
    pub stop_after_records: Option<usize>,
}

/// What a conducted report left.
#[derive(Debug)]
pub struct Outcome {
    /// The report folder.
    pub dir: PathBuf,
    /// A stop request cut the run short (the report holds what came before it).
    pub stopped: bool,
    /// The report's first screen, one line each (busy warning first).
    pub first_screen: Vec<String>,
}

/// The report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ConductError {
    /// Bad input the user can fix before anything runs (exit code 2).
    #[error("{0}")]
    Usage(String),
    /// A failure while measuring or writing (exit code 3).
    #[error("{0}")]
    Failed(String),
    /// The exchange failed (its own kind: usage, failure or a peer gone).
    #[error(transparent)]
    Bench(#[from] BenchError),
}

fn usage(e: impl std::fmt::Display) -> ConductError {
    ConductError::Usage(e.to_string())
}

fn failed(e: impl std::fmt::Display) -> ConductError {
    ConductError::Failed(e.to_string())
}

/// A context for one experiment of the report.
fn run_ctx<'a>(
    o: &'a Options<'_>,
    quick: bool,
    (machine, tool): (&'a Machine, &'a Tool),
    progress: &'a mut dyn Progress,
) -> RunCtx<'a> {
    RunCtx {
        quick,
        machine,
        tool,
        exe: o.launcher.0.clone(),
        args: o.launcher.1.clone(),
        allowed_cpus: &o.allowed,
        cancel: o.cancel,
        progress,
        transports: o.transports.clone(),
    }
}

/// How `o` starts the exchange's workers.
fn launcher(o: &Options<'_>) -> Launcher {
    Launcher {
        exe: o.launcher.0.clone(),
        args: o.launcher.1.clone(),
    }
}

/// Runs `handoff report` as `o` asks, telling `progress` what it does, and writes the folder.
pub fn conduct(o: &Options<'_>, progress: &mut dyn Progress) -> Result<Outcome, ConductError> {
    let rig = Rig::detect().map_err(|e| failed(format!("reading the CPU topology: {e}")))?;
    let llc = rig.topology.last_level_cache_bytes();
    let speed = match o.protocol {
        Protocol::Budget(_) => measure_speed(&rig, o),
        _ => 1.0,
    };
    let req = plan::Request {
        protocol: o.protocol,
        flags: &o.flags,
        experiments: &o.experiments,
        memory: memory::Room::detect().memory,
        speed,
    };
    let (plan, cfg) = plan::plan(&req, &rig.topology, &o.allowed, llc).map_err(usage)?;
    memory::check(&plan.points, &memory::Room::detect()).map_err(usage)?;
    let env = rig.env(&cfg, o.cancel, launcher(o)).map_err(usage)?;
    progress.say(&format!("report: {}", plan.protocol()));
    for n in &plan.notes {
        progress.say(&format!("note: {n}"));
    }
    progress.say(&plan.estimate_line());
    let started_at = plan::rfc3339(plan::now_unix());
    let out = match &o.out {
        Some(d) => d.clone(),
        None => {
            let host = handoff_probe::topology::MachineInfo::detect().hostname;
            let date = plan::civil_date(plan::now_unix());
            plan::default_out_dir(std::path::Path::new("."), &host, &date)
        }
    };
    // A folder this run creates goes again if the run fails before writing into it.
    let _made = RemoveIfEmpty((!out.exists()).then(|| out.clone()));
    // --out names a folder holding an earlier report: its generated files go, so no stale plot
    // survives beside the new results.json.
    let cleared = plan::prepare_out_dir(&out).map_err(usage)?;
    if !cleared.is_empty() {
        progress.say(&format!(
            "{} holds an earlier report: removed its {} generated file(s) (results.json, \
             plots, CSVs, report.md, index.html)",
            out.display(),
            cleared.len()
        ));
    }
    let started = Instant::now();
    let machine = crate::machine::detect(&rig.calibration);
    let tool = crate::machine::tool();
    let config = plan::plan_config(&cfg, &plan);
    let mut res = {
        let mut ctx = run_ctx(o, false, (&machine, &tool), progress);
        registry::run_measured(&mut ctx, |ctx| {
            exchange::run(
                ctx,
                &config,
                &plan.points,
                &env,
                (&plan.c2c_pairs, &[]),
                o.stop_after_records,
            )
        })?
    };
    let mut stopped = res.partial;
    let (experiments, left_out) = if stopped {
        (Vec::new(), Vec::new())
    } else {
        let mut ctx = run_ctx(o, plan.step.others_quick, (&machine, &tool), progress);
        run_others(&mut ctx, &o.experiments, |i, name| {
            let est = plan.others.get(i).map_or(0.0, |o| o.1 * plan.speed);
            format!(
                "report: experiment {}/{} {name} (estimated {}); {} of an estimated {} so far",
                i + 1,
                o.experiments.len(),
                plan::fmt_duration(est),
                plan::fmt_duration(started.elapsed().as_secs_f64()),
                plan::fmt_duration(plan.estimate().total_s())
            )
        })
    };
    stopped |= experiments.iter().any(|e| e.partial);
    let mut settings = plan.settings(
        o.protocol == Protocol::Quick,
        o.command_line.clone(),
        started_at,
        started.elapsed().as_secs_f64(),
    );
    res.elapsed_s = settings.elapsed_s;
    settings.notes.extend(
        left_out
            .iter()
            .map(|f| format!("left out after a failure: {f}")),
    );
    settings.busy = BenchResults::busy_parts(std::iter::once(&res).chain(experiments.iter()));
    res.report = Some(settings);
    let files = super::write_full_report(&res, &experiments, &out)
        .map_err(|e| failed(format!("writing the report: {e}")))?;
    progress.say(&format!(
        "wrote {} files to {} in {:.0} s (estimated {:.0} s){}",
        files.len(),
        out.display(),
        started.elapsed().as_secs_f64(),
        plan.estimate().total_s(),
        if stopped {
            " (partial: the run was stopped early)"
        } else {
            ""
        }
    ));
    Ok(Outcome {
        first_screen: super::headline::first_screen(&res, &experiments).terminal(),
        dir: out,
        stopped,
    })
}

/// Runs the report plans of `selected` (quick ones when `ctx.quick`), saying `starting(i,
/// name)` before each; an experiment that fails is said and left out (its error returned
/// beside the results), so one broken experiment does not cost the whole report. A stop
/// request ends the loop.
fn run_others(
    ctx: &mut RunCtx<'_>,
    selected: &[&'static ExperimentInfo],
    starting: impl Fn(usize, &str) -> String,
) -> (Vec<BenchResults>, Vec<String>) {
    let mut out = Vec::new();
    let mut failures = Vec::new();
    for (i, info) in selected.iter().enumerate() {
        let Some(run) = info.run else { continue };
        if ctx.cancel.load(Ordering::Relaxed) {
            break;
        }
        ctx.progress.say(&starting(i, info.name));
        match registry::run_measured(ctx, run) {
            Ok(r) => out.push(r),
            Err(e) => {
                ctx.progress.say(&format!("{e} (left out of the report)"));
                failures.push(e.to_string());
            }
        }
    }
    (out, failures)
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
fn measure_speed(rig: &Rig, o: &Options<'_>) -> f64 {
    let (Some(&a), Some(&b)) = (o.allowed.first(), o.allowed.get(1)) else {
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
    let Ok(env) = rig.env(&exchange::ExchangeConfig::default(), o.cancel, launcher(o)) else {
        return 1.0;
    };
    // The floor beside each record is not wanted here: a stand-in keeps it from being measured.
    let known = [C2cPair {
        cpu_a: a,
        cpu_b: b,
        placement: String::new(),
        one_way_ns: 1.0,
    }];
    let modelled: f64 = points.iter().map(plan::point_s).sum();
    let (machine, tool) = (Machine::default(), Tool::default());
    let mut silent = Silent;
    let mut ctx = run_ctx(o, false, (&machine, &tool), &mut silent);
    let t = Instant::now();
    let ok =
        exchange::run(&mut ctx, &(), &points, &env, (&[], &known), None).is_ok_and(|r| !r.partial);
    let measured = t.elapsed().as_secs_f64();
    if ok && modelled > 0.0 {
        (measured / modelled).clamp(0.5, 10.0)
    } else {
        1.0
    }
}
