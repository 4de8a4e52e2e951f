//! The measurement plan of `handoff report` (which points and c2c pairs characterize a machine)
//! and the report folder's name and preparation.
//!
//! Plan (each part skipped when the machine or the flags leave nothing to measure):
//! 1. c2c one-way matrix over all allowed CPUs (one pair per placement class beyond 16 CPUs);
//! 2. exchange of 1 MiB, producer on the first CPU, consumer on every CPU (beyond 16 CPUs,
//!    [`CONSUMERS_PER_CLASS`] representatives per placement class: same core, SMT sibling,
//!    shared L2, shared L3, same package, other package, other NUMA node), all modes: the
//!    paper's Figs. 1-4;
//! 3. size sweep, powers of 4 from 4 KiB to [`sweep_max`] (twice the last-level cache, at
//!    least 64 MiB, at most [`MAX_BLOCK`] and what the memory holds), same-core and one
//!    cross-core placement: Figs. 5-6;
//! 4. cached vs flushed at 1 MiB on the same two placements: Fig. 7;
//! 5. every other registered experiment's report plan (full or quick).
//!
//! Repetitions are scaled by size, as OSU does: `reps = clamp(R x 1 MiB / size, R_min, R)`,
//! with `R`, `R_min`, the runs and the sweep's density the step of the [`budget`] ladder that
//! fits the time budget (or the seeds' 100 x 5 with `--full`).

use crate::bench::experiment::ExperimentInfo;
use crate::bench::schema::ReportSettings;
use crate::experiments::c2c;
use crate::experiments::exchange::{ConfigError, ExchangeConfig, Mode, Overrides, Point};
use handoff_probe::topology::{Placement, Topology};

pub mod budget;
mod cost_model;
mod folder;
#[cfg(test)]
mod tests;

pub use budget::{parse_budget, Protocol, Step, DEFAULT_BUDGET_S};
pub use cost_model::{cost, fmt_duration, point_s, Estimate};
pub use folder::{civil_date, default_out_dir, now_unix, prepare_out_dir, rfc3339, OutDirError};

const MIB: usize = 1 << 20;
/// Above this many CPUs, measure representatives per placement class, not every CPU.
pub const MAX_ALL_CPUS: usize = 16;
/// Consumers measured per placement class on a large machine (the lowest id, the highest,
/// one between: both ends of a class that spans sockets or CCDs).
pub const CONSUMERS_PER_CLASS: usize = 3;
/// An estimate above this many seconds is called long when the plan is shown.
pub const LONG_S: f64 = 600.0;
/// The largest block the sweep measures, whatever the cache (a 504 MiB L3 sweeps to 1008 MiB).
pub const MAX_BLOCK: usize = 1 << 30;
/// Bytes one point may need per byte of block at most (`file`: the block, its read-back
/// copy and the file in the page cache; see `exchange::memory::need`).
const BYTES_PER_BLOCK_BYTE: u64 = 3;

/// What a plan is asked for.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// Quick, within a budget, or the seeds' full protocols.
    pub protocol: Protocol,
    /// The exchange flags the user gave.
    pub flags: &'a Overrides,
    /// The experiments that run after exchange (their report plans).
    pub experiments: &'a [&'static ExperimentInfo],
    /// Bytes of memory available (`MemAvailable`) when known: bounds the largest block.
    pub memory: Option<u64>,
    /// How much slower than the [`cost`] model this machine runs now (measured
    /// exchange points' time over their modelled time; 1 when not measured).
    pub speed: f64,
}

/// The knobs of a report run (full or quick).
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The exchange points, in the order they run.
    pub points: Vec<Point>,
    /// The c2c pairs measured first.
    pub c2c_pairs: Vec<(usize, usize)>,
    /// How repetitions were chosen, one sentence.
    pub rep_scaling: String,
    /// `--reps` fixed the repetitions (else they scale with the size).
    pub fixed_reps: bool,
    /// What the reader must know about the plan.
    pub notes: Vec<String>,
    /// The exchange protocol followed.
    pub step: Step,
    /// The budget the step was chosen for (seconds), `None` for `--quick` and `--full`.
    pub budget_s: Option<f64>,
    /// The other experiments and their estimated seconds (at the model's speed), in the
    /// order they run.
    pub others: Vec<(&'static str, f64)>,
    /// The measured speed factor the estimate is scaled by ([`Request::speed`]).
    pub speed: f64,
}

