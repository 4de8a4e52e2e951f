//! Synchronization primitives that live in shared memory and work between threads and
//! between processes. Every blocking call takes a [`Wait`] strategy and an optional deadline.

pub mod atomic;
pub mod barrier;
pub mod flag;
pub mod peers;
pub mod semaphore;
pub mod signal;
pub mod wait;

pub use peers::{NoPeers, PeerWatch};
