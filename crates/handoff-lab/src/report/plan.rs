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

use super::ReportError;
use crate::bench::schema::ReportSettings;
use crate::experiments::c2c;
use crate::experiments::exchange::{ConfigError, ExchangeConfig, Mode, Overrides, Point};
use handoff_probe::topology::{Placement, Topology};
use std::path::{Path, PathBuf};
use thiserror::Error;

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

/// The cost model of [`Plan::estimate`]: what one worker start, one repetition and one c2c
/// pair take. Deliberately on the slow side of a current server (a plan that finishes
/// early is fine; one that runs twice as long as announced is not).
pub mod cost {
    /// Starting the worker processes of one run (spawn, pin, map, join), seconds.
    pub const RUN_START_S: f64 = 0.05;
    /// Fixed cost of one repetition (handoff, wake-up, timing), seconds.
    pub const REP_FIXED_S: f64 = 20e-6;
    /// Bytes per second one side writes or reads a block at (conservative, cross-socket).
    pub const BYTES_PER_S: f64 = 4e9;
    /// One c2c pair at the default options (110 samples of 1000 round trips of <= 1 µs,
    /// plus thread starts), seconds.
    pub const C2C_PAIR_S: f64 = 0.2;
}

/// How long a plan is expected to take, by part.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The c2c pairs.
    pub c2c_s: f64,
    /// The exchange points.
    pub exchange_s: f64,
}

impl Estimate {
    /// Both parts.
    pub fn total_s(&self) -> f64 {
        self.c2c_s + self.exchange_s
    }
}

