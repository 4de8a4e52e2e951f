//! [`Window`]: a safe wrapper over one MPI-3 window (`MPI_Win_allocate`) in a passive-target
//! epoch to every rank (`MPI_Win_lock_all` for its whole life), with the few RMA calls the
//! transport needs. Every MPI `unsafe` of the crate's one-sided path lives here; the calls
//! return MPI's error (the window's handler is `MPI_ERRORS_RETURN`) as a [`TeamError`].
//!
//! Completion, as MPI-3.1 §11.5.4 defines it: `MPI_Win_flush_local(pe)` makes the origin
//! buffers of earlier operations to `pe` reusable; `MPI_Win_flush(pe)` also completes them
//! at the target (their effect is in the target's memory); `MPI_Win_flush_all` does so for
//! every target; `MPI_Win_sync` orders the calling process's loads and stores of its own
//! window memory with the operations MPI completed there (the unified model, §11.4).

use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use handoff::team::TeamError;
use mpi::ffi;

use crate::comm::check;

mod create;
mod crowded;

use crowded::{finish, Transfer};

extern "C" {
    fn handoff_mpi_op_replace() -> ffi::MPI_Op;
    fn handoff_mpi_op_no_op() -> ffi::MPI_Op;
    fn handoff_mpi_win_unified() -> c_int;
    fn handoff_mpi_mode_nocheck() -> c_int;
}

/// The largest count one MPI call moves (counts are C `int`s); longer transfers are split.
const MAX_CHUNK: usize = 1 << 30;

/// A word type the window's atomics work on.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Width {
    /// 32-bit unsigned.
    U32,
    /// 64-bit unsigned.
    U64,
}

/// The reduction an accumulate or fetch-and-op applies.
#[derive(Debug, Clone, Copy)]
pub(crate) enum RmaOp {
    /// `MPI_NO_OP`: an atomic read.
    NoOp,
    /// `MPI_REPLACE`: an atomic store / swap.
    Replace,
    /// `MPI_SUM` (wrapping on unsigned types).
    Sum,
    /// `MPI_BAND`.
    And,
    /// `MPI_BOR`.
    Or,
    /// `MPI_BXOR`.
    Xor,
}

impl RmaOp {
    fn raw(self) -> ffi::MPI_Op {
        // SAFETY: reading MPI's predefined handles (link-time constants or shim functions that
        // return them); valid after MPI_Init, which a `Window` implies.
        unsafe {
            match self {
                RmaOp::NoOp => handoff_mpi_op_no_op(),
                RmaOp::Replace => handoff_mpi_op_replace(),
                RmaOp::Sum => ffi::RSMPI_SUM,
                RmaOp::And => ffi::RSMPI_BAND,
                RmaOp::Or => ffi::RSMPI_BOR,
                RmaOp::Xor => ffi::RSMPI_BXOR,
            }
        }
    }
}

impl Width {
    fn raw(self) -> ffi::MPI_Datatype {
        // SAFETY: predefined datatype handles, valid after MPI_Init.
        unsafe {
            match self {
                Width::U32 => ffi::RSMPI_UINT32_T,
                Width::U64 => ffi::RSMPI_UINT64_T,
            }
        }
    }
}

fn byte() -> ffi::MPI_Datatype {
    // SAFETY: a predefined datatype handle, valid after MPI_Init.
    unsafe { ffi::RSMPI_UINT8_T }
}

/// The alignment of every rank's part of a window, as handoff sees it: a page, so the control
/// area's words and bell and the heap's 128-byte objects are aligned. MPI promises none
/// (Open MPI 4.1 gave `MPI_Win_allocate` memory at an address ending in `008`, and shared
/// window parts ending in `108`; MPICH, malloc'd memory for odd lengths), so each rank
/// over-allocates and starts its part at the first aligned byte of what MPI gave it.
pub(crate) const ALIGN: usize = 4096;

