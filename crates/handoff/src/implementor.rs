//! For transport implementors, launchers and binding crates — not for applications: the
//! low-level pieces that handoff's own MPI transport (`handoff-mpi`), OpenSHMEM library
//! (`handoff-shmem`), launchers (`handoff run`, the lab) and C and Python bindings build on,
//! behind the `implementor` feature. An application finds everything it needs in the other
//! modules; these items change with the core's internals.
//!
//! - the mapped-heap data path ([`MappedHeap`], [`HeapBell`], [`Parts`]: copies, signals,
//!   atomics, bounds and wake-ups written once), for a transport that maps its peers' memory
//!   (MPI shared windows);
//! - a wait on words no waker rings ([`poll_until`]);
//! - the launcher's environment ([`ENV_TEAM`], [`ENV_RANK`], [`ENV_WAIT`], [`ENV_HEAP`] and
//!   their readers [`heap_from_env`], [`wait_from_env`]) and its spin check ([`check_spin`]);
//! - mapping memory over a program's own addresses ([`alias_shared`], [`reserve_aligned`]:
//!   OpenSHMEM's symmetric static data);
//! - segment names ([`segment_name`], [`parse_segment_name`], [`MAX_USER_NAME_LEN`]) for a
//!   tool that names objects beside handoff's;
//! - the advice in error messages ([`ApiOption`]), which each binding spells its own way.

pub use crate::shm::error::ApiOption;
pub use crate::shm::names::{parse_segment_name, segment_name, MAX_USER_NAME_LEN};
pub use crate::sync::wait::{check_spin, poll_until};
#[cfg(not(loom))]
pub use crate::sys::alias::{alias_shared, reserve_aligned};
#[cfg(not(loom))]
pub use crate::team::env::{heap_from_env, wait_from_env};
#[cfg(not(loom))]
pub use crate::team::mapped::{
    barrier as mapped_barrier, BarrierWords, HeapBell, MappedHeap, Parts,
};
pub use crate::team::vars::{ENV_HEAP, ENV_JOIN_TIMEOUT, ENV_RANK, ENV_TEAM, ENV_WAIT};
