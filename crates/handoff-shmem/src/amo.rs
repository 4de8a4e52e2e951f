//! Atomic memory operations (OpenSHMEM 1.5 §9.7): the extended (`fetch`, `set`, `swap`),
//! standard (`fetch_inc`, `inc`, `fetch_add`, `add`, `compare_swap`) and bitwise
//! (`fetch_and/or/xor`, `and/or/xor`) AMOs for their 1.5 types, the fetching `_nbi` forms,
//! and the deprecated 1.3 names (`shmem_int_fadd`, `shmem_long_cswap`, ...).
//!
//! Each is one hardware RMW on the target's mapped word (`handoff::team`: `AcqRel`, never a
//! lock), which also wakes a PE asleep in a wait on the target. Floating-point words move as
//! their bits (`fetch`, `set`, `swap` only, as 1.5 allows).

use std::ffi::c_int;

use handoff::team::{AtomicOp, Transport};

use crate::error::Result;
use crate::state::{entry, State};

/// A word an AMO works on: 4 or 8 bytes, moved as its bits.
pub trait AmoWord: Copy {
    /// 4 or 8.
    const N: usize;
    /// The bits, zero-extended.
    fn bits(self) -> u64;
    /// From the low `N` bytes of `b`.
    fn of_bits(b: u64) -> Self;
}

macro_rules! amo_word {
    ($($t:ty => $n:expr, $to:expr, $from:expr);* $(;)?) => {$(
        impl AmoWord for $t {
            const N: usize = $n;
            #[inline]
            fn bits(self) -> u64 {
                ($to)(self)
            }
            #[inline]
            fn of_bits(b: u64) -> Self {
                ($from)(b)
            }
        }
    )*};
}
amo_word! {
    i32 => 4, |v: i32| u64::from(v as u32), |b: u64| b as u32 as i32;
    u32 => 4, |v: u32| u64::from(v), |b: u64| b as u32;
    i64 => 8, |v: i64| v as u64, |b: u64| b as i64;
    u64 => 8, |v: u64| v, |b: u64| b;
    isize => 8, |v: isize| v as u64, |b: u64| b as isize;
    usize => 8, |v: usize| v as u64, |b: u64| b as usize;
    f32 => 4, |v: f32| u64::from(v.to_bits()), |b: u64| f32::from_bits(b as u32);
    f64 => 8, |v: f64| v.to_bits(), |b: u64| f64::from_bits(b);
}

/// Runs `op` on PE `pe`'s word `dest`; returns the value before.
#[inline]
pub fn amo<T: AmoWord>(s: &State, dest: *const T, op: AtomicOp<u64>, pe: c_int) -> Result<T> {
    let pe = s.pe(pe)?;
    let off = s.word_offset(dest.cast(), T::N, "dest")?;
    let old = if T::N == 8 {
        s.x().atomic64(pe, off, op)?
    } else {
        let n = |v: u64| v as u32;
        let op32 = match op {
            AtomicOp::Fetch => AtomicOp::Fetch,
            AtomicOp::Set(v) => AtomicOp::Set(n(v)),
            AtomicOp::Swap(v) => AtomicOp::Swap(n(v)),
            AtomicOp::FetchAdd(v) => AtomicOp::FetchAdd(n(v)),
            AtomicOp::CompareSwap { expected, new } => AtomicOp::CompareSwap {
                expected: n(expected),
                new: n(new),
            },
            AtomicOp::FetchAnd(v) => AtomicOp::FetchAnd(n(v)),
            AtomicOp::FetchOr(v) => AtomicOp::FetchOr(n(v)),
            AtomicOp::FetchXor(v) => AtomicOp::FetchXor(n(v)),
        };
        u64::from(s.x().atomic32(pe, off, op32)?)
    };
    Ok(T::of_bits(old))
}

/// Stores `v` at `fetch` (the fetching `_nbi` AMOs).
///
/// # Safety
/// `fetch` is valid for a write of a `T`.
unsafe fn store<T>(fetch: *mut T, v: T) -> Result<()> {
    if fetch.is_null() {
        return Err(crate::error::ShmemError::Null(
            "fetch",
            std::mem::size_of::<T>(),
        ));
    }
    // SAFETY: the caller's promise (non-null checked).
    unsafe { fetch.write(v) };
    Ok(())
}

/// Defines one AMO returning the old value: `$name(dest, [args], pe) -> T` with `op(args)`.
macro_rules! amo_fetching {
    ($t:ty; $name:ident ( $($a:ident),* ) => $op:expr) => {
        profiled! {
        /// A fetching atomic memory operation (OpenSHMEM 1.5 §9.7).
        pub extern "C" fn $name(dest: *mut $t, $($a: $t,)* pe: c_int) -> $t {
            entry(stringify!($name), |s| amo::<$t>(s, dest, $op, pe))
        }
        }
    };
}

/// Defines one AMO without a result.
macro_rules! amo_plain {
    ($t:ty; $name:ident ( $($a:ident),* ) => $op:expr) => {
        profiled! {
        /// A non-fetching atomic memory operation (OpenSHMEM 1.5 §9.7).
        pub extern "C" fn $name(dest: *mut $t, $($a: $t,)* pe: c_int) {
            entry(stringify!($name), |s| amo::<$t>(s, dest, $op, pe).map(|_| ()))
        }
        }
    };
}

