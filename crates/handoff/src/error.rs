//! The crate error: wraps each layer's error at the top ([`sys::Error`], [`SyncError`],
//! [`WaitError`], [`ShmError`], [`ChannelError`], [`QueueError`], [`TeamError`]) with the same messages, so an application
//! can `?` every call into one [`Result`]. Each says what went wrong and, where it helps,
//! what to do about it.
//!
//! The layers' shared cases land in one variant each, whichever layer reported them: an
//! argument error of `sync` or `shm` is [`Error::InvalidArgument`], a segment error
//! [`Error::Segment`], and so on; a channel's own errors are [`Error::Channel`].

use std::io;

use crate::channel::ChannelError;
use crate::queue::QueueError;
use crate::shm::{SegmentError, ShmError};
use crate::sync::SyncError;
use crate::sync::WaitError;
use crate::sys;
use crate::team::TeamError;

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
    /// A channel operation failed for a channel's own reason (its segment's errors are
    /// [`Error::Segment`], [`Error::Io`]...).
    #[error(transparent)]
    Channel(ChannelError),
    /// A team operation failed ([`crate::team`]).
    #[error(transparent)]
    Team(TeamError),
    /// A queue operation failed for a queue's own reason (its segment's errors are
    /// [`Error::Segment`], [`Error::Io`]...).
    #[error(transparent)]
    Queue(QueueError),
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
            sys::Error::CpuUnavailable { cpu, allowed } => Error::CpuUnavailable { cpu, allowed },
            e => ShmError::from(e).into(),
        }
    }
}

impl From<ShmError> for Error {
    fn from(e: ShmError) -> Self {
        match e {
            ShmError::Io { op, source } => Error::Io { op, source },
            ShmError::Unsupported(what) => Error::Unsupported(what),
            ShmError::InvalidArgument(why) => Error::InvalidArgument(why),
            ShmError::Segment(e) => Error::Segment(e),
        }
    }
}

impl From<SyncError> for Error {
    fn from(e: SyncError) -> Self {
        match e {
            SyncError::InvalidArgument(why) => Error::InvalidArgument(why),
        }
    }
}

impl From<TeamError> for Error {
    /// A team's segment and system errors as [`Error::Segment`] etc., its own as
    /// [`Error::Team`].
    fn from(e: TeamError) -> Self {
        match e {
            TeamError::Shm(e) => e.into(),
            TeamError::Sys(e) => e.into(),
            e => Error::Team(e),
        }
    }
}

impl From<ChannelError> for Error {
    /// A channel's segment errors as [`Error::Segment`] etc., its own as [`Error::Channel`].
    fn from(e: ChannelError) -> Self {
        match e {
            ChannelError::Segment(e) => e.into(),
            e => Error::Channel(e),
        }
    }
}

impl<T> From<QueueError<T>> for Error {
    /// A queue's segment errors as [`Error::Segment`] etc., its own as [`Error::Queue`]
    /// (without the element a push hands back).
    fn from(e: QueueError<T>) -> Self {
        match e.forget_item() {
            QueueError::Segment(e) => e.into(),
            e => Error::Queue(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each layer's error lands in the crate error's variant for its case, with the message
    /// it had (the expected texts are written out here, not taken from the code).
    #[test]
    fn layer_errors_keep_their_case_and_message() {
        let e: Error = ShmError::Segment(SegmentError::NotFound {
            name: "/handoff-1-x".into(),
        })
        .into();
        assert!(
            matches!(&e, Error::Segment(SegmentError::NotFound { name }) if name == "/handoff-1-x")
        );
        assert_eq!(
            e.to_string(),
            "no segment named /handoff-1-x: start the creator first, or check the name \
             (openers take the full name Segment::name() returns; a short name matches only \
             segments of our own uid)"
        );

        let e: Error = SyncError::InvalidArgument("a barrier needs parties".into()).into();
        assert!(matches!(&e, Error::InvalidArgument(_)));
        assert_eq!(e.to_string(), "invalid argument: a barrier needs parties");

        // A channel's segment errors are the segment's; its own stay the channel's.
        let e: Error = ChannelError::Segment(ShmError::Unsupported("x")).into();
        assert!(matches!(e, Error::Unsupported("x")));
        let e: Error = ChannelError::Timeout { what: "free block" }.into();
        assert!(matches!(&e, Error::Channel(ChannelError::Timeout { .. })));
        assert_eq!(
            e.to_string(),
            "timed out: no free block before the deadline"
        );

        // Likewise a queue's: its segment errors are the segment's, its own stay the queue's.
        let e: Error = QueueError::<()>::Segment(ShmError::Unsupported("y")).into();
        assert!(matches!(e, Error::Unsupported("y")));
        // A push's error converts too, without the element it hands back.
        let e: Error = QueueError::Timeout {
            what: "free slot",
            item: 7u64,
        }
        .into();
        assert!(matches!(
            &e,
            Error::Queue(QueueError::Timeout {
                what: "free slot",
                item: ()
            })
        ));
        let e: Error = QueueError::<()>::TooBig {
            what: "frame",
            len: 70,
            max: 56,
        }
        .into();
        assert!(matches!(&e, Error::Queue(QueueError::TooBig { .. })));
        assert_eq!(
            e.to_string(),
            "a frame of 70 bytes can never fit: the largest is 56 bytes; create the queue with \
             a larger capacity, or split the data"
        );

        // The platform's object errors become segment errors; a CPU error stays one.
        let e: Error = sys::Error::NotFound { name: "/n".into() }.into();
        assert!(matches!(e, Error::Segment(SegmentError::NotFound { .. })));
        let e: Error = sys::Error::CpuUnavailable {
            cpu: 9,
            allowed: "0-1".into(),
        }
        .into();
        assert_eq!(
            e.to_string(),
            "CPU 9 is not available: this process may use CPUs 0-1"
        );
    }
}
