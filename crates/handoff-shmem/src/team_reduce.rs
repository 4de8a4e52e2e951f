//! The team reductions `shmem_TYPE_OP_reduce(team, ...)` (OpenSHMEM 1.5 §9.9.7): the
//! active-set reduction of [`crate::coll`] over a team's members ([`crate::teams`]). Apart
//! from both, so the collectives never import the teams that are built on them.

use std::ffi::c_int;

use crate::coll::{reduce, Complex, Op};
use crate::state::entry;
use crate::teams::{members, TeamHandle};

/// Defines `shmem_TYPE_OP_reduce(team, ...)` (1.5; `SHMEM_TEAM_WORLD` only).
macro_rules! team_reduce {
    ($t:ty, $op:expr; $name:ident) => {
        profiled! {
        /// Team reduction (`dest` may equal `source`); returns 0.
        ///
        /// # Safety
        /// `dest` is valid for writes of `nreduce` elements.
        pub unsafe extern "C" fn $name(
            team: TeamHandle,
            dest: *mut $t,
            source: *const $t,
            nreduce: usize,
        ) -> c_int {
            entry(stringify!($name), |s| {
                let set = members(s, team)?;
                // SAFETY: the caller's promise.
                unsafe { reduce(s, &set, dest, source, nreduce, $op) }?;
                Ok(0)
            })
        }
        }
    };
}

