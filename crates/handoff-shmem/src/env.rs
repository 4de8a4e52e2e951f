//! The OpenSHMEM environment variables (1.5 §9): `SHMEM_SYMMETRIC_SIZE` (the symmetric heap
//! per PE: `handoff run` starts the team with it when `--heap` is not given, and each PE
//! checks the team's heap holds it), `SHMEM_INFO` (PE 0 prints the library's settings and
//! variables at `shmem_init`), `SHMEM_VERSION` (PE 0 prints the library version at
//! `shmem_init`) and `SHMEM_DEBUG` (each PE prints debug lines: its heap and static data
//! layout). A variable counts as set unless it is empty or `0`.

use handoff::team::Transport;

use crate::error::{Result, ShmemError};
use crate::state::{self, write_line, State};

/// `SHMEM_SYMMETRIC_SIZE`.
pub const SYMMETRIC_SIZE: &str = "SHMEM_SYMMETRIC_SIZE";
/// `SHMEM_INFO`.
pub const INFO: &str = "SHMEM_INFO";
/// `SHMEM_VERSION`.
pub const VERSION: &str = "SHMEM_VERSION";
/// `SHMEM_DEBUG`.
pub const DEBUG: &str = "SHMEM_DEBUG";

/// The library's name and version, as `SHMEM_VERSION` prints it.
pub fn version_line() -> String {
    format!(
        "handoff OpenSHMEM 1.5 (handoff-shmem {})",
        env!("CARGO_PKG_VERSION")
    )
}

/// Whether the flag variable `var` is set (not empty, not `0`).
pub fn flag(var: &str) -> bool {
    std::env::var(var).is_ok_and(|v| !v.trim().is_empty() && v.trim() != "0")
}

/// `SHMEM_SYMMETRIC_SIZE` in bytes, if set; the spec's syntax: a number with an optional
/// K, M or G suffix (powers of 1024).
pub fn symmetric_size() -> Result<Option<usize>> {
    match std::env::var(SYMMETRIC_SIZE) {
        Ok(v) if !v.trim().is_empty() => handoff::units::parse_size(&v)
            .map(Some)
            .map_err(|e| ShmemError::Invalid(format!("{SYMMETRIC_SIZE}={v:?}: {e}"))),
        _ => Ok(None),
    }
}

/// The heap per PE `handoff run` gives when neither `--heap`, [`SYMMETRIC_SIZE`] nor
/// `HANDOFF_HEAP_SIZE` is set (the same figure: what OSU OpenSHMEM and tests-sos allocate
/// fits), bounded by half the shared memory free per PE of the node.
pub const DEFAULT_HEAP: usize = 256 << 20;
/// The least default heap worth starting with when memory is short.
const MIN_HEAP: usize = 16 << 20;

/// The heap per PE to ask an MPI launcher's job for (no `handoff run` sized it):
/// [`SYMMETRIC_SIZE`], else `HANDOFF_HEAP_SIZE`, else [`DEFAULT_HEAP`] bounded by half the
/// free shared memory per rank of this node (`MPI_LOCALNRANKS`, `OMPI_COMM_WORLD_LOCAL_SIZE`),
/// plus the program's `static_data` bytes and this layer's own pages, as `handoff run` adds
/// them; page rounded.
pub fn mpi_heap(static_data: usize) -> Result<usize> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    let want = match (symmetric_size()?, var(handoff::implementor::ENV_HEAP)) {
        (Some(n), _) => n,
        (None, Some(v)) => handoff::units::parse_size(&v).map_err(|e| {
            ShmemError::Invalid(format!("{}={v:?}: {e}", handoff::implementor::ENV_HEAP))
        })?,
        (None, None) => {
            let local = ["MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE"]
                .iter()
                .find_map(|v| var(v)?.trim().parse::<u64>().ok())
                .unwrap_or(1)
                .max(1);
            let free = handoff::sys::shm_available().unwrap_or(u64::MAX);
            let per_pe = usize::try_from(free / 2 / local).unwrap_or(usize::MAX);
            let heap = DEFAULT_HEAP.min(per_pe) >> 20 << 20;
            if heap < MIN_HEAP {
                return Err(ShmemError::Invalid(format!(
                    "not enough shared memory for a default heap: {free} bytes free in \
                     /dev/shm and memory for {local} PEs on this node; set a smaller \
                     {SYMMETRIC_SIZE}, or free memory"
                )));
            }
            heap
        }
    };
    if want == 0 {
        return Err(ShmemError::Invalid(format!(
            "{SYMMETRIC_SIZE}=0: a heap of 0 bytes holds nothing; ask for at least 1 byte \
             (e.g. 1M)"
        )));
    }
    let page = handoff::sys::page_size();
    // The internal block, the page the static data start on, the team's and the
    // allocator's alignment padding (`setup::init`).
    let own = crate::state::INTERNAL + 2 * page + 4 * crate::heap::MIN_ALIGN;
    want.checked_add(static_data)
        .and_then(|n| n.checked_add(own))
        .and_then(|n| n.checked_next_multiple_of(page))
        .ok_or_else(|| ShmemError::Invalid(format!("a heap of {want} bytes is too large")))
}

