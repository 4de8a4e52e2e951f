//! Collectives: `shmem_barrier_all`, `shmem_sync_all`, the active-set `shmem_barrier` /
//! `shmem_sync`, `shmem_broadcast32/64`, `shmem_collect32/64`, `shmem_fcollect32/64`, the
//! reductions `shmem_TYPE_OP_to_all`, and their OpenSHMEM 1.5 team forms on
//! `SHMEM_TEAM_WORLD` (`shmem_broadcastmem`, `shmem_collectmem`, `shmem_fcollectmem`,
//! `shmem_TYPE_OP_reduce`), with the team queries of `teams.rs`.
//!
//! On one node every PE reads the others' symmetric sources directly, so each collective is:
//! a barrier over the set (every source is ready), every member gets what it needs from the
//! others' sources into a private buffer, a second barrier (nobody reads a source any more),
//! then each member writes its own destination. That makes `dest == source` safe for the
//! reductions, and every member combines the contributions in rank order, so floating-point
//! results are bitwise identical on every PE. `pSync` and `pWrk` are accepted and unused.

use std::ffi::{c_int, c_long, c_void};
use std::mem::size_of;

use handoff::team::Transport;

use crate::error::{Result, ShmemError};
use crate::state::{entry, State, COLLECT_AT};

/// The PEs of an active set (`PE_start`, `logPE_stride`, `PE_size`), checked to be PEs of the
/// team and to include this PE.
pub fn active_set(s: &State, start: c_int, log_stride: c_int, size: c_int) -> Result<Vec<usize>> {
    let bad = |why: String| ShmemError::ActiveSet {
        start,
        log_stride,
        size,
        why,
    };
    if start < 0 || size < 1 || !(0..31).contains(&log_stride) {
        return Err(bad(
            "is not a set of PEs: PE_start >= 0, PE_size >= 1 and 0 <= logPE_stride < 31".into(),
        ));
    }
    let stride = 1usize << log_stride;
    let last = (start as usize).saturating_add((size as usize - 1).saturating_mul(stride));
    if last >= s.npes {
        return Err(bad(format!(
            "reaches PE {last}, but there are {} PEs; keep the set within 0..{}",
            s.npes, s.npes
        )));
    }
    let set: Vec<usize> = (0..size as usize)
        .map(|k| start as usize + k * stride)
        .collect();
    if !set.contains(&s.rank) {
        return Err(bad(format!(
            "does not contain this PE ({}); only members of the set call the collective",
            s.rank
        )));
    }
    Ok(set)
}

/// All PEs.
pub fn world(s: &State) -> Vec<usize> {
    (0..s.npes).collect()
}

/// A barrier over `set` (world ranks).
pub fn barrier(s: &State, set: &[usize]) -> Result<()> {
    if set.len() == s.npes {
        s.team.barrier_all()?;
    } else {
        s.team.barrier(set)?;
    }
    Ok(())
}

/// The bytes of a private buffer of `T`.
fn as_bytes_mut<T: Copy>(v: &mut [T]) -> &mut [u8] {
    // SAFETY: T is a plain C scalar (every caller's T): any bytes are a valid value; the
    // slice covers exactly the vector's elements.
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast(), std::mem::size_of_val(v)) }
}

/// Broadcast of `len` bytes from member `root` (an index into `set`) of `source` to `dest`
/// of the other members (and of the root too when `to_root`).
///
/// # Safety
/// `dest` is valid for writes of `len` bytes (it is checked to be symmetric).
pub unsafe fn broadcast(
    s: &State,
    set: &[usize],
    dest: *mut u8,
    source: *const u8,
    len: usize,
    root: c_int,
    to_root: bool,
) -> Result<()> {
    let root = usize::try_from(root)
        .ok()
        .and_then(|r| set.get(r).copied())
        .ok_or_else(|| {
            ShmemError::Invalid(format!(
                "PE_root {root} is not an index into the active set of {} PEs",
                set.len()
            ))
        })?;
    let src = s.offset(source, len, "source")?;
    s.offset(dest, len, "dest")?;
    barrier(s, set)?;
    if s.rank != root || to_root {
        // SAFETY: the caller's promise.
        let d = unsafe { s.dst(dest, len, "dest") }?;
        s.x().get(root, src, d)?;
    }
    barrier(s, set)
}

