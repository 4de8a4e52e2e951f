//! Channels: create / open, the producer's loan → publish, the consumer's receive → release.
//!
//! The Rust API ties a loan or a received block to a borrow of its producer or consumer; C
//! cannot hold a borrow, so each handle keeps a flag instead ("a block is out") and the calls
//! check it: publish without a loan, a second loan, a receive while holding a block or a
//! release without one return `HANDOFF_E_STATE`. Publishing and releasing go through the
//! channel's documented semantics: a dropped `Loan` keeps its block for the next loan, and a
//! `Received` that was forgotten (not dropped) keeps its block for the next receive; so
//! publish = loan again (the same block, at once) and publish it, release = receive again
//! (the same block, at once) and drop it.

use std::ffi::{c_char, c_int, c_void, CString};
use std::sync::Mutex;
use std::time::Duration;

use handoff::channel::{Channel, ChannelConfig, ChannelError, Consumer, Producer};
use handoff::shm::SegmentError;
use handoff::sys::Deadline;

use crate::error::{ffi, CError};
use crate::segment::open_deadline;
use crate::{handles, handoff_wait, need, patience_of, put, str_arg, Form};

/// An opaque handle to a channel mapped in this process.
#[allow(non_camel_case_types)]
pub struct handoff_channel {
    _private: [u8; 0],
}

/// An opaque handle to a channel's producing end.
#[allow(non_camel_case_types)]
pub struct handoff_producer {
    _private: [u8; 0],
}

/// An opaque handle to a channel's consuming end.
#[allow(non_camel_case_types)]
pub struct handoff_consumer {
    _private: [u8; 0],
}

struct ChannelObj {
    chan: Channel,
    name: Option<CString>,
}

struct ProducerObj {
    p: Producer,
    /// A loaned block is out (its address was handed to C).
    loaned: bool,
}

struct ConsumerObj {
    c: Consumer,
    /// A received block is out, not yet released.
    held: bool,
}

fn internal(what: &str) -> CError {
    CError::new(
        crate::error::HANDOFF_E_PANIC,
        format!("internal error in handoff (a bug, please report it): {what}"),
    )
}

/// Opens `name`, retrying while it does not exist yet, until `deadline`.
pub(crate) fn open_retrying(
    name: &str,
    cfg: ChannelConfig,
    deadline: Deadline,
) -> Result<Channel, ChannelError> {
    loop {
        match Channel::open(name, cfg, deadline) {
            Err(ChannelError::Segment(SegmentError::NotFound { .. })) if !deadline.expired() => {
                std::thread::sleep(Duration::from_millis(5).min(deadline.remaining()));
            }
            r => return r,
        }
    }
}

/// Creates the named channel `/handoff-<pid>-<name>~<random>`: `blocks` blocks of `block_size` bytes.
///
/// Ownership: `*out` receives a new handle; free it with [`handoff_channel_free`] (the
/// channel's name is unlinked once the creator freed it and its producer and consumer).
///
/// # Safety
/// `name` is a NUL-terminated string; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_channel_create(
    name: *const c_char,
    block_size: usize,
    blocks: usize,
    out: *mut *mut handoff_channel,
) -> c_int {
    ffi(|| {
        // SAFETY: the caller's contract above.
        let name = unsafe { str_arg(name, "name") }?;
        need(out, "out")?;
        let chan = Channel::create(name, ChannelConfig::new(block_size, blocks))?;
        let name = chan.name().and_then(|n| CString::new(n).ok());
        // SAFETY: `out` is non-NULL and valid for a write (caller's contract).
        unsafe { put(out, handles::register(ChannelObj { chan, name }), "out") }
    })
}

/// Opens the channel `name` (the creator's full name, or the short one when a single live
/// creator has it) with the creator's `block_size` and `blocks`, waiting up to `timeout_ns`
/// (negative: forever) for the creator to create and publish it.
///
/// Ownership: `*out` receives a new handle; free it with [`handoff_channel_free`].
///
/// # Safety
/// `name` is a NUL-terminated string; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_channel_open(
    name: *const c_char,
    block_size: usize,
    blocks: usize,
    timeout_ns: i64,
    out: *mut *mut handoff_channel,
) -> c_int {
    ffi(|| {
        // SAFETY: the caller's contract above.
        let name = unsafe { str_arg(name, "name") }?;
        need(out, "out")?;
        let cfg = ChannelConfig::new(block_size, blocks);
        let chan = open_retrying(name, cfg, open_deadline(timeout_ns))?;
        let name = chan.name().and_then(|n| CString::new(n).ok());
        // SAFETY: `out` is non-NULL and valid for a write (caller's contract).
        unsafe { put(out, handles::register(ChannelObj { chan, name }), "out") }
    })
}

