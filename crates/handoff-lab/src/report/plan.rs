//! The plan of `handoff report`: each experiment's part for the step of the [`budget`]
//! ladder that fits the time budget (or the seeds' 100 x 5 with `--full`), their estimate,
//! and the report folder's name and preparation.
//!
//! The experiment that leads the report ([`registry::lead`]: the exchange, with its c2c
//! matrix) plans its points for the machine and the step itself
//! ([`crate::bench::experiment::PlanFn`]); every other selected experiment runs its full or
//! quick plan (the step's `others_quick`) at its measured cost.

use crate::bench::experiment::{BenchError, ExperimentInfo, PlanAsk, ReportFlags, ReportPlan};
use crate::bench::registry;
use crate::bench::schema::ReportSettings;
use handoff_probe::topology::Topology;

pub mod budget;
mod cost_model;
mod folder;
#[cfg(test)]
mod tests;

pub use budget::{parse_budget, Protocol, Step, DEFAULT_BUDGET_S};
pub use cost_model::{fmt_duration, Estimate};
pub use folder::{civil_date, default_out_dir, now_unix, prepare_out_dir, rfc3339, OutDirError};

/// An estimate above this many seconds is called long when the plan is shown.
pub const LONG_S: f64 = 600.0;

/// What a plan is asked for.
#[derive(Clone, Copy)]
pub struct Request<'a> {
    /// Quick, within a budget, or the seeds' full protocols.
    pub protocol: Protocol,
    pub flags: &'a ReportFlags,
    /// The experiments that run after the leading one (their report plans).
    pub experiments: &'a [&'static ExperimentInfo],
    /// Bytes of memory available (`MemAvailable`) when known: bounds the largest block.
    pub memory: Option<u64>,
    /// How much slower than the cost model this machine runs now (the leading experiment's
    /// [`crate::bench::experiment::SpeedFn`]; 1 when not measured).
    pub speed: f64,
    /// Stop the leading experiment after this many records (tests).
    pub stop_after_records: Option<usize>,
    /// The plan runs now (not `--plan`): refuse what this machine cannot run now.
    pub for_run: bool,
}

/// The knobs of a report run (full or quick).
pub struct Plan {
    /// Each experiment's part, the leading one first, in the order they run.
    pub parts: Vec<(&'static str, ReportPlan)>,
    /// What the reader must know about the plan (the parts' notes first).
    pub notes: Vec<String>,
    pub step: Step,
    /// The budget the step was chosen for (seconds), `None` for `--quick` and `--full`.
    pub budget_s: Option<f64>,
    /// The measured speed factor the estimate is scaled by ([`Request::speed`]).
    pub speed: f64,
}

/// Builds the plan for this machine and the request: for a budget, the richest step of the
/// [`budget::LADDER`] whose estimate fits (the leanest, with a note, when none does).
pub fn plan(req: &Request<'_>, topology: &Topology, allowed: &[usize]) -> Result<Plan, BenchError> {
    let build = |step: &Step| plan_step(req, step, topology, allowed);
    let budget = match req.protocol {
        Protocol::Quick => return build(&budget::QUICK),
        Protocol::Full => return build(&budget::FULL),
        Protocol::Budget(b) => b,
    };
    let mut chosen = None;
    for step in &budget::LADDER {
        let mut p = build(step)?;
        p.budget_s = Some(budget);
        let fits = p.estimate().total_s() <= budget;
        chosen = Some(p);
        if fits {
            break;
        }
    }
    // LADDER is not empty: `chosen` holds at least its last step.
    let mut p = chosen.expect("the budget ladder has steps");
    let e = p.estimate().total_s();
    if e > budget {
        p.notes.push(format!(
            "the leanest plan is estimated at {}, over the budget of {}: a larger --budget, \
             fewer --experiments or a smaller --size list fit it",
            fmt_duration(e),
            fmt_duration(budget)
        ));
    }
    if p.step != budget::FULL && !p.lead().reps.as_ref().is_some_and(|r| r.0) {
        let full = build(&budget::FULL)?;
        p.notes.push(format!(
            "fewer repetitions than the seeds' protocol (100 x 5 runs) where the budget asks: \
             intervals are wider there; --full measures the seeds' protocols (estimated {})",
            fmt_duration(full.estimate().total_s())
        ));
    }
    Ok(p)
}

/// The plan of one step of the ladder: the leading experiment's part, then the others'.
fn plan_step(
    req: &Request<'_>,
    step: &Step,
    topology: &Topology,
    allowed: &[usize],
) -> Result<Plan, BenchError> {
    let ask = PlanAsk {
        quick: req.protocol == Protocol::Quick,
        step,
        topology,
        allowed,
        memory: req.memory,
        flags: req.flags,
        stop_after_records: req.stop_after_records,
        for_run: req.for_run,
    };
    let infos = std::iter::once(registry::lead()).chain(req.experiments.iter().copied());
    let parts = infos
        .filter_map(|info| Some(info.report_plan(&ask)?.map(|part| (info.name, part))))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Plan {
        notes: parts.iter().flat_map(|p| p.1.notes.clone()).collect(),
        parts,
        step: *step,
        budget_s: None,
        speed: req.speed,
    })
}

