//! The operation vocabulary of a team: signal updates, comparisons, remote atomic operations,
//! and the protocol functions that apply them to a word, written on the crate's atomics
//! facade so the loom models check exactly this code.
//!
//! # Memory ordering
//!
//! - [`apply_signal`] updates a signal word with `Release` (a store for [`SignalOp::Set`], an
//!   RMW for [`SignalOp::Add`]); it pairs with the `Acquire` load in [`load_signal`], which
//!   every signal wait polls with. Data a putter copied before the update is therefore
//!   visible to a waiter that sees the new signal value.
//! - [`apply_atomic`] runs the hardware RMW with `AcqRel` (loads with `Acquire`, stores with
//!   `Release`): a remote atomic both publishes what its caller wrote before it and makes
//!   visible what the previous writer of the word published. (OpenSHMEM only requires
//!   atomicity; the stronger ordering costs nothing on x86, where every RMW is a full fence.)

#![cfg_attr(loom, allow(dead_code))] // the transport that calls these is not built under loom

use crate::atomic::{AtomicU32, AtomicU64, Ordering};

/// How [`put_signal`](super::Team::put_signal) updates the target's signal word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignalOp {
    /// Store this value (OpenSHMEM `SHMEM_SIGNAL_SET`).
    Set(u64),
    /// Add this value, wrapping (OpenSHMEM `SHMEM_SIGNAL_ADD`).
    Add(u64),
}

/// A comparison for the signal waits: the wait ends when `word CMP value` holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    /// `word == value`
    Eq,
    /// `word != value`
    Ne,
    /// `word > value`
    Gt,
    /// `word >= value`
    Ge,
    /// `word < value`
    Lt,
    /// `word <= value`
    Le,
}

impl Cmp {
    /// Whether `word CMP value` holds.
    #[inline]
    pub fn holds(self, word: u64, value: u64) -> bool {
        match self {
            Cmp::Eq => word == value,
            Cmp::Ne => word != value,
            Cmp::Gt => word > value,
            Cmp::Ge => word >= value,
            Cmp::Lt => word < value,
            Cmp::Le => word <= value,
        }
    }
}

/// A remote atomic operation on a 32- or 64-bit word; every one returns the word's value
/// before the operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtomicOp<W> {
    /// Read the word.
    Fetch,
    /// Store a value (returns the old one, as a swap).
    Set(W),
    /// Store a value, returning the old one.
    Swap(W),
    /// Add, wrapping.
    FetchAdd(W),
    /// Store `new` if the word equals `expected`.
    CompareSwap {
        /// The value the word must hold.
        expected: W,
        /// The value to store then.
        new: W,
    },
    /// Bitwise and.
    FetchAnd(W),
    /// Bitwise or.
    FetchOr(W),
    /// Bitwise xor.
    FetchXor(W),
}

impl<W: PartialEq + Copy> AtomicOp<W> {
    /// Whether the operation, having returned `old`, may have changed the word (and so must
    /// wake its waiters): not a `Fetch`, nor a `CompareSwap` that failed. A failed CAS that
    /// woke the other waiters of a lock would make them fail and wake each other in turn.
    pub fn wrote(&self, old: W) -> bool {
        match *self {
            AtomicOp::Fetch => false,
            AtomicOp::CompareSwap { expected, .. } => old == expected,
            _ => true,
        }
    }
}

/// A word remote atomics work on: `u32` or `u64` (sealed).
pub trait Word: sealed::Sealed + bytemuck::Pod + Eq + std::fmt::Debug + Send + Sync {
    /// The word's width in bytes (4 or 8).
    const BYTES: usize;
    /// The value as a u64 (zero-extended).
    fn to_u64(self) -> u64;
    /// The low bits of a u64.
    fn from_u64(v: u64) -> Self;
}

impl Word for u32 {
    const BYTES: usize = 4;
    fn to_u64(self) -> u64 {
        u64::from(self)
    }
    fn from_u64(v: u64) -> Self {
        v as u32
    }
}

