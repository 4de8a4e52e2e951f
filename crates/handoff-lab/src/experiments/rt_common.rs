//! What the runtime-queue experiments (queue, aggregation, channels, kneighbor, malloc,
//! private-vars, rma-channels) share: their report section, a point's deadline, the byte
//! patterns their messages carry, worker arguments, thread pinning and their statistics
//! helpers.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::bench::experiment::BenchError;

/// The report section of every runtime-queue experiment.
pub const SECTION: &str = "Runtime queues (Charm++, many-core)";

/// How long a point may take before its workers are declared stuck.
pub const POINT_DEADLINE: Duration = Duration::from_secs(60);

/// How long a worker may wait for its parent's queue segment to open.
pub fn open_deadline() -> handoff::sys::Deadline {
    handoff::sys::Deadline::after(Duration::from_secs(10))
}

/// Notes, when some of `threads` are more than the `cpus`, that those share CPUs: `why` says
/// what that costs.
pub fn note_oversubscribed(notes: &mut Vec<String>, threads: &[usize], cpus: usize, why: &str) {
    if threads.iter().any(|&t| t > cpus) {
        notes.push(format!(
            "thread counts above {cpus} share CPUs (oversubscribed): {why}"
        ));
    }
}

/// A fresh number for a run's segment names (unique in this process).
pub fn run_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Pins the calling thread to `cpu`, if any (best effort: a refused pin leaves it where
/// the scheduler puts it).
pub fn pin(cpu: impl Into<Option<usize>>) {
    if let Some(cpu) = cpu.into() {
        let _ = handoff::sys::pin_current_thread(cpu);
    }
}

/// Joins scoped threads in start order; one that panicked gives `Err(panicked())`.
pub fn join_all<T, E>(
    handles: Vec<std::thread::ScopedJoinHandle<'_, Result<T, E>>>,
    panicked: impl Fn() -> E,
) -> Vec<Result<T, E>> {
    handles
        .into_iter()
        .map(|h| h.join().unwrap_or_else(|_| Err(panicked())))
        .collect()
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
        BenchError::usage(
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
