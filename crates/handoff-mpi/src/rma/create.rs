//! Making a [`Window`]: MPI's memory over-allocated and aligned to [`ALIGN`] (MPI promises
//! no alignment), every rank's pad learnt, the unified memory model checked and the
//! passive-target epoch opened.

use std::ffi::{c_int, c_void};
use std::sync::atomic::AtomicBool;

use handoff::team::TeamError;
use mpi::ffi;

use super::{handoff_mpi_mode_nocheck, handoff_mpi_win_unified, Window, ALIGN, ENV_STAGGER};
use crate::comm::check;

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