/// Repetitions for a block of `size` bytes: many for small blocks, fewer for large ones.
pub fn scaled_reps(max_reps: u32, min_reps: u32, size: usize) -> u32 {
    let r =
        (max_reps as u64 * MIB as u64 / size.max(1) as u64).clamp(min_reps as u64, max_reps as u64);
    r as u32
}

/// Sizes of the sweep: powers of 4 from 4 KiB up to `max`, plus `max` itself.
pub fn sweep_sizes(max: usize, step_pow4: u32) -> Vec<usize> {
    let mut sizes = Vec::new();
    let mut s = 4096usize;
    while s < max {
        sizes.push(s);
        s <<= 2 * step_pow4;
    }
    sizes.push(max);
    sizes
}

/// The largest block of the sweep: past the last-level cache (twice it, at least 64 MiB),
/// at most [`MAX_BLOCK`] and at most what a third of 90% of `memory` holds (4 KiB
/// multiples).
pub fn sweep_max(llc_bytes: Option<u64>, memory: Option<u64>) -> usize {
    let llc = llc_bytes.unwrap_or(32 * MIB as u64) as usize;
    let mut max = (64 * MIB).max(2 * llc).min(MAX_BLOCK);
    if let Some(m) = memory {
        let room = (m / 10 * 9 / BYTES_PER_BLOCK_BYTE) as usize;
        max = max.min(room / 4096 * 4096).max(4096);
    }
    max
}

/// Builds the plan for this machine and the request: for a budget, the richest step of the
/// [`budget::LADDER`] whose estimate fits (the leanest, with a note, when none does).
pub fn plan(
    req: &Request<'_>,
    topology: &Topology,
    allowed: &[usize],
    llc_bytes: Option<u64>,
) -> Result<(Plan, ExchangeConfig), ConfigError> {
    let build = |step: &Step| plan_step(req, step, topology, allowed, llc_bytes);
    let budget = match req.protocol {
        Protocol::Quick => return build(&budget::QUICK),
        Protocol::Full => return build(&budget::FULL),
        Protocol::Budget(b) => b,
    };
    let mut chosen = None;
    for step in &budget::LADDER {
        let (mut p, cfg) = build(step)?;
        p.budget_s = Some(budget);
        let fits = p.estimate().total_s() <= budget;
        chosen = Some((p, cfg));
        if fits {
            break;
        }
    }
    // LADDER is not empty: `chosen` holds at least its last step.
    let (mut p, cfg) = chosen.expect("the budget ladder has steps");
    let e = p.estimate().total_s();
    if e > budget {
        p.notes.push(format!(
            "the leanest plan is estimated at {}, over the budget of {}: a larger --budget, \
             fewer --experiments or a smaller --size list fit it",
            fmt_duration(e),
            fmt_duration(budget)
        ));
    }
    if p.step != budget::FULL && req.flags.reps.is_none() {
        let (full, _) = build(&budget::FULL)?;
        p.notes.push(format!(
            "fewer repetitions than the seeds' protocol (100 x 5 runs) where the budget asks: \
             intervals are wider there; --full measures the seeds' protocols (estimated {})",
            fmt_duration(full.estimate().total_s())
        ));
    }
    Ok((p, cfg))
}

