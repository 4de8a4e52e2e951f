//! Error codes, the thread's last error message, and the wrapper every entry point runs in
//! (no panic crosses the C boundary: it is caught and returned as [`HANDOFF_E_PANIC`]).

use std::cell::RefCell;
use std::ffi::{c_char, c_int, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

use handoff::channel::ChannelError;
use handoff::implementor::ApiOption;
use handoff::shm::SegmentError;
use handoff::sync::WaitError;
use handoff::sys;
use handoff::Error;

/// Success.
pub const HANDOFF_OK: c_int = 0;
/// An argument is NULL, out of range, or not UTF-8 (e.g. a zero block size).
pub const HANDOFF_E_INVALID_ARGUMENT: c_int = -1;
/// The handle is NULL, was already freed, or is a handle of another kind.
pub const HANDOFF_E_BAD_HANDLE: c_int = -2;
/// The deadline passed (or a poll, `timeout_ns == 0`, found nothing to do).
pub const HANDOFF_E_TIMEOUT: c_int = -3;
/// The process on the other side died while we waited.
pub const HANDOFF_E_PEER_GONE: c_int = -4;
/// The other side closed the channel.
pub const HANDOFF_E_CLOSED: c_int = -5;
/// The two sides disagree on the channel's shape, or the segment is not a channel.
pub const HANDOFF_E_MISMATCH: c_int = -6;
/// The producer or consumer side of the channel is already taken.
pub const HANDOFF_E_ROLE_TAKEN: c_int = -7;
/// The call does not fit the handle's state: publish without a loan, a second loan before
/// publishing, receive while holding a block, release without a block, a handle used by two
/// threads at once.
pub const HANDOFF_E_STATE: c_int = -8;
/// A shared segment could not be created, opened or validated (not found, already exists,
/// corrupt, foreign owner, no space...).
pub const HANDOFF_E_SEGMENT: c_int = -9;
/// A system call failed.
pub const HANDOFF_E_IO: c_int = -10;
/// Not supported on this platform (handoff supports Linux).
pub const HANDOFF_E_UNSUPPORTED: c_int = -11;
/// A bug in handoff: a Rust panic was caught at the boundary. Please report it with the
/// message.
pub const HANDOFF_E_PANIC: c_int = -12;
/// The channel's shared counters break its protocol: another process wrote the channel's
/// memory. Nothing was handed out; recreate the channel.
pub const HANDOFF_E_CORRUPT: c_int = -13;

/// An error on its way to C: a code and the message `handoff_last_error_message` returns.
#[derive(Debug)]
pub(crate) struct CError {
    pub(crate) code: c_int,
    pub(crate) message: String,
}

impl CError {
    pub(crate) fn new(code: c_int, message: impl Into<String>) -> Self {
        CError {
            code,
            message: message.into(),
        }
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        CError::new(HANDOFF_E_INVALID_ARGUMENT, message)
    }

    pub(crate) fn state(message: impl Into<String>) -> Self {
        CError::new(HANDOFF_E_STATE, message)
    }

    pub(crate) fn null(what: &str) -> Self {
        CError::invalid(format!("{what} is NULL: pass a valid pointer"))
    }
}

impl From<Error> for CError {
    fn from(e: Error) -> Self {
        let code = match &e {
            Error::Sys(sys::Error::Io { .. }) => HANDOFF_E_IO,
            Error::Sys(sys::Error::Unsupported(_)) => HANDOFF_E_UNSUPPORTED,
            Error::Sys(sys::Error::InvalidArgument(_) | sys::Error::CpuUnavailable { .. }) => {
                HANDOFF_E_INVALID_ARGUMENT
            }
            // `From<sys::Error> for Error` moves the shared-memory object cases to `Segment`.
            Error::Sys(_) => HANDOFF_E_SEGMENT,
            // An offset outside the payload, or misaligned, is the caller's argument
            // (`handoff_flag_at` and the other `_at`s), not a segment that failed.
            Error::Segment(SegmentError::OutOfBounds { .. } | SegmentError::Misaligned { .. }) => {
                HANDOFF_E_INVALID_ARGUMENT
            }
            Error::Segment(_) => HANDOFF_E_SEGMENT,
            Error::Wait(WaitError::Timeout) => HANDOFF_E_TIMEOUT,
            Error::Wait(WaitError::PeerGone { .. }) => HANDOFF_E_PEER_GONE,
            Error::Channel(c) => match c {
                ChannelError::InvalidConfig(_) => HANDOFF_E_INVALID_ARGUMENT,
                ChannelError::NotAChannel { .. } | ChannelError::Mismatch { .. } => {
                    HANDOFF_E_MISMATCH
                }
                ChannelError::RoleTaken { .. } => HANDOFF_E_ROLE_TAKEN,
                ChannelError::Closed { .. } => HANDOFF_E_CLOSED,
                ChannelError::PeerGone { .. } => HANDOFF_E_PEER_GONE,
                ChannelError::Timeout { .. } => HANDOFF_E_TIMEOUT,
                ChannelError::Corrupt { .. } => HANDOFF_E_CORRUPT,
                // `From<ChannelError> for Error` moves segment errors out of `Channel`.
                ChannelError::Segment(_) => HANDOFF_E_SEGMENT,
            },
            // Teams and queues are not part of this ABI yet: no call here returns them.
            Error::Team(_) | Error::Queue(_) => HANDOFF_E_STATE,
        };
        CError::new(code, e.to_string())
    }
}

macro_rules! via_crate_error {
    ($($t:ty),*) => {$(
        impl From<$t> for CError {
            fn from(e: $t) -> Self {
                Error::from(e).into()
            }
        }
    )*};
}
via_crate_error!(ChannelError, SegmentError, WaitError, sys::Error);

/// How C callers do what an error message advises (the core writes the Rust spelling).
fn c_spelling(o: ApiOption) -> &'static str {
    match o {
        ApiOption::AnyOwner => {
            "or run the opener as that user (handoff_segment_open and handoff_channel_open \
             open only segments of the caller's uid)"
        }
        ApiOption::OpenDeadline => "pass a larger timeout_ns to the open call",
        ApiOption::FullName => {
            "openers take the full name handoff_channel_name or handoff_segment_name returns"
        }
        ApiOption::CleanupStale => "run `handoff cleanup`",
        ApiOption::ChannelShape => {
            "open it with the block_size and blocks the creator passed to \
             handoff_channel_create"
        }
        ApiOption::PlainSegment => "open it with handoff_segment_open",
        _ => o.rust(),
    }
}

