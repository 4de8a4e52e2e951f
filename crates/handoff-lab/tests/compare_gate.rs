//! The regression gate of `compare` on the exchange's records (in the one schema): several
//! invocations per side, the machine control (the c2c floor beside each record, else the
//! file's), the rules for wake-up latencies and a sleeping consumer's read, and failing on the
//! CI's lower bound. Expected intervals are computed by hand (Welch's t on the log scale, in
//! Python with a t table), never taken from the code under test.

mod common;

use common::{fixture, fixture_path};
use handoff_lab::bench::compare::{compare_bench, BenchComparison, BenchMatched};
use handoff_lab::bench::verdict::{
    CompareError, Verdict, DEFAULT_NOISE_THRESHOLD, EXIT_FAIL_ABOVE, EXIT_OK,
    SINGLE_INVOCATION_DRIFT,
};
use handoff_lab::bench::BenchRecord;
use handoff_lab::bench::BenchResults;
use handoff_lab::experiments::exchange::record;
use handoff_lab::stats::Summary;

const MIB: u64 = 1 << 20;

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
fn scale_times(r: &mut BenchRecord, k: f64) {
    for name in [record::READ, record::LATENCY] {
        let m = r.metrics.get_mut(name).unwrap();
        scale_summary(&mut m.summary, k);
        for v in &mut m.run_means {
            *v *= k;
        }
    }
}

/// Multiplies every c2c floor of a file (beside each record and in the matrix) by `k`.
fn scale_control(f: &mut BenchResults, k: f64) {
    for r in &mut f.records {
        r.c2c_one_way_ns = r.c2c_one_way_ns.map(|v| v * k);
    }
    for p in &mut f.c2c {
        p.one_way_ns *= k;
    }
}

fn scaled_file(k: f64) -> BenchResults {
    let mut f = fixture();
    for r in &mut f.records {
        scale_times(r, k);
    }
    f
}

fn cmp(a: &[BenchResults], b: &[BenchResults], fail: Option<f64>) -> BenchComparison {
    compare_bench(a, b, fail, DEFAULT_NOISE_THRESHOLD, SINGLE_INVOCATION_DRIFT).unwrap()
}

fn verdict(m: &BenchMatched, metric: &str) -> (Verdict, Option<String>) {
    let c = m.metrics.iter().find(|c| c.metric == metric).unwrap();
    (c.verdict, c.reason.clone())
}

/// The `wait` of the fixture's record that `m` matched (by its key).
fn wait_of(m: &BenchMatched) -> String {
    let f = fixture();
    let r = f.records.iter().find(|r| r.key() == m.key).unwrap();
    r.info["wait"].as_str().unwrap().to_string()
}

/// Invocation jitter of ±2% (1, 1.02, 0.98) on every record, on both sides; B is A × 1.3.
/// By hand: ln k has variance 4.0013e-4, so se² = 2 · 4.0013e-4 / 3, se = 0.016333, Welch
/// df = 4, t = 2.776: CI = 1.3 · exp(±0.04534) = [1.2424, 1.3603].
fn three_by_three(control_b: f64) -> (Vec<BenchResults>, Vec<BenchResults>) {
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
    let c = cmp(&a, &b, Some(1.10));
    assert!(c
        .matched
        .iter()
        .all(|m| m.invocations_a == 3 && m.invocations_b == 3));
    let m = c
        .matched
        .iter()
        .find(|m| {
            m.key.starts_with("threads-spin [")
                && m.key.contains(&format!("size_bytes={MIB}"))
                && m.key.contains("consumer_core=1")
        })
        .unwrap();
    let read = m.metrics.iter().find(|c| c.metric == "read_us").unwrap();
    let r = read.ratio.unwrap();
    assert!((r.ratio - 1.3).abs() < 1e-9, "{r:?}");
    assert!((r.ci95_low.unwrap() - 1.2424).abs() < 1e-3, "{r:?}");
    assert!((r.ci95_high.unwrap() - 1.3603).abs() < 1e-3, "{r:?}");
    // Every read time and every latency of a record without a wait or with a busy spin is
    // slower. A latency whose consumer sleeps or yields needs 4 files per side: inconclusive.
    let mut inconclusive = 0;
    for m in &c.matched {
        assert_eq!(verdict(m, "read_us").0, Verdict::Slower, "{m:?}");
        let wakes = !matches!(wait_of(m).as_str(), "none" | "spin");
        let (v, why) = verdict(m, "latency_us");
        if wakes {
            inconclusive += 1;
            assert_eq!(v, Verdict::Inconclusive, "{m:?}");
            assert!(why.unwrap().contains("wake-ups"));
        } else {
            assert_eq!(v, Verdict::Slower, "{m:?}");
        }
    }
    assert!(inconclusive > 0);
    assert_eq!(c.exit_code(), EXIT_FAIL_ABOVE);
    assert!(c.render_table().contains("FAIL: a slowdown above 1.1×"));
}

