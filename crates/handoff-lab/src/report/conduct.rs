//! `handoff report`, conducted by the lab: the plan and its estimate (shown before anything
//! runs), the exchange with the c2c matrix, every other selected experiment through the
//! registry, the busy warning, and the folder written. The CLI parses the flags, calls
//! [`conduct`] and prints the first screen it returns.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::plan::{self, Protocol};
use crate::bench::experiment::{BenchError, ExperimentInfo, ReportFlags, RunCtx, TransportKind};
use crate::bench::registry;
use crate::bench::BenchResults;
use crate::machine::{Machine, Tool};
use crate::progress::{Progress, Silent};

/// What `handoff report` was asked for.
pub struct Options<'a> {
    /// `--quick`, `--budget DURATION` or `--full`.
    pub protocol: Protocol,
    /// The flags the user gave the leading experiment (`--mode`, `--size`, ...).
    pub flags: ReportFlags,
    /// The experiments that run after the leading one (`--experiments`).
    pub experiments: Vec<&'static ExperimentInfo>,
    /// The transports of the team experiments (`--transport`).
    pub transports: Vec<TransportKind>,
    /// `--out`, else `handoff-report-HOST-DATE` here.
    pub out: Option<PathBuf>,
    pub allowed: Vec<usize>,
    /// How to start worker processes: this executable with these arguments before an
    /// experiment's name (this binary's hidden worker command).
    pub launcher: (PathBuf, Vec<std::ffi::OsString>),
    /// Set by Ctrl-C (or SIGTERM): stop and write what was measured.
    pub cancel: &'a AtomicBool,
    /// The command line, for the report's settings.
    pub command_line: String,
    /// Stop after this many records of the leading experiment (tests).
    pub stop_after_records: Option<usize>,
}

/// What a conducted report left.
#[derive(Debug)]
pub struct Outcome {
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
    /// The leading experiment failed (its own kind: usage, failure or a peer gone).
    #[error(transparent)]
    Bench(#[from] BenchError),
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

/// Runs `handoff report` as `o` asks, telling `progress` what it does, and writes the folder.
pub fn conduct(o: &Options<'_>, progress: &mut dyn Progress) -> Result<Outcome, ConductError> {
    let topology = handoff_probe::topology::Topology::detect()
        .map_err(|e| failed(format!("reading the CPU topology: {e}")))?;
    let lead = registry::lead();
    let speed = match (o.protocol, lead.report_cost.speed) {
        (Protocol::Budget(_), Some(speed)) => {
            let (machine, tool) = (Machine::default(), Tool::default());
            speed(&mut run_ctx(o, false, (&machine, &tool), &mut Silent))
        }
        _ => 1.0,
    };
    let req = plan::Request {
        protocol: o.protocol,
        flags: &o.flags,
        experiments: &o.experiments,
        // A plan for a run reads this machine's memory itself.
        memory: None,
        speed,
        stop_after_records: o.stop_after_records,
        for_run: true,
    };
    let plan = plan::plan(&req, &topology, &o.allowed).map_err(|e| match e {
        BenchError::Usage { message, .. } => ConductError::Usage(message),
        e => ConductError::Bench(e),
    })?;
    progress.say(&format!("report: {}", plan.protocol()));
    for n in &plan.notes {
        progress.say(&format!("note: {n}"));
    }
    progress.say(&plan.estimate_line());
    let started_at = plan::rfc3339(plan::now_unix());
    let out = o.out.clone().unwrap_or_else(|| {
        let host = handoff_probe::topology::MachineInfo::detect().hostname;
        let date = plan::civil_date(plan::now_unix());
        plan::default_out_dir(std::path::Path::new("."), &host, &date)
    });
    // A folder this run creates goes again if the run fails before writing into it.
    let _made = RemoveIfEmpty((!out.exists()).then(|| out.clone()));
    // --out names a folder holding an earlier report: its generated files go, so no stale plot
    // survives beside the new results.json.
    let cleared = plan::prepare_out_dir(&out).map_err(|e| ConductError::Usage(e.to_string()))?;
    if !cleared.is_empty() {
        progress.say(&format!(
            "{} holds an earlier report: removed its {} generated file(s) (results.json, \
             plots, CSVs, report.md, index.html)",
            out.display(),
            cleared.len()
        ));
    }
    let started = Instant::now();
    let calibration = handoff_probe::clock::Clock::detect().calibration();
    let machine = crate::machine::detect(&calibration);
    let tool = crate::machine::tool();
    let estimate = plan.estimate().total_s();
    let quick = o.protocol == Protocol::Quick;
    let mut settings = plan.settings(quick, o.command_line.clone(), started_at);
    let mut parts = plan.parts.into_iter();
    let (_, lead_part) = parts.next().expect("a plan has its lead");
    let mut ctx = run_ctx(o, false, (&machine, &tool), progress);
    let mut res = registry::run_measured(&mut ctx, lead_part.run)?;
    let mut stopped = res.partial;
    let (experiments, left_out) = if stopped {
        (Vec::new(), Vec::new())
    } else {
        let others: Vec<_> = parts.collect();
        let n = others.len();
        run_others(&mut ctx, others, |i, name, est| {
            format!(
                "report: experiment {}/{n} {name} (estimated {}); {} of an estimated {} so far",
                i + 1,
                plan::fmt_duration(est * speed),
                plan::fmt_duration(started.elapsed().as_secs_f64()),
                plan::fmt_duration(estimate)
            )
        })
    };
    stopped |= experiments.iter().any(|e| e.partial);
    settings.elapsed_s = Some(started.elapsed().as_secs_f64());
    res.elapsed_s = settings.elapsed_s;
    settings.notes.extend(
        left_out
            .iter()
            .map(|f| format!("left out after a failure: {f}")),
    );
    // The busy parts in order (exchange and c2c first).
    let all = std::iter::once(&res).chain(&experiments);
    settings.busy = all.filter_map(BenchResults::busy_part).collect();
    res.report = Some(settings);
    let files = super::write_full_report(&res, &experiments, &out)
        .map_err(|e| failed(format!("writing the report: {e}")))?;
    progress.say(&format!(
        "wrote {} files to {} in {:.0} s (estimated {:.0} s){}",
        files.len(),
        out.display(),
        started.elapsed().as_secs_f64(),
        estimate,
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

/// Runs the report plans of `parts` (each experiment's name and plan), saying `starting(i,
/// name, estimated seconds)` before each; an experiment that fails is said and left out
/// (its error returned beside the results), so one broken experiment does not cost the
/// whole report. A stop request ends the loop.
fn run_others(
    ctx: &mut RunCtx<'_>,
    parts: Vec<(&'static str, crate::bench::experiment::ReportPlan)>,
    starting: impl Fn(usize, &str, f64) -> String,
) -> (Vec<BenchResults>, Vec<String>) {
    let mut out = Vec::new();
    let mut failures = Vec::new();
    for (i, (name, part)) in parts.into_iter().enumerate() {
        if ctx.cancel.load(Ordering::Relaxed) {
            break;
        }
        ctx.progress.say(&starting(i, name, part.seconds()));
        match registry::run_measured(ctx, part.run) {
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
