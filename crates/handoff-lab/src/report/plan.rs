//! The measurement plan of `handoff report` (which points and c2c pairs characterize a machine)
//! and the report folder's name and preparation.
//!
//! Plan (each part skipped when the machine or the flags leave nothing to measure):
//! 1. c2c one-way matrix over all allowed CPUs (one pair per placement class beyond 16 CPUs);
//! 2. exchange of 1 MiB, producer on the first CPU, consumer on every CPU (beyond 16 CPUs,
//!    [`CONSUMERS_PER_CLASS`] representatives per placement class: same core, SMT sibling,
//!    shared L2, shared L3, same package, other package, other NUMA node), all modes: the
//!    paper's Figs. 1-4;
//! 3. size sweep, powers of 4 from 4 KiB to max(64 MiB, 4 x last-level cache), same-core and
//!    one cross-core placement: Figs. 5-6;
//! 4. cached vs flushed at 1 MiB on the same two placements: Fig. 7.
//!
//! Repetitions are scaled by size, as OSU does: `reps = clamp(R x 1 MiB / size, R_min, R)`.

use crate::bench::schema::ReportSettings;
use crate::experiments::c2c;
use crate::experiments::exchange::{ConfigError, ExchangeConfig, Mode, Overrides, Point};
use handoff_probe::topology::{Placement, Topology};

mod cost_model;
mod folder;
#[cfg(test)]
mod tests;

pub use cost_model::{cost, fmt_duration, point_s, Estimate};
pub use folder::{civil_date, default_out_dir, now_unix, prepare_out_dir, rfc3339, OutDirError};

const MIB: usize = 1 << 20;
/// Above this many CPUs, measure representatives per placement class, not every CPU.
pub const MAX_ALL_CPUS: usize = 16;
/// Consumers measured per placement class on a large machine (the lowest id, the highest,
/// one between: both ends of a class that spans sockets or CCDs).
pub const CONSUMERS_PER_CLASS: usize = 3;

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

/// Builds the plan for this machine and the flags the user gave (`quick`: `--quick`).
pub fn plan(
    quick: bool,
    flags: &Overrides,
    topology: &Topology,
    allowed: &[usize],
    llc_bytes: Option<u64>,
) -> Result<(Plan, ExchangeConfig), ConfigError> {
    let mut cfg = ExchangeConfig {
        runs: if quick { 3 } else { 5 },
        reps: if quick { 30 } else { 100 },
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
    let min_reps = if quick { 5 } else { 10 };
    let llc = llc_bytes.unwrap_or(32 * MIB as u64) as usize;
    let max_size = (64 * MIB).max(4 * llc);
    let sizes = if user_sizes {
        cfg.sizes.clone()
    } else if quick {
        sweep_sizes(16 * MIB, 2)
    } else {
        sweep_sizes(max_size, 1)
    };
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
    Ok((
        Plan {
            points,
            c2c_pairs,
            rep_scaling,
            fixed_reps: flags.reps.is_some(),
            notes,
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
        let e = self.estimate();
        let _ = writeln!(
            out,
            "points: {} exchange points ({} sizes, {} consumers), {} c2c pairs",
            self.points.len(),
            sizes.len(),
            consumers.len(),
            self.c2c_pairs.len()
        );
        let _ = writeln!(out, "repetitions: {}", self.rep_scaling);
        for n in &self.notes {
            let _ = writeln!(out, "note: {n}");
        }
        let _ = writeln!(
            out,
            "estimated duration: {} (c2c {}, exchange {}; other experiments not included)",
            fmt_duration(e.total_s()),
            fmt_duration(e.c2c_s),
            fmt_duration(e.exchange_s)
        );
        out
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
            notes: self.notes.clone(),
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