/// The channel's full name, to give to the process that opens it.
///
/// Ownership: the string belongs to the handle (valid until it is freed).
///
/// # Safety
/// `name` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_channel_name(
    chan: *const handoff_channel,
    name: *mut *const c_char,
) -> c_int {
    ffi(|| {
        let c = handles::get::<ChannelObj, _>(chan, "channel")?;
        let p = c.name.as_ref().map_or(std::ptr::null(), |n| n.as_ptr());
        // SAFETY: the caller's contract above.
        unsafe { put(name, p, "name") }
    })
}

/// The channel's block size in bytes.
///
/// # Safety
/// `size` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_channel_block_size(
    chan: *const handoff_channel,
    size: *mut usize,
) -> c_int {
    ffi(|| {
        let c = handles::get::<ChannelObj, _>(chan, "channel")?;
        // SAFETY: the caller's contract above.
        unsafe { put(size, c.chan.config().block_size, "size") }
    })
}

/// Frees a channel handle. Its producer and consumer handles stay usable (they keep the
/// channel mapped).
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_channel_free(chan: *mut handoff_channel) -> c_int {
    ffi(|| handles::free::<ChannelObj, _>(chan, "channel"))
}

/// Claims the producer side (once per channel, across all processes).
///
/// Ownership: `*out` receives a new handle; [`handoff_producer_free`] closes the side.
///
/// # Safety
/// `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_producer_new(
    chan: *const handoff_channel,
    out: *mut *mut handoff_producer,
) -> c_int {
    ffi(|| {
        let c = handles::get::<ChannelObj, _>(chan, "channel")?;
        need(out, "out")?;
        let p = c.chan.producer()?;
        let obj = Mutex::new(ProducerObj { p, loaned: false });
        // SAFETY: `out` is non-NULL and valid for a write (caller's contract).
        unsafe { put(out, handles::register(obj), "out") }
    })
}

/// Sets how the producer's loans wait: strategy `how` and the default time limit of
/// [`handoff_producer_loan`] (`timeout_ns` negative: none, the default; 0: it looks once).
/// A new producer waits `{HANDOFF_WAIT_ADAPTIVE, 0}` without a time limit.
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_producer_set_patience(
    prod: *const handoff_producer,
    how: handoff_wait,
    timeout_ns: i64,
) -> c_int {
    ffi(|| {
        let patience = patience_of(how, timeout_ns)?;
        let h = handles::get::<Mutex<ProducerObj>, _>(prod, "producer")?;
        handles::lock(&h, "producer")?.p.set_patience(patience);
        Ok(())
    })
}

/// Waits (with the producer's patience, see [`handoff_producer_set_patience`]) for a free
/// block and loans it: `*block` receives its address (128-byte aligned, `block_size` bytes,
/// writable). Write it, then [`handoff_producer_publish`].
///
/// Ownership: the block belongs to the channel; write it only until the publish (or until
/// the producer is freed). `HANDOFF_E_TIMEOUT` when the patience's time limit passed with
/// every block in flight; `HANDOFF_E_CLOSED` once the consumer closed.
///
/// # Safety
/// `block` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_producer_loan(
    prod: *const handoff_producer,
    block: *mut *mut c_void,
) -> c_int {
    // SAFETY: the caller's contract above.
    ffi(|| unsafe { loan(prod, Form::Patient, block) })
}

/// [`handoff_producer_loan`], waiting at most `timeout_ns` (the producer's strategy).
///
/// # Safety
/// `block` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_producer_loan_timeout(
    prod: *const handoff_producer,
    timeout_ns: u64,
    block: *mut *mut c_void,
) -> c_int {
    // SAFETY: the caller's contract above.
    ffi(|| unsafe { loan(prod, Form::Timeout(Duration::from_nanos(timeout_ns)), block) })
}

