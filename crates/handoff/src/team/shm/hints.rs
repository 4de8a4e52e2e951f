//! The team verdicts a PE decides once, from what its peers published when they joined:
//! whether writes must ring the heap bells at all (`ShmParts::must_ring`: no when no PE's
//! waits ever sleep, [`crate::team::quiet_bells`]) and whether this PE shares its CPU with
//! another PE (`ShmTransport::shares_cpu`, [`crate::team::shared_cpu`]; its adaptive waits
//! then yield instead of pausing). Each is cached in a byte of the transport, Relaxed: a
//! verdict on values each PE writes once, the same however often it is decided.

use super::{ShmParts, ShmTransport};
use crate::atomic::Ordering;
use crate::team::layout::SPAWNED;
use crate::team::quiet_bells::{bells_verdict, BELLS_QUIET, BELLS_RING};
use crate::team::shared_cpu;

/// `ShmTransport::crowded`: not decided yet, shares its CPU, has its CPU alone.
pub(super) const UNDECIDED: u8 = 0;
const SHARED: u8 = 1;
const ALONE: u8 = 2;

impl ShmParts {
    /// Whether a write to a PE's heap must ring its bell: no when every PE of the team has
    /// said that its waits never sleep (the reasoning: `quiet_bells`). Until every PE has
    /// joined: yes.
    #[inline]
    pub(super) fn rings_bells(&self) -> bool {
        // Relaxed: a cached verdict on values each PE writes once.
        match self.bells.load(Ordering::Relaxed) {
            BELLS_QUIET => false,
            BELLS_RING => true,
            _ => self.decide_rings_bells(),
        }
    }

    #[cold]
    fn decide_rings_bells(&self) -> bool {
        let verdict = bells_verdict((0..self.size).map(|r| {
            // Acquire: pairs with the Release store of `sleeps` in `join` (each PE writes it
            // once).
            self.ctrl(r).sleeps.load(Ordering::Acquire)
        }));
        match verdict {
            Some(v) => {
                self.bells.store(v, Ordering::Relaxed);
                v == BELLS_RING
            }
            None => true, // a PE has not joined yet: ring, decide later
        }
    }
}

impl ShmTransport {
    /// The CPU hint for an adaptive wait: this CPU when this PE shares its CPU with another
    /// PE (so the wait yields to it), else the last ringer's.
    pub(super) fn cpu_hint(&self, ringer: Option<u32>) -> Option<u32> {
        if self.shares_cpu() {
            Some(crate::sys::affinity::current_cpu() as u32)
        } else {
            ringer
        }
    }

    /// Whether this PE shares its CPU with another PE (`shared_cpu`), decided once every PE
    /// it depends on has joined (until then: no).
    #[inline]
    pub(super) fn shares_cpu(&self) -> bool {
        // Relaxed: a cached verdict; deciding twice gives the same answer.
        match self.crowded.load(Ordering::Relaxed) {
            SHARED => true,
            ALONE => false,
            _ => self.decide_shares_cpu(),
        }
    }

    #[cold]
    fn decide_shares_cpu(&self) -> bool {
        let online = crate::sys::affinity::online_cpus().map_or(1, |c| c.len());
        let verdict = shared_cpu::shares_cpu(self.rank, self.size, &self.mask, online, |r| {
            let c = self.ctrl(r);
            // Acquire: pairs with the Release CAS to JOINED in `join`, which publishes `cpu`.
            if c.state.load(Ordering::Acquire) == SPAWNED {
                shared_cpu::NOT_JOINED
            } else {
                c.cpu.load(Ordering::Relaxed)
            }
        });
        if let Some(v) = verdict {
            let code = if v { SHARED } else { ALONE };
            self.crowded.store(code, Ordering::Relaxed);
        }
        verdict == Some(true)
    }
}
