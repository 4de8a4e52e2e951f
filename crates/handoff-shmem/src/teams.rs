//! Teams and contexts (OpenSHMEM 1.5 §9.4, §9.5): the predefined teams `SHMEM_TEAM_WORLD` and
//! `SHMEM_TEAM_SHARED` (the same PEs on one node) with their queries, `shmem_team_sync`, the
//! team collectives `shmem_broadcastmem`/`shmem_collectmem`/`shmem_fcollectmem`/
//! `shmem_alltoallmem`, and the default context. Creating teams or contexts is not supported: those calls fail with a
//! message naming the call, never silently.

use std::ffi::{c_int, c_void};

use crate::error::{Result, ShmemError};
use crate::state::{entry, State};

/// `shmem_team_t`: an opaque pointer in shmem.h; 1 is `SHMEM_TEAM_WORLD`, 2 is
/// `SHMEM_TEAM_SHARED`, NULL is `SHMEM_TEAM_INVALID`.
pub type TeamHandle = *const c_void;
/// `shmem_ctx_t`: an opaque pointer; 1 is `SHMEM_CTX_DEFAULT`.
pub type CtxHandle = *const c_void;

const WORLD: usize = 1;
const SHARED: usize = 2;

/// The members of a predefined team.
pub fn members(s: &State, team: TeamHandle) -> Result<Vec<usize>> {
    match team as usize {
        WORLD | SHARED => Ok(crate::coll::world(s)),
        0 => Err(ShmemError::Invalid(
            "the team is SHMEM_TEAM_INVALID; pass SHMEM_TEAM_WORLD".into(),
        )),
        _ => Err(ShmemError::Unsupported(
            "teams other than SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED (this handle was not made \
             by handoff's OpenSHMEM)",
        )),
    }
}

/// `shmem_team_my_pe`: this PE's number in a predefined team (-1 for an invalid team).
#[no_mangle]
pub extern "C" fn shmem_team_my_pe(team: TeamHandle) -> c_int {
    entry("shmem_team_my_pe", |s| {
        Ok(if team.is_null() {
            -1
        } else {
            members(s, team).map(|_| s.rank as c_int)?
        })
    })
}

/// `shmem_team_n_pes`: the number of PEs of a predefined team (-1 for an invalid team).
#[no_mangle]
pub extern "C" fn shmem_team_n_pes(team: TeamHandle) -> c_int {
    entry("shmem_team_n_pes", |s| {
        Ok(if team.is_null() {
            -1
        } else {
            members(s, team)?.len() as c_int
        })
    })
}

/// `shmem_team_translate_pe`: the same number in both predefined teams.
#[no_mangle]
pub extern "C" fn shmem_team_translate_pe(
    src_team: TeamHandle,
    src_pe: c_int,
    dest_team: TeamHandle,
) -> c_int {
    entry("shmem_team_translate_pe", |s| {
        if src_team.is_null() || dest_team.is_null() {
            return Ok(-1);
        }
        members(s, src_team)?;
        members(s, dest_team)?;
        Ok(if s.pe(src_pe).is_ok() { src_pe } else { -1 })
    })
}

/// `shmem_team_sync`: a barrier over the team.
#[no_mangle]
pub extern "C" fn shmem_team_sync(team: TeamHandle) -> c_int {
    entry("shmem_team_sync", |s| {
        members(s, team)?;
        s.team.barrier_all()?;
        Ok(0)
    })
}

/// `shmem_broadcastmem` (1.5): from `PE_root` to every PE of the team, the root included.
///
/// # Safety
/// `dest` is valid for writes of `nelems` bytes.
#[no_mangle]
pub unsafe extern "C" fn shmem_broadcastmem(
    team: TeamHandle,
    dest: *mut c_void,
    source: *const c_void,
    nelems: usize,
    root: c_int,
) -> c_int {
    entry("shmem_broadcastmem", |s| {
        let set = members(s, team)?;
        // SAFETY: the caller's promise.
        unsafe { crate::coll::broadcast(s, &set, dest.cast(), source.cast(), nelems, root, true) }?;
        Ok(0)
    })
}

/// `shmem_collectmem` (1.5): each PE's `nelems` bytes, concatenated in PE order.
///
/// # Safety
/// `dest` is valid for writes of the total.
#[no_mangle]
pub unsafe extern "C" fn shmem_collectmem(
    team: TeamHandle,
    dest: *mut c_void,
    source: *const c_void,
    nelems: usize,
) -> c_int {
    entry("shmem_collectmem", |s| {
        let set = members(s, team)?;
        // SAFETY: the caller's promise.
        unsafe { crate::coll::collect(s, &set, dest.cast(), source.cast(), nelems, false) }?;
        Ok(0)
    })
}

/// `shmem_fcollectmem` (1.5): every PE's `nelems` bytes, concatenated in PE order.
///
/// # Safety
/// `dest` is valid for writes of `nelems * n_pes` bytes.
#[no_mangle]
pub unsafe extern "C" fn shmem_fcollectmem(
    team: TeamHandle,
    dest: *mut c_void,
    source: *const c_void,
    nelems: usize,
) -> c_int {
    entry("shmem_fcollectmem", |s| {
        let set = members(s, team)?;
        // SAFETY: the caller's promise.
        unsafe { crate::coll::collect(s, &set, dest.cast(), source.cast(), nelems, true) }?;
        Ok(0)
    })
}

/// Defines a call that is not supported: it reports itself and ends the PE.
macro_rules! unsupported {
    ($name:ident ( $($a:ident : $t:ty),* ) -> $r:ty, $why:expr) => {
        /// Not supported by handoff's OpenSHMEM: reports the call and ends the PE.
        #[no_mangle]
        pub extern "C" fn $name($($a: $t),*) -> $r {
            $(let _ = $a;)*
            entry(stringify!($name), |_| Err(ShmemError::Unsupported($why)))
        }
    };
}

