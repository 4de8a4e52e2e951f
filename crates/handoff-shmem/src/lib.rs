//! OpenSHMEM 1.5 for C programs, over handoff's team (`handoff::team`): `shmem.h` and
//! `shmemx.h` in `include/`, this library as `libhandoff_shmem.so` / `.a`, the compile wrapper
//! `bin/oshcc`, and `handoff run -n N -- PROGRAM` as `oshrun`. An OpenSHMEM program that uses
//! the calls listed in the README runs unmodified: recompile with `oshcc`, start with
//! `handoff run`.
//!
//! # Semantics on one node
//!
//! - Symmetric objects are `shmem_malloc`/`calloc`/`align`/`realloc` blocks of the team's
//!   symmetric heap (`handoff run --heap SIZE`, default 64 MiB per PE). Symmetric static and
//!   global variables are not supported: passing one is reported as "not in the symmetric heap".
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
//! Every wait uses the team's strategy (`handoff run --wait`, default adaptive: spin ~20 µs,
//! then sleep on the PE's doorbell). Signals, AMOs and scalar `shmem_TYPE_p` stores of 4- and
//! 8-byte words (hardware atomic stores here) always ring the target's doorbell. Bulk puts
//! wake a target they see asleep (best effort: a waiter registering at that very instant is
//! woken by the writer's next `shmem_quiet`, a barrier, or its 50 ms sleep slice). Set flags
//! with `shmem_TYPE_p`, an AMO or a signal and no wake-up is ever late.
//!
//! # Errors
//!
//! Misuse (a non-symmetric address, a PE out of range, a bad comparison, PEs disagreeing on a
//! collective allocation, an unsupported call) and failures (a PE that died) print one line,
//! `handoff-shmem: PE r: shmem_call: what went wrong and what to do`, and end the PE with exit
//! code 1; the other PEs' waits then fail naming it and the launcher ends the team.
//!
//! # Threads
//!
//! `SHMEM_THREAD_FUNNELED`: every call from the thread that called `shmem_init`.

// Under loom (`--cfg loom`) only the protocol models build: the team is not built there.
#[cfg(not(loom))]
pub mod amo;
#[cfg(not(loom))]
pub mod coll;
#[cfg(not(loom))]
pub mod ct;
#[cfg(not(loom))]
pub mod error;
#[cfg(not(loom))]
pub mod heap;
#[cfg(not(loom))]
pub mod lock;
pub mod lock_protocol;
#[cfg(not(loom))]
pub mod rma;
#[cfg(not(loom))]
pub mod setup;
#[cfg(not(loom))]
pub mod signal;
#[cfg(not(loom))]
pub mod state;
#[cfg(not(loom))]
pub mod team_reduce;
#[cfg(not(loom))]
pub mod teams;
#[cfg(not(loom))]
pub mod wait;

#[cfg(not(loom))]
pub use error::{ShmemError, EXIT_ERROR};
