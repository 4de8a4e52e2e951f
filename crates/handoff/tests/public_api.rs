//! Behaviour of the public surface's small items. The list of items itself (names and
//! signatures, with a ceiling) is `tests/public_surface.rs`; the old nested paths failing to
//! compile is checked by the `compile_fail` doc tests on `OldPathsAreGone` in `lib.rs`.
#![cfg(not(loom))]

use handoff::sync::WaitError;
use handoff::sys::UnixSignal;
use handoff::team::{Route, TeamError};
use handoff::Error;

/// The error of every layer converts into the crate's, so `?` works into one `Result`.
#[test]
fn every_layer_error_converts_into_the_crate_error() {
    fn takes(_: Error) {}
    takes(WaitError::Timeout.into());
    takes(handoff::sys::Error::InvalidArgument("x".into()).into());
    takes(TeamError::InvalidArgument("x".into()).into());
}

/// A signal names its number as the platform does.
#[test]
fn unix_signals_have_their_numbers() {
    assert_eq!(UnixSignal::Kill.number(), libc::SIGKILL);
    assert_eq!(UnixSignal::Term.number(), libc::SIGTERM);
    assert_eq!(UnixSignal::Child.number(), libc::SIGCHLD);
}

/// A route names its mechanism with a stable short name (records and CSV keep it), and says
/// whether puts and gets to the peer are plain copies.
#[test]
fn routes_have_stable_names() {
    let names: Vec<String> = [Route::SharedSegment, Route::MpiSharedWindow, Route::MpiRma]
        .iter()
        .map(|r| r.to_string())
        .collect();
    assert_eq!(names, ["shm", "mpi-shm", "mpi-rma"]);
    assert!(Route::SharedSegment.is_load_store() && Route::MpiSharedWindow.is_load_store());
    assert!(!Route::MpiRma.is_load_store());
}
