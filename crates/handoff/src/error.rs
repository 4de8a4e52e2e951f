//! The crate error: wraps each area's error at the top ([`sys::Error`], [`SegmentError`],
//! [`WaitError`], [`ChannelError`], [`QueueError`], [`TeamError`]) with the same messages,
//! so an application can `?` every call into one [`Result`]. Each says what went wrong and,
//! where it helps, what to do about it.
//!
//! The cases every layer shares — a system call failed, the platform lacks a feature, an
//! argument is out of range, a CPU is not ours — are written once, in [`sys::Error`], and
//! land in [`Error::Sys`] whichever layer reported them; a segment error is
//! [`Error::Segment`], and so on; a channel's own errors are [`Error::Channel`].

use crate::channel::ChannelError;
use crate::queue::QueueError;
use crate::shm::SegmentError;
use crate::sync::WaitError;
use crate::sys;
use crate::team::TeamError;

/// Result with the crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in handoff.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A system call failed, the platform lacks a feature, an argument is out of range (a
    /// zero size, a zero-party barrier) or a CPU is not available, in any layer.
    #[error(transparent)]
    Sys(sys::Error),
    /// A shared segment could not be created, opened or validated.
    #[error(transparent)]
    Segment(SegmentError),
    /// A wait ended without its condition.
    #[error(transparent)]
    Wait(#[from] WaitError),
    /// A channel operation failed for a channel's own reason (its segment's errors are
    /// [`Error::Segment`], [`Error::Sys`]).
    #[error(transparent)]
    Channel(ChannelError),
    /// A team operation (or one of its epochs) failed ([`crate::team`]).
    #[error(transparent)]
    Team(TeamError),
    /// A queue operation failed for a queue's own reason (its segment's errors are
    /// [`Error::Segment`], [`Error::Sys`]).
    #[error(transparent)]
    Queue(QueueError),
}

impl Error {
    /// Wraps an OS error with a description of the operation ([`sys::Error::Io`]).
    pub fn io(op: impl Into<String>, source: impl Into<std::io::Error>) -> Self {
        Error::Sys(sys::Error::io(op, source))
    }
}

impl From<sys::Error> for Error {
    /// The platform error as the crate's: the generic cases as they are, the shared-memory
    /// object cases as the segment errors that explain them.
    fn from(e: sys::Error) -> Self {
        match e {
            e @ (sys::Error::Io { .. }
            | sys::Error::Unsupported(_)
            | sys::Error::InvalidArgument(_)
            | sys::Error::CpuUnavailable { .. }) => Error::Sys(e),
            e => SegmentError::from(e).into(),
        }
    }
}

impl From<SegmentError> for Error {
    fn from(e: SegmentError) -> Self {
        match e {
            SegmentError::Sys(e) => e.into(),
            e => Error::Segment(e),
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
        let e: Error = SegmentError::NotFound {
            name: "/handoff-1-x".into(),
        }
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

        // The shared cases are one variant, whichever layer reported them.
        let e: Error = sys::Error::InvalidArgument("a barrier needs parties".into()).into();
        assert!(matches!(&e, Error::Sys(sys::Error::InvalidArgument(_))));
        assert_eq!(e.to_string(), "invalid argument: a barrier needs parties");
        let e: Error = SegmentError::Sys(sys::Error::InvalidArgument("zero bytes".into())).into();
        assert!(matches!(&e, Error::Sys(sys::Error::InvalidArgument(_))));
        assert_eq!(e.to_string(), "invalid argument: zero bytes");
        let e: Error = TeamError::Sys(sys::Error::Unsupported("teams")).into();
        assert!(matches!(e, Error::Sys(sys::Error::Unsupported("teams"))));

        // An epoch's misuse is the team's, and stays matchable.
        let e: Error = TeamError::NoEpoch {
            op: "complete",
            needs: "start",
        }
        .into();
        assert!(matches!(&e, Error::Team(TeamError::NoEpoch { .. })));
        assert_eq!(e.to_string(), "complete without start: call start first");

        // A channel's segment errors are the segment's; its own stay the channel's.
        let e: Error =
            ChannelError::Segment(SegmentError::Sys(sys::Error::Unsupported("x"))).into();
        assert!(matches!(e, Error::Sys(sys::Error::Unsupported("x"))));
        let e: Error = ChannelError::Segment(SegmentError::TableFull { slots: 2 }).into();
        assert!(matches!(
            e,
            Error::Segment(SegmentError::TableFull { slots: 2 })
        ));
        let e: Error = ChannelError::Timeout { what: "free block" }.into();
        assert!(matches!(&e, Error::Channel(ChannelError::Timeout { .. })));
        assert_eq!(
            e.to_string(),
            "timed out: no free block before the deadline"
        );

        // Likewise a queue's: its segment errors are the segment's, its own stay the queue's.
        let e: Error =
            QueueError::<()>::Segment(SegmentError::Sys(sys::Error::Unsupported("y"))).into();
        assert!(matches!(e, Error::Sys(sys::Error::Unsupported("y"))));
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
        assert!(matches!(
            e,
            Error::Sys(sys::Error::CpuUnavailable { cpu: 9, .. })
        ));
        assert_eq!(
            e.to_string(),
            "CPU 9 is not available: this process may use CPUs 0-1"
        );
    }
}
