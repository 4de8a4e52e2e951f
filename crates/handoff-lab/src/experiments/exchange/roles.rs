//! The producer and consumer loops of the lock-step protocol, shared by every mode.
//!
//! Per repetition: the producer waits for *free*, fills the block, (flushes it), stamps
//! `t_done`, then notifies *full*; the consumer waits for *full*, stamps `t_start`, sums the
//! block, checks the sum, then notifies *free*. `t_done` is taken before the notification, so
//! the cost of waking the consumer counts as latency, as in the paper.
//!
//! The fill value alternates between 1 (even repetitions) and 2 (odd ones): the paper's
//! all-ones block cannot tell a consumer that reads the previous block from one that reads
//! the current one; ours can, at no cost.

use crate::kernels::Kernel;
use handoff_probe::clock::Clock;
use std::sync::atomic::{AtomicU64, Ordering};

/// The value every element holds in repetition `rep`.
#[inline]
pub fn fill_value(rep: u32) -> i32 {
    1 + (rep & 1) as i32
}

/// The sum a consumer must find in repetition `rep` for `elems` elements.
#[inline]
pub fn expected_sum(rep: u32, elems: usize) -> i64 {
    fill_value(rep) as i64 * elems as i64
}

/// Writes `value` to every element (the producer's work), with `kernel`.
#[inline(never)]
pub fn fill(kernel: Kernel, block: &mut [i32], value: i32) {
    kernel.fill(block, value);
    // The fill is done when its stores are visible: drain the store buffer here, so the
    // drain counts as write time and the latency measures only the notification.
    std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
}

/// Sums the block (the consumer's work), with `kernel`: exact for any block.
#[inline(never)]
pub fn sum(kernel: Kernel, block: &[i32]) -> i64 {
    kernel.sum(block)
}

/// The consumer's check of repetition `rep`: `Ok` when the sum is the one the producer's fill
/// implies, else the message the CLI prints.
pub fn check_sum(rep: u32, got: i64, elems: usize) -> Result<(), String> {
    let want = expected_sum(rep, elems);
    if got == want {
        Ok(())
    } else {
        Err(format!(
            "verification failed in repetition {rep}: the consumer summed {got}, expected {want} \
             (the block was stale: read before it was complete, or read twice)"
        ))
    }
}

/// The two notifications of the lock-step protocol, as each party sees them.
pub trait LockStep {
    /// Producer: wait until block `rep - 1` was released (rep 0 proceeds at once).
    fn wait_free(&mut self, rep: u32) -> Result<(), String>;
    /// Producer: block `rep` is full.
    fn notify_full(&mut self, rep: u32) -> Result<(), String>;
    /// Consumer: wait until block `rep` is full.
    fn wait_full(&mut self, rep: u32) -> Result<(), String>;
    /// Consumer: block `rep` was read and may be overwritten.
    fn notify_free(&mut self, rep: u32) -> Result<(), String>;
}

/// Where the parties record raw clock ticks, one slot per repetition (warm-up included).
///
/// Slots are written with relaxed stores by one party and read by the parent only after that
/// party has been joined (threads) or has exited (processes), which orders them.
pub struct SampleSlots<'a> {
    /// Fill time, ticks.
    pub write: &'a [AtomicU64],
    /// Flush time, ticks (0 without flushing).
    pub flush: &'a [AtomicU64],
    /// `t_done`, raw ticks.
    pub done: &'a [AtomicU64],
    /// `t_start`, raw ticks.
    pub start: &'a [AtomicU64],
    /// Sum time, ticks.
    pub read: &'a [AtomicU64],
    /// Consumer: thread CPU ns and wall ns over the measured repetitions.
    pub consumer_usage: &'a [AtomicU64],
    /// Consumer: how many repetitions (from the first) passed [`check_sum`].
    pub verified_reps: &'a AtomicU64,
}

/// Measures the consumer's CPU time against wall time over the measured repetitions.
#[derive(Clone, Copy)]
pub struct UsageMeter {
    cpu_ns: u64,
    wall_ticks: u64,
}

impl UsageMeter {
    /// Starts measuring on the calling thread.
    pub fn start(clock: &Clock) -> Self {
        UsageMeter {
            cpu_ns: handoff_probe::usage::thread_cpu_ns(),
            wall_ticks: clock.now(),
        }
    }

    /// Stores the thread CPU ns and wall ticks since `start` in the slots.
    pub fn record(self, clock: &Clock, slots: &SampleSlots<'_>) {
        let cpu = handoff_probe::usage::thread_cpu_ns().saturating_sub(self.cpu_ns);
        let wall = clock.now().wrapping_sub(self.wall_ticks);
        slots.consumer_usage[0].store(cpu, Ordering::Relaxed);
        slots.consumer_usage[1].store(wall, Ordering::Relaxed);
    }
}

/// The block in shared memory, as a raw pointer: producer and consumer never hold references
/// to it at the same time; each makes a slice only inside its phase of the protocol.
#[derive(Clone, Copy)]
pub struct BlockPtr {
    ptr: *mut i32,
    len: usize,
}

// SAFETY: a BlockPtr is only dereferenced inside a party's phase of the lock-step protocol,
// which the flags order (see the module docs), so sending it to another thread is sound.
unsafe impl Send for BlockPtr {}
// SAFETY: as for Send: sharing the pointer is harmless, dereferencing is protocol-guarded.
unsafe impl Sync for BlockPtr {}

