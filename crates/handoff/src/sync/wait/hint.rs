//! [`CpuHint`]: the CPU a primitive's last publisher ran on, which `Adaptive` compares
//! with its own (the parent module's docs, "The same-CPU trap").

use crate::atomic::AtomicU64;
#[cfg(not(loom))]
use crate::atomic::Ordering;

/// The CPU a primitive's last publisher ran on, so a waiter can tell when it would spin on
/// its peer's CPU (see [Waiting](crate::sync#waiting)).
///
/// A waiter's own publication says nothing about its peer, so the hint keeps the last two
/// publishers that were different threads, and a waiter reads the latest that is not itself:
/// two parties that both store to one flag and wait on it (a turn flag) each see the other's
/// CPU. With one slot, each saw its own CPU after its own store, took its peer for one on its
/// CPU and yielded on every poll (a one-flag ping-pong's default wait 2.3-6.8× a spinning
/// one, issue #23).
///
/// Two 32-bit slots in one word, the latest in the low half; a slot is the publisher's
/// thread tag (16 bits of its thread id) above its CPU + 1 (16 bits); an all-zero slot is
/// empty (all-zero: unknown). Written and read with Relaxed ordering: it is a hint, never
/// part of a synchronization protocol. Two threads whose tags collide (one pair in 65,536)
/// read each other's publications as their own: their waits then rely on the learned spin
/// budget and the crowding check alone, as with an unknown hint.
///
/// Recorded only where `sched_getcpu` is a cheap vDSO call (x86 and x86-64, ~1.5 ns); on
/// other architectures it would be a syscall per publish, so the hint stays unknown there
/// and `Adaptive` relies on its learned spin budget alone.
#[repr(transparent)]
#[derive(Debug)]
pub struct CpuHint(AtomicU64);

impl CpuHint {
    /// An unknown hint.
    pub fn new() -> Self {
        CpuHint(AtomicU64::new(0))
    }

    /// Records the calling thread's current CPU.
    #[inline]
    pub fn note(&self) {
        #[cfg(not(loom))]
        {
            let w = self.0.load(Ordering::Relaxed);
            let next = noted(w, slot(thread_tag(), current_cpu()));
            // A thread publishing again from the same CPU leaves the line clean.
            if next != w {
                self.0.store(next, Ordering::Relaxed);
            }
        }
    }

    /// The CPU of the latest recorded publisher other than the calling thread, if any.
    #[inline]
    pub fn get(&self) -> Option<u32> {
        #[cfg(not(loom))]
        {
            other_cpu(self.0.load(Ordering::Relaxed), thread_tag())
        }
        // Under loom the hint is inert: it would only add uninteresting interleavings.
        #[cfg(loom)]
        None
    }

    /// Records the calling thread's CPU and returns the one [`get`](Self::get) gave before
    /// (for primitives whose every party publishes, such as a barrier).
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

#[cfg_attr(loom, allow(dead_code))]
/// A slot: `tag` above `cpu + 1` (CPUs past 65,534 read as unknown).
#[inline]
fn slot(tag: u16, cpu: u32) -> u32 {
    let cpu1 = cpu.checked_add(1).filter(|&c| c <= 0xFFFF).unwrap_or(0);
    (u32::from(tag) << 16) | cpu1
}

#[cfg_attr(loom, allow(dead_code))]
/// The hint word `w` after the thread of slot `me` published: its slot replaced when it was
/// the latest publisher, else the latest moved to the older half.
#[inline]
fn noted(w: u64, me: u32) -> u64 {
    let latest = w as u32;
    if latest >> 16 == me >> 16 && latest != 0 {
        (w & !0xFFFF_FFFF) | u64::from(me)
    } else {
        (u64::from(latest) << 32) | u64::from(me)
    }
}

#[cfg_attr(loom, allow(dead_code))]
/// The CPU in the latest slot of `w` not tagged `tag`.
#[inline]
fn other_cpu(w: u64, tag: u16) -> Option<u32> {
    [w as u32, (w >> 32) as u32]
        .into_iter()
        .find(|&s| s != 0 && s >> 16 != u32::from(tag))
        .and_then(|s| (s & 0xFFFF).checked_sub(1))
}

#[cfg(not(loom))]
/// The calling thread's tag: 16 bits of its thread id (unique among the threads alive on
/// the machine, so among a shared primitive's parties in every process).
#[inline]
fn thread_tag() -> u16 {
    std::thread_local! {
        static TAG: u16 = {
            let tid = rustix::thread::gettid().as_raw_nonzero().get() as u32;
            (tid ^ (tid >> 16)) as u16
        };
    }
    TAG.with(|t| *t)
}

/// The calling thread's CPU as a u32.
#[inline]
pub(crate) fn current_cpu() -> u32 {
    crate::sys::affinity::current_cpu() as u32
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn each_party_reads_the_latest_other_publisher() {
        let (a, b, c) = (slot(7, 0), slot(9, 1), slot(11, 5));
        let mut w = 0;
        assert_eq!(other_cpu(w, 7), None, "unknown");
        w = noted(w, a);
        assert_eq!(other_cpu(w, 7), None, "only its own publication");
        assert_eq!(other_cpu(w, 9), Some(0));
        w = noted(w, b);
        // A turn flag: each sees the other after its own store.
        assert_eq!(other_cpu(w, 9), Some(0));
        assert_eq!(other_cpu(w, 7), Some(1));
        w = noted(w, a);
        assert_eq!(other_cpu(w, 7), Some(1));
        assert_eq!(other_cpu(w, 9), Some(0));
        // Publishing again keeps the older slot; a move to another CPU is recorded.
        let moved = slot(7, 3);
        assert_eq!(noted(w, a), w);
        w = noted(w, moved);
        assert_eq!(other_cpu(w, 9), Some(3));
        assert_eq!(other_cpu(w, 7), Some(1));
        // A third party: the latest other than the reader.
        w = noted(w, c);
        assert_eq!(other_cpu(w, 11), Some(3));
        assert_eq!(other_cpu(w, 7), Some(5));
        assert_eq!(other_cpu(w, 1), Some(5));
    }

    #[test]
    fn cpus_past_the_slot_read_as_unknown() {
        assert_eq!(other_cpu(noted(0, slot(1, 0xFFFE)), 2), Some(0xFFFE));
        assert_eq!(other_cpu(noted(0, slot(1, 0xFFFF)), 2), None);
        assert_eq!(other_cpu(noted(0, slot(1, u32::MAX)), 2), None);
    }
}