/// The plan of one step of the ladder.
fn plan_step(
    req: &Request<'_>,
    step: &Step,
    topology: &Topology,
    allowed: &[usize],
    llc_bytes: Option<u64>,
) -> Result<(Plan, ExchangeConfig), ConfigError> {
    let flags = req.flags;
    let quick = req.protocol == Protocol::Quick;
    let mut cfg = ExchangeConfig {
        runs: step.runs,
        reps: step.max_reps,
        warmup: 0,
        consumer_cores: allowed.to_vec(),
        producer_core: allowed[0],
        ..ExchangeConfig::default()
    };
    let mut notes = Vec::new();
    let producer = cfg.producer_core;
    // Which consumers: every CPU, or one per placement class on large machines.
    let per_class = allowed.len() > MAX_ALL_CPUS;
    if per_class {
        cfg.consumer_cores = topology
            .representatives_per_class(producer, allowed, CONSUMERS_PER_CLASS)
            .into_iter()
            .flat_map(|(_, c)| c)
            .collect();
        notes.push(format!(
            "{} CPUs: consumers are up to {CONSUMERS_PER_CLASS} representative CPUs per \
             placement class, c2c pairs one per class",
            allowed.len()
        ));
    }
    cfg.apply(flags)?;
    cfg.validate(allowed)?;
    let user_sizes = flags.sizes.is_some();
    let min_reps = step.min_reps;
    let max_size = sweep_max(llc_bytes, req.memory);
    let sizes = if user_sizes {
        cfg.sizes.clone()
    } else if quick {
        sweep_sizes(16 * MIB, 2)
    } else {
        sweep_sizes(max_size, step.sweep_step)
    };
    if !user_sizes && !quick && max_size < 2 * llc_bytes.unwrap_or(0) as usize {
        notes.push(format!(
            "the sweep stops at {}, under twice the last-level cache: {}",
            crate::units::format_size(max_size),
            if max_size == MAX_BLOCK {
                "the largest block measured"
            } else {
                "what the memory available holds"
            }
        ));
    }
    let per_cpu_size = if user_sizes { cfg.sizes[0] } else { MIB };
    // The cross-core placement of the sweep: the nearest class that is another core.
    let cross = topology
        .representatives(producer, allowed)
        .into_iter()
        .find(|(p, _)| !matches!(p, Placement::SameCore | Placement::SmtSibling))
        .or_else(|| {
            topology
                .representatives(producer, allowed)
                .into_iter()
                .find(|(p, _)| *p != Placement::SameCore)
        })
        .map(|(_, c)| c);
    if cross.is_none() {
        notes.push("only one CPU is available: cross-core placements were skipped".into());
    }
    let sweep_consumers: Vec<usize> = std::iter::once(producer)
        .chain(cross)
        .filter(|c| cfg.consumer_cores.contains(c) || flags.consumer_cores.is_none())
        .collect();

    let mut points: Vec<Point> = Vec::new();
    let mut add = |mode: Mode, size: usize, consumer: usize, flush: bool| {
        let consumer = if mode.is_single_thread() {
            producer
        } else {
            consumer
        };
        let reps = match flags.reps {
            Some(r) => r,
            None => scaled_reps(cfg.reps, min_reps, size),
        };
        let p = Point {
            mode,
            size,
            producer_core: producer,
            consumer_core: consumer,
            flush,
            reps,
            warmup: (reps / 10).max(2),
            runs: cfg.runs,
        };
        let dup = points.iter().any(|q| {
            (q.mode, q.size, q.consumer_core, q.flush) == (p.mode, p.size, p.consumer_core, p.flush)
        });
        if !dup {
            points.push(p);
        }
    };
    // Modes innermost: the modes a figure compares are measured next to each other in time,
    // so a change on the host (vCPUs moved) between them cannot pass for a mode difference.
    // 2. per CPU at 1 MiB (Figs. 1-4)
    for &c in &cfg.consumer_cores {
        for &mode in &cfg.modes {
            add(mode, per_cpu_size, c, false);
        }
    }
    // 3. size sweep (Figs. 5-6)
    for &s in &sizes {
        for &c in &sweep_consumers {
            for &mode in &cfg.modes {
                add(mode, s, c, false);
            }
        }
    }
    // 4. cached vs flushed (Fig. 7)
    for &c in &sweep_consumers {
        for &mode in &cfg.modes {
            add(mode, per_cpu_size, c, true);
        }
    }
    let c2c_pairs = if per_class {
        c2c::representative_pairs(topology, producer, allowed)
    } else {
        c2c::all_pairs(allowed)
    };
    let rep_scaling = if let Some(reps) = flags.reps {
        format!("fixed: {reps} repetitions per run at every size (--reps)")
    } else {
        format!(
            "by size, as OSU does: reps = clamp({} x 1 MiB / size, {min_reps}, {}), warm-up = max(2, reps / 10), {} runs per point",
            cfg.reps, cfg.reps, cfg.runs
        )
    };
    let classes = topology
        .representatives_per_class(producer, allowed, 1)
        .len();
    let others = req
        .experiments
        .iter()
        .map(|e| (e.name, e.report_cost.seconds(step.others_quick, classes)))
        .collect();
    Ok((
        Plan {
            points,
            c2c_pairs,
            rep_scaling,
            fixed_reps: flags.reps.is_some(),
            notes,
            step: *step,
            budget_s: None,
            others,
            speed: req.speed,
        },
        cfg,
    ))
}

