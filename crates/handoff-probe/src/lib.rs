//! handoff-probe: the measurement machinery of the handoff lab, kept out of the `handoff`
//! library's public API: machine topology, the TSC clock, cache flushing, the cache-to-cache
//! floor ([`floor`]), POSIX named semaphores, pipes, file-system and CPU-usage probes, what
//! else the machine did during a run ([`load`]), and the
//! child-process guards the lab's workers use.
//!
//! It builds on `handoff` (deadlines, process identity, affinity) and uses the crate's
//! [`Error`].
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

mod atomic;
pub mod cache;
pub mod cleanup;
pub mod clock;
pub mod floor;
pub mod fsinfo;
pub mod load;
pub mod pipe;
pub mod posix_sem;
pub mod proc;
pub mod topology;
pub mod units;
pub mod usage;
pub mod window;
pub mod words;

pub use handoff::sync::WaitError;
pub use handoff::{Error, Result};
