//! handoff: shared-memory hand-off and synchronization between processes and threads.
//!
//! # Where to start
//!
//! - [`channel`]: move blocks of bytes from a producer to a consumer, in threads or
//!   processes, without copying them: loan a block, write it in place, publish; receive,
//!   read in place, drop to release. Most applications need only this.
//! - [`queue`]: bounded lock-free queues of small items between threads or processes: SPSC
//!   rings (typed, or variable-size byte frames), a per-producer MPSC (Charm++) and a shared
//!   Vyukov MPSC, and an aggregator that packs small messages into frames.
//! - [`sync`]: the primitives under it, for protocols of your own in shared memory: flags,
//!   signals (counting-put counters), semaphores and barriers, each waiting with a spin /
//!   block / adaptive [`Wait`](sync::Wait) strategy and a deadline, and noticing a dead peer.
//! - [`shm`]: named shared segments with a validated header, to place those primitives (any
//!   [`ShmSafe`](shm::ShmSafe) type) where other processes can open them by name.
//! - [`team`]: N processes (PEs) started by `handoff run` or [`team::Launch`] that put into
//!   each other's symmetric heap, signal, count, run atomics and barriers (OpenSHMEM-style).
//! - [`sys`]: the few platform types the API above uses: [`Deadline`](sys::Deadline),
//!   [`ProcessId`](sys::ProcessId), and thread pinning ([`sys::pin_current_thread`]).
//!
//! Every area returns its own error ([`channel::ChannelError`], [`queue::QueueError`],
//! [`sync::WaitError`], [`shm::SegmentError`], [`team::TeamError`] (its epochs' included),
//! [`units::SizeError`]); the cases every layer shares — a system call failed, the platform
//! lacks a feature, a bad argument, a CPU not ours — are one type, [`sys::Error`]. [`Error`]
//! wraps them all with the same messages, so `?` works into one [`Result`].
//!
//! Two features open what only some users need: `diagnostics` (the lab's readings of the
//! waits) and `implementor` (`handoff::implementor`: what transports, launchers and
//! bindings built on the core use).
//!
//! Each module's public items sit directly in it (`handoff::sync::Flag`,
//! `handoff::sys::Deadline`): one path per item, and the files behind them are private. Linux only for now: elsewhere every
//! constructor returns an `Unsupported` error.
//!
//! ```
//! use handoff::shm::Segment;
//! use handoff::sync::{Flag, Waiter};
//! use handoff::sys::Deadline;
//! use std::time::Duration;
//!
//! // Process A: create a segment, put a flag in it, publish.
//! let seg = Segment::create("doc-demo", 4096)?;
//! let flag: &Flag = seg.get(0)?;
//! seg.publish_ready();
//! // Process B: open it by the name A reports (seg.name()), wait for the flag.
//! let seg_b = Segment::open(seg.name().unwrap(), Deadline::after(Duration::from_secs(1)))?;
//! let flag_b: &Flag = seg_b.get(0)?;
//! flag.store(1);
//! // B's waits: its patience (default: adaptive, no timeout), watching A's process.
//! let waiter = Waiter::watching(&seg_b);
//! flag_b.wait_for_timeout(1, Duration::from_secs(1), &waiter)?;
//! # Ok::<(), handoff::Error>(())
//! ```
//!
//! # Layers
//!
//! Bottom to top; a module imports only from its own layer or the ones below, and no two
//! modules or files import each other in a circle (`tests/layers.rs` checks both):
//! 1. [`sys`]: the platform — every syscall and FFI `unsafe`, thin safe wrappers;
//! 2. shared building blocks: the std/loom atomics facade (crate-private), the
//!    [`shm::ShmSafe`] marker and the workspace's one size rule ([`units`]);
//! 3. [`sync`]: the primitives, the wait loop, and peer watching ([`sync::PeerWatch`],
//!    [`sync::WaitError`]);
//! 4. [`shm`]: segments, which are the peers `sync` waits watch;
//! 5. [`channel`] and [`queue`], on both (siblings that never import each other);
//! 6. [`team`]: N processes with a symmetric heap, one-sided puts, signals, atomics and
//!    barriers, on everything below;
//! 7. [`Error`], which wraps each layer's error.
//!
//! The measurement machinery of the project's lab (topology, TSC clock, cache flushing, the
//! cache-line floor) lives in the `handoff-probe` crate, not here.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]
// Under `--cfg loom` the models build only the protocols they check (the channel ring, the
// futex timeouts and the process guards stay out), so what those alone use is dead there.
#![cfg_attr(loom, allow(dead_code, unused_imports))]

