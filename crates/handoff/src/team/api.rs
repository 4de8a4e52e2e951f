//! [`Team`]: the typed team API over a [`Transport`]: symmetric allocation, element-offset
//! addressing with bounds checks, signals, counters, lines, atomics and barriers.

use std::cell::Cell;
use std::marker::PhantomData;
use std::mem::{align_of, size_of};
use std::time::Duration;

use bytemuck::{Pod, Zeroable};

use super::ops::{AtomicOp, Cmp, SignalOp, Word};
use super::shm::ShmTransport;
use super::sym::{Counter, Line, Sym, SymAt, LINE_PAYLOAD};
use super::transport::Transport;
use super::{TeamError, MAX_COUNTERS};
use crate::atomic::AtomicU64;
use crate::sync::Wait;
use crate::sys::Deadline;

/// Objects start on this boundary (a cache line pair), so two objects never share a line.
const OBJECT_ALIGN: usize = 128;

/// Collective-call tags mixed into the agreement value, so that an `alloc` on one PE and a
/// `ct_create` on another are a mismatch too.
const TAG_ALLOC: u64 = 1 << 62;
const TAG_COUNTER: u64 = 2 << 62;

/// One PE's handle on its team. See the [module docs](super) for semantics.
///
/// Not `Sync`: a PE is one thread of control, as in OpenSHMEM's default threading level.
pub struct Team<X: Transport = ShmTransport> {
    x: X,
    /// Heap bytes allocated so far (the same on every PE).
    heap_used: Cell<usize>,
    /// Collective calls made so far (alloc, ct_create).
    collectives: Cell<u64>,
    /// Counters created so far.
    counters: Cell<usize>,
    /// Where the next `wait_until_any` starts scanning (fairness).
    any_start: Cell<usize>,
    /// How long a wait may take before [`TeamError::Timeout`]; `None`: no limit.
    timeout: Cell<Option<Duration>>,
    _not_sync: PhantomData<Cell<()>>,
}

impl<X: Transport> std::fmt::Debug for Team<X> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Team")
            .field("rank", &self.x.rank())
            .field("size", &self.x.size())
            .field("heap_len", &self.x.heap_len())
            .field("heap_used", &self.heap_used.get())
            .finish_non_exhaustive()
    }
}

impl Team<ShmTransport> {
    /// Joins the team this process was started in (by `handoff run` or [`Launch`]), from
    /// the environment (`HANDOFF_TEAM`, `HANDOFF_RANK`, `HANDOFF_SIZE`, `HANDOFF_WAIT`,
    /// `HANDOFF_CPU`): opens the segment, pins itself if asked, and waits (a barrier) until
    /// every PE has joined.
    ///
    /// [`Launch`]: super::Launch
    pub fn from_env() -> Result<Self, TeamError> {
        let x = ShmTransport::from_env()?;
        let team = Team::new(x);
        team.barrier_all()?;
        Ok(team)
    }
}

impl<X: Transport> Team<X> {
    /// A team over a transport that has joined already.
    pub fn new(transport: X) -> Self {
        Team {
            x: transport,
            heap_used: Cell::new(0),
            collectives: Cell::new(0),
            counters: Cell::new(0),
            any_start: Cell::new(0),
            timeout: Cell::new(None),
            _not_sync: PhantomData,
        }
    }

    /// The transport.
    pub fn transport(&self) -> &X {
        &self.x
    }

    /// This PE's rank, `0..size()`.
    pub fn rank(&self) -> usize {
        self.x.rank()
    }

    /// The number of PEs.
    pub fn size(&self) -> usize {
        self.x.size()
    }

    /// The wait strategy every wait of this team uses.
    pub fn wait_strategy(&self) -> Wait {
        self.x.wait_strategy()
    }

    /// Bytes in each PE's symmetric heap.
    pub fn heap_len(&self) -> usize {
        self.x.heap_len()
    }

    /// Heap bytes still free for [`alloc`](Self::alloc).
    pub fn heap_free(&self) -> usize {
        self.x.heap_len() - self.heap_used.get()
    }

