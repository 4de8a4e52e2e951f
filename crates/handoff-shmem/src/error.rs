//! [`ShmemError`]: why an OpenSHMEM call failed. Every entry point turns one into a single
//! line on stderr naming the call (`handoff-shmem: PE 1: shmem_putmem: ...`) and ends the
//! program with [`EXIT_ERROR`], as OpenSHMEM implementations abort on misuse.

use handoff::team::TeamError;

/// The exit code of a PE that a failed call ended.
pub const EXIT_ERROR: i32 = 1;

/// Why an OpenSHMEM call failed; each message says what to do.
#[derive(Debug, thiserror::Error)]
pub enum ShmemError {
    /// A call before `shmem_init`.
    #[error("called before shmem_init; call shmem_init (or shmem_init_thread) first")]
    NotInitialized,
    /// A call after `shmem_finalize`.
    #[error("called after shmem_finalize; no OpenSHMEM routine may be called after it")]
    Finalized,
    /// The process was not started by the launcher.
    #[error(
        "this process was not started as a PE ({0} is not set); start the program with \
         `handoff run -n N -- PROGRAM ARGS` (handoff's oshrun){or_mpi}",
        or_mpi = OR_MPI_LAUNCHER
    )]
    NotLaunched(&'static str),
    /// A team operation failed (a dead PE, a bad argument the team caught).
    #[error(transparent)]
    Team(#[from] TeamError),
    /// An address that must be symmetric is not in the symmetric heap.
    #[error(
        "{what} ({addr:#x}, {len} bytes) is not in the symmetric heap nor in the program's \
         static data: {why}"
    )]
    NotSymmetric {
        /// Which argument, e.g. `"dest"`.
        what: &'static str,
        /// Its address.
        addr: usize,
        /// Bytes accessed.
        len: usize,
        /// What holds the address, or the usual causes.
        why: String,
    },
    /// A null pointer where data is needed.
    #[error("{0} is NULL but {1} bytes are to be accessed; pass a valid address")]
    Null(&'static str, usize),
    /// A word for an atomic or a wait that is not aligned to its size.
    #[error(
        "{what} ({addr:#x}) is not {align}-byte aligned; atomics and waits need aligned words"
    )]
    Misaligned {
        /// Which argument.
        what: &'static str,
        /// Its address.
        addr: usize,
        /// The alignment needed.
        align: usize,
    },
    /// A PE number outside `0..shmem_n_pes()`.
    #[error("PE {pe} does not exist: PEs are 0 to {} (shmem_n_pes() = {npes})", npes - 1)]
    NoSuchPe {
        /// The PE passed.
        pe: i64,
        /// The number of PEs.
        npes: usize,
    },
    /// An element count whose byte size overflows, or a negative count.
    #[error("{0}: the byte count overflows; pass a smaller element count")]
    Overflow(&'static str),
    /// An unknown comparison constant.
    #[error("comparison {0} is not one of SHMEM_CMP_EQ, NE, GT, GE, LT, LE")]
    BadCmp(i32),
    /// An unknown signal operation.
    #[error("signal operation {0} is not SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD")]
    BadSigOp(i32),
    /// An active set that is not a set of PEs of the team, or that misses this PE.
    #[error("active set (PE_start {start}, logPE_stride {log_stride}, PE_size {size}) {why}")]
    ActiveSet {
        /// `PE_start`.
        start: i32,
        /// `logPE_stride`.
        log_stride: i32,
        /// `PE_size`.
        size: i32,
        /// What is wrong.
        why: String,
    },
    /// PEs disagree on a collective call.
    #[error(
        "PEs disagree on collective call #{seq}: this PE called {ours}, PE {rank} called \
         {theirs}; every PE must make the same collective calls in the same order with the \
         same sizes"
    )]
    Mismatch {
        /// The collective call's number on this PE.
        seq: u64,
        /// A PE that disagrees.
        rank: usize,
        /// What this PE called.
        ours: String,
        /// What that PE called.
        theirs: String,
    },
    /// The symmetric heap has no room.
    #[error(
        "the symmetric heap has no room for {requested} bytes ({free} of {heap} bytes free \
         in the largest block); start with a larger heap: `handoff run --heap SIZE` or \
         SHMEM_SYMMETRIC_SIZE"
    )]
    HeapExhausted {
        /// Bytes asked for.
        requested: usize,
        /// The largest free block.
        free: usize,
        /// The heap's size.
        heap: usize,
    },
    /// `shmem_free`/`shmem_realloc` of an address `shmem_malloc` did not return.
    #[error(
        "{0:#x} was not returned by shmem_malloc/shmem_calloc/shmem_align (or was freed \
         already); pass the pointer the allocation returned"
    )]
    NotAllocated(usize),
    /// A bad alignment for `shmem_align`.
    #[error("alignment {0} is not a power of two; pass a power of two")]
    BadAlignment(usize),
    /// A counter handle that `shmemx_ct_create` did not make.
    #[error("counter handle {0} was not made by shmemx_ct_create (or was freed)")]
    BadCounter(i64),
    /// A feature handoff's OpenSHMEM does not provide.
    #[error("not supported by handoff's OpenSHMEM: {0}")]
    Unsupported(&'static str),
    /// An argument outside what the call accepts.
    #[error("{0}")]
    Invalid(String),
    /// The call panicked (a bug in handoff-shmem: please report it).
    #[error("internal error (a bug in handoff-shmem, please report it): {0}")]
    Panic(String),
}

/// The result of an OpenSHMEM call's body.
pub type Result<T, E = ShmemError> = std::result::Result<T, E>;

/// The end of the error for a program started by no launcher: how else to start it.
pub const OR_MPI_LAUNCHER: &str = if cfg!(feature = "mpi") {
    ", or with an MPI launcher (`mpiexec -n N PROGRAM ARGS`; this libhandoff_shmem is the MPI \
     build)"
} else {
    ""
};
