//! [`SegmentError`]: why a segment could not be created, opened or accessed — the `shm`
//! layer's one error. A system call that failed, an unsupported platform or a bad argument
//! is its [`Sys`](SegmentError::Sys) case, the platform's [`sys::Error`](crate::sys::Error)
//! (those cases are written once, there).

use super::MAGIC;
use crate::sys::mem::{self, SHM_DIR};
use crate::sys::Error as SysError;
use std::io;

/// Result with the `shm` layer's [`SegmentError`].
pub(crate) type Result<T, E = SegmentError> = std::result::Result<T, E>;

impl SegmentError {
    /// Wraps an OS error with a description of the operation.
    pub(crate) fn io(op: impl Into<String>, source: impl Into<io::Error>) -> Self {
        SegmentError::Sys(SysError::io(op, source))
    }

    /// An argument out of range or meaningless.
    pub(crate) fn invalid(why: impl Into<String>) -> Self {
        SegmentError::Sys(SysError::InvalidArgument(why.into()))
    }

    /// Not supported on this platform.
    pub(crate) fn unsupported(what: &'static str) -> Self {
        SegmentError::Sys(SysError::Unsupported(what))
    }
}

impl From<SysError> for SegmentError {
    /// The platform error as the layer's: the shared-memory object cases as the segment
    /// errors that explain them, the generic cases as they are.
    fn from(e: SysError) -> Self {
        match e {
            e @ (SysError::Io { .. }
            | SysError::Unsupported(_)
            | SysError::InvalidArgument(_)
            | SysError::CpuUnavailable { .. }) => SegmentError::Sys(e),
            SysError::NotFound { name } => SegmentError::NotFound { name },
            SysError::AlreadyExists { name } => SegmentError::AlreadyExists { name },
            SysError::BadName { name, reason } => SegmentError::InvalidName {
                name,
                reason: format!("the system refused it ({reason})"),
            },
            SysError::NotRegular { name, kind, uid } => {
                SegmentError::NotRegular { name, kind, uid }
            }
            SysError::NoSpace {
                name,
                needed,
                available,
            } => SegmentError::NoSpace {
                name,
                needed,
                available,
            },
        }
    }
}

/// An option or call of the API that an error message advises, so that each language names
/// its own: a message holds the option's Rust text ([`ApiOption::rust`]), and the C,
/// Fortran and Python bindings replace it with their spelling ([`ApiOption::render`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ApiOption {
    /// Opening a segment of another user (`OpenOptions::any_owner`).
    AnyOwner,
    /// A later deadline for an open.
    OpenDeadline,
    /// The creator's full name (`Segment::name`, `Channel::name`).
    FullName,
    /// Removing the segments of dead processes (`cleanup_stale`, `handoff cleanup`).
    CleanupStale,
    /// A channel's shape (`ChannelConfig`).
    ChannelShape,
    /// Opening a segment that is not a channel (`Segment::open`).
    PlainSegment,
}

#[cfg_attr(not(feature = "implementor"), allow(dead_code))] // the bindings render it
impl ApiOption {
    /// Every option, for a binding's renderer.
    pub const ALL: [ApiOption; 6] = [
        ApiOption::AnyOwner,
        ApiOption::OpenDeadline,
        ApiOption::FullName,
        ApiOption::CleanupStale,
        ApiOption::ChannelShape,
        ApiOption::PlainSegment,
    ];

    /// The advice as Rust callers read it, exactly as it appears in the messages.
    pub const fn rust(self) -> &'static str {
        match self {
            ApiOption::AnyOwner => "or open with OpenOptions::any_owner if intended",
            ApiOption::OpenDeadline => "give the open a later deadline",
            ApiOption::FullName => "openers take the full name Segment::name() returns",
            ApiOption::CleanupStale => "run handoff::shm::cleanup_stale (or `handoff cleanup`)",
            ApiOption::ChannelShape => "open it with the same ChannelConfig the creator used",
            ApiOption::PlainSegment => "open it with handoff::shm::Segment",
        }
    }

    /// `message` with each option's Rust advice replaced by `spell(option)`: how a binding
    /// names its own keyword, function or argument.
    pub fn render(message: &str, spell: impl Fn(ApiOption) -> &'static str) -> String {
        ApiOption::ALL
            .iter()
            .fold(message.to_string(), |m, &o| m.replace(o.rust(), spell(o)))
    }
}

impl std::fmt::Display for ApiOption {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.rust())
    }
}

