//! [`Aggregator`]: packs small messages into the frames of a [`FrameProducer`], and
//! [`Messages`], the zero-copy unpacking of a received [`Frame`].
//!
//! # Format of an aggregated frame
//!
//! Messages follow each other, each a little-endian `u32` length, its bytes, and padding
//! to a multiple of 4 bytes:
//!
//! ```text
//! [len u32][bytes...][pad to 4][len u32][bytes...][pad to 4]...
//! ```
//!
//! # When a frame is sent
//!
//! - when the next message does not fit in the open frame (the open frame is sent, the
//!   message starts a new one);
//! - on [`Aggregator::flush`] (and when the aggregator is dropped or
//!   [`into_inner`](Aggregator::into_inner)ed);
//! - after `max_delay`, counted from the frame's first message. The age is checked on
//!   every [`push`](Aggregator::push) and by [`poll`](Aggregator::poll): an application
//!   that stops pushing must call `poll` (or `flush`) when it goes idle — no timer thread
//!   runs behind its back.
//!
//! The open frame is reserved in the ring (written in place, no staging copy) and
//! committed when sent; the receiver iterates its messages with [`Messages`] without
//! copying them.

use std::time::Duration;

use super::error::QueueError;
use super::frame::{Frame, FrameProducer};
use crate::sync::wait::Call;
use crate::sync::Patience;
use crate::sys::deadline::monotonic_ns;

/// Bytes of a message's length prefix.
const PREFIX: usize = 4;

/// The frame being filled.
#[derive(Debug, Clone, Copy)]
struct Open {
    /// Its position in the ring (from `FrameProducer::reserve`).
    at: u64,
    /// Bytes used so far.
    used: usize,
    /// Messages in it.
    messages: usize,
    /// When its first message arrived (CLOCK_MONOTONIC ns).
    since_ns: u64,
}

/// Packs small messages into frames of a frame queue (module docs for when frames are
/// sent).
#[derive(Debug)]
pub struct Aggregator {
    tx: FrameProducer,
    frame_size: usize,
    max_delay_ns: Option<u64>,
    open: Option<Open>,
}

/// Bytes a message of `len` bytes takes in a frame.
#[inline]
fn record_len(len: usize) -> usize {
    PREFIX + len.next_multiple_of(PREFIX)
}

