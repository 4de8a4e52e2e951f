//! Remote memory access: `shmem_putmem`/`getmem`, the typed and sized `put`/`get`/`p`/`g`
//! (blocking and `_nbi`), strided `iput`/`iget`, and ordering: `fence`, `quiet`.
//!
//! On one node a put is a copy into the target's partition, complete when it returns, so
//! `_nbi` is the blocking call and `quiet` a fence (see `handoff::team`, "Ordering").
//! A scalar `shmem_TYPE_p` of a 4- or 8-byte word is a hardware atomic store that always wakes
//! a PE asleep in a wait on the target (flags are usually set with `p`); bulk puts wake a
//! target they see asleep (see the crate docs, "Waiting").

use std::ffi::{c_int, c_void};
use std::mem::size_of;

use handoff::team::{AtomicOp, Transport};

use crate::error::{Result, ShmemError};
use crate::state::{entry, State};

/// Bytes of `nelems` elements of `T`.
#[inline]
pub fn bytes<T>(nelems: usize, name: &'static str) -> Result<usize> {
    nelems
        .checked_mul(size_of::<T>())
        .ok_or(ShmemError::Overflow(name))
}

/// Copies `len` bytes from local `src` to PE `pe`'s symmetric `dest`.
///
/// # Safety
/// `src` is valid for reads of `len` bytes.
#[inline]
pub unsafe fn put(s: &State, dest: *mut u8, src: *const u8, len: usize, pe: c_int) -> Result<()> {
    let pe = s.pe(pe)?;
    let off = s.offset(dest, len, "dest")?;
    // SAFETY: the caller's promise.
    let src = unsafe { s.src(src, len, "source") }?;
    Ok(s.x().put(pe, off, src)?)
}

/// Copies `len` bytes from PE `pe`'s symmetric `src` to local `dest`.
///
/// # Safety
/// `dest` is valid for writes of `len` bytes.
#[inline]
pub unsafe fn get(s: &State, dest: *mut u8, src: *const u8, len: usize, pe: c_int) -> Result<()> {
    let pe = s.pe(pe)?;
    let off = s.offset(src, len, "source")?;
    // SAFETY: the caller's promise.
    let dst = unsafe { s.dst(dest, len, "dest") }?;
    Ok(s.x().get(pe, off, dst)?)
}

/// Stores one element at PE `pe`'s `dest`: an atomic store that wakes the target's waiter
/// for aligned 4- and 8-byte elements, a plain copy otherwise.
#[inline]
pub fn p<T: Copy>(s: &State, dest: *mut T, value: T, pe: c_int) -> Result<()> {
    let pe_ = s.pe(pe)?;
    let n = size_of::<T>();
    let d = dest.cast::<u8>();
    let off = s.offset(d, n, "dest")?;
    let aligned = (d as usize).is_multiple_of(n);
    match n {
        8 if aligned => {
            // SAFETY: `value` is a plain C scalar of exactly 8 bytes.
            let bits = unsafe { std::mem::transmute_copy::<T, u64>(&value) };
            s.x().atomic64(pe_, off, AtomicOp::Set(bits))?;
        }
        4 if aligned => {
            // SAFETY: `value` is a plain C scalar of exactly 4 bytes.
            let bits = unsafe { std::mem::transmute_copy::<T, u32>(&value) };
            s.x().atomic32(pe_, off, AtomicOp::Set(bits))?;
        }
        _ => {
            // SAFETY: `value` is a local of n bytes.
            let src = unsafe { std::slice::from_raw_parts((&raw const value).cast::<u8>(), n) };
            s.x().put(pe_, off, src)?;
        }
    }
    Ok(())
}

/// Reads one element of PE `pe`'s `src`.
#[inline]
pub fn g<T: Copy + Default>(s: &State, src: *const T, pe: c_int) -> Result<T> {
    let mut v = T::default();
    // SAFETY: `v` is a local of size_of::<T>() bytes.
    unsafe { get(s, (&raw mut v).cast(), src.cast(), size_of::<T>(), pe) }?;
    Ok(v)
}

