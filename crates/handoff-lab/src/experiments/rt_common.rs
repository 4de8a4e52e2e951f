//! What the experiments' plans and run loops share (it starts no process: the launcher does):
//! named choices (`named_enum!`), their errors, a point's metric, cancellation
//! bookkeeping, statistics helpers, the runtime-queue experiments' byte patterns, worker
//! arguments, section and deadline.

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::bench::experiment::BenchError;
use crate::bench::{BenchResults, MetricRecord};

/// Defines a fieldless enum of named choices (an experiment's methods, modes, allocators):
/// `ALL` in report order, `name` (the name in series and flags), `parse`, and serde as the
/// name. Each variant is written `Variant = "name"`, with its doc comment.
macro_rules! named_enum {
    ($(#[$m:meta])* pub enum $E:ident { $($(#[$vm:meta])* $V:ident = $n:literal,)+ }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        pub enum $E {
            $($(#[$vm])* #[serde(rename = $n)] $V,)+
        }

        impl $E {
            /// Every choice, in report order.
            pub const ALL: [$E; [$($n),+].len()] = [$($E::$V),+];

            /// The name used in series and flags.
            pub fn name(self) -> &'static str {
                match self {
                    $($E::$V => $n,)+
                }
            }

            /// Parses a name.
            pub fn parse(s: &str) -> Option<$E> {
                $E::ALL.into_iter().find(|m| m.name() == s)
            }
        }

        impl $crate::experiments::rt_common::Named for $E {
            fn names() -> String {
                $E::ALL.map($E::name).join(", ")
            }
            fn from_name(s: &str) -> Option<$E> {
                $E::parse(s)
            }
        }
    };
}
pub(crate) use named_enum;

/// An enum of named choices (`named_enum!`), for flag parsers.
pub trait Named: Sized {
    /// Every name, in report order, joined by ", ".
    fn names() -> String;
    /// The choice named `s`.
    fn from_name(s: &str) -> Option<Self>;
}

/// The report section of every runtime-queue experiment.
pub const SECTION: &str = "Runtime queues (Charm++, many-core)";

/// How long a point may take before its workers are declared stuck.
pub const POINT_DEADLINE: Duration = Duration::from_secs(60);

/// A usage error of `experiment`.
pub fn usage(experiment: &'static str, message: impl Into<String>) -> BenchError {
    BenchError::Usage {
        experiment,
        message: message.into(),
    }
}

/// A failure of `experiment` while measuring.
pub fn failed(experiment: &'static str, message: impl std::fmt::Display) -> BenchError {
    BenchError::Failed {
        experiment,
        message: message.to_string(),
    }
}

/// [`MetricRecord::from_runs`] with the experiment's error.
pub fn metric(
    experiment: &'static str,
    unit: &str,
    higher_is_better: bool,
    per_run: &[Vec<f64>],
) -> Result<MetricRecord, BenchError> {
    MetricRecord::from_runs(unit, higher_is_better, per_run).map_err(|e| failed(experiment, e))
}

/// Reads `pipe` to its end on a thread of its own (so that no child blocks on a full pipe):
/// the first 64 MiB as text, far more than any worker prints; the rest is drained unread.
pub fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut p) = pipe {
            let _ = p.by_ref().take(64 << 20).read_to_string(&mut text);
            let _ = std::io::copy(&mut p, &mut std::io::sink());
        }
        text
    })
}

/// The run means of `metric` at point `x` of `series`, if it was measured (what findings
/// compare).
pub fn run_means(res: &BenchResults, series: &str, x: f64, metric: &str) -> Option<Vec<f64>> {
    let r = res.series(series).into_iter().find(|r| r.x == x)?;
    r.metrics.get(metric).map(|m| m.run_means.clone())
}

/// Tests: a record of `series` at `x` (3 runs, 1 iteration each, verified) whose `metric`
/// (in `unit`) has one sample per run, the given run means.
#[cfg(test)]
pub fn record_of_runs(
    series: impl Into<String>,
    x: f64,
    (metric, unit, higher_is_better): (&str, &str, bool),
    run_means: &[f64],
) -> crate::bench::BenchRecord {
    let runs: Vec<Vec<f64>> = run_means.iter().map(|&m| vec![m]).collect();
    let m = MetricRecord::from_runs(unit, higher_is_better, &runs).unwrap();
    crate::bench::BenchRecord::new(series, x, 3, 1, true).metric(metric, m)
}

/// When `cancel` is set, marks `res` partial (after its records of `total` points) and
/// returns true.
pub fn stopped(res: &mut BenchResults, cancel: &AtomicBool, total: usize) -> bool {
    if !cancel.load(Ordering::Relaxed) {
        return false;
    }
    let done = res.records.len();
    res.partial = true;
    res.stopped_early = Some(format!("interrupted after {done} of {total} points"));
    true
}

/// The `q`-quantile (0..=1) of sorted samples, nearest rank; 0 for none.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// 1, 2, 4, … doubling up to `max` (which is always included).
pub fn doubling_to(max: usize) -> Vec<usize> {
    let mut v = vec![1];
    while v[v.len() - 1] < max {
        let next = (v[v.len() - 1] * 2).min(max);
        v.push(next);
    }
    v
}

/// The byte at `i` of a message tagged `tag` (what senders write and receivers check).
#[inline]
pub fn pattern(tag: u64, i: usize) -> u8 {
    (tag as usize).wrapping_mul(31).wrapping_add(i) as u8
}

/// Fills `buf` with the pattern of `tag`.
pub fn fill(buf: &mut [u8], tag: u64) {
    for (i, b) in buf.iter_mut().enumerate() {
        *b = pattern(tag, i);
    }
}

/// Reads every byte of `buf` and checks it against the pattern of `tag`.
pub fn check(buf: &[u8], tag: u64) -> bool {
    buf.iter()
        .enumerate()
        .fold(true, |ok, (i, &b)| ok & (b == pattern(tag, i)))
}

/// Parses worker argument `i` as `T`.
pub fn arg<T: std::str::FromStr>(
    experiment: &'static str,
    args: &[String],
    i: usize,
) -> Result<T, BenchError> {
    args.get(i).and_then(|a| a.parse().ok()).ok_or_else(|| {
        usage(
            experiment,
            format!("worker argument {i} missing or malformed: {args:?}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_by_nearest_rank() {
        let s: Vec<f64> = (1..=1000).map(f64::from).collect();
        assert_eq!(quantile(&s, 0.5), 500.0);
        assert_eq!(quantile(&s, 0.99), 990.0);
        assert_eq!(quantile(&s, 0.999), 999.0);
        assert_eq!(quantile(&s, 1.0), 1000.0);
        assert_eq!(quantile(&[7.0], 0.999), 7.0);
        assert_eq!(quantile(&[], 0.5), 0.0);
    }

    #[test]
    fn doubling_ends_at_the_max() {
        assert_eq!(doubling_to(4), vec![1, 2, 4]);
        assert_eq!(doubling_to(6), vec![1, 2, 4, 6]);
        assert_eq!(doubling_to(1), vec![1]);
    }

    #[test]
    fn a_flipped_byte_fails_the_check() {
        let mut b = vec![0u8; 300];
        fill(&mut b, 9);
        assert!(check(&b, 9));
        assert!(!check(&b, 10));
        b[299] ^= 1;
        assert!(!check(&b, 9));
    }
}
