//! Statistics against hand-computed values.

use handoff_lab::experiments::exchange::record::time_metric;
use handoff_lab::stats::interval::{mean_interval, median_order_stat_ci};
use handoff_lab::stats::Summary;
use handoff_lab::stats::{
    disagreement, iqr, mean_ci95, pooled_log_ratio, quantile_sorted, ratio_of_means, student_t_975,
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
    // Run means 2 and 5: mean 3.5. CI on the log scale (computed by hand in Python):
    // ln 2, ln 5 → centre 1.151293, s = 0.647917, se = 0.458145, t(1) = 12.7062
    // → exp(1.151293 ± 5.821262) = [0.0093723, 1066.973]: wide (two runs), but above zero.
    let s = Summary::from_runs(&[vec![1.0, 2.0, 3.0], vec![4.0, 5.0, 6.0]]).unwrap();
    assert!(close(s.mean, 3.5, 1e-12));
    assert!(close(s.ci95_low.unwrap(), 0.009_372_304, 1e-8), "{s:?}");
    assert!(close(s.ci95_high.unwrap(), 1_066.973_446, 1e-5), "{s:?}");
    // The plain Student-t interval stays available: 3.5 ± 19.0593.
    let (_, t) = mean_ci95(&[2.0, 5.0]);
    assert!(close(t.unwrap().0, 3.5 - 19.059_307, 1e-5));
    // Pooled 1..6: median 3.5, p99 at h = 4.95 → 5.95.
    assert_eq!((s.median, s.min, s.max), (3.5, 1.0, 6.0));
    assert!(close(s.p99, 5.95, 1e-12));
    // Median interval with 2 runs of 3: the range of the run medians, 2 and 5 (6 pooled
    // samples give the order-statistic interval [min, max] = [1, 6], joined: [1, 6]).
    assert_eq!(s.median_ci(), Some((1.0, 6.0)));

    // Five runs: means 10, 11, 12, 13, 14 → mean 12; log-scale t(4) = 2.776445 interval
    // [10.102295, 14.055235] (by hand in Python).
    let runs: Vec<Vec<f64>> = (10..15)
        .map(|m| vec![m as f64 - 1.0, m as f64 + 1.0])
        .collect();
    let s = Summary::from_runs(&runs).unwrap();
    assert!(close(s.mean, 12.0, 1e-12));
    assert!(close(s.ci95_low.unwrap(), 10.102_294_653, 1e-8), "{s:?}");
    assert!(close(s.ci95_high.unwrap(), 14.055_234_513, 1e-8), "{s:?}");
    assert_eq!((s.min, s.max, s.median), (9.0, 15.0, 12.0));
    // Run medians 10..14 (range [10, 14]); 10 pooled samples 9,11,10,12,...,15: the
    // order-statistic ranks 2 and 9 (1-based) are 10 and 14. Joined: [10, 14].
    assert_eq!(s.median_ci(), Some((10.0, 14.0)));

    // Unequal run lengths: means are per run, not pooled.
    let s = Summary::from_runs(&[vec![1.0], vec![3.0, 3.0, 3.0]]).unwrap();
    assert!(close(s.mean, 2.0, 1e-12));
    assert_eq!(s.median, 3.0);
}