/// Checks at `shmem_init` that the team's heap holds `SHMEM_SYMMETRIC_SIZE` (the launcher
/// sizes the heap by it unless `--heap` said otherwise).
pub fn check_heap(heap_len: usize) -> Result<()> {
    match symmetric_size()? {
        Some(want) if want > heap_len => Err(ShmemError::Invalid(format!(
            "{SYMMETRIC_SIZE} asks for {want} bytes of symmetric heap but the team was \
             started with {heap_len} bytes per PE; start it with `handoff run --heap {want}` \
             (or without --heap: `handoff run` then uses {SYMMETRIC_SIZE})"
        ))),
        _ => Ok(()),
    }
}

/// Prints what `SHMEM_VERSION`, `SHMEM_INFO` and `SHMEM_DEBUG` ask for, once `st` is ready.
pub fn report_at_init(st: &State) {
    if st.rank == 0 && (flag(VERSION) || flag(INFO)) {
        write_line(&format!("{}\n", version_line()));
    }
    if st.rank == 0 && flag(INFO) {
        let data = crate::symdata::DataMap::bytes(st.data.ranges());
        let alloc = state::lock(&st.alloc);
        let text = format!(
            "handoff-shmem: {npes} PEs; symmetric heap {heap} bytes per PE ({free} for \
             shmem_malloc, {data} for the program's static data); transport {kind}; \
             threads: {threads}\n\
             handoff-shmem: environment variables:\n  \
             {SYMMETRIC_SIZE}  symmetric heap per PE (bytes, or with K/M/G); read by \
             `handoff run` when --heap is not given ({size})\n  \
             {INFO}  print this at shmem_init (PE 0)\n  \
             {VERSION}  print the library version at shmem_init (PE 0)\n  \
             {DEBUG}  print each PE's heap and static data layout at shmem_init ({debug})\n  \
             HANDOFF_HEAP_SIZE  the launcher's heap size when neither --heap nor \
             {SYMMETRIC_SIZE} is set (under an MPI launcher: the heap when \
             {SYMMETRIC_SIZE} is not set)\n",
            npes = st.npes,
            kind = st.x().kind(),
            threads = match st.x().max_thread_level() {
                0 => "SHMEM_THREAD_SINGLE",
                1 => "SHMEM_THREAD_FUNNELED",
                2 => "SHMEM_THREAD_SERIALIZED",
                _ => "SHMEM_THREAD_MULTIPLE",
            },
            heap = st.heap_len,
            free = alloc.len(),
            size = std::env::var(SYMMETRIC_SIZE).unwrap_or_else(|_| "not set".into()),
            debug = if flag(DEBUG) { "on" } else { "off" },
        );
        write_line(&text);
    }
    if flag(DEBUG) {
        let ranges: Vec<String> = st
            .data
            .ranges()
            .iter()
            .map(|r| format!("{:#x}..{:#x} at heap offset {:#x}", r.start, r.end, r.off))
            .collect();
        let (alloc_base, alloc_len) = {
            let alloc = state::lock(&st.alloc);
            (alloc.base(), alloc.len())
        };
        write_line(&format!(
            "handoff-shmem: PE {}: debug: heap {:p} ({} bytes; segment view {:p}), \
             shmem_malloc region at offset {:#x} ({} bytes), static data {}, shmem_ptr to \
             peers {}\n",
            st.rank,
            st.heap,
            st.heap_len,
            st.seg_heap,
            alloc_base,
            alloc_len,
            if ranges.is_empty() {
                "none".to_string()
            } else {
                ranges.join(", ")
            },
            if st.x().peer_heap((st.rank + 1) % st.npes).is_some() {
                "on"
            } else {
                "off"
            },
        ));
    }
}
