//! Teams (OpenSHMEM 1.5 §9.4): the predefined teams `SHMEM_TEAM_WORLD` and
//! `SHMEM_TEAM_SHARED` (every PE: they are on one node), teams made by
//! `shmem_team_split_strided` / `shmem_team_split_2d`, their queries, `shmem_team_ptr`,
//! `shmem_team_sync`, `shmem_team_destroy`, and the team collectives
//! `shmem_broadcastmem`/`collectmem`/`fcollectmem`/`alltoallmem` with their typed forms (the
//! reductions are in `coll.rs`); every collective takes any team through [`members`].
//!
//! A created team is a heap object holding its members' world ranks; its handle is the
//! object's address, checked by a magic word before use (a handle not made here is an error,
//! not a crash, in the common cases). Splitting is collective over the parent team, ends with a
//! barrier over it, and gives `SHMEM_TEAM_INVALID` to the parent's PEs outside the new team.

use std::ffi::{c_int, c_long, c_void};
use std::sync::Arc;

use crate::error::{Result, ShmemError};
use crate::state::{entry, State};

/// `shmem_team_t`: an opaque pointer in shmem.h; 1 is `SHMEM_TEAM_WORLD`, 2 is
/// `SHMEM_TEAM_SHARED`, NULL is `SHMEM_TEAM_INVALID`, anything else a [`TeamObj`].
pub type TeamHandle = *const c_void;

const WORLD: usize = 1;
const SHARED: usize = 2;
/// Marks a live [`TeamObj`] (cleared when it is destroyed).
const MAGIC: u64 = 0x7465_616d_5f68_6f66;
/// `SHMEM_TEAM_NUM_CONTEXTS` (shmem.h): the config mask bit of `num_contexts`.
const NUM_CONTEXTS: c_long = 1;

/// `shmem_team_config_t` (shmem.h).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct TeamConfig {
    pub num_contexts: c_int,
}

/// A team made by a split.
#[derive(Debug)]
pub struct TeamObj {
    magic: u64,
    /// The members' world ranks, in team order.
    pub members: Arc<Vec<usize>>,
    config: TeamConfig,
}

/// The created team behind `team`, checked.
fn obj<'a>(team: TeamHandle) -> Result<&'a TeamObj> {
    let bad = || {
        ShmemError::Invalid(format!(
            "team handle {team:p} was not made by shmem_team_split_* (or was destroyed)"
        ))
    };
    if !(team as usize).is_multiple_of(std::mem::align_of::<TeamObj>()) {
        return Err(bad());
    }
    // SAFETY: a handle other than the predefined ones is a TeamObj address handed out by a
    // split and not yet destroyed (the C caller's promise; a destroyed one has its magic
    // cleared and its box leaked, see `shmem_team_destroy`).
    let t = unsafe { &*team.cast::<TeamObj>() };
    if t.magic != MAGIC {
        return Err(bad());
    }
    Ok(t)
}

/// The members (world ranks, in team order) of `team`.
pub fn members(s: &State, team: TeamHandle) -> Result<Vec<usize>> {
    Ok(members_arc(s, team)?.to_vec())
}

/// [`members`], shared.
pub fn members_arc(s: &State, team: TeamHandle) -> Result<Arc<Vec<usize>>> {
    match team as usize {
        WORLD | SHARED => Ok(Arc::new(crate::coll::world(s))),
        0 => Err(ShmemError::Invalid(
            "the team is SHMEM_TEAM_INVALID (a split gives it to the PEs outside the new team)"
                .into(),
        )),
        _ => Ok(obj(team)?.members.clone()),
    }
}

/// The world rank of PE `pe` of `team`, checked.
pub fn world_pe(s: &State, team: TeamHandle, pe: c_int) -> Result<c_int> {
    if matches!(team as usize, WORLD | SHARED) {
        return Ok(pe);
    }
    let m = members_arc(s, team)?;
    usize::try_from(pe)
        .ok()
        .and_then(|p| m.get(p))
        .map(|&r| r as c_int)
        .ok_or(ShmemError::NoSuchPe {
            pe: i64::from(pe),
            npes: m.len(),
        })
}

/// This PE's number in `team`, or -1.
fn my_pe(s: &State, team: TeamHandle) -> Result<c_int> {
    Ok(members_arc(s, team)?
        .iter()
        .position(|&r| r == s.rank)
        .map_or(-1, |i| i as c_int))
}

