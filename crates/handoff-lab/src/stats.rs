//! Statistics of the lab: per-repetition samples → per-run means → a [`Summary`] with
//! intervals that stay in their statistic's domain ([`interval`]); bootstrapped confidence
//! intervals of ratios of means; run-to-run [`modes`]; and the run-to-run [`disagreement`]
//! check the report flags.
//!
//! # Definitions
//!
//! - **mean** and **CI**: over the per-run means `m_1..m_k` (each run is a fresh pair of
//!   threads or processes, so runs are the independent units); the CI is
//!   [`interval::mean_interval`] (Student-t on the log scale: always > 0 for positive data).
//!   No CI when `k = 1`. [`mean_ci95`] keeps the plain Student-t interval.
//! - **median CI**: [`interval::median_interval`], distribution-free.
//! - **median, min, max, p99**: over all repetitions of all runs pooled, computed *exactly*
//!   from the sorted samples (no histogram bucketing, so no precision loss; a run of the lab
//!   holds at most a few hundred thousand samples, which sort in milliseconds). Quantiles use
//!   linear interpolation between closest ranks (Hyndman–Fan type 7, numpy's default):
//!   `q(p) = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋])` with `h = (n − 1)·p`, 0-based.
//! - **ratio of means** B/A: `mean(B run means) / mean(A run means)`, with Welch's t interval
//!   on the log scale of the run means ([`ratio_of_means`]); when some run mean is ≤ 0, a
//!   percentile bootstrap CI instead: [`BOOTSTRAP_RESAMPLES`] resamples, each drawing A's and
//!   B's runs with replacement independently, from a fixed-seed splitmix64 generator (so the
//!   same inputs always give the same interval). No CI when either side has fewer than 2
//!   runs.

/// The statistics of one metric of one record.
///
/// `mean` and its confidence interval are over the per-run means (Student-t on the log scale,
/// df = runs - 1, so > 0 for times; `None` when there is one run; files written before that
/// change hold a plain Student-t interval); `median`, `min`, `max` and `p99` are over all
/// repetitions of all runs pooled, the median with its own distribution-free interval. See
/// [`crate::stats`] and [`crate::stats::interval`].
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct Summary {
    /// Mean of the per-run means.
    pub mean: f64,
    /// Lower bound of the 95% confidence interval of the mean.
    pub ci95_low: Option<f64>,
    /// Upper bound of the 95% confidence interval of the mean.
    pub ci95_high: Option<f64>,
    /// Median of all repetitions.
    pub median: f64,
    /// Smallest repetition.
    pub min: f64,
    /// Largest repetition.
    pub max: f64,
    /// 99th percentile of all repetitions.
    pub p99: f64,
    /// Lower bound of the 95% interval of the median ([`crate::stats::interval::median_interval`];
    /// `None` in older files or with too few samples).
    #[serde(default)]
    pub median_ci95_low: Option<f64>,
    /// Upper bound of the 95% interval of the median.
    #[serde(default)]
    pub median_ci95_high: Option<f64>,
}

pub mod interval;
pub mod modes;

pub use modes::{run_modes, RunModes};

/// Number of bootstrap resamples of [`ratio_of_means`].
pub const BOOTSTRAP_RESAMPLES: usize = 2000;
/// Seed of the bootstrap generator (fixed: results are reproducible).
pub const BOOTSTRAP_SEED: u64 = 0x68616e646f666621; // "handoff!"

/// Relative spread of run means, (max − min) / |median of run means|, below which runs are
/// never flagged as disagreeing (differences under 10% are not worth a reader's attention).
pub const DISAGREEMENT_MIN_SPREAD: f64 = 0.10;
/// Relative spread above which runs are flagged when no per-run interquartile ranges were
/// recorded.
pub const DISAGREEMENT_SPREAD_WITHOUT_IQR: f64 = 0.25;

