//! Flag, Signal, Semaphore and Barrier handles: a primitive at an offset of a segment. Waits
//! watch the segment's attached processes, so a dead peer ends them with
//! `HANDOFF_E_PEER_GONE`.
//!
//! Each handle holds the patience its waits use (the Rust library's per-process `Waiter`:
//! a C handle is per-process already), set with `handoff_<kind>_set_patience`; every wait
//! has the three forms `handoff_<kind>_<wait>`, `..._timeout` and `handoff_<kind>_try_<wait>`.

use std::ffi::c_int;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use handoff::shm::{Segment, ShmSafe};
use handoff::sync::{Barrier, Flag, Patience, Semaphore, Signal, WaitError, Waiter};

use crate::error::{ffi, CError};
use crate::segment::{handoff_segment, SegmentObj};
use crate::{handles, handoff_wait, need, patience_of, put, Form};

/// A primitive of type `T` at `offset` in a segment (which the handle keeps mapped), and
/// how this handle's waits wait.
pub(crate) struct Prim<T> {
    seg: Arc<SegmentObj>,
    offset: usize,
    patience: Mutex<Patience>,
    _t: std::marker::PhantomData<fn() -> T>,
}

impl<T: ShmSafe> Prim<T> {
    fn at(seg: Arc<SegmentObj>, offset: usize) -> Result<Self, CError> {
        seg.seg.get::<T>(offset).map_err(CError::from)?;
        Ok(Prim {
            seg,
            offset,
            patience: Mutex::new(Patience::default()),
            _t: std::marker::PhantomData,
        })
    }

    fn get(&self) -> Result<&T, CError> {
        // Checked in `at`; checked again rather than trusted (cheap: bounds and alignment).
        self.seg.seg.get::<T>(self.offset).map_err(CError::from)
    }

    /// This handle's waiter: its patience, watching its segment's processes.
    fn waiter(&self) -> Waiter<'_, Segment> {
        // Only copies happen under the lock: ignore poisoning.
        let patience = *self.patience.lock().unwrap_or_else(|p| p.into_inner());
        Waiter::watching(&self.seg.seg).with_patience(patience)
    }
}

/// Sets the patience of the `T` handle `h`.
fn set_patience<T: ShmSafe + 'static, H>(
    h: *const H,
    what: &str,
    how: handoff_wait,
    timeout_ns: i64,
) -> c_int {
    ffi(|| {
        let patience = patience_of(how, timeout_ns)?;
        let p = handles::get::<Prim<T>, _>(h, what)?;
        *p.patience.lock().unwrap_or_else(|p| p.into_inner()) = patience;
        Ok(())
    })
}