/// Environment, a test setting: when set (to `1`), rank `r` of a window starts its part
/// `r % 3` pages further into its memory than alignment needs, as under an MPI library that
/// hands each rank differently aligned memory. MPICH and Open MPI hand every rank the same
/// misalignment, so without it a displacement computed with the wrong rank's pad would go
/// unnoticed; the tests run the suite with it on every path.
pub const ENV_STAGGER: &str = "HANDOFF_MPI_STAGGER";

/// One window of `len` bytes on every rank of a communicator, locked (shared) to all ranks
/// from creation to drop. Displacements are bytes (`disp_unit` 1) from the start of the
/// target's part, which lies `pads[target]` bytes into the memory MPI gave the target; every
/// RMA call here adds that pad.
pub(crate) struct Window {
    win: ffi::MPI_Win,
    /// This rank's part: `ALIGN`-aligned, `pads[rank]` bytes past what MPI returned.
    base: *mut u8,
    /// Per rank of the window's communicator: where its part starts in its window memory.
    pads: Vec<usize>,
    /// Whether this rank's node has more ranks than CPUs ([`Window::set_crowded`]).
    crowded: bool,
    /// On a crowded node, per rank of the window: whether an operation that needs the
    /// target's acknowledgement was started to it since its last flush (see
    /// [`flush`](Self::flush)). A hint this process keeps for itself (the flush that follows
    /// gives the guarantee), so Relaxed.
    unflushed: Vec<AtomicBool>,
}

impl Window {
    /// The local address of rank `rank`'s part of a shared window and the bytes from there
    /// to the end of its window memory: what `MPI_Win_shared_query` says, moved on by the
    /// owner's pad (the owner aligned its own address; a byte's offset into the memory is
    /// the same in every mapping, its address need not be). Null when MPI gave none.
    pub(crate) fn shared_query(&self, rank: usize) -> Result<(*mut u8, usize), TeamError> {
        let mut size: ffi::MPI_Aint = 0;
        let mut unit: c_int = 0;
        let mut base: *mut u8 = std::ptr::null_mut();
        // SAFETY: a shared window (the caller made it with `shared`); the outputs are locals
        // of the types MPI writes (the base as a `void*`).
        check("MPI_Win_shared_query", unsafe {
            ffi::MPI_Win_shared_query(
                self.win,
                rank as c_int,
                &mut size,
                &mut unit,
                (&mut base as *mut *mut u8).cast::<c_void>(),
            )
        })?;
        let (size, pad) = (size.max(0) as usize, self.pads[rank]);
        if base.is_null() || size < pad {
            return Ok((std::ptr::null_mut(), 0));
        }
        // SAFETY: `pad` <= `size`: inside the rank's window memory as mapped here.
        Ok((unsafe { base.add(pad) }, size - pad))
    }

    /// Byte `disp` of `pe`'s part as a displacement into its window memory: `pe`'s pad
    /// added (a rank out of range gets none; MPI then reports the rank).
    fn disp(&self, pe: usize, disp: usize) -> Result<ffi::MPI_Aint, TeamError> {
        let pad = self.pads.get(pe).copied().unwrap_or(0);
        pad.checked_add(disp)
            .and_then(|d| ffi::MPI_Aint::try_from(d).ok())
            .ok_or_else(|| {
                TeamError::InvalidArgument(format!(
                    "displacement {disp} is beyond MPI's address type"
                ))
            })
    }

    /// Local base address of this rank's part (valid until drop).
    pub(crate) fn base(&self) -> *mut u8 {
        self.base
    }

    /// Says whether this rank's node runs more ranks than it has CPUs
    /// (`Nodes::oversubscribed`): then every call here waits for MPI by polling a request,
    /// paced (`crowded::finish`), not in MPI's flush ([`transfer`](Self::transfer),
    /// [`flush`](Self::flush)).
    pub(crate) fn set_crowded(&mut self, crowded: bool) {
        self.crowded = crowded;
    }

