//! Flag, Signal, Semaphore and Barrier handles: a primitive at an offset of a segment. Waits
//! watch the segment's attached processes, so a dead peer ends them with
//! `HANDOFF_E_PEER_GONE`.

use std::ffi::c_int;
use std::sync::Arc;

use handoff::shm::ShmSafe;
use handoff::sync::{Barrier, Flag, Semaphore, Signal};

use crate::error::{ffi, CError};
use crate::segment::{handoff_segment, SegmentObj};
use crate::{handles, handoff_wait, need, put, wait_of, waiter_of};

/// A primitive of type `T` at `offset` in a segment (which the handle keeps mapped).
pub(crate) struct Prim<T> {
    seg: Arc<SegmentObj>,
    offset: usize,
    _t: std::marker::PhantomData<fn() -> T>,
}

impl<T: ShmSafe> Prim<T> {
    fn at(seg: Arc<SegmentObj>, offset: usize) -> Result<Self, CError> {
        seg.seg.get::<T>(offset).map_err(CError::from)?;
        Ok(Prim {
            seg,
            offset,
            _t: std::marker::PhantomData,
        })
    }

    fn get(&self) -> Result<&T, CError> {
        // Checked in `at`; checked again rather than trusted (cheap: bounds and alignment).
        self.seg.seg.get::<T>(self.offset).map_err(CError::from)
    }
}

fn at<T: ShmSafe + 'static, H>(
    seg: *const handoff_segment,
    offset: usize,
    out: *mut *mut H,
) -> c_int {
    ffi(|| {
        let s = handles::get::<SegmentObj, _>(seg, "segment")?;
        need(out, "out")?;
        let p = Prim::<T>::at(s, offset)?;
        // SAFETY: `out` is non-NULL, and the public callers' contract makes it valid for a
        // write.
        unsafe { put(out, handles::register(p), "out") }
    })
}

/// An opaque handle to a flag (a 32-bit value: release publish, acquire wait) in a segment.
#[allow(non_camel_case_types)]
pub struct handoff_flag {
    _private: [u8; 0],
}

/// An opaque handle to a signal (a 64-bit counter: add, wait until >= n) in a segment.
#[allow(non_camel_case_types)]
pub struct handoff_signal {
    _private: [u8; 0],
}

/// An opaque handle to a counting semaphore in a segment.
#[allow(non_camel_case_types)]
pub struct handoff_semaphore {
    _private: [u8; 0],
}

/// An opaque handle to a reusable barrier in a segment.
#[allow(non_camel_case_types)]
pub struct handoff_barrier {
    _private: [u8; 0],
}

/// A handle to the flag at `offset` of `seg` (a multiple of `HANDOFF_PRIMITIVE_SIZE`, inside
/// the payload); all-zero memory is a flag holding 0. The same shape for
/// `handoff_signal_at`, `handoff_semaphore_at` (zero permits) and `handoff_barrier_at` (one
/// party: call `handoff_barrier_init`).
///
/// Ownership: `*out` receives a new handle, freed with its `_free`; it keeps the segment
/// mapped even after the segment handle is freed.
///
/// # Safety
/// `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_flag_at(
    seg: *const handoff_segment,
    offset: usize,
    out: *mut *mut handoff_flag,
) -> c_int {
    at::<Flag, _>(seg, offset, out)
}

/// A handle to the signal at `offset` of `seg` (see [`handoff_flag_at`]).
///
/// # Safety
/// `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_signal_at(
    seg: *const handoff_segment,
    offset: usize,
    out: *mut *mut handoff_signal,
) -> c_int {
    at::<Signal, _>(seg, offset, out)
}

/// A handle to the semaphore at `offset` of `seg` (see [`handoff_flag_at`]).
///
/// # Safety
/// `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_semaphore_at(
    seg: *const handoff_segment,
    offset: usize,
    out: *mut *mut handoff_semaphore,
) -> c_int {
    at::<Semaphore, _>(seg, offset, out)
}

