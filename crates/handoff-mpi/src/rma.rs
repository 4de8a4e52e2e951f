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

use handoff::sync::Wait;
use handoff::team::TeamError;
use mpi::ffi;

use crate::comm::{abort_world, check, complete};

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

/// The buffer of a [`Window::transfer`]: the source of a put or the destination of a get.
enum Transfer<'a> {
    Put(&'a [u8]),
    Get(&'a mut [u8]),
}

impl Transfer<'_> {
    fn len(&self) -> usize {
        match self {
            Transfer::Put(s) => s.len(),
            Transfer::Get(d) => d.len(),
        }
    }
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
    /// Collective over `comm`: allocates `len` bytes per rank, [`ALIGN`]-aligned (MPI is
    /// asked for `len` plus room to align, and for the alignment itself with MPI 4.1's
    /// `mpi_minimum_memory_alignment` info key, which libraries without it ignore), zeroed
    /// here; learns every rank's pad; checks the memory model is unified (local loads see
    /// remote updates, which the team's signal waits rely on), and opens the passive-target
    /// epoch.
    ///
    /// `shared`: allocate with `MPI_Win_allocate_shared` (every rank of `comm` must share
    /// a node), so the MPI library may serve RMA calls with loads and stores instead of
    /// messages the target has to progress.
    pub(crate) fn allocate(
        comm: ffi::MPI_Comm,
        len: usize,
        shared: bool,
    ) -> Result<Window, TeamError> {
        let stagger = ALIGN * (stagger_pages(comm)?);
        let total = len
            .checked_add(ALIGN + stagger)
            .and_then(|t| ffi::MPI_Aint::try_from(t).ok())
            .ok_or_else(|| {
                TeamError::InvalidArgument(format!(
                    "a window of {len} bytes is beyond MPI's address type; ask for a smaller heap"
                ))
            })?;
        let mut raw: *mut u8 = std::ptr::null_mut();
        // SAFETY: a predefined handle, valid after MPI_Init.
        let mut win: ffi::MPI_Win = unsafe { ffi::RSMPI_WIN_NULL };
        let info = window_info(shared)?;
        let (call, rc) = if shared {
            // SAFETY: as for MPI_Win_allocate below.
            let rc = unsafe {
                ffi::MPI_Win_allocate_shared(
                    total,
                    1,
                    info,
                    comm,
                    (&mut raw as *mut *mut u8).cast::<c_void>(),
                    &mut win,
                )
            };
            ("MPI_Win_allocate_shared", rc)
        } else {
            // SAFETY: MPI_Win_allocate writes the base pointer (a `void*`) through its 5th
            // argument and the handle through the 6th; both point to locals of the right
            // types; `info` is a valid info object.
            let rc = unsafe {
                ffi::MPI_Win_allocate(
                    total,
                    1,
                    info,
                    comm,
                    (&mut raw as *mut *mut u8).cast::<c_void>(),
                    &mut win,
                )
            };
            ("MPI_Win_allocate", rc)
        };
        let mut info = info;
        // SAFETY: `info` was created by `window_info` and is not used again (MPI copied
        // what it needs).
        unsafe { ffi::MPI_Info_free(&mut info) };
        check(call, rc)?;
        // At most ALIGN - 1 bytes to the first aligned one, then the stagger: within the
        // `ALIGN + stagger` bytes asked for beyond `len`.
        let pad = raw.align_offset(ALIGN) + stagger;
        // SAFETY: MPI gave `total` = `len + ALIGN + stagger` bytes at `raw`, ours until
        // MPI_Win_free; `pad + len` is within them; no epoch is open yet, so no other rank
        // accesses them.
        let base = unsafe {
            let base = raw.add(pad);
            std::ptr::write_bytes(base, 0, len);
            base
        };
        Window::open(comm, win, base, pad)
    }

    /// Collective over `comm`: a window over memory this rank already has (`MPI_Win_create`),
    /// `len` bytes at `base` — on the mixed path, this rank's part of its node's shared
    /// window, so the world window and the node mapping are one memory (aligned there, so
    /// no pad here). Checked and opened as in [`allocate`](Self::allocate); the memory is not
    /// zeroed (it was at allocation).
    ///
    /// # Safety
    ///
    /// `base` must hold `len` bytes that stay valid until this window drops.
    pub(crate) unsafe fn create(
        comm: ffi::MPI_Comm,
        base: *mut u8,
        len: usize,
    ) -> Result<Window, TeamError> {
        let size = ffi::MPI_Aint::try_from(len).map_err(|_| {
            TeamError::InvalidArgument(format!(
                "a window of {len} bytes is beyond MPI's address type; ask for a smaller heap"
            ))
        })?;
        // SAFETY: a predefined handle, valid after MPI_Init.
        let mut win: ffi::MPI_Win = unsafe { ffi::RSMPI_WIN_NULL };
        // SAFETY: `base` holds `len` bytes for the window's life (the caller's contract);
        // the handle is written to a local.
        check("MPI_Win_create", unsafe {
            ffi::MPI_Win_create(base.cast(), size, 1, ffi::RSMPI_INFO_NULL, comm, &mut win)
        })?;
        Window::open(comm, win, base, 0)
    }

    /// Sets the error handler, learns every rank's pad (an allgather over `comm`), checks
    /// the unified memory model and opens the passive-target epoch of a window just created,
    /// this rank's part at `base`, `pad` bytes into its window memory.
    fn open(
        comm: ffi::MPI_Comm,
        win: ffi::MPI_Win,
        base: *mut u8,
        pad: usize,
    ) -> Result<Window, TeamError> {
        let mut w = Window {
            win,
            base,
            pads: Vec::new(),
            crowded: false,
            unflushed: Vec::new(),
        };
        w.pads = allgather_pads(comm, pad)?;
        w.unflushed = w.pads.iter().map(|_| AtomicBool::new(false)).collect();
        // SAFETY: `win` is the window just created; the handler is predefined.
        check("MPI_Win_set_errhandler", unsafe {
            ffi::MPI_Win_set_errhandler(win, ffi::RSMPI_ERRORS_RETURN)
        })?;
        let mut model: *mut c_int = std::ptr::null_mut();
        let mut flag: c_int = 0;
        // SAFETY: for MPI_WIN_MODEL the attribute value is a pointer to an int, written
        // through the third argument; `flag` says whether it is set.
        check("MPI_Win_get_attr", unsafe {
            ffi::MPI_Win_get_attr(
                win,
                ffi::MPI_WIN_MODEL as c_int,
                (&mut model as *mut *mut c_int).cast::<c_void>(),
                &mut flag,
            )
        })?;
        // SAFETY: when `flag` is set, `model` points to MPI's attribute int.
        let unified =
            flag != 0 && !model.is_null() && unsafe { *model == handoff_mpi_win_unified() };
        if !unified {
            return Err(TeamError::Transport {
                transport: "MPI",
                call: "MPI_Win_get_attr(MPI_WIN_MODEL)",
                what: "this MPI library gives windows the separate memory model; the team's \
                       local signal waits need the unified model (MPICH, Open MPI on \
                       cache-coherent machines have it)"
                    .into(),
            });
        }
        // SAFETY: `win` is valid; MPI_MODE_NOCHECK is a valid assertion for lock_all.
        check("MPI_Win_lock_all", unsafe {
            ffi::MPI_Win_lock_all(handoff_mpi_mode_nocheck(), win)
        })?;
        Ok(w)
    }

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
    /// (`Nodes::oversubscribed`): then every call here waits for MPI by polling a request
    /// with yields, not in MPI's flush ([`transfer`](Self::transfer),
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

    /// [`put`](Self::put) or [`get`](Self::get) on a crowded node: each chunk an `MPI_Rput`
    /// or `MPI_Rget`, its request tested with a `sched_yield` between polls (`SpinYield`)
    /// until complete — for `MPI_Rput` its source is reusable, as after
    /// `MPI_Win_flush_local`; for `MPI_Rget` the data are here, as after `MPI_Win_flush`.
    /// MPICH 4.0's flush spins without yielding while the target's progress, which its RMA
    /// between processes needs, waits for the CPU the spinner holds: with 4 ranks on 2
    /// CPUs a plain MPI program's 2 KiB `MPI_Get` + `MPI_Win_flush` took 8-10 ms, the
    /// polled `MPI_Rget` 0.9-1.9 ms, and tests-sos `spam` on the mixed path ran past its 60 s
    /// (#42).
    fn transfer(&self, pe: usize, disp: usize, mut t: Transfer<'_>) -> Result<(), TeamError> {
        let len = t.len();
        if let Transfer::Put(_) = t {
            self.started(pe);
        }
        let mut at = 0;
        while at < len {
            let n = (len - at).min(MAX_CHUNK);
            let d = self.disp(pe, disp + at)?;
            // SAFETY: a predefined handle.
            let mut req = unsafe { ffi::RSMPI_REQUEST_NULL };
            let (call, rc) = match &mut t {
                // SAFETY: `src[at..at + n]` is valid for reads until the request completes,
                // which `finish` below waits for before this borrow ends (or the job is
                // aborted); the caller checked pe and the range.
                Transfer::Put(src) => ("MPI_Rput", unsafe {
                    ffi::MPI_Rput(
                        src[at..].as_ptr().cast(),
                        n as c_int,
                        byte(),
                        pe as c_int,
                        d,
                        n as c_int,
                        byte(),
                        self.win,
                        &mut req,
                    )
                }),
                // SAFETY: `dst[at..at + n]` is valid for writes until the request completes
                // (as above); nothing reads it meanwhile (we hold the only borrow).
                Transfer::Get(dst) => ("MPI_Rget", unsafe {
                    ffi::MPI_Rget(
                        dst[at..].as_mut_ptr().cast(),
                        n as c_int,
                        byte(),
                        pe as c_int,
                        d,
                        n as c_int,
                        byte(),
                        self.win,
                        &mut req,
                    )
                }),
            };
            check(call, rc)?;
            finish(&mut req, call);
            at += n;
        }
        Ok(())
    }

    /// `MPI_Accumulate` of one 64-bit word (`op` is `Sum` or `Replace`), locally complete on
    /// return. Accumulates are atomic per element with every other accumulate, fetch-and-op
    /// and compare-and-swap on the same word (MPI-3.1 §11.7.1). On a crowded node an
    /// `MPI_Raccumulate` whose request is polled with yields (its completion: the origin
    /// buffer reusable, as after `MPI_Win_flush_local`, which spins as the flush does).
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
    /// `MPI_Rget_accumulate` whose request is polled with yields (the old value is here),
    /// then the flush, which finds it done ([`flush`](Self::flush)).
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
    /// that are the only updates of that word) goes first, its request polled with yields:
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

    /// Notes that an operation that needs `pe`'s acknowledgement was started to it (crowded
    /// nodes only: see [`flush`](Self::flush)).
    fn started(&self, pe: usize) {
        if let Some(u) = self.unflushed.get(pe) {
            u.store(true, Relaxed);
        }
    }

    /// An atomic read (`MPI_Rget_accumulate`, `MPI_NO_OP`) of each word `(pe, displacement,
    /// width)`, all started, then each request polled with yields until complete
    /// ([`flush`](Self::flush)).
    fn probe(&self, words: &[(usize, ffi::MPI_Aint, Width)]) -> Result<(), TeamError> {
        // Room for every answer before the first read starts: the buffers do not move while
        // MPI may write them.
        let mut answers = vec![0u64; words.len()];
        let mut reqs = Vec::with_capacity(words.len());
        let unused = 0u64;
        let mut failed = None;
        for (&(pe, d, width), answer) in words.iter().zip(answers.iter_mut()) {
            // SAFETY: `unused` (ignored by MPI_NO_OP) and `answer` (a u64, room for either
            // width) live until every request is complete below; the caller computed `d`
            // within `pe`'s part.
            let r = unsafe {
                self.rget_accumulate(
                    (&unused as *const u64).cast(),
                    (answer as *mut u64).cast(),
                    width,
                    pe,
                    d,
                    RmaOp::NoOp,
                )
            };
            match r {
                Ok(req) => reqs.push(req),
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        // The ones started are completed even after an error: their buffers are locals.
        for req in &mut reqs {
            finish(req, "MPI_Rget_accumulate");
        }
        failed.map_or(Ok(()), Err)
    }

    /// Starts an `MPI_Rget_accumulate` of one word of `width` at displacement `d` of `pe`
    /// (`src` the operand, `dst` the old value) and returns its request.
    ///
    /// # Safety
    ///
    /// `src` and `dst` must point to `width`-sized buffers that stay valid until the
    /// request is complete.
    unsafe fn rget_accumulate(
        &self,
        src: *const c_void,
        dst: *mut c_void,
        width: Width,
        pe: usize,
        d: ffi::MPI_Aint,
        op: RmaOp,
    ) -> Result<ffi::MPI_Request, TeamError> {
        // SAFETY: a predefined handle.
        let mut req = unsafe { ffi::RSMPI_REQUEST_NULL };
        // SAFETY: the caller's promise for `src` and `dst`; the request is written to a
        // local.
        check("MPI_Rget_accumulate", unsafe {
            ffi::MPI_Rget_accumulate(
                src,
                1,
                width.raw(),
                dst,
                1,
                width.raw(),
                pe as c_int,
                d,
                1,
                width.raw(),
                op.raw(),
                self.win,
                &mut req,
            )
        })?;
        Ok(req)
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

/// Waits for an RMA request by polling it with yields (`SpinYield`, no deadline) until it is
/// complete. An error of `MPI_Test` leaves MPI free to use the buffer the caller is about to
/// get back: the job cannot go on, so this rank says why and aborts it.
fn finish(req: &mut ffi::MPI_Request, call: &'static str) {
    if let Err(e) = complete(req, call, Wait::SpinYield, None, "an RMA operation") {
        let line = format!("handoff-mpi: {e}; aborting the MPI job\n");
        let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
        abort_world(3);
    }
}

/// The info object of a new window: MPI 4.1's `mpi_minimum_memory_alignment` (a library
/// that has the key may then need no pad; one without it ignores it) and, for a shared
/// window, `alloc_shared_noncontig` (each rank's part on its own pages).
fn window_info(shared: bool) -> Result<ffi::MPI_Info, TeamError> {
    // SAFETY: a predefined handle.
    let mut info = unsafe { ffi::RSMPI_INFO_NULL };
    // SAFETY: MPI_Info_create writes a new handle to `info`.
    check("MPI_Info_create", unsafe {
        ffi::MPI_Info_create(&mut info)
    })?;
    let align = std::ffi::CString::new(ALIGN.to_string()).expect("digits have no NUL");
    let mut keys = vec![(c"mpi_minimum_memory_alignment", align.as_c_str())];
    if shared {
        keys.push((c"alloc_shared_noncontig", c"true"));
    }
    for (key, value) in keys {
        // SAFETY: `info` is valid; key and value are NUL-terminated C strings.
        let rc = unsafe { ffi::MPI_Info_set(info, key.as_ptr(), value.as_ptr()) };
        if let Err(e) = check("MPI_Info_set", rc) {
            // SAFETY: created above, not used again.
            unsafe { ffi::MPI_Info_free(&mut info) };
            return Err(e);
        }
    }
    Ok(info)
}

/// Every rank's `pad`, by rank of `comm` (collective).
fn allgather_pads(comm: ffi::MPI_Comm, pad: usize) -> Result<Vec<usize>, TeamError> {
    let mut size: c_int = 0;
    // SAFETY: a valid communicator; the size is written to a local.
    check("MPI_Comm_size", unsafe {
        ffi::MPI_Comm_size(comm, &mut size)
    })?;
    let mine = pad as u64;
    let mut all = vec![0u64; size.max(0) as usize];
    // SAFETY: one u64 sent from a local, one per rank received into `all` (`size` entries).
    check("MPI_Allgather(window pads)", unsafe {
        ffi::MPI_Allgather(
            (&mine as *const u64).cast(),
            1,
            ffi::RSMPI_UINT64_T,
            all.as_mut_ptr().cast(),
            1,
            ffi::RSMPI_UINT64_T,
            comm,
        )
    })?;
    Ok(all.into_iter().map(|p| p as usize).collect())
}

/// With [`ENV_STAGGER`] set, `rank % 3` for this rank of `comm`: the extra pages before its
/// part; else 0.
fn stagger_pages(comm: ffi::MPI_Comm) -> Result<usize, TeamError> {
    match std::env::var(ENV_STAGGER).as_deref() {
        Err(_) | Ok("0") | Ok("") => Ok(0),
        Ok("1") => {
            let mut rank: c_int = 0;
            // SAFETY: a valid communicator; the rank is written to a local.
            check("MPI_Comm_rank", unsafe {
                ffi::MPI_Comm_rank(comm, &mut rank)
            })?;
            Ok(rank.max(0) as usize % 3)
        }
        Ok(other) => Err(TeamError::BadEnv {
            var: ENV_STAGGER,
            value: other.into(),
            why: "expected 1 (stagger the window parts, a test setting) or 0".into(),
        }),
    }
}
