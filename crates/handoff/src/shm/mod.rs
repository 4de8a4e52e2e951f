//! Shared segments with a validated header, and the [`ShmSafe`] marker for types that may
//! live in one.
//!
//! A [`Segment`] is one shared-memory object (named POSIX shm, or an anonymous memfd for
//! threads of one process) laid out as a header page followed by a page-aligned payload:
//!
//! ```text
//! offset 0                 header (repr(C), HEADER_SIZE bytes): magic, layout version,
//!                          sizes, creator uid + ProcessId, ready word, slot_count
//! HEADER_SIZE              attached table: slot_count slots of 16 bytes (set at creation)
//! payload_offset (page)    payload: payload_len bytes, addressed by offsets (never pointers)
//! total_size (page)        end of the object
//! ```
//!
//! # Ready state
//!
//! The header's ready word tells openers whether the creator has finished initializing:
//!
//! | state          | value | set by                                   | an opener                |
//! |----------------|-------|------------------------------------------|--------------------------|
//! | `INITIALIZING` | 0     | `ftruncate` (zero fill) at creation      | waits (futex, deadline)  |
//! | `READY`        | 1     | the creator's [`Segment::publish_ready`] | validates and attaches   |
//! | `ABANDONED`    | 2     | the creator dropping it before `READY`   | gets `Abandoned`         |
//!
//! Transitions: `INITIALIZING -> READY` and `INITIALIZING -> ABANDONED`, each once, each
//! followed by a futex wake of all waiters. An opener whose wait outlives the creator (a
//! creator killed while `INITIALIZING`) also gets `Abandoned`.
//!
//! # Memory ordering
//!
//! The creator writes the header fields and initializes the payload with plain stores, then
//! stores `READY` with `Release`; an opener loads the ready word with `Acquire` before reading
//! any other header field, so it sees everything the creator wrote before publishing. The
//! attached table uses one slot per process: a slot is claimed by a CAS of its pid word
//! from 0 (`Acquire`, pairs with the `Release` store of 0 by the previous holder), then the
//! start time is stored with `Release` (pairs with the `Acquire` load in readers).
//!
//! Both protocols are small private functions on the atomic facade's words
//! (`publish_ready_word`, `abandon_ready_word`, `await_ready_word`; `claim_slot`,
//! `release_slot`, `read_slot`) that the segment calls on its header, so the module's
//! `loom_tests` model-check exactly that code under `cfg(loom)`.
//!
//! # Peers that leave
//!
//! A segment is a [`PeerWatch`](crate::sync::PeerWatch): waits that pass it as their peers end with
//! [`WaitError::PeerGone`](crate::sync::WaitError::PeerGone) naming a process when another **peer** has left. The rule:
//!
//! - Every attacher is a *peer* (the creator always), unless it opens with
//!   [`OpenOptions::observer`]: an observer (a monitoring tool) is never waited on, so its
//!   exit, death or detach never fails anyone's wait.
//! - A peer has left when it died attached (killed, or exited without dropping its
//!   segment), or when it *detached*: dropped its [`Segment`] — after an early return with
//!   an error, or while unwinding from a panic. Detaching leaves a departure record in its
//!   table slot ([`Segment::departed`] says which peer and how).
//! - Every later wait on the segment fails while a record is kept: a peer that left can no
//!   longer do what the waiter waits for. A wait whose condition holds still succeeds: the
//!   loop polls once more after a failed peer check, so a peer that publishes and then
//!   leaves (the normal end of a protocol) ends nothing.
//! - Queues count only peers that died or panicked: each queue end closes in the queue's
//!   own words when dropped (and rings), so a clean leaving is seen there, and one producer
//!   that finished must not end another's wait.
//! - Records go away when the same process attaches again, when the table runs full, or by
//!   [`Segment::forget_departed`] (a supervisor that replaced a worker). Dropping a
//!   segment thus ends the *peers'* waits, never an observer's leaving.
//!
//! # Hostile names
//!
//! `/dev/shm` is writable by every user. Opens never follow a symbolic link (`O_NOFOLLOW`)
//! and never block (`O_NONBLOCK`); the name must be a regular file (`lstat` before, `fstat`
//! after), else [`SegmentError::NotRegular`]. The header's creator must be our uid (unless
//! [`OpenOptions::any_owner`]), the object's owner, and the pid in the name
//! ([`SegmentError::CreatorMismatch`]). Creation reserves the memory (`fallocate`), so a
//! full `/dev/shm` is [`SegmentError::NoSpace`] at creation, not a SIGBUS at the first
//! write.
//!
//! # Unlink policy
//!
//! A named segment's name is removed (`shm_unlink`) when
//! - its creator drops it (openers keep their mapping; later opens fail with `NotFound`), or
//! - any other process drops it and finds the creator dead or itself the last attached live
//!   process,
//!
//! so a survivor leaves nothing behind after a SIGKILLed peer. A handle dropped in a
//! process other than the one that made it (a `fork`ed child that exits normally: Python's
//! interpreter finalization, a C child freeing its copies) only unmaps: the name, the
//! table slot and the ready word belong to the process that created or opened it (issue
//! #40: a forked child's exit removed its parent's channel). Before unlinking, the dropper
//! checks that the name still refers to the same object (device + inode), so it never
//! removes a newer segment that reused the name. Segments whose every user was killed are
//! removed by [`cleanup_stale`].
//!
//! Linux only; elsewhere (and under `cfg(loom)`, where shared memory cannot hold loom's
//! atomics) every constructor returns [`SegmentError::Sys`] (`Unsupported`).

pub use crate::layout::ShmSafe;

// One file per protocol: each holds that protocol's docs, code and (for the lock-free ones)
// the functions the loom models check.
mod cleanup;
pub(crate) mod error;
mod header;
pub(crate) mod names;
mod open;
mod ready;
mod segment;
mod table;

pub use cleanup::{cleanup_stale, list_segments, remove_if_stale};
pub use error::SegmentError;
pub(crate) use error::{ApiOption, Result};
use header::published_creator;
// The header's layout is the segment's business: crate-private (`tests.rs` pins it).
#[allow(unused_imports)] // some are used by the unit tests only
pub(crate) use header::{
    offsets, ABANDONED, HEADER_SIZE, INITIALIZING, LAYOUT_VERSION, READY, SLOT_SIZE,
};
pub(crate) use names::segment_name;
pub use segment::{OpenOptions, Segment, SegmentOptions};
pub use table::{Departure, DepartureKind, DEFAULT_SLOTS};

/// The magic bytes at offset 0 of every segment.
pub(crate) const MAGIC: [u8; 8] = *b"HNDOFSEG";

#[cfg(all(test, not(loom), target_os = "linux"))]
mod tests;

#[cfg(all(test, loom))]
mod loom_tests;
