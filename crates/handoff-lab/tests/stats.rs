//! Statistics against hand-computed values.

use handoff_lab::schema::Summary;
use handoff_lab::stats::{
    disagreement, iqr, mean_ci95, quantile_sorted, ratio_of_means, run_detail, student_t_975,
    DisagreementBasis, SplitMix64, StatsError,
};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn t_quantiles_match_tables() {
    assert_eq!(student_t_975(0), None);
    for (df, want) in [
        (1, 12.706),
        (2, 4.303),
        (4, 2.776),
        (9, 2.262),
        (10, 2.228),
        (29, 2.045),
        (30, 2.042),
        (40, 2.021),
        (60, 2.000),
        (120, 1.980),
        (1000, 1.962),
    ] {
        let t = student_t_975(df).unwrap();
        assert!(close(t, want, 6e-4), "t(0.975, {df}) = {t}, want {want}");
    }
    // Precise at the switch from the table to the expansion (exact: 2.042272456, 2.039513446).
    assert!(close(student_t_975(31).unwrap(), 2.039_513_446, 1e-6));
    // Decreasing towards z = 1.95996.
    let mut prev = f64::INFINITY;
    for df in 1..=500 {
        let t = student_t_975(df).unwrap();
        assert!(t < prev && t > 1.959_96, "df {df}: {t}");
        prev = t;
    }
}

#[test]
fn summary_by_hand() {
    // Run means 2 and 5: mean 3.5, s = sqrt(4.5), se = 1.5, t(1) = 12.7062 → ±19.0593.
    let s = Summary::from_runs(&[vec![1.0, 2.0, 3.0], vec![4.0, 5.0, 6.0]]).unwrap();
    assert!(close(s.mean, 3.5, 1e-12));
    assert!(close(s.ci95_low.unwrap(), 3.5 - 19.059_307, 1e-5), "{s:?}");
    assert!(close(s.ci95_high.unwrap(), 3.5 + 19.059_307, 1e-5), "{s:?}");
    // Pooled 1..6: median 3.5, p99 at h = 4.95 → 5.95.
    assert_eq!((s.median, s.min, s.max), (3.5, 1.0, 6.0));
    assert!(close(s.p99, 5.95, 1e-12));

    // Five runs: means 10, 11, 12, 13, 14 → mean 12, s = sqrt(2.5), t(4) = 2.776445.
    let runs: Vec<Vec<f64>> = (10..15)
        .map(|m| vec![m as f64 - 1.0, m as f64 + 1.0])
        .collect();
    let s = Summary::from_runs(&runs).unwrap();
    let half = 2.776_445_105 * 2.5f64.sqrt() / 5f64.sqrt();
    assert!(close(s.mean, 12.0, 1e-12));
    assert!(close(s.ci95_low.unwrap(), 12.0 - half, 1e-9));
    assert!(close(s.ci95_high.unwrap(), 12.0 + half, 1e-9));
    assert_eq!((s.min, s.max, s.median), (9.0, 15.0, 12.0));

    // Unequal run lengths: means are per run, not pooled.
    let s = Summary::from_runs(&[vec![1.0], vec![3.0, 3.0, 3.0]]).unwrap();
    assert!(close(s.mean, 2.0, 1e-12));
    assert_eq!(s.median, 3.0);
}

#[test]
fn one_run_has_no_ci() {
    let s = Summary::from_runs(&[vec![5.0, 7.0]]).unwrap();
    assert_eq!((s.mean, s.ci95_low, s.ci95_high), (6.0, None, None));
    assert!(!s.has_ci());
    let (m, ci) = mean_ci95(&[4.0]);
    assert_eq!((m, ci), (4.0, None));
}

#[test]
fn negative_samples_are_kept() {
    let s = Summary::from_runs(&[vec![-0.5, 1.0, 2.0]]).unwrap();
    assert_eq!(s.min, -0.5);
    assert!(close(s.mean, 2.5 / 3.0, 1e-12));
}

#[test]
fn bad_input_is_an_error() {
    assert_eq!(Summary::from_runs(&[]), Err(StatsError::NoRuns));
    assert_eq!(
        Summary::from_runs(&[vec![1.0], vec![]]),
        Err(StatsError::EmptyRun { run: 1 })
    );
    assert!(matches!(
        Summary::from_runs(&[vec![1.0, f64::NAN]]),
        Err(StatsError::NonFinite {
            run: 0,
            index: 1,
            ..
        })
    ));
}

