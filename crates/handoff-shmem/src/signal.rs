//! Put-with-signal (OpenSHMEM 1.5 §9.8): `shmem_put_signal(_nbi)` for every RMA type and
//! size and `shmem_putmem_signal(_nbi)`, `shmem_signal_fetch`, `shmem_signal_wait_until`, and
//! `shmem_signal_add`/`shmem_signal_set` (OpenSHMEM 1.6, here as a convenience).
//!
//! The ordering is the team's: the data is copied, then the target's signal word is updated
//! with a Release store or RMW (`handoff::team`'s `ops::apply_signal`), and every signal wait
//! here polls with an Acquire load that pairs with it, so a PE that sees the signal sees the
//! data; the update rings the target's doorbell, so a waiter asleep there wakes.

use std::ffi::{c_int, c_void};
use std::mem::size_of;
use std::sync::atomic::{AtomicU64, Ordering};

use handoff::team::{SignalOp, Transport};

use crate::error::{Result, ShmemError};
use crate::rma::{bytes, LongDouble, B16};
use crate::state::{entry, State};
use crate::wait::{cmp_of, Cmp};

/// `SHMEM_SIGNAL_SET`.
pub const SIGNAL_SET: c_int = 0;
/// `SHMEM_SIGNAL_ADD`.
pub const SIGNAL_ADD: c_int = 1;

fn sig_op(op: c_int, value: u64) -> Result<SignalOp> {
    match op {
        SIGNAL_SET => Ok(SignalOp::Set(value)),
        SIGNAL_ADD => Ok(SignalOp::Add(value)),
        _ => Err(ShmemError::BadSigOp(op)),
    }
}

/// Puts `len` bytes from `src` to PE `pe`'s `dest`, then updates its signal word `sig`.
///
/// # Safety
/// `src` is valid for reads of `len` bytes.
#[allow(clippy::too_many_arguments)]
pub unsafe fn put_signal(
    s: &State,
    dest: *mut u8,
    src: *const u8,
    len: usize,
    sig: *mut u64,
    signal: u64,
    op: c_int,
    pe: c_int,
) -> Result<()> {
    let op = sig_op(op, signal)?;
    let pe = s.pe(pe)?;
    let off = s.offset(dest, len, "dest")?;
    let sig_off = s.word_offset(sig.cast(), 8, "sig_addr")?;
    // SAFETY: the caller's promise.
    let src = unsafe { s.src(src, len, "source") }?;
    Ok(s.x().put_signal(pe, off, src, sig_off, op)?)
}

/// This PE's signal word at `sig` (Acquire: pairs with the Release update of the putter).
fn signal_word<'a>(s: &State, sig: *const u64, what: &'static str) -> Result<&'a AtomicU64> {
    s.word_offset(sig.cast(), 8, what)?;
    // SAFETY: checked to be an aligned word of this PE's symmetric heap, which stays mapped
    // while the state lives; other PEs update it atomically.
    Ok(unsafe { AtomicU64::from_ptr(sig.cast_mut()) })
}

profiled! {
/// `shmem_putmem_signal`.
///
/// # Safety
/// `source` is valid for reads of `nelems` bytes.
pub unsafe extern "C" fn shmem_putmem_signal(
    dest: *mut c_void,
    source: *const c_void,
    nelems: usize,
    sig_addr: *mut u64,
    signal: u64,
    sig_op: c_int,
    pe: c_int,
) {
    // SAFETY: the caller's promise.
    entry("shmem_putmem_signal", |s| unsafe {
        put_signal(
            s,
            dest.cast(),
            source.cast(),
            nelems,
            sig_addr,
            signal,
            sig_op,
            pe,
        )
    })
}
}

profiled! {
/// `shmem_putmem_signal_nbi` (complete on return on one node).
///
/// # Safety
/// As `shmem_putmem_signal`.
pub unsafe extern "C" fn shmem_putmem_signal_nbi(
    dest: *mut c_void,
    source: *const c_void,
    nelems: usize,
    sig_addr: *mut u64,
    signal: u64,
    sig_op: c_int,
    pe: c_int,
) {
    // SAFETY: the caller's promise.
    entry("shmem_putmem_signal_nbi", |s| unsafe {
        put_signal(
            s,
            dest.cast(),
            source.cast(),
            nelems,
            sig_addr,
            signal,
            sig_op,
            pe,
        )
    })
}
}

