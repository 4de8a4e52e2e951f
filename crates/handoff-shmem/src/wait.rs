//! Point-to-point synchronization (OpenSHMEM 1.5 §9.10): the typed `wait_until`,
//! `wait_until_all/any/some` (and their `_vector` forms), `test`, `test_all/any/some`
//! (and `_vector`), and the deprecated `shmem_TYPE_wait`.
//!
//! Every wait polls this PE's own words with Acquire loads, which pair with the Release side
//! of whatever updated them remotely (a `p`, an AMO or a signal; see the team's ordering
//! docs), with the team's wait strategy: spinning, yielding and sleeping on this PE's heap
//! bell as a sleeper on exactly the words waited on, so only a write to those words wakes it
//! (a put that sees it asleep, or the writer's `quiet`; AMOs and signals always); writes to
//! other words of this PE cost the writer one load (the crate docs, "Waiting").
//!
//! `wait_until_any` and `test_any` are fair: each call starts its scan one past where the
//! previous call's scan started, so a word that stays true cannot starve the others.

use std::ffi::c_int;
use std::mem::size_of;
use std::ptr::null;

use handoff::team::Transport;

use crate::error::{Result, ShmemError};
use crate::state::{entry, State};

/// A comparison of the wait and test routines (`SHMEM_CMP_*`, values as in shmem.h).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    /// `SHMEM_CMP_EQ` (1)
    Eq,
    /// `SHMEM_CMP_NE` (2)
    Ne,
    /// `SHMEM_CMP_GT` (3)
    Gt,
    /// `SHMEM_CMP_LE` (4)
    Le,
    /// `SHMEM_CMP_LT` (5)
    Lt,
    /// `SHMEM_CMP_GE` (6)
    Ge,
}

impl Cmp {
    /// Whether `word CMP value` holds.
    #[inline]
    pub fn holds<T: PartialOrd>(self, word: T, value: T) -> bool {
        match self {
            Cmp::Eq => word == value,
            Cmp::Ne => word != value,
            Cmp::Gt => word > value,
            Cmp::Le => word <= value,
            Cmp::Lt => word < value,
            Cmp::Ge => word >= value,
        }
    }
}

/// The comparison of a `SHMEM_CMP_*` constant.
pub fn cmp_of(cmp: c_int) -> Result<Cmp> {
    Ok(match cmp {
        1 => Cmp::Eq,
        2 => Cmp::Ne,
        3 => Cmp::Gt,
        4 => Cmp::Le,
        5 => Cmp::Lt,
        6 => Cmp::Ge,
        _ => return Err(ShmemError::BadCmp(cmp)),
    })
}

/// A word type of the point-to-point routines, read with an atomic Acquire load.
pub trait Ivar: Copy + PartialOrd {
    /// Reads the word at `p` (Acquire).
    ///
    /// # Safety
    /// `p` is an aligned word of this PE's symmetric heap.
    unsafe fn load(p: *const Self) -> Self;
}

macro_rules! ivar {
    ($($t:ty => $a:ty),*) => {$(
        impl Ivar for $t {
            #[inline]
            unsafe fn load(p: *const Self) -> Self {
                // SAFETY: the caller's promise; the atomic type has the layout of $t.
                // Acquire: pairs with the Release side of the remote update (module docs).
                unsafe { <$a>::from_ptr(p.cast_mut()) }.load(std::sync::atomic::Ordering::Acquire)
            }
        }
    )*};
}
ivar!(i16 => std::sync::atomic::AtomicI16, u16 => std::sync::atomic::AtomicU16,
      i32 => std::sync::atomic::AtomicI32, u32 => std::sync::atomic::AtomicU32,
      i64 => std::sync::atomic::AtomicI64, u64 => std::sync::atomic::AtomicU64,
      isize => std::sync::atomic::AtomicIsize, usize => std::sync::atomic::AtomicUsize);

/// A set of words to wait on: `n` words at `ivars`, some excluded by `status`, each compared
/// with one value or with its own (`_vector`).
pub struct Words<T> {
    ivars: *const T,
    n: usize,
    status: *const c_int,
    cmp: Cmp,
    value: T,
    values: *const T,
    /// The words' heap offset and byte length (what the wait sleeps on).
    off: usize,
    len: usize,
}

