//! Lock-free queues between threads or processes: bounded SPSC rings (typed, or byte frames
//! of any size), two multi-producer designs (one of them also multi-consumer), and an aggregator that packs small messages
//! into frames.
//!
//! | type | what | model |
//! |---|---|---|
//! | [`Spsc`] → [`Producer`] / [`Consumer`] | bounded SPSC ring of `T: Pod`; push/pop, slices, in-place chunks | rtrb |
//! | [`FrameQueue`] → [`FrameProducer`] / [`FrameConsumer`] | SPSC ring of variable-size byte frames, written and read in place | a bip buffer |
//! | [`LaneMpsc`] → [`LaneProducer`]s / [`LaneConsumer`] | one SPSC lane per producer, drained round-robin; producers join and leave | Charm++'s per-producer queues |
//! | [`ArrayMpmc`] (= [`ArrayMpsc`]) → [`ArrayProducer`]s / [`ArrayConsumer`]s | one shared array with a sequence stamp per slot; producers and consumers join and leave | Vyukov; crossbeam's `ArrayQueue` |
//! | [`Aggregator`] / [`Messages`] | small messages packed into frames; unpacked in place | the many-core seed's aggregation |
//!
//! Every queue lives either on the heap (`new` / `on_heap`: threads of one process) or in a
//! named shared segment (`create` in one process, `open` by [`name`](Spsc::name) in the
//! other), with the same layout and code. Elements are `bytemuck::Pod` (plain bytes, `Copy`,
//! no `Drop`): queues copy them in and out and never drop anything.
//!
//! # Waiting, closing, dead peers
//!
//! Each end holds its [`Patience`](crate::sync::Patience) (a [`Wait`](crate::sync::Wait)
//! strategy and a default timeout; `set_patience`), and each blocking call has three forms,
//! as crossbeam's: `pop()` waits with it, `pop_timeout(d)` waits at most `d`, `try_pop()`
//! does not wait ([`QueueError::Timeout`] at once); likewise `push`, `push_slice`,
//! `pop_into`, `write_chunk`, `read_chunk`, frames' `loan`, `send` and `recv`, and the
//! aggregator's `push`. A push that fails hands its value back, as rtrb's
//! (`QueueError::Timeout { item, .. }` for a full queue, and `Closed`). A call that finds
//! room or data at once does not read the clock. A side that waits with
//! `Block` or `Adaptive` sleeps on a futex doorbell and costs no CPU; the other side wakes
//! it, and skips the syscall when nobody sleeps. Dropping an end closes it: a consumer
//! drains what was pushed, then gets [`QueueError::Closed`]; a producer gets `Closed` the
//! next time it looks at the consumer's position (at the latest when the queue looks full:
//! positions are cached, rtrb's design). A process that dies (or panics) on the other side
//! ends a wait with [`QueueError::PeerGone`] within about 100 ms — also when it died in the
//! middle of a frame, which is never delivered. One that leaves cleanly ends no wait: its
//! ends closed, and the other producers of an MPSC queue keep theirs.
//!
//! ```
//! use handoff::queue::{QueueError, Spsc};
//! use std::time::Duration;
//!
//! let (mut tx, mut rx) = Spsc::<u64>::new(1024)?;
//! let t = std::thread::spawn(move || {
//!     for i in 0..10_000u64 {
//!         tx.push(i).unwrap(); // waits for room with the end's patience
//!     }
//! }); // dropping `tx` closes the queue
//! let mut sum = 0;
//! while let Ok(v) = rx.pop_timeout(Duration::from_secs(10)) {
//!     sum += v;
//! }
//! t.join().unwrap();
//! assert_eq!(sum, 10_000 * 9_999 / 2);
//!
//! let (mut tx, _rx) = Spsc::<u64>::new(1)?;
//! tx.try_push(1)?;
//! // Full: `try_push` does not wait and hands the value back.
//! assert!(matches!(tx.try_push(2), Err(QueueError::Timeout { item: 2, .. })));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Protocols
//!
//! One protocol per file, each with its memory-ordering notes and loom models of its own
//! code: `index` (the SPSC positions with cached copies; every ring here runs it),
//! `doorbell` (sleeping and waking, armed only when someone sleeps), `lane` (producers
//! joining and leaving the lanes of [`LaneMpsc`]), `record` (where a byte frame goes, and
//! the PAD record before a wrap, of [`FrameQueue`]) and `stamp` (Vyukov's per-slot stamps of
//! [`ArrayMpmc`]). The handles (`spsc`, `frame`, `lanes`, `array`, `aggregate`) and the
//! memory they live in (`region`: heap block or segment, header validation) run them.
//!
//! Typed queues restrict `T` to `bytemuck::Pod` on purpose: such values can cross a process
//! boundary, and since they have no `Drop`, no element is ever dropped twice or leaked by a
//! queue (nothing to count).

// The protocols, model-checked under loom (where the handles below do not exist, so some of
// their items are unused there).
#[cfg_attr(loom, allow(dead_code))]
mod doorbell;
mod error;
#[cfg_attr(loom, allow(dead_code))]
mod index;
#[cfg_attr(loom, allow(dead_code))]
mod lane;
#[cfg_attr(loom, allow(dead_code))]
mod record;
#[cfg_attr(loom, allow(dead_code))]
mod stamp;

#[cfg(not(loom))]
mod aggregate;
#[cfg(not(loom))]
mod array;
#[cfg(not(loom))]
mod frame;
#[cfg(not(loom))]
mod lanes;
#[cfg(not(loom))]
mod region;
#[cfg(not(loom))]
mod spsc;

pub use error::{QueueError, Side};

#[cfg(not(loom))]
pub use aggregate::{Aggregator, Messages};
#[cfg(not(loom))]
pub use array::{ArrayConsumer, ArrayMpmc, ArrayMpsc, ArrayProducer};
#[cfg(not(loom))]
pub use frame::{Frame, FrameConsumer, FrameLoan, FrameProducer, FrameQueue};
#[cfg(not(loom))]
pub use lanes::{LaneConsumer, LaneMpsc, LaneProducer};
#[cfg(not(loom))]
pub use spsc::{Consumer, Producer, ReadChunk, Spsc, WriteChunk};
