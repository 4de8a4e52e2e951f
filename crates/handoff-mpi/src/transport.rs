//! [`MpiTransport`]: the team [`Transport`] over one MPI-3 window. See the [crate
//! docs](crate) for the ordering argument; this file maps each trait operation onto the
//! window's calls.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use handoff::sync::{Until, Wait};
use handoff::team::{AtomicOp, Route, SignalOp, TeamError, Transport, MAX_COUNTERS};

use crate::comm::Comm;
use crate::comm::{progress_until, wait_error};
use crate::direct::{counter_key, Direct, CTRL};
use crate::mixed::Mixed;
use crate::nodes::Nodes;
use crate::rma::{RmaOp, Width, Window};

/// One PE's end of a team whose bytes move through MPI one-sided communication.
///
/// Made by [`MpiTransport::init`] (or [`crate::join`]) in a program started by `mpirun`;
/// owns MPI's initialization: MPI is finalized when it drops after
/// [`Team::finalize`](handoff::team::Team::finalize), and the whole job is aborted
/// (`MPI_Abort`, with a line naming this rank) when it drops without it.
pub struct MpiTransport {
    // Drop order matters: the world window (collective free; on the mixed path made over
    // the node window's memory), then the node window, then the node communicator it
    // spans, then the communicator, then MPI.
    pub(crate) win: Window,
    /// On the mixed path: the node window, whose mapping serves data between node mates.
    pub(crate) mixed: Option<Mixed>,
    pub(crate) nodes: Nodes,
    pub(crate) comm: Comm,
    pub(crate) heap_len: usize,
    pub(crate) wait: Wait,
    /// Set by `finish` (and `global_exit`); read by `drop`, on the same thread or after
    /// the PE's threads are done: Relaxed.
    pub(crate) finished: AtomicBool,
    /// The thread level MPI granted (see [`MpiTransport::threading`]).
    pub(crate) threading: mpi::Threading,
    /// With a shared window (one node): every rank's part mapped here (puts are copies,
    /// signals and atomics CPU atomics); `None`: MPI RMA calls, but for the data between
    /// node mates on the mixed path.
    pub(crate) direct: Option<Direct>,
    pub(crate) _universe: mpi::environment::Universe,
}

impl std::fmt::Debug for MpiTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MpiTransport")
            .field("rank", &self.comm.rank())
            .field("size", &self.comm.size())
            .field("heap_len", &self.heap_len)
            .field("window", &self.window_kind())
            .field("nodes", &self.nodes.ids)
            .finish_non_exhaustive()
    }
}

impl MpiTransport {
    /// Whether PE `pe` runs on this PE's node (`MPI_Comm_split_type` shared, or the pretend
    /// nodes of [`ENV_NODES`](crate::ENV_NODES)); `false` for a PE not in the team.
    pub fn same_node(&self, pe: usize) -> bool {
        self.nodes.ids.get(pe) == self.nodes.ids.get(self.comm.rank())
    }

