//! The exchange's part of `handoff report` (its [`crate::bench::experiment::PlanFn`]):
//! which points and c2c pairs characterize a machine, for one step of the budget ladder.
//!
//! 1. c2c one-way matrix over all allowed CPUs (one pair per placement class beyond 16 CPUs);
//! 2. exchange of 1 MiB, producer on the first CPU, consumer on every CPU (beyond 16 CPUs,
//!    [`CONSUMERS_PER_CLASS`] representatives per placement class: same core, SMT sibling,
//!    shared L2, shared L3, same package, other package, other NUMA node), all modes: the
//!    paper's Figs. 1-4;
//! 3. size sweep, powers of 4 from 4 KiB to [`sweep_max`] (twice the last-level cache, at
//!    least 64 MiB, at most [`MAX_BLOCK`] and what the memory holds), same-core and one
//!    cross-core placement: Figs. 5-6;
//! 4. cached vs flushed at 1 MiB on the same two placements: Fig. 7.
//!
//! Repetitions are scaled by size, as OSU does: `reps = clamp(R x 1 MiB / size, R_min, R)`,
//! with `R`, `R_min`, the runs and the sweep's density the step of the budget ladder.

use super::cost::point_s;
use super::{memory, record, ConfigError, ExchangeConfig, Mode, Point, Rig};
use crate::bench::experiment::{BenchError, PlanAsk, ReportPlan, RunCtx};
use crate::bench::schema::C2cPair;
use crate::bench::BenchResults;
use crate::experiments::c2c;
use crate::stats::distinct;
use handoff_probe::topology::{Placement, Topology};

const MIB: usize = 1 << 20;
/// Above this many CPUs, measure representatives per placement class, not every CPU.
pub const MAX_ALL_CPUS: usize = 16;
/// Consumers measured per placement class on a large machine (the lowest id, the highest,
/// one between: both ends of a class that spans sockets or CCDs).
pub const CONSUMERS_PER_CLASS: usize = 3;
/// The largest block the sweep measures, whatever the cache (a 504 MiB L3 sweeps to 1008 MiB).
pub const MAX_BLOCK: usize = 1 << 30;
/// Bytes one point may need per byte of block at most (`file`: the block, its read-back
/// copy and the file in the page cache; see `memory::need`).
const BYTES_PER_BLOCK_BYTE: u64 = 3;

/// The exchange's points for one step of the ladder.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExchangePlan {
    /// The configuration (the flags applied).
    pub cfg: ExchangeConfig,
    /// The exchange points, in the order they run.
    pub points: Vec<Point>,
    /// The c2c pairs measured first.
    pub c2c_pairs: Vec<(usize, usize)>,
    /// How repetitions were chosen, one sentence.
    pub rep_scaling: String,
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
    let powers = std::iter::successors(Some(4096usize), |s| Some(s << (2 * step_pow4)));
    powers.take_while(|&s| s < max).chain([max]).collect()
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