    /// Starts copying `src` to `pe`'s window at byte `disp`, then waits for local completion
    /// (`src` reusable; the data reach the target by the next flush of `pe`).
    pub(crate) fn put(&self, pe: usize, disp: usize, src: &[u8]) -> Result<(), TeamError> {
        if self.crowded {
            return self.transfer(pe, disp, Transfer::Put(src));
        }
        for (i, chunk) in src.chunks(MAX_CHUNK).enumerate() {
            let d = self.disp(pe, disp + i * MAX_CHUNK)?;
            // SAFETY: `chunk` is valid for reads for the call and (by the flush_local
            // below) until MPI no longer reads it; the caller checked pe and the range.
            check("MPI_Put", unsafe {
                ffi::MPI_Put(
                    chunk.as_ptr().cast(),
                    chunk.len() as c_int,
                    byte(),
                    pe as c_int,
                    d,
                    chunk.len() as c_int,
                    byte(),
                    self.win,
                )
            })?;
        }
        self.flush_local(pe)
    }

    /// Copies `pe`'s window bytes at `disp` into `dst` (complete on return).
    pub(crate) fn get(&self, pe: usize, disp: usize, dst: &mut [u8]) -> Result<(), TeamError> {
        if self.crowded {
            return self.transfer(pe, disp, Transfer::Get(dst));
        }
        for (i, chunk) in dst.chunks_mut(MAX_CHUNK).enumerate() {
            let d = self.disp(pe, disp + i * MAX_CHUNK)?;
            // SAFETY: `chunk` is valid for writes until the flush below completes the get;
            // nothing reads it meanwhile (we hold the only borrow).
            check("MPI_Get", unsafe {
                ffi::MPI_Get(
                    chunk.as_mut_ptr().cast(),
                    chunk.len() as c_int,
                    byte(),
                    pe as c_int,
                    d,
                    chunk.len() as c_int,
                    byte(),
                    self.win,
                )
            })?;
        }
        self.flush(pe)
    }

    /// `MPI_Accumulate` of one 64-bit word (`op` is `Sum` or `Replace`), locally complete on
    /// return. Accumulates are atomic per element with every other accumulate, fetch-and-op
    /// and compare-and-swap on the same word (MPI-3.1 §11.7.1). On a crowded node an
    /// `MPI_Raccumulate` whose request is polled (`crowded::finish`; its completion: the
    /// origin buffer reusable, as after `MPI_Win_flush_local`, which spins as the flush
    /// does).
    pub(crate) fn accumulate_u64(
        &self,
        pe: usize,
        disp: usize,
        value: u64,
        op: RmaOp,
    ) -> Result<(), TeamError> {
        let d = self.disp(pe, disp)?;
        if self.crowded {
            self.started(pe);
            // SAFETY: a predefined handle.
            let mut req = unsafe { ffi::RSMPI_REQUEST_NULL };
            // SAFETY: `value` lives on this frame until `finish` below completes the request
            // (or the job is aborted); the caller checked pe and the (aligned) word.
            check("MPI_Raccumulate", unsafe {
                ffi::MPI_Raccumulate(
                    (&value as *const u64).cast(),
                    1,
                    Width::U64.raw(),
                    pe as c_int,
                    d,
                    1,
                    Width::U64.raw(),
                    op.raw(),
                    self.win,
                    &mut req,
                )
            })?;
            finish(&mut req, "MPI_Raccumulate");
            return Ok(());
        }
        // SAFETY: `value` lives on this frame until the flush_local below, after which MPI
        // no longer reads it; the caller checked pe and the (aligned) word.
        check("MPI_Accumulate", unsafe {
            ffi::MPI_Accumulate(
                (&value as *const u64).cast(),
                1,
                Width::U64.raw(),
                pe as c_int,
                d,
                1,
                Width::U64.raw(),
                op.raw(),
                self.win,
            )
        })?;
        self.flush_local(pe)
    }