unsupported!(shmem_team_split_strided(parent: TeamHandle, start: c_int, stride: c_int, size: c_int,
    config: *const c_void, mask: std::ffi::c_long, new_team: *mut TeamHandle) -> c_int,
    "creating teams (shmem_team_split_strided): use SHMEM_TEAM_WORLD, or the deprecated active-set collectives");
unsupported!(shmem_team_split_2d(parent: TeamHandle, xrange: c_int, xconfig: *const c_void,
    xmask: std::ffi::c_long, xteam: *mut TeamHandle, yconfig: *const c_void, ymask: std::ffi::c_long,
    yteam: *mut TeamHandle) -> c_int,
    "creating teams (shmem_team_split_2d): use SHMEM_TEAM_WORLD");
unsupported!(shmem_team_destroy(team: TeamHandle) -> (),
    "destroying teams: only the predefined teams exist, and they are never destroyed");
unsupported!(shmem_team_get_config(team: TeamHandle, mask: std::ffi::c_long, config: *mut c_void) -> c_int,
    "team configurations (shmem_team_get_config)");
unsupported!(shmem_ctx_create(options: std::ffi::c_long, ctx: *mut CtxHandle) -> c_int,
    "communication contexts (shmem_ctx_create): use the default context (the shmem_* calls without ctx)");
unsupported!(shmem_team_create_ctx(team: TeamHandle, options: std::ffi::c_long, ctx: *mut CtxHandle) -> c_int,
    "communication contexts (shmem_team_create_ctx): use the default context");
unsupported!(shmem_ctx_destroy(ctx: CtxHandle) -> (),
    "communication contexts (shmem_ctx_destroy): the default context is never destroyed");

/// `shmem_alltoallmem` (1.5): PE `j`'s block `i` of `dest` is PE `i`'s block `j` of `source`.
///
/// # Safety
/// `dest` is valid for writes of `nelems * n_pes` bytes.
#[no_mangle]
pub unsafe extern "C" fn shmem_alltoallmem(
    team: TeamHandle,
    dest: *mut c_void,
    source: *const c_void,
    nelems: usize,
) -> c_int {
    entry("shmem_alltoallmem", |s| {
        let set = members(s, team)?;
        // SAFETY: the caller's promise.
        unsafe { crate::coll::alltoall(s, &set, dest.cast(), source.cast(), nelems) }?;
        Ok(0)
    })
}

/// Defines the typed team collectives of one type (1.5 §9.9: broadcast, collect, fcollect,
/// alltoall on `SHMEM_TEAM_WORLD`/`SHARED`).
macro_rules! team_coll_type {
    ($t:ty; $bcast:ident $collect:ident $fcollect:ident $alltoall:ident) => {
        /// Typed team broadcast from `PE_root`, the root included; returns 0.
        ///
        /// # Safety
        /// `dest` is valid for writes of `nelems` elements.
        #[no_mangle]
        pub unsafe extern "C" fn $bcast(
            team: TeamHandle,
            dest: *mut $t,
            source: *const $t,
            nelems: usize,
            root: c_int,
        ) -> c_int {
            entry(stringify!($bcast), |s| {
                let set = members(s, team)?;
                let len = crate::rma::bytes::<$t>(nelems, stringify!($bcast))?;
                // SAFETY: the caller's promise.
                unsafe {
                    crate::coll::broadcast(s, &set, dest.cast(), source.cast(), len, root, true)
                }?;
                Ok(0)
            })
        }
        /// Typed team collect (each PE its own `nelems`); returns 0.
        ///
        /// # Safety
        /// `dest` is valid for writes of the total.
        #[no_mangle]
        pub unsafe extern "C" fn $collect(
            team: TeamHandle,
            dest: *mut $t,
            source: *const $t,
            nelems: usize,
        ) -> c_int {
            entry(stringify!($collect), |s| {
                let set = members(s, team)?;
                let len = crate::rma::bytes::<$t>(nelems, stringify!($collect))?;
                // SAFETY: the caller's promise.
                unsafe { crate::coll::collect(s, &set, dest.cast(), source.cast(), len, false) }?;
                Ok(0)
            })
        }
        /// Typed team fcollect; returns 0.
        ///
        /// # Safety
        /// `dest` is valid for writes of `nelems * n_pes` elements.
        #[no_mangle]
        pub unsafe extern "C" fn $fcollect(
            team: TeamHandle,
            dest: *mut $t,
            source: *const $t,
            nelems: usize,
        ) -> c_int {
            entry(stringify!($fcollect), |s| {
                let set = members(s, team)?;
                let len = crate::rma::bytes::<$t>(nelems, stringify!($fcollect))?;
                // SAFETY: the caller's promise.
                unsafe { crate::coll::collect(s, &set, dest.cast(), source.cast(), len, true) }?;
                Ok(0)
            })
        }
        /// Typed team all-to-all of `nelems` elements per pair; returns 0.
        ///
        /// # Safety
        /// `dest` is valid for writes of `nelems * n_pes` elements.
        #[no_mangle]
        pub unsafe extern "C" fn $alltoall(
            team: TeamHandle,
            dest: *mut $t,
            source: *const $t,
            nelems: usize,
        ) -> c_int {
            entry(stringify!($alltoall), |s| {
                let set = members(s, team)?;
                let len = crate::rma::bytes::<$t>(nelems, stringify!($alltoall))?;
                // SAFETY: the caller's promise.
                unsafe { crate::coll::alltoall(s, &set, dest.cast(), source.cast(), len) }?;
                Ok(0)
            })
        }
    };
}

use crate::rma::LongDouble;

include!("team_coll_types.rs");