impl Plan {
    /// The leading experiment's part.
    pub fn lead(&self) -> &ReportPlan {
        &self.parts[0].1
    }

    /// The other experiments and their estimated seconds (at the model's speed), in the
    /// order they run.
    pub fn others(&self) -> impl Iterator<Item = (&'static str, f64)> + '_ {
        self.parts[1..].iter().map(|(n, p)| (*n, p.seconds()))
    }

    /// The plan for a reader (`handoff report --plan`): the machine, what each experiment
    /// measures (the leading one's consumers by placement class), and the estimate. Runs
    /// nothing.
    pub fn describe(&self, topology: &Topology, allowed: &[usize]) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "machine: {} CPUs allowed of {} ({})",
            allowed.len(),
            topology.logical_cpus(),
            topology.summary()
        );
        for line in &self.lead().lines {
            let _ = writeln!(out, "{line}");
        }
        let _ = writeln!(out, "protocol: {}", self.protocol());
        let _ = writeln!(
            out,
            "other experiments: {}",
            if self.parts.len() < 2 {
                "none".to_string()
            } else {
                self.others()
                    .map(|(n, s)| format!("{n} {}", fmt_duration(s)))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        );
        for n in &self.notes {
            let _ = writeln!(out, "note: {n}");
        }
        let _ = writeln!(out, "{}", self.estimate_line());
        out
    }

    /// The protocol in words: the step, the budget it fits, the measured speed.
    pub fn protocol(&self) -> String {
        let mut s = self.step.describe();
        if let Some(b) = self.budget_s {
            s.push_str(&format!(" (budget {})", fmt_duration(b)));
        }
        if self.speed != 1.0 {
            s.push_str(&format!(
                "; this machine ran sample points at {:.2}x the cost model's time now, and \
                 the estimate is scaled by it",
                self.speed
            ));
        }
        s
    }

    /// "estimated duration: 4 min 10 s (c2c 1 s, exchange 2 min, 14 other experiments
    /// 2 min 05 s, writing 5 s)", and a warning sentence when it is long.
    pub fn estimate_line(&self) -> String {
        let e = self.estimate();
        let lead: String = e
            .lead
            .iter()
            .map(|(n, s)| format!("{n} {}, ", fmt_duration(*s)))
            .collect();
        let mut line = format!(
            "estimated duration: {} ({lead}{} other experiments {}, writing {})",
            fmt_duration(e.total_s()),
            self.parts.len() - 1,
            fmt_duration(e.others_s),
            fmt_duration(e.write_s)
        );
        if e.total_s() > LONG_S {
            line.push_str(&format!(
                "; a long run: it starts now, Ctrl-C stops it and writes a partial report, \
                 and the default budget ({}) is shorter",
                fmt_duration(DEFAULT_BUDGET_S)
            ));
        }
        line
    }

    /// The `report` block of `results.json`: how this plan was run (the run's elapsed time
    /// still to be filled in).
    pub fn settings(&self, quick: bool, command: String, started: String) -> ReportSettings {
        let (fixed, reps) = self.lead().reps.clone().unwrap_or_default();
        ReportSettings {
            quick,
            command,
            started: Some(started),
            elapsed_s: None,
            rep_scaling: if fixed { "fixed" } else { "by-size" }.to_string(),
            rep_scaling_description: reps,
            notes: std::iter::once(format!("protocol: {}", self.protocol()))
                .chain(self.notes.iter().cloned())
                .collect(),
            busy: Vec::new(),
            estimated_s: Some(self.estimate().total_s()),
        }
    }
}
