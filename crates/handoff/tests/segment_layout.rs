//! Every type that may live in a shared segment ([`ShmSafe`]): size, alignment, and that
//! the all-zero bytes of a fresh segment read as its initial state.
//!
//! Adding a `ShmSafe` type? Add a `check::<T>(...)` line below.
#![cfg(all(target_os = "linux", not(loom)))]

use handoff::shm::{Segment, ShmSafe};
use handoff::sys::ProcessId;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

/// Reads a `T` from a fresh (zero-filled) segment at an offset aligned for it, checks its
/// size and alignment, and that `is_initial` holds for the zero state.
fn check<T: ShmSafe>(size: usize, align: usize, is_initial: impl Fn(&T) -> bool) {
    let name = std::any::type_name::<T>();
    assert_eq!(std::mem::size_of::<T>(), size, "size of {name}");
    assert_eq!(std::mem::align_of::<T>(), align, "alignment of {name}");
    let seg = Segment::anonymous(size.max(1) + align).unwrap();
    let offset = align; // aligned, and not at the page start
    let v = seg.get::<T>(offset).unwrap();
    assert!(
        is_initial(v),
        "zero bytes are not the initial state of {name}"
    );
    if align > 1 {
        assert!(seg.get::<T>(offset + 1).is_err(), "misaligned {name}");
    }
}

#[test]
fn shm_safe_types_have_stable_layout_and_zero_init() {
    check::<u8>(1, 1, |v| *v == 0);
    check::<u16>(2, 2, |v| *v == 0);
    check::<u32>(4, 4, |v| *v == 0);
    check::<u64>(8, 8, |v| *v == 0);
    check::<i32>(4, 4, |v| *v == 0);
    check::<i64>(8, 8, |v| *v == 0);
    check::<[u8; 64]>(64, 1, |v| v.iter().all(|b| *b == 0));
    check::<[u32; 16]>(64, 4, |v| v.iter().all(|b| *b == 0));
    check::<AtomicU32>(4, 4, |v| v.load(Ordering::Relaxed) == 0);
    check::<AtomicU64>(8, 8, |v| v.load(Ordering::Relaxed) == 0);
    check::<AtomicBool>(1, 1, |v| !v.load(Ordering::Relaxed));
    check::<[AtomicU64; 8]>(64, 8, |v| v.iter().all(|a| a.load(Ordering::Relaxed) == 0));
    check::<ProcessId>(16, 8, |v| v.is_none() && *v == ProcessId::default());
}
