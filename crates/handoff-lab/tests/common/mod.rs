//! Hand-made exchange records and machines shared by the report tests: every expected answer
//! is set by the fixture (times chosen equal, far apart or within noise), not computed by the
//! code under test; and the recorded fixture file the report, output and compare tests read.
#![allow(dead_code)] // each test file uses its own part

use std::path::{Path, PathBuf};

use handoff_lab::bench::busy::MachineLoad;
use handoff_lab::experiments::exchange::mode::ModeInfo;
use handoff_lab::experiments::exchange::results::{ExchangeRecord, ExchangeResults, RunDetail};
use handoff_lab::machine::{placement, Cache, Machine, Tool, CACHE_UNIFIED};
use handoff_lab::stats::Summary;

/// The recorded results file (synthetic but realistic, a 2-CPU Zen 4 KVM guest; written by
/// report.rs's `synth::results()`).
pub fn fixture_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/exchange_small.json")
}

pub fn fixture() -> ExchangeResults {
    ExchangeResults::load(&fixture_path()).expect("fixture loads")
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

/// A cached, verified record from CPU 0 to CPU 0 (`same_core`) or 1 whose consumer used
/// `cpu` % and whose runs read in `read_runs` µs each (latency 0.1 µs); its wait is the
/// mode's own for that placement.
pub fn rec(mode: &str, size: u64, same_core: bool, cpu: f64, read_runs: &[f64]) -> ExchangeRecord {
    let mean = read_runs.iter().sum::<f64>() / read_runs.len() as f64;
    let info = ModeInfo::by_name(mode).expect("a mode of the registry");
    ExchangeRecord {
        mode: mode.into(),
        size_bytes: size,
        producer_core: 0,
        consumer_core: usize::from(!same_core),
        placement: if same_core {
            placement::SAME_CORE
        } else {
            placement::SHARED_L3
        }
        .into(),
        flush_cache: false,
        reps: 100,
        runs: read_runs.len() as u64,
        wait: if same_core {
            info.wait_same_cpu
        } else {
            info.wait
        }
        .as_str()
        .into(),
        verified: true,
        checks: None,
        kernel: None,
        clock_anomalies: 0,
        c2c_one_way_ns: None,
        consumer_cpu_pct: cpu,
        runs_detail: read_runs
            .iter()
            .map(|&r| RunDetail {
                read_us: r,
                latency_us: 0.1,
                write_us: r,
                ..RunDetail::default()
            })
            .collect(),
        read_us: flat(mean),
        latency_us: flat(0.1),
        write_us: flat(mean),
        flush_us: None,
        pipe_size_bytes: None,
        filesystem: None,
    }
}

/// Results of `records` on `machine`.
pub fn results(machine: Machine, records: Vec<ExchangeRecord>) -> ExchangeResults {
    let mut r = ExchangeResults::new(machine, Tool::default(), serde_json::json!({}));
    r.records = records;
    r
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
    }
}