/// Runs one form of a wait on the `T` handle `h`: `wait` gets the primitive, the form and
/// the handle's waiter.
fn wait<T: ShmSafe + 'static, H, R>(
    h: *const H,
    what: &str,
    form: Form,
    wait: impl FnOnce(&T, Form, &Waiter<'_, Segment>) -> Result<R, WaitError>,
) -> Result<R, CError> {
    let p = handles::get::<Prim<T>, _>(h, what)?;
    let waiter = p.waiter();
    Ok(wait(p.get()?, form, &waiter)?)
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

/// Sets how this flag handle's waits wait: strategy `how` and the default time limit of
/// the waits without a suffix (`timeout_ns` negative: none, the default; 0: look once). A
/// new handle waits `{HANDOFF_WAIT_ADAPTIVE, 0}` without a time limit.
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_flag_set_patience(
    h: *const handoff_flag,
    how: handoff_wait,
    timeout_ns: i64,
) -> c_int {
    set_patience::<Flag, _>(h, "flag", how, timeout_ns)
}

/// Sets how this signal handle's waits wait: strategy `how` and the default time limit of
/// the waits without a suffix (`timeout_ns` negative: none, the default; 0: look once). A
/// new handle waits `{HANDOFF_WAIT_ADAPTIVE, 0}` without a time limit.
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_signal_set_patience(
    h: *const handoff_signal,
    how: handoff_wait,
    timeout_ns: i64,
) -> c_int {
    set_patience::<Signal, _>(h, "signal", how, timeout_ns)
}

/// Sets how this semaphore handle's waits wait: strategy `how` and the default time limit of
/// the waits without a suffix (`timeout_ns` negative: none, the default; 0: look once). A
/// new handle waits `{HANDOFF_WAIT_ADAPTIVE, 0}` without a time limit.
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_semaphore_set_patience(
    h: *const handoff_semaphore,
    how: handoff_wait,
    timeout_ns: i64,
) -> c_int {
    set_patience::<Semaphore, _>(h, "semaphore", how, timeout_ns)
}

/// Sets how this barrier handle's waits wait: strategy `how` and the default time limit of
/// the waits without a suffix (`timeout_ns` negative: none, the default; 0: look once). A
/// new handle waits `{HANDOFF_WAIT_ADAPTIVE, 0}` without a time limit.
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_barrier_set_patience(
    h: *const handoff_barrier,
    how: handoff_wait,
    timeout_ns: i64,
) -> c_int {
    set_patience::<Barrier, _>(h, "barrier", how, timeout_ns)
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

/// Waits (with the handle's patience) until the flag equals `value`.
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_flag_wait_for(f: *const handoff_flag, value: u32) -> c_int {
    ffi(|| flag_wait_for(f, value, Form::Patient))
}

/// [`handoff_flag_wait_for`], waiting at most `timeout_ns` (the handle's strategy).
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_flag_wait_for_timeout(
    f: *const handoff_flag,
    value: u32,
    timeout_ns: u64,
) -> c_int {
    ffi(|| flag_wait_for(f, value, Form::Timeout(Duration::from_nanos(timeout_ns))))
}

/// `HANDOFF_OK` if the flag equals `value` now, `HANDOFF_E_TIMEOUT` otherwise.
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_flag_try_wait_for(f: *const handoff_flag, value: u32) -> c_int {
    ffi(|| flag_wait_for(f, value, Form::Try))
}

fn flag_wait_for(f: *const handoff_flag, value: u32, form: Form) -> Result<(), CError> {
    wait::<Flag, _, _>(f, "flag", form, |f, form, w| match form {
        Form::Patient => f.wait_for(value, w),
        Form::Timeout(d) => f.wait_for_timeout(value, d, w),
        Form::Try => f.try_wait_for(value),
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

/// Waits (with the handle's patience) until the flag differs from `old`; `*value` (if not
/// NULL) receives the new value.
///
/// # Safety
/// `value` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_flag_wait_change(
    f: *const handoff_flag,
    old: u32,
    value: *mut u32,
) -> c_int {
    // SAFETY: the caller's contract above.
    ffi(|| unsafe { flag_wait_change(f, old, Form::Patient, value) })
}

/// [`handoff_flag_wait_change`], waiting at most `timeout_ns` (the handle's strategy).
///
/// # Safety
/// `value` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_flag_wait_change_timeout(
    f: *const handoff_flag,
    old: u32,
    timeout_ns: u64,
    value: *mut u32,
) -> c_int {
    let form = Form::Timeout(Duration::from_nanos(timeout_ns));
    // SAFETY: the caller's contract above.
    ffi(|| unsafe { flag_wait_change(f, old, form, value) })
}

/// The flag's value into `*value` (if not NULL) if it differs from `old` now;
/// `HANDOFF_E_TIMEOUT` otherwise.
///
/// # Safety
/// `value` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_flag_try_wait_change(
    f: *const handoff_flag,
    old: u32,
    value: *mut u32,
) -> c_int {
    // SAFETY: the caller's contract above.
    ffi(|| unsafe { flag_wait_change(f, old, Form::Try, value) })
}

/// # Safety
/// `value` is NULL or valid for a write.
unsafe fn flag_wait_change(
    f: *const handoff_flag,
    old: u32,
    form: Form,
    value: *mut u32,
) -> Result<(), CError> {
    let v = wait::<Flag, _, _>(f, "flag", form, |f, form, w| match form {
        Form::Patient => f.wait_change(old, w),
        Form::Timeout(d) => f.wait_change_timeout(old, d, w),
        Form::Try => f.try_wait_change(old),
    })?;
    if !value.is_null() {
        // SAFETY: the caller's contract above.
        unsafe { put(value, v, "value") }?;
    }
    Ok(())
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

/// Waits (with the handle's patience) until the signal's count is at least `target`;
/// `*count` (if not NULL) receives the count seen.
///
/// # Safety
/// `count` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_signal_wait_until(
    s: *const handoff_signal,
    target: u64,
    count: *mut u64,
) -> c_int {
    // SAFETY: the caller's contract above.
    ffi(|| unsafe { signal_wait_until(s, target, Form::Patient, count) })
}

/// [`handoff_signal_wait_until`], waiting at most `timeout_ns` (the handle's strategy).
///
/// # Safety
/// `count` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_signal_wait_until_timeout(
    s: *const handoff_signal,
    target: u64,
    timeout_ns: u64,
    count: *mut u64,
) -> c_int {
    let form = Form::Timeout(Duration::from_nanos(timeout_ns));
    // SAFETY: the caller's contract above.
    ffi(|| unsafe { signal_wait_until(s, target, form, count) })
}

/// The count into `*count` (if not NULL) if it is at least `target` now;
/// `HANDOFF_E_TIMEOUT` otherwise.
///
/// # Safety
/// `count` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_signal_try_wait_until(
    s: *const handoff_signal,
    target: u64,
    count: *mut u64,
) -> c_int {
    // SAFETY: the caller's contract above.
    ffi(|| unsafe { signal_wait_until(s, target, Form::Try, count) })
}

