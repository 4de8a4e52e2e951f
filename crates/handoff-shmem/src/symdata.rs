//! Symmetric static data: every global and static variable of the executable (its writable
//! data and bss) is a symmetric object, as OpenSHMEM 1.5 §3 requires.
//!
//! At `shmem_init` each PE takes one page-aligned region of its heap partition (the same
//! offset on every PE: the setup is collective and the executable is the same), copies the
//! live data+bss pages of the executable into it, and maps that region's pages of the team
//! segment (or of the MPI window) over the data+bss addresses (one `mremap` per range,
//! [`Net::map_local_at`](crate::net::Net::map_local_at)).
//! The variables keep their addresses and their values (those written before `shmem_init`
//! included), loads and stores stay plain memory accesses, and [`DataMap::offset`] turns an
//! address in them into a heap offset (`region + (addr - start)`), so every transport
//! operation (put, get, AMO, signal, wait, collective, lock, `shmem_ptr`) works on them
//! unchanged.
//!
//! The ranges come from the main executable's program headers (`dl_iterate_phdr`): each
//! writable `PT_LOAD`, page aligned, less the pages `PT_GNU_RELRO` makes read-only after
//! relocation (a RELRO tail sharing the first writable page is copied with it, so it stays
//! correct). This covers PIE and non-PIE executables, C and C++, and this library linked
//! shared or static. It cannot cover variables of other shared libraries (their data is
//! not moved) nor thread-locals (one copy per thread, not per PE): passing one is an error
//! naming the address and, when `dladdr` knows it, the library that holds it.
//!
//! Replacing live pages is only safe while no other thread of the program runs (a store
//! between the copy and the `mremap` would be lost): `shmem_init` is called before a program
//! starts threads. After it, a `fork` without `exec` would share these pages with the child
//! (they are `MAP_SHARED`).

use std::ffi::{c_int, c_void, CStr};

use crate::error::{Result, ShmemError};

/// One range of the executable's data, page aligned, and its heap offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    /// First address (page aligned).
    pub start: usize,
    /// One past the last address (page aligned).
    pub end: usize,
    /// The heap offset of `start` (set by [`DataMap::install`]).
    pub off: usize,
}

/// The executable's data ranges, moved into the heap.
#[derive(Debug, Default, Clone)]
pub struct DataMap {
    ranges: Vec<Range>,
}

const PT_LOAD: u32 = 1;
const PT_GNU_RELRO: u32 = 0x6474_e552;
const PF_W: u32 = 2;

/// The main executable's writable `PT_LOAD` ranges, page aligned, without the RELRO pages.
pub fn find() -> Vec<Range> {
    struct Found {
        ranges: Vec<Range>,
    }
    unsafe extern "C" fn first(
        info: *mut libc::dl_phdr_info,
        _size: usize,
        data: *mut c_void,
    ) -> c_int {
        // SAFETY: dl_iterate_phdr passes a valid info for the duration of the call, and
        // `data` is the `Found` that `find` passed, borrowed by nobody else meanwhile.
        let (info, found) = unsafe { (&*info, &mut *data.cast::<Found>()) };
        let page = handoff::sys::page_size();
        let bias = info.dlpi_addr as usize;
        // SAFETY: dlpi_phdr points to dlpi_phnum program headers of the loaded object.
        let phdrs = unsafe { std::slice::from_raw_parts(info.dlpi_phdr, info.dlpi_phnum.into()) };
        let relro_end = phdrs
            .iter()
            .find(|p| p.p_type == PT_GNU_RELRO)
            .map(|p| (bias + p.p_vaddr as usize + p.p_memsz as usize) / page * page);
        for p in phdrs
            .iter()
            .filter(|p| p.p_type == PT_LOAD && p.p_flags & PF_W != 0)
        {
            let lo = bias + p.p_vaddr as usize;
            let hi = lo + p.p_memsz as usize;
            let mut start = lo / page * page;
            if let Some(r) = relro_end.filter(|&r| r > start && r <= hi) {
                start = r; // the pages ld.so made read-only stay where they are
            }
            let end = hi.next_multiple_of(page);
            if end > start {
                found.ranges.push(Range { start, end, off: 0 });
            }
        }
        1 // the first object is the main executable: stop
    }
    let mut found = Found { ranges: Vec::new() };
    // SAFETY: `first` is a valid callback; `found` outlives the call.
    unsafe { libc::dl_iterate_phdr(Some(first), (&raw mut found).cast()) };
    found.ranges
}