/// Strided put: element `i` of `src` (stride `sst` elements) to element `i` of `dest`
/// (stride `dst`), `elem` bytes each.
///
/// # Safety
/// `src` is valid for reads of the strided elements.
#[allow(clippy::too_many_arguments)]
pub unsafe fn iput(
    s: &State,
    dest: *mut u8,
    src: *const u8,
    dst: isize,
    sst: isize,
    nelems: usize,
    elem: usize,
    pe: c_int,
) -> Result<()> {
    strides(dst, sst)?;
    for i in 0..nelems {
        let d = dest.wrapping_offset(i as isize * dst * elem as isize);
        let o = src.wrapping_offset(i as isize * sst * elem as isize);
        // SAFETY: the caller's promise for element i.
        unsafe { put(s, d, o, elem, pe) }?;
    }
    Ok(())
}

/// Strided get, as [`iput`] the other way.
///
/// # Safety
/// `dest` is valid for writes of the strided elements.
#[allow(clippy::too_many_arguments)]
pub unsafe fn iget(
    s: &State,
    dest: *mut u8,
    src: *const u8,
    dst: isize,
    sst: isize,
    nelems: usize,
    elem: usize,
    pe: c_int,
) -> Result<()> {
    strides(dst, sst)?;
    for i in 0..nelems {
        let d = dest.wrapping_offset(i as isize * dst * elem as isize);
        let o = src.wrapping_offset(i as isize * sst * elem as isize);
        // SAFETY: the caller's promise for element i.
        unsafe { get(s, d, o, elem, pe) }?;
    }
    Ok(())
}

fn strides(dst: isize, sst: isize) -> Result<()> {
    if dst < 1
        || sst < 1
        || dst.checked_mul(1 << 32).is_none()
        || sst.checked_mul(1 << 32).is_none()
    {
        return Err(ShmemError::Invalid(format!(
            "strides {dst} and {sst} must be at least 1 element"
        )));
    }
    Ok(())
}

profiled! {
/// `shmem_putmem`.
///
/// # Safety
/// `source` is valid for reads of `nelems` bytes.
pub unsafe extern "C" fn shmem_putmem(
    dest: *mut c_void,
    source: *const c_void,
    nelems: usize,
    pe: c_int,
) {
    // SAFETY: the caller's promise.
    entry("shmem_putmem", |s| unsafe {
        put(s, dest.cast(), source.cast(), nelems, pe)
    })
}
}

profiled! {
/// `shmem_putmem_nbi` (complete on return on one node).
///
/// # Safety
/// As `shmem_putmem`.
pub unsafe extern "C" fn shmem_putmem_nbi(
    dest: *mut c_void,
    source: *const c_void,
    nelems: usize,
    pe: c_int,
) {
    // SAFETY: the caller's promise.
    entry("shmem_putmem_nbi", |s| unsafe {
        put(s, dest.cast(), source.cast(), nelems, pe)
    })
}
}

profiled! {
/// `shmem_getmem`.
///
/// # Safety
/// `dest` is valid for writes of `nelems` bytes.
pub unsafe extern "C" fn shmem_getmem(
    dest: *mut c_void,
    source: *const c_void,
    nelems: usize,
    pe: c_int,
) {
    // SAFETY: the caller's promise.
    entry("shmem_getmem", |s| unsafe {
        get(s, dest.cast(), source.cast(), nelems, pe)
    })
}
}

profiled! {
/// `shmem_getmem_nbi`.
///
/// # Safety
/// As `shmem_getmem`.
pub unsafe extern "C" fn shmem_getmem_nbi(
    dest: *mut c_void,
    source: *const c_void,
    nelems: usize,
    pe: c_int,
) {
    // SAFETY: the caller's promise.
    entry("shmem_getmem_nbi", |s| unsafe {
        get(s, dest.cast(), source.cast(), nelems, pe)
    })
}
}

profiled! {
/// `shmem_fence`: orders this PE's earlier puts and AMOs before its later ones.
pub extern "C" fn shmem_fence() {
    entry("shmem_fence", |s| {
        s.team.fence();
        Ok(())
    })
}
}

profiled! {
/// `shmem_quiet`: completes this PE's earlier puts and AMOs.
pub extern "C" fn shmem_quiet() {
    entry("shmem_quiet", |s| {
        s.team.quiet();
        Ok(())
    })
}
}

