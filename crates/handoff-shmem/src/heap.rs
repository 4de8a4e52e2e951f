//! The symmetric heap allocator behind `shmem_malloc`/`shmem_free`: one region of every PE's
//! team heap (taken once, at `shmem_init`, with the team's collective `alloc`), carved by a
//! deterministic first-fit allocator with coalescing free blocks. Every PE makes the same
//! calls in the same order (the calls are collective and checked to agree), so every PE's
//! allocator returns the same offsets: an object is at the same offset in every partition.
//!
//! The team's own `alloc` never frees (memory is never reused); this layer adds `free`.

use std::collections::BTreeMap;

use crate::error::{Result, ShmemError};

/// Every block starts on this boundary (a cache line), unless `shmem_align` asks for more.
pub const MIN_ALIGN: usize = 64;

/// A first-fit allocator over `[base, base + len)` (offsets in a heap partition).
#[derive(Debug)]
pub struct Allocator {
    base: usize,
    len: usize,
    /// Free blocks: offset → length, coalesced (no two adjacent).
    free: BTreeMap<usize, usize>,
    /// Live blocks: offset → length.
    live: BTreeMap<usize, usize>,
}

impl Allocator {
    /// An allocator of the region `[base, base + len)`; `base` is `MIN_ALIGN`-aligned.
    pub fn new(base: usize, len: usize) -> Self {
        let mut free = BTreeMap::new();
        if len > 0 {
            free.insert(base, len);
        }
        Allocator {
            base,
            len,
            free,
            live: BTreeMap::new(),
        }
    }

    /// The region's first offset.
    pub fn base(&self) -> usize {
        self.base
    }

    /// The region's length.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the region is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Allocates `size` bytes (rounded up to `MIN_ALIGN`) at an offset that is a multiple of
    /// `align` (a power of two); returns the offset.
    pub fn alloc(&mut self, size: usize, align: usize) -> Result<usize> {
        if !align.is_power_of_two() {
            return Err(ShmemError::BadAlignment(align));
        }
        let align = align.max(MIN_ALIGN);
        let size = size
            .max(1)
            .checked_next_multiple_of(MIN_ALIGN)
            .ok_or(ShmemError::Overflow("shmem_malloc"))?;
        let found = self.free.iter().find_map(|(&off, &len)| {
            let start = off.checked_next_multiple_of(align)?;
            let end = start.checked_add(size)?;
            (end <= off + len).then_some((off, len, start, end))
        });
        let Some((off, len, start, end)) = found else {
            return Err(ShmemError::HeapExhausted {
                requested: size,
                free: self.free.values().copied().max().unwrap_or(0),
                heap: self.len,
            });
        };
        self.free.remove(&off);
        if start > off {
            self.free.insert(off, start - off);
        }
        if end < off + len {
            self.free.insert(end, off + len - end);
        }
        self.live.insert(start, size);
        Ok(start)
    }

    /// The length of the live block at `offset`, if one starts there.
    pub fn block(&self, offset: usize) -> Option<usize> {
        self.live.get(&offset).copied()
    }

    /// Frees the live block at `offset`; `false` if none starts there.
    pub fn free(&mut self, offset: usize) -> bool {
        let Some(len) = self.live.remove(&offset) else {
            return false;
        };
        let (mut start, mut end) = (offset, offset + len);
        if let Some((&p, &plen)) = self.free.range(..start).next_back() {
            if p + plen == start {
                self.free.remove(&p);
                start = p;
            }
        }
        if let Some(&nlen) = self.free.get(&end) {
            self.free.remove(&end);
            end += nlen;
        }
        self.free.insert(start, end - start);
        true
    }

    /// Bytes in live blocks.
    pub fn used(&self) -> usize {
        self.live.values().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_fit_reuses_and_coalesces() {
        let mut a = Allocator::new(1024, 1024);
        // Hand-computed: blocks round up to 64 bytes and follow one another.
        assert_eq!(a.alloc(10, 1).unwrap(), 1024);
        assert_eq!(a.alloc(64, 1).unwrap(), 1088);
        assert_eq!(a.alloc(65, 1).unwrap(), 1152); // 128 bytes
        assert_eq!(a.used(), 64 + 64 + 128);
        assert!(a.free(1088));
        assert!(!a.free(1088), "double free is refused");
        assert_eq!(a.alloc(64, 1).unwrap(), 1088, "the hole is reused first");
        assert!(a.free(1024) && a.free(1088) && a.free(1152));
        assert_eq!(a.used(), 0);
        // Everything coalesced back into one block: the whole region fits again.
        assert_eq!(a.alloc(1024, 1).unwrap(), 1024);
        assert!(matches!(
            a.alloc(1, 1),
            Err(ShmemError::HeapExhausted { free: 0, .. })
        ));
    }

    #[test]
    fn alignment_and_exhaustion() {
        let mut a = Allocator::new(64, 4096);
        assert_eq!(a.alloc(8, 1).unwrap(), 64);
        assert_eq!(a.alloc(8, 1024).unwrap(), 1024);
        // The gap 128..1024 stays usable.
        assert_eq!(a.alloc(8, 1).unwrap(), 128);
        assert!(matches!(a.alloc(8, 3), Err(ShmemError::BadAlignment(3))));
        assert!(matches!(
            a.alloc(8192, 1),
            Err(ShmemError::HeapExhausted {
                requested: 8192,
                ..
            })
        ));
        assert!(matches!(
            a.alloc(usize::MAX, 1),
            Err(ShmemError::Overflow(_))
        ));
    }
}