/// [`handoff_producer_loan`] without waiting: `HANDOFF_E_TIMEOUT` at once when every block
/// is in flight.
///
/// # Safety
/// `block` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_producer_try_loan(
    prod: *const handoff_producer,
    block: *mut *mut c_void,
) -> c_int {
    // SAFETY: the caller's contract above.
    ffi(|| unsafe { loan(prod, Form::Try, block) })
}

/// The three loans.
///
/// # Safety
/// `block` is NULL (refused) or valid for a write.
unsafe fn loan(
    prod: *const handoff_producer,
    form: Form,
    block: *mut *mut c_void,
) -> Result<(), CError> {
    need(block, "block")?;
    let h = handles::get::<Mutex<ProducerObj>, _>(prod, "producer")?;
    let mut st = handles::lock(&h, "producer")?;
    if st.loaned {
        return Err(CError::state(
            "a block is loaned already: publish it before loaning another",
        ));
    }
    let mut loan = match form {
        Form::Patient => st.p.loan()?,
        Form::Timeout(d) => st.p.loan_timeout(d)?,
        Form::Try => st.p.try_loan()?,
    };
    // The loan ends here, and a loan that ends unpublished keeps its block for the next
    // loan (documented): C writes it now, and publish re-takes it.
    let ptr = loan.as_mut_ptr().cast::<c_void>();
    st.loaned = true;
    // SAFETY: the caller's contract above.
    unsafe { put(block, ptr, "block") }
}

/// Publishes the loaned block to the consumer; its address must not be written any more.
///
/// `HANDOFF_E_STATE` without a loan; `HANDOFF_E_CLOSED` if the consumer closed meanwhile
/// (the block is then dropped).
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_producer_publish(prod: *const handoff_producer) -> c_int {
    ffi(|| {
        let h = handles::get::<Mutex<ProducerObj>, _>(prod, "producer")?;
        let mut st = handles::lock(&h, "producer")?;
        if !st.loaned {
            return Err(CError::state(
                "no block is loaned: call handoff_producer_loan (or its _timeout or try_ form), write the block, then publish",
            ));
        }
        st.loaned = false;
        // The block loaned before is still free, so this returns it at once.
        let published = match st.p.try_loan() {
            Ok(loan) => {
                loan.publish();
                Ok(())
            }
            Err(ChannelError::Timeout { .. }) => Err(internal("the loaned block was taken back")),
            Err(e) => Err(e.into()),
        };
        published
    })
}

/// Frees the producer: closes its side (the consumer drains what was published, then sees
/// `HANDOFF_E_CLOSED`). A loaned block is dropped unpublished.
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_producer_free(prod: *mut handoff_producer) -> c_int {
    ffi(|| handles::free::<Mutex<ProducerObj>, _>(prod, "producer"))
}

/// Claims the consumer side (once per channel, across all processes).
///
/// Ownership: `*out` receives a new handle; [`handoff_consumer_free`] closes the side.
///
/// # Safety
/// `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_consumer_new(
    chan: *const handoff_channel,
    out: *mut *mut handoff_consumer,
) -> c_int {
    ffi(|| {
        let c = handles::get::<ChannelObj, _>(chan, "channel")?;
        need(out, "out")?;
        let cons = c.chan.consumer()?;
        let obj = Mutex::new(ConsumerObj {
            c: cons,
            held: false,
        });
        // SAFETY: `out` is non-NULL and valid for a write (caller's contract).
        unsafe { put(out, handles::register(obj), "out") }
    })
}

/// Sets how the consumer's receives wait: strategy `how` and the default time limit of
/// [`handoff_consumer_recv`] (`timeout_ns` negative: none, the default; 0: it looks once).
/// A new consumer waits `{HANDOFF_WAIT_ADAPTIVE, 0}` without a time limit.
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_consumer_set_patience(
    cons: *const handoff_consumer,
    how: handoff_wait,
    timeout_ns: i64,
) -> c_int {
    ffi(|| {
        let patience = patience_of(how, timeout_ns)?;
        let h = handles::get::<Mutex<ConsumerObj>, _>(cons, "consumer")?;
        handles::lock(&h, "consumer")?.c.set_patience(patience);
        Ok(())
    })
}

