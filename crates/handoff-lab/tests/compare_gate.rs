//! The regression gate of `compare`: several invocations per side, the machine control (the
//! c2c floor beside each record), the one-invocation rule for wake-up latencies, and failing
//! on the CI's lower bound. Expected intervals are computed by hand (Welch's t on the log
//! scale, in Python with a t table), never taken from the code under test.

use std::path::Path;

use handoff_lab::compare::{
    compare, compare_many, compare_many_with, Comparison, Matched, Verdict,
    DEFAULT_NOISE_THRESHOLD, EXIT_FAIL_ABOVE, EXIT_OK,
};
use handoff_lab::schema::{ExchangeRecord, ExchangeResults, Summary};

const MIB: u64 = 1 << 20;

fn fixture() -> ExchangeResults {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/exchange_small.json");
    ExchangeResults::load(&path).expect("fixture loads")
}

fn scale_summary(s: &mut Summary, k: f64) {
    s.mean *= k;
    s.median *= k;
    s.min *= k;
    s.max *= k;
    s.p99 *= k;
    s.ci95_low = s.ci95_low.map(|v| v * k);
    s.ci95_high = s.ci95_high.map(|v| v * k);
}

/// Multiplies a record's read time and latency by `k` (summaries and per-run means).
fn scale_times(r: &mut ExchangeRecord, k: f64) {
    scale_summary(&mut r.read_us, k);
    scale_summary(&mut r.latency_us, k);
    for d in &mut r.runs_detail {
        d.read_us *= k;
        d.latency_us *= k;
    }
}

/// Multiplies every c2c floor of a file (beside each record and in the matrix) by `k`.
fn scale_control(f: &mut ExchangeResults, k: f64) {
    for r in &mut f.records {
        r.c2c_one_way_ns = r.c2c_one_way_ns.map(|v| v * k);
    }
    for p in &mut f.c2c {
        p.one_way_ns *= k;
    }
}

fn scaled_file(k: f64) -> ExchangeResults {
    let mut f = fixture();
    for r in &mut f.records {
        scale_times(r, k);
    }
    f
}

fn all_metrics(c: &Comparison) -> impl Iterator<Item = (&Matched, Verdict)> {
    c.matched
        .iter()
        .flat_map(|m| [(m, m.read.verdict), (m, m.latency.verdict)])
}

/// Invocation jitter of ±2% (1, 1.02, 0.98) on every record, on both sides; B is A × 1.3.
/// By hand: ln k has variance 4.0013e-4, so se² = 2 · 4.0013e-4 / 3, se = 0.016333, Welch
/// df = 4, t = 2.776: CI = 1.3 · exp(±0.04534) = [1.2424, 1.3603].
fn three_by_three(control_b: f64) -> (Vec<ExchangeResults>, Vec<ExchangeResults>) {
    let ks = [1.0, 1.02, 0.98];
    let a: Vec<_> = ks.iter().map(|&k| scaled_file(k)).collect();
    let b: Vec<_> = ks
        .iter()
        .map(|&k| {
            let mut f = scaled_file(1.3 * k);
            scale_control(&mut f, control_b);
            f
        })
        .collect();
    (a, b)
}

#[test]
fn a_real_slowdown_with_steady_controls_fails_over_three_invocations() {
    let (a, b) = three_by_three(1.0);
    let c = compare_many(&a, &b, Some(1.10), DEFAULT_NOISE_THRESHOLD).unwrap();
    assert!(c.matched.iter().all(Matched::over_invocations));
    let m = c
        .matched
        .iter()
        .find(|m| m.mode == "threads-spin" && m.size_bytes == MIB && m.cores_a == (0, 1))
        .unwrap();
    let r = m.read.ratio.unwrap();
    assert!((r.ratio - 1.3).abs() < 1e-9, "{r:?}");
    assert!((r.ci95_low.unwrap() - 1.2424).abs() < 1e-3, "{r:?}");
    assert!((r.ci95_high.unwrap() - 1.3603).abs() < 1e-3, "{r:?}");
    assert_eq!(m.control_ns_a, Some(62.0));
    assert_eq!(m.control_ns_b, Some(62.0));
    // Every read time and every latency of a record without a wait or with a busy spin is
    // slower. A latency whose consumer sleeps or yields needs 4 files per side: inconclusive.
    for m in &c.matched {
        assert_eq!(m.read.verdict, Verdict::Slower, "{m:?}");
        let wakes = !matches!(m_wait(&a[0], m).as_str(), "none" | "spin");
        let want = if wakes {
            Verdict::Inconclusive
        } else {
            Verdict::Slower
        };
        assert_eq!(m.latency.verdict, want, "{m:?}");
    }
    assert!(c.count(Verdict::Inconclusive) > 0 && c.count(Verdict::Slower) > 128);
    assert_eq!(c.exit_code(), EXIT_FAIL_ABOVE);
    let table = c.render_table();
    assert!(
        table.contains("A: 3 file(s), B: 3 file(s); CIs over invocations"),
        "{table}"
    );
    assert!(table.contains("FAIL: B is slower than 1.1"), "{table}");
}

