//! [`ShmTransport`]: the team transport over one shared segment on one node. A put is a
//! copy into the target's partition of the mapped segment; an atomic is a hardware RMW on
//! the mapped word; waits poll this PE's own words and sleep on its heap's
//! [`RangeBell`](crate::sync::RangeBell), naming the bytes they wait on when they can. A put,
//! atomic or signal wakes only the sleepers whose bytes it wrote (and the sleepers that could
//! not name theirs); a writer whose target sleeps on other words pays one shared load and no
//! system call. Signals and atomics ring with the bell's fence; a plain put checks without
//! it, and the writer's `quiet` (or barrier) rings, fenced, everything it put since, so a
//! waiter on plainly put data is woken by the put or by the writer's `quiet`, never waits out
//! a sleep slice. Barriers sleep on a bell of their own, rung only by barrier arrivals. In a
//! team whose PEs all spin (no PE's wait strategy sleeps: `PeCtrl::sleeps`), nobody ever
//! sleeps on a heap bell, and writers skip the heap bells altogether (`must_ring`).
//!
//! Peers are watched through the PE states of [`super::layout`]: a PE that died (or left
//! without `finalize`) ends every other PE's wait with [`TeamError::PeerDied`] naming it.

use std::sync::atomic::{AtomicBool, AtomicU8};
use std::sync::Mutex;
use std::time::Duration;

use super::barrier::{self, Node};
use super::env;
use super::layout::*;
use super::ops::{self, AtomicOp, SignalOp};
use super::quiet_bells::{bells_verdict, BELLS_QUIET, BELLS_RING, BELLS_UNDECIDED};
use super::shared_cpu;
use super::transport::Transport;
use super::{TeamError, MAX_COUNTERS};
use crate::atomic::{fence, AtomicU32, AtomicU64, Ordering};
use crate::shm::{OpenOptions, Segment};
use crate::sync::Wait;
use crate::sys::{Deadline, ProcessId};

/// The bytes put to one target since the last `quiet` (see `ShmTransport::pending`).
struct Pending {
    lo: AtomicU64,
    hi: AtomicU64,
}

impl Pending {
    fn new() -> Self {
        Pending {
            lo: AtomicU64::new(u64::MAX),
            hi: AtomicU64::new(0),
        }
    }

    /// Widens the range to cover `[lo, hi)`: two local loads when it already does.
    #[inline]
    fn cover(&self, lo: u64, hi: u64) {
        // Relaxed: only this PE's `quiet` reads these, after a SeqCst fence.
        if self.lo.load(Ordering::Relaxed) > lo {
            self.lo.fetch_min(lo, Ordering::Relaxed);
        }
        if self.hi.load(Ordering::Relaxed) < hi {
            self.hi.fetch_max(hi, Ordering::Relaxed);
        }
    }

    /// Takes the range (leaving it empty), if not empty.
    fn take(&self) -> Option<(u64, u64)> {
        if self.hi.load(Ordering::Relaxed) == 0 {
            return None;
        }
        let lo = self.lo.swap(u64::MAX, Ordering::Relaxed);
        let hi = self.hi.swap(0, Ordering::Relaxed);
        (lo < hi).then_some((lo, hi))
    }
}

/// `ShmTransport::crowded`: not decided yet, shares its CPU, has its CPU alone.
const UNDECIDED: u8 = 0;
const SHARED: u8 = 1;
const ALONE: u8 = 2;

/// `put_signal` rings data and signal as one range when they lie within this many bytes.
const LINE_HULL: u64 = 64;

/// How long a PE waits for the launcher's segment to be ready when it joins.
const JOIN_TIMEOUT: Duration = Duration::from_secs(30);