impl DataMap {
    /// The bytes of heap the ranges need.
    pub fn bytes(ranges: &[Range]) -> usize {
        ranges.iter().map(|r| r.end - r.start).sum()
    }

    /// Moves `ranges` into this PE's heap partition from heap offset `region` (page aligned,
    /// [`bytes`](Self::bytes) long): copies each range's live bytes into the partition, whose
    /// address in the segment is `local` (the transport's view), then maps those pages over
    /// the range.
    ///
    /// # Safety
    /// No other thread of the program runs (see the module docs); `local` is the address of
    /// this PE's partition in the team segment and `region..region + bytes` lies in it.
    pub unsafe fn install(
        x: &crate::net::Net,
        local: *mut u8,
        mut ranges: Vec<Range>,
        region: usize,
    ) -> Result<DataMap> {
        let mut off = region;
        for r in &mut ranges {
            let len = r.end - r.start;
            // SAFETY: the range is the executable's writable data (mapped, readable); the
            // destination lies in our partition (the caller's promise); they do not overlap.
            unsafe { std::ptr::copy_nonoverlapping(r.start as *const u8, local.add(off), len) };
            // SAFETY: page aligned (find, caller); the copy above keeps the contents; no
            // other thread runs; no Rust reference points into the program's data pages
            // (handoff-shmem's own statics are atomics, accessed through raw addresses).
            unsafe { x.map_local_at(off, len, r.start as *mut u8) }.map_err(|e| {
                ShmemError::Invalid(format!(
                    "cannot move the program's static data ({:#x}..{:#x}) into the \
                     symmetric heap: {e}",
                    r.start, r.end
                ))
            })?;
            r.off = off;
            off += len;
        }
        Ok(DataMap { ranges })
    }

    /// The heap offset of `len` bytes at `addr` if they lie in one data range.
    #[inline]
    pub fn offset(&self, addr: usize, len: usize) -> Option<usize> {
        let end = addr.checked_add(len)?;
        self.ranges
            .iter()
            .find(|r| addr >= r.start && end <= r.end)
            .map(|r| r.off + (addr - r.start))
    }

    /// The ranges (for `SHMEM_INFO`/`SHMEM_DEBUG`).
    pub fn ranges(&self) -> &[Range] {
        &self.ranges
    }
}

/// What holds `addr`, for the error about a non-symmetric address: the shared library (by
/// `dladdr`) or a hint at the usual causes.
pub fn whose(addr: usize) -> String {
    let mut info: libc::Dl_info = libc::Dl_info {
        dli_fname: std::ptr::null(),
        dli_fbase: std::ptr::null_mut(),
        dli_sname: std::ptr::null(),
        dli_saddr: std::ptr::null_mut(),
    };
    // SAFETY: dladdr only reads the loader's tables; `info` is a valid out-parameter.
    let found = unsafe { libc::dladdr(addr as *const c_void, &mut info) } != 0;
    let text = |p: *const std::ffi::c_char| {
        (found && !p.is_null()).then(|| {
            // SAFETY: dladdr sets dli_fname / dli_sname to NUL-terminated strings owned by
            // the loader (checked non-null), alive while the object stays loaded.
            unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
        })
    };
    let (name, sym) = (text(info.dli_fname), text(info.dli_sname));
    let exe = std::env::current_exe().ok();
    match name {
        Some(n)
            if exe
                .as_ref()
                .is_none_or(|e| !e.ends_with(&n) && std::path::Path::new(&n) != e) =>
        {
            format!(
                "it is in shared library {n}{}: variables of shared libraries are not \
                 symmetric; use a global of the program or shmem_malloc",
                sym.map(|s| format!(" (near {s})")).unwrap_or_default()
            )
        }
        _ => "symmetric objects are the program's global and static variables and \
              shmem_malloc/shmem_calloc/shmem_align blocks (not locals, malloc'd memory \
              or thread-locals)"
            .into(),
    }
}
