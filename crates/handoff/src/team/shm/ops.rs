//! The [`Transport`] trait on [`ShmTransport`]: the data path is the mapped-heap core's
//! ([`MappedHeap`](crate::team::mapped::MappedHeap)); waits sleep on this PE's heap bell with
//! the team's peer watch and CPU hints; counters, barriers and agreements use the control
//! blocks.

use super::ShmTransport;
use crate::atomic::{fence, Ordering};
use crate::sync::{Until, Wait};
use crate::team::barrier::{self, Node};
use crate::team::layout::FINISHED;
use crate::team::ops::{AtomicOp, SignalOp};
use crate::team::transport::Transport;
use crate::team::watch::TeamWatch;
use crate::team::{TeamError, MAX_COUNTERS};

impl ShmTransport {
    /// A wait on PE `pe`'s heap bell (this PE's own, or a peer's for `wait_remote_on`), as a
    /// sleeper on `range` (`None`: on anything), watching the peers with `watch`.
    fn wait_bell(
        &self,
        pe: usize,
        range: Option<(u64, u64)>,
        poll: &mut dyn FnMut() -> Option<usize>,
        until: Until,
        watch: TeamWatch<'_>,
        what: &'static str,
    ) -> Result<usize, TeamError> {
        self.heap
            .wait(
                pe,
                range,
                poll,
                until,
                &watch,
                |ringer| self.cpu_hint(ringer),
                what,
            )
            .map_err(|e| self.wait_err(e, &watch, what))
    }
}

