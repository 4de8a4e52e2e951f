//! The transport contract as tests (feature `conformance`): functions a PE of any
//! [`Transport`](super::Transport) runs inside a started team; each returns `Err` with what
//! broke. A transport's test starts a team of its own kind and calls [`run_all`] on every PE.

use super::{Team, TeamError, Transport};

/// Runs every check of the suite on this PE (collective: every PE calls it).
pub fn run_all<X: Transport>(team: &Team<X>) -> Result<(), String> {
    let _ = team;
    Err::<(), TeamError>(TeamError::InvalidArgument("todo".into())).map_err(|e| e.to_string())
}
