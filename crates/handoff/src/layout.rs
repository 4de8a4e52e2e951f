//! Shared-memory layout building blocks: the [`ShmSafe`] marker for types that may live in a
//! shared segment (re-exported as `handoff::shm::ShmSafe`).
//!
//! Below both `sync` (whose primitives are `ShmSafe`) and `shm` (whose segments hand out
//! `ShmSafe` references), so neither imports the other.

#[cfg(not(loom))]
use crate::atomic::{AtomicBool, AtomicU32, AtomicU64};
use crate::sys::ProcessId;

/// Marker for types that may live in a shared segment and be reached through
/// [`Segment::get`](crate::shm::Segment::get) / [`Segment::slice`](crate::shm::Segment::slice).
///
/// # Safety
///
/// Implementors guarantee that the type
/// - is `repr(C)` (or a primitive / array of such), so every process agrees on its layout;
/// - holds no pointers or references (addresses differ between processes; use offsets);
/// - is valid when all its bytes are zero (a fresh segment is zero-filled);
/// - is shared only through atomics or other interior mutability that works between
///   processes (hence the `Sync` bound): plain fields are read-only once the segment is
///   published.
pub unsafe trait ShmSafe: Sync {}

// SAFETY: integers are pointer-free, valid at zero, and have one layout per target.
unsafe impl ShmSafe for u8 {}
// SAFETY: as for u8.
unsafe impl ShmSafe for u16 {}
// SAFETY: as for u8.
unsafe impl ShmSafe for u32 {}
// SAFETY: as for u8.
unsafe impl ShmSafe for u64 {}
// SAFETY: as for u8.
unsafe impl ShmSafe for i32 {}
// SAFETY: as for u8.
unsafe impl ShmSafe for i64 {}
// SAFETY: an array of ShmSafe elements is laid out contiguously with no padding between
// elements, holds no pointers, and is zero-valid when its elements are.
unsafe impl<T: ShmSafe, const N: usize> ShmSafe for [T; N] {}
// SAFETY: ProcessId is repr(C) { u32, u32, u64 }: no pointers; all-zero means "none".
unsafe impl ShmSafe for ProcessId {}
// SAFETY: std's atomics have the layout of their integer (documented), no pointers, zero is
// a valid value, and shared mutation goes through atomic instructions that work across
// processes. Not under loom: loom's atomics are handles into the model, not plain memory.
#[cfg(not(loom))]
unsafe impl ShmSafe for AtomicU32 {}
// SAFETY: as for AtomicU32.
#[cfg(not(loom))]
unsafe impl ShmSafe for AtomicU64 {}
// SAFETY: as for AtomicU32 (one byte, 0 = false).
#[cfg(not(loom))]
unsafe impl ShmSafe for AtomicBool {}
