//! [`MappedHeap`]: the operations on mapped heaps (bounds, copies, signals, atomics, waits),
//! waking per the `wake` policy.

use super::wake::{self, Pending};
use super::{HeapBell, Parts};
use crate::atomic::{fence, AtomicU32, AtomicU64, Ordering};
use crate::sync::{PeerWatch, Until, WaitError};
use crate::team::ops::{self, AtomicOp, SignalOp};
use crate::team::TeamError;

/// Every PE's heap as mapped here, with this PE's record of the bytes it put since its last
/// `quiet`. Made by a transport over its [`Parts`]; see `team/mapped/mod.rs` in the source.
pub struct MappedHeap<P> {
    parts: P,
    size: usize,
    heap_len: usize,
    /// Per target PE, the bytes this PE put there since its last `quiet` that no fenced ring
    /// covered yet: `quiet` rings them.
    pending: Vec<Pending>,
}

impl<P: std::fmt::Debug> std::fmt::Debug for MappedHeap<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MappedHeap")
            .field("parts", &self.parts)
            .field("size", &self.size)
            .field("heap_len", &self.heap_len)
            .finish_non_exhaustive()
    }
}

impl<P: Parts> MappedHeap<P> {
    /// The heaps of `size` PEs, `heap_len` bytes each, where `parts` says.
    pub fn new(parts: P, size: usize, heap_len: usize) -> Self {
        MappedHeap {
            parts,
            size,
            heap_len,
            pending: (0..size).map(|_| Pending::new(heap_len as u64)).collect(),
        }
    }

    /// The transport's parts.
    #[inline]
    pub fn parts(&self) -> &P {
        &self.parts
    }

    /// How many PEs.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Bytes per heap.
    pub fn heap_len(&self) -> usize {
        self.heap_len
    }

    /// The address of `len` bytes at heap offset `offset` of PE `pe`, after the checks every
    /// remote operation makes (PE in the team and mapped here, range in the heap, offset
    /// `align`-aligned). Inlined into the hand-off calls, whose caller's critical path it is;
    /// the errors are built out of line (issue #23).
    #[inline]
    pub fn check(
        &self,
        pe: usize,
        offset: usize,
        len: usize,
        align: usize,
        op: &'static str,
    ) -> Result<*mut u8, TeamError> {
        if pe < self.size && self.in_heap(offset, len, align) {
            if let Some(h) = self.parts.heap(pe) {
                // In bounds: offset + len <= heap_len (`Parts`' promise covers it).
                return Ok(h.wrapping_add(offset));
            }
        }
        Err(self.check_failed(pe, offset, len, align, op))
    }

    /// Whether `len` bytes at heap offset `offset` lie in a heap, `align`-aligned: the range
    /// half of [`Self::check`].
    #[inline]
    fn in_heap(&self, offset: usize, len: usize, align: usize) -> bool {
        offset.saturating_add(len) <= self.heap_len && offset.is_multiple_of(align)
    }

    /// The error of a failed [`Self::check`].
    #[cold]
    #[inline(never)]
    fn check_failed(
        &self,
        pe: usize,
        offset: usize,
        len: usize,
        align: usize,
        op: &'static str,
    ) -> TeamError {
        let end = offset.saturating_add(len);
        if pe >= self.size {
            TeamError::NoSuchPe {
                pe,
                size: self.size,
            }
        } else if end > self.heap_len {
            TeamError::OutOfBounds {
                op,
                offset,
                end,
                len: self.heap_len,
            }
        } else if !offset.is_multiple_of(align) {
            TeamError::InvalidArgument(format!(
                "{op}: heap offset {offset} is not {align}-byte aligned"
            ))
        } else {
            TeamError::InvalidArgument(format!("{op}: PE {pe}'s heap is not mapped here"))
        }
    }

    /// PE `pe`'s bell when writes must ring (`Parts::must_ring`); `pe`'s heap is mapped.
    #[inline]
    fn bell_to_ring(&self, pe: usize) -> Option<&HeapBell> {
        self.parts.must_ring().then(|| self.parts.bell(pe))
    }

    /// Copies `src` to PE `pe`'s heap at `offset`, then wakes its sleepers on those bytes
    /// (unfenced: a sleeper registering at this instant is woken by this PE's next
    /// [`quiet`](Self::quiet)).
    #[inline]
    pub fn put(&self, pe: usize, offset: usize, src: &[u8]) -> Result<(), TeamError> {
        self.copy_in(pe, offset, src)?;
        // A PE asleep in a wait on these bytes (OpenSHMEM's wait_until on a variable set by a
        // put) is woken now instead of at its next sleep slice; one asleep on other words is
        // not. A Relaxed load of a line that only sleepers write: nearly free.
        if let Some(b) = self.bell_to_ring(pe) {
            let (lo, hi) = (offset as u64, (offset + src.len()) as u64);
            wake::ring_put(b, &self.pending[pe], lo, hi);
        }
        Ok(())
    }