impl<T: Ivar> Words<T> {
    /// Checks the words lie in this PE's symmetric heap, aligned.
    ///
    /// # Safety
    /// `status` is NULL or valid for `n` reads; `values` is NULL or valid for `n` reads.
    pub unsafe fn new(
        s: &State,
        ivars: *const T,
        n: usize,
        status: *const c_int,
        cmp: c_int,
        value: T,
        values: *const T,
    ) -> Result<Self> {
        let cmp = cmp_of(cmp)?;
        let len = n
            .checked_mul(size_of::<T>())
            .ok_or(ShmemError::Overflow("ivars"))?;
        let mut off = 0;
        if n > 0 {
            off = s.offset(ivars.cast(), len, "ivars")?;
            if !(ivars as usize).is_multiple_of(size_of::<T>()) {
                return Err(ShmemError::Misaligned {
                    what: "ivars",
                    addr: ivars as usize,
                    align: size_of::<T>(),
                });
            }
        }
        Ok(Words {
            ivars,
            n,
            status,
            cmp,
            value,
            values,
            off,
            len,
        })
    }

    #[inline]
    fn skip(&self, i: usize) -> bool {
        // SAFETY: `new`'s promise: status is NULL or valid for n reads; i < n.
        !self.status.is_null() && unsafe { *self.status.add(i) } != 0
    }

    #[inline]
    fn holds(&self, i: usize) -> bool {
        // SAFETY: `new` checked the n words are aligned in this PE's heap; i < n. `values`:
        // `new`'s promise.
        let (w, v) = unsafe {
            let v = if self.values.is_null() {
                self.value
            } else {
                *self.values.add(i)
            };
            (T::load(self.ivars.add(i)), v)
        };
        !self.skip(i) && self.cmp.holds(w, v)
    }

    fn all_skipped(&self) -> bool {
        (0..self.n).all(|i| self.skip(i))
    }

    fn all(&self) -> bool {
        (0..self.n).all(|i| self.skip(i) || self.holds(i))
    }

    fn any_from(&self, start: usize) -> Option<usize> {
        (start..self.n).chain(0..start).find(|&i| self.holds(i))
    }
}

/// Waits for `poll` over the words of `w`: asleep, woken only by writes to those words.
fn wait<T>(
    s: &State,
    w: &Words<T>,
    what: &'static str,
    poll: &mut dyn FnMut() -> Option<usize>,
) -> Result<usize> {
    Ok(s.x().wait_local_on(w.off, w.len, poll, s.until(), what)?)
}

/// One word (`wait_until`, `test`): checked like every set of words.
fn one<T: Ivar>(s: &State, ivar: *const T, cmp: c_int, value: T) -> Result<Words<T>> {
    // SAFETY: no status, no values (the word itself is checked by `new`).
    unsafe { Words::new(s, ivar, 1, std::ptr::null(), cmp, value, std::ptr::null()) }
}

/// `wait_until` of one word.
fn wait_until<T: Ivar>(s: &State, ivar: *const T, cmp: c_int, value: T) -> Result<()> {
    let w = one(s, ivar, cmp, value)?;
    wait(s, &w, "shmem_wait_until", &mut || w.holds(0).then_some(0))?;
    Ok(())
}

/// `wait_until_all`.
pub fn wait_all<T: Ivar>(s: &State, w: &Words<T>) -> Result<()> {
    wait(s, w, "shmem_wait_until_all", &mut || w.all().then_some(0))?;
    Ok(())
}

/// The next fair start for an `any` scan of `n` words.
fn any_start(s: &State, n: usize) -> usize {
    s.any_start
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        % n
}

/// `wait_until_any`: the index of a word that holds, `usize::MAX` if all are excluded.
pub fn wait_any<T: Ivar>(s: &State, w: &Words<T>) -> Result<usize> {
    if w.all_skipped() {
        return Ok(usize::MAX);
    }
    let start = any_start(s, w.n);
    wait(s, w, "shmem_wait_until_any", &mut || w.any_from(start))
}

