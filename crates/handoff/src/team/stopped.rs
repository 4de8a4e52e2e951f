//! Telling a stopped PE from a slow one when a wait passes its deadline: a PE stopped by
//! SIGSTOP (or Ctrl-Z, or a debugger) is alive, so the peer checks never call it dead, and a
//! wait on it can only time out. At the deadline the error names it as "not responding"
//! instead of a bare timeout ([`TeamError::NotResponding`]).

use super::TeamError;
use crate::sys::ProcessId;

/// The first PE (by rank) of `pes` that is stopped, as `(rank, pid)`.
pub(super) fn first_stopped(
    pes: impl IntoIterator<Item = (usize, ProcessId)>,
) -> Option<(usize, u32)> {
    pes.into_iter()
        .find(|(_, id)| id.is_stopped())
        .map(|(rank, id)| (rank, id.pid))
}

/// The error for a wait on `what` that passed its deadline: [`TeamError::NotResponding`]
/// naming the first stopped PE of `pes`, else [`TeamError::Timeout`].
pub(super) fn timeout_error(
    what: &'static str,
    pes: impl IntoIterator<Item = (usize, ProcessId)>,
) -> TeamError {
    match first_stopped(pes) {
        Some((rank, pid)) => TeamError::NotResponding { rank, pid, what },
        None => TeamError::Timeout { what },
    }
}