impl BlockPtr {
    /// # Safety
    /// `ptr` must be valid for reads and writes of `len` i32s, aligned, for as long as the
    /// BlockPtr is used, and only accessed through the lock-step protocol.
    pub unsafe fn new(ptr: *mut i32, len: usize) -> Self {
        BlockPtr { ptr, len }
    }

    /// Elements in the block.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the block is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The block as a mutable slice, for the producer's phase.
    ///
    /// # Safety
    /// The caller holds the producer's turn: the consumer released the block (Acquire on
    /// *free*) and nobody else references it until *full* is published.
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn producer_slice(&self) -> &mut [i32] {
        // SAFETY: validity from `new`; exclusivity from the caller's turn.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }

    /// The block as a shared slice, for the consumer's phase.
    ///
    /// # Safety
    /// The caller holds the consumer's turn: the producer published *full* (Acquire) and does
    /// not write until *free* is published.
    pub unsafe fn consumer_slice(&self) -> &[i32] {
        // SAFETY: validity from `new`; no writer during the caller's turn.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

/// Producer side of one run.
pub struct Producer<'a> {
    /// The block, in shared memory.
    pub block: BlockPtr,
    /// The shared clock.
    pub clock: &'a Clock,
    /// Flush the block after filling it.
    pub flush: bool,
    /// Sleep this long before each fill (a slow producer), microseconds.
    pub delay_us: u64,
    /// The fill kernel.
    pub kernel: Kernel,
    /// Test fault (see [`super::fault`]).
    pub fault: Option<super::fault::Fault>,
}

impl Producer<'_> {
    /// Runs `reps` repetitions.
    pub fn run(&mut self, sync: &mut dyn LockStep, slots: &SampleSlots<'_>) -> Result<(), String> {
        for rep in 0..slots.write.len() as u32 {
            sync.wait_free(rep)?;
            if self.delay_us > 0 {
                std::thread::sleep(std::time::Duration::from_micros(self.delay_us));
            }
            // SAFETY: `wait_free` returned, so it is the producer's turn (module docs).
            let block = unsafe { self.block.producer_slice() };
            let t0 = self.clock.now();
            if !super::fault::before_fill(self.fault, rep) {
                fill(self.kernel, block, fill_value(rep));
            }
            let t1 = self.clock.now();
            if self.flush {
                handoff_probe::cache::flush(as_bytes(block));
            }
            let t_done = self.clock.now();
            sync.notify_full(rep)?;
            // Recorded after notifying, so that bookkeeping is not part of the latency.
            let r = rep as usize;
            slots.write[r].store(t1.wrapping_sub(t0), Ordering::Relaxed);
            slots.flush[r].store(t_done.wrapping_sub(t1), Ordering::Relaxed);
            slots.done[r].store(t_done, Ordering::Relaxed);
        }
        Ok(())
    }
}

/// Consumer side of one run.
pub struct Consumer<'a> {
    /// The block, in shared memory.
    pub block: BlockPtr,
    /// The shared clock.
    pub clock: &'a Clock,
    /// Repetitions before this index are warm-up (CPU usage is measured after it).
    pub warmup: u32,
    /// The sum kernel.
    pub kernel: Kernel,
}

impl Consumer<'_> {
    /// Runs `reps` repetitions, checking every sum.
    pub fn run(&mut self, sync: &mut dyn LockStep, slots: &SampleSlots<'_>) -> Result<(), String> {
        let n = slots.read.len() as u32;
        let mut usage = UsageMeter::start(self.clock);
        for rep in 0..n {
            if rep == self.warmup {
                usage = UsageMeter::start(self.clock);
            }
            sync.wait_full(rep)?;
            // SAFETY: `wait_full` returned, so it is the consumer's turn (module docs).
            let block = unsafe { self.block.consumer_slice() };
            let t_start = self.clock.now();
            let s = std::hint::black_box(sum(self.kernel, std::hint::black_box(block)));
            let t_end = self.clock.now();
            check_sum(rep, s, block.len())?;
            slots.verified_reps.store(rep as u64 + 1, Ordering::Relaxed);
            let r = rep as usize;
            slots.start[r].store(t_start, Ordering::Relaxed);
            slots.read[r].store(t_end.wrapping_sub(t_start), Ordering::Relaxed);
            sync.notify_free(rep)?;
        }
        usage.record(self.clock, slots);
        Ok(())
    }
}

/// The block as bytes (for flushing).
pub fn as_bytes(block: &[i32]) -> &[u8] {
    // SAFETY: i32 has no padding and any byte is a valid u8; the length covers the same memory.
    unsafe { std::slice::from_raw_parts(block.as_ptr().cast(), std::mem::size_of_val(block)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_catch_stale_blocks() {
        let k = Kernel::best();
        let mut b = vec![0i32; 1000];
        fill(k, &mut b, fill_value(0));
        // Hand computation: 1000 ones, then 1000 twos.
        assert_eq!(sum(k, &b), 1000);
        check_sum(0, sum(k, &b), 1000).unwrap();
        let stale = check_sum(1, sum(k, &b), 1000).unwrap_err();
        assert!(
            stale.contains("verification failed in repetition 1"),
            "{stale}"
        );
        assert!(stale.contains("summed 1000, expected 2000"), "{stale}");
        fill(k, &mut b, fill_value(1));
        assert_eq!(sum(k, &b), 2000);
        check_sum(1, sum(k, &b), 1000).unwrap();
    }

    #[test]
    fn sum_does_not_overflow() {
        let b = vec![2i32; 3 << 20];
        assert_eq!(sum(Kernel::best(), &b), 6_291_456);
    }
}