/// `wait_until_some`: writes the indices that hold into `indices`; returns their number.
///
/// # Safety
/// `indices` is valid for `w.n` writes.
pub unsafe fn wait_some<T: Ivar>(s: &State, w: &Words<T>, indices: *mut usize) -> Result<usize> {
    if w.all_skipped() {
        return Ok(0);
    }
    wait(s, w, "shmem_wait_until_some", &mut || {
        (0..w.n).find(|&i| w.holds(i))
    })?;
    // SAFETY: the caller's promise.
    Ok(unsafe { collect_some(w, indices) })
}

/// # Safety
/// `indices` is valid for `w.n` writes (or `w.n` is 0).
unsafe fn collect_some<T: Ivar>(w: &Words<T>, indices: *mut usize) -> usize {
    let mut k = 0;
    for i in (0..w.n).filter(|&i| w.holds(i)) {
        // SAFETY: k <= i < n; the caller's promise.
        unsafe { *indices.add(k) = i };
        k += 1;
    }
    k
}

/// Runs `poll` over the words of `w` once, as a test (no waiting): through
/// [`Net::test_local`](crate::net::Net::test_local), which on MPI's RMA and mixed paths syncs
/// the window first and drives MPI's progress after a miss.
fn tested<T>(
    s: &State,
    w: &Words<T>,
    poll: &mut dyn FnMut() -> Option<usize>,
) -> Result<Option<usize>> {
    s.x().test_local(w.off, w.len, poll)
}

/// `test` of one word: 1 if it holds.
pub fn test_one<T: Ivar>(s: &State, w: &Words<T>) -> Result<c_int> {
    Ok(c_int::from(
        tested(s, w, &mut || w.holds(0).then_some(1))?.is_some(),
    ))
}

/// `test_all`: 1 if every word not excluded holds.
pub fn test_all<T: Ivar>(s: &State, w: &Words<T>) -> Result<c_int> {
    Ok(c_int::from(
        tested(s, w, &mut || w.all().then_some(1))?.is_some(),
    ))
}

/// `test_any`: a holding index (fair start) or `usize::MAX`.
pub fn test_any<T: Ivar>(s: &State, w: &Words<T>) -> Result<usize> {
    if w.n == 0 {
        return Ok(usize::MAX);
    }
    let start = any_start(s, w.n);
    Ok(tested(s, w, &mut || w.any_from(start))?.unwrap_or(usize::MAX))
}

/// `test_some`.
///
/// # Safety
/// `indices` is valid for `w.n` writes.
pub unsafe fn test_some<T: Ivar>(s: &State, w: &Words<T>, indices: *mut usize) -> Result<usize> {
    let found = tested(s, w, &mut || {
        // SAFETY: the caller's promise.
        let k = unsafe { collect_some(w, indices) };
        (k > 0).then_some(k)
    })?;
    Ok(found.unwrap_or(0))
}

