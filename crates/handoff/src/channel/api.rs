//! The channel's handles: [`Channel`], [`Producer`] / [`Loan`], [`Consumer`] / [`Received`].
//! (Not under `cfg(loom)`: segments cannot hold loom's atomics; `ring`'s models cover the
//! protocol these handles run.)

use super::layout::{ChannelHeader, Geometry};
use super::ring::{ConsumerCursor, ProducerCursor, Slot};
use super::{ChannelConfig, ChannelError, Role};
use crate::shm::Segment;
use crate::sync::wait::{parts, Call};
use crate::sync::Patience;
use crate::sys::Deadline;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;
use std::time::Duration;

/// What both handles of one process share: the mapping and its geometry.
#[derive(Debug)]
struct Shared {
    seg: Segment,
    geo: Geometry,
    /// The segment's name (or "anonymous"), for messages.
    label: String,
}

impl Shared {
    #[inline]
    fn header(&self) -> &ChannelHeader {
        // Bounds and alignment were checked when the channel was created or opened
        // (`Geometry::payload_len` covers the header), so this cannot fail.
        self.seg
            .get::<ChannelHeader>(0)
            .expect("channel header checked at open")
    }

    /// Address of slot `i`'s first byte.
    #[inline]
    fn block_ptr(&self, i: usize) -> *mut u8 {
        self.seg.as_ptr().wrapping_add(self.geo.block_offset(i))
    }
}

/// A channel mapped in this process; hands out its [`Producer`] and [`Consumer`] ends.
///
/// Create it in one process ([`Channel::create`]) and open it by name in the other
/// ([`Channel::open`]), or use [`Channel::anonymous`] between threads. See the
/// [module docs](super).
#[derive(Debug)]
pub struct Channel {
    shared: Arc<Shared>,
}

impl Channel {
    /// Creates a named channel `/handoff-<pid>-<name>~<random>` (see [`Channel::name`] for the full
    /// name to give the other process).
    pub fn create(name: &str, cfg: ChannelConfig) -> Result<Channel, ChannelError> {
        let geo = Geometry::of(&cfg)?;
        let seg = Segment::create(name, geo.payload_len)?;
        seg.get::<ChannelHeader>(0)?.init(&geo);
        // Publishes the header to openers (Release; the segment's ready protocol).
        seg.publish_ready();
        let label = seg.name().unwrap_or(name).to_string();
        Ok(Channel::from_parts(seg, geo, label))
    }

    /// A channel in an anonymous segment, for threads of this process.
    pub fn anonymous(cfg: ChannelConfig) -> Result<Channel, ChannelError> {
        let geo = Geometry::of(&cfg)?;
        let seg = Segment::anonymous(geo.payload_len)?;
        // No other thread can see the segment before `Channel` is shared with it (a thread
        // spawn or channel send orders these stores).
        seg.get::<ChannelHeader>(0)?.init(&geo);
        Ok(Channel::from_parts(seg, geo, "anonymous".into()))
    }

    /// Opens the channel `name` (the creator's [`Channel::name`]), waiting until `deadline`
    /// for its creator to publish it. `cfg` must equal the creator's: a different block size
    /// or count is refused with [`ChannelError::Mismatch`].
    pub fn open(
        name: &str,
        cfg: ChannelConfig,
        deadline: Deadline,
    ) -> Result<Channel, ChannelError> {
        let geo = Geometry::of(&cfg)?;
        let seg = Segment::open(name, deadline)?;
        if seg.payload_len() < std::mem::size_of::<ChannelHeader>() {
            return Err(ChannelError::NotAChannel { name: name.into() });
        }
        seg.get::<ChannelHeader>(0)?.validate(name, &geo)?;
        if seg.payload_len() < geo.payload_len {
            return Err(ChannelError::Mismatch {
                name: name.into(),
                what: "payload size (bytes)",
                expected: geo.payload_len as u64,
                found: seg.payload_len() as u64,
            });
        }
        Ok(Channel::from_parts(seg, geo, name.into()))
    }