/// Waits (with the consumer's patience, see [`handoff_consumer_set_patience`]) for the next
/// published block: `*block` receives its address (`block_size` bytes, read-only), `*seq`
/// (if not NULL) its sequence number (0, 1, 2...). Read it, then
/// [`handoff_consumer_release`].
///
/// Ownership: the block belongs to the channel; read it only until the release (or until
/// the consumer is freed). `HANDOFF_E_TIMEOUT` when the patience's time limit passed with
/// nothing published; `HANDOFF_E_CLOSED` once the producer closed and every block was
/// received; `HANDOFF_E_PEER_GONE` if its process died.
///
/// # Safety
/// `block` is valid for a write; `seq` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_consumer_recv(
    cons: *const handoff_consumer,
    block: *mut *const c_void,
    seq: *mut u64,
) -> c_int {
    // SAFETY: the caller's contract above.
    ffi(|| unsafe { recv(cons, Form::Patient, block, seq) })
}

/// [`handoff_consumer_recv`], waiting at most `timeout_ns` (the consumer's strategy).
///
/// # Safety
/// `block` is valid for a write; `seq` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_consumer_recv_timeout(
    cons: *const handoff_consumer,
    timeout_ns: u64,
    block: *mut *const c_void,
    seq: *mut u64,
) -> c_int {
    let form = Form::Timeout(Duration::from_nanos(timeout_ns));
    // SAFETY: the caller's contract above.
    ffi(|| unsafe { recv(cons, form, block, seq) })
}

/// [`handoff_consumer_recv`] without waiting: `HANDOFF_E_TIMEOUT` at once when nothing is
/// published.
///
/// # Safety
/// `block` is valid for a write; `seq` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn handoff_consumer_try_recv(
    cons: *const handoff_consumer,
    block: *mut *const c_void,
    seq: *mut u64,
) -> c_int {
    // SAFETY: the caller's contract above.
    ffi(|| unsafe { recv(cons, Form::Try, block, seq) })
}

/// The three receives.
///
/// # Safety
/// `block` is NULL (refused) or valid for a write; `seq` is NULL or valid for a write.
unsafe fn recv(
    cons: *const handoff_consumer,
    form: Form,
    block: *mut *const c_void,
    seq: *mut u64,
) -> Result<(), CError> {
    need(block, "block")?;
    let h = handles::get::<Mutex<ConsumerObj>, _>(cons, "consumer")?;
    let mut st = handles::lock(&h, "consumer")?;
    if st.held {
        return Err(CError::state(
            "a received block is still held: release it before receiving the next",
        ));
    }
    let got = match form {
        Form::Patient => st.c.recv()?,
        Form::Timeout(d) => st.c.recv_timeout(d)?,
        Form::Try => st.c.try_recv()?,
    };
    let (ptr, s) = (got.as_ptr().cast::<c_void>(), got.seq());
    // Forgotten, not dropped: the block stays received (not released) while C reads it;
    // `handoff_consumer_release` receives it again and drops it.
    std::mem::forget(got);
    st.held = true;
    if !seq.is_null() {
        // SAFETY: the caller's contract above.
        unsafe { put(seq, s, "seq") }?;
    }
    // SAFETY: the caller's contract above.
    unsafe { put(block, ptr, "block") }
}

/// Releases the received block to the producer; its address must not be read any more.
/// `HANDOFF_E_STATE` when no block is held.
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_consumer_release(cons: *const handoff_consumer) -> c_int {
    ffi(|| {
        let h = handles::get::<Mutex<ConsumerObj>, _>(cons, "consumer")?;
        let mut st = handles::lock(&h, "consumer")?;
        if !st.held {
            return Err(CError::state(
                "no block is held: call handoff_consumer_recv (or its _timeout or try_ form) first, and release each block once",
            ));
        }
        st.held = false;
        // The block received before is still published, so this returns it at once.
        let released = match st.c.try_recv() {
            Ok(got) => {
                drop(got);
                Ok(())
            }
            Err(ChannelError::Timeout { .. }) => Err(internal("the received block vanished")),
            Err(e) => Err(e.into()),
        };
        released
    })
}

/// Frees the consumer: closes its side (the producer's next loan returns
/// `HANDOFF_E_CLOSED`).
///
/// # Safety
/// None beyond passing a handle.
#[no_mangle]
pub unsafe extern "C" fn handoff_consumer_free(cons: *mut handoff_consumer) -> c_int {
    ffi(|| handles::free::<Mutex<ConsumerObj>, _>(cons, "consumer"))
}
