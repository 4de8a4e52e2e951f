//! Platform layer: the only module that makes system calls or holds FFI `unsafe`.
//!
//! Linux first. On other platforms the functions here return [`crate::Error::Unsupported`].

pub mod affinity;
pub mod cache;
pub mod clock;
pub mod deadline;
pub mod fsinfo;
pub mod futex;
pub mod mem;
pub mod pipe;
pub mod posix_sem;
pub mod proc;
pub mod topology;
pub mod usage;

pub use deadline::Deadline;
pub use proc::ProcessId;