/// Bad input to the statistics.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StatsError {
    /// There were no runs at all.
    #[error("no runs to summarize: measure at least one run")]
    NoRuns,
    /// A run had no samples (its mean is undefined).
    #[error("run {run} has no samples: every run needs at least one repetition")]
    EmptyRun {
        /// Index of the run (0-based).
        run: usize,
    },
    /// A sample is NaN or infinite.
    #[error("sample {index} of run {run} is not a finite number ({value})")]
    NonFinite {
        /// Index of the run (0-based).
        run: usize,
        /// Index of the sample in the run (0-based).
        index: usize,
        /// The value.
        value: f64,
    },
}

impl Summary {
    /// Summarizes one metric from its samples, one `Vec` per run (see the module docs).
    pub fn from_runs(per_run_samples: &[Vec<f64>]) -> Result<Summary, StatsError> {
        if per_run_samples.is_empty() {
            return Err(StatsError::NoRuns);
        }
        let mut run_means = Vec::with_capacity(per_run_samples.len());
        let mut runs_sorted = Vec::with_capacity(per_run_samples.len());
        let mut pooled = Vec::with_capacity(per_run_samples.iter().map(Vec::len).sum());
        for (run, samples) in per_run_samples.iter().enumerate() {
            if samples.is_empty() {
                return Err(StatsError::EmptyRun { run });
            }
            if let Some((index, &value)) = samples.iter().enumerate().find(|(_, v)| !v.is_finite())
            {
                return Err(StatsError::NonFinite { run, index, value });
            }
            run_means.push(mean(samples));
            pooled.extend_from_slice(samples);
            runs_sorted.push(sorted(samples));
        }
        pooled.sort_by(f64::total_cmp);
        let ci = interval::mean_interval(&run_means);
        let median_ci = interval::median_interval(&runs_sorted, &pooled);
        Ok(Summary {
            mean: mean(&run_means),
            ci95_low: ci.map(|c| c.0),
            ci95_high: ci.map(|c| c.1),
            median: quantile_sorted(&pooled, 0.5),
            min: pooled[0],
            max: pooled[pooled.len() - 1],
            p99: quantile_sorted(&pooled, 0.99),
            median_ci95_low: median_ci.map(|c| c.0),
            median_ci95_high: median_ci.map(|c| c.1),
        })
    }

    /// The interval of the median, when recorded.
    pub fn median_ci(&self) -> Option<(f64, f64)> {
        self.median_ci95_low.zip(self.median_ci95_high)
    }
}