    fn from_parts(seg: Segment, geo: Geometry, label: String) -> Channel {
        Channel {
            shared: Arc::new(Shared { seg, geo, label }),
        }
    }

    /// The full name to open it by in another process; `None` for an anonymous channel.
    pub fn name(&self) -> Option<&str> {
        self.shared.seg.name()
    }

    /// The channel's shape.
    pub fn config(&self) -> ChannelConfig {
        ChannelConfig::new(self.shared.geo.block_size, self.shared.geo.blocks)
    }

    /// Claims the producer side (once per channel, across all processes).
    pub fn producer(&self) -> Result<Producer, ChannelError> {
        self.shared
            .header()
            .claim(Role::Producer, &self.shared.label)?;
        Ok(Producer {
            cursor: ProducerCursor::new(self.shared.geo.blocks),
            shared: self.shared.clone(),
            patience: Patience::default(),
        })
    }

    /// Claims the consumer side (once per channel, across all processes).
    pub fn consumer(&self) -> Result<Consumer, ChannelError> {
        self.shared
            .header()
            .claim(Role::Consumer, &self.shared.label)?;
        Ok(Consumer {
            cursor: ConsumerCursor::new(self.shared.geo.blocks),
            shared: self.shared.clone(),
            patience: Patience::default(),
        })
    }

    /// Both ends, for two threads.
    pub fn split(self) -> Result<(Producer, Consumer), ChannelError> {
        Ok((self.producer()?, self.consumer()?))
    }
}

/// The producing end: loans free blocks and publishes them. Dropping it closes the channel
/// for the consumer (after it drains what was published).
#[derive(Debug)]
pub struct Producer {
    shared: Arc<Shared>,
    cursor: ProducerCursor,
    patience: Patience,
}

/// A cursor's answer as a slot index, or the error naming `closer` (the other side) and
/// `what` was awaited.
#[inline]
fn slot_or_error(
    got: Result<Slot, crate::sync::WaitError>,
    closer: Role,
    what: &'static str,
    label: &str,
) -> Result<usize, ChannelError> {
    match got {
        Ok(Slot::Ready(i)) => Ok(i),
        Ok(Slot::Closed) => Err(ChannelError::Closed { by: closer }),
        Ok(Slot::Corrupt(c)) => Err(ChannelError::Corrupt {
            name: label.to_string(),
            counter: c.counter,
            found: c.found,
            low: c.low,
            high: c.high,
        }),
        Err(e) => Err(ChannelError::from_wait(e, what)),
    }
}

impl Producer {
    /// Waits (with its [`Patience`]) for a free block and loans it.
    ///
    /// Errors: [`ChannelError::Closed`] once the consumer closed; `PeerGone` if its process
    /// died; `Timeout` when the patience's timeout passes.
    #[inline]
    pub fn loan(&mut self) -> Result<Loan<'_>, ChannelError> {
        self.loan_until(Call::Patient(self.patience))
    }

    /// [`loan`](Self::loan), waiting at most `timeout` (`Timeout` after it).
    #[inline]
    pub fn loan_timeout(&mut self, timeout: Duration) -> Result<Loan<'_>, ChannelError> {
        self.loan_until(Call::Timeout(self.patience, timeout))
    }

    /// Loans a free block if one is free now; [`ChannelError::Timeout`] at once if every
    /// block is in flight.
    #[inline]
    pub fn try_loan(&mut self) -> Result<Loan<'_>, ChannelError> {
        self.loan_until(Call::Try)
    }

    #[inline]
    fn loan_until(&mut self, call: Call) -> Result<Loan<'_>, ChannelError> {
        let slot = self.acquire(call)?;
        Ok(Loan {
            producer: self,
            slot,
        })
    }

    /// How [`loan`](Self::loan) waits: strategy and default timeout.
    pub fn patience(&self) -> Patience {
        self.patience
    }

    /// Sets how [`loan`](Self::loan) (and `loan_timeout`'s strategy) waits.
    pub fn set_patience(&mut self, patience: Patience) {
        self.patience = patience;
    }

    /// Polls, then waits as `call` says (`Try`: `Timeout` at once if nothing is free).
    #[inline]
    fn acquire(&mut self, call: Call) -> Result<usize, ChannelError> {
        let sh = &*self.shared;
        let cursor = &mut self.cursor;
        call.attempt(
            |until| {
                let (how, deadline) = parts(until);
                let got = cursor.acquire(&sh.header().ring, how, deadline, &sh.seg);
                slot_or_error(got, Role::Consumer, "free block", &sh.label)
            },
            |e| matches!(e, ChannelError::Timeout { .. }),
        )
    }

    /// Blocks published so far (the sequence number of the next one).
    pub fn published(&self) -> u64 {
        self.cursor.head()
    }

    /// Bytes per block.
    pub fn block_size(&self) -> usize {
        self.shared.geo.block_size
    }
}