impl Transport for ShmTransport {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.size
    }
    fn heap_len(&self) -> usize {
        self.heap.heap_len()
    }
    #[inline]
    fn wait_strategy(&self) -> Wait {
        self.wait
    }
    #[inline]
    fn local_heap(&self) -> *mut u8 {
        self.local
    }
    fn peer_heap(&self, pe: usize) -> Option<*mut u8> {
        use crate::team::mapped::Parts;
        // Every PE's partition lies in the one segment every PE maps.
        (pe < self.size)
            .then(|| self.heap.parts().heap(pe))
            .flatten()
    }
    #[inline]
    fn crowded_cpu(&self) -> bool {
        self.shares_cpu()
    }

    // Inlined: a small put's cost is mostly this call's (issue #23; `bench/put_lat.c`).
    #[inline]
    fn put(&self, pe: usize, offset: usize, src: &[u8]) -> Result<(), TeamError> {
        self.heap.put(pe, offset, src)
    }

    fn get(&self, pe: usize, offset: usize, dst: &mut [u8]) -> Result<(), TeamError> {
        self.heap.get(pe, offset, dst)
    }

    fn fence(&self) {
        // Release fence: pairs with the Acquire load of whatever flag/signal/atomic this PE
        // updates next (module docs of `team`, "Ordering").
        fence(Ordering::Release);
    }

    fn quiet(&self) {
        // A SeqCst fence, then the rings of what this PE put since (`MappedHeap::quiet`).
        self.heap.quiet();
    }

    fn atomic64(&self, pe: usize, offset: usize, op: AtomicOp<u64>) -> Result<u64, TeamError> {
        self.heap.atomic64(pe, offset, op)
    }

    fn atomic64_unwatched(
        &self,
        pe: usize,
        offset: usize,
        op: AtomicOp<u64>,
    ) -> Result<u64, TeamError> {
        self.heap.atomic64_unwatched(pe, offset, op)
    }

    fn atomic32(&self, pe: usize, offset: usize, op: AtomicOp<u32>) -> Result<u32, TeamError> {
        self.heap.atomic32(pe, offset, op)
    }

    fn signal(&self, pe: usize, sig: usize, op: SignalOp) -> Result<(), TeamError> {
        self.heap.signal(pe, sig, op)
    }

    fn signal_unrung(&self, pe: usize, sig: usize, op: SignalOp) -> Result<(), TeamError> {
        self.heap.signal_unrung(pe, sig, op)
    }

    fn ring_signal(&self, pe: usize, sig: usize) -> Result<(), TeamError> {
        self.heap.ring_signal(pe, sig)
    }

    // Always inlined: a hand-off's critical path (see `Team::put_line`).
    #[inline(always)]
    fn put_signal(
        &self,
        pe: usize,
        offset: usize,
        src: &[u8],
        sig: usize,
        op: SignalOp,
    ) -> Result<(), TeamError> {
        self.heap.put_signal(pe, offset, src, sig, op)
    }

    fn counter_add(&self, pe: usize, ct: usize, n: u64) -> Result<(), TeamError> {
        if pe >= self.size {
            return Err(TeamError::NoSuchPe {
                pe,
                size: self.size,
            });
        }
        let c = self
            .ctrl(pe)
            .counters
            .get(ct)
            .ok_or(TeamError::CounterLimit { max: MAX_COUNTERS })?;
        // `Signal::add` is the Release RMW + doorbell ring (see `crate::sync::signal`).
        c.add(n);
        Ok(())
    }

    fn counter_get(&self, ct: usize) -> u64 {
        self.ctrl(self.rank)
            .counters
            .get(ct)
            .map_or(0, |c| c.load())
    }

    fn counter_set(&self, ct: usize, value: u64) {
        if let Some(c) = self.ctrl(self.rank).counters.get(ct) {
            // This PE's own counter: a reset, not a publication (`Signal::reset`).
            c.reset(value);
        }
    }

    fn counter_wait(&self, ct: usize, target: u64, until: Until) -> Result<u64, TeamError> {
        let c = self
            .ctrl(self.rank)
            .counters
            .get(ct)
            .ok_or(TeamError::CounterLimit { max: MAX_COUNTERS })?;
        let watch = self.watch();
        // The team's hint, as in `wait_local`: a PE sharing its CPU yields instead of pausing.
        c.wait_until_hinted(target, until, &watch, |p| self.cpu_hint(p))
            .map_err(|e| self.wait_err(e, &watch, "a counter"))
    }

    fn wait_local(
        &self,
        poll: &mut dyn FnMut() -> Option<usize>,
        until: Until,
        what: &'static str,
    ) -> Result<usize, TeamError> {
        self.wait_bell(self.rank, None, poll, until, self.watch(), what)
    }

    fn wait_local_on(
        &self,
        offset: usize,
        len: usize,
        poll: &mut dyn FnMut() -> Option<usize>,
        until: Until,
        what: &'static str,
    ) -> Result<usize, TeamError> {
        let end = offset.saturating_add(len);
        let range = Some((offset as u64, end as u64));
        self.wait_bell(self.rank, range, poll, until, self.watch(), what)
    }

    fn wait_remote_on(
        &self,
        pe: usize,
        offset: usize,
        len: usize,
        poll: &mut dyn FnMut() -> Option<usize>,
        until: Until,
        what: &'static str,
    ) -> Result<usize, TeamError> {
        self.heap.check(pe, offset, len, 1, what)?;
        let end = offset.saturating_add(len);
        let range = Some((offset as u64, end as u64));
        self.wait_bell(pe, range, poll, until, self.watch_on(pe), what)
    }

    fn barrier(&self, ranks: &[usize], until: Until) -> Result<(), TeamError> {
        // Completes earlier puts as `quiet` does, their wake-ups included.
        self.quiet();
        let watch = self.barrier_watch();
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let node = |r: usize| Node {
            arrivals: self.arrivals(r),
            bell: &self.ctrl(r).arrive.bell,
        };
        barrier::run(
            self.rank,
            ranks,
            &mut seen,
            node,
            until.wait,
            until.deadline,
            &watch,
            self.cpu_hint(None),
        )
        .map_err(|e| self.wait_err(e, &watch, "a barrier"))
    }

    fn agree(&self, seq: u64, value: u64, until: Until) -> Result<(), TeamError> {
        let slot = (seq % 2) as usize;
        let mine = &self.ctrl(self.rank).agree[slot];
        mine.value.store(value, Ordering::Relaxed);
        mine.seq.store(seq, Ordering::Relaxed);
        // The barrier's Release/Acquire chain publishes the record to every PE.
        let all: Vec<usize> = (0..self.size).collect();
        self.barrier(&all, until)?;
        for r in 0..self.size {
            let a = &self.ctrl(r).agree[slot];
            let (s, v) = (
                a.seq.load(Ordering::Relaxed),
                a.value.load(Ordering::Relaxed),
            );
            if s != seq || v != value {
                return Err(TeamError::Mismatch {
                    seq,
                    rank: r,
                    ours: value,
                    theirs: if s == seq { v } else { u64::MAX },
                });
            }
        }
        Ok(())
    }

    fn finish(&self) {
        self.finished
            .store(true, std::sync::atomic::Ordering::Relaxed);
        // Release: pairs with the Acquire loads of the state in `is_gone` and `gone`.
        self.ctrl(self.rank)
            .state
            .store(FINISHED, Ordering::Release);
    }
}
