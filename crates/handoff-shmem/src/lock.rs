//! Distributed locks (OpenSHMEM 1.5 §9.11): `shmem_set_lock`, `shmem_test_lock`,
//! `shmem_clear_lock` on a symmetric `long`. The lock is PE 0's copy of the word, taken by a
//! compare-and-swap from 0 to `rank + 1` (a hardware RMW, `AcqRel`: the Acquire side of the
//! taking CAS pairs with the Release side of the releasing swap, so the next holder sees the
//! previous holder's writes); `clear_lock` first completes this PE's puts (`quiet`), as 1.5
//! requires. A waiter retries, yielding its CPU between tries (other PEs may share it).

use std::ffi::{c_int, c_long};

use handoff::team::{AtomicOp, Transport};

use crate::error::{Result, ShmemError};
use crate::state::{entry, State};

fn lock_word(s: &State, lock: *mut c_long) -> Result<usize> {
    s.word_offset(lock.cast(), 8, "lock")
}

fn try_take(s: &State, off: usize) -> Result<bool> {
    let me = s.rank as u64 + 1;
    let old = s.x().atomic64(
        0,
        off,
        AtomicOp::CompareSwap {
            expected: 0,
            new: me,
        },
    )?;
    if old == me {
        return Err(ShmemError::Invalid(
            "this PE holds the lock already; OpenSHMEM locks are not recursive".into(),
        ));
    }
    Ok(old == 0)
}

/// `shmem_set_lock`: waits until this PE holds the lock.
#[no_mangle]
pub extern "C" fn shmem_set_lock(lock: *mut c_long) {
    entry("shmem_set_lock", |s| {
        let off = lock_word(s, lock)?;
        while !try_take(s, off)? {
            std::thread::yield_now();
        }
        Ok(())
    })
}

/// `shmem_test_lock`: takes the lock if it is free; 0 if taken now, 1 if another PE holds it.
#[no_mangle]
pub extern "C" fn shmem_test_lock(lock: *mut c_long) -> c_int {
    entry("shmem_test_lock", |s| {
        let off = lock_word(s, lock)?;
        Ok(c_int::from(!try_take(s, off)?))
    })
}

/// `shmem_clear_lock`: completes this PE's puts, then releases the lock it holds.
#[no_mangle]
pub extern "C" fn shmem_clear_lock(lock: *mut c_long) {
    entry("shmem_clear_lock", |s| {
        let off = lock_word(s, lock)?;
        s.team.quiet();
        let me = s.rank as u64 + 1;
        let old = s.x().atomic64(
            0,
            off,
            AtomicOp::CompareSwap {
                expected: me,
                new: 0,
            },
        )?;
        if old != me {
            return Err(ShmemError::Invalid(format!(
                "this PE does not hold the lock (held by {}); clear only a lock you set",
                match old {
                    0 => "nobody".to_string(),
                    o => format!("PE {}", o - 1),
                }
            )));
        }
        Ok(())
    })
}