/// The shared-memory transport: this PE's view of the team segment.
pub struct ShmTransport {
    seg: Segment,
    pub(super) rank: usize,
    pub(super) size: usize,
    heap_len: usize,
    heap_stride: usize,
    ctrl_offset: usize,
    ctrl_stride: usize,
    /// PE 0's heap partition and this PE's, in the mapping (which neither moves nor goes
    /// while `seg` lives): computed once, as every hand-off call needs one of them on its
    /// critical path. `local` is `heap(rank)`, kept because deriving it in the waits cost
    /// ~1 ns of a put-signal hand-off (`line_hop -n 1`, issue #23 session 10).
    heap0: *mut u8,
    local: *mut u8,
    wait: Wait,
    pub(super) launcher: ProcessId,
    /// Barrier arrivals consumed so far, per sender rank.
    /// (A barrier is a collective: one thread of the PE at a time; the lock only makes
    /// the transport `Sync`.)
    seen: Mutex<Vec<u64>>,
    /// Per target PE, the bytes `[lo, hi)` this PE put there since its last `quiet` that
    /// no fenced ring covered yet (`lo > hi`: none): `quiet` rings them.
    pending: Vec<Pending>,
    finished: AtomicBool,
    /// Whether this PE shares its CPU with another PE of the team (adaptive waits then
    /// yield instead of pausing: the peer they wait for is likely runnable on their own
    /// CPU): [`UNDECIDED`] until `shared_cpu::shares_cpu` could tell, then [`SHARED`] or
    /// [`ALONE`].
    crowded: AtomicU8,
    /// Whether writes to other PEs' heaps must ring their bells: [`BELLS_UNDECIDED`] until
    /// every PE has said whether its waits may sleep (`PeCtrl::sleeps`), then
    /// [`BELLS_RING`] or, when none may, [`BELLS_QUIET`] (`must_ring`).
    bells: AtomicU8,
    /// This PE's affinity mask when it joined.
    mask: Vec<usize>,
    /// How many other PEs' liveness peer checks have read, counting round the team from
    /// our right neighbour (`TeamWatch::scan`).
    pub(super) scan_next: std::sync::atomic::AtomicUsize,
}

impl std::fmt::Debug for ShmTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShmTransport")
            .field("segment", &self.seg.name())
            .field("rank", &self.rank)
            .field("size", &self.size)
            .field("heap_len", &self.heap_len)
            .field("wait", &self.wait)
            .finish_non_exhaustive()
    }
}

impl ShmTransport {
    /// Joins from the environment (see [`super::Team::from_env`]); no barrier.
    pub fn from_env() -> Result<Self, TeamError> {
        let name = env::var(super::ENV_TEAM)?;
        let rank = env::number(super::ENV_RANK)?;
        let size = env::number(super::ENV_SIZE)?;
        let wait = env::wait_from_env()?;
        if let Some(c) = env::cpu()? {
            crate::sys::affinity::pin_current_thread(c)?;
        }
        Self::join(&name, rank, size, wait)
    }

    /// Opens team segment `name` as PE `rank` of `size`, waiting with `wait`.
    pub fn join(name: &str, rank: usize, size: usize, wait: Wait) -> Result<Self, TeamError> {
        let seg = Segment::open_with(name, Deadline::after(JOIN_TIMEOUT), &OpenOptions::new())?;
        let h: &TeamHeader = seg.get(0)?;
        let bad = |why: String| TeamError::BadEnv {
            var: super::ENV_TEAM,
            value: name.to_string(),
            why,
        };
        if h.magic != TEAM_MAGIC || h.version != TEAM_VERSION {
            return Err(bad("not a team segment of this handoff version".into()));
        }
        if h.size as usize != size {
            return Err(bad(format!(
                "the segment holds {} PEs, {} says {size}",
                h.size,
                super::ENV_SIZE
            )));
        }
        if rank >= size {
            return Err(TeamError::NoSuchPe { pe: rank, size });
        }
        let p =
            plan(size, h.heap_len as usize).ok_or_else(|| bad("header sizes overflow".into()))?;
        // Where this PE may run now (pinned by `from_env` or the launcher, or not at all);
        // not `allowed_cpus`, a snapshot that may predate the pinning.
        let mask = crate::sys::affinity::thread_affinity()
            .or_else(|_| crate::sys::affinity::allowed_cpus())
            .unwrap_or_default();
        if p.payload_len > seg.payload_len()
            || p.heap_offset as u64 != h.heap_offset
            || p.ctrl_offset as u64 != h.ctrl_offset
        {
            return Err(bad("header sizes do not match the segment".into()));
        }
        let t = ShmTransport {
            rank,
            size,
            heap_len: h.heap_len as usize,
            heap_stride: p.heap_stride,
            ctrl_offset: p.ctrl_offset,
            ctrl_stride: p.ctrl_stride,
            heap0: seg.as_ptr().wrapping_add(p.heap_offset),
            local: seg
                .as_ptr()
                .wrapping_add(p.heap_offset + rank * p.heap_stride),
            wait,
            launcher: ProcessId::new(h.launcher_pid, h.launcher_start),
            seen: Mutex::new(vec![0; size]),
            pending: (0..size).map(|_| Pending::new()).collect(),
            finished: AtomicBool::new(false),
            crowded: AtomicU8::new(UNDECIDED),
            bells: AtomicU8::new(BELLS_UNDECIDED),
            mask: mask.clone(),
            scan_next: std::sync::atomic::AtomicUsize::new(0),
            seg,
        };
        let me = t.ctrl(rank);
        me.pid.set(ProcessId::current());
        // Relaxed: published by the Release CAS of the state just below.
        me.cpu.store(shared_cpu::placed(&mask), Ordering::Relaxed);
        // Release: pairs with the Acquire loads of the state in `is_gone` and `gone`.
        if me
            .state
            .compare_exchange(SPAWNED, JOINED, Ordering::Release, Ordering::Relaxed)
            .is_err()
        {
            t.finished.store(true, std::sync::atomic::Ordering::Relaxed); // not ours to mark LEFT
            return Err(bad(format!(
                "PE {rank} has joined already; each rank joins once"
            )));
        }
        // After the CAS, so a second joiner of the rank (refused above) cannot overwrite it.
        // Release: pairs with the Acquire load in `decide_must_ring`.
        me.sleeps
            .store(super::quiet_bells::published(wait), Ordering::Release);
        Ok(t)
    }