impl Plan {
    /// The expected duration under the [`cost`] model: per point, `runs` runs of a worker
    /// start plus `warmup + reps` repetitions of a write and a read of the block (and a
    /// flush of it when the point flushes); per c2c pair a constant. The other
    /// experiments `report` runs are not included.
    pub fn estimate(&self) -> Estimate {
        let exchange_s = self
            .points
            .iter()
            .map(|p| {
                let passes = if p.flush { 3.0 } else { 2.0 };
                let rep = cost::REP_FIXED_S + passes * p.size as f64 / cost::BYTES_PER_S;
                p.runs as f64 * (cost::RUN_START_S + (p.warmup + p.reps) as f64 * rep)
            })
            .sum();
        Estimate {
            c2c_s: self.c2c_pairs.len() as f64 * cost::C2C_PAIR_S,
            exchange_s,
        }
    }

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

/// The report folder cannot be used.
#[derive(Debug, Error)]
pub enum OutDirError {
    /// It could not be created.
    #[error("cannot create the output folder {}: {source}", path.display())]
    Create {
        /// The folder.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// An earlier report in it could not be cleared.
    #[error("{0}; choose another --out folder")]
    Clear(#[source] ReportError),
}

/// Creates the report folder; when it holds an earlier report, removes that report's generated
/// files (so no stale plot survives beside the new results.json) and returns them.
pub fn prepare_out_dir(out: &Path) -> Result<Vec<PathBuf>, OutDirError> {
    std::fs::create_dir_all(out).map_err(|source| OutDirError::Create {
        path: out.to_path_buf(),
        source,
    })?;
    super::clear_previous_report(out).map_err(OutDirError::Clear)
}

/// `YYYY-MM-DD` of a Unix time (UTC), without a date crate.
pub fn civil_date(unix_secs: u64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let z = (unix_secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// `YYYY-MM-DDTHH:MM:SSZ` (RFC 3339, UTC) of a Unix time.
pub fn rfc3339(unix_secs: u64) -> String {
    let t = unix_secs % 86_400;
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        civil_date(unix_secs),
        t / 3600,
        t / 60 % 60,
        t % 60
    )
}

/// The default output folder `handoff-report-HOST-DATE`, with `-2`, `-3`... appended when an
/// earlier report of the same day is there (it is never overwritten).
pub fn default_out_dir(base: &std::path::Path, host: &str, date: &str) -> PathBuf {
    let name = format!("handoff-report-{host}-{date}");
    let mut dir = base.join(&name);
    let mut n = 2;
    while dir.exists() {
        dir = base.join(format!("{name}-{n}"));
        n += 1;
    }
    dir
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

/// `1 h 02 min`, `3 min 20 s`, `12 s`.
pub fn fmt_duration(secs: f64) -> String {
    let s = secs.round() as u64;
    if s >= 3600 {
        format!("{} h {:02} min", s / 3600, s / 60 % 60)
    } else if s >= 60 {
        format!("{} min {:02} s", s / 60, s % 60)
    } else {
        format!("{s} s")
    }
}

pub fn now_unix() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    use handoff_probe::topology::synth::SynthMachine;
    use handoff_probe::topology::Placement;

    /// The full plan on each large machine: consumers are at most CONSUMERS_PER_CLASS per
    /// class and cover every class, and the estimate stays under 15 minutes.
    #[test]
    fn plans_for_large_machines_are_bounded() {
        let machines = [
            ("2s192", SynthMachine::server_2s_192c(), 5),
            ("4s80", SynthMachine::skylake_4s_80c(), 4),
            ("1s128", SynthMachine::single_128c_8ccd(), 4),
        ];
        for (name, m, n_classes) in machines {
            let dir =
                std::env::temp_dir().join(format!("handoff-plan-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            m.write(&dir).unwrap();
            let t = Topology::from_sysfs(&dir).unwrap();
            std::fs::remove_dir_all(&dir).unwrap();
            let allowed = t.cpu_ids();
            let llc = t.last_level_cache_bytes();
            let (p, cfg) = plan(false, &Overrides::default(), &t, &allowed, llc).unwrap();
            let by_class = t.representatives_per_class(0, &allowed, usize::MAX);
            assert_eq!(by_class.len(), n_classes, "{name}");
            for (class, members) in &by_class {
                let picked = cfg
                    .consumer_cores
                    .iter()
                    .filter(|c| members.contains(c))
                    .count();
                assert!(
                    (1..=CONSUMERS_PER_CLASS).contains(&picked),
                    "{name}: {picked} consumers in {class}"
                );
            }
            assert!(cfg.consumer_cores.len() <= n_classes * CONSUMERS_PER_CLASS);
            // One c2c pair per class other than the producer's own CPU.
            assert_eq!(p.c2c_pairs.len(), n_classes - 1, "{name}");
            let e = p.estimate();
            assert!(
                e.total_s() < 15.0 * 60.0,
                "{name}: {}",
                fmt_duration(e.total_s())
            );
            assert!(e.exchange_s > 0.0 && e.c2c_s > 0.0);
            let text = p.describe(&t, &allowed);
            assert!(text.contains("estimated duration"), "{text}");
            assert!(text.contains(Placement::SmtSibling.as_str()), "{text}");
        }
    }

    /// Every CPU of a small machine is a consumer (the per-class pick starts above 16), and
    /// the estimate grows with the points: a machine with twice the CPUs plans longer.
    #[test]
    fn small_machines_measure_every_cpu() {
        let m = SynthMachine {
            packages: 1,
            nodes_per_package: 1,
            cores_per_package: 8,
            smt: 2,
            cores_per_l2: 1,
            cores_per_l3: 8,
            l1d_kib: 32,
            l2_kib: 512,
            l3_kib: 16384,
        };
        let dir = std::env::temp_dir().join(format!("handoff-plan-small-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        m.write(&dir).unwrap();
        let t = Topology::from_sysfs(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let all = t.cpu_ids();
        let (p16, cfg) = plan(false, &Overrides::default(), &t, &all, None).unwrap();
        assert_eq!(cfg.consumer_cores, all);
        let (p8, _) = plan(false, &Overrides::default(), &t, &all[..8], None).unwrap();
        assert!(p16.estimate().exchange_s > p8.estimate().exchange_s);
        assert_eq!(fmt_duration(3725.0), "1 h 02 min");
        assert_eq!(fmt_duration(200.0), "3 min 20 s");
    }

    #[test]
    fn reps_scale_down_with_size() {
        assert_eq!(scaled_reps(100, 10, 4096), 100);
        assert_eq!(scaled_reps(100, 10, MIB), 100);
        assert_eq!(scaled_reps(100, 10, 4 * MIB), 25);
        assert_eq!(scaled_reps(100, 10, 128 * MIB), 10);
    }

    #[test]
    fn sweep_is_powers_of_four_then_max() {
        assert_eq!(
            sweep_sizes(128 * MIB, 1),
            vec![
                4096,
                16384,
                65536,
                262144,
                MIB,
                4 * MIB,
                16 * MIB,
                64 * MIB,
                128 * MIB
            ]
        );
        assert_eq!(sweep_sizes(16 * MIB, 2), vec![4096, 65536, MIB, 16 * MIB]);
    }

    #[test]
    fn rfc3339_by_hand() {
        // 1795000000 s = 20775 days (2026-11-18) + 40000 s = 11 h 6 min 40 s.
        assert_eq!(rfc3339(1_795_000_000), "2026-11-18T11:06:40Z");
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
    }

    #[test]
    fn default_folder_is_never_an_earlier_one() {
        let base = std::env::temp_dir().join(format!("handoff-outdir-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        let first = default_out_dir(&base, "h", "2026-01-02");
        assert_eq!(first, base.join("handoff-report-h-2026-01-02"));
        std::fs::create_dir(&first).unwrap();
        let second = default_out_dir(&base, "h", "2026-01-02");
        assert_eq!(second, base.join("handoff-report-h-2026-01-02-2"));
        std::fs::create_dir(&second).unwrap();
        assert_eq!(
            default_out_dir(&base, "h", "2026-01-02"),
            base.join("handoff-report-h-2026-01-02-3")
        );
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn civil_dates() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(1_795_000_000), "2026-11-18");
        assert_eq!(civil_date(951_782_400), "2000-02-29");
    }
}