#[test]
fn a_whole_file_shift_with_the_control_is_inconclusive_not_fail() {
    // Same data as the failing case above, but the machine's c2c floor moved 1.3× with
    // the records (62 → 80.6 ns): the machine changed, not the code.
    let (a, b) = three_by_three(1.3);
    let c = cmp(&a, &b, Some(1.10));
    for m in &c.matched {
        for metric in &m.metrics {
            assert_eq!(metric.verdict, Verdict::Inconclusive, "{m:?}");
            assert_eq!(
                metric.reason.as_deref(),
                Some("the machine changed: c2c floor 62 → 81 ns"),
                "{m:?}"
            );
        }
    }
    // Same-core records (no floor of their own) take their file's median floor.
    assert!(c.matched.iter().any(|m| m.key.contains("same-core")));
    assert_eq!(c.exit_code(), EXIT_OK);
    // A floor within the tolerance (1.2×, 62 → 74.4 ns) is the machine's noise: still FAIL.
    let (a, b) = three_by_three(1.2);
    assert_eq!(cmp(&a, &b, Some(1.10)).exit_code(), EXIT_FAIL_ABOVE);
}

#[test]
fn one_invocation_needs_a_difference_beyond_the_drift_and_no_wake_up() {
    // B = A × 5, one file a side: beyond the 3× drift, so the spinning records are slower,
    // but a wake-up latency and the read of a consumer that slept are inconclusive.
    let c = cmp(&[fixture()], &[scaled_file(5.0)], None);
    let mut seen = (false, false);
    for m in &c.matched {
        let wait = wait_of(m);
        let (lat, why) = verdict(m, "latency_us");
        let (read, read_why) = verdict(m, "read_us");
        match wait.as_str() {
            "none" => assert_ne!(lat, Verdict::Inconclusive, "{m:?}"),
            "spin" => {
                assert_eq!(lat, Verdict::Inconclusive, "{m:?}");
                assert!(why.unwrap().contains("wake-up latency swings"));
                assert_ne!(read, Verdict::Inconclusive, "{m:?}");
                seen.0 = true;
            }
            _ => {
                assert_eq!(lat, Verdict::Inconclusive, "{m:?}");
                if read == Verdict::Inconclusive {
                    assert!(read_why.unwrap().contains("follows a sleep"), "{m:?}");
                    seen.1 = true;
                }
            }
        }
    }
    assert!(seen.0 && seen.1, "{seen:?}");
    // B = A × 1.3, one file a side: within the drift, never slower.
    let c = cmp(&[fixture()], &[scaled_file(1.3)], Some(1.1));
    assert_eq!(c.exit_code(), EXIT_OK);
}

#[test]
fn a_file_compares_as_the_same_with_itself_and_no_files_are_refused() {
    let a = BenchResults::load(&fixture_path()).unwrap();
    let c = compare_bench(
        std::slice::from_ref(&a),
        std::slice::from_ref(&a),
        None,
        0.05,
        3.0,
    )
    .unwrap();
    assert_eq!(c.matched.len(), a.records.len());
    assert!(c.unmatched_a.is_empty() && c.unmatched_b.is_empty());
    for m in &c.matched {
        for metric in &m.metrics {
            assert!(
                matches!(metric.verdict, Verdict::Same | Verdict::Unknown),
                "{m:?}"
            );
        }
    }
    assert!(matches!(
        compare_bench(&[], &[a], None, 0.05, 3.0),
        Err(CompareError::NoFiles)
    ));
}
