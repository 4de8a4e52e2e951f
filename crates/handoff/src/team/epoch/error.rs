//! [`EpochError`]: misuse of an epoch, a wait that did not end, or a team error underneath.

use std::time::Duration;

use super::LockKind;
use crate::team::TeamError;

/// Why an epoch call failed. Converts into [`TeamError`] (misuse becomes
/// [`TeamError::InvalidArgument`] with the same message), so `?` works in code that returns
/// team errors.
#[derive(Debug, thiserror::Error)]
pub enum EpochError {
    /// `unlock` of a target this PE has not locked (or unlocked already).
    #[error(
        "{op}: PE {pe} is not locked by this PE; call lock(pe, ..) first and unlock each lock once"
    )]
    NotLocked {
        /// The call.
        op: &'static str,
        /// The target.
        pe: usize,
    },
    /// A second lock on a target this PE holds already.
    #[error(
        "lock: PE {pe} is already locked by this PE ({held:?}); unlock it first \
         (a nested lock on one target would wait for itself)"
    )]
    AlreadyLocked {
        /// The target.
        pe: usize,
        /// The lock held.
        held: LockKind,
    },
    /// A call that needs no epoch of some kind open, while one is.
    #[error("{op}: {open} is open; {how}")]
    EpochOpen {
        /// The call.
        op: &'static str,
        /// The epoch that is open.
        open: &'static str,
        /// What to do.
        how: &'static str,
    },
    /// A call that closes an epoch that is not open.
    #[error("{op} without {needs}: call {needs} first")]
    NoEpoch {
        /// The call.
        op: &'static str,
        /// The call that opens the epoch.
        needs: &'static str,
    },
    /// A group with a PE outside the team or twice.
    #[error("{op}: bad group: {why}")]
    BadGroup {
        /// The call.
        op: &'static str,
        /// What is wrong.
        why: String,
    },
    /// An accumulate operation the element type does not have (bitwise ops on floats).
    #[error("{op}: {acc:?} is not defined on {ty}; use Sum, Prod, Min, Max, Replace or NoOp")]
    Unsupported {
        /// The call.
        op: &'static str,
        /// The operation.
        acc: super::AccOp,
        /// The element type.
        ty: &'static str,
    },
    /// Source and result arrays of different lengths.
    #[error("{op}: {src} source elements but {result} result slots; give one slot per element")]
    Length {
        /// The call.
        op: &'static str,
        /// Source elements.
        src: usize,
        /// Result slots.
        result: usize,
    },
    /// An epoch wait that passed its deadline: usually the matching call is missing.
    #[error(
        "{op}: no {what} within {after:?}{}; check that the matching call is made there \
         (or raise the timeout: Epochs::set_patience, or the call's _timeout form)",
        pe.map(|p| format!(" from PE {p}")).unwrap_or_default()
    )]
    Timeout {
        /// The call.
        op: &'static str,
        /// What it waited for.
        what: &'static str,
        /// The PE it waited on, if one.
        pe: Option<usize>,
        /// The timeout.
        after: Duration,
    },
    /// The lock word of a target holds a state this PE's unlock cannot come from (another
    /// process wrote into the epoch words).
    #[error("{op}: PE {pe}'s lock word {word:#x} is corrupt; the team's memory was overwritten")]
    Corrupt {
        /// The call.
        op: &'static str,
        /// The target.
        pe: usize,
        /// The word seen.
        word: u64,
    },
    /// The team failed underneath (a dead PE is [`TeamError::PeerDied`] naming it).
    #[error(transparent)]
    Team(#[from] TeamError),
}

impl From<EpochError> for TeamError {
    fn from(e: EpochError) -> Self {
        match e {
            EpochError::Team(t) => t,
            other => TeamError::InvalidArgument(other.to_string()),
        }
    }
}
