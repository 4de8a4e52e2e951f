//! Synchronization primitives that live in shared memory and work between threads and
//! between processes. The waiting side holds its policy in a [`Waiter`] (a [`Patience`]:
//! strategy and default timeout, and the peers to watch), since a primitive in shared memory
//! cannot hold one process's; every blocking call has three forms — `flag.wait_for(v,
//! &waiter)` waits with the waiter's patience, `flag.wait_for_timeout(v, d, &waiter)` at
//! most `d`, `flag.try_wait_for(v)` not at all — and returns [`WaitError`] on a timeout
//! (also a `try_` call's "would block") or a dead peer; calls with a bad argument return
//! [`sys::Error::InvalidArgument`](crate::sys::Error::InvalidArgument). The low-level waits
//! ([`Doorbell::wait`], [`RangeBell::wait`], and for transport implementors
//! `handoff::implementor::poll_until`) take one call's [`Until`].
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
//! [Waiting](#waiting) below explains the strategies and the one wait loop they all use; each
//! primitive's protocol and memory-ordering notes are in its source file.
//!
//! # Waiting
//!
//! | [`Wait`] | how it waits | costs | use it when |
//! |---|---|---|---|
//! | [`Spin`](Wait::Spin) | re-reads the word with a `pause` between reads | a whole CPU while waiting | waiter and peer run on *different* CPUs and the wait is short |
//! | [`SpinYield`](Wait::SpinYield) | 64 `pause` spins, then `sched_yield` between reads | a CPU, but gives it up to other runnable threads | CPUs are shared and latency still matters |
//! | [`Block`](Wait::Block) | futex sleep | one wake-up syscall per hand-off (15-28 µs across CPUs on a KVM VM) | waits are long, or CPUs are scarce |
//! | [`Adaptive`](Wait::Adaptive) | spins up to `spin_budget` (yields instead when the peer last ran on *this* CPU), then futex sleep | spin-like when the peer answers within the budget, block-like otherwise | the default |
//!
//! **`Spin` on a shared CPU is a mistake**: a spinner that shares its CPU with the thread it
//! waits for only lets that thread run when the scheduler preempts it (a whole tick per
//! hand-off). Pin the two parties to distinct CPUs, or use `Adaptive`, which notices the case
//! (every primitive keeps a hint of the CPU its last publisher ran on) and yields to the
//! peer instead of pausing. A launcher refuses `Spin` where it cannot work
//! (`handoff::implementor::check_spin`).
//!
//! `Adaptive` learns, per wait site, whether waits end within the budget; once most outlast
//! it, it spins only 1 µs and probes the full budget again every 16th wait. The default
//! budget, [`Wait::DEFAULT_SPIN_BUDGET`], is about one cross-CPU futex wake-up (the classic
//! 2-competitive bound); `adaptive:<N>` (see [`Wait`]'s `FromStr`) sets another.
//!
//! Every wait runs one loop over a condition: poll (an Acquire load), spin (reading the clock for the deadline
//! and the peer check every 64 iterations), then register as a sleeper, re-check and sleep on
//! the futex in slices of at most 50 ms. A deadline ends the wait with
//! [`WaitError::Timeout`], but only after one more poll found the condition still false. A
//! dead peer ends it with [`WaitError::PeerGone`] within about 50 ms: spinners check their
//! [`PeerWatch`] every 2^16 iterations or 50 ms, sleepers between slices. Wakers skip the
//! wake syscall when nobody sleeps, so a hand-off between two spinners makes no syscall.

// Private files, one primitive (or protocol) each; the public items are re-exported here,
// flat: `handoff::sync::Flag`, never `handoff::sync::flag::Flag`.
pub(crate) mod barrier;
pub(crate) mod doorbell;
pub(crate) mod flag;
mod peers;
pub(crate) mod rangebell;
pub(crate) mod semaphore;
pub(crate) mod signal;
pub(crate) mod wait;
pub(crate) mod waiter;

pub use barrier::{Barrier, BarrierWaitResult, MAX_PARTIES};
pub use doorbell::Doorbell;
pub use flag::Flag;
pub use peers::{NoPeers, PeerWatch, WaitError};
pub use rangebell::RangeBell;
pub use semaphore::Semaphore;
pub use signal::Signal;
/// Counts of how `Adaptive` waits ended on the calling thread (spun, blocked, yielded...),
/// the futex wake-ups of this process, the machine's measured sleep + wake-up cost and
/// whether it is oversubscribed now: diagnostics for the lab's wait benchmarks, behind the
/// `diagnostics` feature.
#[cfg(feature = "diagnostics")]
pub use wait::{adaptive_stats, reset_adaptive_stats, AdaptiveStats};
#[cfg(all(not(loom), feature = "diagnostics"))]
pub use wait::{futex_wakes, measure_wake_cost, oversubscribed_now, wake_cost, WakeCost};
pub use wait::{Patience, Until, Wait};
// The low-level waits the primitives, queues and team are built from; a transport outside
// this crate finds the ones it needs in `crate::implementor`.
pub(crate) use wait::{poll_quickly, poll_until, CpuHint};
pub use waiter::Waiter;