    /// Bounds every later wait (signal waits, counters, barriers) by `timeout`, after which
    /// it returns [`TeamError::Timeout`]; `None` (the default) waits without limit (a dead
    /// peer still ends the wait).
    pub fn set_timeout(&self, timeout: Option<Duration>) {
        self.timeout.set(timeout);
    }

    fn deadline(&self) -> Option<Deadline> {
        self.timeout.get().map(Deadline::after)
    }

    fn next_collective(&self, value: u64) -> Result<(), TeamError> {
        let seq = self.collectives.get() + 1;
        self.collectives.set(seq);
        // Report what the callers passed, without the tag bits.
        let untag = |v: u64| v & (TAG_ALLOC - 1);
        self.x
            .agree(seq, value, self.deadline())
            .map_err(|e| match e {
                TeamError::Mismatch {
                    seq,
                    rank,
                    ours,
                    theirs,
                } => TeamError::Mismatch {
                    seq,
                    rank,
                    ours: untag(ours),
                    theirs: untag(theirs),
                },
                e => e,
            })
    }

    // ---- symmetric heap --------------------------------------------------------------

    /// Collective: allocates `len` elements of `T` in every PE's heap, zero-filled the first
    /// time (memory is never reused). Every PE must call it with the same `len` in the same
    /// order; otherwise every PE gets [`TeamError::Mismatch`].
    pub fn alloc<T: Zeroable>(&self, len: usize) -> Result<Sym<T>, TeamError> {
        let bytes = len.checked_mul(size_of::<T>()).ok_or_else(|| {
            TeamError::InvalidArgument(format!("{len} elements overflow the address space"))
        })?;
        let align = align_of::<T>().max(OBJECT_ALIGN);
        let used = self.heap_used.get();
        let start = used.next_multiple_of(align);
        let end = start.saturating_add(bytes.max(1));
        // Agree first, so a PE with too little room fails together with the others.
        self.next_collective(TAG_ALLOC | (bytes as u64 & (TAG_ALLOC - 1)))?;
        if end > self.x.heap_len() {
            return Err(TeamError::HeapExhausted {
                requested: end - used,
                available: self.x.heap_len() - used,
                heap: self.x.heap_len(),
            });
        }
        self.heap_used.set(end);
        Ok(Sym {
            offset: start,
            len,
            _t: PhantomData,
        })
    }

    /// This PE's own instance of `sym`, as a slice.
    ///
    /// Other PEs may put into it at any time; read it where the protocol says no put is in
    /// flight (after the signal, counter or barrier that completes them), else values may be
    /// torn. For words that change under you, use [`local_atomic`](Self::local_atomic).
    pub fn local<T: Pod>(&self, sym: &Sym<T>) -> &[T] {
        // SAFETY: `sym` was allocated by this team: offset + len * size_of::<T>() lies within
        // the local partition (heap_len bytes, valid as long as the transport), aligned for
        // T; T: Pod is valid for any bytes. Concurrent remote writes are a protocol matter
        // documented above (they cannot make a Pod value invalid).
        unsafe { std::slice::from_raw_parts(self.x.local_heap().add(sym.offset).cast(), sym.len) }
    }

    /// This PE's own instance of `sym` for writing (initial values before a barrier, or
    /// computing in place); the same rules as [`local`](Self::local) about remote puts.
    ///
    /// Takes `&mut self` so no other local view is alive at the same time.
    pub fn local_mut<T: Pod>(&mut self, sym: &Sym<T>) -> &mut [T] {
        // SAFETY: as in `local`; `&mut self` excludes other views from this handle.
        unsafe {
            std::slice::from_raw_parts_mut(self.x.local_heap().add(sym.offset).cast(), sym.len)
        }
    }

