//! CPU usage of the calling thread (what a waiting consumer costs).

/// CPU time consumed by the calling thread, in nanoseconds (CLOCK_THREAD_CPUTIME_ID).
pub fn thread_cpu_ns() -> u64 {
    let ts = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

#[cfg(test)]
mod tests {
    #[test]
    fn cpu_time_advances_while_busy() {
        let t0 = super::thread_cpu_ns();
        let mut x = 0u64;
        while super::thread_cpu_ns() < t0 + 2_000_000 {
            x = std::hint::black_box(x + 1);
        }
        assert!(super::thread_cpu_ns() >= t0 + 2_000_000);
    }
}
