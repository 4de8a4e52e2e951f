//! Synchronization primitives that live in shared memory and work between threads and
//! between processes. Every blocking call takes a [`Wait`] strategy, an optional deadline and
//! the peers to watch, and returns [`crate::WaitError`] on a timeout or a dead peer; calls
//! with a bad argument return [`SyncError`].
//!
//! | primitive | what it is | wakes |
//! |---|---|---|
//! | [`Flag`] | a 32-bit value / sequence word: release publish, acquire wait | all sleepers |
//! | [`Signal`] | a 64-bit counter (counting-put completion): add, set, wait until ≥ n | all sleepers |
//! | [`Semaphore`] | a counting semaphore | one sleeper per post |
//! | [`Barrier`] | N parties, reusable (generation counting) | all, by the last arrival |
//! | [`Doorbell`] | the sleeper half alone, for words that live elsewhere (a team's signal words) | all sleepers, rung by the writer |
//! | [`RangeBell`] | a doorbell whose sleepers name the byte range they wait on (a team PE's heap) | only the sleepers whose range was written |
//!
//! Each is `repr(C, align(128))` (one cache-line pair, never shared with a neighbour),
//! pointer-free and valid when all-zero, so it can be placed in a [`crate::shm`] segment.
//! [`wait`] explains the strategies and the one wait loop they all use.

pub mod barrier;
pub mod doorbell;
mod error;
pub mod flag;
pub mod rangebell;
pub mod semaphore;
pub mod signal;
pub mod wait;

pub use crate::peers::{NoPeers, PeerWatch};
pub use barrier::{Barrier, BarrierWaitResult};
pub use doorbell::Doorbell;
pub use error::SyncError;
pub use flag::Flag;
pub use rangebell::RangeBell;
pub use semaphore::Semaphore;
pub use signal::Signal;
pub use wait::{CpuHint, Wait, WaitCondition};