#[test]
fn quantiles_interpolate() {
    let v = [10.0, 20.0, 30.0, 40.0];
    assert_eq!(quantile_sorted(&v, 0.0), 10.0);
    assert_eq!(quantile_sorted(&v, 1.0), 40.0);
    assert_eq!(quantile_sorted(&v, 0.5), 25.0);
    assert!(close(quantile_sorted(&v, 0.25), 17.5, 1e-12));
    assert_eq!(quantile_sorted(&[], 0.5), 0.0);
    assert_eq!(iqr(&[4.0, 1.0, 3.0, 2.0]), Some([1.75, 3.25]));
    let d = run_detail(&[1.0, 3.0], &[0.5, 0.5], &[2.0, 2.0], Some(&[7.0]));
    assert_eq!(
        (d.read_us, d.latency_us, d.write_us, d.flush_us),
        (2.0, 0.5, 2.0, Some(7.0))
    );
    assert_eq!(d.read_iqr_us, Some([1.5, 2.5]));
}

#[test]
fn splitmix64_reference_values() {
    // Reference output of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
    let mut r = SplitMix64::new(0);
    assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
    assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    let mut r = SplitMix64::new(7);
    for n in [1usize, 2, 3, 10, 1000] {
        for _ in 0..100 {
            assert!(r.below(n) < n);
        }
    }
}

#[test]
fn bootstrap_ratio() {
    let a = [10.0, 10.5, 9.5, 10.2, 9.8];
    // Same data: ratio 1, CI around 1.
    let r = ratio_of_means(&a, &a).unwrap();
    assert!(close(r.ratio, 1.0, 1e-12));
    assert!(r.ci_contains_one(), "{r:?}");
    assert!(
        r.ci95_low.unwrap() > 0.9 && r.ci95_high.unwrap() < 1.1,
        "{r:?}"
    );
    // Twice as slow: ratio 2, CI well away from 1 and containing 2.
    let b: Vec<f64> = a.iter().map(|x| x * 2.0).collect();
    let r = ratio_of_means(&a, &b).unwrap();
    assert!(close(r.ratio, 2.0, 1e-12));
    let (lo, hi) = (r.ci95_low.unwrap(), r.ci95_high.unwrap());
    assert!(lo > 1.8 && lo < 2.0 && hi > 2.0 && hi < 2.2, "{r:?}");
    // Deterministic.
    assert_eq!(ratio_of_means(&a, &b), ratio_of_means(&a, &b));
    // Constant runs: the CI collapses onto the ratio.
    let r = ratio_of_means(&[4.0, 4.0], &[5.0, 5.0]).unwrap();
    assert_eq!((r.ci95_low, r.ci95_high), (Some(1.25), Some(1.25)));
    // One run on a side: ratio without CI.
    let r = ratio_of_means(&[4.0], &[5.0, 6.0]).unwrap();
    assert_eq!((r.ratio, r.ci95_low), (1.375, None));
    // No ratio: empty, zero or negative mean of A, non-finite.
    assert!(ratio_of_means(&[], &[1.0]).is_none());
    assert!(ratio_of_means(&[0.0, 0.0], &[1.0, 1.0]).is_none());
    assert!(ratio_of_means(&[1.0, f64::NAN], &[1.0, 1.0]).is_none());
}

#[test]
fn disagreement_flags_shifted_runs_only() {
    // Run 3 shifted by 40% with tight spreads everywhere: flagged, run 3 stands apart.
    let means = [10.0, 10.1, 9.9, 14.0];
    let iqrs = [[9.8, 10.2], [9.9, 10.3], [9.7, 10.1], [13.8, 14.2]];
    let d = disagreement(&means, Some(&iqrs)).expect("flagged");
    assert_eq!(d.outside, vec![3]);
    assert_eq!(d.basis, DisagreementBasis::Iqr);
    assert!(close(d.relative_spread, 4.1 / 10.05, 1e-9));

    // The same means, but run 3's mean was pulled up by a few outliers: its bulk (IQR)
    // overlaps the others, so it is not flagged.
    let iqrs_spike = [[9.8, 10.2], [9.9, 10.3], [9.7, 10.1], [9.8, 10.2]];
    assert!(disagreement(&means, Some(&iqrs_spike)).is_none());

    // Separated but small (5%): not worth flagging.
    let means = [10.0, 10.5];
    let iqrs = [[9.95, 10.05], [10.45, 10.55]];
    assert!(disagreement(&means, Some(&iqrs)).is_none());

    // Without interquartile ranges: spread over 25% is flagged, under is not.
    let d = disagreement(&[10.0, 13.0], None).unwrap();
    assert_eq!(d.basis, DisagreementBasis::Spread);
    assert!(disagreement(&[10.0, 12.0], None).is_none());

    // One run never disagrees.
    assert!(disagreement(&[10.0], Some(&[[1.0, 2.0]])).is_none());
}
