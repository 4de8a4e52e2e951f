//! The crate error: wraps each layer's error at the top. Each says what went wrong and, where
//! it helps, what to do about it.

use std::io;

pub use crate::peers::WaitError;
use crate::shm::SegmentError;
use crate::sys;

/// Result with the crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

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
    Segment(#[from] SegmentError),
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

impl From<sys::Error> for Error {
    /// The platform error as the crate's: the generic cases one to one, the shared-memory
    /// object cases as the segment errors that explain them.
    fn from(e: sys::Error) -> Self {
        match e {
            sys::Error::Io { op, source } => Error::Io { op, source },
            sys::Error::Unsupported(what) => Error::Unsupported(what),
            sys::Error::InvalidArgument(why) => Error::InvalidArgument(why),
            sys::Error::CpuUnavailable { cpu, allowed } => Error::CpuUnavailable { cpu, allowed },
            e => Error::Segment(SegmentError::from_sys(e).expect("a shared-memory object error")),
        }
    }
}
