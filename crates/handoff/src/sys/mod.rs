//! Platform layer: the only module that makes system calls or holds FFI `unsafe`. Thin safe
//! wrappers with their own small [`Error`]; no naming or cleanup policy (that is
//! [`crate::shm`]'s).
//!
//! Public for what applications need next to segments and waits: [`Deadline`] (and the
//! clock it reads, [`monotonic_ns`]), [`ProcessId`] (segments report their creator and
//! attached processes by it; [`UnixSignal`] to stop one), thread and process pinning
//! ([`allowed_cpus`], [`pin_current_thread`], [`pin_process`], CPU lists in `taskset -c`
//! syntax: [`parse_cpu_list`], [`format_cpu_list`]), and the shared-memory filesystem's
//! [`page_size`] and [`shm_available`] space. Second views of shared pages at chosen
//! addresses (`alias_shared`, `reserve_aligned`: handoff-shmem moves a program's static data
//! into a transport's heap with them) are in `handoff::implementor`; the futex and other
//! mapping wrappers are crate-private.
//!
//! "CPU" everywhere in handoff means the Linux *logical CPU id*, the number in
//! `/sys/devices/system/cpu/cpuN` and in `taskset -c`. [`allowed_cpus`] is the set the
//! process may use as handoff first saw it (before it pinned anything), so pinning one
//! thread does not shrink the set the next pin is checked against; a process started under
//! `taskset -c 0` gets an error when it asks for CPU 1. Linux first: elsewhere the functions here return [`Error::Unsupported`].

// Private files, one job each; the public items are re-exported here, flat.
pub(crate) mod affinity;
// Only the team segment (not built under loom) makes views, for handoff-shmem.
#[cfg(all(not(loom), feature = "implementor"))]
pub(crate) mod alias;
mod cpulist;
pub(crate) mod deadline;
mod error;
pub(crate) mod futex;
pub(crate) mod mem;
pub(crate) mod proc;

pub use affinity::{
    allowed_cpus, current_cpu, online_cpus, pin_current_thread, pin_process, thread_affinity,
};
pub use cpulist::{format_cpu_list, parse_cpu_list};
pub use deadline::{monotonic_ns, Deadline};
pub use error::Error;
pub(crate) use error::Result;
pub use mem::{page_size, shm_available};
pub use proc::{kill, Liveness, Pidfd, ProcessId, UnixSignal};
