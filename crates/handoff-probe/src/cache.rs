//! Cache flushing, so a benchmark can start from cold caches ("flush caches" in the lab).
//!
//! On x86-64, [`flush`] writes back and invalidates every cache line of a buffer with
//! `clflushopt` (then `sfence`) when the CPU has it, `clflush` (then `mfence`) otherwise. On
//! other architectures it falls back to [`sweep`]: touching a buffer about twice the size of
//! the last-level cache, which evicts (most of) everything else. Flushing never changes the
//! bytes, only where they live.

use std::cell::Cell;
use std::sync::{Mutex, OnceLock};

thread_local! {
    /// Cache lines the calling thread's last [`flush_ptr`] flushed (or [`sweep`] touched,
    /// where flushing falls back to it), so tests can check a flush covered its buffer.
    static LAST_FLUSH_LINES: Cell<usize> = const { Cell::new(0) };
}

/// How many cache lines the calling thread's last [`flush`] / [`flush_ptr`] flushed (one
/// flush instruction each), or, where flushing is a [`sweep`], how many lines it touched.
#[doc(hidden)]
pub fn last_flush_lines() -> usize {
    LAST_FLUSH_LINES.with(Cell::get)
}

/// Cache line size when sysfs does not say.
const DEFAULT_LINE: usize = 64;
/// Last-level cache size when sysfs does not say.
const DEFAULT_LLC: usize = 64 << 20;
/// Where CPU 0's caches are described.
const CACHE_DIR: &str = "/sys/devices/system/cpu/cpu0/cache";

/// The cache line size in bytes (`coherency_line_size` of CPU 0's level-1 data cache in
/// sysfs; 64 when unknown). Read once.
pub fn cache_line_size() -> usize {
    static LINE: OnceLock<usize> = OnceLock::new();
    *LINE.get_or_init(|| {
        read_caches()
            .iter()
            .filter(|c| c.level == 1 && c.kind != "Instruction")
            .map(|c| c.line)
            .find(|&l| l.is_power_of_two() && l >= 16)
            .unwrap_or(DEFAULT_LINE)
    })
}

/// The size in bytes of the largest data (or unified) cache CPU 0 sees, normally the L3
/// (64 MiB when sysfs does not say). Read once.
pub fn last_level_cache_size() -> usize {
    static LLC: OnceLock<usize> = OnceLock::new();
    *LLC.get_or_init(|| {
        read_caches()
            .iter()
            .filter(|c| c.kind != "Instruction")
            .map(|c| c.size)
            .max()
            .filter(|&s| s > 0)
            .unwrap_or(DEFAULT_LLC)
    })
}

/// Writes back and evicts `buf` from every cache level (see the module docs for how).
pub fn flush(buf: &[u8]) {
    // SAFETY: a slice is one valid, readable allocation of `buf.len()` bytes.
    unsafe { flush_ptr(buf.as_ptr(), buf.len()) }
}

/// Like [`flush`], for memory reached through a raw pointer (e.g. part of a shared segment
/// that other processes write concurrently: flushing does not read or change the bytes).
///
/// # Safety
///
/// `ptr..ptr + len` must be mapped for the whole call (flushing an unmapped address faults).
/// It need not be initialized or exclusively borrowed.
pub unsafe fn flush_ptr(ptr: *const u8, len: usize) {
    if len == 0 {
        LAST_FLUSH_LINES.with(|c| c.set(0));
        return;
    }
    #[cfg(target_arch = "x86_64")]
    // SAFETY: forwarded from this function's contract.
    let lines = unsafe { x86::flush_lines(ptr, len) };
    #[cfg(not(target_arch = "x86_64"))]
    let lines = {
        let _ = ptr;
        sweep()
    };
    LAST_FLUSH_LINES.with(|c| c.set(lines));
}

/// Evicts (most of) every cache by reading and writing one byte per cache line of a private
/// buffer twice the size of the last-level cache. Slow (milliseconds); the buffer is
/// allocated once and kept. Returns how many lines it touched.
pub fn sweep() -> usize {
    let mut buf = SWEEP_BUF.lock().unwrap_or_else(|p| p.into_inner());
    if buf.is_empty() {
        *buf = vec![1u8; 2 * last_level_cache_size()];
    }
    let step = cache_line_size();
    let mut i = 0;
    let mut touched = 0;
    while i < buf.len() {
        // Volatile so the compiler keeps every touch; writing makes the line ours (and
        // dirty), which pushes out lines other CPUs' caches share with us too.
        let p: *mut u8 = &mut buf[i];
        // SAFETY: `p` points at an initialized byte of `buf`, which we hold exclusively.
        unsafe { p.write_volatile(p.read_volatile().wrapping_add(1)) };
        i += step;
        touched += 1;
    }
    touched
}

