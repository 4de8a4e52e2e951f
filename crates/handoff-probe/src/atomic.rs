//! The probe's atomics facade (the same switch as the core's private one): std atomics
//! normally, loom's under `cfg(loom)` so the c2c floor's protocol can be model-checked.

#[cfg(all(test, not(loom)))]
pub(crate) use std::sync::atomic::AtomicU32;
#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A hint inside a spin loop (`pause` on x86); under loom, a yield so the model advances.
#[inline]
pub(crate) fn spin_hint() {
    #[cfg(not(loom))]
    std::hint::spin_loop();
    #[cfg(loom)]
    loom::thread::yield_now();
}

/// Gives up the CPU (sched_yield); under loom, a model yield.
#[inline]
pub(crate) fn yield_now() {
    #[cfg(not(loom))]
    std::thread::yield_now();
    #[cfg(loom)]
    loom::thread::yield_now();
}
