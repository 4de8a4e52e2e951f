//! handoff: shared-memory hand-off and synchronization between processes and threads.
//!
//! Layers, bottom to top; a module imports only from its own layer or the ones below
//! (`tests/layers.rs` checks it):
//! 1. [`sys`]: the platform — every syscall and FFI `unsafe` (mappings, futex, affinity,
//!    process identity, deadlines), thin safe wrappers with their own [`sys::Error`];
//! 2. shared building blocks: the std/loom atomics facade (crate-private), the
//!    [`shm::ShmSafe`] marker, and peer watching ([`sync::PeerWatch`], [`WaitError`]);
//! 3. [`sync`] and [`shm`], siblings that never import each other: flags, signals
//!    (counting-put counters), semaphores and barriers with spin / block / adaptive waits
//!    that notice a dead peer; named segments with a validated header;
//! 4. [`channel`]: zero-copy block channels between a producer and a consumer (loan, write
//!    in place, publish; receive, read in place, drop to release);
//! 5. [`Error`], which wraps each layer's error.
//!
//! Linux only for now: elsewhere every constructor returns [`Error::Unsupported`]. The
//! measurement machinery of the project's lab (topology, TSC clock, cache flushing, the
//! cache-line floor) lives in the `handoff-probe` crate, not here.
//!
//! ```
//! use handoff::shm::Segment;
//! use handoff::sync::{flag::Flag, Wait};
//! use handoff::sys::Deadline;
//! use std::time::Duration;
//!
//! // Process A: create a segment, put a flag in it, publish.
//! let seg = Segment::create("doc-demo", 4096)?;
//! let flag: &Flag = seg.get(0)?;
//! seg.publish_ready();
//! // Process B: open it by the name A reports (seg.name()), wait for the flag.
//! let seg_b = Segment::open(seg.name().unwrap(), Deadline::after(Duration::from_secs(1)))?;
//! let flag_b: &Flag = seg_b.get(0)?;
//! flag.store(1);
//! flag_b.wait_for(1, Wait::ADAPTIVE, Some(Deadline::after(Duration::from_secs(1))), &seg_b)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

// Layer 1: the platform.
pub mod sys;
// Layer 2: shared building blocks.
pub(crate) mod atomic;
mod layout;
mod peers;
// Layer 3: siblings.
pub mod shm;
pub mod sync;
// Layer 4.
pub mod channel;
// Layer 5: the crate error.
pub mod error;

pub use error::{Error, Result, WaitError};