profiled! {
/// `shmem_signal_fetch`: this PE's signal word (Acquire), read as a test
/// ([`Net::test_local`](crate::net::Net::test_local): on MPI's RMA and mixed paths with a
/// window sync and MPI progress, so a loop over it lets peers' puts land).
pub extern "C" fn shmem_signal_fetch(sig_addr: *const u64) -> u64 {
    entry("shmem_signal_fetch", |s| {
        let word = signal_word(s, sig_addr, "sig_addr")?;
        let off = s.word_offset(sig_addr.cast(), 8, "sig_addr")?;
        let mut value = 0;
        // A test that finds nothing first: on MPI's RMA and mixed paths it syncs the window
        // and drives MPI's progress, so a program looping over signal_fetch lets the peers'
        // puts land (a read that always finds a value would never progress). Then the read,
        // with the window synced after it (the data the value announces are visible).
        s.x().test_local(off, 8, &mut || None)?;
        s.x().test_local(off, 8, &mut || {
            // Acquire: pairs with the Release signal update of the putter (module docs).
            value = word.load(Ordering::Acquire);
            Some(0)
        })?;
        Ok(value)
    })
}
}

profiled! {
/// `shmem_signal_wait_until`: waits until this PE's signal word satisfies `cmp cmp_value`;
/// returns the value that did.
pub extern "C" fn shmem_signal_wait_until(sig_addr: *mut u64, cmp: c_int, cmp_value: u64) -> u64 {
    entry("shmem_signal_wait_until", |s| {
        let c: Cmp = cmp_of(cmp)?;
        let w = signal_word(s, sig_addr, "sig_addr")?;
        let off = s.word_offset(sig_addr.cast(), 8, "sig_addr")?;
        let mut seen = 0;
        s.x().wait_local_on(
            off,
            8,
            &mut || {
                // Acquire: pairs with the Release signal update of the putter.
                seen = w.load(Ordering::Acquire);
                c.holds(seen, cmp_value).then_some(0)
            },
            s.until(),
            "shmem_signal_wait_until",
        )?;
        Ok(seen)
    })
}
}

profiled! {
/// `shmem_signal_add` (OpenSHMEM 1.6): adds `signal` to PE `pe`'s signal word after this
/// PE's earlier puts to it.
pub extern "C" fn shmem_signal_add(sig_addr: *mut u64, signal: u64, pe: c_int) {
    entry("shmem_signal_add", |s| {
        let pe = s.pe(pe)?;
        let off = s.word_offset(sig_addr.cast(), 8, "sig_addr")?;
        Ok(s.x().signal(pe, off, SignalOp::Add(signal))?)
    })
}
}

profiled! {
/// `shmem_signal_set` (OpenSHMEM 1.6): sets PE `pe`'s signal word after this PE's earlier
/// puts to it.
pub extern "C" fn shmem_signal_set(sig_addr: *mut u64, signal: u64, pe: c_int) {
    entry("shmem_signal_set", |s| {
        let pe = s.pe(pe)?;
        let off = s.word_offset(sig_addr.cast(), 8, "sig_addr")?;
        Ok(s.x().signal(pe, off, SignalOp::Set(signal))?)
    })
}
}

/// Defines the put-with-signal calls of one type (blocking and `_nbi`).
macro_rules! signal_type {
    ($t:ty; $ps:ident $psn:ident) => {
        profiled! {
        /// Typed put-with-signal.
        ///
        /// # Safety
        /// `source` is valid for reads of `nelems` elements.
        pub unsafe extern "C" fn $ps(
            dest: *mut $t,
            source: *const $t,
            nelems: usize,
            sig_addr: *mut u64,
            signal: u64,
            sig_op: c_int,
            pe: c_int,
        ) {
            entry(stringify!($ps), |s| {
                let n = bytes::<$t>(nelems, stringify!($ps))?;
                // SAFETY: the caller's promise.
                unsafe {
                    put_signal(
                        s,
                        dest.cast(),
                        source.cast(),
                        n,
                        sig_addr,
                        signal,
                        sig_op,
                        pe,
                    )
                }
            })
        }
        }

        profiled! {
        /// Typed non-blocking put-with-signal (complete on return on one node).
        ///
        /// # Safety
        /// As the blocking call.
        pub unsafe extern "C" fn $psn(
            dest: *mut $t,
            source: *const $t,
            nelems: usize,
            sig_addr: *mut u64,
            signal: u64,
            sig_op: c_int,
            pe: c_int,
        ) {
            entry(stringify!($psn), |s| {
                let n = bytes::<$t>(nelems, stringify!($psn))?;
                // SAFETY: the caller's promise.
                unsafe {
                    put_signal(
                        s,
                        dest.cast(),
                        source.cast(),
                        n,
                        sig_addr,
                        signal,
                        sig_op,
                        pe,
                    )
                }
            })
        }
        }
    };
}

type B1 = u8;
type B2 = u16;
type B4 = u32;
type B8 = u64;
const _: () = assert!(size_of::<LongDouble>() == 16 && size_of::<B16>() == 16);

include!("signal_types.rs");