profiled! {
/// `shmem_team_my_pe`: this PE's number in the team (-1 for `SHMEM_TEAM_INVALID`).
pub extern "C" fn shmem_team_my_pe(team: TeamHandle) -> c_int {
    entry("shmem_team_my_pe", |s| {
        if team.is_null() {
            return Ok(-1);
        }
        my_pe(s, team)
    })
}
}

profiled! {
/// `shmem_team_n_pes`: the number of PEs of the team (-1 for `SHMEM_TEAM_INVALID`).
pub extern "C" fn shmem_team_n_pes(team: TeamHandle) -> c_int {
    entry("shmem_team_n_pes", |s| {
        if team.is_null() {
            return Ok(-1);
        }
        Ok(members_arc(s, team)?.len() as c_int)
    })
}
}

profiled! {
/// `shmem_team_translate_pe`: PE `src_pe` of `src_team` as a PE number of `dest_team`, or
/// -1 (not a member, or an invalid team).
pub extern "C" fn shmem_team_translate_pe(
    src_team: TeamHandle,
    src_pe: c_int,
    dest_team: TeamHandle,
) -> c_int {
    entry("shmem_team_translate_pe", |s| {
        if src_team.is_null() || dest_team.is_null() {
            return Ok(-1);
        }
        let Ok(w) = world_pe(s, src_team, src_pe) else {
            return Ok(-1);
        };
        Ok(members_arc(s, dest_team)?
            .iter()
            .position(|&r| r as c_int == w)
            .map_or(-1, |i| i as c_int))
    })
}
}

profiled! {
/// `shmem_team_sync`: a barrier over the team.
pub extern "C" fn shmem_team_sync(team: TeamHandle) -> c_int {
    entry("shmem_team_sync", |s| {
        crate::coll_msgs::barrier(s, &members(s, team)?)?;
        Ok(0)
    })
}
}

/// Makes a team of `members` (world ranks) from `config`/`mask`; INVALID if this PE is not
/// a member.
///
/// # Safety
/// `config` is NULL or valid for reads of a `shmem_team_config_t`.
unsafe fn make(
    s: &State,
    members: Vec<usize>,
    config: *const TeamConfig,
    mask: c_long,
) -> TeamHandle {
    if !members.contains(&s.rank) {
        return std::ptr::null();
    }
    let mut c = TeamConfig::default();
    if !config.is_null() && mask & NUM_CONTEXTS != 0 {
        // SAFETY: the caller's promise.
        c.num_contexts = unsafe { (*config).num_contexts };
    }
    let t = Box::new(TeamObj {
        magic: MAGIC,
        members: Arc::new(members),
        config: c,
    });
    Box::into_raw(t).cast_const().cast()
}

profiled! {
/// `shmem_team_split_strided`: collective over `parent`; the new team holds the parent's PEs
/// `start`, `start + stride`, ... (`size` of them; `stride` may be negative, or 0 with
/// `size` 1). PEs outside it get `SHMEM_TEAM_INVALID`. Returns 0, or -1 (every PE gets
/// `SHMEM_TEAM_INVALID`) if the parent is invalid or the PEs are not all in the parent.
///
/// # Safety
/// `config` is NULL or valid for reads; `new_team` is valid for a write.
pub unsafe extern "C" fn shmem_team_split_strided(
    parent: TeamHandle,
    start: c_int,
    stride: c_int,
    size: c_int,
    config: *const TeamConfig,
    mask: c_long,
    new_team: *mut TeamHandle,
) -> c_int {
    entry("shmem_team_split_strided", |s| {
        if new_team.is_null() {
            return Err(ShmemError::Null("new_team", 8));
        }
        // SAFETY: the caller's promise (non-null checked).
        unsafe { *new_team = std::ptr::null() };
        if parent.is_null() {
            return Ok(-1);
        }
        let p = members_arc(s, parent)?;
        let picked: Option<Vec<usize>> = (size > 0)
            .then(|| {
                (0..i64::from(size))
                    .map(|k| {
                        let i = i64::from(start) + k * i64::from(stride);
                        usize::try_from(i).ok().and_then(|i| p.get(i).copied())
                    })
                    .collect()
            })
            .flatten();
        let distinct = picked.as_ref().is_some_and(|m| {
            let mut v = m.clone();
            v.sort_unstable();
            v.dedup();
            v.len() == m.len()
        });
        crate::coll_msgs::barrier(s, &p)?;
        let Some(m) = picked.filter(|_| distinct) else {
            return Ok(-1);
        };
        // SAFETY: the caller's promises.
        unsafe { *new_team = make(s, m, config, mask) };
        Ok(0)
    })
}
}