/// Defines the typed RMA calls of one type: put, get, put_nbi, get_nbi, iput, iget, and (for
/// types passed by value in C) p and g.
macro_rules! rma_type {
    ($t:ty; $put:ident $get:ident $put_nbi:ident $get_nbi:ident $iput:ident $iget:ident $(; $p:ident $g:ident)?) => {
        profiled! {
        /// Typed put (OpenSHMEM 1.5 §9.5).
        ///
        /// # Safety
        /// `source` is valid for reads of `nelems` elements.
        pub unsafe extern "C" fn $put(dest: *mut $t, source: *const $t, nelems: usize, pe: c_int) {
            entry(stringify!($put), |s| {
                let n = bytes::<$t>(nelems, stringify!($put))?;
                // SAFETY: the caller's promise.
                unsafe { put(s, dest.cast(), source.cast(), n, pe) }
            })
        }
        }

        profiled! {
        /// Typed get.
        ///
        /// # Safety
        /// `dest` is valid for writes of `nelems` elements.
        pub unsafe extern "C" fn $get(dest: *mut $t, source: *const $t, nelems: usize, pe: c_int) {
            entry(stringify!($get), |s| {
                let n = bytes::<$t>(nelems, stringify!($get))?;
                // SAFETY: the caller's promise.
                unsafe { get(s, dest.cast(), source.cast(), n, pe) }
            })
        }
        }

        profiled! {
        /// Typed non-blocking put (complete on return on one node).
        ///
        /// # Safety
        /// As the blocking put.
        pub unsafe extern "C" fn $put_nbi(dest: *mut $t, source: *const $t, nelems: usize, pe: c_int) {
            entry(stringify!($put_nbi), |s| {
                let n = bytes::<$t>(nelems, stringify!($put_nbi))?;
                // SAFETY: the caller's promise.
                unsafe { put(s, dest.cast(), source.cast(), n, pe) }
            })
        }
        }

        profiled! {
        /// Typed non-blocking get.
        ///
        /// # Safety
        /// As the blocking get.
        pub unsafe extern "C" fn $get_nbi(dest: *mut $t, source: *const $t, nelems: usize, pe: c_int) {
            entry(stringify!($get_nbi), |s| {
                let n = bytes::<$t>(nelems, stringify!($get_nbi))?;
                // SAFETY: the caller's promise.
                unsafe { get(s, dest.cast(), source.cast(), n, pe) }
            })
        }
        }

        profiled! {
        /// Typed strided put.
        ///
        /// # Safety
        /// `source` is valid for reads of the strided elements.
        pub unsafe extern "C" fn $iput(dest: *mut $t, source: *const $t, dst: isize, sst: isize, nelems: usize, pe: c_int) {
            // SAFETY: the caller's promise.
            entry(stringify!($iput), |s| unsafe {
                iput(s, dest.cast(), source.cast(), dst, sst, nelems, size_of::<$t>(), pe)
            })
        }
        }

        profiled! {
        /// Typed strided get.
        ///
        /// # Safety
        /// `dest` is valid for writes of the strided elements.
        pub unsafe extern "C" fn $iget(dest: *mut $t, source: *const $t, dst: isize, sst: isize, nelems: usize, pe: c_int) {
            // SAFETY: the caller's promise.
            entry(stringify!($iget), |s| unsafe {
                iget(s, dest.cast(), source.cast(), dst, sst, nelems, size_of::<$t>(), pe)
            })
        }
        }
        $(
        profiled! {
        /// Typed single-element put.
        pub extern "C" fn $p(dest: *mut $t, value: $t, pe: c_int) {
            entry(stringify!($p), |s| p(s, dest, value, pe))
        }
        }

        profiled! {
        /// Typed single-element get.
        pub extern "C" fn $g(source: *const $t, pe: c_int) -> $t {
            entry(stringify!($g), |s| g(s, source, pe))
        }
        }
        )?
    };
}

/// `long double` (16 bytes on x86-64): moved as bytes; no `p`/`g` (Rust cannot pass it by value).
#[derive(Clone, Copy)]
#[repr(C, align(16))]
pub struct LongDouble([u8; 16]);

/// Fixed-size element types of the sized calls (`shmem_put8` ...).
type B1 = u8;
type B2 = u16;
type B4 = u32;
type B8 = u64;
/// 16-byte elements of `shmem_put128`.
#[derive(Clone, Copy)]
#[repr(C)]
pub struct B16([u64; 2]);

include!("rma_types.rs");
