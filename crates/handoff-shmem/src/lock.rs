//! Distributed locks (OpenSHMEM 1.5 §9.11): `shmem_set_lock`, `shmem_test_lock`,
//! `shmem_clear_lock` on a symmetric `long`. The lock is PE 0's copy of the word, run by the
//! protocol of `lock_protocol.rs` (CAS from 0 to `rank + 1` and back, loom-checked) through the
//! team's remote compare-and-swap; `clear_lock` first completes this PE's puts (`quiet`), as 1.5
//! requires. A waiter retries, yielding its CPU between tries (other PEs may share it).

use std::ffi::{c_int, c_long};

use handoff::team::{AtomicOp, Transport};

use crate::error::{Result, ShmemError};
use crate::lock_protocol::{self as protocol, Take};
use crate::state::{entry, State};

fn lock_word(s: &State, lock: *mut c_long) -> Result<usize> {
    s.word_offset(lock.cast(), 8, "lock")
}

/// The team's remote compare-and-swap on PE 0's lock word, as the protocol's `cas`; a
/// transport error is kept in `err` (the CAS then reports a value nobody holds).
fn cas<'a>(
    s: &'a State,
    off: usize,
    err: &'a mut Option<ShmemError>,
) -> impl FnOnce(u64, u64) -> u64 + 'a {
    move |expected, new| match s
        .x()
        .atomic64(0, off, AtomicOp::CompareSwap { expected, new })
    {
        Ok(old) => old,
        Err(e) => {
            *err = Some(e.into());
            u64::MAX
        }
    }
}

fn try_take(s: &State, off: usize) -> Result<bool> {
    let mut err = None;
    let took = protocol::try_take(cas(s, off, &mut err), s.rank as u64 + 1);
    if let Some(e) = err {
        return Err(e);
    }
    match took {
        Take::Taken => Ok(true),
        Take::Busy => Ok(false),
        Take::Recursive => Err(ShmemError::Invalid(
            "this PE holds the lock already; OpenSHMEM locks are not recursive".into(),
        )),
    }
}

profiled! {
/// `shmem_set_lock`: waits until this PE holds the lock.
pub extern "C" fn shmem_set_lock(lock: *mut c_long) {
    entry("shmem_set_lock", |s| {
        let off = lock_word(s, lock)?;
        // The team's wait policy, asleep on PE 0's heap bell as a waiter on the lock word:
        // the holder's releasing CAS (a write of that word) wakes it; failed CASes do not.
        let mut failed = None;
        s.x().wait_remote_on(
            0,
            off,
            8,
            &mut || match try_take(s, off) {
                Ok(true) => Some(0),
                Ok(false) => None,
                Err(e) => {
                    failed = Some(e);
                    Some(1)
                }
            },
            s.until(),
            "shmem_set_lock",
        )?;
        match failed {
            Some(e) => Err(e),
            None => Ok(()),
        }
    })
}
}

profiled! {
/// `shmem_test_lock`: takes the lock if it is free; 0 if taken now, 1 if another PE holds it.
pub extern "C" fn shmem_test_lock(lock: *mut c_long) -> c_int {
    entry("shmem_test_lock", |s| {
        let off = lock_word(s, lock)?;
        Ok(c_int::from(!try_take(s, off)?))
    })
}
}

profiled! {
/// `shmem_clear_lock`: completes this PE's puts, then releases the lock it holds.
pub extern "C" fn shmem_clear_lock(lock: *mut c_long) {
    entry("shmem_clear_lock", |s| {
        let off = lock_word(s, lock)?;
        s.team.quiet();
        let mut err = None;
        let released = protocol::release(cas(s, off, &mut err), s.rank as u64 + 1);
        if let Some(e) = err {
            return Err(e);
        }
        released.map_err(|old| {
            ShmemError::Invalid(format!(
                "this PE does not hold the lock (held by {}); clear only a lock you set",
                match old {
                    protocol::FREE => "nobody".to_string(),
                    o => format!("PE {}", o - 1),
                }
            ))
        })
    })
}
}
