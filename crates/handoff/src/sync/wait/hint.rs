//! [`CpuHint`]: the CPU a primitive's last publisher ran on, which `Adaptive` compares
//! with its own (the parent module's docs, "The same-CPU trap").

use crate::atomic::AtomicU32;
#[cfg(not(loom))]
use crate::atomic::Ordering;

/// The CPU a primitive's last publisher ran on, so a waiter can tell when it would spin on
/// its peer's CPU (see [Waiting](crate::sync#waiting)).
///
/// Stored as CPU + 1; 0 (the all-zero state) means "unknown". Written and read with Relaxed
/// ordering: it is a hint, never part of a synchronization protocol.
///
/// Recorded only where `sched_getcpu` is a cheap vDSO call (x86 and x86-64, ~1.5 ns); on
/// other architectures it would be a syscall per publish, so the hint stays unknown there
/// and `Adaptive` relies on its learned spin budget alone.
#[repr(transparent)]
#[derive(Debug)]
pub struct CpuHint(AtomicU32);

impl CpuHint {
    /// An unknown hint.
    pub fn new() -> Self {
        CpuHint(AtomicU32::new(0))
    }

    /// Records the calling thread's current CPU.
    #[inline]
    pub fn note(&self) {
        #[cfg(not(loom))]
        self.0
            .store(current_cpu().wrapping_add(1), Ordering::Relaxed);
    }

    /// The recorded CPU, if any.
    #[inline]
    pub fn get(&self) -> Option<u32> {
        #[cfg(not(loom))]
        {
            self.0.load(Ordering::Relaxed).checked_sub(1)
        }
        // Under loom the hint is inert: it would only add uninteresting interleavings.
        #[cfg(loom)]
        None
    }

    /// Records the calling thread's CPU and returns the one recorded before (for primitives
    /// whose every party publishes, such as a barrier).
    #[inline]
    pub fn replace(&self) -> Option<u32> {
        let before = self.get();
        self.note();
        before
    }
}

impl Default for CpuHint {
    fn default() -> Self {
        CpuHint::new()
    }
}

/// The calling thread's CPU as a u32.
#[inline]
pub(crate) fn current_cpu() -> u32 {
    crate::sys::affinity::current_cpu() as u32
}
