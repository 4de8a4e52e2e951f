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

use handoff::team::TeamError;
use mpi::ffi;

use crate::comm::check;

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

/// One window of `len` bytes on every rank of a communicator, locked (shared) to all ranks
/// from creation to drop. Displacements are bytes (`disp_unit` 1).
pub(crate) struct Window {
    win: ffi::MPI_Win,
    base: *mut u8,
}

impl Window {
    /// Collective over `comm`: allocates `len` bytes per rank (zeroed here), checks the
    /// memory model is unified (local loads see remote updates, which the team's signal
    /// waits rely on), and opens the passive-target epoch.
    ///
    /// `shared`: allocate with `MPI_Win_allocate_shared` (every rank of `comm` must share
    /// a node), so the MPI library may serve RMA calls with loads and stores instead of
    /// messages the target has to progress.
    pub(crate) fn allocate(
        comm: ffi::MPI_Comm,
        len: usize,
        shared: bool,
    ) -> Result<Window, TeamError> {
        let mut base: *mut u8 = std::ptr::null_mut();
        // SAFETY: a predefined handle, valid after MPI_Init.
        let mut win: ffi::MPI_Win = unsafe { ffi::RSMPI_WIN_NULL };
        let size = ffi::MPI_Aint::try_from(len).map_err(|_| {
            TeamError::InvalidArgument(format!(
                "a window of {len} bytes is beyond MPI's address type; ask for a smaller heap"
            ))
        })?;
        if shared {
            let info = noncontig_info()?;
            // SAFETY: as for MPI_Win_allocate below; `info` is a valid info object, freed
            // right after (MPI copies what it needs).
            let rc = unsafe {
                ffi::MPI_Win_allocate_shared(
                    size,
                    1,
                    info,
                    comm,
                    (&mut base as *mut *mut u8).cast::<c_void>(),
                    &mut win,
                )
            };
            let mut info = info;
            // SAFETY: `info` was created by `noncontig_info` and is not used again.
            unsafe { ffi::MPI_Info_free(&mut info) };
            check("MPI_Win_allocate_shared", rc)?;
        } else {
            // SAFETY: MPI_Win_allocate writes the base pointer (a `void*`) through its 5th
            // argument and the handle through the 6th; both point to locals of the right
            // types.
            check("MPI_Win_allocate", unsafe {
                ffi::MPI_Win_allocate(
                    size,
                    1,
                    ffi::RSMPI_INFO_NULL,
                    comm,
                    (&mut base as *mut *mut u8).cast::<c_void>(),
                    &mut win,
                )
            })?;
        }
        // SAFETY: MPI_Win_allocate gave `len` bytes at `base`, ours until MPI_Win_free; no
        // epoch is open yet, so no other rank accesses them.
        unsafe { std::ptr::write_bytes(base, 0, len) };
        Window::open(win, base)
    }

    /// Collective over `comm`: a window over memory this rank already has (`MPI_Win_create`),
    /// `len` bytes at `base` — on the mixed path, this rank's part of its node's shared
    /// window, so the world window and the node mapping are one memory. Checked and opened
    /// as in [`allocate`](Self::allocate); the memory is not zeroed (it was at allocation).
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
        Window::open(win, base)
    }

    /// Sets the error handler, checks the unified memory model and opens the passive-target
    /// epoch of a window just created at `base`.
    fn open(win: ffi::MPI_Win, base: *mut u8) -> Result<Window, TeamError> {
        let w = Window { win, base };
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

    /// The local address of rank `rank`'s part of a shared window (`MPI_Win_shared_query`)
    /// and its size in bytes.
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
        Ok((base, size.max(0) as usize))
    }

    /// Local base address of this rank's part (valid until drop).
    pub(crate) fn base(&self) -> *mut u8 {
        self.base
    }

    /// Starts copying `src` to `pe`'s window at byte `disp`, then waits for local completion
    /// (`src` reusable; the data reach the target by the next flush of `pe`).
    pub(crate) fn put(&self, pe: usize, disp: usize, src: &[u8]) -> Result<(), TeamError> {
        for (i, chunk) in src.chunks(MAX_CHUNK).enumerate() {
            let d = aint(disp + i * MAX_CHUNK)?;
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
        for (i, chunk) in dst.chunks_mut(MAX_CHUNK).enumerate() {
            let d = aint(disp + i * MAX_CHUNK)?;
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
    /// and compare-and-swap on the same word (MPI-3.1 §11.7.1).
    pub(crate) fn accumulate_u64(
        &self,
        pe: usize,
        disp: usize,
        value: u64,
        op: RmaOp,
    ) -> Result<(), TeamError> {
        let d = aint(disp)?;
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
    /// at the target on return; returns the old value.
    pub(crate) fn fetch_and_op(
        &self,
        pe: usize,
        disp: usize,
        width: Width,
        value: u64,
        op: RmaOp,
    ) -> Result<u64, TeamError> {
        let d = aint(disp)?;
        let mut old = 0u64;
        let v32 = value as u32;
        let mut old32 = 0u32;
        let (src, dst): (*const c_void, *mut c_void) = match width {
            Width::U64 => ((&value as *const u64).cast(), (&mut old as *mut u64).cast()),
            Width::U32 => ((&v32 as *const u32).cast(), (&mut old32 as *mut u32).cast()),
        };
        // SAFETY: `src` and `dst` point to locals of the datatype's width that outlive the
        // flush below (which completes the operation); the caller checked pe and alignment.
        check("MPI_Fetch_and_op", unsafe {
            ffi::MPI_Fetch_and_op(src, dst, width.raw(), pe as c_int, d, op.raw(), self.win)
        })?;
        self.flush(pe)?;
        Ok(match width {
            Width::U64 => old,
            Width::U32 => u64::from(old32),
        })
    }

    /// `MPI_Compare_and_swap` on one word; complete at the target on return; returns the old
    /// value.
    pub(crate) fn compare_and_swap(
        &self,
        pe: usize,
        disp: usize,
        width: Width,
        expected: u64,
        new: u64,
    ) -> Result<u64, TeamError> {
        let d = aint(disp)?;
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
        self.flush(pe)?;
        Ok(match width {
            Width::U64 => old,
            Width::U32 => u64::from(old32),
        })
    }

    /// `MPI_Win_flush(pe)`: earlier operations to `pe` are complete there.
    pub(crate) fn flush(&self, pe: usize) -> Result<(), TeamError> {
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

    /// `MPI_Win_flush_all`: earlier operations to every rank are complete there.
    pub(crate) fn flush_all(&self) -> Result<(), TeamError> {
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

/// An info object asking for each rank's part of a shared window on its own pages
/// (`alloc_shared_noncontig`), so every part starts page aligned.
fn noncontig_info() -> Result<ffi::MPI_Info, TeamError> {
    // SAFETY: a predefined handle.
    let mut info = unsafe { ffi::RSMPI_INFO_NULL };
    // SAFETY: MPI_Info_create writes a new handle to `info`.
    check("MPI_Info_create", unsafe {
        ffi::MPI_Info_create(&mut info)
    })?;
    // SAFETY: `info` is valid; key and value are NUL-terminated C strings.
    check("MPI_Info_set", unsafe {
        ffi::MPI_Info_set(info, c"alloc_shared_noncontig".as_ptr(), c"true".as_ptr())
    })?;
    Ok(info)
}

fn aint(disp: usize) -> Result<ffi::MPI_Aint, TeamError> {
    ffi::MPI_Aint::try_from(disp).map_err(|_| {
        TeamError::InvalidArgument(format!("displacement {disp} is beyond MPI's address type"))
    })
}
