//! Absolute deadlines on CLOCK_MONOTONIC, the clock futex waits use.

use std::time::Duration;

/// An absolute point in time on CLOCK_MONOTONIC, in nanoseconds since the clock's epoch.
///
/// The same clock in every process of the machine, so a deadline may be computed in one
/// process and honoured in another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Deadline {
    ns: u64,
}

/// Nanoseconds on CLOCK_MONOTONIC now.
#[inline]
pub fn monotonic_ns() -> u64 {
    let ts = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

impl Deadline {
    /// The deadline `timeout` from now.
    pub fn after(timeout: Duration) -> Self {
        let add = u64::try_from(timeout.as_nanos()).unwrap_or(u64::MAX);
        Deadline {
            ns: monotonic_ns().saturating_add(add),
        }
    }

    /// A deadline at an absolute CLOCK_MONOTONIC time in nanoseconds.
    pub fn at_ns(ns: u64) -> Self {
        Deadline { ns }
    }

    /// The absolute time in nanoseconds.
    pub fn as_ns(self) -> u64 {
        self.ns
    }

    /// Whether the deadline has passed.
    #[inline]
    pub fn expired(self) -> bool {
        monotonic_ns() >= self.ns
    }

    /// Time left until the deadline (zero once it passed).
    pub fn remaining(self) -> Duration {
        Duration::from_nanos(self.ns.saturating_sub(monotonic_ns()))
    }

    /// The earlier of `self` and `other`.
    pub fn min(self, other: Deadline) -> Deadline {
        if self.ns <= other.ns {
            self
        } else {
            other
        }
    }

    #[cfg_attr(loom, allow(dead_code))]
    pub(crate) fn as_timespec(self) -> rustix::time::Timespec {
        rustix::time::Timespec {
            tv_sec: (self.ns / 1_000_000_000) as _,
            tv_nsec: (self.ns % 1_000_000_000) as _,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn after_and_expiry() {
        let d = Deadline::after(Duration::from_secs(3600));
        assert!(!d.expired());
        assert!(d.remaining() > Duration::from_secs(3000));
        let past = Deadline::at_ns(0);
        assert!(past.expired());
        assert_eq!(past.remaining(), Duration::ZERO);
        assert_eq!(d.min(past), past);
    }

    #[test]
    fn huge_timeout_saturates() {
        let d = Deadline::after(Duration::MAX);
        assert_eq!(d.as_ns(), u64::MAX);
        let ts = d.as_timespec();
        assert!(ts.tv_sec > 0);
    }
}
