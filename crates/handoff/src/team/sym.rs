//! Handles to symmetric objects: [`Sym`] (an object every PE allocated with the same
//! collective call, at the same heap offset on each), [`SymAt`] (one element of one),
//! [`Counter`] and [`Line`].
//!
//! A handle holds an offset and a length, never an address: the remote address is
//! (PE, handle, element offset), resolved by the transport against that PE's partition.

use std::marker::PhantomData;

use crate::atomic::AtomicU64;

/// A symmetric object of `len` elements of `T`, at the same offset in every PE's heap.
/// Made by [`Team::alloc`](super::Team::alloc); `Copy`, so handles are cheap to pass around.
#[derive(Debug)]
pub struct Sym<T> {
    pub(super) offset: usize,
    pub(super) len: usize,
    pub(super) _t: PhantomData<fn() -> T>,
}

impl<T> Clone for Sym<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Sym<T> {}

impl<T> Sym<T> {
    /// Elements in the object.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the object has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Byte offset of the object in each PE's heap partition.
    pub fn heap_offset(&self) -> usize {
        self.offset
    }

    /// Element `index` (checked when used: an index past the end is
    /// [`TeamError::OutOfBounds`](super::TeamError::OutOfBounds) there).
    pub fn at(&self, index: usize) -> SymAt<T> {
        SymAt { sym: *self, index }
    }
}

impl Sym<Line> {
    /// The same lines as words, [`LINE_WORDS`] per line, the sequence word last: for code
    /// that needs a word in the very cache line a hand-off uses (the lab's floors bounce on
    /// a line's first payload word between samples). A store into a sequence word through
    /// this view is a `put_line` without its payload: keep such stores out of a line's
    /// protocol.
    pub fn words(&self) -> Sym<u64> {
        Sym {
            offset: self.offset,
            // Cannot overflow: `alloc` made room for `len` lines of LINE_WORDS words each.
            len: self.len * LINE_WORDS,
            _t: PhantomData,
        }
    }
}

/// One element of a symmetric object: a signal word, an atomic word, a [`Line`].
#[derive(Debug)]
pub struct SymAt<T> {
    pub(super) sym: Sym<T>,
    pub(super) index: usize,
}

impl<T> Clone for SymAt<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for SymAt<T> {}

impl<T> SymAt<T> {
    /// The object.
    pub fn sym(&self) -> Sym<T> {
        self.sym
    }
    /// The element index.
    pub fn index(&self) -> usize {
        self.index
    }
}

impl<T> From<Sym<T>> for SymAt<T> {
    /// Element 0.
    fn from(sym: Sym<T>) -> Self {
        sym.at(0)
    }
}

impl<T> From<&Sym<T>> for SymAt<T> {
    /// Element 0.
    fn from(sym: &Sym<T>) -> Self {
        sym.at(0)
    }
}

/// A counting-put counter (the seed's `shmem_ct_t`): one per PE, at the same index on every
/// PE, managed by its receiver. Made by [`Team::ct_create`](super::Team::ct_create).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counter(pub(super) usize);

impl Counter {
    /// The counter's index (`0..MAX_COUNTERS`).
    pub fn index(&self) -> usize {
        self.0
    }
}

/// Payload bytes of one [`Line`]: a 64-byte cache line less its sequence word.
pub const LINE_PAYLOAD: usize = 56;

/// Words of one [`Line`] ([`Sym::words`]): its payload's seven, then its sequence word.
pub const LINE_WORDS: usize = 8;

/// A cache line holding a small payload and its sequence word, so a small put and its
/// signal move as one line transfer (`put_line` / `wait_line`).
///
/// Layout: payload bytes 0..56, sequence word (u64) at 56..64; `repr(C, align(64))`.
#[repr(C, align(64))]
#[derive(Debug)]
pub struct Line {
    pub(super) payload: [u8; LINE_PAYLOAD],
    pub(super) seq: AtomicU64,
}

// The words view's arithmetic (loom's atomics are larger than a word; teams are not built there).
#[cfg(not(loom))]
const _: () = assert!(std::mem::size_of::<Line>() == LINE_WORDS * 8);

// SAFETY: `Line` is `repr(C)`: 56 bytes then an AtomicU64 at offset 56 (aligned), size 64, no
// padding, no pointers; every bit pattern is valid (all-zero: empty payload, sequence 0).
// Not under loom (loom's atomics are not plain memory; teams are not built there).
#[cfg(not(loom))]
unsafe impl bytemuck::Zeroable for Line {}
