//! [`Team`]: the typed team API over a [`Transport`]: symmetric allocation, element-offset
//! addressing with bounds checks, signals, counters, lines, atomics and barriers.

use std::marker::PhantomData;
use std::mem::{align_of, size_of};
use std::sync::atomic::{AtomicU64 as StdAtomicU64, AtomicUsize, Ordering::Relaxed};
use std::time::Duration;

use bytemuck::{Pod, Zeroable};

use super::ops::{AtomicOp, Word};
use super::shm::ShmTransport;
use super::sym::{Sym, SymAt};
use super::transport::{Route, Transport};
use super::TeamError;
use crate::atomic::AtomicU64;
use crate::sync::{Patience, Until, Wait};

/// Objects start on this boundary (a cache line pair), so two objects never share a line.
const OBJECT_ALIGN: usize = 128;

/// Collective-call tags mixed into the agreement value, so that an `alloc` on one PE and a
/// `ct_create` on another are a mismatch too.
const TAG_ALLOC: u64 = 1 << 62;
pub(super) const TAG_COUNTER: u64 = 2 << 62;

/// One PE's handle on its team. See the [module docs](super) for semantics.
///
/// `Sync` when its transport is (the shared-memory one is): several threads of one PE may
/// call it at once (OpenSHMEM's `SHMEM_THREAD_MULTIPLE`). Its own bookkeeping is Relaxed
/// atomics (plain counters, no data published through them); collective calls (`alloc`,
/// `ct_create`, barriers) must still be made by one thread of the PE at a time (barriers over
/// different sets share the PE's arrival counters).
pub struct Team<X: Transport = ShmTransport> {
    pub(super) x: X,
    /// Heap bytes allocated so far (the same on every PE).
    pub(super) heap_used: AtomicUsize,
    /// Collective calls made so far (alloc, ct_create).
    pub(super) collectives: StdAtomicU64,
    /// Counters created so far.
    pub(super) counters: AtomicUsize,
    /// Where the next `wait_until_any` starts scanning (fairness).
    pub(super) any_start: AtomicUsize,
    /// How this PE's team calls wait by default ([`Team::set_patience`]).
    pub(super) patience: Patience,
}

/// How long one team call may wait: which of its forms was called (module docs,
/// "Waiting"). Turned into an [`Until`] only when the call must wait, so a condition that
/// holds at once costs no clock read.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Limit {
    /// `x()`: the team's patience.
    Patience,
    /// `x_timeout(.., d)`: the team's strategy, at most `d`.
    Within(Duration),
    /// `try_x()`: no wait ([`TeamError::WouldBlock`]).
    Now,
}