impl Word for u64 {
    const BYTES: usize = 8;
    fn to_u64(self) -> u64 {
        self
    }
    fn from_u64(v: u64) -> Self {
        v
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
}

impl<W: Word> AtomicOp<W> {
    /// The same operation on 64-bit operands (zero-extended).
    pub fn widen(self) -> AtomicOp<u64> {
        match self {
            AtomicOp::Fetch => AtomicOp::Fetch,
            AtomicOp::Set(v) => AtomicOp::Set(v.to_u64()),
            AtomicOp::Swap(v) => AtomicOp::Swap(v.to_u64()),
            AtomicOp::FetchAdd(v) => AtomicOp::FetchAdd(v.to_u64()),
            AtomicOp::CompareSwap { expected, new } => AtomicOp::CompareSwap {
                expected: expected.to_u64(),
                new: new.to_u64(),
            },
            AtomicOp::FetchAnd(v) => AtomicOp::FetchAnd(v.to_u64()),
            AtomicOp::FetchOr(v) => AtomicOp::FetchOr(v.to_u64()),
            AtomicOp::FetchXor(v) => AtomicOp::FetchXor(v.to_u64()),
        }
    }
}

/// Updates a signal word (Release; module docs).
#[inline]
pub fn apply_signal(word: &AtomicU64, op: SignalOp) {
    match op {
        // Release: pairs with the Acquire load in `load_signal`.
        SignalOp::Set(v) => word.store(v, Ordering::Release),
        // Release: pairs with the Acquire load in `load_signal`.
        SignalOp::Add(n) => {
            word.fetch_add(n, Ordering::Release);
        }
    }
}

/// Reads a signal word (Acquire; module docs).
#[inline]
pub fn load_signal(word: &AtomicU64) -> u64 {
    // Acquire: pairs with the Release update in `apply_signal`.
    word.load(Ordering::Acquire)
}

/// Runs a 64-bit atomic operation (AcqRel; module docs); returns the old value.
#[inline]
pub fn apply_atomic64(word: &AtomicU64, op: AtomicOp<u64>) -> u64 {
    // Every ordering below: Release pairs with the Acquire side of the next RMW or load of
    // the word by any PE (and the Acquire side with the previous Release), module docs.
    const O: Ordering = Ordering::AcqRel;
    match op {
        AtomicOp::Fetch => word.load(Ordering::Acquire),
        AtomicOp::Set(v) | AtomicOp::Swap(v) => word.swap(v, O),
        AtomicOp::FetchAdd(v) => word.fetch_add(v, O),
        AtomicOp::CompareSwap { expected, new } => {
            match word.compare_exchange(expected, new, O, Ordering::Acquire) {
                Ok(old) | Err(old) => old,
            }
        }
        AtomicOp::FetchAnd(v) => word.fetch_and(v, O),
        AtomicOp::FetchOr(v) => word.fetch_or(v, O),
        AtomicOp::FetchXor(v) => word.fetch_xor(v, O),
    }
}

/// Runs a 32-bit atomic operation (as [`apply_atomic64`]); returns the old value.
#[inline]
pub fn apply_atomic32(word: &AtomicU32, op: AtomicOp<u32>) -> u32 {
    // Orderings as in `apply_atomic64`.
    const O: Ordering = Ordering::AcqRel;
    match op {
        AtomicOp::Fetch => word.load(Ordering::Acquire),
        AtomicOp::Set(v) | AtomicOp::Swap(v) => word.swap(v, O),
        AtomicOp::FetchAdd(v) => word.fetch_add(v, O),
        AtomicOp::CompareSwap { expected, new } => {
            match word.compare_exchange(expected, new, O, Ordering::Acquire) {
                Ok(old) | Err(old) => old,
            }
        }
        AtomicOp::FetchAnd(v) => word.fetch_and(v, O),
        AtomicOp::FetchOr(v) => word.fetch_or(v, O),
        AtomicOp::FetchXor(v) => word.fetch_xor(v, O),
    }
}

/// Copies `len` bytes from `src` to `dst` without a `memcpy` call for the size of a
/// one-word message (an 8-byte `put`, `put_signal` or `put_line`): the call costs a few ns
/// on a hand-off's critical path, a third of what the rest of the sender does (issue #23).
///
/// The ranges may overlap (a put from a slice of this PE's own heap, `Team::local`, to itself):
/// the 8-byte load completes before the store, and the rest is a `memmove`.
///
/// # Safety
/// `src..src + len` is valid for reads and `dst..dst + len` for writes.
#[inline]
pub(crate) unsafe fn copy_small(src: *const u8, dst: *mut u8, len: usize) {
    if len == 8 {
        // SAFETY: the caller's promise, for 8 bytes; unaligned accesses need no alignment.
        unsafe {
            dst.cast::<u64>()
                .write_unaligned(src.cast::<u64>().read_unaligned())
        }
    } else {
        // SAFETY: the caller's promise (`copy` allows overlapping ranges).
        unsafe { std::ptr::copy(src, dst, len) }
    }
}

/// The first index `i` in `start, start+1, ..., n-1, 0, ..., start-1` with `holds(i)`: the
/// scan of `wait_until_any`, which starts each call one past the previous call's start so a
/// word that stays true cannot starve the others (Sandia OpenSHMEM starts at a random index;
/// a rotation gives the same fairness deterministically).
#[inline]
pub(crate) fn any_from(
    start: usize,
    n: usize,
    mut holds: impl FnMut(usize) -> bool,
) -> Option<usize> {
    (start..n).chain(0..start).find(|&i| holds(i))
}
