//! Timestamps that two processes (and two CPUs) can compare, at nanosecond resolution.
//!
//! Workers record raw ticks with [`Clock::now`] (no syscall on the TSC path); one
//! [`Calibration`], made once in the parent, converts ticks to nanoseconds.
//!
//! The source is the time-stamp counter only where the kernel itself trusts it: the current
//! clocksource is `tsc` (Linux switches away from the TSC when it finds it unstable or not
//! synchronized between CPUs) and the CPU reports an invariant TSC (x86-64). Everywhere else
//! it is CLOCK_MONOTONIC through the vDSO, whose ticks already are nanoseconds. Both are
//! machine-wide, so raw ticks from different processes and CPUs compare directly.

use std::sync::OnceLock;
use std::time::Duration;

use handoff::sys::monotonic_ns;

/// Where the kernel names its current clocksource.
const CLOCKSOURCE_PATH: &str = "/sys/devices/system/clocksource/clocksource0/current_clocksource";

/// How long [`Clock::calibrate`] measures ticks against CLOCK_MONOTONIC.
const CALIBRATION_SPAN: Duration = Duration::from_millis(30);

/// Back-to-back reads whose median gap is the per-read cost.
const READ_COST_SAMPLES: usize = 10_001;

/// What a [`Clock`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClockSource {
    /// The invariant time-stamp counter (`rdtscp`, or `lfence; rdtsc`), x86-64 only.
    Tsc,
    /// CLOCK_MONOTONIC via the vDSO; one tick is one nanosecond.
    Monotonic,
}

impl ClockSource {
    /// A short lowercase name: `"tsc"` or `"monotonic"`.
    pub fn name(self) -> &'static str {
        match self {
            ClockSource::Tsc => "tsc",
            ClockSource::Monotonic => "monotonic",
        }
    }
}

impl std::fmt::Display for ClockSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How the TSC is read (x86-64).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TscRead {
    /// `rdtscp`: waits for earlier instructions before reading.
    Rdtscp,
    /// `lfence; rdtsc` on CPUs without `rdtscp`.
    LfenceRdtsc,
}

/// A clock that reads raw ticks. Cheap to copy; decide once with [`Clock::detect`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    source: ClockSource,
    tsc_read: TscRead,
}

/// Converts raw ticks of one [`Clock`] to nanoseconds. Plain data (all fields public), so the
/// lab can serialize it next to the raw ticks it converts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Calibration {
    /// The clock the ticks came from.
    pub source: ClockSource,
    /// Ticks per nanosecond (the TSC frequency in GHz; exactly 1.0 for CLOCK_MONOTONIC).
    pub ticks_per_ns: f64,
    /// Median cost of one read in nanoseconds, measured back to back.
    pub read_cost_ns: f64,
}

impl Calibration {
    /// Ticks as nanoseconds (for a duration already computed in ticks).
    #[inline]
    pub fn to_ns(&self, ticks: u64) -> f64 {
        ticks as f64 / self.ticks_per_ns
    }

    /// Nanoseconds from `t0` to `t1`, signed: when `t1` was read before `t0` (e.g. by
    /// another CPU) the result is negative, never clamped to zero.
    #[inline]
    pub fn delta_ns(&self, t0: u64, t1: u64) -> f64 {
        (t1.wrapping_sub(t0) as i64) as f64 / self.ticks_per_ns
    }
}

impl Clock {
    /// Chooses the source: the TSC when the kernel's clocksource is `tsc` and the CPU has an
    /// invariant TSC, otherwise CLOCK_MONOTONIC. Reads one sysfs file; call it once.
    pub fn detect() -> Clock {
        let kernel_uses_tsc = std::fs::read_to_string(CLOCKSOURCE_PATH)
            .map(|s| s.trim() == "tsc")
            .unwrap_or(false);
        match tsc::probe() {
            Some(read) if kernel_uses_tsc => Clock {
                source: ClockSource::Tsc,
                tsc_read: read,
            },
            _ => Clock::monotonic(),
        }
    }

    /// A CLOCK_MONOTONIC clock, whatever the machine has.
    pub fn monotonic() -> Clock {
        Clock {
            source: ClockSource::Monotonic,
            tsc_read: TscRead::Rdtscp,
        }
    }

    /// What this clock reads.
    pub fn source(&self) -> ClockSource {
        self.source
    }

