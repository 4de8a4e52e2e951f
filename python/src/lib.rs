//! `handoff._native`: the Python bindings of handoff (PyO3). The public face is the pure
//! Python package `handoff` (python/handoff/__init__.py) that re-exports these classes; its
//! stubs (`__init__.pyi`) document them for editors.
//!
//! - `channel`: `Channel`, `Producer` / `Loan` (a writable block), `Consumer` / `Block` (a
//!   read-only block), each block exposed through the buffer protocol so numpy views it
//!   without a copy.
//! - `block`: the blocks' buffer protocol and its safety rules.
//! - `sync`: `Segment` with `Flag`, `Signal`, `Semaphore` and `Barrier` placed in it.
//!
//! Every wait (opens waiting for a creator included) releases the GIL, and wakes every
//! 100 ms to let Ctrl-C (and other signal handlers) interrupt it: `KeyboardInterrupt` comes
//! within about 0.1 s. Errors are Python exceptions carrying the library's messages.

use std::time::Duration;

use handoff::channel::ChannelError;
use handoff::implementor::ApiOption;
use handoff::sync::WaitError;
use handoff::sync::{Patience, Wait};
use handoff::sys::Deadline;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

mod block;
mod channel;
mod side;
mod sync;

create_exception!(
    handoff,
    HandoffError,
    PyException,
    "Base class of every handoff error; the message says what went wrong and what to do."
);
create_exception!(
    handoff,
    TimeoutError,
    HandoffError,
    "The deadline passed before the condition came true (or a poll found nothing)."
);
create_exception!(
    handoff,
    PeerGoneError,
    HandoffError,
    "The process on the other side died while we waited."
);
create_exception!(
    handoff,
    ClosedError,
    HandoffError,
    "The other side closed the channel: no more blocks will come (or be read)."
);
create_exception!(
    handoff,
    CorruptError,
    HandoffError,
    "The channel's shared counters break its protocol: another process wrote the channel's \
     memory. Nothing was handed out; recreate the channel."
);
create_exception!(
    handoff,
    UsageError,
    HandoffError,
    "A call that does not fit the object's state: a block used after its release, a second \
     receive while a block is held, a handle used from two threads at once."
);

/// How Python callers do what an error message advises (the core writes the Rust spelling).
fn python_spelling(o: ApiOption) -> &'static str {
    match o {
        ApiOption::AnyOwner => {
            "or run the opener as that user (Channel.open and Segment.open open only segments \
             of your own uid)"
        }
        ApiOption::OpenDeadline => "pass a larger timeout= to open()",
        ApiOption::FullName => "openers take the full name in the creator's .name",
        ApiOption::CleanupStale => "run `handoff cleanup`",
        ApiOption::ChannelShape => {
            "open it with the block_size= and blocks= the creator passed to Channel.create"
        }
        ApiOption::PlainSegment => "open it with handoff.Segment.open",
        _ => o.rust(),
    }
}

/// The library's error as the Python exception for its case, its message naming Python's
/// keywords and methods where it advises one.
pub(crate) fn py_err(e: handoff::Error) -> PyErr {
    use handoff::Error as E;
    let msg = ApiOption::render(&e.to_string(), python_spelling);
    match e {
        E::Wait(WaitError::Timeout) | E::Channel(ChannelError::Timeout { .. }) => {
            TimeoutError::new_err(msg)
        }
        E::Wait(WaitError::PeerGone { .. }) | E::Channel(ChannelError::PeerGone { .. }) => {
            PeerGoneError::new_err(msg)
        }
        E::Channel(ChannelError::Closed { .. }) => ClosedError::new_err(msg),
        E::Channel(ChannelError::Corrupt { .. }) => CorruptError::new_err(msg),
        E::Sys(handoff::sys::Error::InvalidArgument(_))
        | E::Channel(ChannelError::InvalidConfig(_)) => {
            pyo3::exceptions::PyValueError::new_err(msg)
        }
        _ => HandoffError::new_err(msg),
    }
}

/// `Into<handoff::Error>` then [`py_err`].
pub(crate) fn err(e: impl Into<handoff::Error>) -> PyErr {
    py_err(e.into())
}

/// A strategy from its name: "spin", "spin-yield", "block", "adaptive", "adaptive:5us".
pub(crate) fn wait_of(name: &str) -> PyResult<Wait> {
    name.parse::<Wait>().map_err(err)
}