/// The `wait` of the record of `f` that `m` matched.
fn m_wait(f: &ExchangeResults, m: &Matched) -> String {
    f.records
        .iter()
        .find(|r| {
            r.mode == m.mode
                && r.size_bytes == m.size_bytes
                && r.flush_cache == m.flush_cache
                && (r.producer_core, r.consumer_core) == m.cores_a
        })
        .unwrap()
        .wait
        .clone()
}

#[test]
fn a_whole_file_shift_with_the_control_is_inconclusive_not_fail() {
    // Same data as the failing case above, but the machine's c2c floor moved 1.3× with
    // the records (62 → 80.6 ns): the machine changed, not the code.
    let (a, b) = three_by_three(1.3);
    let c = compare_many(&a, &b, Some(1.10), DEFAULT_NOISE_THRESHOLD).unwrap();
    for (m, v) in all_metrics(&c) {
        assert_eq!(v, Verdict::Inconclusive, "{m:?}");
        assert_eq!(
            m.read.reason.as_deref(),
            Some("the machine changed: c2c floor 62 → 81 ns"),
            "{m:?}"
        );
    }
    // Same-core records (no floor of their own) take their file's median floor.
    assert!(c
        .matched
        .iter()
        .any(|m| m.placement == "same-core" && m.control_ns_b.is_some()));
    assert_eq!(c.count(Verdict::Slower), 0);
    assert_eq!(c.exit_code(), EXIT_OK);
    let table = c.render_table();
    assert!(table.contains("inconclusive (256 metric(s)):\n"), "{table}");
    assert!(table.contains("256 inconclusive"), "{table}");
    assert!(
        table.contains("(256 inconclusive metric(s) were not gated)"),
        "{table}"
    );
    let json: serde_json::Value = serde_json::from_str(&c.to_json_pretty()).unwrap();
    assert_eq!(json["counts"]["inconclusive"], 256);
    assert_eq!(json["matched"][0]["read"]["verdict"], "inconclusive");
    assert_eq!(json["exceeded"], false);
    // A floor within the tolerance (1.2×, 62 → 74.4 ns) is the machine's noise: still FAIL.
    let (a, b) = three_by_three(1.2);
    let c = compare_many(&a, &b, Some(1.10), DEFAULT_NOISE_THRESHOLD).unwrap();
    assert_eq!(c.exit_code(), EXIT_FAIL_ABOVE);
}

/// Sets the runs of one metric of the first record matching `pick` (and its summary mean).
fn set_runs(
    res: &mut ExchangeResults,
    pick: impl Fn(&ExchangeRecord) -> bool,
    latency: bool,
    runs: &[f64],
) {
    let r = res.records.iter_mut().find(|r| pick(r)).unwrap();
    r.runs_detail.truncate(runs.len());
    for (d, &m) in r.runs_detail.iter_mut().zip(runs) {
        if latency {
            d.latency_us = m;
        } else {
            d.read_us = m;
        }
    }
    let mean = runs.iter().sum::<f64>() / runs.len() as f64;
    if latency {
        r.latency_us.mean = mean;
    } else {
        r.read_us.mean = mean;
    }
}

fn spin_1mib(r: &ExchangeRecord) -> bool {
    r.mode == "threads-spin" && r.size_bytes == MIB && r.consumer_core == 1 && !r.flush_cache
}

