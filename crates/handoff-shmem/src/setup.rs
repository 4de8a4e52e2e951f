//! Library setup, query and memory management: `shmem_init`/`finalize`/`global_exit`,
//! `my_pe`/`n_pes`/`info`, `shmem_malloc`/`calloc`/`align`/`realloc`/`free`, `shmem_ptr`,
//! `addr_accessible`/`pe_accessible`, and the deprecated names (`start_pes`, `_my_pe`,
//! `shmalloc`, ...) older programs still call.

use std::ffi::{c_char, c_int, c_long, c_void};
use std::sync::atomic::{AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use handoff::team::{Team, Transport};

use crate::net::Net;

use crate::env;
use crate::error::{Result, ShmemError};
use crate::heap::{Allocator, MIN_ALIGN};
use crate::state::{self, entry, entry_bare, kind, State, INTERNAL};
use crate::symdata::{self, DataMap};

/// `SHMEM_THREAD_SINGLE` and `SHMEM_THREAD_MULTIPLE` (shmem.h).
const THREAD_SINGLE: c_int = 0;
const THREAD_MULTIPLE: c_int = 3;
/// The level `shmem_query_thread` reports: what `shmem_init_thread` granted; after
/// `shmem_init`, the transport's highest (`SHMEM_THREAD_MULTIPLE` on shared memory: every
/// call is thread-safe anyway).
static THREAD_LEVEL: AtomicI32 = AtomicI32::new(THREAD_MULTIPLE);

/// The highest thread level the transport joined at `shmem_init` supports
/// ([`Net::max_thread_level`]).
static MAX_THREAD_LEVEL: AtomicI32 = AtomicI32::new(THREAD_MULTIPLE);

/// `shmem_init` and `shmem_init_thread(requested)`: `requested` (a level) is what MPI is
/// asked for (no more: above `MPI_THREAD_SINGLE` Open MPI's blocking calls take a lock).
fn init(requested: c_int) -> Result<()> {
    if state::initialized() {
        return Ok(()); // a second shmem_init has no effect
    }
    let data = symdata::find();
    let data_len = DataMap::bytes(&data);
    // `handoff run` sized the heap (static data included); an MPI launcher did not.
    let team = Team::new(Net::join(|| env::mpi_heap(data_len), requested)?);
    // Every PE has joined before any PE goes on (as `Team::from_env` does).
    team.barrier_all()?;
    let max = team.transport().max_thread_level();
    MAX_THREAD_LEVEL.store(max, Ordering::Relaxed);
    THREAD_LEVEL.store(max, Ordering::Relaxed);
    let (rank, npes) = (team.rank(), team.size());
    env::check_heap(team.heap_len())?;
    let page = handoff::sys::page_size();
    // The whole free heap, less the team's alignment padding, becomes this layer's region:
    // the internal block, the program's static data (from the next page), then the
    // allocator's blocks.
    let region = team.heap_free().saturating_sub(MIN_ALIGN * 2) / MIN_ALIGN * MIN_ALIGN;
    let need = INTERNAL + page + data_len + MIN_ALIGN;
    if region < need {
        return Err(ShmemError::Invalid(format!(
            "the symmetric heap ({} bytes per PE) is too small: the program's static data \
             takes {data_len} bytes of it and the heap needs {need} bytes at least; start \
             with a larger heap (`handoff run --heap SIZE` or SHMEM_SYMMETRIC_SIZE)",
            team.heap_len()
        )));
    }
    let sym = team.alloc::<u8>(region)?;
    let internal = sym.heap_offset();
    let seg_heap = team.transport().local_heap();
    if !(seg_heap as usize).is_multiple_of(page) {
        return Err(ShmemError::Invalid(format!(
            "the heap partition at {seg_heap:p} is not page aligned (a team segment layout \
             this library does not know)"
        )));
    }
    let align = team.heap_len().next_power_of_two().clamp(page, 1 << 30);
    let heap = team.transport().local_view_aligned(align)?;
    let data_off = (internal + INTERNAL).next_multiple_of(page);
    let alloc_base = data_off + data_len;
    let st = State {
        rank,
        npes,
        heap,
        seg_heap,
        data: DataMap::default(),
        heap_len: team.heap_len(),
        internal,
        alloc: Mutex::new(Allocator::new(alloc_base, internal + region - alloc_base)),
        agreements: AtomicU64::new(0),
        any_start: AtomicUsize::new(0),
        counters: Mutex::new(Vec::new()),
        team,
    };
    // Every PE must lay its heap out alike: the same static data size (the same program).
    st.agree(kind::DATA, data_len as u64)?;
    // SAFETY: shmem_init runs before the program starts threads (documented in the crate
    // README and `symdata`); `seg_heap` is our partition in the segment and
    // `data_off..alloc_base` lies in the region allocated above.
    let data = unsafe { DataMap::install(st.x(), seg_heap, data, data_off)? };
    let st = State { data, ..st };
    // Nobody may put into our static data before it moved: this barrier orders every PE's
    // move before any PE returns from shmem_init.
    st.team.barrier_all()?;
    env::report_at_init(&st);
    state::install(st);
    Ok(())
}

profiled! {
/// `shmem_init`: joins the team the launcher started (`handoff run`, or in an MPI build an
/// MPI launcher: [`Net::join`]).
pub extern "C" fn shmem_init() {
    entry_bare("shmem_init", || init(THREAD_SINGLE))
}
}

profiled! {
/// `shmem_init_thread`: as `shmem_init`; provides the level requested, up to
/// `SHMEM_THREAD_MULTIPLE` on shared memory (the state is shared by the PE's threads, see
/// `state.rs`) and on MPI what MPI granted when asked for the same level
/// ([`Net::max_thread_level`]).
///
/// # Safety
/// `provided` is NULL or valid for a write of an int.
pub unsafe extern "C" fn shmem_init_thread(requested: c_int, provided: *mut c_int) -> c_int {
    entry_bare("shmem_init_thread", || init(requested));
    let level = requested.clamp(THREAD_SINGLE, MAX_THREAD_LEVEL.load(Ordering::Relaxed));
    THREAD_LEVEL.store(level, Ordering::Relaxed);
    if !provided.is_null() {
        // SAFETY: the caller's promise (non-null checked).
        unsafe { *provided = level };
    }
    0
}
}

profiled! {
/// `shmem_query_thread`.
///
/// # Safety
/// `provided` is valid for a write of an int.
pub unsafe extern "C" fn shmem_query_thread(provided: *mut c_int) {
    entry("shmem_query_thread", |_| {
        if provided.is_null() {
            return Err(ShmemError::Null("provided", 4));
        }
        // SAFETY: the caller's promise (non-null checked).
        unsafe { *provided = THREAD_LEVEL.load(Ordering::Relaxed) };
        Ok(())
    })
}
}

profiled! {
/// `shmem_finalize`: a barrier over all PEs, then leaves the team normally. Before
/// `shmem_init` it is an error (OpenSHMEM 1.5, "Execution Model": every PE calls
/// `shmem_init` before any other routine); a second call after a finalize does nothing.
pub extern "C" fn shmem_finalize() {
    entry_bare("shmem_finalize", || match state::take() {
        Some(st) => Ok(st.team.finalize()?),
        None if !state::finalized() => Err(ShmemError::NotInitialized),
        None => Ok(()),
    })
}
}

profiled! {
/// `shmem_global_exit`: ends every PE of the program; the launcher (`handoff run`) exits
/// with `status`. The other PEs are stopped where they are, without an error line. On MPI
/// it is `MPI_Abort` with `status` (the MPI launcher prints its own line).
pub extern "C" fn shmem_global_exit(status: c_int) {
    if let Some(st) = state::take() {
        st.x().global_exit(status);
        // The transport no longer marks this PE as gone in error on drop.
        drop(st);
    }
    // exit (not _exit): the program's stdio buffers are flushed, as a normal exit does.
    std::process::exit(status)
}
}

profiled! {
/// `shmem_my_pe`.
pub extern "C" fn shmem_my_pe() -> c_int {
    entry("shmem_my_pe", |s| Ok(s.rank as c_int))
}
}

profiled! {
/// `shmem_n_pes`.
pub extern "C" fn shmem_n_pes() -> c_int {
    entry("shmem_n_pes", |s| Ok(s.npes as c_int))
}
}

profiled! {
/// `shmem_pe_accessible`: 1 for every PE of the team.
pub extern "C" fn shmem_pe_accessible(pe: c_int) -> c_int {
    entry("shmem_pe_accessible", |s| Ok(c_int::from(s.pe(pe).is_ok())))
}
}

profiled! {
/// `shmem_addr_accessible`: 1 if `addr` is in the symmetric heap and `pe` exists.
pub extern "C" fn shmem_addr_accessible(addr: *const c_void, pe: c_int) -> c_int {
    entry("shmem_addr_accessible", |s| {
        Ok(c_int::from(
            s.pe(pe).is_ok() && s.offset(addr.cast(), 1, "addr").is_ok(),
        ))
    })
}
}

profiled! {
/// `shmem_ptr`: the address of symmetric object `dest` of PE `pe` in this process (all PEs
/// of a team share one mapping), or NULL if `dest` is not symmetric.
pub extern "C" fn shmem_ptr(dest: *const c_void, pe: c_int) -> *mut c_void {
    entry("shmem_ptr", |s| {
        let pe = s.pe(pe)?;
        let Ok(off) = s.offset(dest.cast(), 1, "dest") else {
            return Ok(std::ptr::null_mut());
        };
        // The team maps every PE's partition (`Team::peer_atomic`'s address): `off` is the
        // object's place in any partition, static data included (moved into the heap).
        Ok(match s.x().peer_heap(pe) {
            _ if pe == s.rank => dest.cast_mut(),
            Some(base) => base.wrapping_add(off).cast(),
            None => std::ptr::null_mut(),
        })
    })
}
}

profiled! {
/// `shmem_info_get_version`.
///
/// # Safety
/// Both pointers are valid for a write of an int.
pub unsafe extern "C" fn shmem_info_get_version(major: *mut c_int, minor: *mut c_int) {
    if !major.is_null() && !minor.is_null() {
        // SAFETY: the caller's promise (non-null checked).
        unsafe {
            *major = 1;
            *minor = 5;
        }
    }
}
}

profiled! {
/// `shmem_info_get_name`: the vendor string (at most `SHMEM_MAX_NAME_LEN` bytes with NUL).
///
/// # Safety
/// `name` is valid for a write of `SHMEM_MAX_NAME_LEN` (256) bytes.
pub unsafe extern "C" fn shmem_info_get_name(name: *mut c_char) {
    const VENDOR: &[u8] = b"handoff OpenSHMEM (handoff-shmem)\0";
    if !name.is_null() {
        // SAFETY: the caller's promise; VENDOR is shorter than 256 bytes.
        unsafe { std::ptr::copy_nonoverlapping(VENDOR.as_ptr().cast(), name, VENDOR.len()) };
    }
}
}

/// NULL for an allocation the heap has no room for; with `SHMEM_DEBUG` the PE says why.
fn no_room(s: &State, why: &ShmemError) -> *mut c_void {
    if env::flag(env::DEBUG) {
        state::write_line(&format!(
            "handoff-shmem: PE {}: debug: an allocation returns NULL: {why}\n",
            s.rank
        ));
    }
    std::ptr::null_mut()
}

fn malloc(s: &State, size: usize, align: usize, zero: bool) -> Result<*mut c_void> {
    s.agree(
        kind::MALLOC | u64::from(align.trailing_zeros()) << 8,
        size as u64,
    )?;
    if size == 0 {
        return Ok(std::ptr::null_mut());
    }
    let off = match crate::state::lock(&s.alloc).alloc(size, align) {
        Ok(off) => off,
        // No room (1.5 §9.3.1: "otherwise, it returns a null pointer"): every PE's allocator
        // made the same calls, so every PE finds none and returns NULL.
        Err(e @ (ShmemError::HeapExhausted { .. } | ShmemError::Overflow(_))) => {
            return Ok(no_room(s, &e))
        }
        Err(e) => return Err(e),
    };
    // SAFETY: the allocator's block lies in the local partition (its region is inside it).
    let p = unsafe { s.heap.add(off) };
    if zero {
        // SAFETY: as above; no other PE writes the block before the barrier below (it did
        // not exist for them before this call).
        unsafe { std::ptr::write_bytes(p, 0, size) };
        s.team.barrier_all()?;
    }
    Ok(p.cast())
}

profiled! {
/// `shmem_malloc`: collective; the same `size` on every PE.
pub extern "C" fn shmem_malloc(size: usize) -> *mut c_void {
    entry("shmem_malloc", |s| malloc(s, size, MIN_ALIGN, false))
}
}

profiled! {
/// `shmem_malloc_with_hints` (1.5): as `shmem_malloc`; the hints change nothing on one node.
pub extern "C" fn shmem_malloc_with_hints(size: usize, _hints: c_long) -> *mut c_void {
    entry("shmem_malloc_with_hints", |s| {
        malloc(s, size, MIN_ALIGN, false)
    })
}
}

profiled! {
/// `shmem_calloc`: collective; zero-filled.
pub extern "C" fn shmem_calloc(count: usize, size: usize) -> *mut c_void {
    entry("shmem_calloc", |s| {
        // count * size bytes do not exist: NULL, as for any size that does not fit.
        let bytes = count.saturating_mul(size);
        malloc(s, bytes, MIN_ALIGN, true)
    })
}
}

profiled! {
/// `shmem_align`: collective; `alignment` a power of two.
pub extern "C" fn shmem_align(alignment: usize, size: usize) -> *mut c_void {
    entry("shmem_align", |s| {
        if !alignment.is_power_of_two() {
            return Err(ShmemError::BadAlignment(alignment));
        }
        malloc(s, size, alignment, false)
    })
}
}

fn free(s: &State, ptr: *mut c_void) -> Result<()> {
    if ptr.is_null() {
        return s.agree(kind::FREE, u64::MAX);
    }
    let off = (ptr as usize).wrapping_sub(s.heap as usize);
    let known = off < s.heap_len && crate::state::lock(&s.alloc).block(off).is_some();
    if !known {
        return Err(ShmemError::NotAllocated(ptr as usize));
    }
    // The agreement's barrier also keeps the block alive until every PE stopped using it.
    s.agree(kind::FREE, off as u64)?;
    crate::state::lock(&s.alloc).free(off);
    Ok(())
}

profiled! {
/// `shmem_free`: collective; a barrier, then the block is free on every PE.
pub extern "C" fn shmem_free(ptr: *mut c_void) {
    entry("shmem_free", |s| free(s, ptr))
}
}

profiled! {
/// `shmem_realloc`: collective; keeps the first `min(old, size)` bytes.
pub extern "C" fn shmem_realloc(ptr: *mut c_void, size: usize) -> *mut c_void {
    entry("shmem_realloc", |s| {
        if ptr.is_null() {
            return malloc(s, size, MIN_ALIGN, false);
        }
        let off = (ptr as usize).wrapping_sub(s.heap as usize);
        let old = crate::state::lock(&s.alloc)
            .block(off)
            .filter(|_| off < s.heap_len)
            .ok_or(ShmemError::NotAllocated(ptr as usize))?;
        s.agree(kind::REALLOC, size as u64)?;
        if size == 0 {
            crate::state::lock(&s.alloc).free(off);
            return Ok(std::ptr::null_mut());
        }
        let new = match crate::state::lock(&s.alloc).alloc(size, MIN_ALIGN) {
            Ok(new) => new,
            // No room: NULL, and the block `ptr` is left as it was (1.5 §9.3.4); every PE
            // agrees, as in `malloc`.
            Err(e @ (ShmemError::HeapExhausted { .. } | ShmemError::Overflow(_))) => {
                return Ok(no_room(s, &e))
            }
            Err(e) => return Err(e),
        };
        // SAFETY: both blocks lie in the local partition and are distinct live blocks.
        unsafe { std::ptr::copy_nonoverlapping(s.heap.add(off), s.heap.add(new), old.min(size)) };
        crate::state::lock(&s.alloc).free(off);
        // No PE may put into the new block before its owner copied into it.
        s.team.barrier_all()?;
        // SAFETY: the block lies in the local partition.
        Ok(unsafe { s.heap.add(new) }.cast())
    })
}
}

// ---- deprecated names (OpenSHMEM 1.0 - 1.3) that older programs still call -------------

profiled! {
/// `start_pes` (deprecated `shmem_init`).
pub extern "C" fn start_pes(_npes: c_int) {
    entry_bare("start_pes", || init(THREAD_SINGLE))
}
}

profiled! {
/// `_my_pe` (deprecated `shmem_my_pe`).
pub extern "C" fn _my_pe() -> c_int {
    entry("_my_pe", |s| Ok(s.rank as c_int))
}
}

profiled! {
/// `_num_pes` (deprecated `shmem_n_pes`).
pub extern "C" fn _num_pes() -> c_int {
    entry("_num_pes", |s| Ok(s.npes as c_int))
}
}

profiled! {
/// `shmalloc` (deprecated `shmem_malloc`).
pub extern "C" fn shmalloc(size: usize) -> *mut c_void {
    entry("shmalloc", |s| malloc(s, size, MIN_ALIGN, false))
}
}

profiled! {
/// `shfree` (deprecated `shmem_free`).
pub extern "C" fn shfree(ptr: *mut c_void) {
    entry("shfree", |s| free(s, ptr))
}
}

profiled! {
/// `shmemalign` (deprecated `shmem_align`).
pub extern "C" fn shmemalign(alignment: usize, size: usize) -> *mut c_void {
    shmem_align(alignment, size)
}
}

profiled! {
/// `shrealloc` (deprecated `shmem_realloc`).
pub extern "C" fn shrealloc(ptr: *mut c_void, size: usize) -> *mut c_void {
    shmem_realloc(ptr, size)
}
}

profiled! {
/// The heap bytes this PE's program has allocated (`shmemx_heap_used`, an extension).
pub extern "C" fn shmemx_heap_used() -> c_long {
    entry("shmemx_heap_used", |s| {
        Ok(crate::state::lock(&s.alloc).used() as c_long)
    })
}
}