/// A patience from its Python spelling: the strategy's name and the default `timeout` in
/// seconds (None: none; 0: look once).
pub(crate) fn patience_of(wait: &str, timeout: Option<f64>) -> PyResult<Patience> {
    Ok(Patience::new(wait_of(wait)?).with_timeout(seconds_of(timeout)?))
}

/// A patience as Python sees it: `(wait, timeout)`, the names `patience_of` takes.
pub(crate) fn patience_py(p: Patience) -> (String, Option<f64>) {
    (p.wait.to_string(), p.timeout.map(|d| d.as_secs_f64()))
}

/// Which of a blocking method's three forms Python called: `x()` (the object's patience),
/// `x_timeout(seconds)` or `try_x()`.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Form {
    Patient,
    Timeout(f64),
    Try,
}

impl Form {
    /// The deadline of a waiting form (`Patient` with `patience`'s timeout; `None`: none).
    pub(crate) fn deadline(self, patience: Patience) -> PyResult<Option<Deadline>> {
        match self {
            Form::Patient => Ok(patience.timeout.map(Deadline::after)),
            Form::Timeout(t) => deadline_of(Some(t)),
            Form::Try => Ok(Some(Deadline::after(Duration::ZERO))),
        }
    }
}

/// `timeout` in seconds as a duration: None = none; negative or NaN refused.
pub(crate) fn seconds_of(timeout: Option<f64>) -> PyResult<Option<Duration>> {
    match timeout {
        None => Ok(None),
        Some(t) if t >= 0.0 && t.is_finite() => Ok(Some(
            Duration::try_from_secs_f64(t).unwrap_or(Duration::MAX / 4),
        )),
        Some(t) => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "timeout must be None (wait forever) or seconds >= 0, not {t}"
        ))),
    }
}

/// `timeout` in seconds: None = forever; negative or NaN refused.
pub(crate) fn deadline_of(timeout: Option<f64>) -> PyResult<Option<Deadline>> {
    Ok(seconds_of(timeout)?.map(Deadline::after))
}

/// How long one GIL-free wait lasts before checking for Ctrl-C. Not shorter: a core wait
/// checks its peers between futex sleeps of up to 50 ms, and one that times out first
/// returns without that check, so slices of 50 ms never noticed a dead peer (a killed
/// producer left `recv` waiting forever: `test_a_killed_simulation_is_reported_by_the_analysis`).
const SLICE: Duration = Duration::from_millis(100);

/// Runs `op` (a wait until the deadline it is given) without the GIL, in slices of at most
/// [`SLICE`], running Python's signal handlers between them (so Ctrl-C interrupts a wait).
/// `is_timeout` tells a slice that ended by its deadline from a real error.
pub(crate) fn wait_sliced<T: Send, E: Send>(
    py: Python<'_>,
    deadline: Option<Deadline>,
    is_timeout: impl Fn(&E) -> bool,
    mut op: impl FnMut(Deadline) -> Result<T, E> + Send,
) -> PyResult<Result<T, E>> {
    loop {
        let slice = Deadline::after(SLICE);
        let d = deadline.map_or(slice, |d| d.min(slice));
        let r = py.detach(|| op(d));
        match r {
            Err(e) if is_timeout(&e) && !deadline.is_some_and(|d| d.expired()) => {
                py.check_signals()?;
            }
            r => return Ok(r),
        }
    }
}

/// A lock that refuses a second thread instead of blocking it (the first may be waiting
/// without the GIL, and blocking here with the GIL held could deadlock).
pub(crate) fn lock<'a, T>(
    m: &'a std::sync::Mutex<T>,
    what: &str,
) -> PyResult<std::sync::MutexGuard<'a, T>> {
    match m.try_lock() {
        Ok(g) => Ok(g),
        Err(std::sync::TryLockError::Poisoned(p)) => Ok(p.into_inner()),
        Err(std::sync::TryLockError::WouldBlock) => Err(UsageError::new_err(format!(
            "this {what} is in use by another thread: use each producer, consumer or \
             primitive from one thread at a time"
        ))),
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("HandoffError", py.get_type::<HandoffError>())?;
    m.add("TimeoutError", py.get_type::<TimeoutError>())?;
    m.add("PeerGoneError", py.get_type::<PeerGoneError>())?;
    m.add("ClosedError", py.get_type::<ClosedError>())?;
    m.add("CorruptError", py.get_type::<CorruptError>())?;
    m.add("UsageError", py.get_type::<UsageError>())?;
    channel::register(m)?;
    sync::register(m)?;
    Ok(())
}
