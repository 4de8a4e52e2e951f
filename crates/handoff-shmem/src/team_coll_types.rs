// The typed team collectives (OpenSHMEM 1.5 §9.9), one line per RMA type.
// Generated once by a script from the type table; keep in step with include/shmem.h.
team_coll_type!(f32; shmem_float_broadcast shmem_float_collect shmem_float_fcollect shmem_float_alltoall);
team_coll_type!(f64; shmem_double_broadcast shmem_double_collect shmem_double_fcollect shmem_double_alltoall);
team_coll_type!(LongDouble; shmem_longdouble_broadcast shmem_longdouble_collect shmem_longdouble_fcollect shmem_longdouble_alltoall);
team_coll_type!(std::ffi::c_char; shmem_char_broadcast shmem_char_collect shmem_char_fcollect shmem_char_alltoall);
team_coll_type!(i8; shmem_schar_broadcast shmem_schar_collect shmem_schar_fcollect shmem_schar_alltoall);
team_coll_type!(i16; shmem_short_broadcast shmem_short_collect shmem_short_fcollect shmem_short_alltoall);
team_coll_type!(i32; shmem_int_broadcast shmem_int_collect shmem_int_fcollect shmem_int_alltoall);
team_coll_type!(std::ffi::c_long; shmem_long_broadcast shmem_long_collect shmem_long_fcollect shmem_long_alltoall);
team_coll_type!(i64; shmem_longlong_broadcast shmem_longlong_collect shmem_longlong_fcollect shmem_longlong_alltoall);
team_coll_type!(u8; shmem_uchar_broadcast shmem_uchar_collect shmem_uchar_fcollect shmem_uchar_alltoall);
team_coll_type!(u16; shmem_ushort_broadcast shmem_ushort_collect shmem_ushort_fcollect shmem_ushort_alltoall);
team_coll_type!(u32; shmem_uint_broadcast shmem_uint_collect shmem_uint_fcollect shmem_uint_alltoall);
team_coll_type!(std::ffi::c_ulong; shmem_ulong_broadcast shmem_ulong_collect shmem_ulong_fcollect shmem_ulong_alltoall);
team_coll_type!(u64; shmem_ulonglong_broadcast shmem_ulonglong_collect shmem_ulonglong_fcollect shmem_ulonglong_alltoall);
team_coll_type!(i8; shmem_int8_broadcast shmem_int8_collect shmem_int8_fcollect shmem_int8_alltoall);
team_coll_type!(i16; shmem_int16_broadcast shmem_int16_collect shmem_int16_fcollect shmem_int16_alltoall);
team_coll_type!(i32; shmem_int32_broadcast shmem_int32_collect shmem_int32_fcollect shmem_int32_alltoall);
team_coll_type!(i64; shmem_int64_broadcast shmem_int64_collect shmem_int64_fcollect shmem_int64_alltoall);
team_coll_type!(u8; shmem_uint8_broadcast shmem_uint8_collect shmem_uint8_fcollect shmem_uint8_alltoall);
team_coll_type!(u16; shmem_uint16_broadcast shmem_uint16_collect shmem_uint16_fcollect shmem_uint16_alltoall);
team_coll_type!(u32; shmem_uint32_broadcast shmem_uint32_collect shmem_uint32_fcollect shmem_uint32_alltoall);
team_coll_type!(u64; shmem_uint64_broadcast shmem_uint64_collect shmem_uint64_fcollect shmem_uint64_alltoall);
team_coll_type!(usize; shmem_size_broadcast shmem_size_collect shmem_size_fcollect shmem_size_alltoall);
team_coll_type!(isize; shmem_ptrdiff_broadcast shmem_ptrdiff_collect shmem_ptrdiff_fcollect shmem_ptrdiff_alltoall);
