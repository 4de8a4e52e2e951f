//! Platform layer: the only module that makes system calls or holds FFI `unsafe`. Thin safe
//! wrappers with their own small [`Error`]; no naming or cleanup policy (that is
//! [`crate::shm`]'s).
//!
//! Public for what applications need next to segments and waits: [`Deadline`],
//! [`ProcessId`] (segments report their creator and attached processes by it), and
//! [`affinity`] (pinning the threads that share memory). The futex and mapping wrappers are
//! crate-private. Linux first: elsewhere the functions here return [`Error::Unsupported`].

pub mod affinity;
#[cfg(not(loom))] // only the team segment (not built under loom) uses views
pub(crate) mod alias;
mod cpulist;
pub mod deadline;
mod error;
pub(crate) mod futex;
#[doc(hidden)] // raw objects for the hostile-input tests only; not part of the API
pub mod mem;
pub mod proc;

pub use deadline::Deadline;
pub use error::{Error, Result};
pub use mem::page_size;
pub use proc::ProcessId;
