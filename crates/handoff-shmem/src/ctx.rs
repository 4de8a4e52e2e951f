//! Communication contexts (OpenSHMEM 1.5 §9.5): `shmem_ctx_create`, `shmem_team_create_ctx`,
//! `shmem_ctx_destroy`, `shmem_ctx_get_team`, `shmem_ctx_fence`, `shmem_ctx_quiet`, and the PE
//! translation every `shmem_ctx_*` RMA, AMO and signal call of shmem.h goes through
//! (`handoff_shmem_ctx_pe`: those calls are inline wrappers there over the calls without a
//! context, with the context's team-relative PE turned into a world PE).
//!
//! On one node every put and AMO is complete when it returns, so a context has no pending
//! operations of its own: its fence and quiet are the PE's (`shmem_fence`/`shmem_quiet`, a
//! Release and a SeqCst fence), which order at least that context's operations, as the
//! specification asks. The options are honoured as permissions: `SHMEM_CTX_PRIVATE` and
//! `SERIALIZED` promise less concurrency than the implementation supports (every call is
//! thread-safe), and `SHMEM_CTX_NOSTORE` lets `quiet` skip stores, which a full fence covers.
//! `shmem_ctx_fence`, `shmem_ctx_quiet` and `shmem_ctx_destroy` on `SHMEM_CTX_INVALID` do
//! nothing (1.5 §9.5.2, §9.10: a context a team could not create is invalid on the PEs
//! outside the team, and the spec's own examples quiet it there); the other operations on it
//! are an error naming the call (the spec leaves them undefined).

use std::ffi::{c_int, c_long, c_void};
use std::sync::Arc;

use crate::error::{Result, ShmemError};
use crate::state::{entry, State};
use crate::teams::TeamHandle;

/// `shmem_ctx_t`: an opaque pointer; NULL is `SHMEM_CTX_INVALID`, 1 `SHMEM_CTX_DEFAULT`,
/// anything else a [`CtxObj`].
pub type CtxHandle = *const c_void;

const DEFAULT: usize = 1;
const WORLD: TeamHandle = 1 as TeamHandle;
/// Marks a live [`CtxObj`] (cleared when it is destroyed).
const MAGIC: u64 = 0x6374_785f_6866_6f66;
/// The options shmem.h defines: `SHMEM_CTX_SERIALIZED | PRIVATE | NOSTORE`.
const OPTIONS: c_long = 1 | 2 | 4;

/// A context made by `shmem_ctx_create` / `shmem_team_create_ctx`.
#[derive(Debug)]
pub struct CtxObj {
    magic: u64,
    /// The team it was made on, and that team's members (`None`: every PE, in order).
    team: TeamHandle,
    members: Option<Arc<Vec<usize>>>,
}

fn obj<'a>(ctx: CtxHandle) -> Result<&'a CtxObj> {
    let bad = || {
        ShmemError::Invalid(format!(
            "context handle {ctx:p} was not made by shmem_ctx_create (or was destroyed)"
        ))
    };
    if ctx.is_null() {
        return Err(ShmemError::Invalid(
            "the context is SHMEM_CTX_INVALID (shmem_ctx_create failed, or the team was invalid)"
                .into(),
        ));
    }
    if !(ctx as usize).is_multiple_of(std::mem::align_of::<CtxObj>()) {
        return Err(bad());
    }
    // SAFETY: a handle other than DEFAULT and INVALID is a CtxObj address handed out by
    // `create` (the C caller's promise); a destroyed one is leaked with its magic cleared.
    let c = unsafe { &*ctx.cast::<CtxObj>() };
    if c.magic != MAGIC {
        return Err(bad());
    }
    Ok(c)
}

fn create(s: &State, team: TeamHandle, options: c_long, ctx: *mut CtxHandle) -> Result<c_int> {
    if ctx.is_null() {
        return Err(ShmemError::Null("ctx", 8));
    }
    // SAFETY: the caller's promise (non-null checked).
    unsafe { *ctx = std::ptr::null() };
    if team.is_null() || options & !OPTIONS != 0 {
        return Ok(-1);
    }
    let members = match team as usize {
        1 | 2 => None,
        _ => Some(crate::teams::members_arc(s, team)?),
    };
    let c = Box::new(CtxObj {
        magic: MAGIC,
        team,
        members,
    });
    // SAFETY: as above.
    unsafe { *ctx = Box::into_raw(c).cast_const().cast() };
    Ok(0)
}