#[test]
fn one_invocation_with_a_ci_straddling_the_threshold_does_not_fail() {
    // A: 10, 10.2, 9.8, 10.1, 9.9; B: 10.5, 13.5, 11, 13, 12 (ratio 1.2). By hand: Welch
    // df = 4.18 → 4, t = 2.776, CI [1.0449, 1.3659]: slower (the CI excludes 1), but the
    // CI straddles 1.10, so the gate does not fail at 1.10; it does at 1.04.
    let mut a = fixture();
    set_runs(&mut a, spin_1mib, false, &[10.0, 10.2, 9.8, 10.1, 9.9]);
    let mut b = a.clone();
    set_runs(&mut b, spin_1mib, false, &[10.5, 13.5, 11.0, 13.0, 12.0]);
    // Drift 1: trust the one invocation's runs (a quiet machine), to test the CI rule alone.
    let one = |a: &ExchangeResults, b: &ExchangeResults, f: f64| {
        compare_many_with(
            std::slice::from_ref(a),
            std::slice::from_ref(b),
            Some(f),
            DEFAULT_NOISE_THRESHOLD,
            1.0,
        )
        .unwrap()
    };
    let c = one(&a, &b, 1.10);
    let m = c.matched.iter().find(|m| spin_1mib_matched(m)).unwrap();
    let r = m.read.ratio.unwrap();
    assert!((r.ratio - 1.2).abs() < 1e-9);
    assert!((r.ci95_low.unwrap() - 1.0449).abs() < 1e-3, "{r:?}");
    assert!((r.ci95_high.unwrap() - 1.3659).abs() < 1e-3, "{r:?}");
    assert_eq!(m.read.verdict, Verdict::Slower);
    assert!(!m.read.exceeds);
    assert_eq!(c.exit_code(), EXIT_OK);
    assert!(c
        .render_table()
        .contains("CIs over the runs of one invocation"));
    let c = one(&a, &b, 1.04);
    assert_eq!(c.exit_code(), EXIT_FAIL_ABOVE);
    // With the default drift (3x), the same 1.2x from one invocation is inconclusive and
    // never fails: the interval knows nothing of the drift between invocations.
    let c = compare(&a, &b, Some(1.04), DEFAULT_NOISE_THRESHOLD).unwrap();
    let m = c.matched.iter().find(|m| spin_1mib_matched(m)).unwrap();
    assert_eq!(m.read.verdict, Verdict::Inconclusive);
    assert!(m.read.reason.as_deref().unwrap_or("").contains("drift"));
    assert_eq!(c.exit_code(), EXIT_OK);
    // 4x (CI wholly above 3) is beyond the drift: slower, and it fails.
    let mut b4 = a.clone();
    set_runs(&mut b4, spin_1mib, false, &[40.0, 40.8, 39.2, 40.4, 39.6]);
    let c = compare(&a, &b4, Some(1.04), DEFAULT_NOISE_THRESHOLD).unwrap();
    let m = c.matched.iter().find(|m| spin_1mib_matched(m)).unwrap();
    assert_eq!(m.read.verdict, Verdict::Slower);
    assert_eq!(c.exit_code(), EXIT_FAIL_ABOVE);
}

fn spin_1mib_matched(m: &Matched) -> bool {
    m.mode == "threads-spin" && m.size_bytes == MIB && m.cores_a == (0, 1) && !m.flush_cache
}

#[test]
fn wake_up_latency_needs_several_invocations_to_fail() {
    let futex = |r: &ExchangeRecord| {
        r.mode == "processes-futex" && r.size_bytes == MIB && r.consumer_core == 1 && !r.flush_cache
    };
    let a_runs = [40.0, 42.0, 38.0, 41.0, 39.0];
    let mut a = fixture();
    assert_eq!(a.records.iter().find(|r| futex(r)).unwrap().wait, "futex");
    set_runs(&mut a, futex, true, &a_runs);
    let mut b = a.clone();
    set_runs(&mut b, futex, true, &a_runs.map(|x| 2.0 * x));
    let find = |c: &Comparison| {
        c.matched
            .iter()
            .find(|m| {
                m.mode == "processes-futex"
                    && m.size_bytes == MIB
                    && m.cores_a == (0, 1)
                    && !m.flush_cache
            })
            .unwrap()
            .latency
            .clone()
    };
    // One invocation per side: a 2× futex latency with a tight CI over runs is inconclusive.
    let c = compare(&a, &b, Some(1.10), DEFAULT_NOISE_THRESHOLD).unwrap();
    let l = find(&c);
    assert_eq!(l.verdict, Verdict::Inconclusive, "{l:?}");
    assert!(
        l.reason
            .as_deref()
            .unwrap()
            .contains("futex wake-up latency"),
        "{l:?}"
    );
    assert!(!l.exceeds);
    assert_eq!(c.exit_code(), EXIT_OK);
    assert!(c
        .render_table()
        .contains("processes-futex 1 MiB cached shared-l3 latency: a futex"));
    // Several invocations per side: B/A = 2 with a tight CI, but a wake-up latency also
    // needs every B file slower than every A file with exact rank p < 0.05 (2 / C(8, 4) =
    // 0.029 with 4 + 4 files; 2 / C(6, 3) = 0.1 with 3 + 3 is not enough).
    let jitter = |f: &ExchangeResults, k: f64| {
        let mut f = f.clone();
        for r in f.records.iter_mut().filter(|r| futex(r)) {
            scale_times(r, k);
        }
        f
    };
    let gate = |ka: &[f64], kb: &[f64]| {
        let aa: Vec<_> = ka.iter().map(|&k| jitter(&a, k)).collect();
        let bb: Vec<_> = kb.iter().map(|&k| jitter(&b, k)).collect();
        compare_many(&aa, &bb, Some(1.10), DEFAULT_NOISE_THRESHOLD).unwrap()
    };
    let c = gate(&[1.0, 1.02, 0.98], &[1.0, 1.02, 0.98]);
    let l = find(&c);
    assert_eq!(l.verdict, Verdict::Inconclusive, "{l:?}");
    assert!(
        l.reason.as_deref().unwrap().contains(">= 4 files per side"),
        "{l:?}"
    );
    assert_eq!(c.exit_code(), EXIT_OK);
    let four = [1.0, 1.02, 0.98, 1.01];
    let c = gate(&four, &four);
    let l = find(&c);
    assert_eq!(l.verdict, Verdict::Slower, "{l:?}");
    assert!(l.exceeds);
    assert_eq!(c.exit_code(), EXIT_FAIL_ABOVE);
}