impl Aggregator {
    /// Aggregates into frames of `frame_size` bytes (at most the queue's largest frame),
    /// sent at the latest `max_delay` after their first message (`None`: only when full or
    /// flushed).
    ///
    /// Errors: [`QueueError::InvalidConfig`] for a frame too small for one prefix, or
    /// [`QueueError::TooBig`] for one larger than the queue's largest frame.
    pub fn new(
        tx: FrameProducer,
        frame_size: usize,
        max_delay: Option<Duration>,
    ) -> Result<Aggregator, QueueError> {
        if frame_size < 2 * PREFIX {
            return Err(QueueError::InvalidConfig(format!(
                "an aggregated frame of {frame_size} bytes cannot hold a message: ask for at \
                 least {} bytes",
                2 * PREFIX
            )));
        }
        if frame_size > tx.max_frame() {
            return Err(QueueError::TooBig {
                what: "frame",
                len: frame_size,
                max: tx.max_frame(),
            });
        }
        Ok(Aggregator {
            tx,
            frame_size: frame_size - frame_size % PREFIX,
            max_delay_ns: max_delay.map(|d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)),
            open: None,
        })
    }

    /// The largest message, in bytes.
    pub fn max_message(&self) -> usize {
        self.frame_size - PREFIX
    }

    /// Messages waiting in the open frame.
    pub fn pending(&self) -> usize {
        self.open.map_or(0, |o| o.messages)
    }

    /// Adds `msg` to the open frame, sending the frame first when `msg` does not fit and
    /// after it when the frame is older than `max_delay`. Waits (with the producer's
    /// [`Patience`]) only when a new frame needs room in the ring.
    ///
    /// Errors: [`QueueError::TooBig`] for a message over
    /// [`max_message`](Self::max_message); those of [`FrameProducer::loan`].
    pub fn push(&mut self, msg: &[u8]) -> Result<(), QueueError> {
        self.push_until(msg, Call::Patient(self.tx.patience()))
    }

    /// [`push`](Self::push), waiting at most `timeout` for room.
    pub fn push_timeout(&mut self, msg: &[u8], timeout: Duration) -> Result<(), QueueError> {
        self.push_until(msg, Call::Timeout(self.tx.patience(), timeout))
    }

    /// [`push`](Self::push) without waiting: [`QueueError::Timeout`] at once when a new
    /// frame has no room in the ring.
    pub fn try_push(&mut self, msg: &[u8]) -> Result<(), QueueError> {
        self.push_until(msg, Call::Try)
    }

    /// How [`push`](Self::push) waits (the producer's patience).
    pub fn patience(&self) -> Patience {
        self.tx.patience()
    }

    /// Sets how [`push`](Self::push) waits (the producer's patience).
    pub fn set_patience(&mut self, patience: Patience) {
        self.tx.set_patience(patience);
    }

    fn push_until(&mut self, msg: &[u8], call: Call) -> Result<(), QueueError> {
        let rec = record_len(msg.len());
        if msg.len() > self.max_message() {
            return Err(QueueError::TooBig {
                what: "message",
                len: msg.len(),
                max: self.max_message(),
            });
        }
        if self.open.is_some_and(|o| o.used + rec > self.frame_size) {
            self.flush();
        }
        let mut o = match self.open {
            Some(o) => o,
            None => Open {
                at: self.tx.reserve(self.frame_size, call)?,
                used: 0,
                messages: 0,
                since_ns: monotonic_ns(),
            },
        };
        // SAFETY: `o.at` was reserved for `frame_size` bytes and is not committed; this is
        // the only reference to them (the aggregator owns the producer).
        let bytes = unsafe { self.tx.frame_bytes(o.at, self.frame_size) };
        let rec_bytes = &mut bytes[o.used..o.used + rec];
        rec_bytes[..PREFIX].copy_from_slice(&(msg.len() as u32).to_le_bytes());
        rec_bytes[PREFIX..PREFIX + msg.len()].copy_from_slice(msg);
        rec_bytes[PREFIX + msg.len()..].fill(0);
        o.used += rec;
        o.messages += 1;
        self.open = Some(o);
        self.poll();
        Ok(())
    }

    /// Sends the open frame if it is older than `max_delay`; returns whether it sent one.
    /// Call it when idle (module docs).
    pub fn poll(&mut self) -> bool {
        match (self.open, self.max_delay_ns) {
            (Some(o), Some(max)) if monotonic_ns().saturating_sub(o.since_ns) >= max => {
                self.flush();
                true
            }
            _ => false,
        }
    }

    /// Sends the open frame now, if any; returns how many messages it held.
    pub fn flush(&mut self) -> usize {
        match self.open.take() {
            Some(o) => {
                self.tx.commit_frame(o.at, o.used);
                o.messages
            }
            None => 0,
        }
    }

    /// Flushes and gives the producer back.
    pub fn into_inner(mut self) -> FrameProducer {
        self.flush();
        // The aggregator has nothing else to drop: move the producer out through a
        // ManuallyDrop so `Drop for Aggregator` does not flush twice.
        let me = std::mem::ManuallyDrop::new(self);
        // SAFETY: `me` is never used or dropped again; `tx` is read out exactly once.
        unsafe { std::ptr::read(&me.tx) }
    }
}

impl Drop for Aggregator {
    fn drop(&mut self) {
        self.flush();
    }
}

/// The messages of an aggregated frame, borrowed from it (no copies). Ends at the end of
/// the frame or at the first malformed record ([`is_malformed`](Self::is_malformed) then
/// says so).
#[derive(Debug, Clone)]
pub struct Messages<'a> {
    rest: &'a [u8],
    malformed: bool,
}

impl<'a> Messages<'a> {
    /// The messages packed in `bytes` (an aggregated frame).
    pub fn new(bytes: &'a [u8]) -> Messages<'a> {
        Messages {
            rest: bytes,
            malformed: false,
        }
    }

    /// Whether the iteration stopped at a record that runs past the frame.
    pub fn is_malformed(&self) -> bool {
        self.malformed
    }
}

impl<'a> Iterator for Messages<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        if self.rest.is_empty() {
            return None;
        }
        let Some((prefix, body)) = self.rest.split_first_chunk::<PREFIX>() else {
            self.malformed = true;
            self.rest = &[];
            return None;
        };
        let len = u32::from_le_bytes(*prefix) as usize;
        let padded = len.next_multiple_of(PREFIX);
        if padded > body.len() {
            self.malformed = true;
            self.rest = &[];
            return None;
        }
        let msg = &body[..len];
        self.rest = &body[padded..];
        Some(msg)
    }
}

impl Frame<'_> {
    /// The messages of an aggregated frame (see [`Aggregator`]), without copying them.
    pub fn messages(&self) -> Messages<'_> {
        Messages::new(self)
    }
}