/// A handle to the barrier at `offset` of `seg` (see [`handoff_flag_at`]).
///
/// # Safety
/// `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_barrier_at(
    seg: *const handoff_segment,
    offset: usize,
    out: *mut *mut handoff_barrier,
) -> c_int {
    at::<Barrier, _>(seg, offset, out)
}

/// Frees a flag handle (the flag itself stays in the segment).
///
/// # Safety
/// None beyond passing a handle (bad handles and double frees are refused).
#[no_mangle]
pub unsafe extern "C" fn handoff_flag_free(h: *mut handoff_flag) -> c_int {
    ffi(|| handles::free::<Prim<Flag>, _>(h, "flag"))
}

/// Frees a signal handle.
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_signal_free(h: *mut handoff_signal) -> c_int {
    ffi(|| handles::free::<Prim<Signal>, _>(h, "signal"))
}

/// Frees a semaphore handle.
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_semaphore_free(h: *mut handoff_semaphore) -> c_int {
    ffi(|| handles::free::<Prim<Semaphore>, _>(h, "semaphore"))
}

/// Frees a barrier handle.
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_barrier_free(h: *mut handoff_barrier) -> c_int {
    ffi(|| handles::free::<Prim<Barrier>, _>(h, "barrier"))
}

fn with<T: ShmSafe + 'static, H, R>(
    h: *const H,
    what: &str,
    f: impl FnOnce(&T, &SegmentObj) -> Result<R, CError>,
) -> Result<R, CError> {
    let p = handles::get::<Prim<T>, _>(h, what)?;
    f(p.get()?, &p.seg)
}

/// Reads the flag's value (Acquire).
///
/// # Safety
/// `value` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_flag_load(f: *const handoff_flag, value: *mut u32) -> c_int {
    ffi(|| {
        let v = with::<Flag, _, _>(f, "flag", |f, _| Ok(f.load()))?;
        // SAFETY: the caller's contract above.
        unsafe { put(value, v, "value") }
    })
}

/// Publishes `value` (Release: what this thread wrote before is visible to whoever sees it)
/// and wakes the flag's sleepers.
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_flag_store(f: *const handoff_flag, value: u32) -> c_int {
    ffi(|| {
        with::<Flag, _, _>(f, "flag", |f, _| {
            f.store(value);
            Ok(())
        })
    })
}

/// Waits until the flag equals `value`.
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_flag_wait_for(
    f: *const handoff_flag,
    value: u32,
    how: handoff_wait,
    timeout_ns: i64,
) -> c_int {
    ffi(|| {
        let how = wait_of(how)?;
        with::<Flag, _, _>(f, "flag", |f, s| {
            Ok(f.wait_for(value, &waiter_of(how, timeout_ns, &s.seg))?)
        })
    })
}

/// Adds 1 (wrapping) and publishes the result (Release); `*value` (if not NULL) receives
/// the new value.
///
/// # Safety
/// `value` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_flag_increment(f: *const handoff_flag, value: *mut u32) -> c_int {
    ffi(|| {
        let v = with::<Flag, _, _>(f, "flag", |f, _| Ok(f.increment()))?;
        if !value.is_null() {
            // SAFETY: the caller's contract above.
            unsafe { put(value, v, "value") }?;
        }
        Ok(())
    })
}

/// Waits until the flag differs from `old`; `*value` (if not NULL) receives the new value.
///
/// # Safety
/// `value` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_flag_wait_change(
    f: *const handoff_flag,
    old: u32,
    how: handoff_wait,
    timeout_ns: i64,
    value: *mut u32,
) -> c_int {
    ffi(|| {
        let how = wait_of(how)?;
        let v = with::<Flag, _, _>(f, "flag", |f, s| {
            Ok(f.wait_change(old, &waiter_of(how, timeout_ns, &s.seg))?)
        })?;
        if !value.is_null() {
            // SAFETY: the caller's contract above.
            unsafe { put(value, v, "value") }?;
        }
        Ok(())
    })
}

