//! `compare`: ratios, verdicts, matching and exit codes on doctored copies of the fixture.

use std::path::Path;

use handoff_lab::compare::{
    compare_many_with, CompareError, Comparison, Verdict, DEFAULT_NOISE_THRESHOLD, EXIT_FAIL_ABOVE,
    EXIT_OK,
};
use handoff_lab::schema::{ExchangeRecord, ExchangeResults, Summary};

/// These tests check the interval arithmetic and verdict rules on one file per side, so they
/// trust that file's runs (drift 1); the default drift rule has its own test in
/// `compare_gate.rs`.
fn compare(
    a: &ExchangeResults,
    b: &ExchangeResults,
    fail_above: Option<f64>,
    noise: f64,
) -> Result<Comparison, CompareError> {
    compare_many_with(
        std::slice::from_ref(a),
        std::slice::from_ref(b),
        fail_above,
        noise,
        1.0,
    )
}

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

/// Multiplies a record's read time by `k` (summary and per-run means alike).
fn scale_read(r: &mut ExchangeRecord, k: f64) {
    scale_summary(&mut r.read_us, k);
    for d in &mut r.runs_detail {
        d.read_us *= k;
        d.read_iqr_us = d.read_iqr_us.map(|[a, b]| [a * k, b * k]);
    }
}

fn is(r: &ExchangeRecord, mode: &str, size: u64, consumer: usize, flush: bool) -> bool {
    r.mode == mode && r.size_bytes == size && r.consumer_core == consumer && r.flush_cache == flush
}

const MIB: u64 = 1 << 20;

#[test]
fn identical_files_are_the_same() {
    let a = fixture();
    let c = compare(&a, &a, Some(1.05), DEFAULT_NOISE_THRESHOLD).unwrap();
    assert_eq!(c.matched.len(), a.records.len());
    assert!(c.unmatched_a.is_empty() && c.unmatched_b.is_empty());
    for m in &c.matched {
        let r = m.read.ratio.unwrap();
        assert_eq!(r.ratio, 1.0);
        assert_eq!(m.read.verdict, Verdict::Same, "{m:?}");
    }
    assert_eq!(c.exit_code(), EXIT_OK);
    assert!(c.render_table().contains("ok: no ratio is above 1.05"));
    assert!(matches!(
        compare(&a, &a, None, 1.5),
        Err(CompareError::BadNoise(_))
    ));
}

#[test]
fn doctored_copy_gives_ratios_and_verdicts() {
    let a = fixture();
    let mut b = a.clone();
    for r in &mut b.records {
        if is(r, "processes-spin", MIB, 1, false) {
            scale_read(r, 1.5);
        }
        if is(r, "threads-spin", MIB, 1, false) {
            scale_read(r, 0.5);
        }
    }
    let c = compare(&a, &b, None, DEFAULT_NOISE_THRESHOLD).unwrap();
    let find = |mode: &str, consumer: usize| {
        c.matched
            .iter()
            .find(|m| {
                m.mode == mode && m.size_bytes == MIB && !m.flush_cache && m.cores_a.1 == consumer
            })
            .unwrap()
    };
    let slow = find("processes-spin", 1);
    let r = slow.read.ratio.unwrap();
    assert!((r.ratio - 1.5).abs() < 1e-9, "{r:?}");
    assert!(
        r.ci95_low.unwrap() > 1.3 && r.ci95_high.unwrap() < 1.7,
        "{r:?}"
    );
    assert_eq!(slow.read.verdict, Verdict::Slower);
    assert_eq!(slow.latency.verdict, Verdict::Same);
    let fast = find("threads-spin", 1);
    assert!((fast.read.ratio.unwrap().ratio - 0.5).abs() < 1e-9);
    assert_eq!(fast.read.verdict, Verdict::Faster);
    assert_eq!(c.exit_code(), EXIT_OK, "no threshold given");

    let table = c.render_table();
    // The verdict is in the record's own row (the summary line below the table names every
    // verdict whatever the rows say): the row with read B/A 1.5 says slower, 0.5 faster.
    let row = |ratio: &str| {
        let rows: Vec<&str> = table.lines().filter(|l| l.contains(ratio)).collect();
        assert_eq!(rows.len(), 1, "one row with {ratio}:\n{table}");
        rows[0].to_string()
    };
    assert!(row("1.500 [").contains(" slower "), "{table}");
    assert!(row("0.500 [").contains(" faster "), "{table}");
    // The row shows the interval's bounds, not "[-]".
    let (l, h) = (r.ci95_low.unwrap(), r.ci95_high.unwrap());
    assert!(
        row("1.500 [").contains(&format!("1.500 [{l:.3}–{h:.3}]")),
        "{table}"
    );
    // The summary counts by construction: one record's read doctored slower, one faster.
    assert!(
        table.contains("read and latency: 1 faster, 1 slower, "),
        "{table}"
    );

    // --fail-above: exceeded at 1.2 (CI lower bound > 1.2), not at 2.0.
    let c = compare(&a, &b, Some(1.2), DEFAULT_NOISE_THRESHOLD).unwrap();
    assert!(c.exceeded());
    assert_eq!(c.exit_code(), EXIT_FAIL_ABOVE);
    assert!(c.render_table().contains("(FAIL)"));
    let c = compare(&a, &b, Some(2.0), DEFAULT_NOISE_THRESHOLD).unwrap();
    assert_eq!(c.exit_code(), EXIT_OK);
}