impl Drop for Producer {
    fn drop(&mut self) {
        // A `fork`ed copy does not close its maker's side (`Segment::forked_away`).
        if !self.shared.seg.forked_away() {
            self.cursor.close(&self.shared.header().ring);
        }
    }
}

/// A block loaned to the producer: write it in place, then [`publish`](Loan::publish) it.
/// Dropping a loan without publishing keeps the block for the next loan: the next `loan` or
/// `try_loan` returns the same block, with what was written to it (the C and Python
/// bindings, which cannot hold a borrow, publish by loaning again).
#[derive(Debug)]
pub struct Loan<'p> {
    producer: &'p mut Producer,
    slot: usize,
}

impl Loan<'_> {
    /// The block's sequence number (0 for the first block the producer publishes).
    pub fn seq(&self) -> u64 {
        self.producer.cursor.head()
    }

    /// The block as `T`s: `block_size / size_of::<T>()` of them (a trailing remainder
    /// smaller than one `T` is left out). Blocks are 128-byte aligned.
    ///
    /// # Panics
    /// If `T` is zero-sized or aligned to more than 128 bytes.
    pub fn as_mut_slice<T: bytemuck::Pod>(&mut self) -> &mut [T] {
        let n = self.len() / std::mem::size_of::<T>();
        bytemuck::cast_slice_mut(&mut self[..n * std::mem::size_of::<T>()])
    }

    /// Publishes the block to the consumer. The loan is consumed: the block cannot be
    /// written any more.
    #[inline]
    pub fn publish(self) {
        let sh = &*self.producer.shared;
        self.producer.cursor.publish(&sh.header().ring);
    }
}

impl Deref for Loan<'_> {
    type Target = [u8];
    #[inline]
    fn deref(&self) -> &[u8] {
        let sh = &*self.producer.shared;
        // SAFETY: the slot lies in the payload (`Geometry` was validated against the
        // segment at open); the ring gave this slot to the producer (its Acquire load of
        // `released` pairs with the consumer's Release in `ConsumerCursor::release`) until
        // `publish`, which consumes the loan; the loan borrows the producer mutably, so no
        // other loan exists.
        unsafe { std::slice::from_raw_parts(sh.block_ptr(self.slot), sh.geo.block_size) }
    }
}

impl DerefMut for Loan<'_> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [u8] {
        let sh = &*self.producer.shared;
        // SAFETY: as in `deref`; the `&mut self` borrow makes this the only reference.
        unsafe { std::slice::from_raw_parts_mut(sh.block_ptr(self.slot), sh.geo.block_size) }
    }
}

/// The consuming end: receives published blocks in order. Dropping it closes the channel
/// for the producer.
#[derive(Debug)]
pub struct Consumer {
    shared: Arc<Shared>,
    cursor: ConsumerCursor,
    patience: Patience,
}

