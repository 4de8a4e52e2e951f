//! Element-wise atomic accumulates (`MPI_Accumulate`, `MPI_Get_accumulate`) on arrays of
//! `i32`, `i64`, `u32`, `u64`, `f32` and `f64` in a PE's symmetric heap.
//!
//! # Atomicity
//!
//! Each *element* is updated atomically with respect to every other accumulate and remote
//! atomic on the same element from any PE (MPI's "same op, same basic type" rule, and more:
//! different ops may be mixed). An array is not updated as one unit: another PE may see
//! some elements updated and others not until the accumulate returns. Plain puts racing
//! with accumulates on the same element are a data race, as in MPI.
//!
//! # How
//!
//! Where the hardware has the operation (x86 `lock xadd`, `xchg`, `lock and/or/xor`):
//! integer `Sum`, `Replace`, `NoOp` (a read) and the bitwise ops are one hardware RMW per
//! element — never a lock (Open MPI's osc/sm takes a per-target spinlock around every
//! accumulate). The others — `Prod`, `Min`, `Max` on integers, and every arithmetic op on
//! floats — are a compare-and-swap loop on the element's bits: read, combine, CAS, retry
//! with the value the CAS saw. The loop is lock-free (some PE's CAS always succeeds) but
//! not wait-free. Floats combine in IEEE arithmetic of their width; `Min`/`Max` follow
//! `f64::min`/`max` (a NaN operand yields the other value).

#![cfg_attr(loom, allow(dead_code))] // the team that calls these is not built under loom

use bytemuck::Pod;

/// An accumulate operation (`MPI_Op`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccOp {
    /// `MPI_SUM` (integers wrap).
    Sum,
    /// `MPI_PROD` (integers wrap).
    Prod,
    /// `MPI_MIN`.
    Min,
    /// `MPI_MAX`.
    Max,
    /// `MPI_REPLACE`: store the operand.
    Replace,
    /// `MPI_NO_OP`: leave the element (with `get_accumulate`: an atomic read).
    NoOp,
    /// `MPI_BAND` (integers only).
    BitAnd,
    /// `MPI_BOR` (integers only).
    BitOr,
    /// `MPI_BXOR` (integers only).
    BitXor,
}

/// An element type accumulates work on (sealed): `i32`, `i64`, `u32`, `u64`, `f32`, `f64`.
pub trait AccElem: Pod + PartialEq + std::fmt::Debug + sealed::Sealed {
    /// The type's name, for errors.
    const NAME: &'static str;
    /// 8 (64-bit) or 4 (32-bit).
    const BYTES: usize;
    /// The bits, zero-extended.
    fn to_bits(self) -> u64;
    /// From the low bits.
    fn from_bits(bits: u64) -> Self;
    /// `old op operand`, or `None` if the type has no such op.
    fn combine(op: AccOp, old: Self, operand: Self) -> Option<Self>;
    /// Whether `op` is one hardware RMW for this type.
    fn hardware(op: AccOp) -> bool;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for i32 {}
    impl Sealed for i64 {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

macro_rules! int_elem {
    ($t:ty, $bytes:expr, $unsigned:ty) => {
        impl AccElem for $t {
            const NAME: &'static str = stringify!($t);
            const BYTES: usize = $bytes;
            fn to_bits(self) -> u64 {
                self as $unsigned as u64
            }
            fn from_bits(bits: u64) -> Self {
                bits as $unsigned as $t
            }
            fn combine(op: AccOp, old: Self, v: Self) -> Option<Self> {
                Some(match op {
                    AccOp::Sum => old.wrapping_add(v),
                    AccOp::Prod => old.wrapping_mul(v),
                    AccOp::Min => old.min(v),
                    AccOp::Max => old.max(v),
                    AccOp::Replace => v,
                    AccOp::NoOp => old,
                    AccOp::BitAnd => old & v,
                    AccOp::BitOr => old | v,
                    AccOp::BitXor => old ^ v,
                })
            }
            fn hardware(op: AccOp) -> bool {
                !matches!(op, AccOp::Prod | AccOp::Min | AccOp::Max)
            }
        }
    };
}
int_elem!(i32, 4, u32);
int_elem!(u32, 4, u32);
int_elem!(i64, 8, u64);
int_elem!(u64, 8, u64);

macro_rules! float_elem {
    ($t:ty, $bytes:expr, $bits:ty) => {
        impl AccElem for $t {
            const NAME: &'static str = stringify!($t);
            const BYTES: usize = $bytes;
            fn to_bits(self) -> u64 {
                u64::from(<$t>::to_bits(self))
            }
            fn from_bits(bits: u64) -> Self {
                <$t>::from_bits(bits as $bits)
            }
            fn combine(op: AccOp, old: Self, v: Self) -> Option<Self> {
                Some(match op {
                    AccOp::Sum => old + v,
                    AccOp::Prod => old * v,
                    AccOp::Min => old.min(v),
                    AccOp::Max => old.max(v),
                    AccOp::Replace => v,
                    AccOp::NoOp => old,
                    AccOp::BitAnd | AccOp::BitOr | AccOp::BitXor => return None,
                })
            }
            fn hardware(op: AccOp) -> bool {
                matches!(op, AccOp::Replace | AccOp::NoOp)
            }
        }
    };
}
float_elem!(f32, 4, u32);
float_elem!(f64, 8, u64);

/// The hardware RMW for `op` with operand bits `v` (only where [`AccElem::hardware`]).
pub(crate) fn hardware_op(op: AccOp, v: u64) -> crate::team::AtomicOp<u64> {
    use crate::team::AtomicOp as A;
    match op {
        AccOp::Sum => A::FetchAdd(v),
        AccOp::Replace => A::Swap(v),
        AccOp::BitAnd => A::FetchAnd(v),
        AccOp::BitOr => A::FetchOr(v),
        AccOp::BitXor => A::FetchXor(v),
        AccOp::NoOp | AccOp::Prod | AccOp::Min | AccOp::Max => A::Fetch,
    }
}

#[cfg(not(loom))]
mod imp {
    use std::marker::PhantomData;