    /// The window's kind: `"shared"` (`MPI_Win_allocate_shared`, operations as loads,
    /// stores and CPU atomics), `"mixed"` (puts and gets between node mates copies through
    /// their node's shared window, everything else MPI RMA calls on a world window; see the
    /// crate docs) or `"rma"` (`MPI_Win_allocate`, operations as MPI RMA calls); see
    /// [`ENV_WINDOW`](crate::ENV_WINDOW).
    pub fn window_kind(&self) -> &'static str {
        match (&self.direct, &self.mixed) {
            (Some(_), _) => "shared",
            (None, Some(_)) => "mixed",
            (None, None) => "rma",
        }
    }

    /// Whether MPI was initialized with `MPI_THREAD_MULTIPLE` ([`init_thread`](Self::init_thread)
    /// asked for it and the library granted it): then the PE's threads may call the
    /// transport at once (its own state is atomics and locks; MPI serializes its calls).
    /// Else [`threading`](Self::threading) says which threads may call it.
    pub fn thread_multiple(&self) -> bool {
        self.threading >= mpi::Threading::Multiple
    }

    /// The thread level MPI granted at [`init_thread`](Self::init_thread): `Single` and
    /// `Funneled`, the thread that made the transport calls it; `Serialized`, one thread at
    /// a time; `Multiple`, any at once.
    pub fn threading(&self) -> mpi::Threading {
        self.threading
    }

    /// How many nodes the team spans.
    pub fn nodes(&self) -> usize {
        self.nodes.count()
    }

    /// The mixed path's node window, if `pe` is a node mate on it (its data go by copies).
    fn mate(&self, pe: usize) -> Option<&Mixed> {
        self.mixed.as_ref().filter(|m| m.maps(pe))
    }

    /// Before an MPI update of a word at `pe` that announces earlier puts (a signal, a
    /// counter): complete those puts — the node window's `MPI_Win_sync` for a node mate's
    /// copies (mixed path), `MPI_Win_flush(pe)` for `MPI_Put`s (crate docs).
    fn settle(&self, pe: usize) -> Result<(), TeamError> {
        match self.mate(pe) {
            Some(m) => m.publish(&self.win),
            None => self.win.flush(pe),
        }
    }

    /// `MPI_Win_sync` on the world window and, on the mixed path, the node window.
    fn sync(&self) -> Result<(), TeamError> {
        self.win.sync()?;
        match &self.mixed {
            Some(m) => m.publish(&self.win),
            None => Ok(()),
        }
    }

    fn target(
        &self,
        pe: usize,
        offset: usize,
        len: usize,
        op: &'static str,
    ) -> Result<usize, TeamError> {
        if pe >= self.comm.size() {
            return Err(TeamError::NoSuchPe {
                pe,
                size: self.comm.size(),
            });
        }
        let end = offset.saturating_add(len);
        if end > self.heap_len {
            return Err(TeamError::OutOfBounds {
                op,
                offset,
                end,
                len: self.heap_len,
            });
        }
        Ok(CTRL + offset)
    }

    fn word(
        &self,
        pe: usize,
        offset: usize,
        width: usize,
        op: &'static str,
    ) -> Result<usize, TeamError> {
        if !offset.is_multiple_of(width) {
            return Err(TeamError::InvalidArgument(format!(
                "{op} at heap byte {offset}: a {width}-byte word must be {width}-byte aligned"
            )));
        }
        self.target(pe, offset, width, op)
    }

    fn counter_disp(&self, ct: usize) -> Result<usize, TeamError> {
        if ct >= MAX_COUNTERS {
            return Err(TeamError::CounterLimit { max: MAX_COUNTERS });
        }
        Ok(ct * 8)
    }

    fn counter_word(&self, ct: usize) -> &std::sync::atomic::AtomicU64 {
        let ct = ct.min(MAX_COUNTERS - 1);
        // SAFETY: the control area (CTRL bytes at the window base, page aligned) holds
        // MAX_COUNTERS u64 words; the index is clamped into it. MPI updates the word only
        // with accumulates; we only load it.
        unsafe {
            &*self
                .win
                .base()
                .add(ct * 8)
                .cast::<std::sync::atomic::AtomicU64>()
        }
    }

    /// The waits of the RMA and mixed paths: MPI has no wake-up for a passive-target update,
    /// so every wait strategy polls this PE's own words, driving MPI's progress between
    /// polls ([`progress_until`]: no sleeps for the default strategy, as a peer's operation
    /// on this window may need this PE to call MPI). Each poll is preceded by an `MPI_Win_sync` (the process's loads then see what
    /// MPI completed in its window, the unified model of §11.4); a poll that succeeds is
    /// followed by another sync of every window the data may have come through (§11.7: sync,
    /// then load the data the value announced); a poll that fails drives MPI's progress (for
    /// libraries whose RMA needs the target to call MPI).
    fn poll_window(
        &self,
        poll: &mut dyn FnMut() -> Option<usize>,
        until: Until,
        what: &'static str,
    ) -> Result<usize, TeamError> {
        let synced = || {
            if let Err(e) = self.win.sync() {
                return Some(Err(e));
            }
            match poll() {
                Some(v) => Some(self.sync().map(|()| v)),
                None => {
                    self.comm.progress();
                    None
                }
            }
        };
        progress_until(synced, until.wait, until.deadline, self.comm.crowded())
            .map_err(|e| wait_error(e, what))?
    }

    /// Panics are no option in a trait method without `Result` (fence, quiet): an MPI
    /// failure there means the job cannot go on, so it is reported and the job aborted.
    fn or_abort(&self, r: Result<(), TeamError>) {
        if let Err(e) = r {
            // One write(2) for the whole line, so the lines of several PEs never interleave.
            let line = format!(
                "handoff-mpi: PE {}: {e}; aborting the MPI job\n",
                self.comm.rank()
            );
            let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
            self.comm.abort(3);
        }
    }
}

