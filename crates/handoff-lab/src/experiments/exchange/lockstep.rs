//! How each mode gets its turn at the channel's block ([`LockStep`]): the channel's own waits
//! (spin / futex / adaptive, [`ChannelLockStep`]), POSIX named semaphores
//! ([`SemLockStep`], the paper's method), or `Mutex` + `Condvar` one-shots
//! ([`CondvarLockStep`]).
//!
//! Sequence convention of the one-shots: *full* holds the number of blocks published and
//! *free* the number released, so the producer of repetition `rep` waits for `free == rep`
//! and publishes `full = rep + 1`; the consumer waits for `full == rep + 1` and publishes
//! `free = rep + 1`.

use super::roles::LockStep;
use super::RunError;
use handoff::channel::{ChannelError, Consumer, Loan, Producer, Received};
use handoff::sync::{Patience, PeerWatch, Wait, WaitError};
use handoff::sys::Deadline;
use handoff_probe::posix_sem::NamedSemaphore;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

const WAIT_FREE: &str = "producer waiting for free";
const WAIT_FULL: &str = "consumer waiting for full";

/// The channel is the notification: loan waits for *free*, publish notifies *full*, recv
/// waits for *full*, dropping the received block notifies *free* (with a handoff [`Wait`]).
pub struct ChannelLockStep {
    /// How the channel's ends wait: the mode's strategy, for at most the run's time left.
    patience: Patience,
}

impl ChannelLockStep {
    /// Waits with `wait`, each wait for at most the time left before `deadline` (fixed
    /// now: no clock read per repetition).
    pub fn new(wait: Wait, deadline: Deadline) -> Self {
        ChannelLockStep {
            patience: Patience::new(wait).with_timeout(Some(deadline.remaining())),
        }
    }
}

impl LockStep for ChannelLockStep {
    #[inline]
    fn loan<'p>(&mut self, tx: &'p mut Producer, _rep: u32) -> Result<Loan<'p>, RunError> {
        tx.set_patience(self.patience);
        tx.loan()
            .map_err(|e| RunError::from_channel_wait(WAIT_FREE, e))
    }
    #[inline]
    fn recv<'c>(&mut self, rx: &'c mut Consumer, _rep: u32) -> Result<Received<'c>, RunError> {
        rx.set_patience(self.patience);
        rx.recv()
            .map_err(|e| RunError::from_channel_wait(WAIT_FULL, e))
    }
}

/// After the mode's own wait said go, the block must be there: take it without waiting.
fn take<T>(what: &'static str, got: Result<T, ChannelError>) -> Result<T, RunError> {
    match got {
        Ok(t) => Ok(t),
        Err(ChannelError::Timeout { .. }) => Err(RunError::OutOfStep { what }),
        Err(e) => Err(RunError::from_channel_wait(what, e)),
    }
}

/// How long one slice of a semaphore or condvar wait lasts before the peers (or the abort
/// flag) are checked again.
const SLICE: Duration = Duration::from_millis(50);

/// A pair of POSIX named semaphores: *full* starts at 0, *free* at 1 (the paper's method).
pub struct SemLockStep<'a, P: PeerWatch + ?Sized> {
    /// Posted by the producer.
    pub full: NamedSemaphore,
    /// Posted by the consumer.
    pub free: NamedSemaphore,
    pub deadline: Deadline,
    /// Who to watch while waiting.
    pub peers: &'a P,
}

impl<P: PeerWatch + ?Sized> SemLockStep<'_, P> {
    /// `sem_timedwait` in slices, checking the peers between them (a dead peer never posts).
    fn wait(&self, sem: &NamedSemaphore, what: &'static str) -> Result<(), RunError> {
        loop {
            let slice = Deadline::after(SLICE).min(self.deadline);
            match sem.wait_deadline(slice) {
                Ok(()) => return Ok(()),
                Err(WaitError::Timeout) if !self.deadline.expired() => self
                    .peers
                    .check_peers()
                    .map_err(|e| RunError::from_wait(what, e))?,
                Err(e) => return Err(RunError::from_wait(what, e)),
            }
        }
    }
}

impl<P: PeerWatch + ?Sized> LockStep for SemLockStep<'_, P> {
    fn loan<'p>(&mut self, tx: &'p mut Producer, _rep: u32) -> Result<Loan<'p>, RunError> {
        const WHAT: &str = "producer waiting on the free semaphore";
        self.wait(&self.free, WHAT)?;
        take(WHAT, tx.try_loan())
    }
    fn notify_full(&mut self, _rep: u32) -> Result<(), RunError> {
        Ok(self.full.post()?)
    }
    fn recv<'c>(&mut self, rx: &'c mut Consumer, _rep: u32) -> Result<Received<'c>, RunError> {
        const WHAT: &str = "consumer waiting on the full semaphore";
        self.wait(&self.full, WHAT)?;
        take(WHAT, rx.try_recv())
    }
    fn notify_free(&mut self, _rep: u32) -> Result<(), RunError> {
        Ok(self.free.post()?)
    }
}

/// A promise-like one-shot sequence: `Mutex<u32>` + `Condvar` (threads only).
#[derive(Default)]
pub struct OneShot {
    value: Mutex<u32>,
    cv: Condvar,
}

impl OneShot {
    fn set(&self, v: u32) {
        *self.value.lock().unwrap_or_else(|p| p.into_inner()) = v;
        self.cv.notify_one();
    }

    fn wait_for(&self, v: u32, deadline: Deadline, abort: &AtomicBool) -> Result<(), RunError> {
        let mut g = self.value.lock().unwrap_or_else(|p| p.into_inner());
        while *g != v {
            if abort.load(Ordering::Relaxed) {
                return Err(RunError::PartnerGaveUp);
            }
            if deadline.expired() {
                return Err(RunError::Deadline {
                    what: "condvar wait",
                });
            }
            g = self
                .cv
                .wait_timeout(g, SLICE)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
        Ok(())
    }
}

/// Two one-shots (the paper's pair of promises) for threads-blocking.
pub struct CondvarLockStep<'a> {
    /// Producer → consumer.
    pub full: &'a OneShot,
    /// Consumer → producer.
    pub free: &'a OneShot,
    pub deadline: Deadline,
    /// Set when the other thread failed.
    pub abort: &'a AtomicBool,
}

impl LockStep for CondvarLockStep<'_> {
    fn loan<'p>(&mut self, tx: &'p mut Producer, rep: u32) -> Result<Loan<'p>, RunError> {
        self.free.wait_for(rep, self.deadline, self.abort)?;
        take("producer waiting on the condvar", tx.try_loan())
    }
    fn notify_full(&mut self, rep: u32) -> Result<(), RunError> {
        self.full.set(rep + 1);
        Ok(())
    }
    fn recv<'c>(&mut self, rx: &'c mut Consumer, rep: u32) -> Result<Received<'c>, RunError> {
        self.full.wait_for(rep + 1, self.deadline, self.abort)?;
        take("consumer waiting on the condvar", rx.try_recv())
    }
    fn notify_free(&mut self, rep: u32) -> Result<(), RunError> {
        self.free.set(rep + 1);
        Ok(())
    }
}