/// The exchange's points for `ask`'s step on `ask`'s machine, the user's flags applied.
pub fn plan(ask: &PlanAsk<'_>) -> Result<ExchangePlan, ConfigError> {
    let (flags, step, topology, allowed) = (ask.flags, ask.step, ask.topology, ask.allowed);
    let llc_bytes = topology.last_level_cache_bytes();
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
    let memory = match ask.for_run {
        true => memory::Room::detect().memory,
        false => ask.memory,
    };
    let max_size = sweep_max(llc_bytes, memory);
    let sizes = if user_sizes {
        cfg.sizes.clone()
    } else if ask.quick {
        sweep_sizes(16 * MIB, 2)
    } else {
        sweep_sizes(max_size, step.sweep_step)
    };
    if !user_sizes && !ask.quick && max_size < 2 * llc_bytes.unwrap_or(0) as usize {
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
    let classes = topology.representatives(producer, allowed);
    let cross = classes
        .iter()
        .find(|(p, _)| !matches!(p, Placement::SameCore | Placement::SmtSibling))
        .or_else(|| classes.iter().find(|(p, _)| *p != Placement::SameCore))
        .map(|&(_, c)| c);
    if cross.is_none() {
        notes.push("only one CPU is available: cross-core placements were skipped".into());
    }
    let sweep_consumers: Vec<usize> = std::iter::once(producer)
        .chain(cross)
        .filter(|c| cfg.consumer_cores.contains(c) || flags.consumer_cores.is_none())
        .collect();

    let mut points: Vec<Point> = Vec::new();
    // Modes innermost: the modes a figure compares are measured next to each other in time,
    // so a change on the host (vCPUs moved) between them cannot pass for a mode difference.
    let mut add = |size: usize, consumer_core: usize, flush: bool| {
        let reps = flags
            .reps
            .unwrap_or_else(|| scaled_reps(cfg.reps, min_reps, size));
        for &mode in &cfg.modes {
            let p = Point {
                mode,
                size,
                producer_core: producer,
                consumer_core,
                flush,
                reps,
                warmup: (reps / 10).max(2),
                runs: cfg.runs,
            };
            super::push_point(&mut points, p);
        }
    };
    // 2. per CPU at 1 MiB (Figs. 1-4)
    for &c in &cfg.consumer_cores {
        add(per_cpu_size, c, false);
    }
    // 3. size sweep (Figs. 5-6)
    for &s in &sizes {
        for &c in &sweep_consumers {
            add(s, c, false);
        }
    }
    // 4. cached vs flushed (Fig. 7)
    for &c in &sweep_consumers {
        add(per_cpu_size, c, true);
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
    Ok(ExchangePlan {
        cfg,
        points,
        c2c_pairs,
        rep_scaling,
        notes,
    })
}

/// The `config` of `results.json`: the exchange settings with every size of the plan and the
/// real warm-up rule, and the whole plan, one entry per point.
pub fn plan_config(plan: &ExchangePlan) -> serde_json::Value {
    let mut exchange = serde_json::to_value(&plan.cfg).unwrap_or_default();
    let sizes = distinct(plan.points.iter().map(|p| p.size));
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
    serde_json::json!({
        "exchange": exchange,
        "points": plan.points.len(),
        "c2c_pairs": plan.c2c_pairs.len(),
        "plan": plan.points,
    })
}

/// The exchange's report plan ([`crate::bench::experiment::PlanFn`]): its points for `ask`,
/// their estimate (the c2c pairs, then the points), what `--plan` says of them, and their
/// run; for a run now, refused when this machine's memory cannot hold them (the flags and
/// the kernel are checked by the configuration's `validate`).
pub fn report_plan(ask: &PlanAsk<'_>) -> Result<ReportPlan, BenchError> {
    let usage = |e: &dyn std::fmt::Display| BenchError::usage(record::NAME, e.to_string());
    let plan = self::plan(ask).map_err(|e| usage(&e))?;
    if ask.for_run {
        memory::check(&plan.points, &memory::Room::detect()).map_err(|e| usage(&e))?;
    }
    let stop_after = ask.stop_after_records;
    Ok(ReportPlan {
        pieces: vec![
            ("c2c", plan.c2c_pairs.len() as f64 * c2c::PAIR_S),
            ("exchange", plan.points.iter().map(point_s).sum()),
        ],
        lines: describe(&plan, ask.topology, ask.allowed),
        notes: plan.notes.clone(),
        reps: Some((ask.flags.reps.is_some(), plan.rep_scaling.clone())),
        run: Box::new(move |ctx| plan.run(ctx, &plan_config(&plan), stop_after)),
    })
}

impl ExchangePlan {
    /// `handoff bench exchange`: the points of `cfg` (validated), no c2c matrix; refused
    /// before anything runs when they cannot fit in the memory (or /dev/shm) free now.
    pub fn of_config(cfg: ExchangeConfig) -> Result<ExchangePlan, memory::MemoryError> {
        let points = super::plan(&cfg);
        memory::check(&points, &memory::Room::detect())?;
        Ok(ExchangePlan {
            cfg,
            points,
            ..Default::default()
        })
    }

    /// Measures the c2c pairs and the points (the results' `config`: `config`), workers
    /// started as `ctx` says; `stop_after` records end it early.
    pub fn run(
        &self,
        ctx: &mut RunCtx<'_>,
        config: &impl serde::Serialize,
        stop_after: Option<usize>,
    ) -> Result<BenchResults, BenchError> {
        let failed = |e: String| BenchError::failed(record::NAME, e);
        let rig = Rig::detect().map_err(|e| failed(format!("reading the CPU topology: {e}")))?;
        let env = rig
            .env(&self.cfg, ctx.cancel, (ctx.exe.clone(), ctx.args.clone()))
            .map_err(|e| BenchError::usage(record::NAME, e.to_string()))?;
        let matrix = (&self.c2c_pairs[..], &[][..]);
        super::run(ctx, config, &self.points, &env, matrix, stop_after)
    }
}

/// The exchange's registry `run`: its report plan on this machine, `--quick`'s when
/// `ctx.quick`, else the seeds' full protocol, no flags.
pub fn run(ctx: &mut RunCtx<'_>) -> Result<BenchResults, BenchError> {
    use crate::report::plan::budget::{FULL, QUICK};
    let topology = Topology::detect()
        .map_err(|e| BenchError::failed(record::NAME, format!("reading the CPU topology: {e}")))?;
    let ask = PlanAsk {
        quick: ctx.quick,
        step: if ctx.quick { &QUICK } else { &FULL },
        topology: &topology,
        allowed: ctx.allowed_cpus,
        memory: memory::Room::detect().memory,
        flags: &Default::default(),
        stop_after_records: None,
        for_run: true,
    };
    (report_plan(&ask)?.run)(ctx)
}

/// What `handoff report --plan` says of `plan`: the producer, the consumers by placement
/// class, the points and c2c pairs, the repetitions.
fn describe(plan: &ExchangePlan, topology: &Topology, allowed: &[usize]) -> Vec<String> {
    let producer = plan.points.first().map_or(allowed[0], |p| p.producer_core);
    let mut out = vec![
        format!("producer: CPU {producer}"),
        "consumers by placement class:".to_string(),
    ];
    let consumers = distinct(plan.points.iter().map(|p| p.consumer_core));
    for (class, cpus) in topology.representatives_per_class(producer, allowed, usize::MAX) {
        let picked: Vec<usize> = cpus
            .iter()
            .copied()
            .filter(|c| consumers.contains(c))
            .collect();
        let list = match picked.is_empty() {
            true => "-".to_string(),
            false => handoff_probe::topology::format_cpu_list(&picked),
        };
        let class = class.as_str();
        out.push(format!(
            "  {class:<13} {} of {} CPUs: {list}",
            picked.len(),
            cpus.len()
        ));
    }
    let sizes = distinct(plan.points.iter().map(|p| p.size));
    out.push(format!(
        "points: {} exchange points ({} sizes, {} consumers), {} c2c pairs",
        plan.points.len(),
        sizes.len(),
        consumers.len(),
        plan.c2c_pairs.len()
    ));
    out.push(format!("repetitions: {}", plan.rep_scaling));
    out
}

/// Sample points of the exchange (1 MiB: cross-core spin and futex hand-offs, one of them
/// flushed, and `file` on one core, 30 repetitions; 32 MiB on one core, 4; one run each),
/// whose measured time over their modelled time scales a budget's estimate: the machine's
/// speed now, load included (0.5x-10x), from the fastest of three passes. About
/// 1.5 s; 1 (the model) when a point fails or the machine has one CPU
/// ([`crate::bench::experiment::SpeedFn`]).
pub fn speed(ctx: &mut RunCtx<'_>) -> f64 {
    let (Some(&a), Some(&b)) = (ctx.allowed_cpus.first(), ctx.allowed_cpus.get(1)) else {
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
    let Ok(rig) = Rig::detect() else { return 1.0 };
    let cfg = ExchangeConfig::default();
    let Ok(env) = rig.env(&cfg, ctx.cancel, (ctx.exe.clone(), ctx.args.clone())) else {
        return 1.0;
    };
    // The floor beside each record is not wanted here: a stand-in keeps it from being measured.
    let known = [C2cPair {
        cpu_a: a,
        cpu_b: b,
        placement: String::new(),
        one_way_ns: 1.0,
    }];
    let modelled: f64 = points.iter().map(point_s).sum();
    // The fastest of SPEED_SAMPLES passes: the first pass pays for cold starts (the first
    // workers exec'd, the first segments made) and any pass can meet a burst of other work
    // that the whole run will not; taken once, the factor read 0.54x-1.02x on the same quiet
    // machine, whose reports then took 0.51x-0.94x their estimates (#39).
    let mut fastest = f64::INFINITY;
    for _ in 0..SPEED_SAMPLES {
        let t = std::time::Instant::now();
        let ok = super::run(ctx, &(), &points, &env, (&[], &known), None).is_ok_and(|r| !r.partial);
        if !ok {
            return 1.0;
        }
        fastest = fastest.min(t.elapsed().as_secs_f64());
    }
    if modelled > 0.0 {
        (fastest / modelled).clamp(0.5, 10.0)
    } else {
        1.0
    }
}

/// Passes of [`speed`]'s sample points; the fastest one counts.
const SPEED_SAMPLES: usize = 3;

#[cfg(test)]
mod tests;
