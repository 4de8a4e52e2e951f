//! OpenSHMEM 1.5 for C programs, over handoff's team (`handoff::team`): `shmem.h` and
//! `shmemx.h` in `include/`, this library as `libhandoff_shmem.so` / `.a`, the compile wrapper
//! `bin/oshcc`, and `handoff run -n N -- PROGRAM` as `oshrun`. An OpenSHMEM program that uses
//! the calls listed in the README runs unmodified: recompile with `oshcc`, start with
//! `handoff run`.
//!
//! # Semantics on one node
//!
//! - Symmetric objects are `shmem_malloc`/`calloc`/`align`/`realloc` blocks of the team's
//!   symmetric heap (`handoff run --heap SIZE` or `SHMEM_SYMMETRIC_SIZE`, default 256 MiB per
//!   PE bounded by the free memory) and the executable's global and static variables, which
//!   `shmem_init` moves into the heap at their own addresses ([`symdata`]).
//! - Puts and gets are copies between the PEs' partitions of one shared mapping, complete on
//!   return (`_nbi` is the same call); `shmem_fence` is a Release fence and `shmem_quiet` a
//!   `SeqCst` fence (the team's ordering rules); `shmem_ptr` returns a direct pointer to
//!   any PE's object.
//! - Put-with-signal and the counting puts of `shmemx.h`: the target sees the signal (counter)
//!   only after the data, and a PE asleep in a wait there is woken by the update.
//! - AMOs are hardware RMWs on the target word, never a lock.
//!
//! # Waiting
//!
//! Every wait uses the team's strategy (`handoff run --wait`, default adaptive: spin up to
//! ~20 µs, learned per wait site, then sleep on the PE's heap bell as a waiter on exactly the
//! words it waits on). A write wakes only the sleepers whose words it wrote: a PE asleep in
//! `shmem_barrier_all` or on another variable costs a putting PE one load and no system call.
//! Signals, AMOs and scalar `shmem_TYPE_p` stores of 4- and 8-byte words wake a sleeper on
//! their word at once; bulk puts wake a sleeper they see on their bytes, and the writer's next
//! `shmem_quiet` or barrier wakes one that registered at that very instant. `shmem_set_lock`
//! sleeps on the lock word and is woken by the holder's release.
//!
//! # Errors
//!
//! Misuse (a non-symmetric address, a PE out of range, a bad comparison, PEs disagreeing on a
//! collective allocation, an unsupported call) and failures (a PE that died) print one line,
//! `handoff-shmem: PE r: shmem_call: what went wrong and what to do`, and end the PE with exit
//! code 1; the other PEs' waits then fail naming it and the launcher ends the team. Errors the
//! specification defines as return values are returned instead: NULL from an allocation the
//! heap has no room for, -1 and `SHMEM_TEAM_INVALID`/`SHMEM_CTX_INVALID` from a split or
//! context that cannot be made, no operation for quiet/fence/destroy on an invalid handle.
//!
//! # Profiling
//!
//! Every routine is also exported under its profiling name (`pshmem_*`; `src/profile.rs`).
//!
//! # Threads
//!
//! `SHMEM_THREAD_MULTIPLE`: any thread of the PE may call any routine at any time, except that
//! collective calls (on any team) are made by one thread of the PE at a time; puts, gets, AMOs
//! and waits take no lock.

// Under loom (`--cfg loom`) only the protocol models build: the team is not built there.
// `profiled!` (the profiling interface) first: the routines of the modules below use it.
#[cfg(not(loom))]
#[macro_use]
mod profile;
#[cfg(not(loom))]
pub mod amo;
#[cfg(not(loom))]
pub mod coll;
#[cfg(not(loom))]
mod coll_msgs;
#[cfg(not(loom))]
mod coll_reduce;
mod coll_slots;
#[cfg(not(loom))]
pub mod ct;
#[cfg(not(loom))]
pub mod ctx;
#[cfg(not(loom))]
pub mod env;
#[cfg(not(loom))]
pub mod error;
#[cfg(not(loom))]
pub mod heap;
#[cfg(not(loom))]
pub mod legacy;
#[cfg(not(loom))]
pub mod lock;
pub mod lock_protocol;
#[cfg(not(loom))]
pub mod net;
#[cfg(not(loom))]
pub mod rma;
#[cfg(not(loom))]
pub mod setup;
#[cfg(not(loom))]
pub mod signal;
#[cfg(not(loom))]
pub mod state;
#[cfg(not(loom))]
pub mod symdata;
#[cfg(not(loom))]
pub mod team_reduce;
#[cfg(not(loom))]
pub mod teams;
#[cfg(not(loom))]
pub mod wait;

#[cfg(not(loom))]
pub use error::{ShmemError, EXIT_ERROR};