// One line per type and operator; keep in step with include/shmem.h.
team_reduce!(u8, Op::And; shmem_uchar_and_reduce);
team_reduce!(u16, Op::And; shmem_ushort_and_reduce);
team_reduce!(u32, Op::And; shmem_uint_and_reduce);
team_reduce!(u64, Op::And; shmem_ulong_and_reduce);
team_reduce!(u64, Op::And; shmem_ulonglong_and_reduce);
team_reduce!(i8, Op::And; shmem_int8_and_reduce);
team_reduce!(i16, Op::And; shmem_int16_and_reduce);
team_reduce!(i32, Op::And; shmem_int32_and_reduce);
team_reduce!(i64, Op::And; shmem_int64_and_reduce);
team_reduce!(u8, Op::And; shmem_uint8_and_reduce);
team_reduce!(u16, Op::And; shmem_uint16_and_reduce);
team_reduce!(u32, Op::And; shmem_uint32_and_reduce);
team_reduce!(u64, Op::And; shmem_uint64_and_reduce);
team_reduce!(usize, Op::And; shmem_size_and_reduce);
team_reduce!(u8, Op::Or; shmem_uchar_or_reduce);
team_reduce!(u16, Op::Or; shmem_ushort_or_reduce);
team_reduce!(u32, Op::Or; shmem_uint_or_reduce);
team_reduce!(u64, Op::Or; shmem_ulong_or_reduce);
team_reduce!(u64, Op::Or; shmem_ulonglong_or_reduce);
team_reduce!(i8, Op::Or; shmem_int8_or_reduce);
team_reduce!(i16, Op::Or; shmem_int16_or_reduce);
team_reduce!(i32, Op::Or; shmem_int32_or_reduce);
team_reduce!(i64, Op::Or; shmem_int64_or_reduce);
team_reduce!(u8, Op::Or; shmem_uint8_or_reduce);
team_reduce!(u16, Op::Or; shmem_uint16_or_reduce);
team_reduce!(u32, Op::Or; shmem_uint32_or_reduce);
team_reduce!(u64, Op::Or; shmem_uint64_or_reduce);
team_reduce!(usize, Op::Or; shmem_size_or_reduce);
team_reduce!(u8, Op::Xor; shmem_uchar_xor_reduce);
team_reduce!(u16, Op::Xor; shmem_ushort_xor_reduce);
team_reduce!(u32, Op::Xor; shmem_uint_xor_reduce);
team_reduce!(u64, Op::Xor; shmem_ulong_xor_reduce);
team_reduce!(u64, Op::Xor; shmem_ulonglong_xor_reduce);
team_reduce!(i8, Op::Xor; shmem_int8_xor_reduce);
team_reduce!(i16, Op::Xor; shmem_int16_xor_reduce);
team_reduce!(i32, Op::Xor; shmem_int32_xor_reduce);
team_reduce!(i64, Op::Xor; shmem_int64_xor_reduce);
team_reduce!(u8, Op::Xor; shmem_uint8_xor_reduce);
team_reduce!(u16, Op::Xor; shmem_uint16_xor_reduce);
team_reduce!(u32, Op::Xor; shmem_uint32_xor_reduce);
team_reduce!(u64, Op::Xor; shmem_uint64_xor_reduce);
team_reduce!(usize, Op::Xor; shmem_size_xor_reduce);
team_reduce!(i8, Op::Max; shmem_char_max_reduce);
team_reduce!(i8, Op::Max; shmem_schar_max_reduce);
team_reduce!(i16, Op::Max; shmem_short_max_reduce);
team_reduce!(i32, Op::Max; shmem_int_max_reduce);
team_reduce!(i64, Op::Max; shmem_long_max_reduce);
team_reduce!(i64, Op::Max; shmem_longlong_max_reduce);
team_reduce!(isize, Op::Max; shmem_ptrdiff_max_reduce);
team_reduce!(u8, Op::Max; shmem_uchar_max_reduce);
team_reduce!(u16, Op::Max; shmem_ushort_max_reduce);
team_reduce!(u32, Op::Max; shmem_uint_max_reduce);
team_reduce!(u64, Op::Max; shmem_ulong_max_reduce);
team_reduce!(u64, Op::Max; shmem_ulonglong_max_reduce);
team_reduce!(i8, Op::Max; shmem_int8_max_reduce);
team_reduce!(i16, Op::Max; shmem_int16_max_reduce);
team_reduce!(i32, Op::Max; shmem_int32_max_reduce);
team_reduce!(i64, Op::Max; shmem_int64_max_reduce);
team_reduce!(u8, Op::Max; shmem_uint8_max_reduce);
team_reduce!(u16, Op::Max; shmem_uint16_max_reduce);
team_reduce!(u32, Op::Max; shmem_uint32_max_reduce);
team_reduce!(u64, Op::Max; shmem_uint64_max_reduce);
team_reduce!(usize, Op::Max; shmem_size_max_reduce);
team_reduce!(f32, Op::Max; shmem_float_max_reduce);
team_reduce!(f64, Op::Max; shmem_double_max_reduce);
team_reduce!(i8, Op::Min; shmem_char_min_reduce);
team_reduce!(i8, Op::Min; shmem_schar_min_reduce);
team_reduce!(i16, Op::Min; shmem_short_min_reduce);
team_reduce!(i32, Op::Min; shmem_int_min_reduce);
team_reduce!(i64, Op::Min; shmem_long_min_reduce);
team_reduce!(i64, Op::Min; shmem_longlong_min_reduce);
team_reduce!(isize, Op::Min; shmem_ptrdiff_min_reduce);
team_reduce!(u8, Op::Min; shmem_uchar_min_reduce);
team_reduce!(u16, Op::Min; shmem_ushort_min_reduce);
team_reduce!(u32, Op::Min; shmem_uint_min_reduce);
team_reduce!(u64, Op::Min; shmem_ulong_min_reduce);
team_reduce!(u64, Op::Min; shmem_ulonglong_min_reduce);
team_reduce!(i8, Op::Min; shmem_int8_min_reduce);
team_reduce!(i16, Op::Min; shmem_int16_min_reduce);
team_reduce!(i32, Op::Min; shmem_int32_min_reduce);
team_reduce!(i64, Op::Min; shmem_int64_min_reduce);
team_reduce!(u8, Op::Min; shmem_uint8_min_reduce);
team_reduce!(u16, Op::Min; shmem_uint16_min_reduce);
team_reduce!(u32, Op::Min; shmem_uint32_min_reduce);
team_reduce!(u64, Op::Min; shmem_uint64_min_reduce);
team_reduce!(usize, Op::Min; shmem_size_min_reduce);
team_reduce!(f32, Op::Min; shmem_float_min_reduce);
team_reduce!(f64, Op::Min; shmem_double_min_reduce);
team_reduce!(i8, Op::Sum; shmem_char_sum_reduce);
team_reduce!(i8, Op::Sum; shmem_schar_sum_reduce);
team_reduce!(i16, Op::Sum; shmem_short_sum_reduce);
team_reduce!(i32, Op::Sum; shmem_int_sum_reduce);
team_reduce!(i64, Op::Sum; shmem_long_sum_reduce);
team_reduce!(i64, Op::Sum; shmem_longlong_sum_reduce);
team_reduce!(isize, Op::Sum; shmem_ptrdiff_sum_reduce);
team_reduce!(u8, Op::Sum; shmem_uchar_sum_reduce);
team_reduce!(u16, Op::Sum; shmem_ushort_sum_reduce);
team_reduce!(u32, Op::Sum; shmem_uint_sum_reduce);
team_reduce!(u64, Op::Sum; shmem_ulong_sum_reduce);
team_reduce!(u64, Op::Sum; shmem_ulonglong_sum_reduce);
team_reduce!(i8, Op::Sum; shmem_int8_sum_reduce);
team_reduce!(i16, Op::Sum; shmem_int16_sum_reduce);
team_reduce!(i32, Op::Sum; shmem_int32_sum_reduce);
team_reduce!(i64, Op::Sum; shmem_int64_sum_reduce);
team_reduce!(u8, Op::Sum; shmem_uint8_sum_reduce);
team_reduce!(u16, Op::Sum; shmem_uint16_sum_reduce);
team_reduce!(u32, Op::Sum; shmem_uint32_sum_reduce);
team_reduce!(u64, Op::Sum; shmem_uint64_sum_reduce);
team_reduce!(usize, Op::Sum; shmem_size_sum_reduce);
team_reduce!(f32, Op::Sum; shmem_float_sum_reduce);
team_reduce!(f64, Op::Sum; shmem_double_sum_reduce);
team_reduce!(i8, Op::Prod; shmem_char_prod_reduce);
team_reduce!(i8, Op::Prod; shmem_schar_prod_reduce);
team_reduce!(i16, Op::Prod; shmem_short_prod_reduce);
team_reduce!(i32, Op::Prod; shmem_int_prod_reduce);
team_reduce!(i64, Op::Prod; shmem_long_prod_reduce);
team_reduce!(i64, Op::Prod; shmem_longlong_prod_reduce);
team_reduce!(isize, Op::Prod; shmem_ptrdiff_prod_reduce);
team_reduce!(u8, Op::Prod; shmem_uchar_prod_reduce);
team_reduce!(u16, Op::Prod; shmem_ushort_prod_reduce);
team_reduce!(u32, Op::Prod; shmem_uint_prod_reduce);
team_reduce!(u64, Op::Prod; shmem_ulong_prod_reduce);
team_reduce!(u64, Op::Prod; shmem_ulonglong_prod_reduce);
team_reduce!(i8, Op::Prod; shmem_int8_prod_reduce);
team_reduce!(i16, Op::Prod; shmem_int16_prod_reduce);
team_reduce!(i32, Op::Prod; shmem_int32_prod_reduce);
team_reduce!(i64, Op::Prod; shmem_int64_prod_reduce);
team_reduce!(u8, Op::Prod; shmem_uint8_prod_reduce);
team_reduce!(u16, Op::Prod; shmem_uint16_prod_reduce);
team_reduce!(u32, Op::Prod; shmem_uint32_prod_reduce);
team_reduce!(u64, Op::Prod; shmem_uint64_prod_reduce);
team_reduce!(usize, Op::Prod; shmem_size_prod_reduce);
team_reduce!(f32, Op::Prod; shmem_float_prod_reduce);
team_reduce!(f64, Op::Prod; shmem_double_prod_reduce);
team_reduce!(Complex<f32>, Op::Sum; shmem_complexf_sum_reduce);
team_reduce!(Complex<f32>, Op::Prod; shmem_complexf_prod_reduce);
team_reduce!(Complex<f64>, Op::Sum; shmem_complexd_sum_reduce);
team_reduce!(Complex<f64>, Op::Prod; shmem_complexd_prod_reduce);
team_reduce!(i16, Op::And; shmem_short_and_reduce);
team_reduce!(i32, Op::And; shmem_int_and_reduce);
team_reduce!(i64, Op::And; shmem_long_and_reduce);
team_reduce!(i64, Op::And; shmem_longlong_and_reduce);
team_reduce!(i16, Op::Or; shmem_short_or_reduce);
team_reduce!(i32, Op::Or; shmem_int_or_reduce);
team_reduce!(i64, Op::Or; shmem_long_or_reduce);
team_reduce!(i64, Op::Or; shmem_longlong_or_reduce);
team_reduce!(i16, Op::Xor; shmem_short_xor_reduce);
team_reduce!(i32, Op::Xor; shmem_int_xor_reduce);
team_reduce!(i64, Op::Xor; shmem_long_xor_reduce);
team_reduce!(i64, Op::Xor; shmem_longlong_xor_reduce);