/// Sets the read-time run means of the threads-spin 1 MiB cross-core record (both the
/// summary mean and the per-run means, which compare uses).
fn set_read_runs(res: &mut ExchangeResults, runs: &[f64]) {
    let r = res
        .records
        .iter_mut()
        .find(|r| is(r, "threads-spin", MIB, 1, false))
        .unwrap();
    r.runs_detail.truncate(runs.len());
    for (d, &m) in r.runs_detail.iter_mut().zip(runs) {
        d.read_us = m;
    }
    r.read_us.mean = runs.iter().sum::<f64>() / runs.len() as f64;
}

fn read_verdict(c: &handoff_lab::compare::Comparison) -> (Verdict, bool) {
    let m = c
        .matched
        .iter()
        .find(|m| {
            m.mode == "threads-spin" && m.size_bytes == MIB && !m.flush_cache && m.cores_a.1 == 1
        })
        .unwrap();
    (m.read.verdict, m.read.exceeds)
}

#[test]
fn verdicts_follow_hand_computed_intervals() {
    // Expected outcomes from Welch's t on the log scale, computed by hand in Python (not by
    // the code under test). A's runs: 10, 10.2, 9.8, 10.1, 9.9 µs.
    let a_runs = [10.0, 10.2, 9.8, 10.1, 9.9];
    let scaled = |k: f64| a_runs.iter().map(|x| x * k).collect::<Vec<f64>>();
    let mut a = fixture();
    set_read_runs(&mut a, &a_runs);
    let case = |b_runs: &[f64], fail: Option<f64>, noise: f64| {
        let mut b = a.clone();
        set_read_runs(&mut b, b_runs);
        let c = compare(&a, &b, fail, noise).unwrap();
        (read_verdict(&c), c.exit_code())
    };
    // ×1.06: CI [1.036, 1.085] excludes 1 and 6% > 5% → slower; the CI's lower bound is
    // under 1.05 (no FAIL at 1.05) but above 1.03 (FAIL at 1.03).
    assert_eq!(
        case(&scaled(1.06), Some(1.05), 0.05),
        ((Verdict::Slower, false), EXIT_OK)
    );
    assert_eq!(
        case(&scaled(1.06), Some(1.03), 0.05),
        ((Verdict::Slower, true), EXIT_FAIL_ABOVE)
    );
    // ×1.03: CI [1.0065, 1.054] excludes 1, but a 3% change is within the 5% noise
    // threshold → same; with no noise threshold it is slower.
    assert_eq!(
        case(&scaled(1.03), Some(1.01), 0.05),
        ((Verdict::Same, false), EXIT_OK)
    );
    assert_eq!(
        case(&scaled(1.03), Some(1.01), 0.0),
        ((Verdict::Slower, false), EXIT_OK)
    );
    // A real 1.3× slowdown: CI [1.27, 1.33] → slower, FAIL at 1.10.
    assert_eq!(
        case(&scaled(1.3), Some(1.10), 0.05),
        ((Verdict::Slower, true), EXIT_FAIL_ABOVE)
    );
    // ×0.9: faster.
    assert_eq!(case(&scaled(0.9), None, 0.05).0, (Verdict::Faster, false));
    // ×0.97: CI [0.948, 0.993] lies below 1, but a 3% change is within the 5% noise threshold
    // → same; with no noise threshold, faster.
    assert_eq!(case(&scaled(0.97), None, 0.05).0, (Verdict::Same, false));
    assert_eq!(case(&scaled(0.97), None, 0.0).0, (Verdict::Faster, false));
    // Same mean ratio 1.3 but runs all over the place (8-20 µs): CI [0.72, 2.04] contains 1
    // → same, and no FAIL however low the threshold.
    assert_eq!(
        case(&[8.0, 20.0, 9.0, 18.0, 10.0], Some(1.01), 0.05),
        ((Verdict::Same, false), EXIT_OK)
    );
    // One run on a side: no evidence → unknown, never FAIL, even at ratio 1.3.
    assert_eq!(
        case(&[13.0], Some(1.10), 0.05),
        ((Verdict::Unknown, false), EXIT_OK)
    );
}