fn rma_op(op: SignalOp) -> (u64, RmaOp) {
    match op {
        SignalOp::Set(v) => (v, RmaOp::Replace),
        SignalOp::Add(n) => (n, RmaOp::Sum),
    }
}

fn atomic(
    win: &Window,
    pe: usize,
    disp: usize,
    width: Width,
    op: AtomicOp<u64>,
) -> Result<u64, TeamError> {
    let fop = |v, o| win.fetch_and_op(pe, disp, width, v, o);
    match op {
        AtomicOp::Fetch => fop(0, RmaOp::NoOp),
        AtomicOp::Set(v) | AtomicOp::Swap(v) => fop(v, RmaOp::Replace),
        AtomicOp::FetchAdd(v) => fop(v, RmaOp::Sum),
        AtomicOp::FetchAnd(v) => fop(v, RmaOp::And),
        AtomicOp::FetchOr(v) => fop(v, RmaOp::Or),
        AtomicOp::FetchXor(v) => fop(v, RmaOp::Xor),
        AtomicOp::CompareSwap { expected, new } => {
            win.compare_and_swap(pe, disp, width, expected, new)
        }
    }
}

impl Transport for MpiTransport {
    fn rank(&self) -> usize {
        self.comm.rank()
    }
    fn route(&self, pe: usize) -> Option<Route> {
        if pe >= self.size() {
            None
        } else if self.direct.is_some() || self.mate(pe).is_some() {
            Some(Route::MpiSharedWindow)
        } else {
            Some(Route::MpiRma)
        }
    }
    fn size(&self) -> usize {
        self.comm.size()
    }
    fn heap_len(&self) -> usize {
        self.heap_len
    }
    fn wait_strategy(&self) -> Wait {
        self.wait
    }
    fn local_heap(&self) -> *mut u8 {
        // SAFETY: the window holds CTRL + heap_len bytes from its base.
        unsafe { self.win.base().add(CTRL) }
    }

    fn peer_heap(&self, pe: usize) -> Option<*mut u8> {
        let part = match (&self.direct, &self.mixed) {
            (Some(d), _) => d.part(pe),
            (None, Some(m)) => m.part(pe),
            (None, None) => return (pe == self.rank()).then(|| self.local_heap()),
        }?;
        // SAFETY: a mapped part holds CTRL + heap_len bytes (the window's size per rank).
        Some(unsafe { part.add(CTRL) })
    }

    fn put(&self, pe: usize, offset: usize, src: &[u8]) -> Result<(), TeamError> {
        if let Some(x) = &self.direct {
            return x.heap().put(pe, offset, src);
        }
        if let Some(m) = self.mate(pe) {
            return m.put(pe, offset, src);
        }
        let d = self.target(pe, offset, src.len(), "put")?;
        self.win.put(pe, d, src)
    }

    fn get(&self, pe: usize, offset: usize, dst: &mut [u8]) -> Result<(), TeamError> {
        if let Some(x) = &self.direct {
            return x.heap().get(pe, offset, dst);
        }
        if let Some(m) = self.mate(pe) {
            return m.get(pe, offset, dst);
        }
        let d = self.target(pe, offset, dst.len(), "get")?;
        self.win.get(pe, d, dst)
    }

    fn fence(&self) {
        if self.direct.is_some() {
            // Release: pairs with the Acquire load of whatever store a peer sees after it
            // (a signal, an atomic), as in ShmTransport.
            std::sync::atomic::fence(std::sync::atomic::Ordering::Release);
            return;
        }
        // MPI orders no two puts (only accumulates to one word, §11.7.2); the one way to
        // order earlier puts before later ones is to complete them (and, on the mixed path,
        // to publish the copies to node mates, see `mixed`).
        let publish = self.mixed.as_ref().map_or(Ok(()), |m| m.publish(&self.win));
        self.or_abort(publish.and_then(|()| self.win.flush_all()));
    }