    /// This PE's own instance of a `u64` object as atomics (signal words, flags).
    pub fn local_atomic(&self, sym: &Sym<u64>) -> &[std::sync::atomic::AtomicU64] {
        // SAFETY: as in `local`; AtomicU64 has the layout of u64 and is the right way to
        // share a word that other processes write.
        unsafe { std::slice::from_raw_parts(self.x.local_heap().add(sym.offset).cast(), sym.len) }
    }

    fn word(&self, at: &SymAt<u64>, op: &'static str) -> Result<&AtomicU64, TeamError> {
        let off = byte_offset(&at.sym, at.index, 1, op)?;
        // SAFETY: `byte_offset` checked the element lies in the object, which lies in the
        // local partition; u64 objects are 128-byte aligned, so the word is 8-byte aligned.
        Ok(unsafe { &*self.x.local_heap().add(off).cast::<AtomicU64>() })
    }

    // ---- one-sided ------------------------------------------------------------------

    /// Copies `src` into PE `pe`'s `dst`, from element `offset` on (blocking).
    pub fn put<T: Pod>(
        &self,
        dst: &Sym<T>,
        offset: usize,
        src: &[T],
        pe: usize,
    ) -> Result<(), TeamError> {
        let at = byte_offset(dst, offset, src.len(), "put")?;
        self.x.put(pe, at, bytemuck::cast_slice(src))
    }

    /// [`put`](Self::put) that may return before the copy is complete; [`quiet`](Self::quiet)
    /// completes it (on shared memory it is complete at once).
    pub fn put_nbi<T: Pod>(
        &self,
        dst: &Sym<T>,
        offset: usize,
        src: &[T],
        pe: usize,
    ) -> Result<(), TeamError> {
        let at = byte_offset(dst, offset, src.len(), "put_nbi")?;
        self.x.put_nbi(pe, at, bytemuck::cast_slice(src))
    }

    /// Copies PE `pe`'s `src`, from element `offset` on, into `dst` (blocking).
    pub fn get<T: Pod>(
        &self,
        src: &Sym<T>,
        offset: usize,
        dst: &mut [T],
        pe: usize,
    ) -> Result<(), TeamError> {
        let at = byte_offset(src, offset, dst.len(), "get")?;
        self.x.get(pe, at, bytemuck::cast_slice_mut(dst))
    }

    /// Orders this PE's earlier puts and atomics before its later ones (module docs).
    pub fn fence(&self) {
        self.x.fence()
    }

    /// Completes this PE's earlier puts and atomics (module docs).
    pub fn quiet(&self) {
        self.x.quiet()
    }

    // ---- signals ---------------------------------------------------------------------

    /// Put with signal: copies `src` into PE `pe`'s `dst` from element `offset`, then
    /// updates PE `pe`'s signal word `sig` by `op`; PE `pe` sees the new signal only after
    /// the data is visible, and a waiter asleep there is woken.
    pub fn put_signal<T: Pod>(
        &self,
        dst: &Sym<T>,
        offset: usize,
        src: &[T],
        sig: impl Into<SymAt<u64>>,
        op: SignalOp,
        pe: usize,
    ) -> Result<(), TeamError> {
        let sig = sig.into();
        let at = byte_offset(dst, offset, src.len(), "put_signal")?;
        let s = byte_offset(&sig.sym, sig.index, 1, "put_signal (signal word)")?;
        self.x.put_signal(pe, at, bytemuck::cast_slice(src), s, op)
    }

    /// Updates PE `pe`'s signal word `sig` by `op` after this PE's earlier puts to it
    /// (`shmem_signal_add/set`), waking its waiter.
    pub fn signal(
        &self,
        sig: impl Into<SymAt<u64>>,
        op: SignalOp,
        pe: usize,
    ) -> Result<(), TeamError> {
        let sig = sig.into();
        let s = byte_offset(&sig.sym, sig.index, 1, "signal")?;
        self.x.signal(pe, s, op)
    }

    /// This PE's signal word `sig` (Acquire), `shmem_signal_fetch`.
    pub fn signal_fetch(&self, sig: impl Into<SymAt<u64>>) -> Result<u64, TeamError> {
        let w = self.word(&sig.into(), "signal_fetch")?;
        Ok(super::ops::load_signal(w))
    }

