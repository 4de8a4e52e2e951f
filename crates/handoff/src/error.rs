//! Error types. Each says what went wrong and, where it helps, what to do about it.

use std::io;

/// Result with the crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Why a wait did not see its condition come true.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum WaitError {
    /// The deadline passed first.
    #[error("timed out: the deadline passed before the condition came true")]
    Timeout,
    /// A peer attached to the same segment exited (or was killed) while we waited.
    #[error("peer process {pid} is gone (exited or killed) while we waited on it")]
    PeerGone {
        /// The pid of the peer that is gone.
        pid: u32,
    },
}

/// Everything that can go wrong in handoff.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A system call failed.
    #[error("{op} failed: {source}")]
    Io {
        /// What we were doing, e.g. `"shm_open /handoff-123-x"`.
        op: String,
        /// The OS error.
        #[source]
        source: io::Error,
    },
    /// The operation is not supported on this platform.
    #[error("unsupported on this platform: {0} (handoff supports Linux)")]
    Unsupported(&'static str),
    /// An argument is out of range or meaningless (e.g. a zero size, a zero-party barrier).
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// A CPU that does not exist or is outside this process's affinity mask.
    #[error("CPU {cpu} is not available: this process may use CPUs {allowed}")]
    CpuUnavailable {
        /// The requested logical CPU id.
        cpu: usize,
        /// The allowed set, as a list string such as `0-3,8`.
        allowed: String,
    },
    /// A shared segment failed validation.
    #[error(transparent)]
    Segment(#[from] crate::shm::SegmentError),
    /// A wait ended without its condition.
    #[error(transparent)]
    Wait(#[from] WaitError),
}

impl Error {
    /// Wraps an OS error with a description of the operation.
    pub fn io(op: impl Into<String>, source: impl Into<io::Error>) -> Self {
        Error::Io {
            op: op.into(),
            source: source.into(),
        }
    }
}