    /// Raw ticks now. On the TSC, a single `rdtscp` (no syscall); otherwise CLOCK_MONOTONIC
    /// in nanoseconds. Convert with a [`Calibration`] of the same clock.
    #[inline]
    pub fn now(&self) -> u64 {
        match self.source {
            ClockSource::Tsc => tsc::read(self.tsc_read),
            ClockSource::Monotonic => monotonic_ns(),
        }
    }

    /// Measures ticks against CLOCK_MONOTONIC over about 30 ms (sleeping) and the per-read
    /// cost. For CLOCK_MONOTONIC, `ticks_per_ns` is exactly 1.
    pub fn calibrate(&self) -> Calibration {
        let ticks_per_ns = match self.source {
            ClockSource::Monotonic => 1.0,
            ClockSource::Tsc => {
                let (m0, t0) = self.paired_read();
                std::thread::sleep(CALIBRATION_SPAN);
                let (m1, t1) = self.paired_read();
                let ns = m1.saturating_sub(m0).max(1) as f64;
                (t1.wrapping_sub(t0) as f64 / ns).max(f64::MIN_POSITIVE)
            }
        };
        Calibration {
            source: self.source,
            ticks_per_ns,
            read_cost_ns: self.read_cost_ticks() / ticks_per_ns,
        }
    }

    /// A calibration made once per process and clock source, then reused (calibrating
    /// takes about 30 ms).
    pub fn calibration(&self) -> Calibration {
        static TSC: OnceLock<Calibration> = OnceLock::new();
        static MONO: OnceLock<Calibration> = OnceLock::new();
        let cell = match self.source {
            ClockSource::Tsc => &TSC,
            ClockSource::Monotonic => &MONO,
        };
        *cell.get_or_init(|| self.calibrate())
    }

    /// Signed nanoseconds from `t0` to `t1` (two reads of this clock), converted with the
    /// cached [`Clock::calibration`]. For ticks read in another process, convert with the
    /// [`Calibration`] made for them instead ([`Calibration::delta_ns`]).
    pub fn delta_ns(&self, t0: u64, t1: u64) -> f64 {
        self.calibration().delta_ns(t0, t1)
    }

    /// Median gap, in ticks, between back-to-back reads: the cost of one [`Clock::now`].
    pub fn read_cost_ticks(&self) -> f64 {
        let mut gaps = Vec::with_capacity(READ_COST_SAMPLES);
        let mut prev = self.now();
        for _ in 0..READ_COST_SAMPLES {
            let t = self.now();
            gaps.push(t.wrapping_sub(prev));
            prev = t;
        }
        gaps.sort_unstable();
        gaps[gaps.len() / 2] as f64
    }

    /// A (CLOCK_MONOTONIC ns, ticks) pair read as close together as we can: of a few tries,
    /// the one whose ticks were bracketed by the shortest pair of monotonic reads.
    fn paired_read(&self) -> (u64, u64) {
        let mut best = (u64::MAX, 0, 0);
        for _ in 0..16 {
            let a = monotonic_ns();
            let t = self.now();
            let b = monotonic_ns();
            let width = b.saturating_sub(a);
            if width < best.0 {
                best = (width, a + width / 2, t);
            }
        }
        (best.1, best.2)
    }
}

#[cfg(target_arch = "x86_64")]
mod tsc {
    use super::TscRead;
    use core::arch::x86_64::{__cpuid, __rdtscp, _mm_lfence, _rdtsc};

    /// CPUID.80000007H:EDX bit 8: invariant TSC (constant rate, runs in deep C-states).
    const INVARIANT_TSC_BIT: u32 = 1 << 8;
    /// CPUID.80000001H:EDX bit 27: RDTSCP.
    const RDTSCP_BIT: u32 = 1 << 27;

    /// How to read the TSC, or `None` when it is not invariant.
    pub fn probe() -> Option<TscRead> {
        let max_ext = __cpuid(0x8000_0000).eax;
        if max_ext < 0x8000_0007 || __cpuid(0x8000_0007).edx & INVARIANT_TSC_BIT == 0 {
            return None;
        }
        if __cpuid(0x8000_0001).edx & RDTSCP_BIT != 0 {
            Some(TscRead::Rdtscp)
        } else {
            Some(TscRead::LfenceRdtsc)
        }
    }

