//! [`QueueError`]: why a queue operation failed, and [`Side`], the side of a queue.

use std::fmt;

use crate::sync::WaitError;

/// A side of a queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The side that pushes (or sends frames).
    Producer,
    /// The side that pops (or receives frames).
    Consumer,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Producer => "producer",
            Side::Consumer => "consumer",
        })
    }
}

/// Why a queue operation failed. Each message says what to do.
///
/// `T` is what the call hands back: a push's element in [`Timeout`](Self::Timeout) and
/// [`Closed`](Self::Closed) (a full queue's `try_push` returns the value, rtrb's
/// `PushError::Full`); `()` for every other call. [`QueueError::forget_item`] drops it (for
/// `?` into a function returning `QueueError`); `handoff::Error` converts from any `T`.
#[derive(Debug, thiserror::Error)]
pub enum QueueError<T = ()> {
    /// The configuration cannot describe a queue (capacity 0, an overflowing size...).
    #[error("invalid queue configuration: {0}")]
    InvalidConfig(String),
    /// A frame or message larger than the queue (or the aggregator's frame) can ever hold.
    #[error(
        "a {what} of {len} bytes can never fit: the largest is {max} bytes; create the queue \
         with a larger capacity, or split the data"
    )]
    TooBig {
        /// `"frame"` or `"message"`.
        what: &'static str,
        /// The size asked for.
        len: usize,
        /// The largest size that fits.
        max: usize,
    },
    /// The segment holds something other than a queue of this kind.
    #[error(
        "segment {name} is not a handoff {kind} (no such queue header): check the name and \
         the queue type"
    )]
    NotAQueue {
        /// The segment's name.
        name: String,
        /// The queue kind expected (`"SPSC queue"`, ...).
        kind: &'static str,
    },
    /// The two sides disagree on the queue's shape.
    #[error(
        "queue {name} has {what} {found}, but this side expects {expected}: open it with the \
         same element type and capacity the creator used"
    )]
    Mismatch {
        /// The queue's name.
        name: String,
        /// Which property differs.
        what: &'static str,
        /// What this side asked for.
        expected: u64,
        /// What the queue has.
        found: u64,
    },
    /// Another handle already holds this side.
    #[error(
        "the {role} side of queue {name} is already taken: an SPSC queue connects one \
         producer and one consumer; create another queue for another pair"
    )]
    RoleTaken {
        /// The side asked for.
        role: Side,
        /// The queue's name.
        name: String,
    },
    /// Every producer lane of a multi-producer queue is in use.
    #[error(
        "all {max} producer lanes of queue {name} are in use: drop a producer first, or \
         create the queue with more lanes"
    )]
    NoFreeLane {
        /// The queue's name.
        name: String,
        /// Its number of lanes.
        max: usize,
    },
    /// The other side closed the queue (dropped its end, or unwound from a panic).
    #[error("the {by} closed the queue: no more items will be {}", if *by == Side::Producer { "sent" } else { "received" })]
    Closed {
        /// The side that closed.
        by: Side,
        /// The element a push was given (`()` for other calls).
        item: T,
    },
    /// The process on the other side died without closing (also mid-frame: a frame it had
    /// not committed is never delivered).
    #[error("the process on the other side of the queue (pid {pid}) died while we waited")]
    PeerGone {
        /// Its pid.
        pid: u32,
    },
    /// The deadline passed before the queue had room or data, or a `try_` call found none
    /// at once (the queue was full or empty: "would block").
    #[error("timed out: no {what} before the deadline")]
    Timeout {
        /// What was waited for.
        what: &'static str,
        /// The element a push was given, handed back (`()` for other calls).
        item: T,
    },
    /// The shared words of the queue hold values no correct peer writes (a foreign or
    /// damaged segment).
    #[error("queue {name} is corrupt: {why}; recreate it")]
    Corrupt {
        /// The queue's name.
        name: String,
        /// What was wrong.
        why: String,
    },
    /// Creating, opening or mapping the segment failed.
    #[error(transparent)]
    Segment(#[from] crate::shm::SegmentError),
}

impl QueueError {
    /// A wait's error as the queue's.
    #[cfg_attr(loom, allow(dead_code))]
    pub(crate) fn from_wait(e: WaitError, what: &'static str) -> Self {
        match e {
            WaitError::Timeout => QueueError::Timeout { what, item: () },
            WaitError::PeerGone { pid } => QueueError::PeerGone { pid },
        }
    }

    /// Whether this is the "would block" answer (a timeout, or a `try_` call's at once).
    #[cfg_attr(loom, allow(dead_code))]
    pub(crate) fn would_block(&self) -> bool {
        matches!(self, QueueError::Timeout { .. })
    }

    /// The error of a push of `item`: `item` handed back in `Timeout` and `Closed`. Out of
    /// line: a push's fast path must stay small enough to inline into the caller's loop.
    #[cfg_attr(loom, allow(dead_code))]
    #[cold]
    #[inline(never)]
    pub(crate) fn with_item<T>(self, item: T) -> QueueError<T> {
        match self {
            QueueError::Timeout { what, .. } => QueueError::Timeout { what, item },
            QueueError::Closed { by, .. } => QueueError::Closed { by, item },
            QueueError::InvalidConfig(s) => QueueError::InvalidConfig(s),
            QueueError::TooBig { what, len, max } => QueueError::TooBig { what, len, max },
            QueueError::NotAQueue { name, kind } => QueueError::NotAQueue { name, kind },
            QueueError::Mismatch {
                name,
                what,
                expected,
                found,
            } => QueueError::Mismatch {
                name,
                what,
                expected,
                found,
            },
            QueueError::RoleTaken { role, name } => QueueError::RoleTaken { role, name },
            QueueError::NoFreeLane { name, max } => QueueError::NoFreeLane { name, max },
            QueueError::PeerGone { pid } => QueueError::PeerGone { pid },
            QueueError::Corrupt { name, why } => QueueError::Corrupt { name, why },
            QueueError::Segment(e) => QueueError::Segment(e),
        }
    }
}

impl<T> QueueError<T> {
    /// The same error without the element it hands back.
    pub fn forget_item(self) -> QueueError {
        self.split().0
    }

    /// The error without its element, and the element (`None` for errors that hold none).
    pub fn split(self) -> (QueueError, Option<T>) {
        match self {
            QueueError::Timeout { what, item } => {
                (QueueError::Timeout { what, item: () }, Some(item))
            }
            QueueError::Closed { by, item } => (QueueError::Closed { by, item: () }, Some(item)),
            QueueError::InvalidConfig(s) => (QueueError::InvalidConfig(s), None),
            QueueError::TooBig { what, len, max } => (QueueError::TooBig { what, len, max }, None),
            QueueError::NotAQueue { name, kind } => (QueueError::NotAQueue { name, kind }, None),
            QueueError::Mismatch {
                name,
                what,
                expected,
                found,
            } => (
                QueueError::Mismatch {
                    name,
                    what,
                    expected,
                    found,
                },
                None,
            ),
            QueueError::RoleTaken { role, name } => (QueueError::RoleTaken { role, name }, None),
            QueueError::NoFreeLane { name, max } => (QueueError::NoFreeLane { name, max }, None),
            QueueError::PeerGone { pid } => (QueueError::PeerGone { pid }, None),
            QueueError::Corrupt { name, why } => (QueueError::Corrupt { name, why }, None),
            QueueError::Segment(e) => (QueueError::Segment(e), None),
        }
    }

    /// The element a push handed back, if this error holds one.
    pub fn into_item(self) -> Option<T> {
        self.split().1
    }
}