profiled! {
/// `shmem_ctx_create`: a context on `SHMEM_TEAM_WORLD`; 0, or -1 for unknown options (then
/// `*ctx` is `SHMEM_CTX_INVALID`).
///
/// # Safety
/// `ctx` is valid for a write.
pub unsafe extern "C" fn shmem_ctx_create(options: c_long, ctx: *mut CtxHandle) -> c_int {
    entry("shmem_ctx_create", |s| create(s, WORLD, options, ctx))
}
}

profiled! {
/// `shmem_team_create_ctx`: a context on `team`; 0, or -1 (and `SHMEM_CTX_INVALID`) for
/// `SHMEM_TEAM_INVALID` or unknown options.
///
/// # Safety
/// `ctx` is valid for a write.
pub unsafe extern "C" fn shmem_team_create_ctx(
    team: TeamHandle,
    options: c_long,
    ctx: *mut CtxHandle,
) -> c_int {
    entry("shmem_team_create_ctx", |s| create(s, team, options, ctx))
}
}

profiled! {
/// `shmem_ctx_destroy`: quiets the context and frees it; `SHMEM_CTX_INVALID` is ignored;
/// destroying `SHMEM_CTX_DEFAULT` is an error.
pub extern "C" fn shmem_ctx_destroy(ctx: CtxHandle) {
    entry("shmem_ctx_destroy", |_| {
        if ctx.is_null() {
            return Ok(());
        }
        if ctx as usize == DEFAULT {
            return Err(ShmemError::Invalid(
                "SHMEM_CTX_DEFAULT cannot be destroyed".into(),
            ));
        }
        obj(ctx)?;
        std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
        // SAFETY: `obj` checked a live CtxObj. It is leaked with its magic cleared rather than
        // freed, so a stale handle is reported instead of reading freed memory; using a
        // context while destroying it is an error of the program (1.5 §9.5.2).
        unsafe { (*ctx.cast_mut().cast::<CtxObj>()).magic = 0 };
        Ok(())
    })
}
}

profiled! {
/// `shmem_ctx_get_team`: the team `ctx` was made on; 0, or -1 (and `SHMEM_TEAM_INVALID`)
/// for `SHMEM_CTX_INVALID`.
///
/// # Safety
/// `team` is valid for a write.
pub unsafe extern "C" fn shmem_ctx_get_team(ctx: CtxHandle, team: *mut TeamHandle) -> c_int {
    entry("shmem_ctx_get_team", |_| {
        if team.is_null() {
            return Err(ShmemError::Null("team", 8));
        }
        let t = match ctx as usize {
            0 => None,
            DEFAULT => Some(WORLD),
            _ => Some(obj(ctx)?.team),
        };
        // SAFETY: the caller's promise (non-null checked).
        unsafe { *team = t.unwrap_or(std::ptr::null()) };
        Ok(if t.is_some() { 0 } else { -1 })
    })
}
}

/// The world PE of PE `pe` of `ctx`'s team, for the inline `shmem_ctx_*` wrappers of shmem.h
/// (which call it only for contexts other than `SHMEM_CTX_DEFAULT`). An invalid context or
/// a PE outside the team is an error naming `handoff_shmem_ctx_pe`.
#[no_mangle]
pub extern "C" fn handoff_shmem_ctx_pe(ctx: CtxHandle, pe: c_int) -> c_int {
    if ctx as usize == DEFAULT {
        return pe;
    }
    entry("shmem_ctx_*", |_| {
        let c = obj(ctx)?;
        match &c.members {
            None => Ok(pe),
            Some(m) => usize::try_from(pe)
                .ok()
                .and_then(|p| m.get(p))
                .map(|&r| r as c_int)
                .ok_or(ShmemError::NoSuchPe {
                    pe: i64::from(pe),
                    npes: m.len(),
                }),
        }
    })
}

profiled! {
/// `shmem_ctx_fence`: orders this PE's puts and AMOs (see the module docs).
pub extern "C" fn shmem_ctx_fence(ctx: CtxHandle) {
    // SHMEM_CTX_INVALID: no operation is performed (1.5 §9.10).
    if ctx.is_null() {
        return;
    }
    if ctx as usize != DEFAULT {
        entry("shmem_ctx_fence", |_| obj(ctx).map(|_| ()));
    }
    crate::rma::shmem_fence();
}
}

profiled! {
/// `shmem_ctx_quiet`: completes this PE's puts and AMOs (see the module docs).
pub extern "C" fn shmem_ctx_quiet(ctx: CtxHandle) {
    // SHMEM_CTX_INVALID: no operation is performed (1.5 §9.10).
    if ctx.is_null() {
        return;
    }
    if ctx as usize != DEFAULT {
        entry("shmem_ctx_quiet", |_| obj(ctx).map(|_| ()));
    }
    crate::rma::shmem_quiet();
}
}
