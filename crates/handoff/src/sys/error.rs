//! [`Error`]: why a platform call failed. Small on purpose: the layers above turn these into
//! their own errors (a missing object becomes a segment's `NotFound`, and so on) and the crate
//! error wraps those at the top.

use std::io;

/// Result with the platform layer's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Why a platform call failed. Messages say what to do where the platform layer can tell.
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
    /// An argument is out of range or meaningless (e.g. a zero size).
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
    /// No shared-memory object has this name (`ENOENT`).
    #[error("no shared-memory object named {name}")]
    NotFound {
        /// The full name.
        name: String,
    },
    /// The name is taken (`EEXIST` on an exclusive create).
    #[error("shared-memory object {name} already exists")]
    AlreadyExists {
        /// The full name.
        name: String,
    },
    /// The system refused the name (`ENAMETOOLONG`, `EINVAL`).
    #[error("the system refused the name {name:?} ({reason})")]
    BadName {
        /// The full name.
        name: String,
        /// What the system said.
        reason: String,
    },
    /// The name holds something other than a regular file (never opened or followed).
    #[error("{name} is a {kind} owned by uid {uid}, not a shared-memory object")]
    NotRegular {
        /// The full name.
        name: String,
        /// What it is instead (`FIFO (named pipe)`, `symbolic link`...).
        kind: String,
        /// Its owner.
        uid: u32,
    },
    /// The file system or memory cannot hold the object.
    #[error("{name} needs {needed} bytes but only {available} are free")]
    NoSpace {
        /// The full name (or `<memfd>`).
        name: String,
        /// Bytes asked for.
        needed: u64,
        /// Bytes free.
        available: u64,
    },
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
