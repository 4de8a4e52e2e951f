//! `handoff run`'s heap per PE: `--heap`, else OpenSHMEM's `SHMEM_SYMMETRIC_SIZE`, else
//! `HANDOFF_HEAP_SIZE`, else [`DEFAULT_HEAP`] bounded by half the shared memory free per PE
//! (the segment reserves its pages up front, so a PE never meets a SIGBUS on a full
//! /dev/shm). To that size the launcher adds the program's static data (the writable
//! `PT_LOAD` segments of its ELF file, page rounded): handoff-shmem moves a program's global
//! and static variables into the heap at `shmem_init`, and a program's big global arrays must
//! not eat the room its `shmem_malloc` calls were promised.

use std::ffi::OsStr;
use std::path::PathBuf;

use crate::Failure;

/// The default heap per PE of `handoff run`: what the OSU OpenSHMEM benchmarks and the
/// tests-sos suite allocate fits.
pub const DEFAULT_HEAP: usize = 256 << 20;
/// The least default heap worth starting with when memory is short.
const MIN_HEAP: usize = 16 << 20;

/// The heap per PE for `handoff run` with `--heap` = `flag`, `n` PEs of `program`; `None`
/// leaves it to the launcher (never, today: kept for a program whose size is its own).
pub fn heap_of(flag: Option<&str>, n: usize, program: &OsStr) -> Result<Option<usize>, Failure> {
    let parse = |what: &str, text: &str| {
        let what = match what {
            "--heap" => format!("--heap {text}"),
            var => format!("{var}={text:?}"),
        };
        match handoff_probe::units::parse_size(text) {
            Err(e) => Err(Failure::usage(format!("run: {what}: {e}"))),
            // Refused here, before the program's static data is added to it (which made a
            // heap of 0 pass and every PE fail at shmem_init).
            Ok(0) => Err(Failure::usage(format!(
                "run: {what}: a heap of 0 bytes holds nothing; ask for at least 1 byte (e.g. \
                 --heap 1M)"
            ))),
            Ok(bytes) => Ok(bytes),
        }
    };
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    let heap = if let Some(h) = flag {
        parse("--heap", h)?
    } else if let Some(v) = var("SHMEM_SYMMETRIC_SIZE") {
        parse("SHMEM_SYMMETRIC_SIZE", &v)?
    } else if let Some(v) = var(handoff::implementor::ENV_HEAP) {
        parse(handoff::implementor::ENV_HEAP, &v)?
    } else {
        let free = handoff::sys::shm_available().unwrap_or(u64::MAX);
        let per_pe = usize::try_from(free / 2 / n.max(1) as u64).unwrap_or(usize::MAX);
        let heap = DEFAULT_HEAP.min(per_pe) >> 20 << 20;
        if heap < MIN_HEAP {
            return Err(Failure::usage(format!(
                "run: not enough shared memory for a default heap: {free} bytes free in \
                 /dev/shm and memory for {n} PEs; pass a smaller heap with --heap SIZE (or \
                 SHMEM_SYMMETRIC_SIZE), or free memory"
            )));
        }
        heap
    };
    Ok(Some(heap.saturating_add(static_data_of(program))))
}

/// Bytes of static data (writable `PT_LOAD` segments, each page rounded plus a page for an
/// unaligned start) of the ELF executable `program` (looked up in `PATH` like the launcher
/// does); 0 if it is not a readable 64-bit little-endian ELF file.
pub fn static_data_of(program: &OsStr) -> usize {
    let Some(path) = resolve(program) else {
        return 0;
    };
    let Ok(bytes) = std::fs::read(&path) else {
        return 0;
    };
    writable_load_bytes(&bytes).unwrap_or(0)
}

fn resolve(program: &OsStr) -> Option<PathBuf> {
    let p = PathBuf::from(program);
    if p.components().count() > 1 {
        return Some(p);
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(&p))
        .find(|c| c.is_file())
}

/// The sum over the writable `PT_LOAD` headers of an ELF64 LE image.
fn writable_load_bytes(elf: &[u8]) -> Option<usize> {
    const PT_LOAD: u32 = 1;
    const PF_W: u32 = 2;
    if elf.get(..6)? != b"\x7fELF\x02\x01" {
        return None;
    }
    let u16_at = |o: usize| Some(u16::from_le_bytes(elf.get(o..o + 2)?.try_into().ok()?));
    let u32_at = |o: usize| Some(u32::from_le_bytes(elf.get(o..o + 4)?.try_into().ok()?));
    let u64_at = |o: usize| Some(u64::from_le_bytes(elf.get(o..o + 8)?.try_into().ok()?));
    let phoff = usize::try_from(u64_at(0x20)?).ok()?;
    let phentsize = usize::from(u16_at(0x36)?);
    let phnum = usize::from(u16_at(0x38)?);
    let page = handoff::sys::page_size();
    let mut total = 0usize;
    for i in 0..phnum {
        let h = phoff.checked_add(i.checked_mul(phentsize)?)?;
        if u32_at(h)? == PT_LOAD && u32_at(h + 4)? & PF_W != 0 {
            let memsz = usize::try_from(u64_at(h + 0x28)?).ok()?;
            total = total.checked_add(memsz.checked_next_multiple_of(page)? + page)?;
        }
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_static_data_of_an_elf_file_is_its_writable_loads() {
        let page = handoff::sys::page_size();
        // A hand-built ELF64 header with two program headers: one writable PT_LOAD of
        // 10 000 bytes, one read-only PT_LOAD that does not count.
        let mut elf = vec![0u8; 0x40 + 2 * 0x38];
        elf[..6].copy_from_slice(b"\x7fELF\x02\x01");
        elf[0x20..0x28].copy_from_slice(&0x40u64.to_le_bytes());
        elf[0x36..0x38].copy_from_slice(&0x38u16.to_le_bytes());
        elf[0x38..0x3a].copy_from_slice(&2u16.to_le_bytes());
        let ph = |elf: &mut Vec<u8>, i: usize, flags: u32, memsz: u64| {
            let h = 0x40 + i * 0x38;
            elf[h..h + 4].copy_from_slice(&1u32.to_le_bytes());
            elf[h + 4..h + 8].copy_from_slice(&flags.to_le_bytes());
            elf[h + 0x28..h + 0x30].copy_from_slice(&memsz.to_le_bytes());
        };
        ph(&mut elf, 0, 6, 10_000);
        ph(&mut elf, 1, 5, 1 << 30);
        assert_eq!(
            writable_load_bytes(&elf),
            Some(10_000usize.next_multiple_of(page) + page)
        );
        assert_eq!(writable_load_bytes(b"#!/bin/sh\n"), None);
        assert_eq!(writable_load_bytes(&elf[..0x50]), None, "truncated headers");
        // This test binary has data and bss.
        let me = std::env::current_exe().unwrap();
        assert!(static_data_of(me.as_os_str()) >= page);
    }
}
