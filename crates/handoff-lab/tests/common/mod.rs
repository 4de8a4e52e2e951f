//! Hand-made exchange records and machines shared by the report tests: every expected answer
//! is set by the fixture (times chosen equal, far apart or within noise), not computed by the
//! code under test; and the recorded fixture file the report, output and compare tests read.
#![allow(dead_code)] // each test file uses its own part

use std::path::{Path, PathBuf};

use handoff_lab::bench::busy::MachineLoad;
use handoff_lab::bench::{BenchRecord, BenchResults, MetricRecord};
use handoff_lab::experiments::exchange::mode::ModeInfo;
use handoff_lab::experiments::exchange::record::{PointKey, LATENCY, READ, WRITE};
use handoff_lab::machine::{placement, Cache, Machine, Tool, CACHE_UNIFIED};
use handoff_lab::stats::Summary;

/// The recorded results file (synthetic but realistic, a 2-CPU Zen 4 KVM guest; written by
/// report.rs's `synth::results()`).
pub fn fixture_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/exchange_small.json")
}

pub fn fixture() -> BenchResults {
    handoff_lab::experiments::exchange::record::load(&fixture_path()).expect("fixture loads")
}

pub const KIB: u64 = 1024;
pub const MIB: u64 = 1024 * KIB;

/// A 2-CPU machine: a 32 KiB L1 and an L2 of `l2` bytes, each shared by `shared_by`.
pub fn machine(l2: u64, shared_by: &[usize]) -> Machine {
    let cache = |level, size_bytes| Cache {
        level,
        kind: CACHE_UNIFIED.into(),
        size_bytes,
        shared_by: shared_by.to_vec(),
    };
    Machine {
        cpu_model: "test CPU".into(),
        logical_cpus: 2,
        allowed_cpus: vec![0, 1],
        caches: vec![cache(1, 32 * KIB), cache(2, l2)],
        ..Machine::default()
    }
}

/// A summary whose every statistic is `m`, without intervals.
pub fn flat(m: f64) -> Summary {
    Summary {
        mean: m,
        ci95_low: None,
        ci95_high: None,
        median: m,
        min: m,
        max: m,
        p99: m,
        median_ci95_low: None,
        median_ci95_high: None,
    }
}

/// A time metric whose summary is `flat(mean)` and whose runs' means are `runs`.
pub fn timed(mean: f64, runs: Vec<f64>) -> MetricRecord {
    MetricRecord {
        unit: "µs".into(),
        higher_is_better: false,
        summary: flat(mean),
        run_means: runs,
        run_iqrs: None,
        run_medians: None,
        zero_ok: true,
    }
}

/// A cached, verified record from CPU 0 to CPU 0 (`same_core`) or 1 whose consumer used
/// `cpu` % and whose runs read in `read_runs` µs each (latency 0.1 µs); its wait is the
/// mode's own for that placement.
pub fn rec(mode: &str, size: u64, same_core: bool, cpu: f64, read_runs: &[f64]) -> BenchRecord {
    let mean = read_runs.iter().sum::<f64>() / read_runs.len() as f64;
    let info = ModeInfo::by_name(mode).expect("a mode of the registry");
    let key = PointKey {
        mode,
        size_bytes: size,
        producer_core: 0,
        consumer_core: usize::from(!same_core),
        placement: if same_core {
            placement::SAME_CORE
        } else {
            placement::SHARED_L3
        },
        flush_cache: false,
    };
    let mut r = key
        .record(read_runs.len() as u64, 100, true)
        .metric(READ, timed(mean, read_runs.to_vec()))
        .metric(LATENCY, timed(0.1, vec![0.1; read_runs.len()]))
        .metric(WRITE, timed(mean, read_runs.to_vec()));
    let wait = info.mode.wait_kind(same_core);
    r.info.insert("wait".into(), wait.as_str().into());
    r.info.insert("consumer_cpu_pct".into(), cpu.into());
    r
}

/// Results of `records` on `machine`.
pub fn results(machine: Machine, records: Vec<BenchRecord>) -> BenchResults {
    let mut r = BenchResults::new("exchange", machine, Tool::default(), serde_json::json!({}));
    r.records = records;
    r
}

/// `load` as the evidence of every record of `res` (what a run records).
pub fn set_load(res: &mut BenchResults, load: &MachineLoad) {
    for r in &mut res.records {
        r.load = Some(load.clone());
    }
}

/// Tight runs around `c` (±1%).
pub fn tight(c: f64) -> Vec<f64> {
    vec![c * 0.99, c, c * 1.01, c * 0.995, c * 1.005]
}

/// Noisy runs around `c` (±30%).
pub fn noisy(c: f64) -> Vec<f64> {
    vec![c * 0.7, c * 1.3, c, c * 0.8, c * 1.2]
}

/// A quiet run of 20 s on 2 CPUs: others used 0.01 CPU, no steal, load 0.3 before.
pub fn quiet() -> MachineLoad {
    MachineLoad {
        elapsed_s: 20.0,
        cpus: 2,
        load1_before: Some(0.3),
        load1_after: Some(1.8),
        others_cpus: Some(0.01),
        own_cpus: Some(1.8),
        steal_fraction: Some(0.0),
        voluntary_switches: Some(10),
        involuntary_switches: Some(3),
        migrations: Some(0),
        mpi_ranks: None,
        lab_quiet_before_s: None,
    }
}

/// A registered experiment (`private-vars`): a shared array costs 4× thread-local storage at
/// 2 threads, against the seed's claim of at least 2×.
pub fn private_vars() -> BenchResults {
    let mut r = BenchResults::new(
        "private-vars",
        Machine {
            allowed_cpus: vec![0, 1],
            ..Machine::default()
        },
        Tool::default(),
        serde_json::json!({}),
    );
    for (series, ns) in [("tls", 0.25), ("shared-array", 1.0), ("padded-array", 0.26)] {
        for threads in [1.0, 2.0] {
            let v = if threads == 1.0 { 0.25 } else { ns };
            let runs: Vec<Vec<f64>> = (0..3).map(|k| vec![v * (1.0 + 0.01 * k as f64)]).collect();
            r.records.push(
                BenchRecord::new(series, threads, 3, 1, true)
                    .param("method", series)
                    .param("threads", threads as u64)
                    .metric(
                        "access_ns",
                        MetricRecord::from_runs("ns", false, &runs).unwrap(),
                    ),
            );
        }
    }
    for rec in &mut r.records {
        rec.load = Some(quiet());
    }
    r
}
