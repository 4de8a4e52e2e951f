//! Intervals that stay in the domain of their statistic and contain it.
//!
//! - [`mean_interval`]: 95% interval of the mean of per-run means. For positive run means
//!   (times, rates) a Student-t interval on the log scale, `exp(ȳ ± t(0.975, k−1)·s_y/√k)` with
//!   `y = ln(run mean)`: it is always > 0 and, for log-normal run means, covers their
//!   geometric mean 95% of the time even with 2–5 runs. It is widened to include the
//!   arithmetic mean printed beside it when a lopsided sample would leave it outside. When
//!   some run mean is ≤ 0 (a latency near zero with clock noise), the plain Student-t interval
//!   (the quantity's domain then includes 0 and below).
//! - [`median_order_stat_ci`]: the distribution-free 95% interval of a median from order
//!   statistics: `[x₍ᵣ₎, x₍ₙ₊₁₋ᵣ₎]` with the largest `r` such that `P(Binomial(n, ½) ≤ r−1) ≤
//!   0.025`; it covers the true median with probability ≥ 95% for any continuous distribution
//!   of independent samples, and needs n ≥ 6.
//! - [`median_interval`]: the interval printed beside a record's median (pooled over runs).
//!   Runs, not repetitions, are the independent units, so it joins (smallest interval holding
//!   both) the order-statistic interval of the pooled repetitions and a run-level interval of
//!   the run medians: the order-statistic interval when there are ≥ 6 runs, else the range of
//!   the run medians, which covers the median run's level with probability `1 − 2^(1−k)`
//!   (75% with 3 runs, 88% with 4, 94% with 5): a distribution-free 95% interval needs 6
//!   runs. It always contains the pooled median and lies within the data.

use super::{mean, quantile_sorted, sample_sd, student_t_975};

/// 95% interval of the mean of `run_means` (see the module docs); `None` for fewer than 2
/// values or non-finite ones.
pub fn mean_interval(run_means: &[f64]) -> Option<(f64, f64)> {
    if run_means.len() < 2 || !run_means.iter().all(|v| v.is_finite()) {
        return None;
    }
    let m = mean(run_means);
    let t = student_t_975(run_means.len() as u64 - 1)?;
    let (lo, hi) = if run_means.iter().all(|&v| v > 0.0) {
        let logs: Vec<f64> = run_means.iter().map(|v| v.ln()).collect();
        let half = t * sample_sd(&logs)? / (logs.len() as f64).sqrt();
        let c = mean(&logs);
        ((c - half).exp(), (c + half).exp())
    } else {
        let half = t * sample_sd(run_means)? / (run_means.len() as f64).sqrt();
        (m - half, m + half)
    };
    Some((lo.min(m), hi.max(m)))
}

/// 0-based ranks `(lo, hi)` of the order-statistic 95% interval of a median of `n` samples;
/// `None` for n < 6 (no such interval reaches 95%).
pub fn median_ci_ranks(n: usize) -> Option<(usize, usize)> {
    if n < 6 {
        return None;
    }
    // Largest r (1-based) with P(Bin(n, 1/2) <= r - 1) <= 0.025.
    let r = if n > 20_000 {
        // Normal approximation with continuity correction: P(Bin <= k) ≈ Φ((k + ½ − n/2) / (√n/2)),
        // so r − 1 = ⌊n/2 − z·√n/2 − ½⌋ (equal to the exact rank at these n).
        let nf = n as f64;
        (nf / 2.0 - 1.959_963_985 * nf.sqrt() / 2.0 - 0.5).floor() as usize + 1
    } else {
        let mut log_pmf = -(n as f64) * std::f64::consts::LN_2; // P(Bin = 0)
        let mut cum = 0.0;
        let mut r = 0;
        for j in 0..n {
            cum += log_pmf.exp();
            if cum > 0.025 {
                break;
            }
            r = j + 1; // P(Bin <= j) <= 0.025, so r - 1 = j qualifies
            log_pmf += ((n - j) as f64 / (j + 1) as f64).ln();
        }
        r
    };
    (r >= 1).then(|| (r - 1, n - r))
}

/// The distribution-free 95% interval of the median of sorted samples (see the module docs).
pub fn median_order_stat_ci(sorted: &[f64]) -> Option<(f64, f64)> {
    median_ci_ranks(sorted.len()).map(|(lo, hi)| (sorted[lo], sorted[hi]))
}

/// The interval printed beside a record's pooled median (see the module docs). `runs_sorted`
/// holds each run's samples sorted; `pooled_sorted` all of them sorted.
pub fn median_interval(runs_sorted: &[Vec<f64>], pooled_sorted: &[f64]) -> Option<(f64, f64)> {
    let pooled = median_order_stat_ci(pooled_sorted);
    let mut run_medians: Vec<f64> = runs_sorted
        .iter()
        .filter(|r| !r.is_empty())
        .map(|r| quantile_sorted(r, 0.5))
        .collect();
    run_medians.sort_by(f64::total_cmp);
    let runs = match run_medians.len() {
        0 | 1 => None,
        k if k >= 6 => median_order_stat_ci(&run_medians),
        k => Some((run_medians[0], run_medians[k - 1])),
    };
    let median = quantile_sorted(pooled_sorted, 0.5);
    match (pooled, runs) {
        (None, None) => None,
        (a, b) => {
            let (lo, hi) = [a, b]
                .into_iter()
                .flatten()
                .fold((median, median), |(l, h), (x, y)| (l.min(x), h.max(y)));
            Some((lo, hi))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_by_hand() {
        // n = 6: P(Bin <= 0) = 1/64 = 0.016 → r = 1: [min, max], coverage 1 − 2/64.
        assert_eq!(median_ci_ranks(6), Some((0, 5)));
        assert_eq!(median_ci_ranks(5), None);
        // n = 10: P(<=0) = 1/1024, P(<=1) = 11/1024 = 0.0107, P(<=2) = 56/1024 = 0.0547 → r = 2.
        assert_eq!(median_ci_ranks(10), Some((1, 8)));
        // n = 100: the textbook ranks are 40 and 61 (1-based).
        assert_eq!(median_ci_ranks(100), Some((39, 60)));
        // Either side of the switch to the normal approximation, and far above it: the exact
        // binomial ranks (computed by hand in Python, summing the pmf in log space).
        assert_eq!(median_ci_ranks(20_000), Some((9860, 10139)));
        assert_eq!(median_ci_ranks(20_001), Some((9861, 10139)));
        assert_eq!(median_ci_ranks(40_000), Some((19803, 20196)));
        assert_eq!(median_ci_ranks(100_000), Some((49689, 50310)));
    }
}