// Layer 1: the platform.
pub mod sys;
// Layer 2: shared building blocks.
pub(crate) mod atomic;
mod layout;
pub mod units;
// Layer 3: the primitives and the waits (peer watching and `WaitError` included).
pub mod sync;
// Layer 4: segments (a segment is a `sync::PeerWatch`).
pub mod shm;
// Layer 5: siblings.
pub mod channel;
pub mod queue;
// Layer 6.
pub mod team;
// Layer 7: the crate error.
mod error;
// What only the transports, launchers and bindings built on the core need.
#[cfg(feature = "implementor")]
pub mod implementor;

pub use error::{Error, Result};

/// One public path per item: the paths of the nested layout, the lab's items and the
/// segment header's internals are gone. Each block must fail to compile (`cargo test --doc`);
/// `tests/public_surface.rs` lists the flat paths (and every public signature).
///
/// The primitives' files:
///
/// ```compile_fail
/// use handoff::sync::flag::Flag;
/// ```
///
/// The wait loop's file:
///
/// ```compile_fail
/// use handoff::sync::wait::Wait;
/// ```
///
/// A second path to `Wait`:
///
/// ```compile_fail
/// use handoff::team::Wait;
/// ```
///
/// `WaitError` at the top:
///
/// ```compile_fail
/// use handoff::WaitError;
/// ```
///
/// The error module:
///
/// ```compile_fail
/// use handoff::error::Error;
/// ```
///
/// The platform's files:
///
/// ```compile_fail
/// use handoff::sys::affinity::pin_current_thread;
/// ```
///
/// Raw shared-memory objects:
///
/// ```compile_fail
/// use handoff::sys::mem::ShmFile;
/// ```
///
/// Rustix's `Signal`:
///
/// ```compile_fail
/// use handoff::sys::proc::Signal;
/// ```
///
/// The epochs' module:
///
/// ```compile_fail
/// use handoff::team::epoch::Epochs;
/// ```
///
/// The segment header's layout:
///
/// ```compile_fail
/// let _ = handoff::shm::HEADER_SIZE;
/// ```
///
/// The segment header's offsets:
///
/// ```compile_fail
/// let _ = handoff::shm::offsets::READY;
/// ```
///
/// The segment magic:
///
/// ```compile_fail
/// let _ = handoff::shm::MAGIC;
/// ```
///
/// The benchmarks' list of strategies:
///
/// ```compile_fail
/// let _ = handoff::sync::Wait::ALL;
/// ```
///
/// The low-level wait loop (internal; transports use `implementor::poll_until`):
///
/// ```compile_fail
/// use handoff::sync::wait_on;
/// ```
///
/// The launcher's environment names outside `implementor`:
///
/// ```compile_fail
/// let _ = handoff::team::ENV_TEAM;
/// ```
#[cfg(doctest)]
pub struct OldPathsAreGone;

/// Without the `diagnostics` feature, the adaptive waits' counts are not public:
///
/// ```compile_fail
/// let _ = handoff::sync::adaptive_stats();
/// ```
#[cfg(all(doctest, not(feature = "diagnostics")))]
pub struct DiagnosticsAreOptIn;

/// Without the `implementor` feature, the transports' and bindings' items are not public:
///
/// ```compile_fail
/// use handoff::implementor::ApiOption;
/// ```
#[cfg(all(doctest, not(feature = "implementor")))]
pub struct ImplementorIsOptIn;
