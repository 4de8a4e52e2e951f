//! The record protocol of the byte-frame ring ([`FrameQueue`](super::FrameQueue)): where a
//! record goes, when a PAD record is needed, and how the header word travels, over the SPSC
//! positions of `index`. `frame` runs it on its data area; the loom models below run the same
//! functions on loom cells.
//!
//! # Records
//!
//! The area is `units` words of 8 bytes; unit `u` of the index protocol lives at word
//! `u % units`. A record is a header word followed by its bytes, padded to 8:
//!
//! ```text
//! [ header: len (bits 0..32) | tag (bits 32..40) ][ len bytes ][ pad to 8 ]
//! ```
//!
//! A record never wraps. When a frame of `need` units does not fit between the producer's
//! position and the end of the area (`need > to_end`), the producer
//! 1. waits until the `to_end` units up to the end are free,
//! 2. writes a PAD header covering them (`len = (to_end - 1) * 8`: a PAD of one unit is a
//!    bare header),
//! 3. commits the PAD alone (a PAD and the frame together may exceed the capacity),
//!
//! then waits for `need` units from the start of the area, and later writes the frame's
//! header and commits the frame. The consumer reads a header only in a unit it has seen
//! committed, skips (releases) PAD records, and refuses a header whose record runs past the
//! committed units or the end of the area (a damaged or hostile segment) with `Corrupt`.
//!
//! # Memory ordering
//!
//! Nothing beyond `index`: every header and byte is written before the Release store of
//! `tail` that commits it (SYNC POINT A of `index`) and read after the consumer's Acquire load
//! that saw it; the consumer's reads of a record happen before its release (SYNC POINT B), so
//! the producer never overwrites a record, PAD or frame, that is still being read.

use super::index::{ConsumerIndex, Found, Indices, ProducerIndex};
use crate::sync::wait::Wait;
use crate::sync::PeerWatch;
use crate::sync::WaitError;
use crate::sys::Deadline;

/// Bytes per unit: the header word's size and the records' alignment.
pub(crate) const UNIT: usize = 8;
/// Header tag of a frame.
pub(crate) const TAG_FRAME: u64 = 1;
/// Header tag of a PAD record (skipped by the consumer).
pub(crate) const TAG_PAD: u64 = 2;

/// Units a record of `len` bytes takes, header included.
#[inline]
pub(crate) fn units_of(len: usize) -> u64 {
    (1 + len.div_ceil(UNIT)) as u64
}

/// The words of a record ring: the frame ring's data area, or loom cells in the models.
pub(crate) trait Words {
    /// Words in the area (the ring's capacity in units).
    fn units(&self) -> u64;

    /// Writes word `u % units`.
    ///
    /// # Safety
    /// Unit `u` must be the producer's: reserved by a wait for room, not yet committed.
    unsafe fn write_word(&self, u: u64, word: u64);

    /// Reads word `u % units`.
    ///
    /// # Safety
    /// Unit `u` must be the consumer's: committed, not yet released.
    unsafe fn read_word(&self, u: u64) -> u64;
}

/// Why a record could not be placed or read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RecordError {
    /// The other side closed (for a consumer: and every committed record was read).
    Closed,
    /// The wait ended without room or data (timeout, dead peer, interrupted).
    Wait(WaitError),
    /// A header no correct producer writes: why.
    Corrupt(String),
}

/// How a wait for room or data goes: the strategy (`None`: poll once), the deadline and the
/// peers to watch.
pub(crate) struct Waiting<'a, P: ?Sized> {
    pub(crate) how: Option<Wait>,
    pub(crate) deadline: Option<Deadline>,
    pub(crate) peers: &'a P,
}

impl<P: ?Sized> Clone for Waiting<'_, P> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P: ?Sized> Copy for Waiting<'_, P> {}

fn header(len: usize, tag: u64) -> u64 {
    len as u64 | (tag << 32)
}