/// Adds `n` to the signal (Release) and wakes its sleepers; `*count` (if not NULL) receives
/// the new count.
///
/// # Safety
/// `count` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_signal_add(
    s: *const handoff_signal,
    n: u64,
    count: *mut u64,
) -> c_int {
    ffi(|| {
        let v = with::<Signal, _, _>(s, "signal", |s, _| Ok(s.add(n)))?;
        if !count.is_null() {
            // SAFETY: the caller's contract above.
            unsafe { put(count, v, "count") }?;
        }
        Ok(())
    })
}

/// Reads the signal's count (Acquire).
///
/// # Safety
/// `count` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_signal_load(s: *const handoff_signal, count: *mut u64) -> c_int {
    ffi(|| {
        let v = with::<Signal, _, _>(s, "signal", |s, _| Ok(s.load()))?;
        // SAFETY: the caller's contract above.
        unsafe { put(count, v, "count") }
    })
}

/// Waits until the signal's count is at least `target`; `*count` (if not NULL) receives the
/// count seen.
///
/// # Safety
/// `count` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_signal_wait_until(
    s: *const handoff_signal,
    target: u64,
    how: handoff_wait,
    timeout_ns: i64,
    count: *mut u64,
) -> c_int {
    ffi(|| {
        let how = wait_of(how)?;
        let v = with::<Signal, _, _>(s, "signal", |s, seg| {
            Ok(s.wait_until(target, &waiter_of(how, timeout_ns, &seg.seg))?)
        })?;
        if !count.is_null() {
            // SAFETY: the caller's contract above.
            unsafe { put(count, v, "count") }?;
        }
        Ok(())
    })
}

/// Adds a permit and wakes one sleeper.
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_semaphore_post(s: *const handoff_semaphore) -> c_int {
    ffi(|| with::<Semaphore, _, _>(s, "semaphore", |s, _| Ok(s.post()?)))
}

/// Takes a permit, waiting for one (`timeout_ns == 0`: only if one is there now).
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_semaphore_wait(
    s: *const handoff_semaphore,
    how: handoff_wait,
    timeout_ns: i64,
) -> c_int {
    ffi(|| {
        let how = wait_of(how)?;
        with::<Semaphore, _, _>(s, "semaphore", |s, seg| {
            Ok(s.wait(&waiter_of(how, timeout_ns, &seg.seg))?)
        })
    })
}

/// The permits available now (a snapshot).
///
/// # Safety
/// `value` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_semaphore_value(
    s: *const handoff_semaphore,
    value: *mut u32,
) -> c_int {
    ffi(|| {
        let v = with::<Semaphore, _, _>(s, "semaphore", |s, _| Ok(s.value()))?;
        // SAFETY: the caller's contract above.
        unsafe { put(value, v, "value") }
    })
}

/// Sets the party count (1..=32767) of a barrier nobody waits on yet (e.g. right after
/// creating its segment, before publishing it ready).
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_barrier_init(b: *const handoff_barrier, parties: u32) -> c_int {
    ffi(|| with::<Barrier, _, _>(b, "barrier", |b, _| Ok(b.init(parties)?)))
}

/// Arrives and waits for all parties; `*leader` (if not NULL) receives 1 for the one party
/// per round that arrived last, 0 for the others. On an error this party's arrival is
/// taken back.
///
/// # Safety
/// `leader` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_barrier_wait(
    b: *const handoff_barrier,
    how: handoff_wait,
    timeout_ns: i64,
    leader: *mut c_int,
) -> c_int {
    ffi(|| {
        let how = wait_of(how)?;
        let r = with::<Barrier, _, _>(b, "barrier", |b, seg| {
            Ok(b.wait(&waiter_of(how, timeout_ns, &seg.seg))?)
        })?;
        if !leader.is_null() {
            // SAFETY: the caller's contract above.
            unsafe { put(leader, c_int::from(r.is_leader()), "leader") }?;
        }
        Ok(())
    })
}
