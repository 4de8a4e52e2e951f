//! Whether the machine is oversubscribed right now — more runnable threads than online
//! CPUs — for reports ([`oversubscribed_now`]: `examples/wait_bench` prints it beside its
//! figures).
//!
//! The waits do not use it: they decide from their partners (the parent module's docs,
//! "Partners, not the machine"). The kernel's count of runnable threads (the fourth field of
//! `/proc/loadavg`, `R/T`: R running or waiting for a CPU right now, the reader included)
//! counts the job's own spinning waiters, so it said "crowded" for two spinning PEs as soon
//! as anything else woke up.

use std::sync::OnceLock;

/// Whether more threads are runnable than there are online CPUs right now (one reading,
/// for reports; false when either count is unknown).
pub fn oversubscribed_now() -> bool {
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
