//! Whether the machine is oversubscribed — more runnable threads than online CPUs — so that
//! `Adaptive` waits yield their spin phase to the threads waiting for a CPU instead of
//! pausing (the parent module's docs, "Too many runnable threads").
//!
//! The kernel's count of runnable threads (the fourth field of `/proc/loadavg`, `R/T`: R
//! running or waiting for a CPU right now, the reader included) is sampled by a waiting
//! thread at most every [`REFRESH`], and the verdict cached for every thread of the process
//! (two Relaxed loads per wait). A snapshot, so a heuristic: a wrong verdict costs some
//! yields (about a µs each when nobody else wants the CPU) or some pauses, never correctness.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

/// How long a verdict is reused.
pub const REFRESH: Duration = Duration::from_millis(20);
const REFRESH_NS: u64 = REFRESH.as_nanos() as u64;

/// When the verdict was last sampled (monotonic ns; 0 = never).
static SAMPLED_AT: AtomicU64 = AtomicU64::new(0);
static OVER: AtomicBool = AtomicBool::new(false);

#[cfg(test)]
thread_local! {
    /// Tests: a fixed verdict for the calling thread.
    static FORCED: std::cell::Cell<Option<bool>> = const { std::cell::Cell::new(None) };
}

/// Tests: fixes the calling thread's verdict (`None`: sample again).
#[cfg(test)]
pub(crate) fn force(v: Option<bool>) {
    FORCED.with(|f| f.set(v));
}

/// Whether more threads are runnable than there are online CPUs (as sampled within the
/// last [`REFRESH`]); `now` is the caller's monotonic clock reading.
#[inline]
pub(crate) fn oversubscribed(now: u64) -> bool {
    #[cfg(test)]
    if let Some(v) = FORCED.with(std::cell::Cell::get) {
        return v;
    }
    let at = SAMPLED_AT.load(Ordering::Relaxed);
    if now.saturating_sub(at) >= REFRESH_NS
        && SAMPLED_AT
            .compare_exchange(at, now.max(1), Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    {
        // Relaxed: a stand-alone verdict, not ordering anything else.
        OVER.store(sample(), Ordering::Relaxed);
    }
    OVER.load(Ordering::Relaxed)
}

/// Whether more threads are runnable than there are online CPUs right now (a fresh
/// reading, for reports; the waits use a cached one).
pub fn oversubscribed_now() -> bool {
    sample()
}

/// One reading: runnable threads now against online CPUs (false when either is unknown).
#[cold]
fn sample() -> bool {
    match (runnable(), online()) {
        (Some(r), Some(n)) => r > n,
        _ => false,
    }
}

/// Online CPUs (read once).
fn online() -> Option<usize> {
    static N: OnceLock<Option<usize>> = OnceLock::new();
    *N.get_or_init(|| {
        crate::sys::affinity::online_cpus()
            .ok()
            .map(|c| c.len())
            .filter(|&n| n > 0)
    })
}

/// Runnable threads now: R of `/proc/loadavg`'s `R/T` field.
fn runnable() -> Option<usize> {
    use std::io::Read;
    let mut buf = [0u8; 128];
    let n = std::fs::File::open("/proc/loadavg")
        .and_then(|mut f| f.read(&mut buf))
        .ok()?;
    parse_runnable(std::str::from_utf8(&buf[..n]).ok()?)
}

/// `"0.19 1.37 2.34 3/250 4711"` → 3.
fn parse_runnable(text: &str) -> Option<usize> {
    let field = text.split_ascii_whitespace().nth(3)?;
    field.split_once('/')?.0.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_runnable_count() {
        assert_eq!(parse_runnable("0.19 1.37 2.34 3/250 4711\n"), Some(3));
        assert_eq!(parse_runnable("12.00 9.1 8.0 17/1024 1"), Some(17));
        assert_eq!(parse_runnable("0.1 0.2"), None);
        assert_eq!(parse_runnable("0.1 0.2 0.3 x/2 1"), None);
        // The real file parses, and counts at least the reader.
        assert!(runnable().is_some_and(|r| r >= 1));
    }
}