    /// `MPI_Fetch_and_op` on one word of `width` (value zero-extended in a u64), complete
    /// at the target on return; returns the old value. On a crowded node an
    /// `MPI_Rget_accumulate` whose request is polled (`crowded::finish`: the old value is
    /// here), then the flush, which finds it done ([`flush`](Self::flush)).
    pub(crate) fn fetch_and_op(
        &self,
        pe: usize,
        disp: usize,
        width: Width,
        value: u64,
        op: RmaOp,
    ) -> Result<u64, TeamError> {
        let d = self.disp(pe, disp)?;
        let mut old = 0u64;
        let v32 = value as u32;
        let mut old32 = 0u32;
        let (src, dst): (*const c_void, *mut c_void) = match width {
            Width::U64 => ((&value as *const u64).cast(), (&mut old as *mut u64).cast()),
            Width::U32 => ((&v32 as *const u32).cast(), (&mut old32 as *mut u32).cast()),
        };
        if self.crowded {
            // SAFETY: `src` and `dst` point to locals of the datatype's width that outlive
            // the request (`finish` completes it or aborts the job); the caller checked pe
            // and alignment.
            let mut req = unsafe { self.rget_accumulate(src, dst, width, pe, d, op) }?;
            finish(&mut req, "MPI_Rget_accumulate");
            // Its answer came after the target had handled this rank's earlier operations:
            // the flush finds nothing to wait for (`flush`).
            if let Some(u) = self.unflushed.get(pe) {
                u.store(false, Relaxed);
            }
            self.flush_now(pe)?;
        } else {
            // SAFETY: `src` and `dst` point to locals of the datatype's width that outlive
            // the flush below (which completes the operation); the caller checked pe and
            // alignment.
            check("MPI_Fetch_and_op", unsafe {
                ffi::MPI_Fetch_and_op(src, dst, width.raw(), pe as c_int, d, op.raw(), self.win)
            })?;
            self.flush_now(pe)?;
        }
        Ok(match width {
            Width::U64 => old,
            Width::U32 => u64::from(old32),
        })
    }

    /// `MPI_Compare_and_swap` on one word; complete at the target on return; returns the old
    /// value. MPI has no request-based form; on a crowded node the flush is preceded by a
    /// polled atomic read of the same word, which MPI orders after the swap (accumulate
    /// ordering on one word, §11.7.2), so the flush finds it done ([`flush`](Self::flush)).
    pub(crate) fn compare_and_swap(
        &self,
        pe: usize,
        disp: usize,
        width: Width,
        expected: u64,
        new: u64,
    ) -> Result<u64, TeamError> {
        let d = self.disp(pe, disp)?;
        let (mut old, e32, n32, mut old32) = (0u64, expected as u32, new as u32, 0u32);
        let (n, e, r): (*const c_void, *const c_void, *mut c_void) = match width {
            Width::U64 => (
                (&new as *const u64).cast(),
                (&expected as *const u64).cast(),
                (&mut old as *mut u64).cast(),
            ),
            Width::U32 => (
                (&n32 as *const u32).cast(),
                (&e32 as *const u32).cast(),
                (&mut old32 as *mut u32).cast(),
            ),
        };
        // SAFETY: as in `fetch_and_op`: locals of the right width outlive the flush.
        check("MPI_Compare_and_swap", unsafe {
            ffi::MPI_Compare_and_swap(n, e, r, width.raw(), pe as c_int, d, self.win)
        })?;
        if self.crowded {
            self.started(pe);
            self.probe(&[(pe, d, width)])?;
        }
        self.flush_now(pe)?;
        Ok(match width {
            Width::U64 => old,
            Width::U32 => u64::from(old32),
        })
    }

