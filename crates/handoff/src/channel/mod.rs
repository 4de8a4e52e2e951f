//! Zero-copy block channels: one producer hands blocks to one consumer, in threads or
//! processes, without copying them.
//!
//! A channel is a ring of `blocks` equal blocks of `block_size` bytes in shared memory. The
//! producer **loans** a free block, writes it in place and **publishes** it; the consumer
//! **receives** the next published block, reads it in place, and **dropping** what it
//! received releases the block to the producer. This is the source paper's producer /
//! consumer exchange as an API: the bytes never move, only two counters change hands (see
//! `ring` for the protocol and its memory ordering).
//!
//! The types carry the protocol: a [`Loan`] borrows the [`Producer`] mutably and
//! [`Loan::publish`] consumes it, so a block cannot be written after it was published; a
//! [`Received`] borrows the [`Consumer`] and its slices live no longer than it does, so a
//! block cannot be read after it was released. Each side is claimed once per channel.
//!
//! Each end holds its [`Patience`](crate::sync::Patience) (a [`Wait`](crate::sync::Wait)
//! strategy and a default timeout; `set_patience`), and each blocking call has three forms:
//! [`recv`](Consumer::recv) waits with it, [`recv_timeout`](Consumer::recv_timeout) waits at
//! most the duration given, [`try_recv`](Consumer::try_recv) does not wait
//! ([`ChannelError::Timeout`] at once); likewise `loan`, `loan_timeout`, `try_loan`. A
//! call that finds its block ready does not read the clock. A consumer sees
//! [`ChannelError::Closed`] after the producer dropped its side and every published block was
//! read; a producer sees it at its next loan once the consumer dropped its side (also when a
//! side panics and unwinds). A process on the other side that dies without closing (killed,
//! aborted) ends the wait with [`ChannelError::PeerGone`] within about 100 ms.
//!
//! ```
//! use handoff::channel::{Channel, ChannelConfig};
//! use handoff::sync::{Patience, Wait};
//! use handoff::sys::Deadline;
//! use std::time::Duration;
//!
//! // Process A (here: the same process) creates the channel and produces.
//! let chan = Channel::create("doc-field", ChannelConfig::new(4096, 2))?;
//! let mut tx = chan.producer()?;
//! // Process B opens it by the name A reports, with the same configuration.
//! let name = chan.name().unwrap().to_string();
//! let chan_b = Channel::open(&name, ChannelConfig::new(4096, 2), Deadline::after(Duration::from_secs(1)))?;
//! let mut rx = chan_b.consumer()?;
//!
//! let mut block = tx.loan()?; // waits with the producer's patience (default: adaptive, no timeout)
//! block.as_mut_slice::<f64>().fill(1.5); // write in place
//! block.publish();
//!
//! rx.set_patience(Patience::new(Wait::Block).with_timeout(Some(Duration::from_secs(1))));
//! let got = rx.recv()?; // or rx.recv_timeout(Duration::from_secs(1)), or rx.try_recv()
//! let sum: f64 = got.as_slice::<f64>().iter().sum(); // read in place
//! assert_eq!(sum, 1.5 * 512.0);
//! drop(got); // releases the block to the producer
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Between threads, [`Channel::anonymous`] and [`Channel::split`] give both ends at once.

#[cfg(not(loom))]
mod layout;
mod ring;

#[cfg(not(loom))]
use crate::sync::WaitError;
use std::fmt;

#[cfg(not(loom))]
pub use api::{Channel, Consumer, Loan, Producer, Received};

/// The shape of a channel: both sides must agree on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChannelConfig {
    /// Bytes per block.
    pub block_size: usize,
    /// Blocks in the ring: how many the producer may publish before the consumer releases
    /// one (1 = strict lock-step).
    pub blocks: usize,
}

impl ChannelConfig {
    /// `blocks` blocks of `block_size` bytes.
    pub const fn new(block_size: usize, blocks: usize) -> Self {
        ChannelConfig { block_size, blocks }
    }
}

/// A side of a channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The side that loans and publishes blocks.
    Producer,
    /// The side that receives and releases blocks.
    Consumer,
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Producer => "producer",
            Role::Consumer => "consumer",
        })
    }
}

/// Why a channel operation failed. Each message says what to do.
#[derive(Debug, thiserror::Error)]
pub enum ChannelError {
    /// The configuration cannot describe a channel.
    #[error("invalid channel configuration: {0}")]
    InvalidConfig(String),
    /// The segment holds something other than a channel.
    #[error(
        "segment {name} is not a handoff channel (no channel header): check the name, or {}",
        crate::shm::ApiOption::PlainSegment
    )]
    NotAChannel {
        /// The segment's name.
        name: String,
    },
    /// The two sides disagree on the channel's shape.
    #[error(
        "channel {name} has {what} {found}, but this side expects {expected}: {}",
        crate::shm::ApiOption::ChannelShape
    )]
    Mismatch {
        /// The channel's name.
        name: String,
        /// Which property differs.
        what: &'static str,
        /// What this side asked for.
        expected: u64,
        /// What the channel has.
        found: u64,
    },
    /// Another handle already holds this side.
    #[error(
        "the {role} side of channel {name} is already taken: a channel connects one producer \
         and one consumer; create another channel for another pair"
    )]
    RoleTaken {
        /// The side asked for.
        role: Role,
        /// The channel's name.
        name: String,
    },
    /// The other side closed the channel (dropped its end, or unwound from a panic).
    #[error("the {by} closed the channel: no more blocks will be {}", if *by == Role::Producer { "published" } else { "read" })]
    Closed {
        /// The side that closed.
        by: Role,
    },
    /// The process on the other side died without closing.
    #[error("the process on the other side of the channel (pid {pid}) died while we waited")]
    PeerGone {
        /// Its pid.
        pid: u32,
    },
    /// The deadline passed, or a `try_` call found nothing to do.
    #[error("timed out: no {what} before the deadline")]
    Timeout {
        /// What was waited for.
        what: &'static str,
    },
    /// A ring counter in the shared segment breaks the protocol (another process wrote the
    /// channel's memory): nothing was handed out.
    #[error(
        "channel {name} is corrupt: its {counter} count is {found} where the protocol allows \
         {low} to {high}; another process wrote the channel's memory. No block was handed out \
         and the channel cannot be trusted any more: recreate it (and find out who wrote it)"
    )]
    Corrupt {
        /// The channel's name.
        name: String,
        /// Which counter: `published` (seen by the consumer) or `released` (by the producer).
        counter: &'static str,
        /// Its value.
        found: u64,
        /// The least value allowed now.
        low: u64,
        /// The greatest value allowed now.
        high: u64,
    },
    /// Creating, opening or mapping the segment failed.
    #[error(transparent)]
    Segment(#[from] crate::shm::SegmentError),
}

#[cfg(not(loom))]
impl ChannelError {
    fn from_wait(e: WaitError, what: &'static str) -> Self {
        match e {
            WaitError::Timeout => ChannelError::Timeout { what },
            WaitError::PeerGone { pid } => ChannelError::PeerGone { pid },
        }
    }
}

#[cfg(not(loom))]
mod api;