/// The private buffer [`sweep`] touches.
static SWEEP_BUF: Mutex<Vec<u8>> = Mutex::new(Vec::new());

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::__cpuid_count;
    use std::sync::OnceLock;

    /// CPUID.(EAX=7,ECX=0):EBX bit 23: CLFLUSHOPT.
    const CLFLUSHOPT_BIT: u32 = 1 << 23;
    /// Every x86-64 CPU flushes 64-byte lines; a smaller step would only repeat lines.
    const FLUSH_LINE: usize = 64;

    fn has_clflushopt() -> bool {
        static HAS: OnceLock<bool> = OnceLock::new();
        *HAS.get_or_init(|| {
            __cpuid_count(0, 0).eax >= 7 && __cpuid_count(7, 0).ebx & CLFLUSHOPT_BIT != 0
        })
    }

    /// Flushes every line of `ptr..ptr + len`; returns how many lines it flushed.
    ///
    /// # Safety
    /// `ptr..ptr + len` is mapped.
    pub unsafe fn flush_lines(ptr: *const u8, len: usize) -> usize {
        let step = super::cache_line_size().min(FLUSH_LINE);
        let start = ptr as usize & !(step - 1);
        let end = ptr as usize + len;
        let opt = has_clflushopt();
        let mut line = start;
        let mut flushed = 0;
        while line < end {
            let p = line as *const u8;
            if opt {
                // SAFETY: `p` lies in the cache line of a mapped byte of the caller's range
                // (the first line may start before `ptr`, but a line is never split between
                // pages); clflushopt neither reads nor writes the data.
                unsafe {
                    core::arch::asm!("clflushopt [{}]", in(reg) p, options(nostack, preserves_flags))
                };
            } else {
                // SAFETY: as above, for clflush (SSE2, baseline on x86-64).
                unsafe {
                    core::arch::asm!("clflush [{}]", in(reg) p, options(nostack, preserves_flags))
                };
            }
            line += step;
            flushed += 1;
        }
        if opt {
            // SAFETY: sfence only orders stores and flushes; clflushopt is ordered by it.
            unsafe { core::arch::asm!("sfence", options(nostack, preserves_flags)) };
        } else {
            // SAFETY: mfence only orders memory operations; clflush is ordered by it.
            unsafe { core::arch::asm!("mfence", options(nostack, preserves_flags)) };
        }
        flushed
    }
}

/// One cache as sysfs describes it.
struct CacheInfo {
    level: u32,
    kind: String,
    size: usize,
    line: usize,
}

fn read_caches() -> Vec<CacheInfo> {
    let Ok(dir) = std::fs::read_dir(CACHE_DIR) else {
        return Vec::new();
    };
    let read = |p: &std::path::Path, f: &str| {
        std::fs::read_to_string(p.join(f))
            .map(|s| s.trim().to_owned())
            .unwrap_or_default()
    };
    dir.flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("index"))
        .map(|e| {
            let p = e.path();
            CacheInfo {
                level: read(&p, "level").parse().unwrap_or(0),
                kind: read(&p, "type"),
                size: parse_size(&read(&p, "size")).unwrap_or(0),
                line: read(&p, "coherency_line_size").parse().unwrap_or(0),
            }
        })
        .collect()
}

/// Parses sysfs cache sizes: `"48K"`, `"32768K"`, `"1M"`, `"512"` (the one size rule,
/// [`crate::units`]).
pub(crate) fn parse_size(text: &str) -> Option<usize> {
    crate::units::parse_size(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("48K"), Some(48 << 10));
        assert_eq!(parse_size("32768K\n"), Some(32 << 20));
        assert_eq!(parse_size("1M"), Some(1 << 20));
        assert_eq!(parse_size("512"), Some(512));
        assert_eq!(parse_size(""), None);
        assert_eq!(parse_size("K"), None);
        assert_eq!(parse_size("xK"), None);
    }

    #[test]
    fn sysfs_values_are_sane() {
        let line = cache_line_size();
        assert!(line.is_power_of_two() && line >= 16, "{line}");
        assert!(last_level_cache_size() >= 64 << 10);
    }

    #[test]
    fn flush_leaves_contents_unchanged() {
        let buf: Vec<u8> = (0..100_003u32).map(|i| (i * 7 + 3) as u8).collect();
        let copy = buf.clone();
        flush(&buf);
        assert_eq!(buf, copy);
        // Odd offsets and lengths, and the empty slice.
        flush(&buf[1..2]);
        flush(&buf[63..130]);
        flush(&buf[..0]);
        assert_eq!(buf, copy);
    }

    /// Lines of `len` bytes at `addr` with 64-byte lines, by hand: from the line holding
    /// the first byte to the line holding the last.
    fn lines_spanned(addr: usize, len: usize) -> usize {
        (addr + len - 1) / 64 - addr / 64 + 1
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn flush_covers_every_line_of_the_buffer() {
        assert_eq!(
            cache_line_size().min(64),
            64,
            "x86-64 flushes 64-byte lines"
        );
        let buf = vec![5u8; 10_000];
        for (from, to) in [(0, 10_000), (63, 130), (1, 2), (64, 128), (100, 9_999)] {
            flush(&buf[from..to]);
            let addr = buf.as_ptr() as usize + from;
            assert_eq!(
                last_flush_lines(),
                lines_spanned(addr, to - from),
                "{from}..{to}"
            );
        }
        flush(&buf[..0]);
        assert_eq!(last_flush_lines(), 0);
    }

    #[test]
    fn sweep_touches_every_line_of_its_buffer() {
        let step = cache_line_size();
        let touched = sweep();
        let before: Vec<u8> = SWEEP_BUF
            .lock()
            .unwrap()
            .iter()
            .step_by(step)
            .copied()
            .collect();
        assert_eq!(touched, (2 * last_level_cache_size()).div_ceil(step));
        assert_eq!(before.len(), touched);
        sweep();
        let buf = SWEEP_BUF.lock().unwrap();
        for (i, (&b, &a)) in before.iter().zip(buf.iter().step_by(step)).enumerate() {
            assert_eq!(a, b.wrapping_add(1), "line {i} was not touched");
        }
    }
}