impl Consumer {
    /// Waits (with its [`Patience`]) for the next published block.
    ///
    /// Errors: [`ChannelError::Closed`] once the producer closed and every block it
    /// published was received; `PeerGone` if its process died; `Timeout` when the
    /// patience's timeout passes.
    #[inline]
    pub fn recv(&mut self) -> Result<Received<'_>, ChannelError> {
        self.recv_until(Call::Patient(self.patience))
    }

    /// [`recv`](Self::recv), waiting at most `timeout` (`Timeout` after it).
    #[inline]
    pub fn recv_timeout(&mut self, timeout: Duration) -> Result<Received<'_>, ChannelError> {
        self.recv_until(Call::Timeout(self.patience, timeout))
    }

    /// The next block if one is published now; [`ChannelError::Timeout`] at once otherwise.
    #[inline]
    pub fn try_recv(&mut self) -> Result<Received<'_>, ChannelError> {
        self.recv_until(Call::Try)
    }

    #[inline]
    fn recv_until(&mut self, call: Call) -> Result<Received<'_>, ChannelError> {
        let slot = self.acquire(call)?;
        Ok(Received {
            consumer: self,
            slot,
        })
    }

    /// How [`recv`](Self::recv) waits: strategy and default timeout.
    pub fn patience(&self) -> Patience {
        self.patience
    }

    /// Sets how [`recv`](Self::recv) (and `recv_timeout`'s strategy) waits.
    pub fn set_patience(&mut self, patience: Patience) {
        self.patience = patience;
    }

    /// Polls, then waits as `call` says (`Try`: `Timeout` at once if nothing is published).
    #[inline]
    fn acquire(&mut self, call: Call) -> Result<usize, ChannelError> {
        let sh = &*self.shared;
        let cursor = &mut self.cursor;
        call.attempt(
            |until| {
                let (how, deadline) = parts(until);
                let got = cursor.acquire(&sh.header().ring, how, deadline, &sh.seg);
                slot_or_error(got, Role::Producer, "published block", &sh.label)
            },
            |e| matches!(e, ChannelError::Timeout { .. }),
        )
    }

    /// Blocks received and released so far (the sequence number of the next one).
    pub fn received(&self) -> u64 {
        self.cursor.tail()
    }

    /// Bytes per block.
    pub fn block_size(&self) -> usize {
        self.shared.geo.block_size
    }
}

impl Drop for Consumer {
    fn drop(&mut self) {
        // A `fork`ed copy does not close its maker's side (`Segment::forked_away`).
        if !self.shared.seg.forked_away() {
            self.cursor.close(&self.shared.header().ring);
        }
    }
}

/// A received block: read it in place; dropping it releases the block to the producer.
///
/// Forgetting it instead (`std::mem::forget`: it owns nothing but the borrow) releases
/// nothing: the next `recv` or `try_recv` returns the same block again, at once. The C and
/// Python bindings, which cannot hold a borrow, hand a block out this way and release it by
/// receiving it again and dropping it.
#[derive(Debug)]
pub struct Received<'c> {
    consumer: &'c mut Consumer,
    slot: usize,
}

impl Received<'_> {
    /// The block's sequence number (the producer's [`Loan::seq`] when it published it).
    pub fn seq(&self) -> u64 {
        self.consumer.cursor.tail()
    }

    /// The block as `T`s (see [`Loan::as_mut_slice`]).
    ///
    /// # Panics
    /// If `T` is zero-sized or aligned to more than 128 bytes.
    pub fn as_slice<T: bytemuck::Pod>(&self) -> &[T] {
        let n = self.len() / std::mem::size_of::<T>();
        bytemuck::cast_slice(&self[..n * std::mem::size_of::<T>()])
    }
}

impl Deref for Received<'_> {
    type Target = [u8];
    #[inline]
    fn deref(&self) -> &[u8] {
        let sh = &*self.consumer.shared;
        // SAFETY: the slot lies in the payload (validated geometry); the producer published
        // it (the consumer's Acquire loads of `published` and `written` pair with the
        // Releases in `ProducerCursor::publish`) and does not write it again until this
        // `Received` is dropped and releases it; slices borrow `self`, so none outlives the
        // release.
        unsafe { std::slice::from_raw_parts(sh.block_ptr(self.slot), sh.geo.block_size) }
    }
}

impl Drop for Received<'_> {
    #[inline]
    fn drop(&mut self) {
        let sh = &*self.consumer.shared;
        self.consumer.cursor.release(&sh.header().ring);
    }
}

#[cfg(test)]
mod tests;