/// How Fortran callers (the `handoff` module over this ABI) do what a message advises.
fn fortran_spelling(o: ApiOption) -> &'static str {
    match o {
        ApiOption::AnyOwner => {
            "or run the opener as that user (%open opens only segments of the caller's uid)"
        }
        ApiOption::OpenDeadline => "pass a larger timeout= to %open",
        ApiOption::FullName => "openers take the full name the creator's %name() returns",
        ApiOption::CleanupStale => "run `handoff cleanup`",
        ApiOption::ChannelShape => {
            "open it with the block_size and blocks the creator passed to %create"
        }
        ApiOption::PlainSegment => "open it as a handoff_segment (%open)",
        _ => o.rust(),
    }
}

thread_local! {
    /// The message of the last failed call on this thread ("" before any failure), as C
    /// and as Fortran callers read it.
    static LAST: RefCell<(CString, CString)> = RefCell::default();
}

fn set_last(message: &str) {
    // A message with a NUL byte (a name the caller passed) is cut at the NUL.
    let cut = message.split('\0').next().unwrap_or_default();
    let c = CString::new(ApiOption::render(cut, c_spelling)).unwrap_or_default();
    let f = CString::new(ApiOption::render(cut, fortran_spelling)).unwrap_or_default();
    LAST.with(|l| *l.borrow_mut() = (c, f));
}

/// Runs one entry point: its `Err` becomes the return code and the thread's last message; a
/// panic becomes [`HANDOFF_E_PANIC`] (never an unwind into C).
pub(crate) fn ffi(f: impl FnOnce() -> Result<(), CError>) -> c_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => HANDOFF_OK,
        Ok(Err(e)) => {
            set_last(&e.message);
            e.code
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            set_last(&format!(
                "internal error in handoff (a bug, please report it): {what}"
            ));
            HANDOFF_E_PANIC
        }
    }
}

/// The message of the last call that failed on this thread: what went wrong and what to do.
///
/// Ownership: the string belongs to handoff and stays valid until the next handoff call on
/// this thread; copy it to keep it. Never NULL ("" when no call failed yet).
#[no_mangle]
pub extern "C" fn handoff_last_error_message() -> *const c_char {
    catch_unwind(|| LAST.with(|l| l.borrow().0.as_ptr())).unwrap_or(c"".as_ptr())
}

/// [`handoff_last_error_message`] for the Fortran module: the same message, naming the
/// Fortran module's procedures and optional arguments where it advises one.
///
/// Ownership: as [`handoff_last_error_message`].
#[no_mangle]
pub extern "C" fn handoff_last_error_message_fortran() -> *const c_char {
    catch_unwind(|| LAST.with(|l| l.borrow().1.as_ptr())).unwrap_or(c"".as_ptr())
}

/// The name of an error code, e.g. `"HANDOFF_E_TIMEOUT"` (`"HANDOFF_E_UNKNOWN"` for a code
/// that is not one). Static storage: never free it.
#[no_mangle]
pub extern "C" fn handoff_error_name(code: c_int) -> *const c_char {
    let s: &'static std::ffi::CStr = match code {
        HANDOFF_OK => c"HANDOFF_OK",
        HANDOFF_E_INVALID_ARGUMENT => c"HANDOFF_E_INVALID_ARGUMENT",
        HANDOFF_E_BAD_HANDLE => c"HANDOFF_E_BAD_HANDLE",
        HANDOFF_E_TIMEOUT => c"HANDOFF_E_TIMEOUT",
        HANDOFF_E_PEER_GONE => c"HANDOFF_E_PEER_GONE",
        HANDOFF_E_CLOSED => c"HANDOFF_E_CLOSED",
        HANDOFF_E_MISMATCH => c"HANDOFF_E_MISMATCH",
        HANDOFF_E_ROLE_TAKEN => c"HANDOFF_E_ROLE_TAKEN",
        HANDOFF_E_STATE => c"HANDOFF_E_STATE",
        HANDOFF_E_SEGMENT => c"HANDOFF_E_SEGMENT",
        HANDOFF_E_IO => c"HANDOFF_E_IO",
        HANDOFF_E_UNSUPPORTED => c"HANDOFF_E_UNSUPPORTED",
        HANDOFF_E_PANIC => c"HANDOFF_E_PANIC",
        HANDOFF_E_CORRUPT => c"HANDOFF_E_CORRUPT",
        _ => c"HANDOFF_E_UNKNOWN",
    };
    s.as_ptr()
}
