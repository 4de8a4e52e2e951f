//! `compare`: ratios, verdicts, matching and exit codes on doctored copies of the fixture.

use std::path::Path;

use handoff_lab::compare::{compare, CompareError, Verdict, EXIT_FAIL_ABOVE, EXIT_OK};
use handoff_lab::schema::{ExchangeRecord, ExchangeResults, Summary};

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
    let c = compare(&a, &a, Some(1.05)).unwrap();
    assert_eq!(c.matched.len(), a.records.len());
    assert!(c.unmatched_a.is_empty() && c.unmatched_b.is_empty());
    for m in &c.matched {
        let r = m.read.ratio.unwrap();
        assert_eq!(r.ratio, 1.0);
        assert_eq!(m.read.verdict, Verdict::Same, "{m:?}");
    }
    assert_eq!(c.exit_code(), EXIT_OK);
    assert!(c.render_table().contains("ok: no ratio is above 1.05"));
}

#[test]
fn doctored_copy_gives_ratios_and_verdicts() {
    let a = fixture();
    let mut b = a.clone();
    for r in &mut b.records {
        if is(r, "processes-spin", MIB, 1, false) {
            scale_read(r, 1.5);
        }
        if is(r, "pipe", MIB, 0, false) {
            scale_read(r, 0.5);
        }
    }
    let c = compare(&a, &b, None).unwrap();
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
    let fast = find("pipe", 0);
    assert!((fast.read.ratio.unwrap().ratio - 0.5).abs() < 1e-9);
    assert_eq!(fast.read.verdict, Verdict::Faster);
    assert_eq!(c.exit_code(), EXIT_OK, "no threshold given");

    let table = c.render_table();
    assert!(
        table.contains("slower") && table.contains("faster"),
        "{table}"
    );
    assert!(table.contains("1.500 ["), "{table}");

    // --fail-above: exceeded at 1.2 (CI lower bound > 1.2), not at 2.0.
    let c = compare(&a, &b, Some(1.2)).unwrap();
    assert!(c.exceeded());
    assert_eq!(c.exit_code(), EXIT_FAIL_ABOVE);
    assert!(c.render_table().contains("(FAIL)"));
    let c = compare(&a, &b, Some(2.0)).unwrap();
    assert_eq!(c.exit_code(), EXIT_OK);
}

#[test]
fn fail_above_needs_confidence() {
    // A 6% slowdown with a CI reaching below 1.05 does not fail a 1.05 threshold... unless the
    // whole CI is above it.
    let a = fixture();
    let mut b = a.clone();
    for r in &mut b.records {
        if is(r, "threads-spin", MIB, 1, false) {
            scale_read(r, 1.06);
        }
    }
    let c = compare(&a, &b, Some(1.05)).unwrap();
    let m = c
        .matched
        .iter()
        .find(|m| {
            m.mode == "threads-spin" && m.size_bytes == MIB && !m.flush_cache && m.cores_a.1 == 1
        })
        .unwrap();
    let r = m.read.ratio.unwrap();
    assert_eq!(m.read.exceeds, r.ci95_low.unwrap() > 1.05, "{r:?}");
    assert_eq!(c.exit_code() == EXIT_FAIL_ABOVE, r.ci95_low.unwrap() > 1.05);
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
    let c = compare(&a, &b, None).unwrap();
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
    let err = compare(&a, &other, None).unwrap_err();
    assert!(matches!(err, CompareError::NothingMatched { .. }));
    assert!(err.to_string().contains("no record of B matches"));
    assert!(matches!(
        compare(&a, &a, Some(0.0)),
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
    let c = compare(&a2, &b, Some(1.1)).unwrap();
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