    /// Waits until this PE's signal word `sig` satisfies `cmp value`; returns the value seen.
    pub fn signal_wait_until(
        &self,
        sig: impl Into<SymAt<u64>>,
        cmp: Cmp,
        value: u64,
    ) -> Result<u64, TeamError> {
        let w = self.word(&sig.into(), "signal_wait_until")?;
        let mut seen = 0;
        self.x.wait_local(
            &mut || {
                let v = super::ops::load_signal(w);
                seen = v;
                cmp.holds(v, value).then_some(0)
            },
            self.deadline(),
            "a signal",
        )?;
        Ok(seen)
    }

    fn words<'a>(
        &'a self,
        sigs: &Sym<u64>,
        status: Option<&[bool]>,
        op: &'static str,
    ) -> Result<&'a [std::sync::atomic::AtomicU64], TeamError> {
        if let Some(st) = status {
            if st.len() != sigs.len {
                return Err(TeamError::InvalidArgument(format!(
                    "{op}: status has {} entries for {} signals; give one per signal",
                    st.len(),
                    sigs.len
                )));
            }
        }
        Ok(self.local_atomic(sigs))
    }

    /// Waits until every word of `sigs` not excluded by `status` (`true` = skip) satisfies
    /// `cmp value` (`shmem_wait_until_all`).
    pub fn wait_until_all(
        &self,
        sigs: &Sym<u64>,
        status: Option<&[bool]>,
        cmp: Cmp,
        value: u64,
    ) -> Result<(), TeamError> {
        let words = self.words(sigs, status, "wait_until_all")?;
        let skip = |i: usize| status.is_some_and(|s| s[i]);
        self.x.wait_local(
            &mut || {
                let all = words.iter().enumerate().all(|(i, w)| {
                    skip(i) || cmp.holds(w.load(std::sync::atomic::Ordering::Acquire), value)
                });
                all.then_some(0)
            },
            self.deadline(),
            "all of a set of signals",
        )?;
        Ok(())
    }

    /// Waits until some word of `sigs` not excluded by `status` satisfies `cmp value` and
    /// returns its index (`shmem_wait_until_any`). Fair: each call starts scanning one past
    /// where the previous call's scan started, so a word that stays true cannot starve the
    /// others. With every word excluded, returns `None` at once.
    pub fn wait_until_any(
        &self,
        sigs: &Sym<u64>,
        status: Option<&[bool]>,
        cmp: Cmp,
        value: u64,
    ) -> Result<Option<usize>, TeamError> {
        let words = self.words(sigs, status, "wait_until_any")?;
        let n = words.len();
        let skip = |i: usize| status.is_some_and(|s| s[i]);
        if (0..n).all(skip) {
            return Ok(None);
        }
        let start = self.any_start.get() % n;
        self.any_start.set((start + 1) % n);
        let i = self.x.wait_local(
            &mut || {
                any_from(start, n, |i| {
                    !skip(i)
                        && cmp.holds(words[i].load(std::sync::atomic::Ordering::Acquire), value)
                })
            },
            self.deadline(),
            "any of a set of signals",
        )?;
        Ok(Some(i))
    }

    /// Waits until at least one word of `sigs` not excluded by `status` satisfies
    /// `cmp value`; returns the indices of all that do (`shmem_wait_until_some`).
    pub fn wait_until_some(
        &self,
        sigs: &Sym<u64>,
        status: Option<&[bool]>,
        cmp: Cmp,
        value: u64,
    ) -> Result<Vec<usize>, TeamError> {
        let words = self.words(sigs, status, "wait_until_some")?;
        let skip = |i: usize| status.is_some_and(|s| s[i]);
        if (0..words.len()).all(skip) {
            return Ok(Vec::new());
        }
        let holds = |i: usize| {
            !skip(i) && cmp.holds(words[i].load(std::sync::atomic::Ordering::Acquire), value)
        };
        self.x.wait_local(
            &mut || (0..words.len()).find(|&i| holds(i)),
            self.deadline(),
            "some of a set of signals",
        )?;
        Ok((0..words.len()).filter(|&i| holds(i)).collect())
    }

    // ---- counters (the seed's counting puts) ------------------------------------------

    /// Collective: creates a counter, at 0, with the same index on every PE
    /// (`shmem_ct_create`). At most [`MAX_COUNTERS`] per team.
    pub fn ct_create(&self) -> Result<Counter, TeamError> {
        let ct = self.counters.get();
        self.next_collective(TAG_COUNTER | ct as u64)?;
        if ct >= MAX_COUNTERS {
            return Err(TeamError::CounterLimit { max: MAX_COUNTERS });
        }
        self.counters.set(ct + 1);
        Ok(Counter(ct))
    }

    /// This PE's value of counter `ct` (`shmem_ct_get`).
    pub fn ct_get(&self, ct: &Counter) -> u64 {
        self.x.counter_get(ct.0)
    }

    /// Sets this PE's counter `ct` (`shmem_ct_set`; the receiver manages its counter).
    pub fn ct_set(&self, ct: &Counter, value: u64) {
        self.x.counter_set(ct.0, value)
    }

    /// Waits until this PE's counter `ct` is at least `n` (`shmem_ct_wait`); returns its value.
    pub fn ct_wait(&self, ct: &Counter, n: u64) -> Result<u64, TeamError> {
        self.x.counter_wait(ct.0, n, self.deadline())
    }

    /// Counting put (`shmem_putct`): copies `src` into PE `pe`'s `dst` from element
    /// `offset`, then adds 1 to PE `pe`'s counter `ct`, seen only after the data.
    pub fn put_ct<T: Pod>(
        &self,
        ct: &Counter,
        dst: &Sym<T>,
        offset: usize,
        src: &[T],
        pe: usize,
    ) -> Result<(), TeamError> {
        let at = byte_offset(dst, offset, src.len(), "put_ct")?;
        self.x.put_counted(pe, at, bytemuck::cast_slice(src), ct.0)
    }

    /// Adds `n` to PE `pe`'s counter `ct` after this PE's earlier puts to it.
    pub fn ct_add(&self, ct: &Counter, n: u64, pe: usize) -> Result<(), TeamError> {
        self.x.counter_add(pe, ct.0, n)
    }

    // ---- lines: payload and sequence in one cache line -----------------------------------

    /// Puts `payload` (at most [`LINE_PAYLOAD`] bytes) and sequence number `seq` into PE
    /// `pe`'s line `dst`: the payload bytes, then the sequence word (Release) in the same
    /// cache line, so the line moves to the reader once.
    pub fn put_line(
        &self,
        dst: impl Into<SymAt<Line>>,
        payload: &[u8],
        seq: u64,
        pe: usize,
    ) -> Result<(), TeamError> {
        if payload.len() > LINE_PAYLOAD {
            return Err(TeamError::LineTooLong {
                len: payload.len(),
                max: LINE_PAYLOAD,
            });
        }
        let dst = dst.into();
        let at = byte_offset(&dst.sym, dst.index, 1, "put_line")?;
        self.x
            .put_signal(pe, at, payload, at + LINE_PAYLOAD, SignalOp::Set(seq))
    }

    /// Waits until this PE's line `src` carries a sequence number `>= seq`, then copies its
    /// first `out.len()` payload bytes into `out`; returns the sequence number seen.
    pub fn wait_line(
        &self,
        src: impl Into<SymAt<Line>>,
        seq: u64,
        out: &mut [u8],
    ) -> Result<u64, TeamError> {
        if out.len() > LINE_PAYLOAD {
            return Err(TeamError::LineTooLong {
                len: out.len(),
                max: LINE_PAYLOAD,
            });
        }
        let src = src.into();
        let at = byte_offset(&src.sym, src.index, 1, "wait_line")?;
        // SAFETY: `byte_offset` checked the line lies in the local partition; lines are
        // 64-byte aligned objects (128-byte aligned start, 64-byte elements).
        let line = unsafe { &*self.x.local_heap().add(at).cast::<Line>() };
        let mut seen = 0;
        self.x.wait_local(
            &mut || {
                let v = super::ops::load_signal(&line.seq);
                seen = v;
                (v >= seq).then_some(0)
            },
            self.deadline(),
            "a line",
        )?;
        // SAFETY: the payload is plain bytes inside the line; the Acquire load above (pairs
        // with the Release store of the sequence in `put_line`) makes the writer's bytes
        // visible. A writer already writing the next message may tear them: the line
        // protocol (one message in flight per line) excludes that.
        unsafe {
            std::ptr::copy_nonoverlapping(line.payload.as_ptr(), out.as_mut_ptr(), out.len())
        };
        Ok(seen)
    }

    // ---- atomics ----------------------------------------------------------------------

    /// A remote atomic on PE `pe`'s word `target`; returns the value before it.
    pub fn atomic<W: Word>(
        &self,
        target: impl Into<SymAt<W>>,
        op: AtomicOp<W>,
        pe: usize,
    ) -> Result<W, TeamError> {
        let t = target.into();
        let at = byte_offset(&t.sym, t.index, 1, "atomic")?;
        if W::BYTES == 8 {
            Ok(W::from_u64(self.x.atomic64(pe, at, op.widen())?))
        } else {
            let op32 = narrow(op);
            Ok(W::from_u64(u64::from(self.x.atomic32(pe, at, op32)?)))
        }
    }

    /// Atomic read (`shmem_atomic_fetch`).
    pub fn atomic_fetch<W: Word>(
        &self,
        target: impl Into<SymAt<W>>,
        pe: usize,
    ) -> Result<W, TeamError> {
        self.atomic(target, AtomicOp::Fetch, pe)
    }
    /// Atomic store (`shmem_atomic_set`).
    pub fn atomic_set<W: Word>(
        &self,
        target: impl Into<SymAt<W>>,
        value: W,
        pe: usize,
    ) -> Result<(), TeamError> {
        self.atomic(target, AtomicOp::Set(value), pe).map(|_| ())
    }
    /// Atomic swap; returns the old value (`shmem_atomic_swap`).
    pub fn atomic_swap<W: Word>(
        &self,
        target: impl Into<SymAt<W>>,
        value: W,
        pe: usize,
    ) -> Result<W, TeamError> {
        self.atomic(target, AtomicOp::Swap(value), pe)
    }
    /// Atomic add returning the old value (`shmem_atomic_fetch_add`).
    pub fn atomic_fetch_add<W: Word>(
        &self,
        target: impl Into<SymAt<W>>,
        value: W,
        pe: usize,
    ) -> Result<W, TeamError> {
        self.atomic(target, AtomicOp::FetchAdd(value), pe)
    }
    /// Atomic add (`shmem_atomic_add`).
    pub fn atomic_add<W: Word>(
        &self,
        target: impl Into<SymAt<W>>,
        value: W,
        pe: usize,
    ) -> Result<(), TeamError> {
        self.atomic(target, AtomicOp::FetchAdd(value), pe)
            .map(|_| ())
    }
    /// Atomic compare-and-swap; returns the old value (`shmem_atomic_compare_swap`).
    pub fn atomic_compare_swap<W: Word>(
        &self,
        target: impl Into<SymAt<W>>,
        expected: W,
        new: W,
        pe: usize,
    ) -> Result<W, TeamError> {
        self.atomic(target, AtomicOp::CompareSwap { expected, new }, pe)
    }
    /// Atomic and, returning the old value.
    pub fn atomic_fetch_and<W: Word>(
        &self,
        target: impl Into<SymAt<W>>,
        value: W,
        pe: usize,
    ) -> Result<W, TeamError> {
        self.atomic(target, AtomicOp::FetchAnd(value), pe)
    }
    /// Atomic or, returning the old value.
    pub fn atomic_fetch_or<W: Word>(
        &self,
        target: impl Into<SymAt<W>>,
        value: W,
        pe: usize,
    ) -> Result<W, TeamError> {
        self.atomic(target, AtomicOp::FetchOr(value), pe)
    }
    /// Atomic xor, returning the old value.
    pub fn atomic_fetch_xor<W: Word>(
        &self,
        target: impl Into<SymAt<W>>,
        value: W,
        pe: usize,
    ) -> Result<W, TeamError> {
        self.atomic(target, AtomicOp::FetchXor(value), pe)
    }

    // ---- barriers ---------------------------------------------------------------------

    /// Barrier over all PEs (dissemination, ⌈log2 p⌉ rounds); completes earlier puts.
    pub fn barrier_all(&self) -> Result<(), TeamError> {
        let all: Vec<usize> = (0..self.size()).collect();
        self.x.barrier(&all, self.deadline())
    }

    /// Barrier over the PEs in `ranks` (any order, duplicates ignored; must include this PE
    /// and be the same set on every member).
    pub fn barrier(&self, ranks: &[usize]) -> Result<(), TeamError> {
        let mut set = ranks.to_vec();
        set.sort_unstable();
        set.dedup();
        if let Some(&pe) = set.iter().find(|&&r| r >= self.size()) {
            return Err(TeamError::NoSuchPe {
                pe,
                size: self.size(),
            });
        }
        if set.binary_search(&self.rank()).is_err() {
            return Err(TeamError::InvalidArgument(format!(
                "barrier over {set:?} called by PE {}, which is not in it; only members call it",
                self.rank()
            )));
        }
        self.x.barrier(&set, self.deadline())
    }

    /// Ends this PE's part normally (`shmem_finalize`): a barrier over all PEs, then marks
    /// this PE finished, so its exit ends nobody's wait. Dropping a `Team` without it counts
    /// as leaving after an error: the other PEs' waits then fail with
    /// [`TeamError::PeerDied`].
    pub fn finalize(self) -> Result<(), TeamError> {
        self.quiet();
        self.barrier_all()?;
        self.x.finish();
        Ok(())
    }
}

