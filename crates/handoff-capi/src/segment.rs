//! Shared segments: create / open by name, the payload's address, publish ready, free.

use std::ffi::{c_char, c_int, c_void, CString};
use std::time::Duration;

use handoff::shm::Segment;
use handoff::sys::Deadline;

use crate::error::{ffi, CError};
use crate::{handles, need, put, str_arg};

/// An opaque handle to a shared segment mapped in this process.
#[allow(non_camel_case_types)]
pub struct handoff_segment {
    _private: [u8; 0],
}

/// What a segment handle holds.
pub(crate) struct SegmentObj {
    pub(crate) seg: Segment,
    name: Option<CString>,
}

impl SegmentObj {
    fn new(seg: Segment) -> SegmentObj {
        let name = seg.name().and_then(|n| CString::new(n).ok());
        SegmentObj { seg, name }
    }
}

/// A deadline for opening: `timeout_ns < 0` waits (practically) forever.
pub(crate) fn open_deadline(timeout_ns: i64) -> Deadline {
    match u64::try_from(timeout_ns) {
        Ok(ns) => Deadline::after(Duration::from_nanos(ns)),
        Err(_) => Deadline::after(Duration::from_secs(100 * 365 * 24 * 3600)),
    }
}

/// Creates the named segment `/handoff-<pid>-<name>~<random>` with `payload_len` zeroed payload bytes.
/// Initialize what lies in it, then call [`handoff_segment_publish_ready`]: openers wait
/// until then.
///
/// Ownership: `*out` receives a new handle; free it with [`handoff_segment_free`] (which
/// unlinks the name once the creator frees it).
///
/// # Safety
/// `name` is a NUL-terminated string; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_segment_create(
    name: *const c_char,
    payload_len: usize,
    out: *mut *mut handoff_segment,
) -> c_int {
    ffi(|| {
        // SAFETY: the caller's contract above.
        let name = unsafe { str_arg(name, "name") }?;
        need(out, "out")?;
        let seg = Segment::create(name, payload_len).map_err(CError::from)?;
        // SAFETY: `out` is non-NULL and valid for a write (caller's contract).
        unsafe { put(out, handles::register(SegmentObj::new(seg)), "out") }
    })
}

/// Creates an anonymous segment (no name) for threads of this process.
///
/// Ownership: as [`handoff_segment_create`].
///
/// # Safety
/// `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_segment_anonymous(
    payload_len: usize,
    out: *mut *mut handoff_segment,
) -> c_int {
    ffi(|| {
        need(out, "out")?;
        let seg = Segment::anonymous(payload_len).map_err(CError::from)?;
        // SAFETY: `out` is non-NULL and valid for a write (caller's contract).
        unsafe { put(out, handles::register(SegmentObj::new(seg)), "out") }
    })
}

/// Opens the segment `name` (the creator's full name from [`handoff_segment_name`], or the
/// short name when one live creator has it), waiting up to `timeout_ns` (negative: forever)
/// for its creator to publish it ready.
///
/// Ownership: `*out` receives a new handle; free it with [`handoff_segment_free`].
///
/// # Safety
/// `name` is a NUL-terminated string; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_segment_open(
    name: *const c_char,
    timeout_ns: i64,
    out: *mut *mut handoff_segment,
) -> c_int {
    ffi(|| {
        // SAFETY: the caller's contract above.
        let name = unsafe { str_arg(name, "name") }?;
        need(out, "out")?;
        let seg = Segment::open(name, open_deadline(timeout_ns)).map_err(CError::from)?;
        // SAFETY: `out` is non-NULL and valid for a write (caller's contract).
        unsafe { put(out, handles::register(SegmentObj::new(seg)), "out") }
    })
}

/// Marks a created segment ready: openers waiting in [`handoff_segment_open`] proceed and
/// see everything written to the payload before this call.
///
/// # Safety
/// None beyond passing a handle (bad handles are refused).
#[no_mangle]
pub unsafe extern "C" fn handoff_segment_publish_ready(seg: *const handoff_segment) -> c_int {
    ffi(|| {
        handles::get::<SegmentObj, _>(seg, "segment")?
            .seg
            .publish_ready();
        Ok(())
    })
}

/// The payload: its first byte's address (128-byte aligned) and its length.
///
/// Ownership: the memory belongs to the segment; it stays mapped until the handle is freed.
///
/// # Safety
/// `data` and `len` are valid for writes.
#[no_mangle]
pub unsafe extern "C" fn handoff_segment_data(
    seg: *const handoff_segment,
    data: *mut *mut c_void,
    len: *mut usize,
) -> c_int {
    ffi(|| {
        let s = handles::get::<SegmentObj, _>(seg, "segment")?;
        need(len, "len")?;
        // SAFETY: the caller's contract above.
        unsafe { put(data, s.seg.as_ptr().cast::<c_void>(), "data") }?;
        // SAFETY: the caller's contract above.
        unsafe { put(len, s.seg.payload_len(), "len") }
    })
}

/// The segment's full name, to give to the process that opens it.
///
/// Ownership: the string belongs to the handle (valid until it is freed). `*name` is NULL
/// for an anonymous segment.
///
/// # Safety
/// `name` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_segment_name(
    seg: *const handoff_segment,
    name: *mut *const c_char,
) -> c_int {
    ffi(|| {
        let s = handles::get::<SegmentObj, _>(seg, "segment")?;
        let p = s.name.as_ref().map_or(std::ptr::null(), |n| n.as_ptr());
        // SAFETY: the caller's contract above.
        unsafe { put(name, p, "name") }
    })
}

/// Frees a segment handle: unmaps it once no primitive handle made from it is left (those
/// keep it mapped), and unlinks its name if this process created it.
///
/// # Safety
/// None beyond passing a handle (bad handles and double frees are refused).
#[no_mangle]
pub unsafe extern "C" fn handoff_segment_free(seg: *mut handoff_segment) -> c_int {
    ffi(|| handles::free::<SegmentObj, _>(seg, "segment"))
}