/// # Safety
/// `count` is NULL or valid for a write.
unsafe fn signal_wait_until(
    s: *const handoff_signal,
    target: u64,
    form: Form,
    count: *mut u64,
) -> Result<(), CError> {
    let v = wait::<Signal, _, _>(s, "signal", form, |s, form, w| match form {
        Form::Patient => s.wait_until(target, w),
        Form::Timeout(d) => s.wait_until_timeout(target, d, w),
        Form::Try => s.try_wait_until(target),
    })?;
    if !count.is_null() {
        // SAFETY: the caller's contract above.
        unsafe { put(count, v, "count") }?;
    }
    Ok(())
}

/// Adds a permit and wakes one sleeper.
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_semaphore_post(s: *const handoff_semaphore) -> c_int {
    ffi(|| with::<Semaphore, _, _>(s, "semaphore", |s, _| Ok(s.post()?)))
}

/// Takes a permit, waiting (with the handle's patience) for one.
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_semaphore_wait(s: *const handoff_semaphore) -> c_int {
    ffi(|| semaphore_wait(s, Form::Patient))
}

/// [`handoff_semaphore_wait`], waiting at most `timeout_ns` (the handle's strategy).
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_semaphore_wait_timeout(
    s: *const handoff_semaphore,
    timeout_ns: u64,
) -> c_int {
    ffi(|| semaphore_wait(s, Form::Timeout(Duration::from_nanos(timeout_ns))))
}

/// Takes a permit if one is there now; `HANDOFF_E_TIMEOUT` otherwise.
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_semaphore_try_wait(s: *const handoff_semaphore) -> c_int {
    ffi(|| semaphore_wait(s, Form::Try))
}

fn semaphore_wait(s: *const handoff_semaphore, form: Form) -> Result<(), CError> {
    wait::<Semaphore, _, _>(s, "semaphore", form, |s, form, w| match form {
        Form::Patient => s.wait(w),
        Form::Timeout(d) => s.wait_timeout(d, w),
        Form::Try => s.try_wait(),
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

/// Arrives and waits (with the handle's patience) for all parties; `*leader` (if not NULL)
/// receives 1 for the one party per round that arrived last, 0 for the others. On an error
/// this party's arrival is taken back.
///
/// # Safety
/// `leader` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_barrier_wait(
    b: *const handoff_barrier,
    leader: *mut c_int,
) -> c_int {
    // SAFETY: the caller's contract above.
    ffi(|| unsafe { barrier_wait(b, Form::Patient, leader) })
}

/// [`handoff_barrier_wait`], waiting at most `timeout_ns` (the handle's strategy; then the
/// arrival is taken back).
///
/// # Safety
/// `leader` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_barrier_wait_timeout(
    b: *const handoff_barrier,
    timeout_ns: u64,
    leader: *mut c_int,
) -> c_int {
    let form = Form::Timeout(Duration::from_nanos(timeout_ns));
    // SAFETY: the caller's contract above.
    ffi(|| unsafe { barrier_wait(b, form, leader) })
}

/// Arrives, and passes if the barrier opens with this arrival (or after one more look);
/// otherwise takes the arrival back and returns `HANDOFF_E_TIMEOUT` at once.
///
/// # Safety
/// `leader` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_barrier_try_wait(
    b: *const handoff_barrier,
    leader: *mut c_int,
) -> c_int {
    // SAFETY: the caller's contract above.
    ffi(|| unsafe { barrier_wait(b, Form::Try, leader) })
}

/// # Safety
/// `leader` is NULL or valid for a write.
unsafe fn barrier_wait(
    b: *const handoff_barrier,
    form: Form,
    leader: *mut c_int,
) -> Result<(), CError> {
    let r = wait::<Barrier, _, _>(b, "barrier", form, |b, form, w| match form {
        Form::Patient => b.wait(w),
        Form::Timeout(d) => b.wait_timeout(d, w),
        Form::Try => b.try_wait(),
    })?;
    if !leader.is_null() {
        // SAFETY: the caller's contract above.
        unsafe { put(leader, c_int::from(r.is_leader()), "leader") }?;
    }
    Ok(())
}
