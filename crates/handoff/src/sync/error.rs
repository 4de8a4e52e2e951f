//! [`SyncError`]: why a synchronization primitive refused a call. Waits end with
//! [`WaitError`](crate::sync::WaitError) instead; the crate's [`Error`](crate::Error) wraps both
//! with the same messages.

/// Why a primitive refused a call (not a wait: those end with [`crate::sync::WaitError`]). Each
/// message says what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SyncError {
    /// An argument is out of range or meaningless (a zero-party barrier, a semaphore post
    /// past its maximum, an unknown wait strategy).
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
}