#[test]
fn one_run_has_no_ci() {
    let s = Summary::from_runs(&[vec![5.0, 7.0]]).unwrap();
    assert_eq!((s.mean, s.ci95_low, s.ci95_high), (6.0, None, None));
    let (m, ci) = mean_ci95(&[4.0]);
    assert_eq!((m, ci), (4.0, None));
    // Two samples: no distribution-free interval of the median either.
    assert_eq!(s.median_ci(), None);
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
    let m = time_metric(&[vec![1.0, 3.0], vec![0.5, 0.5]], true, false).unwrap();
    assert_eq!(m.run_means, [2.0, 0.5]);
    assert_eq!(m.run_iqrs, Some(vec![[1.5, 2.5], [0.5, 0.5]]));
    assert_eq!(m.run_medians, Some(vec![2.0, 0.5]));
    // Without the spread (write and flush times), only the run means are kept.
    let m = time_metric(&[vec![2.0, 2.0], vec![7.0]], false, true).unwrap();
    assert_eq!(
        (m.run_means, m.run_iqrs, m.run_medians),
        (vec![2.0, 7.0], None, None)
    );
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
    // Welch t on the log scale, by hand in Python: A = 10, 11, 12; B = 20, 26, 23, 22 →
    // ratio of means 91/44 = 2.0682, ν = 4.86 → t(4) = 2.776445, CI [1.673050, 2.547918].
    let r = ratio_of_means(&[10.0, 11.0, 12.0], &[20.0, 26.0, 23.0, 22.0]).unwrap();
    assert!(close(r.ratio, 91.0 / 44.0, 1e-12));
    assert!(close(r.ci95_low.unwrap(), 1.673_049_637, 1e-8), "{r:?}");
    assert!(close(r.ci95_high.unwrap(), 2.547_918_214, 1e-8), "{r:?}");
    // A run mean ≤ 0 (latency near zero): the bootstrap, still a CI holding the ratio.
    let r = ratio_of_means(&[1.0, 2.0, 3.0], &[-0.5, 2.0, 4.0]).unwrap();
    let (lo, hi) = (r.ci95_low.unwrap(), r.ci95_high.unwrap());
    assert!(lo <= r.ratio && r.ratio <= hi, "{r:?}");
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
fn pooled_log_ratio_by_hand() {
    // Two sizes: B/A = 2 at the first, ≈ 1.04 at the second. By hand in Python: geometric
    // mean 1.439427, Welch df 7.98 → t(7) = 2.364624, CI [1.268457, 1.633442].
    let (a1, b1) = ([10.0, 11.0, 12.0], [20.0, 22.0, 24.0]);
    let (a2, b2) = ([5.0, 5.5, 6.0], [5.2, 5.6, 6.3]);
    let r = pooled_log_ratio(&[(&a1[..], &b1[..]), (&a2[..], &b2[..])]).unwrap();
    assert!(close(r.ratio, 1.439_427_052, 1e-8), "{r:?}");
    assert!(close(r.ci95_low.unwrap(), 1.268_456_951, 1e-8), "{r:?}");
    assert!(close(r.ci95_high.unwrap(), 1.633_441_512, 1e-8), "{r:?}");
    // One run on a side, or a value that is not positive: none.
    assert!(pooled_log_ratio(&[(&[1.0][..], &b1[..])]).is_none());
    assert!(pooled_log_ratio(&[(&[1.0, 0.0][..], &b1[..])]).is_none());
    assert!(pooled_log_ratio(&[]).is_none());
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

/// A uniform deviate in (0, 1) from the crate's tested generator (53 bits, never 0 or 1).
fn uniform(rng: &mut SplitMix64) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
}

/// A standard normal deviate (Box–Muller).
fn normal(rng: &mut SplitMix64) -> f64 {
    let (u1, u2) = (uniform(rng), uniform(rng));
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

fn exponential(rng: &mut SplitMix64) -> f64 {
    -uniform(rng).ln()
}

/// The fraction of `trials` draws whose interval `covers` the true value.
fn coverage(trials: usize, mut covers: impl FnMut() -> bool) -> f64 {
    (0..trials).filter(|_| covers()).count() as f64 / trials as f64
}

fn sorted(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(f64::total_cmp);
    v
}

#[test]
fn median_interval_covers_95_percent_of_known_medians() {
    // Exponential(1), n = 50: true median ln 2. The exact coverage of the order-statistic
    // interval at n = 50 is 1 − 2·P(Bin(50, ½) ≤ 17) = 0.967.
    let mut rng = SplitMix64::new(1);
    let cover = coverage(2000, || {
        let x = sorted((0..50).map(|_| exponential(&mut rng)).collect());
        let (lo, hi) = median_order_stat_ci(&x).unwrap();
        lo <= std::f64::consts::LN_2 && std::f64::consts::LN_2 <= hi
    });
    assert!(
        (0.95..=0.985).contains(&cover),
        "exponential coverage {cover}"
    );

    // Log-normal(μ = 3, σ = 1), n = 200: true median e³.
    let cover = coverage(2000, || {
        let x = sorted((0..200).map(|_| (3.0 + normal(&mut rng)).exp()).collect());
        let (lo, hi) = median_order_stat_ci(&x).unwrap();
        lo <= 3f64.exp() && 3f64.exp() <= hi
    });
    assert!(
        (0.94..=0.98).contains(&cover),
        "log-normal coverage {cover}"
    );
}

#[test]
fn mean_interval_covers_95_percent_with_few_runs() {
    // Five log-normal run means (σ = 0.5, a long tail): the log-scale t interval covers the
    // geometric mean e^μ (= the median run) 95% of the time.
    let mut rng = SplitMix64::new(2);
    let cover = coverage(4000, || {
        let runs: Vec<f64> = (0..5)
            .map(|_| (2.0 + 0.5 * normal(&mut rng)).exp())
            .collect();
        let (lo, hi) = mean_interval(&runs).unwrap();
        lo <= 2f64.exp() && 2f64.exp() <= hi
    });
    assert!((0.93..=0.97).contains(&cover), "coverage {cover}");
}

#[test]
fn every_interval_contains_its_statistic_and_stays_positive() {
    // Long-tailed positive samples (log-normal, σ up to 2, and run levels far apart), 1 to 7
    // runs of 1 to 60 repetitions: the mean lies in its interval, the median in its own, and
    // both lower bounds are > 0. (The Student-t interval fails this: the issue's
    // "125 ns [-63.8–450 ns]".)
    let mut rng = SplitMix64::new(3);
    for trial in 0..3000 {
        let runs = 1 + rng.below(7);
        let sigma = 0.1 + 2.0 * (rng.below(1000) as f64 / 1000.0);
        let per_run: Vec<Vec<f64>> = (0..runs)
            .map(|_| {
                let level = (2.0 * normal(&mut rng)).exp();
                let reps = 1 + rng.below(60);
                (0..reps)
                    .map(|_| level * (sigma * normal(&mut rng)).exp())
                    .collect()
            })
            .collect();
        let s = Summary::from_runs(&per_run).unwrap();
        if let (Some(lo), Some(hi)) = (s.ci95_low, s.ci95_high) {
            assert!(lo > 0.0, "trial {trial}: {s:?}");
            assert!(lo <= s.mean && s.mean <= hi, "trial {trial}: {s:?}");
        } else {
            assert_eq!(runs, 1);
        }
        if let Some((lo, hi)) = s.median_ci() {
            assert!(lo > 0.0, "trial {trial}: {s:?}");
            assert!(lo <= s.median && s.median <= hi, "trial {trial}: {s:?}");
            assert!(s.min <= lo && hi <= s.max, "trial {trial}: {s:?}");
        }
    }
    // The case: 4.02 µs median, run means 10.5–14.5 µs. The median's interval is its
    // own and holds it.
    // Three runs of nine repetitions near 4 µs and one of 40-80 µs each.
    let per_run: Vec<Vec<f64>> = (0..3)
        .map(|r| {
            let mut v: Vec<f64> = (0..9).map(|i| 3.96 + 0.01 * i as f64).collect();
            v.push(40.0 + 20.0 * r as f64);
            v
        })
        .collect();
    let s = Summary::from_runs(&per_run).unwrap();
    let (lo, hi) = s.median_ci().unwrap();
    assert!(
        s.ci95_low.unwrap() > 5.0,
        "the mean's interval is far away: {s:?}"
    );
    assert!(lo <= s.median && s.median <= hi && hi < 4.1, "{s:?}");
}

#[test]
fn mean_interval_with_non_positive_runs_is_student_t() {
    // A latency near zero with clock noise: the domain includes 0, so the plain t interval.
    let (m, t) = mean_ci95(&[-0.1, 0.2, 0.5]);
    let (lo, hi) = mean_interval(&[-0.1, 0.2, 0.5]).unwrap();
    let (tl, th) = t.unwrap();
    assert!(close(lo, tl, 1e-12) && close(hi, th, 1e-12) && lo < m);
    // A run mean of exactly 0 has no logarithm: the t interval too, finite.
    let (_, t) = mean_ci95(&[0.0, 0.2, 0.5]);
    assert_eq!(mean_interval(&[0.0, 0.2, 0.5]), t);
    assert_eq!(mean_interval(&[1.0]), None);
    assert_eq!(mean_interval(&[1.0, f64::INFINITY]), None);
}

/// Figure captions and the disagreement warnings name the metric in words.
#[test]
fn metrics_are_named_in_words() {
    use handoff_lab::stats::Metric;
    assert_eq!(
        [Metric::Read.name(), Metric::Latency.name()],
        ["read time", "latency"]
    );
}
