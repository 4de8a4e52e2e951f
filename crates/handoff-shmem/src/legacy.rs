//! Deprecated names still found in old programs: the untyped `shmem_swap`, `shmem_wait`,
//! `shmem_wait_until` (the `long` forms of OpenSHMEM 1.0), and the cache-management calls
//! deprecated in 1.3, which have no effect here (the PEs share one coherent mapping).

use std::ffi::{c_int, c_long, c_void};

profiled! {
/// `shmem_swap` (1.0): `shmem_long_swap`.
pub extern "C" fn shmem_swap(dest: *mut c_long, value: c_long, pe: c_int) -> c_long {
    crate::amo::shmem_long_swap(dest.cast(), value, pe)
}
}

profiled! {
/// `shmem_wait` (1.0): `shmem_long_wait`.
pub extern "C" fn shmem_wait(ivar: *mut c_long, value: c_long) {
    crate::wait::shmem_long_wait(ivar.cast(), value)
}
}

profiled! {
/// `shmem_wait_until` (1.0): `shmem_long_wait_until` (the C11 generic name of shmem.h
/// selects by type instead; this symbol serves programs compiled without it).
pub extern "C" fn shmem_wait_until(ivar: *mut c_long, cmp: c_int, value: c_long) {
    crate::wait::shmem_long_wait_until(ivar.cast(), cmp, value)
}
}

profiled! {
/// Deprecated cache call: no effect.
pub extern "C" fn shmem_clear_cache_inv() {}
}

profiled! {
/// Deprecated cache call: no effect.
pub extern "C" fn shmem_set_cache_inv() {}
}

profiled! {
/// Deprecated cache call: no effect.
pub extern "C" fn shmem_clear_cache_line_inv(_dest: *mut c_void) {}
}

profiled! {
/// Deprecated cache call: no effect.
pub extern "C" fn shmem_set_cache_line_inv(_dest: *mut c_void) {}
}

profiled! {
/// Deprecated cache call: no effect.
pub extern "C" fn shmem_udcflush() {}
}

profiled! {
/// Deprecated cache call: no effect.
pub extern "C" fn shmem_udcflush_line(_dest: *mut c_void) {}
}
