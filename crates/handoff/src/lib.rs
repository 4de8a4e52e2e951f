//! handoff: shared-memory hand-off and synchronization between processes and threads.
//!
//! Layers, bottom to top (see `DESIGN.md`):
//! - [`sys`]: every syscall and FFI `unsafe` (segments, futex, affinity, topology, clock,
//!   cache flush, process liveness);
//! - [`shm`]: named segments with a validated header, and the [`shm::ShmSafe`] marker for
//!   types that may live in one;
//! - [`sync`]: flags, signals (counting-put counters), semaphores and barriers with
//!   spin / block / adaptive waits that notice a dead peer.
//!
//! Linux only for now: elsewhere every constructor returns [`Error::Unsupported`].
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod error;
pub mod floor;
pub mod shm;
pub mod sync;
pub mod sys;

pub use error::{Error, Result, WaitError};