/// The first index `i` in `start, start+1, ..., n-1, 0, ..., start-1` with `holds(i)`.
#[inline]
pub(crate) fn any_from(
    start: usize,
    n: usize,
    mut holds: impl FnMut(usize) -> bool,
) -> Option<usize> {
    (start..n).chain(0..start).find(|&i| holds(i))
}

/// The byte offset of element `index` of `sym` for an access of `count` elements, checked
/// against the object.
fn byte_offset<T>(
    sym: &Sym<T>,
    index: usize,
    count: usize,
    op: &'static str,
) -> Result<usize, TeamError> {
    let end = index.saturating_add(count);
    if end > sym.len {
        return Err(TeamError::OutOfBounds {
            op,
            offset: index,
            end,
            len: sym.len,
        });
    }
    Ok(sym.offset + index * size_of::<T>())
}

fn narrow<W: Word>(op: AtomicOp<W>) -> AtomicOp<u32> {
    let n = |w: W| w.to_u64() as u32;
    match op {
        AtomicOp::Fetch => AtomicOp::Fetch,
        AtomicOp::Set(v) => AtomicOp::Set(n(v)),
        AtomicOp::Swap(v) => AtomicOp::Swap(n(v)),
        AtomicOp::FetchAdd(v) => AtomicOp::FetchAdd(n(v)),
        AtomicOp::CompareSwap { expected, new } => AtomicOp::CompareSwap {
            expected: n(expected),
            new: n(new),
        },
        AtomicOp::FetchAnd(v) => AtomicOp::FetchAnd(n(v)),
        AtomicOp::FetchOr(v) => AtomicOp::FetchOr(n(v)),
        AtomicOp::FetchXor(v) => AtomicOp::FetchXor(n(v)),
    }
}
