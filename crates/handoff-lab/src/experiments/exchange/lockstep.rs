//! The lock-step notifications of each mode: flags (spin / futex / adaptive), POSIX named
//! semaphores, and `Mutex` + `Condvar` one-shots.
//!
//! Sequence convention: *full* holds the number of blocks published and *free* the number
//! released, so the producer of repetition `rep` waits for `free == rep` and publishes
//! `full = rep + 1`; the consumer waits for `full == rep + 1` and publishes `free = rep + 1`.

use super::layout::Control;
use super::roles::LockStep;
use handoff::sync::wait::Wait;
use handoff::sync::PeerWatch;
use handoff::sys::Deadline;
use handoff::WaitError;
use handoff_probe::posix_sem::NamedSemaphore;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// Turns a wait error into the run's error text.
pub fn wait_error(what: &str, e: WaitError) -> String {
    match e {
        WaitError::Timeout => format!("{what}: the run's deadline passed (peer stuck?)"),
        WaitError::PeerGone { pid } => {
            format!("{what}: the peer (pid {pid}) died before the hand-off completed")
        }
    }
}

/// Flags in the segment, waited on with a handoff [`Wait`] strategy.
pub struct FlagLockStep<'a, P: PeerWatch + ?Sized> {
    /// The control words.
    pub ctl: &'a Control,
    /// How to wait.
    pub wait: Wait,
    /// The run's deadline.
    pub deadline: Deadline,
    /// Who to watch while waiting.
    pub peers: &'a P,
}

impl<P: PeerWatch + ?Sized> LockStep for FlagLockStep<'_, P> {
    fn wait_free(&mut self, rep: u32) -> Result<(), String> {
        self.ctl
            .free
            .wait_for(rep, self.wait, Some(self.deadline), self.peers)
            .map_err(|e| wait_error("producer waiting for free", e))
    }
    fn notify_full(&mut self, rep: u32) -> Result<(), String> {
        self.ctl.full.store(rep + 1);
        Ok(())
    }
    fn wait_full(&mut self, rep: u32) -> Result<(), String> {
        self.ctl
            .full
            .wait_for(rep + 1, self.wait, Some(self.deadline), self.peers)
            .map_err(|e| wait_error("consumer waiting for full", e))
    }
    fn notify_free(&mut self, rep: u32) -> Result<(), String> {
        self.ctl.free.store(rep + 1);
        Ok(())
    }
}

/// How long one slice of a blocking wait lasts before peers are checked again.
const SLICE: Duration = Duration::from_millis(50);

/// A pair of POSIX named semaphores: *full* starts at 0, *free* at 1 (the paper's method).
pub struct SemLockStep<'a, P: PeerWatch + ?Sized> {
    /// Posted by the producer.
    pub full: NamedSemaphore,
    /// Posted by the consumer.
    pub free: NamedSemaphore,
    /// The run's deadline.
    pub deadline: Deadline,
    /// Who to watch while waiting.
    pub peers: &'a P,
}

impl<P: PeerWatch + ?Sized> SemLockStep<'_, P> {
    fn wait(&self, sem: &NamedSemaphore, what: &str) -> Result<(), String> {
        loop {
            let slice = Deadline::after(SLICE).min(self.deadline);
            match sem.wait_deadline(slice) {
                Ok(()) => return Ok(()),
                Err(WaitError::Timeout) if !self.deadline.expired() => {
                    self.peers.check_peers().map_err(|e| wait_error(what, e))?
                }
                Err(e) => return Err(wait_error(what, e)),
            }
        }
    }
}

impl<P: PeerWatch + ?Sized> LockStep for SemLockStep<'_, P> {
    fn wait_free(&mut self, _rep: u32) -> Result<(), String> {
        self.wait(&self.free, "producer waiting on the free semaphore")
    }
    fn notify_full(&mut self, _rep: u32) -> Result<(), String> {
        self.full.post().map_err(|e| e.to_string())
    }
    fn wait_full(&mut self, _rep: u32) -> Result<(), String> {
        self.wait(&self.full, "consumer waiting on the full semaphore")
    }
    fn notify_free(&mut self, _rep: u32) -> Result<(), String> {
        self.free.post().map_err(|e| e.to_string())
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

    fn wait_for(&self, v: u32, deadline: Deadline, abort: &AtomicBool) -> Result<(), String> {
        let mut g = self.value.lock().unwrap_or_else(|p| p.into_inner());
        while *g != v {
            if abort.load(Ordering::Relaxed) {
                return Err("the other thread gave up".into());
            }
            if deadline.expired() {
                return Err(wait_error("condvar wait", WaitError::Timeout));
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
    /// The run's deadline.
    pub deadline: Deadline,
    /// Set when the other thread failed.
    pub abort: &'a AtomicBool,
}

impl LockStep for CondvarLockStep<'_> {
    fn wait_free(&mut self, rep: u32) -> Result<(), String> {
        self.free.wait_for(rep, self.deadline, self.abort)
    }
    fn notify_full(&mut self, rep: u32) -> Result<(), String> {
        self.full.set(rep + 1);
        Ok(())
    }
    fn wait_full(&mut self, rep: u32) -> Result<(), String> {
        self.full.wait_for(rep + 1, self.deadline, self.abort)
    }
    fn notify_free(&mut self, rep: u32) -> Result<(), String> {
        self.free.set(rep + 1);
        Ok(())
    }
}

/// Peer watch for two threads of one process: the partner "is gone" once it has failed.
pub struct ThreadPartner<'a>(pub &'a AtomicBool);

impl PeerWatch for ThreadPartner<'_> {
    fn check_peers(&self) -> Result<(), WaitError> {
        if self.0.load(Ordering::Relaxed) {
            Err(WaitError::PeerGone {
                pid: std::process::id(),
            })
        } else {
            Ok(())
        }
    }
}