/// Defines the point-to-point calls of one type.
macro_rules! p2p_type {
    ($t:ty; $wu:ident $wall:ident $wany:ident $wsome:ident $wallv:ident $wanyv:ident $wsomev:ident
     $test:ident $tall:ident $tany:ident $tsome:ident $tallv:ident $tanyv:ident $tsomev:ident $wait:ident) => {
        profiled! {
        /// Waits until `*ivar cmp value`.
        pub extern "C" fn $wu(ivar: *mut $t, cmp: c_int, value: $t) {
            entry(stringify!($wu), |s| wait_until(s, ivar, cmp, value))
        }
        }

        profiled! {
        /// Deprecated: waits until `*ivar != value`.
        pub extern "C" fn $wait(ivar: *mut $t, value: $t) {
            entry(stringify!($wait), |s| wait_until(s, ivar, 2, value))
        }
        }

        profiled! {
        /// Waits until every word not excluded by `status` holds.
        ///
        /// # Safety
        /// `status` is NULL or valid for `nelems` reads.
        pub unsafe extern "C" fn $wall(
            ivars: *mut $t,
            nelems: usize,
            status: *const c_int,
            cmp: c_int,
            value: $t,
        ) {
            entry(stringify!($wall), |s| {
                // SAFETY: the caller's promise.
                let w = unsafe { Words::new(s, ivars, nelems, status, cmp, value, null()) }?;
                wait_all(s, &w)
            })
        }
        }

        profiled! {
        /// Waits until some word not excluded holds; returns its index (`SIZE_MAX`: none can).
        ///
        /// # Safety
        /// `status` is NULL or valid for `nelems` reads.
        pub unsafe extern "C" fn $wany(
            ivars: *mut $t,
            nelems: usize,
            status: *const c_int,
            cmp: c_int,
            value: $t,
        ) -> usize {
            entry(stringify!($wany), |s| {
                // SAFETY: the caller's promise.
                let w = unsafe { Words::new(s, ivars, nelems, status, cmp, value, null()) }?;
                wait_any(s, &w)
            })
        }
        }

        profiled! {
        /// Waits until at least one word holds; writes all holding indices; returns their number.
        ///
        /// # Safety
        /// `indices` valid for `nelems` writes; `status` NULL or valid for `nelems` reads.
        pub unsafe extern "C" fn $wsome(
            ivars: *mut $t,
            nelems: usize,
            indices: *mut usize,
            status: *const c_int,
            cmp: c_int,
            value: $t,
        ) -> usize {
            entry(stringify!($wsome), |s| {
                // SAFETY: the caller's promise.
                let w = unsafe { Words::new(s, ivars, nelems, status, cmp, value, null()) }?;
                // SAFETY: the caller's promise.
                unsafe { wait_some(s, &w, indices) }
            })
        }
        }

        profiled! {
        /// `wait_until_all` with one comparison value per word.
        ///
        /// # Safety
        /// `values` valid for `nelems` reads; `status` NULL or valid for `nelems` reads.
        pub unsafe extern "C" fn $wallv(
            ivars: *mut $t,
            nelems: usize,
            status: *const c_int,
            cmp: c_int,
            values: *const $t,
        ) {
            entry(stringify!($wallv), |s| {
                let v0 = null_values(values, nelems)?;
                // SAFETY: the caller's promise.
                let w = unsafe { Words::new(s, ivars, nelems, status, cmp, v0, values) }?;
                wait_all(s, &w)
            })
        }
        }

        profiled! {
        /// `wait_until_any` with one comparison value per word.
        ///
        /// # Safety
        /// As the `_all_vector` call.
        pub unsafe extern "C" fn $wanyv(
            ivars: *mut $t,
            nelems: usize,
            status: *const c_int,
            cmp: c_int,
            values: *const $t,
        ) -> usize {
            entry(stringify!($wanyv), |s| {
                let v0 = null_values(values, nelems)?;
                // SAFETY: the caller's promise.
                let w = unsafe { Words::new(s, ivars, nelems, status, cmp, v0, values) }?;
                wait_any(s, &w)
            })
        }
        }

        profiled! {
        /// `wait_until_some` with one comparison value per word.
        ///
        /// # Safety
        /// As the `_all_vector` call; `indices` valid for `nelems` writes.
        pub unsafe extern "C" fn $wsomev(
            ivars: *mut $t,
            nelems: usize,
            indices: *mut usize,
            status: *const c_int,
            cmp: c_int,
            values: *const $t,
        ) -> usize {
            entry(stringify!($wsomev), |s| {
                let v0 = null_values(values, nelems)?;
                // SAFETY: the caller's promise.
                let w = unsafe { Words::new(s, ivars, nelems, status, cmp, v0, values) }?;
                // SAFETY: the caller's promise.
                unsafe { wait_some(s, &w, indices) }
            })
        }
        }

        profiled! {
        /// 1 if `*ivar cmp value` holds now, else 0.
        pub extern "C" fn $test(ivar: *mut $t, cmp: c_int, value: $t) -> c_int {
            entry(stringify!($test), |s| {
                test_one(s, &one(s, ivar, cmp, value)?)
            })
        }
        }

        profiled! {
        /// 1 if every word not excluded holds now.
        ///
        /// # Safety
        /// `status` is NULL or valid for `nelems` reads.
        pub unsafe extern "C" fn $tall(
            ivars: *mut $t,
            nelems: usize,
            status: *const c_int,
            cmp: c_int,
            value: $t,
        ) -> c_int {
            entry(stringify!($tall), |s| {
                // SAFETY: the caller's promise.
                let w = unsafe { Words::new(s, ivars, nelems, status, cmp, value, null()) }?;
                test_all(s, &w)
            })
        }
        }

        profiled! {
        /// The index of a word that holds now (`SIZE_MAX`: none).
        ///
        /// # Safety
        /// `status` is NULL or valid for `nelems` reads.
        pub unsafe extern "C" fn $tany(
            ivars: *mut $t,
            nelems: usize,
            status: *const c_int,
            cmp: c_int,
            value: $t,
        ) -> usize {
            entry(stringify!($tany), |s| {
                // SAFETY: the caller's promise.
                let w = unsafe { Words::new(s, ivars, nelems, status, cmp, value, null()) }?;
                test_any(s, &w)
            })
        }
        }

        profiled! {
        /// Writes the indices of the words that hold now; returns their number.
        ///
        /// # Safety
        /// `indices` valid for `nelems` writes; `status` NULL or valid for `nelems` reads.
        pub unsafe extern "C" fn $tsome(
            ivars: *mut $t,
            nelems: usize,
            indices: *mut usize,
            status: *const c_int,
            cmp: c_int,
            value: $t,
        ) -> usize {
            entry(stringify!($tsome), |s| {
                // SAFETY: the caller's promise.
                let w = unsafe { Words::new(s, ivars, nelems, status, cmp, value, null()) }?;
                // SAFETY: the caller's promise.
                unsafe { test_some(s, &w, indices) }
            })
        }
        }

        profiled! {
        /// `test_all` with one comparison value per word.
        ///
        /// # Safety
        /// `values` valid for `nelems` reads; `status` NULL or valid for `nelems` reads.
        pub unsafe extern "C" fn $tallv(
            ivars: *mut $t,
            nelems: usize,
            status: *const c_int,
            cmp: c_int,
            values: *const $t,
        ) -> c_int {
            entry(stringify!($tallv), |s| {
                let v0 = null_values(values, nelems)?;
                // SAFETY: the caller's promise.
                let w = unsafe { Words::new(s, ivars, nelems, status, cmp, v0, values) }?;
                test_all(s, &w)
            })
        }
        }

        profiled! {
        /// `test_any` with one comparison value per word.
        ///
        /// # Safety
        /// As the `_all_vector` call.
        pub unsafe extern "C" fn $tanyv(
            ivars: *mut $t,
            nelems: usize,
            status: *const c_int,
            cmp: c_int,
            values: *const $t,
        ) -> usize {
            entry(stringify!($tanyv), |s| {
                let v0 = null_values(values, nelems)?;
                // SAFETY: the caller's promise.
                let w = unsafe { Words::new(s, ivars, nelems, status, cmp, v0, values) }?;
                test_any(s, &w)
            })
        }
        }

        profiled! {
        /// `test_some` with one comparison value per word.
        ///
        /// # Safety
        /// As the `_all_vector` call; `indices` valid for `nelems` writes.
        pub unsafe extern "C" fn $tsomev(
            ivars: *mut $t,
            nelems: usize,
            indices: *mut usize,
            status: *const c_int,
            cmp: c_int,
            values: *const $t,
        ) -> usize {
            entry(stringify!($tsomev), |s| {
                let v0 = null_values(values, nelems)?;
                // SAFETY: the caller's promise.
                let w = unsafe { Words::new(s, ivars, nelems, status, cmp, v0, values) }?;
                // SAFETY: the caller's promise.
                unsafe { test_some(s, &w, indices) }
            })
        }
        }
    };
}

/// A placeholder value for the `_vector` calls (which read `values`), refusing NULL values.
fn null_values<T: Ivar>(values: *const T, n: usize) -> Result<T> {
    if values.is_null() && n > 0 {
        return Err(ShmemError::Null("cmp_values", n * size_of::<T>()));
    }
    // SAFETY: an all-zero integer is a valid value of every Ivar type (all integers).
    Ok(unsafe { std::mem::zeroed() })
}

include!("wait_types.rs");
