//! The producer and consumer loops of the lock-step protocol, shared by every mode but
//! `pipe` and the single-thread ones.
//!
//! The block is the only block of a [`handoff::channel`]: a 1-block channel is exactly the
//! paper's lock-step. Per repetition: the producer waits for *free* and loans the block,
//! fills it, (flushes it), stamps `t_done`, then publishes it (*full*; the semaphore and
//! condvar modes post their own notification after publishing); the consumer waits for
//! *full* and receives the block, stamps `t_start`, sums the block, checks the sum, then
//! releases it (*free*, likewise). `t_done` is taken before the notification, so the cost of
//! waking the consumer counts as latency, as in the paper.
//!
//! The fill value alternates between 1 (even repetitions) and 2 (odd ones): the paper's
//! all-ones block cannot tell a consumer that reads the previous block from one that reads
//! the current one; ours can, at no cost.

use super::samples::{SampleSlots, UsageMeter};
use super::RunError;
use crate::kernels::Kernel;
use handoff::channel::{Consumer, Loan, Producer, Received};
use handoff_probe::clock::Clock;

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
/// implies, else [`RunError::Stale`].
pub fn check_sum(rep: u32, got: i64, elems: usize) -> Result<(), RunError> {
    let want = expected_sum(rep, elems);
    if got == want {
        Ok(())
    } else {
        Err(RunError::Stale { rep, got, want })
    }
}

/// How each party gets its turn at the block, per mode. The block is always a 1-block
/// [`handoff::channel`]; the channel modes wait in the channel itself (loan = wait for *free*,
/// publish = notify *full*, recv = wait for *full*, dropping the received block = notify
/// *free*), the others wait on their own mechanism and then take the block without waiting.
pub trait LockStep {
    /// Producer: wait until the block was released (rep 0 proceeds at once) and loan it.
    fn loan<'p>(&mut self, tx: &'p mut Producer, rep: u32) -> Result<Loan<'p>, RunError>;
    /// Producer: block `rep` was published; wake the consumer if the mode has its own
    /// notification (the channel modes' `Loan::publish` did).
    fn notify_full(&mut self, _rep: u32) -> Result<(), RunError> {
        Ok(())
    }
    /// Consumer: wait until block `rep` was published and receive it.
    fn recv<'c>(&mut self, rx: &'c mut Consumer, rep: u32) -> Result<Received<'c>, RunError>;
    /// Consumer: block `rep` was released; wake the producer if the mode has its own
    /// notification (in the channel modes, dropping the `Received` did).
    fn notify_free(&mut self, _rep: u32) -> Result<(), RunError> {
        Ok(())
    }
}

/// Producer side of one run.
pub struct ProducerLoop<'a> {
    pub clock: &'a Clock,
    /// Flush the block after filling it.
    pub flush: bool,
    /// Sleep this long before each fill (a slow producer), microseconds.
    pub delay_us: u64,
    pub kernel: Kernel,
    /// Test fault (see [`super::fault`]).
    pub fault: Option<super::fault::Fault>,
}

impl ProducerLoop<'_> {
    /// Repetition `rep`'s work on `block`: the slow producer's sleep, the fill (unless a
    /// fault skips it) and the flush; returns the fill's start and end and `t_done`.
    pub(super) fn produce(&self, block: &mut [i32], rep: u32) -> [u64; 3] {
        if self.delay_us > 0 {
            std::thread::sleep(std::time::Duration::from_micros(self.delay_us));
        }
        let t0 = self.clock.now();
        if !super::fault::before_fill(self.fault, rep) {
            fill(self.kernel, block, fill_value(rep));
        }
        let t1 = self.clock.now();
        if self.flush {
            handoff_probe::cache::flush(as_bytes(block));
        }
        [t0, t1, self.clock.now()]
    }

    /// Runs one repetition per sample slot, publishing into `tx`.
    pub fn run(
        &mut self,
        tx: &mut Producer,
        sync: &mut dyn LockStep,
        slots: &SampleSlots<'_>,
    ) -> Result<(), RunError> {
        for rep in 0..slots.write.len() as u32 {
            let mut loan = sync.loan(tx, rep)?;
            let stamps = self.produce(loan.as_mut_slice::<i32>(), rep);
            loan.publish();
            sync.notify_full(rep)?;
            // Recorded after notifying, so that bookkeeping is not part of the latency.
            slots.produced(rep, stamps);
        }
        Ok(())
    }
}

/// Consumer side of one run.
pub struct ConsumerLoop<'a> {
    pub clock: &'a Clock,
    /// Repetitions before this index are warm-up (CPU usage is measured after it).
    pub warmup: u32,
    pub kernel: Kernel,
}

impl ConsumerLoop<'_> {
    /// Sums repetition `rep`'s `block` (read since `t_start`), checks the sum and records
    /// the repetition.
    pub(super) fn consume(
        &self,
        block: &[i32],
        rep: u32,
        t_start: u64,
        slots: &SampleSlots<'_>,
    ) -> Result<(), RunError> {
        let s = std::hint::black_box(sum(self.kernel, std::hint::black_box(block)));
        let t_end = self.clock.now();
        check_sum(rep, s, block.len())?;
        slots.consumed(rep, t_start, t_end);
        Ok(())
    }

    /// Runs one repetition per sample slot, receiving from `rx` and checking every sum.
    pub fn run(
        &mut self,
        rx: &mut Consumer,
        sync: &mut dyn LockStep,
        slots: &SampleSlots<'_>,
    ) -> Result<(), RunError> {
        let n = slots.read.len() as u32;
        let mut usage = UsageMeter::start(self.clock);
        for rep in 0..n {
            if rep == self.warmup {
                usage = UsageMeter::start(self.clock);
            }
            let got = sync.recv(rx, rep)?;
            let block = got.as_slice::<i32>();
            let t_start = self.clock.now();
            self.consume(block, rep, t_start, slots)?;
            drop(got); // releases the block: the channel modes' *free*
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

/// The block as bytes to write into (reading a pipe or a file into it).
pub fn as_bytes_mut(block: &mut [i32]) -> &mut [u8] {
    // SAFETY: i32 has no padding and every byte pattern is a valid i32, so the same memory may
    // be written as bytes; the length covers exactly the slice.
    unsafe {
        std::slice::from_raw_parts_mut(block.as_mut_ptr().cast(), std::mem::size_of_val(block))
    }
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
            matches!(
                stale,
                RunError::Stale {
                    rep: 1,
                    got: 1000,
                    want: 2000
                }
            ),
            "{stale}"
        );
        let text = stale.to_string();
        assert!(
            text.contains("verification failed in repetition 1"),
            "{text}"
        );
        assert!(text.contains("summed 1000, expected 2000"), "{text}");
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