/// Collect (`fixed`: every member contributes `len` bytes; else each its own `len`) of every
/// member's `source` into `dest`, in set order.
///
/// # Safety
/// `dest` is valid for writes of the total.
pub unsafe fn collect(
    s: &State,
    set: &[usize],
    dest: *mut u8,
    source: *const u8,
    len: usize,
    fixed: bool,
) -> Result<()> {
    use std::sync::atomic::Ordering::Relaxed;
    let src = s.offset(source, len, "source")?;
    // Published before the barrier, whose Release/Acquire chain makes it visible.
    s.internal_word(COLLECT_AT).store(len as u64, Relaxed);
    barrier(s, set)?;
    let mut lens = Vec::with_capacity(set.len());
    for &r in set {
        let mut w = [0u8; 8];
        s.x().get(r, s.internal + COLLECT_AT, &mut w)?;
        let l = u64::from_ne_bytes(w) as usize;
        if fixed && l != len {
            return Err(ShmemError::Invalid(format!(
                "fcollect: PE {r} contributes {l} bytes, this PE {len}; every PE passes the same nelems"
            )));
        }
        lens.push(l);
    }
    let total: usize = lens.iter().sum();
    s.offset(dest, total, "dest")?;
    let mut buf = vec![0u8; total];
    let mut at = 0;
    for (&r, &l) in set.iter().zip(&lens) {
        s.x().get(r, src, &mut buf[at..at + l])?;
        at += l;
    }
    barrier(s, set)?;
    // SAFETY: the caller's promise.
    unsafe { s.dst(dest, total, "dest") }?.copy_from_slice(&buf);
    Ok(())
}

/// All-to-all: member `j`'s block `i` of `dest` (`len` bytes) is member `i`'s block `j` of
/// `source`.
///
/// # Safety
/// `dest` is valid for writes of `len * set.len()` bytes.
pub unsafe fn alltoall(
    s: &State,
    set: &[usize],
    dest: *mut u8,
    source: *const u8,
    len: usize,
) -> Result<()> {
    let total = len
        .checked_mul(set.len())
        .ok_or(ShmemError::Overflow("alltoall"))?;
    let src = s.offset(source, total, "source")?;
    s.offset(dest, total, "dest")?;
    let me = set.iter().position(|&r| r == s.rank).unwrap_or(0);
    barrier(s, set)?;
    let mut buf = vec![0u8; total];
    for (i, &r) in set.iter().enumerate() {
        s.x()
            .get(r, src + me * len, &mut buf[i * len..(i + 1) * len])?;
    }
    barrier(s, set)?;
    // SAFETY: the caller's promise.
    unsafe { s.dst(dest, total, "dest") }?.copy_from_slice(&buf);
    Ok(())
}

/// Strided all-to-all: member `j` gets member `i`'s `nelems` elements (of `elem` bytes)
/// starting at element `j * nelems * sst`, `sst` apart, into its block `i` (elements
/// `dst` apart from element `i * nelems * dst`).
///
/// # Safety
/// `dest` is valid for writes of the strided elements.
#[allow(clippy::too_many_arguments)]
pub unsafe fn alltoalls(
    s: &State,
    set: &[usize],
    dest: *mut u8,
    source: *const u8,
    dst: isize,
    sst: isize,
    nelems: usize,
    elem: usize,
) -> Result<()> {
    if dst < 1 || sst < 1 {
        return Err(ShmemError::Invalid(format!(
            "alltoalls strides {dst} and {sst} must be at least 1 element"
        )));
    }
    let span = |stride: isize| -> Result<usize> {
        let n = set.len().checked_mul(nelems);
        match n {
            Some(0) => Ok(0),
            Some(n) => (n - 1)
                .checked_mul(stride as usize)
                .and_then(|x| x.checked_add(1))
                .and_then(|x| x.checked_mul(elem))
                .ok_or(ShmemError::Overflow("alltoalls")),
            None => Err(ShmemError::Overflow("alltoalls")),
        }
    };
    let (slen, dlen) = (span(sst)?, span(dst)?);
    let src = s.offset(source, slen, "source")?;
    s.offset(dest, dlen, "dest")?;
    let me = set.iter().position(|&r| r == s.rank).unwrap_or(0);
    let (sst, dst) = (sst as usize, dst as usize);
    barrier(s, set)?;
    let mut buf = vec![0u8; set.len() * nelems * elem];
    for (i, &r) in set.iter().enumerate() {
        for k in 0..nelems {
            let at = (i * nelems + k) * elem;
            let from = src + (me * nelems + k) * sst * elem;
            s.x().get(r, from, &mut buf[at..at + elem])?;
        }
    }
    barrier(s, set)?;
    // SAFETY: the caller's promise (the span was checked to be symmetric, so in bounds).
    let d = unsafe { s.dst(dest, dlen, "dest") }?;
    for (j, chunk) in buf.chunks_exact(elem.max(1)).enumerate() {
        let at = j * dst * elem;
        d[at..at + elem].copy_from_slice(chunk);
    }
    Ok(())
}

/// A reduction operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    And,
    Or,
    Xor,
    Max,
    Min,
    Sum,
    Prod,
}