fn wait_free<P: PeerWatch + ?Sized>(
    idx: &mut ProducerIndex,
    ix: &Indices,
    n: u64,
    w: Waiting<'_, P>,
) -> Result<(), RecordError> {
    match idx.wait_free(ix, n, w.how, w.deadline, w.peers) {
        Ok(Found::Ready(_)) => Ok(()),
        Ok(Found::Closed) => Err(RecordError::Closed),
        Err(e) => Err(RecordError::Wait(e)),
    }
}

/// Reserves room for a frame of `len` bytes (`units_of(len) <= words.units()`, checked by
/// the caller), committing a PAD record first when the frame would cross the end of the
/// area; returns the frame's position (its header's unit). Its bytes are the `len` bytes
/// after the header word, contiguous.
pub(crate) fn reserve<W: Words + ?Sized, P: PeerWatch + ?Sized>(
    idx: &mut ProducerIndex,
    ix: &Indices,
    words: &W,
    len: usize,
    w: Waiting<'_, P>,
) -> Result<u64, RecordError> {
    let need = units_of(len);
    debug_assert!(need <= words.units());
    let tail = idx.tail();
    let to_end = words.units() - tail % words.units();
    if need > to_end {
        // The PAD covers the rest of the area: wait until all of it is free, write its
        // header, commit it alone.
        wait_free(idx, ix, to_end, w)?;
        // SAFETY: the `to_end` units from `tail` are free (just waited for).
        unsafe { words.write_word(tail, header((to_end - 1) as usize * UNIT, TAG_PAD)) };
        idx.commit(ix, to_end);
    }
    wait_free(idx, ix, need, w)?;
    Ok(idx.tail())
}

/// Commits the frame reserved at `at` with `len` bytes (at most what was reserved): writes
/// its header, then publishes it.
pub(crate) fn commit<W: Words + ?Sized>(
    idx: &mut ProducerIndex,
    ix: &Indices,
    words: &W,
    at: u64,
    len: usize,
) {
    debug_assert_eq!(at, idx.tail());
    // SAFETY: `at` is the reserved, uncommitted header unit (the caller's reservation).
    unsafe { words.write_word(at, header(len, TAG_FRAME)) };
    idx.commit(ix, units_of(len));
}

/// Waits for the next frame, releasing the PAD records before it; returns its position (its
/// header's unit) and length. The frame's bytes stay the consumer's until
/// [`release`] of `len`.
pub(crate) fn next<W: Words + ?Sized, P: PeerWatch + ?Sized>(
    idx: &mut ConsumerIndex,
    ix: &Indices,
    words: &W,
    w: Waiting<'_, P>,
) -> Result<(u64, usize), RecordError> {
    loop {
        let have = match idx.wait_available(ix, 1, w.how, w.deadline, w.peers) {
            Ok(Found::Ready(have)) => have,
            Ok(Found::Closed) => return Err(RecordError::Closed),
            Err(e) => return Err(RecordError::Wait(e)),
        };
        let at = idx.head();
        // SAFETY: unit `at` is committed (the wait saw `tail > head`, Acquire) and not
        // released.
        let word = unsafe { words.read_word(at) };
        let (len, tag) = ((word & 0xffff_ffff) as usize, word >> 32);
        let units = units_of(len);
        let to_end = words.units() - at % words.units();
        if units > to_end || units > have {
            return Err(RecordError::Corrupt(format!(
                "a record of {len} bytes at unit {at} runs past the data committed or the end \
                 of the ring"
            )));
        }
        match tag {
            TAG_FRAME => return Ok((at, len)),
            TAG_PAD => idx.release(ix, units),
            t => {
                return Err(RecordError::Corrupt(format!(
                    "unknown record tag {t} at unit {at}"
                )))
            }
        }
    }
}

/// Releases the frame of `len` bytes that [`next`] returned.
#[inline]
pub(crate) fn release(idx: &mut ConsumerIndex, ix: &Indices, len: usize) {
    idx.release(ix, units_of(len));
}

#[cfg(all(test, loom))]
#[path = "record_loom.rs"]
mod loom_tests;