/// Defines one fetching `_nbi` AMO (the old value is stored at `fetch`).
macro_rules! amo_nbi {
    ($t:ty; $name:ident ( $($a:ident),* ) => $op:expr) => {
        profiled! {
        /// A fetching non-blocking atomic memory operation (complete on return on one node).
        ///
        /// # Safety
        /// `fetch` is valid for a write of one element.
        pub unsafe extern "C" fn $name(fetch: *mut $t, dest: *mut $t, $($a: $t,)* pe: c_int) {
            entry(stringify!($name), |s| {
                let old = amo::<$t>(s, dest, $op, pe)?;
                // SAFETY: the caller's promise.
                unsafe { store(fetch, old) }
            })
        }
        }
    };
}

/// `atomic_fetch` takes a const source.
macro_rules! amo_fetch {
    ($t:ty; $name:ident) => {
        profiled! {
        /// `shmem_TYPE_atomic_fetch`: reads PE `pe`'s word atomically.
        pub extern "C" fn $name(source: *const $t, pe: c_int) -> $t {
            entry(stringify!($name), |s| {
                amo::<$t>(s, source, AtomicOp::Fetch, pe)
            })
        }
        }
    };
}

/// The extended AMOs of one type.
macro_rules! amo_ext {
    ($t:ty; $fetch:ident $set:ident $swap:ident $fetch_nbi:ident $swap_nbi:ident) => {
        amo_fetch!($t; $fetch);
        amo_plain!($t; $set(value) => AtomicOp::Set(value.bits()));
        amo_fetching!($t; $swap(value) => AtomicOp::Swap(value.bits()));
        profiled! {
        /// `shmem_TYPE_atomic_fetch_nbi`.
        ///
        /// # Safety
        /// `fetch` is valid for a write of one element.
        pub unsafe extern "C" fn $fetch_nbi(fetch: *mut $t, source: *const $t, pe: c_int) {
            entry(stringify!($fetch_nbi), |s| {
                let old = amo::<$t>(s, source, AtomicOp::Fetch, pe)?;
                // SAFETY: the caller's promise.
                unsafe { store(fetch, old) }
            })
        }
        }
        amo_nbi!($t; $swap_nbi(value) => AtomicOp::Swap(value.bits()));
    };
}

/// The standard AMOs of one type.
macro_rules! amo_std {
    ($t:ty; $finc:ident $inc:ident $fadd:ident $add:ident $cswap:ident $finc_nbi:ident $fadd_nbi:ident $cswap_nbi:ident) => {
        amo_fetching!($t; $finc() => AtomicOp::FetchAdd(1));
        amo_plain!($t; $inc() => AtomicOp::FetchAdd(1));
        amo_fetching!($t; $fadd(value) => AtomicOp::FetchAdd(value.bits()));
        amo_plain!($t; $add(value) => AtomicOp::FetchAdd(value.bits()));
        amo_fetching!($t; $cswap(cond, value) =>
            AtomicOp::CompareSwap { expected: cond.bits(), new: value.bits() });
        amo_nbi!($t; $finc_nbi() => AtomicOp::FetchAdd(1));
        amo_nbi!($t; $fadd_nbi(value) => AtomicOp::FetchAdd(value.bits()));
        amo_nbi!($t; $cswap_nbi(cond, value) =>
            AtomicOp::CompareSwap { expected: cond.bits(), new: value.bits() });
    };
}

/// The bitwise AMOs of one type.
macro_rules! amo_bit {
    ($t:ty; $fand:ident $and:ident $for:ident $or:ident $fxor:ident $xor:ident $fand_nbi:ident $for_nbi:ident $fxor_nbi:ident) => {
        amo_fetching!($t; $fand(value) => AtomicOp::FetchAnd(value.bits()));
        amo_plain!($t; $and(value) => AtomicOp::FetchAnd(value.bits()));
        amo_fetching!($t; $for(value) => AtomicOp::FetchOr(value.bits()));
        amo_plain!($t; $or(value) => AtomicOp::FetchOr(value.bits()));
        amo_fetching!($t; $fxor(value) => AtomicOp::FetchXor(value.bits()));
        amo_plain!($t; $xor(value) => AtomicOp::FetchXor(value.bits()));
        amo_nbi!($t; $fand_nbi(value) => AtomicOp::FetchAnd(value.bits()));
        amo_nbi!($t; $for_nbi(value) => AtomicOp::FetchOr(value.bits()));
        amo_nbi!($t; $fxor_nbi(value) => AtomicOp::FetchXor(value.bits()));
    };
}

/// The deprecated 1.3 names of one type (`finc`, `inc`, `fadd`, `add`, `cswap`).
macro_rules! amo_old_std {
    ($t:ty; $finc:ident $inc:ident $fadd:ident $add:ident $cswap:ident) => {
        amo_fetching!($t; $finc() => AtomicOp::FetchAdd(1));
        amo_plain!($t; $inc() => AtomicOp::FetchAdd(1));
        amo_fetching!($t; $fadd(value) => AtomicOp::FetchAdd(value.bits()));
        amo_plain!($t; $add(value) => AtomicOp::FetchAdd(value.bits()));
        amo_fetching!($t; $cswap(cond, value) =>
            AtomicOp::CompareSwap { expected: cond.bits(), new: value.bits() });
    };
}

/// The deprecated 1.3 names of the extended AMOs (`fetch`, `set`, `swap`).
macro_rules! amo_old_ext {
    ($t:ty; $fetch:ident $set:ident $swap:ident) => {
        amo_fetch!($t; $fetch);
        amo_plain!($t; $set(value) => AtomicOp::Set(value.bits()));
        amo_fetching!($t; $swap(value) => AtomicOp::Swap(value.bits()));
    };
}

include!("amo_types.rs");