/// Why a segment could not be created, opened or accessed. Each message says what to do.
#[derive(Debug, thiserror::Error)]
pub enum SegmentError {
    /// A system call failed, the platform lacks a feature, or an argument is out of range
    /// (e.g. a zero payload size).
    #[error(transparent)]
    Sys(SysError),
    /// The object does not start with handoff's magic bytes.
    #[error(
        "not a handoff segment (magic is {found:?}, expected {MAGIC:?}): another program uses \
         this name, or the segment was overwritten; pick another name or {}",
        ApiOption::CleanupStale
    )]
    BadMagic {
        /// The first 8 bytes found.
        found: [u8; 8],
    },
    /// The header was written by a different layout version of handoff.
    #[error(
        "segment layout version {found} but this handoff speaks version {expected}: build both \
         programs with the same handoff version"
    )]
    BadVersion {
        /// The version in the header.
        found: u32,
        /// The layout version this build writes and accepts.
        expected: u32,
    },
    /// The header's attached-table size does not fit the header area before the payload
    /// (corruption, or an object not made by handoff).
    #[error(
        "segment header claims {found} attached-process slots but its header area holds 1 to \
         {room}: the segment is corrupt or was not made by handoff; remove it and create it again"
    )]
    SlotCountMismatch {
        /// The slot count recorded in the segment.
        found: u32,
        /// The most slots the header area before the payload holds.
        room: u64,
    },
    /// The header's size field disagrees with ours (a different build or corruption).
    #[error(
        "segment header is {found} bytes but this handoff expects {expected}: build both \
         programs with the same handoff version"
    )]
    HeaderSizeMismatch {
        /// The header size recorded in the segment.
        found: u32,
        /// This build's header size.
        expected: u32,
    },
    /// The object is smaller than its header says (someone truncated it).
    #[error(
        "segment is truncated: the object holds {file_len} bytes but {needed} are needed; \
         recreate it (and find out who truncated it)"
    )]
    Truncated {
        /// The object's size per `fstat`.
        file_len: u64,
        /// How many bytes the header (or the header itself) needs.
        needed: u64,
    },
    /// The payload length is not what the opener expected.
    #[error(
        "segment payload is {found} bytes but {expected} were expected: the two programs \
         disagree on the layout; use the same configuration in both"
    )]
    SizeMismatch {
        /// What the opener asked for.
        expected: u64,
        /// What the segment holds.
        found: u64,
    },
    /// Another user owns the object.
    #[error(
        "segment is owned by uid {uid}, not by us (uid {ours}): refusing to share memory with \
         another user; pick another name, {any}",
        ours = mem::current_uid(),
        any = ApiOption::AnyOwner
    )]
    ForeignOwner {
        /// The owner's uid.
        uid: u32,
    },
    /// The header names a creator other than the process in the segment's name (a copied or
    /// forged object: handoff writes its own pid into both).
    #[error(
        "segment {name} claims to be created by pid {header_pid}, but its name says pid \
         {name_pid}: the object was not made by handoff's Segment::create (copied or \
         forged); refusing it. Remove it (rm {SHM_DIR}{name}) after checking who made it"
    )]
    CreatorMismatch {
        /// The full name.
        name: String,
        /// The pid in the name.
        name_pid: u32,
        /// The creator pid in the header.
        header_pid: u32,
    },
    /// The name holds something other than a shared-memory object (a FIFO, a symbolic
    /// link, a directory, a device): never opened or followed.
    #[error(
        "{SHM_DIR}{name} is a {kind} owned by uid {uid}, not a shared-memory object: \
         someone planted it at a name handoff uses. It was not opened or followed; remove \
         it (rm {SHM_DIR}{name}) after checking who made it, or pick another name"
    )]
    NotRegular {
        /// The full name.
        name: String,
        /// What it is instead (e.g. `FIFO (named pipe)`).
        kind: String,
        /// Its owner (0 when unknown).
        uid: u32,
    },
    /// The name is taken by another user's object, which neither we nor `handoff cleanup`
    /// may remove.
    #[error(
        "segment name {name} is taken by an object of uid {uid} (we are uid {ours}); handoff \
         cleanup cannot remove another user's object: pick another name, or ask uid {uid} \
         (or root) to remove {SHM_DIR}{name}",
        ours = mem::current_uid()
    )]
    Squatted {
        /// The full name.
        name: String,
        /// The owner of the object found.
        uid: u32,
    },
    /// Not enough room in `/dev/shm` (its tmpfs size limit) or in memory for the segment.
    #[error(
        "not enough space for segment {name}: it needs {needed} bytes but only {available} \
         are free in {SHM_DIR} (tmpfs size limit) or memory. Free space in {SHM_DIR} \
         (`handoff cleanup` removes the segments of dead processes; `df -h {SHM_DIR}` shows \
         the usage), or ask for a smaller size"
    )]
    NoSpace {
        /// The full name (`<memfd>` for an anonymous segment).
        name: String,
        /// Bytes the segment needs (whole pages).
        needed: u64,
        /// Bytes free when we looked.
        available: u64,
    },
    /// The deadline passed while opening a segment.
    #[error(
        "timed out opening segment {name}: it was {state} when the deadline passed; start \
         its creator (or check the name), or {}",
        ApiOption::OpenDeadline
    )]
    OpenTimedOut {
        /// The name being opened.
        name: String,
        /// `not yet created`, or `created but not yet ready (its creator is initializing it)`.
        state: &'static str,
    },
    /// No object has this name.
    #[error(
        "no segment named {name}: start the creator first, or check the name ({}; a short \
         name matches only segments of our own uid)",
        ApiOption::FullName
    )]
    NotFound {
        /// The name looked up.
        name: String,
    },
    /// The name is taken.
    #[error(
        "segment {name} already exists: this process made it already, or an earlier process \
         with the same pid left it behind; pick another name or {}",
        ApiOption::CleanupStale
    )]
    AlreadyExists {
        /// The full name.
        name: String,
    },
    /// Every random full name a creation tried was taken (64 random bits each: someone is
    /// filling `/dev/shm` with handoff names).
    #[error(
        "could not create segment {name:?}: all {tries} unguessable names tried were taken \
         (someone is filling {SHM_DIR} with handoff names); check `ls -l {SHM_DIR}` for \
         objects of other users"
    )]
    NoFreeName {
        /// The short name asked for.
        name: String,
        /// How many random names were tried.
        tries: u32,
    },
    /// Every slot of the attached-process table is taken by a live process.
    #[error(
        "all {slots} attached-process slots of the segment are taken by live processes; \
         detach some processes first, or create the segment with more slots"
    )]
    TableFull {
        /// The number of slots (chosen at creation, [`super::SegmentOptions::slots`]).
        slots: usize,
    },
    /// The name is not acceptable.
    #[error("invalid segment name {name:?}: {reason}")]
    InvalidName {
        /// The name given.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A short name matches segments of several live creators.
    #[error(
        "segment name {name:?} is ambiguous: it matches {candidates:?}; open one of them by \
         its full name"
    )]
    Ambiguous {
        /// The short name given.
        name: String,
        /// The full names that match.
        candidates: Vec<String>,
    },
    /// The creator died or gave up before publishing the segment.
    #[error(
        "segment {name} was abandoned by its creator (pid {pid}) before it became ready; \
         restart the creator, and {} to remove the leftover",
        ApiOption::CleanupStale
    )]
    Abandoned {
        /// The full name.
        name: String,
        /// The creator's pid.
        pid: u32,
    },
    /// The ready word holds a value that is no state.
    #[error(
        "segment ready word holds {found}, which is no valid state: the header is corrupt; \
         recreate the segment"
    )]
    BadState {
        /// The value found.
        found: u32,
    },
    /// Header fields contradict each other.
    #[error("segment header is corrupt ({detail}); recreate the segment")]
    Corrupt {
        /// Which fields disagree.
        detail: String,
    },
    /// A typed access reaches past the payload.
    #[error(
        "access of {size} bytes at payload offset {offset} is out of bounds (payload is \
         {payload_len} bytes); check the layout"
    )]
    OutOfBounds {
        /// The requested offset.
        offset: usize,
        /// The size in bytes of the access.
        size: usize,
        /// The payload length.
        payload_len: usize,
    },
    /// A typed access at an offset not aligned for its type.
    #[error(
        "payload offset {offset} is not aligned to {align} bytes as the type needs; round \
         the offset up"
    )]
    Misaligned {
        /// The requested offset.
        offset: usize,
        /// The type's alignment.
        align: usize,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every advice appears verbatim in the message of an error that gives it (else a
    /// binding's renderer would leave the Rust spelling in place), and rendering replaces it.
    #[test]
    fn messages_carry_each_option_verbatim() {
        let name = || "/handoff-1-x".to_string();
        let errors: [(SegmentError, ApiOption); 5] = [
            (SegmentError::ForeignOwner { uid: 1 }, ApiOption::AnyOwner),
            (
                SegmentError::OpenTimedOut {
                    name: name(),
                    state: "not yet created",
                },
                ApiOption::OpenDeadline,
            ),
            (SegmentError::NotFound { name: name() }, ApiOption::FullName),
            (
                SegmentError::AlreadyExists { name: name() },
                ApiOption::CleanupStale,
            ),
            (
                SegmentError::Abandoned {
                    name: name(),
                    pid: 1,
                },
                ApiOption::CleanupStale,
            ),
        ];
        for (e, o) in errors {
            let msg = e.to_string();
            assert!(msg.contains(o.rust()), "{o:?}: {msg}");
            let other = ApiOption::render(&msg, |_| "<OTHER>");
            assert!(
                other.contains("<OTHER>") && !other.contains(o.rust()),
                "{other}"
            );
        }
    }
}