impl<X: Transport> std::fmt::Debug for Team<X> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Team")
            .field("rank", &self.x.rank())
            .field("size", &self.x.size())
            .field("heap_len", &self.x.heap_len())
            .field("heap_used", &self.heap_used.load(Relaxed))
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
        let transport_wait = transport.wait_strategy();
        Team {
            x: transport,
            heap_used: AtomicUsize::new(0),
            collectives: StdAtomicU64::new(0),
            counters: AtomicUsize::new(0),
            any_start: AtomicUsize::new(0),
            patience: Patience::new(transport_wait),
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

    /// Which mechanism serves this PE's operations on PE `pe` ([`Transport::route`]), or
    /// `None` when `pe` is not a PE of this team.
    pub fn route(&self, pe: usize) -> Option<Route> {
        self.x.route(pe)
    }

    /// How this PE's team calls wait by default: the strategy (the one it joined with,
    /// `HANDOFF_WAIT` or [`Launch::wait`](super::Launch::wait), until changed) and the default
    /// timeout (none until set).
    pub fn patience(&self) -> Patience {
        self.patience
    }

    /// Bytes in each PE's symmetric heap.
    pub fn heap_len(&self) -> usize {
        self.x.heap_len()
    }

    /// Heap bytes still free for [`alloc`](Self::alloc).
    pub fn heap_free(&self) -> usize {
        self.x.heap_len() - self.heap_used.load(Relaxed)
    }

    /// Sets how this PE's later team calls wait by default (their `x()` form): the strategy
    /// and the default timeout, after which a wait returns [`TeamError::Timeout`] (`None`:
    /// no limit; a dead peer still ends the wait). A `x_timeout` form takes this strategy
    /// and its own time limit, for that call only.
    ///
    /// A PE that joined with a strategy that never sleeps (`spin`, `spin-yield`) cannot take
    /// one that may sleep ([`TeamError::InvalidArgument`]): it told the other PEs at join
    /// that it never sleeps, and their writers skip its wake-ups.
    ///
    /// A barrier or collective (`alloc`, `ct_create`) that times out or fails has sent
    /// part of its messages: the team's collectives are out of step afterwards, so treat
    /// such an error as the end of the team (finish the PE with an error). Signal, counter
    /// and line waits may be retried.
    pub fn set_patience(&mut self, patience: Patience) -> Result<(), TeamError> {
        self.check_strategy(patience.wait)?;
        self.patience = patience;
        Ok(())
    }

    /// Whether this PE's waits may use `wait` ([`set_patience`](Self::set_patience)).
    pub(crate) fn check_strategy(&self, wait: Wait) -> Result<(), TeamError> {
        let joined = self.x.wait_strategy();
        if wait.may_sleep() && !joined.may_sleep() {
            return Err(TeamError::InvalidArgument(format!(
                "wait strategy {wait} may sleep, but this PE joined the team with {joined}, \
                 which never sleeps (the other PEs skip its wake-ups); start the team with \
                 --wait {wait} (HANDOFF_WAIT) instead"
            )));
        }
        Ok(())
    }

    /// The wait of a call with `limit`, starting now; `None` for a `try_` form.
    #[inline]
    pub(crate) fn until(&self, limit: Limit) -> Option<Until> {
        match limit {
            Limit::Patience => Some(self.patience.start()),
            Limit::Within(d) => Some(self.patience.start_with(d)),
            Limit::Now => None,
        }
    }

    /// The wait of a collective call with `limit` (which has no `try_` form).
    fn collective_until(&self, limit: Limit) -> Until {
        self.until(limit)
            .unwrap_or_else(|| self.patience.start_with(Duration::ZERO))
    }

    pub(super) fn next_collective(&self, value: u64, limit: Limit) -> Result<(), TeamError> {
        let seq = self.collectives.fetch_add(1, Relaxed) + 1;
        // Report what the callers passed, without the tag bits.
        let untag = |v: u64| v & (TAG_ALLOC - 1);
        self.x
            .agree(seq, value, self.collective_until(limit))
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
    /// order; otherwise every PE gets [`TeamError::Mismatch`]. Waits for the other PEs with
    /// the team's patience.
    pub fn alloc<T: Zeroable>(&self, len: usize) -> Result<Sym<T>, TeamError> {
        self.alloc_within(len, Limit::Patience)
    }

    /// [`alloc`](Self::alloc) waiting at most `timeout` for the other PEs.
    pub fn alloc_timeout<T: Zeroable>(
        &self,
        len: usize,
        timeout: Duration,
    ) -> Result<Sym<T>, TeamError> {
        self.alloc_within(len, Limit::Within(timeout))
    }

    fn alloc_within<T: Zeroable>(&self, len: usize, limit: Limit) -> Result<Sym<T>, TeamError> {
        let bytes = len.checked_mul(size_of::<T>()).ok_or_else(|| {
            TeamError::InvalidArgument(format!("{len} elements overflow the address space"))
        })?;
        let align = align_of::<T>().max(OBJECT_ALIGN);
        let used = self.heap_used.load(Relaxed);
        let start = used.next_multiple_of(align);
        let end = start.saturating_add(bytes.max(1));
        // Agree first, so a PE with too little room fails together with the others.
        self.next_collective(TAG_ALLOC | (bytes as u64 & (TAG_ALLOC - 1)), limit)?;
        if end > self.x.heap_len() {
            return Err(TeamError::HeapExhausted {
                requested: end - used,
                available: self.x.heap_len() - used,
                heap: self.x.heap_len(),
            });
        }
        self.heap_used.store(end, Relaxed);
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
    /// Do not hold the slice across a put, get or atomic of this PE into its own copy of
    /// the same range (`pe == rank()`): that writes under a live shared reference.
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

    /// PE `pe`'s instance of a `u64` object as atomics this PE loads and stores directly
    /// (OpenSHMEM's `shmem_ptr`), or `None` when `pe` is not a PE of the team or is reached
    /// only through the transport's calls (another node). A store through it is one cache
    /// line's transfer and nothing else: it wakes no PE asleep in a blocking wait on the
    /// word (use [`signal`](Self::signal) or [`atomic_set`](Self::atomic_set) for that), so
    /// pair it with polling or a spinning wait.
    pub fn peer_atomic(&self, sym: &Sym<u64>, pe: usize) -> Option<&[StdAtomicU64]> {
        let base = self.x.peer_heap(pe)?;
        // SAFETY: `peer_heap` gives `pe`'s partition of `heap_len()` bytes, valid as long as
        // the transport (borrowed with `self`); `sym` was allocated by this team, so it lies
        // at the same offset in every partition, 8-byte aligned; AtomicU64 has the layout of
        // u64 and is the right way to share a word that other processes write.
        Some(unsafe { std::slice::from_raw_parts(base.add(sym.offset).cast(), sym.len) })
    }

    #[inline]
    pub(super) fn word(&self, at: &SymAt<u64>, op: &'static str) -> Result<&AtomicU64, TeamError> {
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
        self.x.put(pe, at, bytes_of(src))
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
        self.x.put_nbi(pe, at, bytes_of(src))
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
        self.x.get(pe, at, bytes_of_mut(dst))
    }

    /// Orders this PE's earlier puts and atomics before its later ones (module docs).
    pub fn fence(&self) {
        self.x.fence()
    }

    /// Completes this PE's earlier puts and atomics (module docs).
    pub fn quiet(&self) {
        self.x.quiet()
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

    /// Barrier over all PEs (dissemination, ⌈log2 p⌉ rounds; a hub when the PEs outnumber the CPUs); completes earlier puts.
    /// Waits with the team's patience.
    pub fn barrier_all(&self) -> Result<(), TeamError> {
        self.barrier_all_within(Limit::Patience)
    }

    /// [`barrier_all`](Self::barrier_all) waiting at most `timeout`.
    pub fn barrier_all_timeout(&self, timeout: Duration) -> Result<(), TeamError> {
        self.barrier_all_within(Limit::Within(timeout))
    }

    fn barrier_all_within(&self, limit: Limit) -> Result<(), TeamError> {
        let all: Vec<usize> = (0..self.size()).collect();
        self.x.barrier(&all, self.collective_until(limit))
    }

    /// Barrier over the PEs in `ranks` (any order, duplicates ignored; must include this PE
    /// and be the same set on every member). Waits with the team's patience.
    pub fn barrier(&self, ranks: &[usize]) -> Result<(), TeamError> {
        self.barrier_within(ranks, Limit::Patience)
    }

    /// [`barrier`](Self::barrier) waiting at most `timeout`.
    pub fn barrier_timeout(&self, ranks: &[usize], timeout: Duration) -> Result<(), TeamError> {
        self.barrier_within(ranks, Limit::Within(timeout))
    }

    fn barrier_within(&self, ranks: &[usize], limit: Limit) -> Result<(), TeamError> {
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
        self.x.barrier(&set, self.collective_until(limit))
    }

    /// Ends this PE's part normally (`shmem_finalize`): a barrier over all PEs (with the
    /// team's patience), then marks this PE finished, so its exit ends nobody's wait.
    /// Dropping a `Team` without it counts as leaving after an error: the other PEs' waits
    /// then fail with [`TeamError::PeerDied`].
    pub fn finalize(self) -> Result<(), TeamError> {
        self.finalize_within(Limit::Patience)
    }

    /// [`finalize`](Self::finalize) waiting at most `timeout` for the other PEs.
    pub fn finalize_timeout(self, timeout: Duration) -> Result<(), TeamError> {
        self.finalize_within(Limit::Within(timeout))
    }

    fn finalize_within(self, limit: Limit) -> Result<(), TeamError> {
        self.quiet();
        self.barrier_all_within(limit)?;
        self.x.finish();
        Ok(())
    }
}

/// The byte offset of element `index` of `sym` for an access of `count` elements, checked
/// against the object.
#[inline]
pub(super) fn byte_offset<T>(
    sym: &Sym<T>,
    index: usize,
    count: usize,
    op: &'static str,
) -> Result<usize, TeamError> {
    let end = index.saturating_add(count);
    if end > sym.len {
        return Err(out_of_bounds(op, index, end, sym.len));
    }
    Ok(sym.offset + index * size_of::<T>())
}

/// The error of a failed [`byte_offset`], out of line.
#[cold]
#[inline(never)]
fn out_of_bounds(op: &'static str, offset: usize, end: usize, len: usize) -> TeamError {
    TeamError::OutOfBounds {
        op,
        offset,
        end,
        len,
    }
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

/// The bytes of `s` (empty for a zero-sized `T`, which bytemuck refuses to cast).
pub(super) fn bytes_of<T: Pod>(s: &[T]) -> &[u8] {
    if size_of::<T>() == 0 {
        &[]
    } else {
        bytemuck::cast_slice(s)
    }
}

/// The bytes of `s`, writable (empty for a zero-sized `T`).
fn bytes_of_mut<T: Pod>(s: &mut [T]) -> &mut [u8] {
    if size_of::<T>() == 0 {
        &mut []
    } else {
        bytemuck::cast_slice_mut(s)
    }
}