/// An element type of the reductions.
pub trait Reduce: Copy + Default {
    /// `a op b`.
    fn apply(op: Op, a: Self, b: Self) -> Self;
}

macro_rules! reduce_int {
    ($($t:ty),*) => {$(
        impl Reduce for $t {
            #[inline]
            fn apply(op: Op, a: Self, b: Self) -> Self {
                match op {
                    Op::And => a & b,
                    Op::Or => a | b,
                    Op::Xor => a ^ b,
                    Op::Max => a.max(b),
                    Op::Min => a.min(b),
                    Op::Sum => a.wrapping_add(b),
                    Op::Prod => a.wrapping_mul(b),
                }
            }
        }
    )*};
}
reduce_int!(i8, i16, i32, i64, u8, u16, u32, u64, isize, usize);

macro_rules! reduce_float {
    ($($t:ty),*) => {$(
        impl Reduce for $t {
            #[inline]
            fn apply(op: Op, a: Self, b: Self) -> Self {
                match op {
                    Op::Max => a.max(b),
                    Op::Min => a.min(b),
                    Op::Sum => a + b,
                    Op::Prod => a * b,
                    // Not declared for floating types in shmem.h.
                    Op::And | Op::Or | Op::Xor => unreachable!("bitwise reduction of a float"),
                }
            }
        }
    )*};
}
reduce_float!(f32, f64);

/// A C complex number (`float _Complex`, `double _Complex`): real, imaginary.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Complex<T>(pub T, pub T);

macro_rules! reduce_complex {
    ($($t:ty),*) => {$(
        impl Reduce for Complex<$t> {
            #[inline]
            fn apply(op: Op, a: Self, b: Self) -> Self {
                match op {
                    Op::Sum => Complex(a.0 + b.0, a.1 + b.1),
                    Op::Prod => Complex(a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0),
                    // Only sum and prod are declared for complex types in shmem.h.
                    _ => unreachable!("{op:?} reduction of a complex number"),
                }
            }
        }
    )*};
}
reduce_complex!(f32, f64);

/// Reduces `n` elements of every member's `source` with `op` into `dest` (`dest` may be
/// `source`).
///
/// # Safety
/// `dest` is valid for writes of `n` elements.
pub unsafe fn reduce<T: Reduce>(
    s: &State,
    set: &[usize],
    dest: *mut T,
    source: *const T,
    n: usize,
    op: Op,
) -> Result<()> {
    let len = n
        .checked_mul(size_of::<T>())
        .ok_or(ShmemError::Overflow("nreduce"))?;
    let src = s.offset(source.cast(), len, "source")?;
    s.offset(dest.cast(), len, "dest")?;
    barrier(s, set)?;
    let mut acc = vec![T::default(); n];
    let mut tmp = vec![T::default(); n];
    for (k, &r) in set.iter().enumerate() {
        let into = if k == 0 { &mut acc } else { &mut tmp };
        s.x().get(r, src, as_bytes_mut(into))?;
        if k > 0 {
            for (a, &b) in acc.iter_mut().zip(&tmp) {
                *a = T::apply(op, *a, b);
            }
        }
    }
    barrier(s, set)?;
    // SAFETY: the caller's promise; `acc` is a private buffer of n elements.
    unsafe { std::ptr::copy_nonoverlapping(acc.as_ptr(), dest, n) };
    Ok(())
}

profiled! {
/// `shmem_barrier_all`: completes this PE's puts, then waits for every PE.
pub extern "C" fn shmem_barrier_all() {
    entry("shmem_barrier_all", |s| Ok(s.team.barrier_all()?))
}
}

profiled! {
/// `shmem_sync_all`: waits for every PE (puts are complete on one node anyway).
pub extern "C" fn shmem_sync_all() {
    entry("shmem_sync_all", |s| Ok(s.team.barrier_all()?))
}
}

profiled! {
/// `shmem_barrier` over an active set (deprecated in 1.5, still common).
pub extern "C" fn shmem_barrier(start: c_int, log_stride: c_int, size: c_int, _psync: *mut c_long) {
    entry("shmem_barrier", |s| {
        barrier(s, &active_set(s, start, log_stride, size)?)
    })
}
}

profiled! {
/// `shmem_sync` over an active set.
pub extern "C" fn shmem_sync(start: c_int, log_stride: c_int, size: c_int, _psync: *mut c_long) {
    entry("shmem_sync", |s| {
        barrier(s, &active_set(s, start, log_stride, size)?)
    })
}
}