profiled! {
/// `shmem_team_split_2d`: collective over `parent`, seen as a grid of `xrange` columns (at
/// most the parent's size): `xteam` is this PE's row, `yteam` its column, both in parent
/// order. Returns 0, or -1 for an invalid parent or `xrange < 1`.
///
/// # Safety
/// The configs are NULL or valid for reads; `xteam` and `yteam` are valid for writes.
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn shmem_team_split_2d(
    parent: TeamHandle,
    xrange: c_int,
    xconfig: *const TeamConfig,
    xmask: c_long,
    xteam: *mut TeamHandle,
    yconfig: *const TeamConfig,
    ymask: c_long,
    yteam: *mut TeamHandle,
) -> c_int {
    entry("shmem_team_split_2d", |s| {
        if xteam.is_null() || yteam.is_null() {
            return Err(ShmemError::Null("xteam/yteam", 8));
        }
        // SAFETY: the caller's promise (non-null checked).
        unsafe {
            *xteam = std::ptr::null();
            *yteam = std::ptr::null();
        }
        if parent.is_null() || xrange < 1 {
            return Ok(-1);
        }
        let p = members_arc(s, parent)?;
        let x = (xrange as usize).min(p.len());
        let me = p
            .iter()
            .position(|&r| r == s.rank)
            .ok_or_else(|| ShmemError::Invalid("this PE is not in the parent team".into()))?;
        let row: Vec<usize> = (0..p.len())
            .filter(|i| i / x == me / x)
            .map(|i| p[i])
            .collect();
        let col: Vec<usize> = (0..p.len())
            .filter(|i| i % x == me % x)
            .map(|i| p[i])
            .collect();
        crate::coll_msgs::barrier(s, &p)?;
        // SAFETY: the caller's promises.
        unsafe {
            *xteam = make(s, row, xconfig, xmask);
            *yteam = make(s, col, yconfig, ymask);
        }
        Ok(0)
    })
}
}

profiled! {
/// `shmem_team_destroy`: collective over the team (a barrier), then the handle is dead.
/// The predefined teams and `SHMEM_TEAM_INVALID` are left alone.
pub extern "C" fn shmem_team_destroy(team: TeamHandle) {
    entry("shmem_team_destroy", |s| {
        if team.is_null() || matches!(team as usize, WORLD | SHARED) {
            return Ok(());
        }
        let t = obj(team)?;
        crate::coll_msgs::barrier(s, &t.members)?;
        // SAFETY: `obj` checked this is a live TeamObj from `make`; the box is leaked, not
        // freed, so a stale handle reads a cleared magic (an error) instead of freed memory
        // (a few bytes per destroyed team). Only the team's own PE writes it, and the
        // spec makes using a team concurrently with its destruction an error.
        unsafe { (*team.cast_mut().cast::<TeamObj>()).magic = 0 };
        Ok(())
    })
}
}

profiled! {
/// `shmem_team_get_config`: the configuration the team was made with (`num_contexts` under
/// `SHMEM_TEAM_NUM_CONTEXTS`). Returns 0, or -1 for `SHMEM_TEAM_INVALID`.
///
/// # Safety
/// `config` is valid for a write.
pub unsafe extern "C" fn shmem_team_get_config(
    team: TeamHandle,
    mask: c_long,
    config: *mut TeamConfig,
) -> c_int {
    entry("shmem_team_get_config", |s| {
        if team.is_null() {
            return Ok(-1);
        }
        members_arc(s, team)?;
        let c = match team as usize {
            WORLD | SHARED => TeamConfig::default(),
            _ => obj(team)?.config,
        };
        if config.is_null() {
            return Err(ShmemError::Null("config", 4));
        }
        if mask & NUM_CONTEXTS != 0 {
            // SAFETY: the caller's promise (non-null checked).
            unsafe { (*config).num_contexts = c.num_contexts };
        }
        Ok(0)
    })
}
}

