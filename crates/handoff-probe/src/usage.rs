//! CPU usage of the calling thread (what a waiting consumer costs).

/// CPU time consumed by the calling thread, in nanoseconds (CLOCK_THREAD_CPUTIME_ID).
pub fn thread_cpu_ns() -> u64 {
    let ts = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

#[cfg(test)]
mod tests {
    /// Busy for up to 5 s of wall time (a watchdog, not a timing assert): the thread's CPU
    /// clock must have advanced by 2 ms by then. A clock that is stuck fails instead of
    /// hanging.
    #[test]
    fn cpu_time_advances_while_busy() {
        let t0 = super::thread_cpu_ns();
        let watchdog = std::time::Instant::now() + std::time::Duration::from_secs(5);
        let mut x = 0u64;
        let mut now = t0;
        while now < t0 + 2_000_000 && std::time::Instant::now() < watchdog {
            x = std::hint::black_box(x + 1);
            now = super::thread_cpu_ns();
        }
        assert!(
            now >= t0 + 2_000_000,
            "thread CPU clock advanced only {} ns in 5 s of busy work",
            now - t0
        );
        assert!(x > 0);
    }
}