/// Arithmetic mean; 0 for an empty slice.
pub fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// The distinct values of `xs`, ascending.
pub fn distinct<T: Ord>(xs: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut v: Vec<T> = xs.into_iter().collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The distinct values of `xs`, in first-appearance order.
pub fn first_seen<T: PartialEq>(xs: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut v = Vec::new();
    for x in xs {
        if !v.contains(&x) {
            v.push(x);
        }
    }
    v
}

/// Sample standard deviation (n − 1 in the denominator); `None` for fewer than 2 values.
pub fn sample_sd(xs: &[f64]) -> Option<f64> {
    if xs.len() < 2 {
        return None;
    }
    let m = mean(xs);
    let ss: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
    Some((ss / (xs.len() - 1) as f64).sqrt())
}

/// Mean of `values` and its Student-t 95% confidence interval (`None` for fewer than 2
/// values).
pub fn mean_ci95(values: &[f64]) -> (f64, Option<(f64, f64)>) {
    let m = mean(values);
    let ci = sample_sd(values).and_then(|sd| {
        let t = student_t_975(values.len() as u64 - 1)?;
        let half = t * sd / (values.len() as f64).sqrt();
        Some((m - half, m + half))
    });
    (m, ci)
}

/// Two-sided 95% quantiles t(0.975, df) of Student's t, df = 1..=30.
const T_975: [f64; 30] = [
    12.706_204_736,
    4.302_652_730,
    3.182_446_305,
    2.776_445_105,
    2.570_581_836,
    2.446_911_851,
    2.364_624_252,
    2.306_004_135,
    2.262_157_163,
    2.228_138_852,
    2.200_985_160,
    2.178_812_830,
    2.160_368_656,
    2.144_786_688,
    2.131_449_546,
    2.119_905_299,
    2.109_815_578,
    2.100_922_040,
    2.093_024_054,
    2.085_963_447,
    2.079_613_845,
    2.073_873_068,
    2.068_657_610,
    2.063_898_562,
    2.059_538_553,
    2.055_529_439,
    2.051_830_516,
    2.048_407_142,
    2.045_229_642,
    2.042_272_456,
];

/// The 0.975 quantile of Student's t with `df` degrees of freedom (the factor of a two-sided
/// 95% confidence interval); `None` for `df = 0`.
///
/// Exact table values (9 decimals) for df ≤ 30; above, the Cornish–Fisher expansion in 1/df
/// (Abramowitz & Stegun 26.7.5, four terms), accurate to better than 1e-6 there.
pub fn student_t_975(df: u64) -> Option<f64> {
    match df {
        0 => None,
        1..=30 => Some(T_975[df as usize - 1]),
        _ => {
            let z = 1.959_963_984_540_054_f64; // Φ⁻¹(0.975)
            let v = df as f64;
            let z2 = z * z;
            let z3 = z2 * z;
            let z5 = z3 * z2;
            let z7 = z5 * z2;
            let z9 = z7 * z2;
            let g1 = (z3 + z) / 4.0;
            let g2 = (5.0 * z5 + 16.0 * z3 + 3.0 * z) / 96.0;
            let g3 = (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / 384.0;
            let g4 = (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z) / 92160.0;
            Some(z + g1 / v + g2 / (v * v) + g3 / (v * v * v) + g4 / (v * v * v * v))
        }
    }
}

/// Quantile `p` (0..=1) of sorted values by linear interpolation (type 7); 0 when empty.
pub fn quantile_sorted(sorted: &[f64], p: f64) -> f64 {
    match sorted.len() {
        0 => 0.0,
        1 => sorted[0],
        n => {
            let h = (n - 1) as f64 * p.clamp(0.0, 1.0);
            let lo = h.floor() as usize;
            let hi = (lo + 1).min(n - 1);
            sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
        }
    }
}

/// A sorted copy of `xs`.
fn sorted(xs: &[f64]) -> Vec<f64> {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

/// Interquartile range [p25, p75] of (unsorted) samples; `None` when empty.
pub fn iqr(samples: &[f64]) -> Option<[f64; 2]> {
    let s = (!samples.is_empty()).then(|| sorted(samples))?;
    Some([quantile_sorted(&s, 0.25), quantile_sorted(&s, 0.75)])
}

/// Median of (unsorted) samples; `None` when empty.
pub fn median(samples: &[f64]) -> Option<f64> {
    (!samples.is_empty()).then(|| quantile_sorted(&sorted(samples), 0.5))
}

/// A small, fast, well-mixed 64-bit generator (Steele, Lea & Flood's SplitMix64): enough for
/// bootstrap index draws, deterministic for a given seed.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform index in `0..n` (`n > 0`; Lemire's multiply-shift, bias < n / 2⁶⁴).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// A ratio of means B/A with its bootstrapped 95% confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Ratio {
    /// mean(B) / mean(A).
    pub ratio: f64,
    /// Lower bound of the bootstrap 95% CI (`None` with fewer than 2 runs on a side).
    pub ci95_low: Option<f64>,
    /// Upper bound of the bootstrap 95% CI.
    pub ci95_high: Option<f64>,
}

impl Ratio {
    /// True when the CI exists and contains 1 (no measurable difference).
    pub fn ci_contains_one(&self) -> bool {
        matches!((self.ci95_low, self.ci95_high), (Some(l), Some(h)) if l <= 1.0 && 1.0 <= h)
    }
}

/// Ratio of means B/A over per-run means with a 95% CI (see the module docs). `None` when a
/// side is empty, a value is not finite, or mean(A) is not positive.
///
/// When every run mean is positive (times), the CI is Welch's t interval on the log scale:
/// `exp(d ± t(0.975, ν)·se)` with `d = mean(ln b) − mean(ln a)`,
/// `se² = s²(ln a)/n_a + s²(ln b)/n_b` and Welch–Satterthwaite ν (rounded down), widened to
/// include the ratio of means if needed. It stays > 0 and, unlike a percentile bootstrap over
/// 3–5 runs (which covers far less than 95%), accounts for how little a handful of runs
/// tells. Otherwise (a run mean ≤ 0): the percentile bootstrap below.
pub fn ratio_of_means(a_run_means: &[f64], b_run_means: &[f64]) -> Option<Ratio> {
    if a_run_means.is_empty()
        || b_run_means.is_empty()
        || !a_run_means.iter().chain(b_run_means).all(|v| v.is_finite())
    {
        return None;
    }
    let ma = mean(a_run_means);
    if ma <= 0.0 {
        return None;
    }
    let ratio = mean(b_run_means) / ma;
    let no_interval = Ratio {
        ratio,
        ci95_low: None,
        ci95_high: None,
    };
    if a_run_means.len() < 2 || b_run_means.len() < 2 {
        return Some(no_interval);
    }
    if a_run_means.iter().chain(b_run_means).all(|&v| v > 0.0) {
        // Welch's interval of one pair (exp(d) is the ratio of geometric means), widened to
        // contain the ratio of means.
        let w = pooled_log_ratio(&[(a_run_means, b_run_means)])?;
        return Some(Ratio {
            ratio,
            ci95_low: w.ci95_low.map(|l| l.min(ratio)),
            ci95_high: w.ci95_high.map(|h| h.max(ratio)),
        });
    }
    let mut rng = SplitMix64::new(BOOTSTRAP_SEED);
    // The mean of `v`'s values drawn with replacement.
    let mut resampled = |v: &[f64]| {
        let sum: f64 = (0..v.len()).map(|_| v[rng.below(v.len())]).sum();
        sum / v.len() as f64
    };
    let mut ratios = Vec::with_capacity(BOOTSTRAP_RESAMPLES);
    for _ in 0..BOOTSTRAP_RESAMPLES {
        let (ma, mb) = (resampled(a_run_means), resampled(b_run_means));
        if ma > 0.0 {
            ratios.push(mb / ma);
        }
    }
    if ratios.is_empty() {
        return Some(no_interval);
    }
    ratios.sort_by(f64::total_cmp);
    Some(Ratio {
        ratio,
        ci95_low: Some(quantile_sorted(&ratios, 0.025)),
        ci95_high: Some(quantile_sorted(&ratios, 0.975)),
    })
}

/// The geometric mean over several (A, B) pairs of run means (e.g. one pair per block size)
/// of the ratio B/A, with Welch's 95% t interval on the log scale:
/// `D = mean_s(mean(ln b_s) − mean(ln a_s))`, `se² = Σ_s (s²(ln a_s)/n_a + s²(ln b_s)/n_b) / S²`,
/// Welch–Satterthwaite degrees of freedom over every term (rounded down). One test over all
/// pairs, not one per pair, so a handful of sizes does not multiply the chances of a chance
/// "difference". `None` when a pair has fewer than 2 runs on a side or a value is not
/// positive and finite.
pub fn pooled_log_ratio(pairs: &[(&[f64], &[f64])]) -> Option<Ratio> {
    if pairs.is_empty() {
        return None;
    }
    let (mut d, mut v, mut df_den) = (0.0, 0.0, 0.0);
    for (a, b) in pairs {
        if a.len() < 2
            || b.len() < 2
            || !a.iter().chain(b.iter()).all(|x| x.is_finite() && *x > 0.0)
        {
            return None;
        }
        let la: Vec<f64> = a.iter().map(|x| x.ln()).collect();
        let lb: Vec<f64> = b.iter().map(|x| x.ln()).collect();
        let va = sample_sd(&la)?.powi(2) / la.len() as f64;
        let vb = sample_sd(&lb)?.powi(2) / lb.len() as f64;
        d += mean(&lb) - mean(&la);
        v += va + vb;
        df_den += va * va / (la.len() - 1) as f64 + vb * vb / (lb.len() - 1) as f64;
    }
    let n = pairs.len() as f64;
    let (d, se) = (d / n, v.sqrt() / n);
    let half = if df_den > 0.0 {
        student_t_975((((v * v / df_den) + 1e-9).floor() as u64).max(1))? * se
    } else {
        0.0
    };
    Some(Ratio {
        ratio: d.exp(),
        ci95_low: Some((d - half).exp()),
        ci95_high: Some((d + half).exp()),
    })
}

/// How a [`Disagreement`] was established.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisagreementBasis {
    /// Some run's mean lies outside the interquartile range of every other run and its own
    /// interquartile range overlaps no other run's, and the run means spread by more than
    /// [`DISAGREEMENT_MIN_SPREAD`].
    Iqr,
    /// No interquartile ranges were recorded; the run means spread by more than
    /// [`DISAGREEMENT_SPREAD_WITHOUT_IQR`].
    Spread,
}

/// Runs of one metric of one record that disagree with each other.
#[derive(Debug, Clone, PartialEq)]
pub struct Disagreement {
    /// The per-run means.
    pub run_means: Vec<f64>,
    /// Runs (0-based) that stand apart: mean outside every other run's interquartile range,
    /// and interquartile range disjoint from every other run's (empty for
    /// [`DisagreementBasis::Spread`]).
    pub outside: Vec<usize>,
    /// (max − min) / |median| of the run means.
    pub relative_spread: f64,
    /// How it was established.
    pub basis: DisagreementBasis,
}

/// Whether runs disagree: the report flags this instead of averaging it away.
///
/// With interquartile ranges (`iqrs`, one per run): run *i* *stands apart* when, for
/// **every** other run *j*, its mean falls outside `[p25_j, p75_j]` **and** its own
/// interquartile range does not overlap run *j*'s. The runs disagree when at least one run
/// stands apart **and** the relative spread of the run means, (max − min) / |median|, exceeds
/// [`DISAGREEMENT_MIN_SPREAD`] (10%). Requiring disjoint interquartile ranges flags runs
/// whose whole distribution moved (another frequency, page placement, a noisy neighbour),
/// not a run whose mean a few outliers pulled up. Without interquartile ranges they disagree when
/// the relative spread exceeds [`DISAGREEMENT_SPREAD_WITHOUT_IQR`] (25%). Fewer than 2 runs
/// never disagree.
pub fn disagreement(run_means: &[f64], iqrs: Option<&[[f64; 2]]>) -> Option<Disagreement> {
    if run_means.len() < 2 || !run_means.iter().all(|m| m.is_finite()) {
        return None;
    }
    let sorted = sorted(run_means);
    let median = quantile_sorted(&sorted, 0.5);
    let spread = sorted[sorted.len() - 1] - sorted[0];
    let relative_spread = if median.abs() > 0.0 {
        spread / median.abs()
    } else if spread > 0.0 {
        f64::INFINITY
    } else {
        0.0
    };
    let (outside, basis) = match iqrs {
        Some(iqrs) if iqrs.len() == run_means.len() => {
            let outside: Vec<usize> = (0..run_means.len())
                .filter(|&i| {
                    (0..run_means.len()).filter(|&j| j != i).all(|j| {
                        let [lo, hi] = iqrs[j];
                        let [my_lo, my_hi] = iqrs[i];
                        (run_means[i] < lo || run_means[i] > hi) && (my_hi < lo || my_lo > hi)
                    })
                })
                .collect();
            let apart = relative_spread > DISAGREEMENT_MIN_SPREAD && !outside.is_empty();
            apart.then_some((outside, DisagreementBasis::Iqr))?
        }
        _ => (relative_spread > DISAGREEMENT_SPREAD_WITHOUT_IQR)
            .then_some((Vec::new(), DisagreementBasis::Spread))?,
    };
    Some(Disagreement {
        run_means: run_means.to_vec(),
        outside,
        relative_spread,
        basis,
    })
}

/// The metrics of a record the disagreement check looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Read time.
    Read,
    /// Latency.
    Latency,
}

impl Metric {
    /// "read time" or "latency".
    pub fn name(self) -> &'static str {
        match self {
            Metric::Read => "read time",
            Metric::Latency => "latency",
        }
    }
}
