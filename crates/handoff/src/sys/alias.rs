//! Second mappings of shared pages at chosen addresses: `mremap(src, 0, len, MAYMOVE | FIXED,
//! dst)`, which on Linux makes `[dst, dst + len)` another view of the `MAP_SHARED` pages at
//! `src` (same physical pages, so a store through one address is seen through the other),
//! replacing whatever was mapped at `dst` in one system call. handoff-shmem uses it to put a
//! program's static data into the team heap (the data and bss pages become views of heap
//! pages) and to view its heap partition at an address aligned for `shmem_align`.
//!
//! Linux only: elsewhere both functions return [`Error::Unsupported`].

use crate::sys::{Error, Result};

/// Reserves `len` bytes of address space aligned to `align` (a power of two, at least a
/// page), inaccessible (`PROT_NONE`) until a view is mapped over it; the reservation is never
/// released (it lives as long as the process, as the team's views do).
pub fn reserve_aligned(len: usize, align: usize) -> Result<*mut u8> {
    let page = super::page_size();
    if len == 0 || !len.is_multiple_of(page) || !align.is_power_of_two() || align < page {
        return Err(Error::InvalidArgument(format!(
            "reserve_aligned: length {len} must be a non-zero multiple of the page size and \
             alignment {align} a power of two of at least a page"
        )));
    }
    imp::reserve_aligned(len, align)
}

/// Makes `[dst, dst + len)` a view of the shared pages at `[src, src + len)`, replacing what
/// was mapped at `dst`, in one system call.
///
/// # Safety
/// `src`, `dst` and `len` are page aligned; `[src, src + len)` lies in one `MAP_SHARED`
/// mapping; the old contents of `[dst, dst + len)` are discarded, so the caller has copied
/// whatever it must keep, no Rust reference points into that range, and no other thread
/// accesses it during the call (a store landing between the caller's copy and this call
/// would be lost).
pub unsafe fn alias_shared(src: *mut u8, len: usize, dst: *mut u8) -> Result<()> {
    let page = super::page_size();
    if len == 0
        || [src as usize, dst as usize, len]
            .iter()
            .any(|v| !v.is_multiple_of(page))
    {
        return Err(Error::InvalidArgument(format!(
            "alias_shared: {src:p}, {dst:p} and length {len} must be page aligned"
        )));
    }
    // SAFETY: the caller's promise above.
    unsafe { imp::alias_shared(src, len, dst) }
}

#[cfg(target_os = "linux")]
mod imp {
    use super::*;
    use rustix::mm::{MapFlags, MremapFlags, ProtFlags};

    pub fn reserve_aligned(len: usize, align: usize) -> Result<*mut u8> {
        let total = len
            .checked_add(align)
            .ok_or_else(|| Error::InvalidArgument(format!("reserve {len} + {align} overflows")))?;
        // SAFETY: a fresh anonymous PROT_NONE mapping at an address the kernel picks aliases
        // nothing; it is never dereferenced before a view replaces part of it.
        let p = unsafe {
            rustix::mm::mmap_anonymous(
                std::ptr::null_mut(),
                total,
                ProtFlags::empty(),
                MapFlags::PRIVATE | MapFlags::NORESERVE,
            )
        }
        .map_err(|e| Error::io(format!("reserve {total} bytes of address space"), e))?;
        let start = (p as usize).next_multiple_of(align);
        // The unaligned head and the tail beyond `len` are returned to the system.
        let head = start - p as usize;
        let tail = total - head - len;
        // SAFETY: both ranges lie in the reservation just made, which nothing references.
        unsafe {
            if head > 0 {
                let _ = rustix::mm::munmap(p, head);
            }
            if tail > 0 {
                let _ = rustix::mm::munmap((start + len) as *mut _, tail);
            }
        }
        Ok(start as *mut u8)
    }

    pub unsafe fn alias_shared(src: *mut u8, len: usize, dst: *mut u8) -> Result<()> {
        // SAFETY: the caller's promise (see `super::alias_shared`). With an old size of 0 and
        // a shared mapping at `src`, mremap leaves `src` mapped and maps its pages again at
        // `dst` (MREMAP_FIXED unmaps what was there first, atomically).
        let r = unsafe {
            rustix::mm::mremap_fixed(src.cast(), 0, len, MremapFlags::MAYMOVE, dst.cast())
        }
        .map_err(|e| Error::io(format!("map {len} shared bytes at {dst:p}"), e))?;
        if r.cast::<u8>() != dst {
            return Err(Error::io(
                "mremap",
                std::io::Error::other(format!("mapped at {r:p}, not {dst:p}")),
            ));
        }
        Ok(())
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use super::*;

    pub fn reserve_aligned(_len: usize, _align: usize) -> Result<*mut u8> {
        Err(Error::Unsupported("views of shared pages"))
    }

    pub unsafe fn alias_shared(_src: *mut u8, _len: usize, _dst: *mut u8) -> Result<()> {
        Err(Error::Unsupported("views of shared pages"))
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_view_sees_the_same_pages_and_the_old_contents_are_replaced() {
        let page = crate::sys::page_size();
        let file = crate::sys::mem::ShmFile::anonymous(2 * page).unwrap();
        let map = file.map(2 * page).unwrap();
        let dst = reserve_aligned(2 * page, 1 << 21).unwrap();
        assert!((dst as usize).is_multiple_of(1 << 21));
        // SAFETY: both ranges are page aligned, `map` is MAP_SHARED, `dst` is our reservation.
        unsafe { alias_shared(map.as_ptr(), 2 * page, dst).unwrap() };
        // SAFETY: both views are mapped read-write for 2 pages.
        unsafe {
            map.as_ptr().add(page + 8).write_volatile(42);
            assert_eq!(dst.add(page + 8).read_volatile(), 42);
            dst.write_volatile(7);
            assert_eq!(map.as_ptr().read_volatile(), 7);
        }
        // SAFETY: misaligned arguments are refused before any system call.
        let bad = unsafe { alias_shared(map.as_ptr().add(1), page, dst) };
        assert!(bad.is_err());
    }
}