    fn quiet(&self) {
        if let Some(x) = &self.direct {
            // A SeqCst fence (it also orders earlier copies before later loads, pairing with
            // the peers' Acquire loads or fences), then the rings of what this rank put since,
            // as in ShmTransport (`MappedHeap::quiet`).
            x.heap().quiet();
            return;
        }
        self.or_abort(self.win.flush_all().and_then(|()| self.sync()));
    }

    fn atomic64(&self, pe: usize, offset: usize, op: AtomicOp<u64>) -> Result<u64, TeamError> {
        if let Some(x) = &self.direct {
            return x.heap().atomic64(pe, offset, op);
        }
        let d = self.word(pe, offset, 8, "atomic")?;
        atomic(&self.win, pe, d, Width::U64, op)
    }

    fn atomic64_unwatched(
        &self,
        pe: usize,
        offset: usize,
        op: AtomicOp<u64>,
    ) -> Result<u64, TeamError> {
        match &self.direct {
            Some(x) => x.heap().atomic64_unwatched(pe, offset, op),
            None => self.atomic64(pe, offset, op),
        }
    }

    fn atomic32(&self, pe: usize, offset: usize, op: AtomicOp<u32>) -> Result<u32, TeamError> {
        if let Some(x) = &self.direct {
            return x.heap().atomic32(pe, offset, op);
        }
        let d = self.word(pe, offset, 4, "atomic")?;
        atomic(&self.win, pe, d, Width::U32, op.widen()).map(|v| v as u32)
    }

    fn signal(&self, pe: usize, sig: usize, op: SignalOp) -> Result<(), TeamError> {
        if let Some(x) = &self.direct {
            return x.heap().signal(pe, sig, op);
        }
        let d = self.word(pe, sig, 8, "signal")?;
        // Complete earlier puts to `pe` at `pe` first: MPI does not order a put before an
        // accumulate (crate docs), so the signal must not start before the data landed.
        self.settle(pe)?;
        let (v, op) = rma_op(op);
        self.win.accumulate_u64(pe, d, v, op)
    }

    fn put_signal(
        &self,
        pe: usize,
        offset: usize,
        src: &[u8],
        sig: usize,
        op: SignalOp,
    ) -> Result<(), TeamError> {
        match &self.direct {
            Some(x) => x.heap().put_signal(pe, offset, src, sig, op),
            None => {
                // The signal word's checks first: a bad one fails the call before any byte
                // moves, as on the other paths.
                self.word(pe, sig, 8, "put_signal")?;
                self.put(pe, offset, src)?;
                self.signal(pe, sig, op)
            }
        }
    }

    fn put_counted(
        &self,
        pe: usize,
        offset: usize,
        src: &[u8],
        ct: usize,
    ) -> Result<(), TeamError> {
        match &self.direct {
            Some(x) => x.put_counted(pe, offset, src, ct),
            None => {
                self.put(pe, offset, src)?;
                self.counter_add(pe, ct, 1)
            }
        }
    }

    fn counter_add(&self, pe: usize, ct: usize, n: u64) -> Result<(), TeamError> {
        if let Some(x) = &self.direct {
            return x.counter_update(pe, ct, SignalOp::Add(n));
        }
        let d = self.counter_disp(ct)?;
        self.target(pe, 0, 0, "counter_add")?;
        self.settle(pe)?;
        self.win.accumulate_u64(pe, d, n, RmaOp::Sum)
    }

    fn counter_get(&self, ct: usize) -> u64 {
        self.or_abort(self.sync());
        // Acquire: pairs with MPI's completion of the accumulate (after MPI_Win_sync, crate
        // docs), so data put before the counting put are visible.
        self.counter_word(ct)
            .load(std::sync::atomic::Ordering::Acquire)
    }

    fn counter_set(&self, ct: usize, value: u64) {
        // Through MPI, not a CPU store: the word is only ever updated by MPI atomics (crate
        // docs), so a concurrent remote counting put cannot be lost to a plain store.
        let me = self.comm.rank();
        if let Some(x) = &self.direct {
            // A CPU atomic: on this path every update of the word is one (module docs). A
            // counter past MAX_COUNTERS has nothing to set (as on the other paths).
            let _ = x.counter_update(me, ct, SignalOp::Set(value));
            return;
        }
        let r = self
            .counter_disp(ct)
            .and_then(|d| self.win.accumulate_u64(me, d, value, RmaOp::Replace))
            .and_then(|()| self.win.flush(me))
            .and_then(|()| self.sync());
        self.or_abort(r);
    }