profiled! {
/// `shmem_team_ptr`: `shmem_ptr` for PE `pe` of `team` (NULL for an invalid team).
pub extern "C" fn shmem_team_ptr(team: TeamHandle, dest: *const c_void, pe: c_int) -> *mut c_void {
    let w = entry("shmem_team_ptr", |s| {
        if team.is_null() {
            return Ok(None);
        }
        world_pe(s, team, pe).map(Some)
    });
    match w {
        Some(w) => crate::setup::shmem_ptr(dest, w),
        None => std::ptr::null_mut(),
    }
}
}

profiled! {
/// `shmem_broadcastmem` (1.5): from `PE_root` to every PE of the team, the root included.
///
/// # Safety
/// `dest` is valid for writes of `nelems` bytes.
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
}

profiled! {
/// `shmem_collectmem` (1.5): each PE's `nelems` bytes, concatenated in PE order.
///
/// # Safety
/// `dest` is valid for writes of the total.
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
}

profiled! {
/// `shmem_fcollectmem` (1.5): every PE's `nelems` bytes, concatenated in PE order.
///
/// # Safety
/// `dest` is valid for writes of `nelems * n_pes` bytes.
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
}

profiled! {
/// `shmem_alltoallmem` (1.5): PE `j`'s block `i` of `dest` is PE `i`'s block `j` of `source`.
///
/// # Safety
/// `dest` is valid for writes of `nelems * n_pes` bytes.
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
}

profiled! {
/// `shmem_alltoallsmem` (1.5): the strided all-to-all of bytes (see `coll::alltoalls`).
///
/// # Safety
/// `dest` is valid for writes of the strided elements.
pub unsafe extern "C" fn shmem_alltoallsmem(
    team: TeamHandle,
    dest: *mut c_void,
    source: *const c_void,
    dst: isize,
    sst: isize,
    nelems: usize,
) -> c_int {
    entry("shmem_alltoallsmem", |s| {
        let set = members(s, team)?;
        // SAFETY: the caller's promise.
        unsafe {
            crate::coll::alltoalls(s, &set, dest.cast(), source.cast(), dst, sst, nelems, 1)
        }?;
        Ok(0)
    })
}
}

/// Defines the typed team collectives of one type (1.5 §9.9: broadcast, collect, fcollect,
/// alltoall on `SHMEM_TEAM_WORLD`/`SHARED`).
macro_rules! team_coll_type {
    ($t:ty; $bcast:ident $collect:ident $fcollect:ident $alltoall:ident $alltoalls:ident) => {
        profiled! {
        /// Typed team strided all-to-all; returns 0.
        ///
        /// # Safety
        /// `dest` is valid for writes of the strided elements.
        pub unsafe extern "C" fn $alltoalls(
            team: TeamHandle,
            dest: *mut $t,
            source: *const $t,
            dst: isize,
            sst: isize,
            nelems: usize,
        ) -> c_int {
            entry(stringify!($alltoalls), |s| {
                let set = members(s, team)?;
                let elem = std::mem::size_of::<$t>();
                // SAFETY: the caller's promise.
                unsafe {
                    crate::coll::alltoalls(
                        s,
                        &set,
                        dest.cast(),
                        source.cast(),
                        dst,
                        sst,
                        nelems,
                        elem,
                    )
                }?;
                Ok(0)
            })
        }
        }

        profiled! {
        /// Typed team broadcast from `PE_root`, the root included; returns 0.
        ///
        /// # Safety
        /// `dest` is valid for writes of `nelems` elements.
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
        }

        profiled! {
        /// Typed team collect (each PE its own `nelems`); returns 0.
        ///
        /// # Safety
        /// `dest` is valid for writes of the total.
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
        }

        profiled! {
        /// Typed team fcollect; returns 0.
        ///
        /// # Safety
        /// `dest` is valid for writes of `nelems * n_pes` elements.
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
        }

        profiled! {
        /// Typed team all-to-all of `nelems` elements per pair; returns 0.
        ///
        /// # Safety
        /// `dest` is valid for writes of `nelems * n_pes` elements.
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
        }
    };
}

use crate::rma::LongDouble;

include!("team_coll_types.rs");
