//! Platform layer: the only module that makes system calls or holds FFI `unsafe`.
//!
//! Linux first. On other platforms the functions here return [`crate::Error::Unsupported`].

pub mod affinity;
pub mod cache;
pub mod clock;
pub mod deadline;
pub mod futex;
pub mod mem;
pub mod proc;
pub mod topology;

pub use deadline::Deadline;
pub use proc::ProcessId;