    /// `MPI_Win_flush(pe)`: earlier operations to `pe` are complete there.
    ///
    /// MPI has no nonblocking flush, and MPICH 4.0's (ch4:ucx) spins in `ucp_ep_flush`
    /// without yielding until the target has acknowledged every operation, which the target
    /// does only when it runs MPI's progress: on a crowded node, the CPU the spinner holds.
    /// With 4 ranks on 2 CPUs every rank of tests-sos `spam`'s collectives sat in
    /// `MPI_Win_flush` or `MPI_Win_flush_local` (the signals' flush before the accumulate,
    /// the accumulate's own), 10-14 ms a collective (#42). So on a crowded node, when an
    /// operation was started to `pe` since its last flush, an atomic read of `pe`'s first
    /// control word (`MPI_Rget_accumulate` with `MPI_NO_OP`: atomic with the accumulates
    /// that are the only updates of that word) goes first, its request polled (paced:
    /// `crowded::finish`):
    /// the target, which handles one origin's operations in order, answers it after it has
    /// handled and acknowledged the earlier ones, so the flush then finds them complete.
    /// The flush still gives the guarantee; the read only makes its wait short.
    pub(crate) fn flush(&self, pe: usize) -> Result<(), TeamError> {
        if self.crowded
            && self
                .unflushed
                .get(pe)
                .is_some_and(|u| u.swap(false, Relaxed))
        {
            self.probe(&[(pe, self.disp(pe, 0)?, Width::U64)])?;
        }
        self.flush_now(pe)
    }

    /// `MPI_Win_flush(pe)` itself.
    fn flush_now(&self, pe: usize) -> Result<(), TeamError> {
        // SAFETY: a valid window in a lock_all epoch; `pe` was checked by the caller.
        check("MPI_Win_flush", unsafe {
            ffi::MPI_Win_flush(pe as c_int, self.win)
        })
    }

    /// `MPI_Win_flush_local(pe)`: origin buffers of earlier operations to `pe` reusable.
    pub(crate) fn flush_local(&self, pe: usize) -> Result<(), TeamError> {
        // SAFETY: as in `flush`.
        check("MPI_Win_flush_local", unsafe {
            ffi::MPI_Win_flush_local(pe as c_int, self.win)
        })
    }

    /// `MPI_Win_flush_all`: earlier operations to every rank are complete there. On a
    /// crowded node preceded by [`flush`](Self::flush)'s polled read from every rank an
    /// operation was started to since its last flush (all started before any is waited
    /// for).
    pub(crate) fn flush_all(&self) -> Result<(), TeamError> {
        if self.crowded {
            let mut reads = Vec::new();
            for (pe, u) in self.unflushed.iter().enumerate() {
                if u.swap(false, Relaxed) {
                    reads.push((pe, self.disp(pe, 0)?, Width::U64));
                }
            }
            self.probe(&reads)?;
        }
        // SAFETY: a valid window in a lock_all epoch.
        check("MPI_Win_flush_all", unsafe {
            ffi::MPI_Win_flush_all(self.win)
        })
    }

    /// `MPI_Win_sync`: a memory barrier between this process's view of its window memory
    /// and the updates MPI made there.
    pub(crate) fn sync(&self) -> Result<(), TeamError> {
        // SAFETY: a valid window in a lock_all epoch.
        check("MPI_Win_sync", unsafe { ffi::MPI_Win_sync(self.win) })
    }
}

impl Drop for Window {
    fn drop(&mut self) {
        // Errors here have nowhere to go; MPI_Win_free is collective, so a rank that drops
        // its window early (an error path) waits for the others or is ended by MPI_Abort.
        // SAFETY: the window is valid and in the lock_all epoch opened by `allocate`;
        // after MPI_Win_free nobody uses `base` (the transport that owned it is dropping).
        unsafe {
            ffi::MPI_Win_unlock_all(self.win);
            ffi::MPI_Win_free(&mut self.win);
        }
    }
}