    use super::{hardware_op, AccElem, AccOp};
    use crate::team::{AtomicOp, Sym, Team, TeamError, Transport};

    impl<X: Transport> Team<X> {
        /// `MPI_Accumulate`: `dst[offset + i] = dst[offset + i] op src[i]` on PE `pe`, each
        /// element atomically (module docs of `epoch::accumulate`: atomicity, CAS loops).
        pub fn accumulate<T: AccElem>(
            &self,
            dst: &Sym<T>,
            offset: usize,
            src: &[T],
            op: AccOp,
            pe: usize,
        ) -> Result<(), TeamError> {
            self.check_acc("accumulate", dst, offset, src.len(), op, pe)?;
            for (i, &v) in src.iter().enumerate() {
                self.acc_one(dst, offset + i, v, op, pe)?;
            }
            Ok(())
        }

        /// `MPI_Get_accumulate`: as [`accumulate`](Self::accumulate), and each element's
        /// value before its update goes to `result[i]` (with [`AccOp::NoOp`]: an atomic
        /// read of every element).
        pub fn get_accumulate<T: AccElem>(
            &self,
            dst: &Sym<T>,
            offset: usize,
            src: &[T],
            result: &mut [T],
            op: AccOp,
            pe: usize,
        ) -> Result<(), TeamError> {
            if result.len() != src.len() {
                return Err(TeamError::Length {
                    op: "get_accumulate",
                    src: src.len(),
                    result: result.len(),
                });
            }
            self.check_acc("get_accumulate", dst, offset, src.len(), op, pe)?;
            for (i, (&v, r)) in src.iter().zip(result.iter_mut()).enumerate() {
                *r = self.acc_one(dst, offset + i, v, op, pe)?;
            }
            Ok(())
        }

        fn check_acc<T: AccElem>(
            &self,
            name: &'static str,
            dst: &Sym<T>,
            offset: usize,
            n: usize,
            op: AccOp,
            pe: usize,
        ) -> Result<(), TeamError> {
            if T::combine(op, T::from_bits(0), T::from_bits(0)).is_none() {
                return Err(TeamError::UndefinedOp {
                    op: name,
                    acc: op,
                    ty: T::NAME,
                });
            }
            if pe >= self.size() {
                return Err(TeamError::NoSuchPe {
                    pe,
                    size: self.size(),
                });
            }
            crate::team::api::byte_offset(dst, offset, n, name)?;
            Ok(())
        }

        /// One element: the hardware RMW, or a CAS loop; returns the value before.
        fn acc_one<T: AccElem>(
            &self,
            dst: &Sym<T>,
            index: usize,
            v: T,
            op: AccOp,
            pe: usize,
        ) -> Result<T, TeamError> {
            let rmw = |a: AtomicOp<u64>| -> Result<u64, TeamError> {
                if T::BYTES == 8 {
                    self.atomic(recast::<T, u64>(dst).at(index), a, pe)
                } else {
                    let n = |w: u64| w as u32;
                    let a32 = match a {
                        AtomicOp::CompareSwap { expected, new } => AtomicOp::CompareSwap {
                            expected: n(expected),
                            new: n(new),
                        },
                        AtomicOp::FetchAdd(w) => AtomicOp::FetchAdd(n(w)),
                        AtomicOp::Swap(w) => AtomicOp::Swap(n(w)),
                        AtomicOp::Set(w) => AtomicOp::Set(n(w)),
                        AtomicOp::FetchAnd(w) => AtomicOp::FetchAnd(n(w)),
                        AtomicOp::FetchOr(w) => AtomicOp::FetchOr(n(w)),
                        AtomicOp::FetchXor(w) => AtomicOp::FetchXor(n(w)),
                        AtomicOp::Fetch => AtomicOp::Fetch,
                    };
                    self.atomic(recast::<T, u32>(dst).at(index), a32, pe)
                        .map(u64::from)
                }
            };
            if T::hardware(op) {
                return Ok(T::from_bits(rmw(hardware_op(op, v.to_bits()))?));
            }
            let mut old = rmw(AtomicOp::Fetch)?;
            loop {
                let new = T::combine(op, T::from_bits(old), v)
                    .unwrap_or_else(|| T::from_bits(old))
                    .to_bits();
                let seen = rmw(AtomicOp::CompareSwap { expected: old, new })?;
                if seen == old {
                    return Ok(T::from_bits(old));
                }
                old = seen;
            }
        }
    }

    /// The same object seen as words of the same width (`T::BYTES` == size of `W`).
    fn recast<T, W>(s: &Sym<T>) -> Sym<W> {
        Sym {
            offset: s.offset,
            len: s.len,
            _t: PhantomData,
        }
    }
}
