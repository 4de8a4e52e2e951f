//! The seed's counting puts as the `shmemx.h` extension (Dinan et al.): `shmemx_ct_create`,
//! `shmemx_ct_free`, `shmemx_ct_get`, `shmemx_ct_set`, `shmemx_ct_wait`, `shmemx_putmem_ct`.
//!
//! A counter is the team's (`Team::ct_create`): one per PE, managed by its receiver; a counting
//! put copies the data, then adds 1 to the target's counter with a Release RMW that a waiter's
//! Acquire poll pairs with, so a PE whose counter reached n sees the data of those n puts.
//! Handles are small integers (`shmemx_ct_t` is a `long`); the team has
//! `handoff::team::MAX_COUNTERS` counters, and `shmemx_ct_free` keeps its counter for reuse by
//! the next `shmemx_ct_create` (set back to 0).

use std::ffi::{c_int, c_long, c_void};

use handoff::team::Counter;

use crate::error::{Result, ShmemError};
use crate::state::{entry, kind, State};

/// `shmemx_ct_t`.
pub type CtHandle = c_long;

fn counter(s: &State, ct: CtHandle) -> Result<Counter> {
    usize::try_from(ct)
        .ok()
        .and_then(|i| crate::state::lock(&s.counters).get(i).copied())
        .and_then(|(c, live)| live.then_some(c))
        .ok_or(ShmemError::BadCounter(ct))
}

profiled! {
/// `shmemx_ct_create`: collective; a counter at 0 on every PE.
///
/// # Safety
/// `ct` is valid for a write of a `shmemx_ct_t`.
pub unsafe extern "C" fn shmemx_ct_create(ct: *mut CtHandle) {
    entry("shmemx_ct_create", |s| {
        if ct.is_null() {
            return Err(ShmemError::Null("ct", 8));
        }
        s.agree(kind::CT_CREATE, 0)?;
        // Every PE has the same history of creates and frees, so all take the same branch.
        let free_slot = crate::state::lock(&s.counters)
            .iter()
            .position(|&(_, live)| !live);
        let handle = match free_slot {
            Some(i) => {
                let mut cs = crate::state::lock(&s.counters);
                cs[i].1 = true;
                s.team.ct_set(&cs[i].0, 0);
                i
            }
            None => {
                let c = s.team.ct_create()?;
                let mut cs = crate::state::lock(&s.counters);
                cs.push((c, true));
                cs.len() - 1
            }
        };
        // SAFETY: the caller's promise (non-null checked).
        unsafe { *ct = handle as CtHandle };
        Ok(())
    })
}
}

profiled! {
/// `shmemx_ct_free`: collective; the handle is invalid afterwards.
///
/// # Safety
/// `ct` is valid for reads and writes of a `shmemx_ct_t`.
pub unsafe extern "C" fn shmemx_ct_free(ct: *mut CtHandle) {
    entry("shmemx_ct_free", |s| {
        if ct.is_null() {
            return Err(ShmemError::Null("ct", 8));
        }
        // SAFETY: the caller's promise (non-null checked).
        let h = unsafe { *ct };
        let c = counter(s, h)?;
        s.agree(kind::CT_FREE, h as u64)?;
        let _ = c;
        crate::state::lock(&s.counters)[h as usize].1 = false;
        // SAFETY: as above.
        unsafe { *ct = -1 };
        Ok(())
    })
}
}

profiled! {
/// `shmemx_ct_get`: this PE's counter value.
pub extern "C" fn shmemx_ct_get(ct: CtHandle) -> c_long {
    entry("shmemx_ct_get", |s| {
        Ok(s.team.ct_get(&counter(s, ct)?) as c_long)
    })
}
}

profiled! {
/// `shmemx_ct_set`: sets this PE's counter (the receiver manages it).
pub extern "C" fn shmemx_ct_set(ct: CtHandle, value: c_long) {
    entry("shmemx_ct_set", |s| {
        s.team.ct_set(&counter(s, ct)?, value as u64);
        Ok(())
    })
}
}

profiled! {
/// `shmemx_ct_wait`: waits until this PE's counter is at least `wait_for`.
pub extern "C" fn shmemx_ct_wait(ct: CtHandle, wait_for: c_long) {
    entry("shmemx_ct_wait", |s| {
        let c = counter(s, ct)?;
        let target = u64::try_from(wait_for).map_err(|_| {
            ShmemError::Invalid(format!(
                "wait_for {wait_for} is negative; counters count up from 0"
            ))
        })?;
        s.team.ct_wait(&c, target)?;
        Ok(())
    })
}
}

profiled! {
/// `shmemx_putmem_ct`: puts `nelems` bytes to PE `pe`'s `dest`, then adds 1 to its counter `ct`.
///
/// # Safety
/// `source` is valid for reads of `nelems` bytes.
pub unsafe extern "C" fn shmemx_putmem_ct(
    ct: CtHandle,
    dest: *mut c_void,
    source: *const c_void,
    nelems: usize,
    pe: c_int,
) {
    entry("shmemx_putmem_ct", |s| {
        let c = counter(s, ct)?;
        let pe = s.pe(pe)?;
        let off = s.offset(dest.cast(), nelems, "dest")?;
        // SAFETY: the caller's promise.
        let src = unsafe { s.src(source.cast(), nelems, "source") }?;
        Ok(handoff::team::Transport::put_counted(
            s.x(),
            pe,
            off,
            src,
            c.index(),
        )?)
    })
}
}