    #[inline]
    pub fn read(how: TscRead) -> u64 {
        match how {
            TscRead::Rdtscp => {
                let mut aux = 0u32;
                // SAFETY: a `Clock` with `TscRead::Rdtscp` exists only after `probe` saw the
                // RDTSCP CPUID bit; the intrinsic only writes the TSC_AUX value into `aux`.
                unsafe { __rdtscp(&mut aux) }
            }
            TscRead::LfenceRdtsc => {
                // SAFETY: lfence (SSE2, baseline on x86-64) and rdtsc (present on every
                // x86-64 CPU) have no memory effects beyond ordering.
                unsafe {
                    _mm_lfence();
                    _rdtsc()
                }
            }
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod tsc {
    use super::TscRead;

    pub fn probe() -> Option<TscRead> {
        None
    }

    #[inline]
    pub fn read(_how: TscRead) -> u64 {
        // Never chosen: `probe` returns `None`, so no `Clock` has the TSC source here.
        super::monotonic_ns()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;

    #[test]
    fn detect_matches_kernel_clocksource() {
        let clock = Clock::detect();
        let kernel = std::fs::read_to_string(CLOCKSOURCE_PATH).unwrap_or_default();
        if clock.source() == ClockSource::Tsc {
            assert_eq!(kernel.trim(), "tsc");
        }
        println!(
            "clock source {} (kernel: {})",
            clock.source(),
            kernel.trim()
        );
    }

    #[test]
    fn calibration_is_sane() {
        for clock in [Clock::detect(), Clock::monotonic()] {
            let cal = clock.calibrate();
            println!("{cal:?}");
            assert_eq!(cal.source, clock.source());
            assert!(cal.ticks_per_ns.is_finite() && cal.ticks_per_ns > 0.0);
            assert!(cal.read_cost_ns.is_finite() && cal.read_cost_ns >= 0.0);
            if clock.source() == ClockSource::Monotonic {
                assert_eq!(cal.ticks_per_ns, 1.0);
            }
            assert_eq!(clock.calibration().source, clock.source());
            let (t0, t1) = (clock.now(), clock.now());
            assert!(clock.delta_ns(t0, t1) >= 0.0);
            assert!(clock.delta_ns(t1, t0) <= 0.0);
        }
    }

    #[test]
    fn conversions_keep_sign() {
        let cal = Calibration {
            source: ClockSource::Tsc,
            ticks_per_ns: 2.0,
            read_cost_ns: 0.0,
        };
        assert_eq!(cal.to_ns(200), 100.0);
        assert_eq!(cal.delta_ns(100, 300), 100.0);
        assert_eq!(cal.delta_ns(300, 100), -100.0);
        assert_eq!(cal.delta_ns(u64::MAX, 1), 1.0); // wraps like the counter
    }

    #[test]
    fn now_is_monotonic_in_one_thread() {
        let clock = Clock::detect();
        let mut prev = clock.now();
        for _ in 0..10_000 {
            let t = clock.now();
            assert!(t >= prev);
            prev = t;
        }
    }

    /// Two threads (pinned to two CPUs when there are two) hand a timestamp back and forth;
    /// each reads its clock after seeing the other's and must never see time go back.
    #[test]
    fn monotonic_across_threads() {
        let clock = Clock::detect();
        let cpus = handoff::sys::allowed_cpus().unwrap();
        let line = Arc::new(AtomicU64::new(0));
        let stamps = Arc::new(AtomicU64::new(0));
        const ROUNDS: u64 = 2_000;
        let run = |me: u64, cpu: Option<usize>| {
            let (line, stamps) = (line.clone(), stamps.clone());
            std::thread::spawn(move || {
                if let Some(cpu) = cpu {
                    handoff::sys::pin_current_thread(cpu).unwrap();
                }
                let deadline = handoff::sys::Deadline::after(Duration::from_secs(20));
                for round in 0..ROUNDS {
                    let my_turn = 2 * round + me;
                    // Acquire pairs with the other thread's Release store of `my_turn`.
                    while line.load(Ordering::Acquire) != my_turn {
                        assert!(!deadline.expired(), "peer thread stalled");
                        std::thread::yield_now();
                    }
                    let t = clock.now();
                    let theirs = stamps.load(Ordering::Relaxed);
                    assert!(t >= theirs, "time went back by {} ticks", theirs - t);
                    stamps.store(t, Ordering::Relaxed);
                    // Release pairs with the other thread's Acquire load above.
                    line.store(my_turn + 1, Ordering::Release);
                }
            })
        };
        let (ca, cb) = match cpus.as_slice() {
            [a, b, ..] => (Some(*a), Some(*b)),
            _ => (None, None),
        };
        let a = run(0, ca);
        let b = run(1, cb);
        a.join().unwrap();
        b.join().unwrap();
    }
}