    /// Copies `src` to PE `pe`'s heap at `offset` without waking anyone (for a path whose
    /// waits poll: MPI's mixed windows).
    #[inline]
    pub fn copy_in(&self, pe: usize, offset: usize, src: &[u8]) -> Result<(), TeamError> {
        let dst = self.check(pe, offset, src.len(), 1, "put")?;
        // SAFETY: `check` proved dst..dst+len lies in PE pe's mapped heap; `src` is a Rust
        // slice (it may be a view of this very heap: `copy_small` allows the overlap). Other
        // processes may read the bytes concurrently: that is the protocol's business (signals
        // order it).
        unsafe { ops::copy_small(src.as_ptr(), dst, src.len()) };
        Ok(())
    }

    /// Copies PE `pe`'s heap bytes at `offset` into `dst`.
    pub fn get(&self, pe: usize, offset: usize, dst: &mut [u8]) -> Result<(), TeamError> {
        let src = self.check(pe, offset, dst.len(), 1, "get")?;
        // SAFETY: as in `copy_in`, with source and destination swapped (`dst` may be a view
        // of this very heap, `Team::local_mut`: `copy` allows the overlap).
        unsafe { std::ptr::copy(src, dst.as_mut_ptr(), dst.len()) };
        Ok(())
    }

    /// Updates PE `pe`'s signal word at heap offset `sig` (Release), then wakes its sleepers.
    pub fn signal(&self, pe: usize, sig: usize, op: SignalOp) -> Result<(), TeamError> {
        let w = self.word64(pe, sig, "signal")?;
        self.signal_word(pe, w, sig as u64, op);
        Ok(())
    }

    /// [`signal`](Self::signal) without waking anyone: the caller's
    /// [`ring_signal`](Self::ring_signal) does (`Transport::signal_unrung`).
    pub fn signal_unrung(&self, pe: usize, sig: usize, op: SignalOp) -> Result<(), TeamError> {
        // Release inside: pairs with the Acquire `load_signal` of the target's wait.
        ops::apply_signal(self.word64(pe, sig, "signal")?, op);
        Ok(())
    }

    /// Wakes PE `pe`'s sleepers on its signal word at heap offset `sig`, fenced (the
    /// `SeqCst` fence of [`RangeBell::ring_range`](crate::sync::RangeBell::ring_range),
    /// after the caller's [`signal_unrung`](Self::signal_unrung) of the word: a sleeper that
    /// registered before the fence is woken, one after it sees the word).
    pub fn ring_signal(&self, pe: usize, sig: usize) -> Result<(), TeamError> {
        self.word64(pe, sig, "signal")?;
        if let Some(b) = self.bell_to_ring(pe) {
            wake::ring_written(b, sig as u64, sig as u64 + 8);
        }
        Ok(())
    }

    /// Updates a signal word of PE `pe` that waiters name by bell key `key` (a heap offset,
    /// or a key past the heap's end for a word outside it: a transport's counter), then
    /// wakes its sleepers. PE `pe`'s heap must be mapped here.
    pub fn signal_word(&self, pe: usize, word: &AtomicU64, key: u64, op: SignalOp) {
        // Release inside: pairs with the Acquire `load_signal` of the target's wait.
        ops::apply_signal(word, op);
        if let Some(b) = self.bell_to_ring(pe) {
            wake::ring_written(b, key, key + 8);
        }
    }

    /// Copies `src` to PE `pe`'s heap at `offset`, then updates its signal word at heap
    /// offset `sig`, then wakes the sleepers on both (`wake::ring_put_signal`). Both checks
    /// come first: a bad signal word fails the call before any byte moves.
    // Always inlined: a hand-off's critical path (see `Team::put_line`).
    #[inline(always)]
    pub fn put_signal(
        &self,
        pe: usize,
        offset: usize,
        src: &[u8],
        sig: usize,
        op: SignalOp,
    ) -> Result<(), TeamError> {
        let dst = self.check(pe, offset, src.len(), 1, "put")?;
        if !self.in_heap(sig, 8, 8) {
            return Err(self.check_failed(pe, sig, 8, 8, "signal"));
        }
        // The signal word lies in the same heap: `check` proved `pe`, so its address is
        // `dst`'s heap base plus `sig` (one base computation on the hand-off's path, not two).
        let p = dst.wrapping_sub(offset).wrapping_add(sig);
        // SAFETY: `in_heap` proved an 8-byte aligned in-bounds word of PE pe's mapped heap;
        // AtomicU64 has u64's layout and is how every PE touches words others update.
        let w = unsafe { &*p.cast::<AtomicU64>() };
        self.put_signal_at(pe, dst, offset, src, w, sig as u64, op);
        Ok(())
    }

    /// [`put_signal`](Self::put_signal) with a signal word outside the heap that waiters
    /// name by bell key `key` (see [`signal_word`](Self::signal_word)): MPI's counting puts.
    pub fn put_signal_word(
        &self,
        pe: usize,
        offset: usize,
        src: &[u8],
        word: &AtomicU64,
        key: u64,
        op: SignalOp,
    ) -> Result<(), TeamError> {
        let dst = self.check(pe, offset, src.len(), 1, "put")?;
        self.put_signal_at(pe, dst, offset, src, word, key, op);
        Ok(())
    }

