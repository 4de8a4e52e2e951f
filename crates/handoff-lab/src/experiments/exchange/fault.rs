//! Deliberate faults, for the tests of the failure paths only (hidden `--fault` flag): a stale
//! block the consumer must catch, a producer that dies of SIGBUS as on a full `/dev/shm`.

use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A fault the producer injects in one repetition; serialized as its text (`"skip-fill@3"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Fault {
    /// Skip the fill of repetition `rep`: the consumer finds the previous values (stale).
    SkipFill { rep: u32 },
    /// Die of SIGBUS before filling repetition `rep` (process modes only: it ends the process).
    ProducerSigbus { rep: u32 },
}

impl Fault {
    /// Whether the fault kills the producer's process (so it needs a process mode).
    pub fn kills_the_process(self) -> bool {
        matches!(self, Fault::ProducerSigbus { .. })
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::SkipFill { rep } => write!(f, "skip-fill@{rep}"),
            Fault::ProducerSigbus { rep } => write!(f, "producer-sigbus@{rep}"),
        }
    }
}

/// A `--fault` text that names no fault.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("--fault {0}: use skip-fill@REP or producer-sigbus@REP")]
pub struct FaultParseError(pub String);

impl FromStr for Fault {
    type Err = FaultParseError;

    fn from_str(s: &str) -> Result<Self, FaultParseError> {
        let bad = || FaultParseError(s.to_string());
        let (kind, rep) = s.split_once('@').ok_or_else(bad)?;
        let rep: u32 = rep.parse().map_err(|_| bad())?;
        match kind {
            "skip-fill" => Ok(Fault::SkipFill { rep }),
            "producer-sigbus" => Ok(Fault::ProducerSigbus { rep }),
            _ => Err(bad()),
        }
    }
}

impl TryFrom<String> for Fault {
    type Error = FaultParseError;
    fn try_from(s: String) -> Result<Self, FaultParseError> {
        s.parse()
    }
}

impl From<Fault> for String {
    fn from(f: Fault) -> String {
        f.to_string()
    }
}

/// Called by the producer before filling repetition `rep`: `true` when it must skip the fill.
/// Never returns for [`Fault::ProducerSigbus`] at `rep`.
#[inline]
pub fn before_fill(fault: Option<Fault>, rep: u32) -> bool {
    match fault {
        None => false,
        Some(Fault::SkipFill { rep: r }) => r == rep,
        Some(Fault::ProducerSigbus { rep: r }) if r == rep => die_of_sigbus(),
        Some(Fault::ProducerSigbus { .. }) => false,
    }
}

#[cold]
fn die_of_sigbus() -> ! {
    // SAFETY: resetting a signal to its default action and raising it has no memory-safety
    // preconditions. The default action (std's handler would treat a raised SIGBUS as
    // handled and return) terminates the process, as a real bus error on a full tmpfs does.
    unsafe {
        libc::signal(libc::SIGBUS, libc::SIG_DFL);
        libc::raise(libc::SIGBUS);
    }
    std::process::abort()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_parse_and_print() {
        for text in ["skip-fill@3", "producer-sigbus@0"] {
            assert_eq!(text.parse::<Fault>().unwrap().to_string(), text);
        }
        assert_eq!(
            "skip-fill@7".parse::<Fault>().unwrap(),
            Fault::SkipFill { rep: 7 }
        );
        for bad in ["skip-fill", "skip-fill@x", "melt@1"] {
            assert!(bad.parse::<Fault>().is_err(), "{bad}");
        }
        assert!(before_fill(Some(Fault::SkipFill { rep: 2 }), 2));
        assert!(!before_fill(Some(Fault::SkipFill { rep: 2 }), 1));
        assert!(!before_fill(None, 2));
    }
}
