//! The lock-word protocol behind `shmem_set_lock` / `shmem_test_lock` / `shmem_clear_lock`
//! (`lock.rs`), written over a compare-and-swap closure so the loom model below runs exactly
//! this code: the word is `FREE` (0) or the holder's `rank + 1`; taking is a CAS from `FREE`
//! to `me`, releasing a CAS from `me` to `FREE`.
//!
//! Ordering: the CAS is the team's remote `CompareSwap` (`handoff::team`'s `apply_atomic64`:
//! `AcqRel` on success, `Acquire` on failure). The Acquire side of the taking CAS pairs with
//! the Release side of the previous holder's releasing CAS, so a new holder sees every write
//! the previous one made inside its critical section.

/// The word's value when nobody holds the lock.
pub const FREE: u64 = 0;

/// What a try to take the lock found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Take {
    /// The lock is now ours.
    Taken,
    /// Another PE holds it.
    Busy,
    /// We hold it already (OpenSHMEM locks are not recursive).
    Recursive,
}

/// One try to take the lock for `me` (`rank + 1`) with `cas(expected, new) -> old`.
pub fn try_take(cas: impl FnOnce(u64, u64) -> u64, me: u64) -> Take {
    match cas(FREE, me) {
        FREE => Take::Taken,
        old if old == me => Take::Recursive,
        _ => Take::Busy,
    }
}

/// Releases the lock `me` holds; `Err(old)` (and nothing changed) if `me` does not hold it.
pub fn release(cas: impl FnOnce(u64, u64) -> u64, me: u64) -> Result<(), u64> {
    match cas(me, FREE) {
        old if old == me => Ok(()),
        old => Err(old),
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use loom::cell::UnsafeCell;
    use loom::sync::atomic::{AtomicU64, Ordering};
    use loom::sync::Arc;

    /// The team's CompareSwap: AcqRel on success, Acquire on failure (`apply_atomic64`).
    fn cas(word: &AtomicU64) -> impl FnOnce(u64, u64) -> u64 + '_ {
        move |expected, new| {
            // AcqRel / Acquire: as the team's `apply_atomic64` (module docs).
            match word.compare_exchange(expected, new, Ordering::AcqRel, Ordering::Acquire) {
                Ok(old) | Err(old) => old,
            }
        }
    }

    #[test]
    fn loom_lock_excludes_and_publishes_the_critical_section() {
        loom::model(|| {
            let word = Arc::new(AtomicU64::new(FREE));
            let data = Arc::new(UnsafeCell::new(0u64));
            let pe = |me: u64| {
                let (word, data) = (word.clone(), data.clone());
                loom::thread::spawn(move || {
                    loop {
                        match try_take(cas(&word), me) {
                            Take::Taken => break,
                            Take::Busy => loom::thread::yield_now(),
                            Take::Recursive => panic!("PE {me} holds the lock twice"),
                        }
                    }
                    // A plain read-modify-write: a race if the lock failed to exclude or to
                    // order the previous holder's write before ours.
                    // SAFETY: loom's cell pointer is valid; exclusion is what is checked.
                    data.with_mut(|p| unsafe { *p += 1 });
                    release(cas(&word), me).expect("the holder releases");
                })
            };
            let (a, b) = (pe(1), pe(2));
            a.join().unwrap();
            b.join().unwrap();
            assert_eq!(word.load(Ordering::Acquire), FREE);
            // SAFETY: both threads were joined; loom checks the access.
            data.with(|p| assert_eq!(unsafe { *p }, 2));
        });
    }

    #[test]
    fn loom_release_by_a_non_holder_changes_nothing() {
        loom::model(|| {
            let word = AtomicU64::new(2);
            assert_eq!(release(cas(&word), 1), Err(2));
            assert_eq!(try_take(cas(&word), 2), Take::Recursive);
            assert_eq!(word.load(Ordering::Relaxed), 2);
        });
    }
}