macro_rules! bcast_sized {
    ($name:ident, $bytes:expr) => {
        profiled! {
        /// Active-set broadcast of `nelems` elements of this size from member `PE_root`.
        ///
        /// # Safety
        /// `dest` is valid for writes of `nelems` elements.
        pub unsafe extern "C" fn $name(
            dest: *mut c_void,
            source: *const c_void,
            nelems: usize,
            root: c_int,
            start: c_int,
            log_stride: c_int,
            size: c_int,
            _psync: *mut c_long,
        ) {
            entry(stringify!($name), |s| {
                let set = active_set(s, start, log_stride, size)?;
                let len = crate::rma::bytes::<[u8; $bytes]>(nelems, stringify!($name))?;
                // SAFETY: the caller's promise.
                unsafe { broadcast(s, &set, dest.cast(), source.cast(), len, root, false) }
            })
        }
        }
    };
}
bcast_sized!(shmem_broadcast32, 4);
bcast_sized!(shmem_broadcast64, 8);

macro_rules! collect_sized {
    ($name:ident, $bytes:expr, $fixed:expr) => {
        profiled! {
        /// Active-set (f)collect of `nelems` elements of this size from every member.
        ///
        /// # Safety
        /// `dest` is valid for writes of the total.
        pub unsafe extern "C" fn $name(
            dest: *mut c_void,
            source: *const c_void,
            nelems: usize,
            start: c_int,
            log_stride: c_int,
            size: c_int,
            _psync: *mut c_long,
        ) {
            entry(stringify!($name), |s| {
                let set = active_set(s, start, log_stride, size)?;
                let len = crate::rma::bytes::<[u8; $bytes]>(nelems, stringify!($name))?;
                // SAFETY: the caller's promise.
                unsafe { collect(s, &set, dest.cast(), source.cast(), len, $fixed) }
            })
        }
        }
    };
}
collect_sized!(shmem_collect32, 4, false);
collect_sized!(shmem_collect64, 8, false);
collect_sized!(shmem_fcollect32, 4, true);
collect_sized!(shmem_fcollect64, 8, true);

macro_rules! alltoall_sized {
    ($name:ident, $bytes:expr) => {
        profiled! {
        /// Active-set all-to-all of `nelems` elements of this size per pair of members.
        ///
        /// # Safety
        /// `dest` is valid for writes of `nelems * PE_size` elements.
        pub unsafe extern "C" fn $name(
            dest: *mut c_void,
            source: *const c_void,
            nelems: usize,
            start: c_int,
            log_stride: c_int,
            size: c_int,
            _psync: *mut c_long,
        ) {
            entry(stringify!($name), |s| {
                let set = active_set(s, start, log_stride, size)?;
                let len = crate::rma::bytes::<[u8; $bytes]>(nelems, stringify!($name))?;
                // SAFETY: the caller's promise.
                unsafe { alltoall(s, &set, dest.cast(), source.cast(), len) }
            })
        }
        }
    };
}
alltoall_sized!(shmem_alltoall32, 4);
alltoall_sized!(shmem_alltoall64, 8);

macro_rules! alltoalls_sized {
    ($name:ident, $bytes:expr) => {
        profiled! {
        /// Active-set strided all-to-all of `nelems` elements of this size per pair.
        ///
        /// # Safety
        /// `dest` is valid for writes of the strided elements.
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $name(
            dest: *mut c_void,
            source: *const c_void,
            dst: isize,
            sst: isize,
            nelems: usize,
            start: c_int,
            log_stride: c_int,
            size: c_int,
            _psync: *mut c_long,
        ) {
            entry(stringify!($name), |s| {
                let set = active_set(s, start, log_stride, size)?;
                // SAFETY: the caller's promise.
                unsafe {
                    alltoalls(
                        s,
                        &set,
                        dest.cast(),
                        source.cast(),
                        dst,
                        sst,
                        nelems,
                        $bytes,
                    )
                }
            })
        }
        }
    };
}
alltoalls_sized!(shmem_alltoalls32, 4);
alltoalls_sized!(shmem_alltoalls64, 8);

/// Defines `shmem_TYPE_OP_to_all`.
macro_rules! to_all {
    ($t:ty, $op:expr; $name:ident) => {
        profiled! {
        /// Active-set reduction (`dest` may equal `source`).
        ///
        /// # Safety
        /// `dest` is valid for writes of `nreduce` elements.
        pub unsafe extern "C" fn $name(
            dest: *mut $t,
            source: *const $t,
            nreduce: c_int,
            start: c_int,
            log_stride: c_int,
            size: c_int,
            _pwrk: *mut $t,
            _psync: *mut c_long,
        ) {
            entry(stringify!($name), |s| {
                let set = active_set(s, start, log_stride, size)?;
                let n = usize::try_from(nreduce).map_err(|_| ShmemError::Overflow("nreduce"))?;
                // SAFETY: the caller's promise.
                unsafe { reduce(s, &set, dest, source, n, $op) }
            })
        }
        }
    };
}

include!("coll_types.rs");