    /// Maps `len` bytes of this PE's own heap partition, from heap offset `offset`, at
    /// address `addr` as well (a second view of the same shared pages: what is stored
    /// through one address is read through the other and by every PE's `get`), replacing
    /// whatever `addr` held. handoff-shmem puts a program's static data into the heap this way.
    ///
    /// # Safety
    /// `offset`, `len` and `addr` are page aligned (checked); the old contents of
    /// `[addr, addr + len)` are lost, so the caller copied what it keeps into the partition
    /// first; no Rust reference points into that range and no other thread touches it
    /// during the call.
    pub unsafe fn map_local_at(
        &self,
        offset: usize,
        len: usize,
        addr: *mut u8,
    ) -> Result<(), TeamError> {
        let src = self.check(
            self.rank,
            offset,
            len,
            crate::sys::page_size(),
            "map_local_at",
        )?;
        // SAFETY: `check` proved the range lies in our partition of the segment, a
        // MAP_SHARED mapping that lives as long as `self`; the rest is the caller's promise.
        unsafe { crate::sys::alias::alias_shared(src, len, addr)? };
        Ok(())
    }

    /// A second view of this PE's whole heap partition at an address aligned to `align` (a
    /// power of two, at least a page), so offsets aligned to `align` are aligned addresses
    /// in that view on every PE. The view stays mapped until the process ends.
    pub fn local_view_aligned(&self, align: usize) -> Result<*mut u8, TeamError> {
        let dst = crate::sys::alias::reserve_aligned(self.heap_stride, align)?;
        // SAFETY: the partition is `heap_stride` page-aligned bytes of the MAP_SHARED
        // segment (page aligned payload, page aligned heap offset and stride); `dst` is a
        // fresh reservation of that length that nothing references.
        unsafe { crate::sys::alias::alias_shared(self.heap(self.rank), self.heap_stride, dst)? };
        Ok(dst)
    }

    pub(super) fn ctrl(&self, rank: usize) -> &PeCtrl {
        // SAFETY: rank < size (callers check); `join` validated that the plan's `size`
        // control blocks from ctrl_offset lie in the payload, mapped as long as `self`.
        unsafe { ctrl_at(self.seg.as_ptr(), self.ctrl_offset, self.ctrl_stride, rank) }
    }

    /// PE `rank`'s barrier arrival counters, one per PE.
    pub(super) fn arrivals(&self, rank: usize) -> &[AtomicU64] {
        // SAFETY: as in `ctrl`, for the counters the plan puts after each control block.
        unsafe {
            arrivals_at(
                self.seg.as_ptr(),
                self.ctrl_offset,
                self.ctrl_stride,
                rank,
                self.size,
            )
        }
    }

    #[inline]
    fn heap(&self, pe: usize) -> *mut u8 {
        self.heap0.wrapping_add(pe * self.heap_stride)
    }

