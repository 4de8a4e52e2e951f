//! Opaque handles: what C holds is a key into a process-wide table, never an address of ours.
//!
//! A handle is a number from a counter that never repeats (shaped like an aligned pointer, so
//! C sees an ordinary opaque pointer), and every call looks it up in the table before use.
//! So NULL, a freed handle, a second free, a made-up value or a handle of another kind are
//! all refused with [`HANDOFF_E_BAD_HANDLE`] instead of touching freed memory. The table holds
//! an `Arc` per object: a call in progress on another thread keeps its object alive after a
//! concurrent free, which only unlists it.

use std::any::Any;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, TryLockError};

use crate::error::{CError, HANDOFF_E_BAD_HANDLE};

type Table = HashMap<usize, Arc<dyn Any + Send + Sync>>;

fn table() -> MutexGuard<'static, Table> {
    static TABLE: OnceLock<Mutex<Table>> = OnceLock::new();
    // A panic never happens with the lock held (only map operations run under it), and the
    // map stays consistent even if one did: ignore poisoning.
    TABLE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner())
}

/// The next key: 0x10000, 0x10010, ... (non-NULL, 16-aligned, never reused).
fn next_key() -> usize {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    // Relaxed: only uniqueness matters; the table's mutex orders the insert.
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    (0x10000 + n * 16) as usize
}

/// Lists `obj` and returns its handle.
pub(crate) fn register<T: Any + Send + Sync, H>(obj: T) -> *mut H {
    let key = next_key();
    table().insert(key, Arc::new(obj));
    key as *mut H
}

fn bad(what: &str, why: &str) -> CError {
    CError::new(
        HANDOFF_E_BAD_HANDLE,
        format!("bad {what} handle: {why}; pass a handle returned by a handoff_* call and not freed since"),
    )
}

/// The object behind `h`, if `h` is a live handle of type `T`.
pub(crate) fn get<T: Any + Send + Sync, H>(h: *const H, what: &str) -> Result<Arc<T>, CError> {
    if h.is_null() {
        return Err(bad(what, "it is NULL"));
    }
    let obj = table()
        .get(&(h as usize))
        .cloned()
        .ok_or_else(|| bad(what, "it was freed already, or never was a handle"))?;
    obj.downcast::<T>()
        .map_err(|_| bad(what, "it is a handle of another kind"))
}

/// Unlists `h` (a live handle of type `T`); the object is dropped once no call uses it.
pub(crate) fn free<T: Any + Send + Sync, H>(h: *mut H, what: &str) -> Result<(), CError> {
    if h.is_null() {
        return Err(bad(what, "it is NULL"));
    }
    let mut t = table();
    match t.get(&(h as usize)) {
        None => Err(bad(
            what,
            "it was freed already (double free?), or never was a handle",
        )),
        Some(o) if !o.is::<T>() => Err(bad(what, "it is a handle of another kind")),
        Some(_) => {
            let obj = t.remove(&(h as usize));
            drop(t);
            // Dropped outside the table's lock: dropping a producer or consumer closes its
            // side of the channel, which may wake a futex.
            drop(obj);
            Ok(())
        }
    }
}

/// Locks a handle's mutable state; a second thread using the same handle at once is refused
/// (never blocked: the first may be waiting on a deadline that never comes).
pub(crate) fn lock<'a, T>(m: &'a Mutex<T>, what: &str) -> Result<MutexGuard<'a, T>, CError> {
    match m.try_lock() {
        Ok(g) => Ok(g),
        // A panic inside a call is reported as HANDOFF_E_PANIC; the state it left is still
        // the state of the Rust objects, which stay consistent across their own panics.
        Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
        Err(TryLockError::WouldBlock) => Err(CError::state(format!(
            "the {what} handle is in use by another thread: use each producer, consumer or \
             handle from one thread at a time"
        ))),
    }
}
