//! handoff: shared-memory hand-off and synchronization between processes and threads.
//!
//! Layers, bottom to top (see `DESIGN.md`):
//! - [`sys`]: every syscall and FFI `unsafe` (segments, futex, affinity, topology, clock,
//!   cache flush, process liveness);
//! - [`shm`]: named segments with a validated header, and the [`shm::ShmSafe`] marker for
//!   types that may live in one;
//! - [`sync`]: flags, signals (counting-put counters), semaphores and barriers with
//!   spin / block / adaptive waits that notice a dead peer;
//! - [`channel`]: zero-copy block channels between a producer and a consumer (loan, write
//!   in place, publish; receive, read in place, drop to release).
//!
//! Linux only for now: elsewhere every constructor returns [`Error::Unsupported`].
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

pub mod channel;
pub mod error;
pub mod floor;
pub mod shm;
pub mod sync;
pub mod sys;

pub use error::{Error, Result, WaitError};