    #[allow(clippy::too_many_arguments)] // the checked pieces of one put-with-signal
    #[inline(always)]
    fn put_signal_at(
        &self,
        pe: usize,
        dst: *mut u8,
        offset: usize,
        src: &[u8],
        word: &AtomicU64,
        key: u64,
        op: SignalOp,
    ) {
        wake::put_signal_with(
            // SAFETY: the caller's `check` proved dst..dst+len in PE pe's mapped heap; as in
            // `copy_in`.
            || unsafe { ops::copy_small(src.as_ptr(), dst, src.len()) },
            word,
            op,
            self.bell_to_ring(pe),
            (offset as u64, (offset + src.len()) as u64),
            (key, key + 8),
        );
    }

    fn word64(&self, pe: usize, offset: usize, op: &'static str) -> Result<&AtomicU64, TeamError> {
        let p = self.check(pe, offset, 8, 8, op)?;
        // SAFETY: `check` proved an 8-byte aligned in-bounds word of the mapping; AtomicU64
        // has u64's layout and is how every PE touches words that others update.
        Ok(unsafe { &*p.cast::<AtomicU64>() })
    }

    /// A 64-bit atomic on PE `pe`'s word at `offset` (AcqRel); wakes its sleepers when it
    /// wrote. The old value.
    pub fn atomic64(&self, pe: usize, offset: usize, op: AtomicOp<u64>) -> Result<u64, TeamError> {
        let w = self.word64(pe, offset, "atomic")?;
        let old = ops::apply_atomic64(w, op);
        if op.wrote(old) {
            if let Some(b) = self.bell_to_ring(pe) {
                wake::ring_written(b, offset as u64, offset as u64 + 8);
            }
        }
        Ok(old)
    }

    /// [`atomic64`](Self::atomic64) on a word nobody sleeps on (the transport trait's
    /// `atomic64_unwatched`): no ring, which saves its fence and the load of the bell.
    pub fn atomic64_unwatched(
        &self,
        pe: usize,
        offset: usize,
        op: AtomicOp<u64>,
    ) -> Result<u64, TeamError> {
        Ok(ops::apply_atomic64(self.word64(pe, offset, "atomic")?, op))
    }

    /// A 32-bit atomic, as [`atomic64`](Self::atomic64).
    pub fn atomic32(&self, pe: usize, offset: usize, op: AtomicOp<u32>) -> Result<u32, TeamError> {
        let p = self.check(pe, offset, 4, 4, "atomic")?;
        // SAFETY: as in `word64`, for a 4-byte word.
        let w = unsafe { &*p.cast::<AtomicU32>() };
        let old = ops::apply_atomic32(w, op);
        if op.wrote(old) {
            if let Some(b) = self.bell_to_ring(pe) {
                wake::ring_written(b, offset as u64, offset as u64 + 4);
            }
        }
        Ok(old)
    }

    /// Completes this PE's puts: a `SeqCst` fence (it also orders earlier puts before later
    /// loads, and pairs with the fence of a sleeper's registration), then rings every target's
    /// bytes put since the last `quiet`, so a waiter on plainly put data never waits out a
    /// sleep slice after the writer's `quiet`.
    pub fn quiet(&self) {
        fence(Ordering::SeqCst);
        if !self.parts.must_ring() {
            return;
        }
        wake::ring_pending(
            self.pending
                .iter()
                .enumerate()
                .filter(|(pe, _)| self.parts.heap(*pe).is_some())
                .map(|(pe, p)| (p, self.parts.bell(pe))),
        );
    }

    /// Waits on PE `pe`'s heap bell (this PE's own, or a peer's for a wait on its words) until
    /// `poll` says so, as a sleeper on bell keys `range` (`None`: woken by every write). The
    /// adaptive learning's site is the range's address when there is one, else the wait's
    /// name; `hint` turns the last ringer's CPU into the wait's CPU hint. `pe` is in the team
    /// and mapped here (the caller checked).
    #[allow(clippy::too_many_arguments)] // a wait's whole description
    pub fn wait(
        &self,
        pe: usize,
        range: Option<(u64, u64)>,
        poll: &mut dyn FnMut() -> Option<usize>,
        until: Until,
        peers: &dyn PeerWatch,
        hint: impl FnOnce(Option<u32>) -> Option<u32>,
        what: &'static str,
    ) -> Result<usize, WaitError> {
        let b = self.parts.bell(pe);
        let base = self.parts.heap(pe).map_or(0, |h| h as usize);
        let site = match range {
            Some((lo, _)) => base.wrapping_add(lo as usize),
            None => what.as_ptr() as usize,
        };
        b.bell
            .wait(range, poll, until, peers, hint(b.ringer.get()), site)
    }
}