#[test]
fn several_files_match_by_record_and_count_invocations() {
    // A record missing from one of A's files counts the invocations that have it.
    let (mut a, b) = three_by_three(1.0);
    let gone = a[2].records.remove(0);
    let c = compare_many(&a, &b, None, DEFAULT_NOISE_THRESHOLD).unwrap();
    let m = c
        .matched
        .iter()
        .find(|m| {
            m.mode == gone.mode
                && m.size_bytes == gone.size_bytes
                && m.flush_cache == gone.flush_cache
                && m.placement == gone.placement
        })
        .unwrap();
    assert_eq!((m.invocations_a, m.invocations_b), (2, 3));
    assert!(c.unmatched_a.is_empty() && c.unmatched_b.is_empty());
    // Floors that alternate between invocations (30, 210, 30 ns against 210, 30, 210: the
    // host moves vCPUs back and forth) differ in mean (90 → 150 ns), but their CI over the
    // files contains 1: the machine did not change between A and B, the records' own CI
    // carries that spread. Unchanged records stay "same".
    let floors = |f: &[f64]| -> Vec<ExchangeResults> {
        f.iter()
            .map(|&ns| {
                let mut x = fixture();
                scale_control(&mut x, ns / 62.0);
                x
            })
            .collect()
    };
    let c = compare_many(
        &floors(&[30.0, 210.0, 30.0]),
        &floors(&[210.0, 30.0, 210.0]),
        Some(1.10),
        DEFAULT_NOISE_THRESHOLD,
    )
    .unwrap();
    let m = c.matched.iter().find(|m| spin_1mib_matched(m)).unwrap();
    assert!((m.control_ns_a.unwrap() - 90.0).abs() < 1e-9, "{m:?}");
    assert!((m.control_ns_b.unwrap() - 150.0).abs() < 1e-9, "{m:?}");
    assert_eq!(c.count(Verdict::Inconclusive), 0);
    assert_eq!(m.read.verdict, Verdict::Same);
    assert!(matches!(
        compare_many(&[], &b, None, DEFAULT_NOISE_THRESHOLD),
        Err(handoff_lab::compare::CompareError::NoFiles)
    ));
}

#[test]
fn the_read_of_a_sleeping_consumer_needs_several_invocations() {
    // One file per side, read 4x (CI wholly beyond the 3x drift): slower for a spinning
    // consumer, inconclusive for one that waits by pipe (it reads after a sleep).
    let pipe_1mib = |r: &ExchangeRecord| {
        r.mode == "pipe" && r.size_bytes == MIB && r.consumer_core == 1 && !r.flush_cache
    };
    let a_runs = [10.0, 10.2, 9.8, 10.1, 9.9];
    let b_runs: Vec<f64> = a_runs.iter().map(|x| x * 4.0).collect();
    let mut a = fixture();
    set_runs(&mut a, pipe_1mib, false, &a_runs);
    set_runs(&mut a, spin_1mib, false, &a_runs);
    let mut b = a.clone();
    set_runs(&mut b, pipe_1mib, false, &b_runs);
    set_runs(&mut b, spin_1mib, false, &b_runs);
    let c = compare(&a, &b, Some(1.10), DEFAULT_NOISE_THRESHOLD).unwrap();
    let spin = c.matched.iter().find(|m| spin_1mib_matched(m)).unwrap();
    assert_eq!(spin.read.verdict, Verdict::Slower);
    let pipe = c
        .matched
        .iter()
        .find(|m| m.mode == "pipe" && m.size_bytes == MIB && m.cores_a.1 == 1 && !m.flush_cache)
        .unwrap();
    assert_eq!(pipe.read.verdict, Verdict::Inconclusive);
    assert!(pipe.read.reason.as_deref().unwrap_or("").contains("sleep"));
    assert!(!pipe.read.exceeds);
}