    fn counter_wait(&self, ct: usize, target: u64, until: Until) -> Result<u64, TeamError> {
        self.counter_disp(ct)?;
        let word = self.counter_word(ct);
        let mut seen = 0;
        let mut poll = || {
            // Acquire: as in `counter_get`.
            seen = word.load(std::sync::atomic::Ordering::Acquire);
            (seen >= target).then_some(0)
        };
        match &self.direct {
            // Woken only by updates of this counter's word (see `direct`).
            Some(x) => x
                .wait(
                    self.comm.rank(),
                    Some((counter_key(ct), counter_key(ct) + 8)),
                    &mut poll,
                    until,
                    "a counter",
                )
                .map(|_| ()),
            None => self.wait_local(&mut poll, until, "a counter").map(|_| ()),
        }?;
        Ok(seen)
    }

    fn wait_local(
        &self,
        poll: &mut dyn FnMut() -> Option<usize>,
        until: Until,
        what: &'static str,
    ) -> Result<usize, TeamError> {
        // The shared-window path sleeps on this rank's bell as a waiter on anything, woken
        // by every update (see `direct`). The RMA and mixed paths poll: their updates are
        // MPI's, which ring no bell; the mixed path's copies between node mates are always
        // announced by an MPI update, so they need none either.
        if let Some(x) = &self.direct {
            return x.wait(self.comm.rank(), None, poll, until, what);
        }
        self.poll_window(poll, until, what)
    }

    fn wait_local_on(
        &self,
        offset: usize,
        len: usize,
        poll: &mut dyn FnMut() -> Option<usize>,
        until: Until,
        what: &'static str,
    ) -> Result<usize, TeamError> {
        // On the shared-window path: a sleeper on heap bytes [offset, offset + len), woken
        // only by the peers' writes to them (see `direct`); the other paths poll anyway.
        match &self.direct {
            Some(x) if offset.checked_add(len).is_some_and(|e| e <= self.heap_len) => {
                let range = Some((offset as u64, (offset + len) as u64));
                x.wait(self.comm.rank(), range, poll, until, what)
            }
            _ => self.wait_local(poll, until, what),
        }
    }

    fn barrier(&self, ranks: &[usize], until: Until) -> Result<(), TeamError> {
        if let Some(&pe) = ranks.iter().find(|&&r| r >= self.comm.size()) {
            return Err(TeamError::NoSuchPe {
                pe,
                size: self.comm.size(),
            });
        }
        // On the shared window: `ShmTransport`'s barrier (`quiet`, wake-ups included, then
        // the dissemination barrier over the mapped barrier words; see `direct`), no MPI
        // call. Else: complete this PE's puts at their targets, meet, then order our own
        // loads after what the others completed here.
        if let Some(x) = &self.direct {
            x.heap().quiet();
            return x.barrier(self.comm.rank(), ranks, until);
        }
        self.win.flush_all()?;
        if let Some(m) = &self.mixed {
            m.publish(&self.win)?;
        }
        self.comm.barrier(ranks, until.wait, until.deadline)?;
        self.sync()
    }

    fn agree(&self, seq: u64, value: u64, until: Until) -> Result<(), TeamError> {
        // One allgather of the value; `seq` is the same on every PE by construction (each
        // call is the next collective), so the values alone can differ.
        let all =
            self.comm
                .allgather(value, until.wait, until.deadline, "a collective agreement")?;
        match all.iter().enumerate().find(|&(_, &v)| v != value) {
            None => Ok(()),
            Some((rank, &theirs)) => Err(TeamError::Mismatch {
                seq,
                rank,
                ours: value,
                theirs,
            }),
        }
    }

    fn finish(&self) {
        self.finished.store(true, Relaxed);
    }
}

impl Drop for MpiTransport {
    fn drop(&mut self) {
        if !self.finished.load(Relaxed) {
            // One write(2) for the whole line (`eprintln!` may write it in pieces, and the
            // launcher may stop forwarding between them once the job aborts).
            let line = format!(
                "handoff-mpi: PE {} of {} left its team without Team::finalize (after an \
                 error); aborting the MPI job so no other PE waits for it\n",
                self.comm.rank(),
                self.comm.size()
            );
            let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
            self.comm.abort(1);
        }
    }
}