    /// The address of `len` bytes at heap offset `offset` of PE `pe`, after the checks every
    /// remote operation makes. Inlined into the hand-off calls (`put_signal`, a line), whose
    /// caller's critical path it is; the errors are built out of line (issue #23).
    #[inline]
    fn check(
        &self,
        pe: usize,
        offset: usize,
        len: usize,
        align: usize,
        op: &'static str,
    ) -> Result<*mut u8, TeamError> {
        if pe >= self.size || !self.in_partition(offset, len, align) {
            return Err(self.check_failed(pe, offset, len, align, op));
        }
        // In bounds: pe < size and offset + len <= heap_len <= heap_stride.
        Ok(self.heap(pe).wrapping_add(offset))
    }

    /// Whether `len` bytes at heap offset `offset` lie in a partition, `align`-aligned: the
    /// range half of [`Self::check`].
    #[inline]
    fn in_partition(&self, offset: usize, len: usize, align: usize) -> bool {
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
        } else {
            TeamError::InvalidArgument(format!(
                "{op}: heap offset {offset} is not {align}-byte aligned"
            ))
        }
    }

    /// The ring of a `put_signal` (data `[offset, offset + len)` and signal word `sig` of PE
    /// `pe`), out of line: the inlined hand-off stays small where no PE may sleep.
    #[inline(never)]
    fn ring_put_signal(&self, pe: usize, offset: usize, len: usize, sig: usize) {
        // One fenced ring covers the data and the signal word (no `pending` entry: the
        // fence orders the copy too). The signal's ring is on the target's critical path
        // and a hand-off's fixed cost; `put` + `signal` paid a second bounds check, the
        // pending range and a second load of the target's bell (issue #23).
        let (d0, d1) = (offset as u64, (offset + len) as u64);
        let (s0, s1) = (sig as u64, sig as u64 + 8);
        let (lo, hi) = (d0.min(s0), d1.max(s1));
        let b = &self.ctrl(pe).bell;
        let woke = if hi - lo <= LINE_HULL {
            // Data and signal within a line (`put_line`): one range, a sleeper on the
            // bytes between is woken spuriously at worst.
            b.bell.ring_range(lo, hi)
        } else {
            // The second load of `sleepers` follows the first call's SeqCst fence: fenced.
            b.bell.ring_range(s0, s1) + b.bell.ring_range_unfenced(d0, d1)
        };
        if woke > 0 {
            b.ringer.note();
        }
    }

    /// Wakes PE `pe`'s sleepers on bytes `[start, end)` of its heap (after the write).
    #[inline]
    fn ring(&self, pe: usize, start: usize, end: usize) {
        if !self.must_ring() {
            return;
        }
        let b = &self.ctrl(pe).bell;
        if b.bell.ring_range(start as u64, end as u64) > 0 {
            b.ringer.note();
        }
    }

    /// Whether a write to a PE's heap must ring its bell: no when every PE of the team has
    /// said that its waits never sleep (the reasoning: [`super::quiet_bells`]). Until every
    /// PE has joined: yes.
    #[inline]
    fn must_ring(&self) -> bool {
        // Relaxed: a cached verdict on values each PE writes once.
        match self.bells.load(Ordering::Relaxed) {
            BELLS_QUIET => false,
            BELLS_RING => true,
            _ => self.decide_must_ring(),
        }
    }

    #[cold]
    fn decide_must_ring(&self) -> bool {
        let verdict = bells_verdict((0..self.size).map(|r| {
            // Acquire: pairs with the Release store in `join` (each PE writes it once).
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

    /// The CPU hint for an adaptive wait: this CPU when this PE shares its CPU with another
    /// PE (so the wait yields to it), else the last ringer's.
    fn cpu_hint(&self, ringer: Option<u32>) -> Option<u32> {
        if self.shares_cpu() {
            Some(crate::sys::affinity::current_cpu() as u32)
        } else {
            ringer
        }
    }

    /// Whether this PE shares its CPU with another PE (`shared_cpu`), decided once every PE
    /// it depends on has joined (until then: no).
    #[inline]
    fn shares_cpu(&self) -> bool {
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

    /// Rings, on every target, the bytes put there since the last call (after a SeqCst
    /// fence of the caller's: it is the ring's fence, and pairs with the sleeper's).
    fn ring_pending(&self) {
        for (pe, pending) in self.pending.iter().enumerate() {
            if let Some((lo, hi)) = pending.take() {
                let b = &self.ctrl(pe).bell;
                if b.bell.ring_range_unfenced(lo, hi) > 0 {
                    b.ringer.note();
                }
            }
        }
    }

    /// A wait on this PE's heap bell, as a sleeper on `range` (`None`: on anything). The
    /// adaptive learning's site is the range's start when there is one, else the wait's
    /// name (one site per kind of generic wait).
    fn wait_bell(
        &self,
        range: Option<(u64, u64)>,
        poll: &mut dyn FnMut() -> Option<usize>,
        deadline: Option<Deadline>,
        what: &'static str,
    ) -> Result<usize, TeamError> {
        let b = &self.ctrl(self.rank).bell;
        let watch = self.watch();
        let site = match range {
            Some((lo, _)) => (self.local_heap() as usize).wrapping_add(lo as usize),
            None => what.as_ptr() as usize,
        };
        b.bell
            .wait(
                range,
                poll,
                self.wait,
                deadline,
                &watch,
                self.cpu_hint(b.ringer.get()),
                site,
            )
            .map_err(|e| self.wait_err(e, &watch, what))
    }

    pub(super) fn header(&self) -> &TeamHeader {
        // SAFETY: `join` validated the header at payload offset 0 (page aligned, in bounds);
        // TeamHeader is ShmSafe.
        unsafe { &*self.seg.as_ptr().cast() }
    }

    /// Ends the whole team with `status` (OpenSHMEM's `shmem_global_exit`): records the
    /// status for the launcher (which then exits with it), then ends every other PE at once
    /// (`SIGKILL`: they stop where they are, without reporting this PE as gone), and marks
    /// this PE as not leaving in error. The caller then exits the process with `status`.
    pub fn global_exit(&self, status: i32) {
        let word = ((self.rank as u64 + 1) << 32) | u64::from(status as u32);
        // Release: pairs with the Acquire load in `Running::wait` (the launcher reads it
        // after reaping the PEs). A second caller keeps the first record.
        let _ = self.header().global_exit.compare_exchange(
            0,
            word,
            Ordering::Release,
            Ordering::Relaxed,
        );
        for r in (0..self.size).filter(|&r| r != self.rank) {
            if let Some(id) = self.ctrl(r).pid.get() {
                // A PE already gone (ESRCH) needs nothing.
                let _ = id.kill(crate::sys::UnixSignal::Kill);
            }
        }
        self.finished
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// The segment's name (for the launcher's and tests' messages).
    pub fn segment_name(&self) -> Option<&str> {
        self.seg.name()
    }
}

impl Drop for ShmTransport {
    fn drop(&mut self) {
        if !self.finished.load(std::sync::atomic::Ordering::Relaxed) {
            // Release: pairs with the Acquire load in `is_gone`.
            self.ctrl(self.rank).state.store(LEFT, Ordering::Release);
            // Release: pairs with the Acquire load in `TeamWatch::check` (first to leave).
            let _ = self.header().first_gone.compare_exchange(
                0,
                self.rank as u32 + 1,
                Ordering::Release,
                Ordering::Relaxed,
            );
            for pe in 0..self.size {
                let c = self.ctrl(pe);
                c.bell.bell.ring_all();
                c.arrive.bell.ring();
            }
        }
    }
}

// SAFETY: the transport owns its mapping (Segment is Send), its own state is atomics and a
// Mutex, and its two raw pointers point into that mapping (immutable, valid as long as it
// lives), so moving it to another thread is sound.
unsafe impl Send for ShmTransport {}
// SAFETY: every access to the shared mapping through `&self` is an atomic operation or a
// copy the OpenSHMEM memory model leaves to the program (puts and gets to user-chosen
// offsets, as between processes); the transport's own fields are atomics, a Mutex, or
// immutable after `join`. So threads of one PE may share it (SHMEM_THREAD_MULTIPLE).
unsafe impl Sync for ShmTransport {}

impl Transport for ShmTransport {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.size
    }
    fn heap_len(&self) -> usize {
        self.heap_len
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
        // Every PE's partition lies in the one segment every PE maps.
        (pe < self.size).then(|| self.heap(pe))
    }
    #[inline]
    fn crowded_cpu(&self) -> bool {
        self.shares_cpu()
    }

    // Inlined: a small put's cost is mostly this call's (issue #23; `bench/put_lat.c`).
    #[inline]
    fn put(&self, pe: usize, offset: usize, src: &[u8]) -> Result<(), TeamError> {
        let dst = self.check(pe, offset, src.len(), 1, "put")?;
        // SAFETY: `check` proved dst..dst+len lies in PE pe's partition of our mapping;
        // `src` is a distinct Rust slice (the heap is never handed out as `&mut` to a
        // caller's source while we copy: `local_mut` needs `&mut Team`). Other processes
        // may read the bytes concurrently: that is the protocol's business (signals order it).
        unsafe { ops::copy_small(src.as_ptr(), dst, src.len()) };
        // A PE asleep in a wait on these bytes (OpenSHMEM's wait_until on a variable set by a
        // put) is woken now instead of at its next sleep slice; one asleep on other words is
        // not (module docs). A Relaxed load of a line that only sleepers write: nearly free.
        // Without the SeqCst fence a sleeper registering at this instant may be missed; the
        // pending range makes this PE's next `quiet` ring it, fenced.
        if !self.must_ring() {
            return Ok(());
        }
        let (lo, hi) = (offset as u64, (offset + src.len()) as u64);
        self.pending[pe].cover(lo, hi);
        let b = &self.ctrl(pe).bell;
        if b.bell.ring_range_unfenced(lo, hi) > 0 {
            b.ringer.note();
        }
        Ok(())
    }

    fn get(&self, pe: usize, offset: usize, dst: &mut [u8]) -> Result<(), TeamError> {
        let src = self.check(pe, offset, dst.len(), 1, "get")?;
        // SAFETY: as in `put`, with source and destination swapped.
        unsafe { std::ptr::copy_nonoverlapping(src, dst.as_mut_ptr(), dst.len()) };
        Ok(())
    }

    fn fence(&self) {
        // Release fence: pairs with the Acquire load of whatever flag/signal/atomic this PE
        // updates next (module docs of `team`, "Ordering").
        fence(Ordering::Release);
    }

    fn quiet(&self) {
        // SeqCst: also orders earlier puts before later loads (module docs of `team`), and
        // pairs with the fence of a sleeper's registration (`Doorbell`): every PE that may be
        // asleep on words this PE wrote is woken, so a waiter on plainly-put data never
        // waits out a sleep slice after the writer's `quiet`.
        fence(Ordering::SeqCst);
        self.ring_pending();
    }

    fn atomic64(&self, pe: usize, offset: usize, op: AtomicOp<u64>) -> Result<u64, TeamError> {
        let p = self.check(pe, offset, 8, 8, "atomic")?;
        // SAFETY: `check` proved an 8-byte aligned in-bounds word of the mapping; AtomicU64
        // has u64's layout and is how every PE touches words that others update.
        let w = unsafe { &*p.cast::<AtomicU64>() };
        let old = ops::apply_atomic64(w, op);
        if op.wrote(old) {
            self.ring(pe, offset, offset + 8);
        }
        Ok(old)
    }

    fn atomic64_unwatched(
        &self,
        pe: usize,
        offset: usize,
        op: AtomicOp<u64>,
    ) -> Result<u64, TeamError> {
        let p = self.check(pe, offset, 8, 8, "atomic")?;
        // SAFETY: as in `atomic64`.
        let w = unsafe { &*p.cast::<AtomicU64>() };
        // No ring: nobody sleeps on this word (the trait's contract), which saves the ring's
        // SeqCst fence and the load of the target's bell per operation.
        Ok(ops::apply_atomic64(w, op))
    }

    fn atomic32(&self, pe: usize, offset: usize, op: AtomicOp<u32>) -> Result<u32, TeamError> {
        let p = self.check(pe, offset, 4, 4, "atomic")?;
        // SAFETY: as in `atomic64`, for a 4-byte word.
        let w = unsafe { &*p.cast::<AtomicU32>() };
        let old = ops::apply_atomic32(w, op);
        if op.wrote(old) {
            self.ring(pe, offset, offset + 4);
        }
        Ok(old)
    }

    fn signal(&self, pe: usize, sig: usize, op: SignalOp) -> Result<(), TeamError> {
        let p = self.check(pe, sig, 8, 8, "signal")?;
        // SAFETY: as in `atomic64`.
        let w = unsafe { &*p.cast::<AtomicU64>() };
        ops::apply_signal(w, op);
        self.ring(pe, sig, sig + 8);
        Ok(())
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
        // Both checks first: a bad signal word fails the call before any byte moves. The
        // signal word lies in the same partition: `check` proved `pe`, so its address is
        // `dst`'s partition base plus `sig` once its bounds and alignment hold (one base
        // computation on the hand-off's path, not two).
        let dst = self.check(pe, offset, src.len(), 1, "put")?;
        if !self.in_partition(sig, 8, 8) {
            return Err(self.check_failed(pe, sig, 8, 8, "signal"));
        }
        let p = dst.wrapping_sub(offset).wrapping_add(sig);
        // SAFETY: as in `put`.
        unsafe { ops::copy_small(src.as_ptr(), dst, src.len()) };
        // SAFETY: as in `atomic64`.
        let w = unsafe { &*p.cast::<AtomicU64>() };
        ops::apply_signal(w, op);
        if self.must_ring() {
            self.ring_put_signal(pe, offset, src.len(), sig);
        }
        Ok(())
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

    fn counter_wait(
        &self,
        ct: usize,
        target: u64,
        deadline: Option<Deadline>,
    ) -> Result<u64, TeamError> {
        let c = self
            .ctrl(self.rank)
            .counters
            .get(ct)
            .ok_or(TeamError::CounterLimit { max: MAX_COUNTERS })?;
        let watch = self.watch();
        // The team's hint, as in `wait_local`: a PE sharing its CPU yields instead of pausing.
        c.wait_until_hinted(target, self.wait, deadline, &watch, |p| self.cpu_hint(p))
            .map_err(|e| self.wait_err(e, &watch, "a counter"))
    }

    fn wait_local(
        &self,
        poll: &mut dyn FnMut() -> Option<usize>,
        deadline: Option<Deadline>,
        what: &'static str,
    ) -> Result<usize, TeamError> {
        self.wait_bell(None, poll, deadline, what)
    }

    fn wait_local_on(
        &self,
        offset: usize,
        len: usize,
        poll: &mut dyn FnMut() -> Option<usize>,
        deadline: Option<Deadline>,
        what: &'static str,
    ) -> Result<usize, TeamError> {
        let end = offset.saturating_add(len);
        self.wait_bell(Some((offset as u64, end as u64)), poll, deadline, what)
    }

    fn wait_remote_on(
        &self,
        pe: usize,
        offset: usize,
        len: usize,
        poll: &mut dyn FnMut() -> Option<usize>,
        deadline: Option<Deadline>,
        what: &'static str,
    ) -> Result<usize, TeamError> {
        self.check(pe, offset, len, 1, what)?;
        let b = &self.ctrl(pe).bell;
        let watch = self.watch_on(pe);
        let end = offset.saturating_add(len);
        b.bell
            .wait(
                Some((offset as u64, end as u64)),
                poll,
                self.wait,
                deadline,
                &watch,
                self.cpu_hint(b.ringer.get()),
                (self.heap(pe) as usize).wrapping_add(offset),
            )
            .map_err(|e| self.wait_err(e, &watch, what))
    }

    fn barrier(&self, ranks: &[usize], deadline: Option<Deadline>) -> Result<(), TeamError> {
        // Completes earlier puts as `quiet` does, their wake-ups included.
        self.quiet();
        let watch = self.barrier_watch();
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let node = |r: usize| Node {
            arrivals: self.arrivals(r),
            bell: &self.ctrl(r).arrive.bell,
        };
        barrier::dissemination(
            self.rank,
            ranks,
            &mut seen,
            node,
            self.wait,
            deadline,
            &watch,
            self.cpu_hint(None),
        )
        .map_err(|e| self.wait_err(e, &watch, "a barrier"))
    }

    fn agree(&self, seq: u64, value: u64, deadline: Option<Deadline>) -> Result<(), TeamError> {
        let slot = (seq % 2) as usize;
        let mine = &self.ctrl(self.rank).agree[slot];
        mine.value.store(value, Ordering::Relaxed);
        mine.seq.store(seq, Ordering::Relaxed);
        // The barrier's Release/Acquire chain publishes the record to every PE.
        let all: Vec<usize> = (0..self.size).collect();
        self.barrier(&all, deadline)?;
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