#[test]
fn long_unmatched_lists_are_one_per_line_and_summarized() {
    let a = fixture();
    let mut b = a.clone();
    let removed: Vec<ExchangeRecord> = b.records.drain(..12).collect();
    let c = compare(&a, &b, None, DEFAULT_NOISE_THRESHOLD).unwrap();
    assert_eq!(c.unmatched_a.len(), 12);
    let table = c.render_table();
    assert!(table.contains("only in A (12 record(s)):\n"), "{table}");
    // The first ten, one per line, then a count of the rest.
    let listed = table
        .lines()
        .filter(|l| l.starts_with("  ") && l.contains("cpu "))
        .count();
    assert_eq!(listed, 10, "{table}");
    assert!(table.contains("  ... and 2 more"), "{table}");
    assert!(
        table.contains(&format!("  {} ", removed[0].mode)),
        "{table}"
    );
}

#[test]
fn matching_and_unmatched() {
    let a = fixture();
    let mut b = a.clone();
    // Another machine numbers its CPUs differently: still matched by placement.
    for r in &mut b.records {
        if r.consumer_core == 1 {
            r.consumer_core = 5;
        }
    }
    let removed = b.records.remove(0);
    let c = compare(&a, &b, None, DEFAULT_NOISE_THRESHOLD).unwrap();
    assert_eq!(c.matched.len(), a.records.len() - 1);
    assert_eq!(c.unmatched_a.len(), 1);
    assert!(
        c.unmatched_a[0].starts_with(&removed.mode),
        "{:?}",
        c.unmatched_a
    );
    assert!(c
        .matched
        .iter()
        .any(|m| m.cores_a == (0, 1) && m.cores_b == (0, 5)));
    assert!(c.render_table().contains("only in A"));

    // Nothing in common is an error (the CLI exits 3).
    let mut other = a.clone();
    for r in &mut other.records {
        r.mode = format!("x-{}", r.mode);
    }
    let err = compare(&a, &other, None, DEFAULT_NOISE_THRESHOLD).unwrap_err();
    assert!(matches!(err, CompareError::NothingMatched { .. }));
    assert!(err.to_string().contains("no record of B matches"));
    assert!(matches!(
        compare(&a, &a, Some(0.0), DEFAULT_NOISE_THRESHOLD),
        Err(CompareError::BadThreshold(_))
    ));
}

#[test]
fn unknown_without_runs_or_ratio() {
    let a = fixture();
    let mut b = a.clone();
    let mut a2 = a.clone();
    for r in a2.records.iter_mut().chain(b.records.iter_mut()) {
        r.runs_detail.truncate(1);
    }
    // A latency mean of zero gives no ratio.
    a2.records[0].latency_us.mean = 0.0;
    a2.records[0].runs_detail[0].latency_us = 0.0;
    let c = compare(&a2, &b, Some(1.1), DEFAULT_NOISE_THRESHOLD).unwrap();
    assert!(c.matched.iter().all(|m| m.read.verdict == Verdict::Unknown));
    let first = c
        .matched
        .iter()
        .find(|m| {
            m.mode == a2.records[0].mode
                && m.size_bytes == a2.records[0].size_bytes
                && m.flush_cache == a2.records[0].flush_cache
        })
        .unwrap();
    assert!(first.latency.ratio.is_none());
    assert_eq!(c.exit_code(), EXIT_OK);
}