impl Plan {
    /// The plan for a reader (`handoff report --plan`): the machine, the consumers by
    /// placement class, what is measured, and the estimate. Runs nothing.
    pub fn describe(&self, topology: &Topology, allowed: &[usize]) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let producer = self.points.first().map_or(allowed[0], |p| p.producer_core);
        let _ = writeln!(
            out,
            "machine: {} CPUs allowed of {} ({})",
            allowed.len(),
            topology.logical_cpus(),
            topology.summary()
        );
        let _ = writeln!(out, "producer: CPU {producer}");
        let mut consumers: Vec<usize> = self.points.iter().map(|p| p.consumer_core).collect();
        consumers.sort_unstable();
        consumers.dedup();
        let _ = writeln!(out, "consumers by placement class:");
        for (class, cpus) in topology.representatives_per_class(producer, allowed, usize::MAX) {
            let picked: Vec<usize> = cpus
                .iter()
                .copied()
                .filter(|c| consumers.contains(c))
                .collect();
            let _ = writeln!(
                out,
                "  {:<13} {} of {} CPUs: {}",
                class.as_str(),
                picked.len(),
                cpus.len(),
                if picked.is_empty() {
                    "-".to_string()
                } else {
                    handoff_probe::topology::format_cpu_list(&picked)
                }
            );
        }
        let mut sizes: Vec<usize> = self.points.iter().map(|p| p.size).collect();
        sizes.sort_unstable();
        sizes.dedup();
        let _ = writeln!(
            out,
            "points: {} exchange points ({} sizes, {} consumers), {} c2c pairs",
            self.points.len(),
            sizes.len(),
            consumers.len(),
            self.c2c_pairs.len()
        );
        let _ = writeln!(out, "repetitions: {}", self.rep_scaling);
        let _ = writeln!(out, "protocol: {}", self.protocol());
        let _ = writeln!(
            out,
            "other experiments: {}",
            if self.others.is_empty() {
                "none".to_string()
            } else {
                self.others
                    .iter()
                    .map(|(n, s)| format!("{n} {}", fmt_duration(*s)))
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
        let mut line = format!(
            "estimated duration: {} (c2c {}, exchange {}, {} other experiments {}, writing {})",
            fmt_duration(e.total_s()),
            fmt_duration(e.c2c_s),
            fmt_duration(e.exchange_s),
            self.others.len(),
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

    /// The `report` block of `results.json`: how this plan was run.
    pub fn settings(
        &self,
        quick: bool,
        command: String,
        started: String,
        elapsed_s: f64,
    ) -> ReportSettings {
        ReportSettings {
            quick,
            command,
            started: Some(started),
            elapsed_s: Some(elapsed_s),
            rep_scaling: if self.fixed_reps { "fixed" } else { "by-size" }.to_string(),
            rep_scaling_description: self.rep_scaling.clone(),
            notes: std::iter::once(format!("protocol: {}", self.protocol()))
                .chain(self.notes.iter().cloned())
                .collect(),
            busy: Vec::new(),
            estimated_s: Some(self.estimate().total_s()),
        }
    }
}

/// The `config` of `results.json`: the exchange settings with every size of the plan and the
/// real warm-up rule, and the whole plan, one entry per point.
pub fn plan_config(cfg: &ExchangeConfig, plan: &Plan) -> serde_json::Value {
    let mut exchange = serde_json::to_value(cfg).unwrap_or_default();
    let mut sizes: Vec<usize> = plan.points.iter().map(|p| p.size).collect();
    sizes.sort_unstable();
    sizes.dedup();
    if let Some(o) = exchange.as_object_mut() {
        o.insert("sizes".into(), serde_json::json!(sizes));
        o.insert(
            "warmup".into(),
            serde_json::json!("per point: max(2, reps / 10), see plan"),
        );
        o.insert(
            "reps".into(),
            serde_json::json!(format!("per point: {}", plan.rep_scaling)),
        );
    }
    let points: Vec<serde_json::Value> = plan
        .points
        .iter()
        .map(|p| {
            serde_json::json!({
                "mode": p.mode.as_str(),
                "size": p.size,
                "producer_core": p.producer_core,
                "consumer_core": p.consumer_core,
                "flush": p.flush,
                "reps": p.reps,
                "warmup": p.warmup,
                "runs": p.runs,
            })
        })
        .collect();
    serde_json::json!({
        "exchange": exchange,
        "points": plan.points.len(),
        "c2c_pairs": plan.c2c_pairs.len(),
        "plan": points,
    })
}
